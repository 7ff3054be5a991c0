"""The benches' people tell how a table ended from its message (bench/table_ends.py): every end
the session layer can bring a table to, rendered by the board as the bot posts it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import pytest

from bench.table_ends import ABANDONED, CANCELLED, ENDS, OVER, RESIGNED, table_end
from bot.clock import ManualClock
from bot.config import Secret, Settings
from bot.sessions import LiveTable, SessionManager
from bot.store import Store
from cogs.board import Board
from games.base import Outcome
from tests.bot.conftest import Recorder
from tests.bot.faults import until
from tests.bot.played import finished_game, open_game

ALICE, BOB, MANAGER = 1001, 1002, 1009
RATED, UNRATED = 11, 22  # two servers: one rates its games, one does not


class StubBot:
    """What the board reads of the bot to draw a table: the session manager."""

    def __init__(self, sessions: SessionManager) -> None:
        self.sessions = sessions


def shown(sessions: SessionManager, table: LiveTable) -> str | None:
    """The description of the table's message, as the board draws it."""
    embed, _ = Board(cast(Any, StubBot(sessions))).content(table)
    return embed.description


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def sessions(tmp_path: Path, clock: ManualClock) -> AsyncIterator[SessionManager]:
    store = await Store.open(tmp_path / "ends.sqlite3")
    settings = Settings(discord_token=Secret("x.y.z"), database_path=tmp_path, turn_seconds=60)
    manager = SessionManager(store, settings, clock)
    manager.presenter = Recorder()
    await manager.change_guild_settings(UNRATED, rated=False)
    try:
        yield manager
    finally:
        await manager.shutdown()
        await store.close()


async def lobby(sessions: SessionManager) -> LiveTable:
    return await sessions.create_table(
        guild_id=UNRATED, channel_id=5, host_id=ALICE, host_name="Alice", game="tiny"
    )


async def played_out(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    return await finished_game(sessions, RATED, [(ALICE, "Alice")])


async def last_leaves_rated(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    table = await open_game(sessions, RATED, [(ALICE, "Alice")])
    await sessions.leave(table.id, ALICE)
    return table


async def stays_away_rated(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    """Her turn timer runs out, then the time allowed to come back: a loss for her side."""
    table = await open_game(sessions, RATED, [(ALICE, "Alice")])
    for _ in range(3):
        await clock.advance(sessions.abandon_seconds + 60)
        await until(lambda: table.row.status != "playing" or bool(clock.sleepers), "a timer")
    await until(lambda: table.row.status != "playing", "the game closed")
    return table


async def last_leaves_unrated(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    table = await open_game(sessions, UNRATED, [(ALICE, "Alice")])
    await sessions.leave(table.id, ALICE)
    return table


async def closed_by_a_manager(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    table = await open_game(sessions, RATED, [(ALICE, "Alice"), (BOB, "Bob")])
    await sessions.cancel(table.id, MANAGER, is_admin=True)
    return table


async def game_channel_deleted(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    table = await open_game(sessions, RATED, [(ALICE, "Alice")])
    await sessions.channel_deleted(table.row.channel_id)
    return table


async def abandoned_by_the_rules(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    """A game whose rules end it without a winner, as abandoned (games/base.py's Outcome)."""
    table = await played_out(sessions, clock)
    assert table.game is not None
    score = cast(Any, table.game.outcome()).score
    table.game.outcome = lambda: Outcome((), score, abandoned=True)  # type: ignore[method-assign]
    return table


async def lobby_cancelled(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    table = await lobby(sessions)
    await sessions.cancel(table.id, ALICE, is_admin=False)
    return table


async def lobby_left(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    table = await lobby(sessions)
    await sessions.leave(table.id, ALICE)
    return table


async def lobby_idle(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    table = await lobby(sessions)
    await until(lambda: bool(clock.sleepers), "the lobby's idle timer")
    await clock.advance(sessions.lobby_idle_seconds + 1)
    await until(lambda: table.row.status == "cancelled", "the lobby closed")
    return table


async def lobby_channel_deleted(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    table = await lobby(sessions)
    await sessions.channel_deleted(table.row.channel_id)
    return table


Ending = Callable[[SessionManager, ManualClock], Awaitable[LiveTable]]


@pytest.mark.parametrize(
    ("ending", "end"),
    [
        (played_out, OVER),
        (abandoned_by_the_rules, ABANDONED),
        (last_leaves_rated, RESIGNED),
        (stays_away_rated, RESIGNED),
        (last_leaves_unrated, ABANDONED),
        (closed_by_a_manager, ABANDONED),
        (game_channel_deleted, ABANDONED),
        (lobby_cancelled, CANCELLED),
        (lobby_left, CANCELLED),
        (lobby_idle, CANCELLED),
        (lobby_channel_deleted, CANCELLED),
    ],
)
async def test_every_end_the_bot_brings_a_table_to_is_told_apart(
    sessions: SessionManager, clock: ManualClock, ending: Ending, end: str
) -> None:
    table = await ending(sessions, clock)
    await until(lambda: table.id not in sessions.tables, "the table is closed")
    assert table_end(shown(sessions, table)) == end


async def test_a_table_still_open_has_not_ended(
    sessions: SessionManager, clock: ManualClock
) -> None:
    waiting = await lobby(sessions)
    assert table_end(shown(sessions, waiting)) is None
    playing = await open_game(sessions, RATED, [(ALICE, "Alice"), (BOB, "Bob")])
    assert table_end(shown(sessions, playing)) is None
    await sessions.leave(playing.id, BOB)  # Alice plays on with a computer
    assert table_end(shown(sessions, playing)) is None
    assert set(ENDS) == {OVER, ABANDONED, RESIGNED, CANCELLED}
