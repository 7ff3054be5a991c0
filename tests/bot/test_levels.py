"""The computer level per table on real SQLite: chosen in the lobby, stored, kept
across a restart, and what the computer's decision is asked for."""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.sessions.turns as session_module
import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.clock import ManualClock
from bot.config import Secret, Settings
from bot.sessions import STAND_IN_LEVEL, LiveTable, SessionManager, UserError
from bot.store import Store, load_migrations
from games.base import Game, Move
from games.players import AVAILABLE_LEVELS, LEVELS
from tests.bot.faults import until

HOST, GUEST = 101, 202


class Spy:
    """Stands in for ``games.levels.choose_move`` in the session manager: records the seat
    and level of each decision (from the executor's thread), then decides as it would."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str]] = []
        self._lock = threading.Lock()
        self._real = session_module.choose_move

    def __call__(self, game: Game, seat: int, rng: random.Random, level: str = "normal") -> Move:
        with self._lock:
            self.calls.append((seat, level))
        return self._real(game, seat, rng, level)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    spy = Spy()
    monkeypatch.setattr(session_module, "choose_move", spy)
    return spy


def settings(path: Path) -> Settings:
    return Settings(discord_token=Secret("x.y.z"), database_path=path, turn_seconds=60)


async def open_manager(path: Path, clock: ManualClock | None = None) -> SessionManager:
    return SessionManager(await Store.open(path), settings(path), clock=clock)


async def close_manager(sessions: SessionManager) -> None:
    await sessions.shutdown()
    await sessions.store.close()


@pytest.fixture
async def manager(db_path: Path) -> AsyncIterator[SessionManager]:
    sessions = await open_manager(db_path)
    yield sessions
    await close_manager(sessions)


async def lobby(sessions: SessionManager, level: str = "normal") -> LiveTable:
    return await sessions.create_table(
        guild_id=1,
        channel_id=2,
        host_id=HOST,
        host_name="Host",
        game="tiny",
        computer_level=level,
    )


async def stored_level(sessions: SessionManager, table: LiveTable) -> str:
    row = await sessions.store.get_table(table.id)
    assert row is not None
    return row.computer_level


async def play_out(sessions: SessionManager, table: LiveTable) -> None:
    """The host plays their first legal card whenever it is their turn, to the game's end."""
    while table.id in sessions.tables:
        await until(
            lambda: (
                table.id not in sessions.tables
                or (table.game is not None and 0 in table.game.to_act())
            ),
            "the host's turn or the end",
        )
        if table.id in sessions.tables:
            assert table.game is not None
            await sessions.submit(table.id, HOST, table.moves, table.game.legal_moves(0)[0])


def test_the_offered_levels_are_the_built_ones() -> None:
    assert STAND_IN_LEVEL in AVAILABLE_LEVELS
    assert set(AVAILABLE_LEVELS) <= set(LEVELS)
    # The database's CHECK names every level, so hard can be offered without a migration.
    sql = next(m.sql for m in load_migrations() if "computer_level" in m.sql)
    assert all(f"'{level}'" in sql for level in LEVELS)


async def test_normal_by_default_and_a_level_at_creation(manager: SessionManager) -> None:
    default = await manager.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="Host", game="tiny"
    )
    assert default.row.computer_level == "normal"
    assert await stored_level(manager, default) == "normal"
    await manager.cancel(default.id, HOST, is_admin=False)
    easy = await lobby(manager, "easy")
    assert easy.row.computer_level == "easy" and await stored_level(manager, easy) == "easy"


async def test_the_host_changes_the_level_and_a_restart_keeps_it(db_path: Path) -> None:
    first = await open_manager(db_path)
    table = await lobby(first)
    await first.join(table.id, GUEST, "Guest")
    await first.set_computer_level(table.id, HOST, "easy")
    assert table.row.computer_level == "easy" and await stored_level(first, table) == "easy"
    await close_manager(first)

    second = await open_manager(db_path)
    await second.restore()
    restored = second.tables[table.id]
    assert restored.row.computer_level == "easy"
    await second.set_computer_level(table.id, HOST, "normal")
    await second.set_computer_level(table.id, HOST, "easy")
    await second.start(table.id, HOST)
    await close_manager(second)

    third = await open_manager(db_path)
    await third.restore()
    playing = third.tables[table.id]
    assert playing.row.status == "playing" and playing.row.computer_level == "easy"
    await close_manager(third)


async def test_refusals_change_nothing(manager: SessionManager) -> None:
    with pytest.raises(UserError, match="levels offered"):
        await lobby(manager, "nightmare")
    for level in set(LEVELS) - set(AVAILABLE_LEVELS):  # hard, until it is built
        with pytest.raises(UserError, match="levels offered"):
            await lobby(manager, level)
    assert await manager.open_table_count() == 0
    table = await lobby(manager, "easy")
    await manager.join(table.id, GUEST, "Guest")
    refusals: list[tuple[int, str, str]] = [
        (GUEST, "normal", "Only the host"),
        (HOST, "nightmare", "levels offered"),
        (HOST, "", "levels offered"),
        (HOST, "EASY", "levels offered"),
    ] + [(HOST, level, "levels offered") for level in set(LEVELS) - set(AVAILABLE_LEVELS)]
    for user, level, message in refusals:
        with pytest.raises(UserError, match=message):
            await manager.set_computer_level(table.id, user, level)
        assert table.row.computer_level == "easy"
        assert await stored_level(manager, table) == "easy"
    await manager.start(table.id, HOST)
    with pytest.raises(UserError, match="already started"):
        await manager.set_computer_level(table.id, HOST, "normal")
    assert await stored_level(manager, table) == "easy"


@pytest.mark.parametrize("level", AVAILABLE_LEVELS)
async def test_the_computer_decides_at_the_table_level_also_after_a_restart(
    db_path: Path, spy: Spy, level: str
) -> None:
    first = await open_manager(db_path)
    table = await lobby(first, "normal" if level != "normal" else "easy")
    await first.add_computer(table.id, HOST)
    await first.set_computer_level(table.id, HOST, level)
    await first.start(table.id, HOST)
    assert table.game is not None
    await until(lambda: table.game is not None and 0 in table.game.to_act(), "the host's turn")
    before = list(spy.calls)
    await close_manager(first)

    second = await open_manager(db_path)
    await second.restore()
    restored = second.tables[table.id]
    await second.resume_after_connect()
    await play_out(second, restored)
    stored = await second.store.get_table(table.id)
    assert stored is not None and stored.status == "finished"
    await close_manager(second)
    computer_moves = [m for m in await stored_moves(db_path, table.id) if m["user_id"] is None]
    assert len(spy.calls) > len(before), "the restored table's computer decided too"
    assert len(spy.calls) == len(computer_moves), "every computer move was one decision"
    assert spy.calls == [(1, level)] * len(spy.calls)


async def stored_moves(path: Path, table_id: int) -> list[dict[str, Any]]:
    with sqlite3.connect(path) as raw:
        raw.row_factory = sqlite3.Row
        return [
            dict(row) for row in raw.execute("SELECT * FROM moves WHERE table_id = ?", (table_id,))
        ]


async def test_an_away_human_is_played_at_the_stand_in_level(
    timed: SessionManager, clock: ManualClock, spy: Spy
) -> None:
    table = await lobby(timed, "easy")
    await timed.join(table.id, GUEST, "Guest")
    await timed.start(table.id, HOST)
    assert table.game is not None
    late = table.game.to_act()[0]
    await until(lambda: table.row.turn_deadline is not None, "the deadline is stored")
    await clock.advance(61)
    await until(lambda: table.moves >= 1, "a computer played the timed-out turn")
    assert table.seats[late].away
    assert spy.calls[0] == (late, STAND_IN_LEVEL)
    assert table.level_of(late) == STAND_IN_LEVEL != table.row.computer_level
