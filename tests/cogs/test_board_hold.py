"""The table message waits for the computers playing after a click: one edit shows the click and
their answers (not one edit a move), never longer than the board's hold, never at a shutdown."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, cast

from bot.sessions import LiveTable
from cogs.board import Board


@dataclass
class StubTable:
    """What the board reads of a table while it waits: its id, move count, who is to act."""

    moves: int = 0
    computers: bool = True
    id: int = 7
    game: None = None
    seats: dict[int, Any] = field(default_factory=dict)

    def computers_to_act(self) -> bool:
        return self.computers


class StubBot:
    def __init__(self) -> None:
        self.sessions = self

    def is_closed(self) -> bool:
        return False

    def find(self, table_id: int) -> StubTable | None:
        return None


def watched(board: Board) -> list[int]:
    """The move counts the board delivered the table at (Discord's side left out); its message
    shows the game in play."""
    delivered: list[int] = []
    board.showing_play.add(StubTable().id)

    async def deliver(pending: Any) -> None:
        delivered.append(pending.table.moves)
        pending.dirty = False

    board._deliver = deliver  # type: ignore[method-assign]
    board.pictures.forget = lambda table_id: None  # type: ignore[method-assign]
    return delivered


async def turns(count: int = 50) -> None:
    """Let the event loop run the board's tasks (its delay is 0: no clock involved)."""
    for _ in range(count):
        await asyncio.sleep(0)


async def test_the_edit_after_a_click_waits_for_the_computers_answers() -> None:
    board = Board(cast(Any, StubBot()), delay=0, hold=60)
    delivered = watched(board)
    table = StubTable(moves=1)
    board._enqueue(cast(LiveTable, table), [])  # a person's click; computers are to act
    await turns()
    table.moves = 2  # the first computer played; another is to act
    board._enqueue(cast(LiveTable, table), [])
    await turns()
    assert delivered == []
    table.moves, table.computers = 3, False  # the last computer played: a person is to act
    board._enqueue(cast(LiveTable, table), [])
    await turns()
    assert delivered == [3], "one edit for the click and the computers' two moves"


async def test_the_edit_waits_no_longer_than_the_hold() -> None:
    board = Board(cast(Any, StubBot()), delay=0, hold=0)
    delivered = watched(board)
    board._enqueue(cast(LiveTable, StubTable(moves=4)), [])
    await turns()
    assert delivered == [4]


async def test_a_shutdown_sends_a_waiting_edit_at_once() -> None:
    board = Board(cast(Any, StubBot()), delay=0, hold=60)
    delivered = watched(board)
    board._enqueue(cast(LiveTable, StubTable(moves=5)), [])
    await turns()
    assert delivered == []
    await asyncio.wait_for(board.flush(), 5)
    assert delivered == [5]


async def test_a_game_starting_is_shown_at_once() -> None:
    """The lobby becomes the table without waiting for the computers' first moves."""
    board = Board(cast(Any, StubBot()), delay=0, hold=60)
    delivered = watched(board)
    board.showing_play.clear()
    board._enqueue(cast(LiveTable, StubTable(moves=0)), [])
    await turns()
    assert delivered == [0]
