"""The favourite calls of ``/stats``, kept with each game's result, against real SQLite: what is
kept equals what a replay of the game's moves finds, and older games are counted once."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import player_stats
from bot.player_stats import game_calls, seat_calls, tally_calls
from bot.sessions import LiveTable, SessionManager
from bot.store import Store
from tests.bot.played import session_manager

GUILD = 31
PLAYERS = ((101, "Ann"), (102, "Ben"), (103, "Cy"), (104, "Di"))


@pytest.fixture
async def sessions(tmp_path: Path) -> AsyncIterator[SessionManager]:
    async with session_manager(tmp_path / "db.sqlite3") as manager:
        yield manager


async def four_humans(sessions: SessionManager, game: str) -> LiveTable:
    (host, name), *guests = PLAYERS
    table = await sessions.create_table(
        guild_id=GUILD, channel_id=5, host_id=host, host_name=name, game=game
    )
    for user_id, guest in guests:
        await sessions.join(table.id, user_id, guest)
    await sessions.start(table.id, host)
    return table


async def play_randomly(
    sessions: SessionManager, table: LiveTable, rng: random.Random, moves: int | None = None
) -> None:
    """Every seat a person's: each move a random legal one, until the game ends (or ``moves``)."""
    made = 0
    while table.row.status == "playing" and (moves is None or made < moves):
        game = table.game
        assert game is not None
        seat = game.to_act()[0]
        user_id = table.seats[seat].user_id
        assert user_id is not None
        await sessions.submit(table.id, user_id, table.moves, rng.choice(game.legal_moves(seat)))
        made += 1


async def kept_calls(store: Store, table_id: int) -> dict[int, list[tuple[str, bool | None]]]:
    rows = await store.fetch(
        "SELECT seat, calls FROM result_players WHERE table_id = ? ORDER BY seat", (table_id,)
    )
    return {
        int(row["seat"]): [(label, ok) for label, ok in json.loads(row["calls"])] for row in rows
    }


async def replayed_calls(store: Store, table_id: int) -> dict[int, list[tuple[str, bool | None]]]:
    table = await store.get_table(table_id)
    assert table is not None
    moves = [(m.seat, m.move) for m in await store.moves(table_id)]
    calls = game_calls(table, await store.deals(table_id), moves)
    return {seat: seat_calls(calls, seat) for seat in range(4)}


@pytest.mark.parametrize(("game", "seed"), [("thunee", 1), ("thunee", 5), ("tuppi", 2)])
async def test_the_calls_kept_with_a_result_are_those_a_replay_of_the_game_finds(
    sessions: SessionManager, game: str, seed: int
) -> None:
    table = await four_humans(sessions, game)
    await play_randomly(sessions, table, random.Random(seed))
    assert table.row.status == "finished"
    kept = await kept_calls(sessions.store, table.id)
    assert kept == await replayed_calls(sessions.store, table.id)
    assert any(kept.values()), "the game settled some calls"


async def test_the_calls_are_kept_whole_when_the_bot_restarted_during_the_game(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    rng = random.Random(2)
    async with session_manager(path) as sessions:
        for _ in range(20):  # the deals are random: a game still on after its first call
            table = await four_humans(sessions, "thunee")
            while table.row.status == "playing" and not table.calls:
                await play_randomly(sessions, table, rng, moves=1)
            if table.row.status == "playing":
                break
        assert table.calls and table.row.status == "playing"
    async with session_manager(path) as sessions:
        await sessions.restore()
        table = sessions.tables[table.id]
        await play_randomly(sessions, table, rng)
        kept = await kept_calls(sessions.store, table.id)
        assert kept == await replayed_calls(sessions.store, table.id)
        assert sum(map(len, kept.values())) > 1, "calls of before and after the restart"


async def test_a_game_recorded_before_calls_were_kept_is_counted_once_from_its_moves(
    sessions: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await four_humans(sessions, "thunee")
    await play_randomly(sessions, table, random.Random(2))
    store = sessions.store
    expected = await kept_calls(store, table.id)
    assert any(expected.values()), "the game settled some calls"
    async with store.transaction() as db:  # as an older bot left it
        await db.execute("UPDATE result_players SET calls = NULL WHERE table_id = ?", (table.id,))

    first = await sessions.player_stats(GUILD, PLAYERS[0][0], None)
    assert first.calls == tally_calls([expected[0]])
    assert await kept_calls(store, table.id) == expected, "the replay's calls are kept"

    def no_replay(*args: object) -> object:
        raise AssertionError("a game whose calls are kept is replayed again")

    monkeypatch.setattr(player_stats, "game_calls", no_replay)
    for seat, (user_id, _) in enumerate(PLAYERS):
        again = await sessions.player_stats(GUILD, user_id, None)
        assert again.calls == tally_calls([expected[seat]])
