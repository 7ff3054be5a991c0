"""The session manager on real SQLite and on a real PostgreSQL server, with the tiny reference game
and no Discord at all."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bench.picture import showcase
from bot.clock import ManualClock
from bot.config import Secret, Settings
from bot.sessions import LiveTable, SessionManager, UserError, parse_options
from games.base import Event, Move
from games.levels import choose_move
from tests.bot.backends import BOTH, Backend
from tests.bot.faults import until

STORE_BACKENDS = BOTH

HOST, GUEST, STRANGER = 101, 202, 303


class Recorder:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.closed: list[int] = []

    def table_changed(self, table: LiveTable, events: Sequence[Event]) -> None:
        self.events.extend(events)

    def table_closed(self, table: LiveTable) -> None:
        self.closed.append(table.id)


def settings(path: Path, turn_seconds: int = 60) -> Settings:
    return Settings(discord_token=Secret("x.y.z"), database_path=path, turn_seconds=turn_seconds)


@pytest.fixture
async def manager(backend: Backend) -> AsyncIterator[SessionManager]:
    store = await backend.open()
    sessions = SessionManager(store, settings(backend.path))
    sessions.presenter = Recorder()
    yield sessions
    await sessions.shutdown()
    await store.close()


async def two_humans(sessions: SessionManager) -> LiveTable:
    table = await sessions.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="Host", game="tiny"
    )
    await sessions.join(table.id, GUEST, "Guest")
    await sessions.start(table.id, HOST)
    return table


async def snapshot(sessions: SessionManager, table: LiveTable) -> str:
    assert table.game is not None
    moves = await sessions.store.moves(table.id)
    return json.dumps([table.game.summary(), table.moves, [m.move for m in moves]])


def seat_user(table: LiveTable, seat: int) -> int:
    user = table.seats[seat].user_id
    assert user is not None
    return user


async def test_lobby_rules(manager: SessionManager) -> None:
    with pytest.raises(UserError, match="no game called"):
        await manager.create_table(
            guild_id=1, channel_id=2, host_id=HOST, host_name="H", game="chess"
        )
    with pytest.raises(UserError, match="players"):
        await manager.create_table(
            guild_id=1,
            channel_id=2,
            host_id=HOST,
            host_name="H",
            game="tiny",
            options_text="players=3",
        )
    table = await manager.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="H", game="tiny"
    )
    with pytest.raises(UserError, match="already seated"):
        await manager.create_table(
            guild_id=1, channel_id=2, host_id=HOST, host_name="H", game="tiny"
        )
    with pytest.raises(UserError, match="Fill every seat"):
        await manager.start(table.id, HOST)
    await manager.join(table.id, GUEST, "G")
    with pytest.raises(UserError, match="full"):
        await manager.join(table.id, STRANGER, "S")
    with pytest.raises(UserError, match="Only the host"):
        await manager.start(table.id, GUEST)
    with pytest.raises(UserError, match="Only the host"):
        await manager.cancel(table.id, GUEST, is_admin=False)
    await manager.cancel(table.id, STRANGER, is_admin=True)
    assert table.id not in manager.tables
    stored = await manager.store.get_table(table.id)
    assert stored is not None and stored.status == "cancelled"


async def test_refusals_change_nothing(manager: SessionManager) -> None:
    table = await two_humans(manager)
    assert table.game is not None
    seat = table.game.to_act()[0]
    other = (seat + 1) % 2
    before = await snapshot(manager, table)
    card = table.game.legal_moves(seat)[0]
    refusals = [
        (STRANGER, 0, card, "not playing"),
        (seat_user(table, other), 0, card, "turn"),
        (seat_user(table, seat), 5, card, "out of date"),
        (seat_user(table, seat), 0, Move.of("play", card="2C"), "not in your hand"),
    ]
    for user, seq, move, message in refusals:
        with pytest.raises(UserError, match=message):
            await manager.submit(table.id, user, seq, move)
        assert await snapshot(manager, table) == before


async def test_double_click_is_accepted_once(manager: SessionManager) -> None:
    table = await two_humans(manager)
    assert table.game is not None
    seat = table.game.to_act()[0]
    move = table.game.legal_moves(seat)[0]
    results = await asyncio.gather(
        *(manager.submit(table.id, seat_user(table, seat), 0, move) for _ in range(2)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, list) for r in results) == 1
    assert sum(isinstance(r, UserError) for r in results) == 1
    assert len(await manager.store.moves(table.id)) == 1


async def test_game_against_a_computer_finishes_and_is_recorded(manager: SessionManager) -> None:
    table = await manager.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="H", game="tiny"
    )
    await manager.add_computer(table.id, HOST)
    await manager.start(table.id, HOST)
    for _ in range(3):  # the host's three cards; the computer answers each in between
        await until(
            lambda: (
                table.game is not None
                and (table.game.status == "finished" or 0 in table.game.to_act())
            ),
            "the host's turn or the end",
        )
        game = table.game
        assert game is not None
        if game.status == "finished":
            break
        await manager.submit(table.id, HOST, table.moves, game.legal_moves(0)[0])
    await until(lambda: table.id not in manager.tables, "the game ends")
    assert table.game is not None and table.game.status == "finished"
    stored = await manager.store.get_table(table.id)
    assert stored is not None and stored.status == "finished"
    board = await manager.store.leaderboard(1)
    assert [(r.user_id, r.played) for r in board] == [(HOST, 1)]
    assert table.id not in manager.tables


async def test_restore_rebuilds_the_game(backend: Backend) -> None:
    path = backend.path
    store = await backend.open()
    first = SessionManager(store, settings(path))
    table = await two_humans(first)
    assert table.game is not None
    for _ in range(3):
        seat = table.game.to_act()[0]
        await first.submit(
            table.id, seat_user(table, seat), table.moves, table.game.legal_moves(seat)[-1]
        )
    before = await snapshot(first, table)
    await first.shutdown()
    await store.close()

    store = await backend.open()
    second = SessionManager(store, settings(path))
    await second.restore()
    restored = second.tables[table.id]
    assert await snapshot(second, restored) == before
    assert restored.names == ["Host", "Guest"]
    await second.shutdown()
    await store.close()


async def test_a_move_to_a_person_is_one_write_with_its_deadline(
    timed: SessionManager, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next turn's deadline is written with the move, not by the timer afterwards, and the
    table's own turn length needs no read of the server's settings."""
    table = await two_humans(timed)
    await until(lambda: clock.sleepers == 1, "the first turn's timer waits")
    store = timed.store
    writes: list[str] = []
    reads: list[int] = []
    transaction, in_one_trip = store.transaction, getattr(store, "in_one_trip", None)
    guild_settings = store.guild_settings

    def counted_transaction() -> Any:
        writes.append("write")
        return transaction()

    async def counted_trip(work: Any) -> Any:
        writes.append("write")
        return await in_one_trip(work)

    async def counted_settings(guild_id: int, default: int) -> Any:
        reads.append(guild_id)
        return await guild_settings(guild_id, default)

    monkeypatch.setattr(store, "transaction", counted_transaction)
    if in_one_trip is not None:  # SQLite's: a move's transaction in one trip to its thread
        monkeypatch.setattr(store, "in_one_trip", counted_trip)
    monkeypatch.setattr(store, "guild_settings", counted_settings)
    assert table.game is not None
    seat = table.game.to_act()[0]
    first_timer = table.timer
    await timed.submit(
        table.id, seat_user(table, seat), table.moves, table.game.legal_moves(seat)[0]
    )
    next_seat = table.game.to_act()[0]
    assert not table.seats[next_seat].computer
    await until(
        lambda: table.timer is not first_timer and clock.sleepers == 1, "the timer re-armed"
    )
    assert writes == ["write"] and reads == []
    stored = await store.get_table(table.id)
    assert stored is not None and stored.turn_deadline == clock.now() + 60


async def test_timer_hands_the_turn_to_a_computer(
    timed: SessionManager, clock: ManualClock
) -> None:
    table = await two_humans(timed)
    assert table.game is not None
    first_seat = table.game.to_act()[0]
    await until(lambda: table.row.turn_deadline is not None, "the deadline is stored")
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.turn_deadline == clock.now() + 60
    await clock.advance(59)
    assert table.moves == 0 and not table.seats[first_seat].away
    await clock.advance(2)
    await until(lambda: table.moves >= 1, "the computer played the timed-out turn")
    assert table.seats[first_seat].away
    await timed.come_back(table.id, seat_user(table, first_seat))
    assert not table.seats[first_seat].away


def test_parse_options() -> None:
    assert parse_options("players=6 last_trick=bonus, fast=true x=-3") == {
        "players": 6,
        "last_trick": "bonus",
        "fast": True,
        "x": -3,
    }
    with pytest.raises(UserError, match="name=value"):
        parse_options("players")


def test_a_tables_views_are_computed_once_a_game_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move's table edit, its picture and each open hand read the same views: each is
    computed once per game state, and again once the game moved (a new game object, as a
    stored move swaps in, or the same one moved on), never one state behind."""
    table, seat = showcase()
    game = table.game
    assert game is not None
    computed: list[int | None] = []
    real = type(game).view

    def counted(self: Any, who: int | None) -> Any:
        computed.append(who)
        return real(self, who)

    monkeypatch.setattr(type(game), "view", counted)
    public, own = table.view(None), table.view(seat)
    assert table.view(None) is public and table.view(seat) is own
    assert computed == [None, seat]
    assert public == real(game, None) and own == real(game, seat)

    rng = random.Random(1)
    moved = game.clone()
    moved.apply(seat, choose_move(moved, seat, rng))
    table.game = moved  # a stored move: the clone that moved is swapped in
    assert table.view(None) == real(moved, None) != public
    mover = moved.to_act()[0]
    moved.apply(mover, choose_move(moved, mover, rng))  # the same game moved on
    assert table.view(None) == real(moved, None)
    assert table.view(mover) == real(moved, mover)


async def test_a_move_that_leaves_no_person_waited_on_starts_no_turn_timer(
    manager: SessionManager,
) -> None:
    """After a move the turn timer is armed only when a person is waited on: a move that leaves
    the computer to act stored no deadline, and cancels the timer running instead of starting
    one that would find nothing to time."""
    table = await manager.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="H", game="tiny"
    )
    await manager.add_computer(table.id, HOST)
    await manager.start(table.id, HOST)
    checked = False
    for _ in range(3):  # the host's three cards; the computer answers each in between
        await until(
            lambda: (
                table.game is not None
                and (table.game.status == "finished" or 0 in table.game.to_act())
            ),
            "the host's turn or the end",
        )
        game = table.game
        assert game is not None
        if game.status == "finished":
            break
        await until(lambda: table.timer is not None, "the host's turn is timed")
        timer = table.timer
        assert timer is not None and table.row.turn_deadline is not None
        await manager.submit(table.id, HOST, table.moves, game.legal_moves(0)[0])
        if table.id in manager.tables and table.row.turn_deadline is None:  # the computer's turn
            assert table.timer is timer, "no new timer"
            assert timer.done() or timer.cancelling(), "the host's timer is stopped"
            checked = True
    assert checked, "a move of the host left the computer to act"
