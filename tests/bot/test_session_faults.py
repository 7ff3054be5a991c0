"""A failing database never strands a table: refusals are typed, state and rows stay as before,
and the worker and the turn timers retry until the fault clears."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.config import Secret, Settings
from bot.sessions import PAUSED_TEXT, LiveTable, SessionManager, TablePaused, UserError
from bot.store import Store
from games.base import Move
from tests.bot.conftest import Recorder
from tests.bot.faults import fail_writes, locked, until

HOST, GUEST, THIRD = 101, 202, 303


async def state(sessions: SessionManager, table: LiveTable) -> str:
    """The game, the cache and the database, as one comparable text."""
    moves = await sessions.store.moves(table.id)
    stored = await sessions.store.get_table(table.id)
    seats = await sessions.store.seats(table.id)
    game = table.game.summary() if table.game else None
    return json.dumps(
        [
            game,
            table.moves,
            [m.move for m in moves],
            stored.status if stored else None,
            [(s.seat, s.user_id, s.away) for s in seats],
            sorted((s.seat, s.user_id, s.away) for s in table.seats.values()),
        ]
    )


async def humans_table(sessions: SessionManager) -> LiveTable:
    table = await sessions.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="Host", game="tiny"
    )
    await sessions.join(table.id, GUEST, "Guest")
    await sessions.start(table.id, HOST)
    await until(lambda: table.row.turn_deadline is not None, "the turn timer is stored")
    return table


def user_of(table: LiveTable, seat: int) -> int:
    user = table.seats[seat].user_id
    assert user is not None
    return user


async def test_a_locked_database_pauses_a_move_and_keeps_the_game(
    timed: SessionManager, db_path: Path
) -> None:
    table = await humans_table(timed)
    assert table.game is not None
    seat = table.game.to_act()[0]
    move = table.game.legal_moves(seat)[0]
    before = await state(timed, table)
    with locked(db_path), pytest.raises(TablePaused) as refused:
        await timed.submit(table.id, user_of(table, seat), 0, move)
    assert str(refused.value) == PAUSED_TEXT
    assert isinstance(refused.value, UserError)
    assert await state(timed, table) == before
    await timed.submit(table.id, user_of(table, seat), 0, move)  # the same click, once more
    assert [m.move for m in await timed.store.moves(table.id)] == [move.to_json()]


async def test_lobby_actions_on_a_locked_database_change_nothing(
    timed: SessionManager, db_path: Path
) -> None:
    with locked(db_path), pytest.raises(TablePaused):
        await timed.create_table(guild_id=1, channel_id=2, host_id=HOST, host_name="H", game="tiny")
    assert timed.tables == {} and timed.table_of_user(1, HOST) is None
    table = await timed.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="H", game="tiny"
    )
    for action in (
        lambda: timed.join(table.id, GUEST, "G"),
        lambda: timed.add_computer(table.id, HOST),
    ):
        before = await state(timed, table)
        with locked(db_path), pytest.raises(TablePaused):
            await action()
        assert await state(timed, table) == before
    await timed.join(table.id, GUEST, "G")
    before = await state(timed, table)
    for action in (
        lambda: timed.start(table.id, HOST),
        lambda: timed.leave(table.id, GUEST),
        lambda: timed.cancel(table.id, HOST, is_admin=False),
    ):
        with locked(db_path), pytest.raises(TablePaused):
            await action()
        assert await state(timed, table) == before
        assert table.row.status == "lobby" and table.id in timed.tables
    await timed.start(table.id, HOST)
    assert table.game is not None and table.row.status == "playing"


async def test_the_worker_survives_a_failed_computer_move(
    timed: SessionManager, clock: ManualClock
) -> None:
    table = await timed.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="H", game="tiny"
    )
    await timed.add_computer(table.id, HOST)  # seat 1 leads in the tiny game
    disk = fail_writes(timed.store, "INSERT INTO moves")
    disk.armed = True
    await timed.start(table.id, HOST)
    await asyncio.wait_for(disk.failed.wait(), 10)
    before = await state(timed, table)
    assert table.moves == 0 and "[]" in before
    await clock.advance(0.1)  # not yet time to retry
    assert table.worker is not None and not table.worker.done(), "the worker is alive"
    assert await state(timed, table) == before
    disk.failed.clear()
    await clock.advance(1)  # the first retry: the disk is still full
    await asyncio.wait_for(disk.failed.wait(), 10)
    assert await state(timed, table) == before and disk.failures == 2
    disk.armed = False  # the fault clears
    await clock.advance(2)
    await until(lambda: table.moves == 1, "the computer's move lands after the fault")
    stored = await timed.store.moves(table.id)
    assert [(m.seq, m.seat) for m in stored] == [(0, 1)], "one move, not lost, not doubled"
    await until(lambda: table.row.turn_deadline is not None, "the human's timer is armed")


async def test_the_turn_timer_runs_without_the_worker_and_outlasts_a_fault(
    timed: SessionManager, clock: ManualClock, db_path: Path
) -> None:
    table = await humans_table(timed)
    assert table.game is not None and table.row.turn_deadline is not None
    seat = table.game.to_act()[0]
    if table.worker is not None:
        table.worker.cancel()  # the worker's fate is no business of the timer's
        await asyncio.sleep(0)
    with locked(db_path):
        await clock.advance(61)  # the deadline passes while the database is locked
        await asyncio.sleep(0.05)
        assert not table.seats[seat].away and table.moves == 0
    await clock.advance(1)  # the timer's retry, after the fault cleared
    await until(lambda: table.seats[seat].away, "the late seat is handed to a computer")
    await until(lambda: table.moves == 1, "a computer plays the late seat's turn")
    assert [m.user_id for m in await timed.store.moves(table.id)] == [None]
    assert (await timed.store.seats(table.id))[seat].away


async def test_the_last_move_and_the_result_are_one_transaction(timed: SessionManager) -> None:
    table = await humans_table(timed)
    game = table.game
    assert game is not None
    while True:
        seat = game.to_act()[0]
        move = game.legal_moves(seat)[0]
        probe = game.clone()
        probe.apply(seat, move)
        if probe.status == "finished":
            break
        await timed.submit(table.id, user_of(table, seat), table.moves, move)
        game = table.game
        assert game is not None
    results = fail_writes(timed.store, "INSERT INTO results")
    results.armed = True
    before = await state(timed, table)
    with pytest.raises(TablePaused):
        await timed.submit(table.id, user_of(table, seat), table.moves, move)
    assert await state(timed, table) == before, "no last move without its result"
    assert table.id in timed.tables and table.row.status == "playing"
    results.armed = False
    last = table.moves
    await timed.submit(table.id, user_of(table, seat), last, move)
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.status == "finished"
    assert len(await timed.store.moves(table.id)) == last + 1
    board = await timed.store.leaderboard(1)
    assert sorted(r.user_id for r in board) == [HOST, GUEST]
    assert table.id not in timed.tables


async def test_a_failed_move_is_not_applied_to_the_game(timed: SessionManager) -> None:
    table = await humans_table(timed)
    assert table.game is not None
    seat = table.game.to_act()[0]
    move = table.game.legal_moves(seat)[0]
    disk = fail_writes(timed.store, "COMMIT")
    disk.armed = True
    before = await state(timed, table)
    with pytest.raises(TablePaused):
        await timed.submit(table.id, user_of(table, seat), 0, Move.from_json(move.to_json()))
    disk.armed = False
    assert await state(timed, table) == before


async def test_shutdown_waits_for_a_timer_write_under_way(
    timed: SessionManager, clock: ManualClock
) -> None:
    table = await humans_table(timed)
    await clock.advance(61)  # the timeout's write starts ...
    await timed.shutdown()  # ... and is waited for, not cut off
    assert not timed._writes
    stored = await timed.store.seats(table.id)
    assert [s.away for s in stored] == [
        s.away for s in sorted(table.seats.values(), key=lambda s: s.seat)
    ]


async def test_server_settings_are_checked_in_the_bot(timed: SessionManager) -> None:
    with pytest.raises(UserError, match="10 to 3600"):
        await timed.change_guild_settings(1, turn_seconds=-5)
    assert (await timed.guild_settings(1)).turn_seconds == 60
    changed = await timed.change_guild_settings(1, turn_seconds=30)
    assert changed.turn_seconds == 30 and (await timed.guild_settings(1)).turn_seconds == 30


async def test_a_finished_game_left_playing_by_an_older_bot_is_closed_on_restore(
    timed: SessionManager, db_path: Path
) -> None:
    table = await humans_table(timed)
    game = table.game
    assert game is not None
    while game.status != "finished":  # the old bot's way: moves without the result
        seat = game.to_act()[0]
        move = game.legal_moves(seat)[0]
        game.apply(seat, move)
        await timed.store.append_move(table.id, table.moves, seat, move.to_json(), None)
        table.moves += 1
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.status == "playing"
    later = SessionManager(timed.store, timed.settings, clock=ManualClock())
    await later.restore()
    assert table.id not in later.tables
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.status == "finished"
    assert sorted(r.user_id for r in await timed.store.leaderboard(1)) == [HOST, GUEST]
    assert later.table_of_user(1, HOST) is None, "its players may sit elsewhere"


@pytest.fixture
async def in_folder(tmp_path: Path, clock: ManualClock) -> AsyncIterator[SessionManager]:
    """A session manager whose database sits in a folder of its own (``tmp_path / "data"``)."""
    path = tmp_path / "data" / "db.sqlite3"
    store = await Store.open(path, busy_timeout_ms=20)
    settings = Settings(discord_token=Secret("x.y.z"), database_path=path, turn_seconds=60)
    sessions = SessionManager(store, settings, clock=clock)
    sessions.presenter = Recorder()
    yield sessions
    await sessions.shutdown()
    await store.close()


def remove_folder(folder: Path) -> None:
    shutil.rmtree(folder)


def replace_file(folder: Path) -> None:
    """A copy of the file put in its place: the same bytes, but not the file the bot writes."""
    path = folder / "db.sqlite3"
    shutil.copyfile(path, folder / "copy")
    (folder / "copy").replace(path)


@pytest.mark.parametrize("lose", [remove_folder, replace_file])
async def test_a_database_file_gone_while_running_pauses_moves_with_one_error_line(
    in_folder: SessionManager,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    lose: Callable[[Path], None],
) -> None:
    table = await humans_table(in_folder)
    assert table.game is not None
    seat = table.game.to_act()[0]
    move = table.game.legal_moves(seat)[0]
    before = await state(in_folder, table)
    lose(tmp_path / "data")
    with caplog.at_level(logging.WARNING):
        for _ in range(3):  # answered as paused every time, never as saved
            with pytest.raises(TablePaused):
                await in_folder.submit(table.id, user_of(table, seat), 0, move)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "DATABASE_PATH" in errors[0] and "paused" in errors[0], errors
    assert await state(in_folder, table) == before


async def test_moves_go_on_once_the_database_file_is_back(
    in_folder: SessionManager, tmp_path: Path
) -> None:
    table = await humans_table(in_folder)
    assert table.game is not None
    seat = table.game.to_act()[0]
    move = table.game.legal_moves(seat)[0]
    (tmp_path / "data").rename(tmp_path / "moved")
    with pytest.raises(TablePaused):
        await in_folder.submit(table.id, user_of(table, seat), 0, move)
    (tmp_path / "moved").rename(tmp_path / "data")  # the same file at the same path again
    await in_folder.submit(table.id, user_of(table, seat), 0, move)
    assert [m.move for m in await in_folder.store.moves(table.id)] == [move.to_json()]
    reopened = await Store.open(tmp_path / "data" / "db.sqlite3")  # what a restart finds
    try:
        assert [m.move for m in await reopened.moves(table.id)] == [move.to_json()]
    finally:
        await reopened.close()
