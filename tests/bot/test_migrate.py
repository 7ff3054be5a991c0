"""``python -m bot.migrate``: games played into SQLite through the session manager come back from
PostgreSQL row for row, with their ratings and history, and a game in progress goes on there."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot import migrate
from bot.store import GuildSettings, Store, StoreInterface, TurnPing
from bot.store.postgres import PostgresStore
from bot.tournaments.spec import TournamentSpec
from bot.tournaments.swiss import pair_round
from tests.bot.backends import POSTGRES, Backend
from tests.bot.faults import until
from tests.bot.played import finished_game, open_game, play_moves, session_manager
from tests.bot.tournaments.play import play_round
from tests.conftest import REPO

ALICE, BOB, CAROL = 1001, 1002, 1003
GUILD = 11


async def played_database(path: Path) -> int:
    """Rated and unrated games, one of them still under way, settings, pings, languages, a
    tournament with a round played and a forgotten person's traces, in the SQLite file at
    ``path``; the id of the game under way."""
    async with session_manager(path) as sessions:
        for _ in range(2):
            await finished_game(sessions, GUILD, [(ALICE, "Alice"), (BOB, "Bob")])
        await finished_game(sessions, GUILD, [(CAROL, "Carol")], "tarneeb")
        await finished_game(sessions, GUILD + 1, [(BOB, "Bob")])
        playing = await open_game(sessions, GUILD, [(ALICE, "Alice"), (CAROL, "Carol")])
        await play_moves(sessions, playing, limit=2)
        store = sessions.store
        await store.save_guild_settings(
            GuildSettings(
                GUILD,
                90,
                True,
                rated=False,
                channels=(5, 6),
                defaults={"tiny": {}},
                language="fi",
            )
        )
        await store.set_user_language(BOB, "ar")
        await tournament_played(store)
        await store.set_turn_ping_wanted(GUILD, ALICE, True)
        await store.save_turn_ping(TurnPing(playing.id, ALICE, 3, 4, playing.moves))
        await store.save_command_fingerprint(77, None, "abc")
        await store.ask_sit_in(playing.id, 1, BOB, "Bob")
        return playing.id


async def tournament_played(store: StoreInterface) -> None:
    """A Swiss tournament of four running, its first round played."""
    spec = TournamentSpec.create(
        game="tarneeb", format="swiss", entry="individuals", rounds=2, seed=9
    )
    made = await store.create_tournament(
        guild_id=GUILD, channel_id=5, organiser_id=ALICE, spec=spec, starts_at=None, now=1.0
    )
    for user in (ALICE, BOB, CAROL, 1004):
        await store.enter_tournament(made.id, [user], name=str(user), rating=0, now=1.0)
    await store.set_tournament_status(made.id, "running", now=2.0)
    paired = pair_round(spec, await store.entrants(made.id), [], [])
    await store.open_round(made.id, paired, deadline=None, now=3.0)
    for result in play_round(spec, paired, random.Random(1)):
        await store.record_tournament_result(made.id, result, now=4.0)


def sqlite_rows(path: Path, table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        rows = [tuple(r) for r in db.execute(f"SELECT * FROM {table} ORDER BY rowid")]
    db.close()
    return rows


async def postgres_rows(url: str, table: str, order: str) -> list[tuple[Any, ...]]:
    db = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await db.fetch(f"SELECT * FROM {table} ORDER BY {order}")]
    finally:
        await db.close()


async def test_every_row_comes_back_and_the_game_under_way_goes_on(
    tmp_path: Path, postgres_empty_url: str
) -> None:
    path = tmp_path / "db.sqlite3"
    playing = await played_database(path)
    told: list[str] = []
    counts = await migrate.migrate(path, postgres_empty_url, told.append)

    with sqlite3.connect(path) as db:
        tables = [
            str(r[0])
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
    db.close()
    assert sorted(counts) == sorted(tables)
    assert all(counts[t] > 0 for t in ("moves", "ratings", "rating_history", "seat_holders"))
    assert all(counts[t] > 0 for t in ("tournament_results", "user_languages"))
    assert told == [f"{table}: {count} rows" for table, count in counts.items()]
    for table in tables:  # the same rows, value for value, in the same order
        with sqlite3.connect(path) as db:
            columns = [str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")]
        db.close()
        order = ", ".join(columns)
        expected = sorted(sqlite_rows(path, table), key=repr)
        found = sorted(await postgres_rows(postgres_empty_url, table, order), key=repr)
        assert found == expected, table

    lite = await Store.open(path)
    pg = await PostgresStore.open(postgres_empty_url)
    try:
        for query in (
            lambda s: s.ladder(GUILD, "tiny", computers=True),
            lambda s: s.rating_trend(GUILD, "tiny", ALICE),
            lambda s: s.recent_games(GUILD, BOB),
            lambda s: s.player_games(GUILD, ALICE),
            lambda s: s.closed_games(
                GUILD, user_id=None, game=None, limit=10, offset=0, viewer=None
            ),
            lambda s: s.guild_settings(GUILD, 60),
            lambda s: s.turn_pings(playing),
            lambda s: s.seat_holders(playing),
            lambda s: s.open_tables(),
            lambda s: s.user_language(BOB),
            lambda s: s.open_tournaments(),
            lambda s: s.entrants(1),
            lambda s: s.tournament_rounds(1),
            lambda s: s.tournament_results(1),
        ):
            assert await query(pg) == await query(lite)
        newest = max(t.id for t in await lite.open_tables())
        table = await pg.create_table(
            guild_id=GUILD, channel_id=5, host_id=ALICE, game="tiny", options={}, seed=1, seats=[]
        )
        assert table.id > newest, "the id sequence goes on after the copied tables"
        (copied,) = await pg.open_tournaments()
        again = await pg.create_tournament(
            guild_id=GUILD,
            channel_id=5,
            organiser_id=BOB,
            spec=copied.spec,
            starts_at=None,
            now=5.0,
        )
        assert again.id > copied.id
    finally:
        await lite.close()
        await pg.close()

    # The game under way resumes from PostgreSQL and plays to its end, with its result.
    async with session_manager_on(postgres_empty_url, tmp_path) as sessions:
        await sessions.restore()
        table = sessions.tables[playing]
        assert table.moves == 2
        await play_moves(sessions, table)
        await until(lambda: table.row.status == "finished", "the resumed game's result is kept")
        board = await sessions.store.leaderboard(GUILD)
        assert {row.user_id for row in board} == {ALICE, BOB, CAROL}


def session_manager_on(url: str, tmp_path: Path) -> Any:
    return session_manager(Backend(POSTGRES, tmp_path / "unused.sqlite3", url))


async def test_a_target_with_rows_is_refused_and_left_as_it_was(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "db.sqlite3"
    await played_database(path)
    store = await PostgresStore.open(postgres_url)
    await store.save_command_fingerprint(1, None, "already here")
    await store.close()
    done = subprocess.run(
        [sys.executable, "-m", "bot.migrate", str(path), postgres_url],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == migrate.EXIT_REFUSED, done.stderr
    assert done.stderr.startswith("not migrated: the PostgreSQL database already holds rows")
    assert "1 in command_syncs" in done.stderr
    assert await postgres_rows(postgres_url, "game_tables", "id") == []


async def test_a_count_that_differs_keeps_nothing_and_says_where(
    tmp_path: Path, postgres_empty_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy that lost rows (here: the last of every batch of moves) is caught by the counts."""
    path = tmp_path / "db.sqlite3"
    await played_database(path)
    copy = migrate.copy_rows

    async def lossy(target: Any, table: str, columns: Any, rows: list[Any]) -> None:
        await copy(target, table, columns, rows[:-1] if table == "moves" else rows)

    monkeypatch.setattr(migrate, "copy_rows", lossy)
    moves = len(sqlite_rows(path, "moves"))
    assert await migrate.run([str(path), postgres_empty_url]) == migrate.EXIT_MISMATCH
    with pytest.raises(migrate.Mismatch, match=f"moves: {moves} rows in SQLite, {moves - 1} in"):
        await migrate.migrate(path, postgres_empty_url)
    assert await postgres_rows(postgres_empty_url, "moves", "seq") == []


def test_usage_and_a_missing_file_are_refused(tmp_path: Path) -> None:
    assert migrate.main([]) == migrate.EXIT_REFUSED
    missing = str(tmp_path / "none.sqlite3")
    assert migrate.main([missing, "postgresql://x@/y"]) == migrate.EXIT_REFUSED
    assert not Path(missing).exists()
