"""Hints per table on real SQLite: set at creation or by the host in the lobby,
stored and restored; asked for only by the player whose turn it is, and equal to the normal
computer player's move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.config import Secret, Settings
from bot.sessions import LiveTable, SessionManager, UserError
from bot.store import Store
from games.levels import choose_move
from tests.bot.faults import until

HOST, GUEST, STRANGER = 101, 202, 303


async def open_manager(path: Path) -> SessionManager:
    settings = Settings(discord_token=Secret("x.y.z"), database_path=path, turn_seconds=60)
    return SessionManager(await Store.open(path), settings)


async def close_manager(sessions: SessionManager) -> None:
    await sessions.shutdown()
    await sessions.store.close()


async def stored_hints(sessions: SessionManager, table: LiveTable) -> bool:
    row = await sessions.store.get_table(table.id)
    assert row is not None
    return row.hints


async def two_players(sessions: SessionManager, hints: bool) -> LiveTable:
    table = await sessions.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="Host", game="tiny", hints=hints
    )
    await sessions.join(table.id, GUEST, "Guest")
    return table


async def test_hints_are_set_by_the_host_in_the_lobby_and_survive_a_restart(
    db_path: Path,
) -> None:
    first = await open_manager(db_path)
    off = await first.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="Host", game="tiny"
    )
    assert not off.row.hints and not await stored_hints(first, off)
    await first.join(off.id, GUEST, "Guest")
    with pytest.raises(UserError, match="Only the host"):
        await first.set_hints(off.id, GUEST, True)
    assert not await stored_hints(first, off)
    await first.set_hints(off.id, HOST, True)
    assert off.row.hints and await stored_hints(first, off)
    await first.set_hints(off.id, HOST, True)  # a double click changes nothing
    await close_manager(first)

    second = await open_manager(db_path)
    await second.restore()
    table = second.tables[off.id]
    assert table.row.hints
    await second.start(table.id, HOST)
    with pytest.raises(UserError, match="already started"):
        await second.set_hints(table.id, HOST, False)
    assert await stored_hints(second, table)
    await close_manager(second)

    third = await open_manager(db_path)
    await third.restore()
    assert third.tables[off.id].row.hints and third.tables[off.id].game is not None
    await close_manager(third)


async def test_a_hint_is_the_normal_move_for_the_player_to_act_only(db_path: Path) -> None:
    sessions = await open_manager(db_path)
    try:
        table = await two_players(sessions, hints=True)
        with pytest.raises(UserError, match="not being played"):
            sessions.hint(table.id, HOST)
        await sessions.start(table.id, HOST)
        assert table.game is not None
        (to_act,) = table.waiting_for()
        user = HOST if table.seats[to_act].user_id == HOST else GUEST
        other = GUEST if user == HOST else HOST
        with pytest.raises(UserError, match="not your turn"):
            sessions.hint(table.id, other)
        with pytest.raises(UserError, match="not playing"):
            sessions.hint(table.id, STRANGER)

        for _ in range(4):  # a few turns, each hint equal to what a normal computer would play
            await until(lambda: bool(table.waiting_for()), "someone's turn")
            (seat,) = table.waiting_for()
            user = table.seats[seat].user_id
            assert user is not None
            seq, move, reason = sessions.hint(table.id, user)
            rng = random.Random(f"{table.row.seed}:{table.moves}")
            assert seq == table.moves and reason
            assert move == choose_move(table.game, seat, rng, "normal")
            assert table.moves == seq  # asking plays nothing
            await sessions.submit(table.id, user, seq, move)
    finally:
        await close_manager(sessions)


async def test_no_hint_at_a_table_without_hints(db_path: Path) -> None:
    sessions = await open_manager(db_path)
    try:
        table = await two_players(sessions, hints=False)
        await sessions.start(table.id, HOST)
        for user in (HOST, GUEST, STRANGER):
            with pytest.raises(UserError, match="Hints are off"):
                sessions.hint(table.id, user)
    finally:
        await close_manager(sessions)
