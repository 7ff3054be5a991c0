"""The store against real SQLite files and a real PostgreSQL server: migrations (SQLite's here,
PostgreSQL's in test_store_postgres.py), transactions, moves log, results."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import (
    ForeignDatabase,
    Migration,
    MoveTaken,
    Result,
    Store,
    StoreUnavailable,
    load_migrations,
)
from tests.bot.backends import BOTH, Backend

STORE_BACKENDS = BOTH


async def test_migrates_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "new.sqlite3"
    store = await Store.open(path)
    try:
        assert path.exists()
        assert await store.schema_version() == len(load_migrations())
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
        assert {"game_tables", "seats", "deals", "moves", "results"} <= tables
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("start", range(len(load_migrations()) + 1))
async def test_migrates_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    migrations = load_migrations()
    path = tmp_path / "db.sqlite3"
    old = await Store.open(path, migrations[:start])
    assert await old.schema_version() == start
    await old.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == len(migrations)
        table = await store.create_table(
            guild_id=1,
            channel_id=2,
            host_id=3,
            game="tiny",
            options={},
            seed=5,
            seats=[(3, "host")],
        )
        assert (await store.get_table(table.id)) == table
    finally:
        await store.close()


async def test_a_failed_migration_leaves_the_version(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    good = [Migration(1, "one", "CREATE TABLE a (x INTEGER);")]
    bad = [*good, Migration(2, "two", "CREATE TABLE b (x INTEGER); SELECT * FROM missing;")]
    store = await Store.open(path, good)
    with pytest.raises(sqlite3.OperationalError):
        await store.migrate(bad)
    assert await store.schema_version() == 1
    async with (
        store.transaction() as db,
        db.execute("SELECT name FROM sqlite_master WHERE name = 'b'") as cursor,
    ):
        assert await cursor.fetchone() is None
    await store.close()


async def test_refuses_a_newer_database(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match="newer"):
        await Store.open(path)


def _tables_and_mode(path: Path) -> tuple[set[str], str, int]:
    with sqlite3.connect(path) as raw:
        tables = {str(row[0]) for row in raw.execute("SELECT name FROM sqlite_master")}
        mode = str(raw.execute("PRAGMA journal_mode").fetchone()[0])
        version = int(raw.execute("PRAGMA user_version").fetchone()[0])
    raw.close()
    return tables, mode, version


@pytest.mark.parametrize("version", [0, 3])
async def test_refuses_another_programs_database_and_leaves_it_as_it_was(
    tmp_path: Path, version: int
) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        raw.execute(f"PRAGMA user_version = {version}")
    raw.close()
    before = path.read_bytes()
    with pytest.raises(ForeignDatabase, match=r"another program's tables \(invoices\)"):
        await Store.open(path)
    assert path.read_bytes() == before
    assert _tables_and_mode(path) == ({"invoices"}, "delete", version)


async def test_opens_an_empty_sqlite_file_and_its_own_database_again(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    sqlite3.connect(path).close()  # an SQLite file with no tables yet
    store = await Store.open(path)
    await store.create_table(
        guild_id=1, channel_id=2, host_id=3, game="tiny", options={}, seed=5, seats=[(3, "h")]
    )
    await store.close()
    again = await Store.open(path)  # the bot's own: opened, its table still there
    try:
        assert [t.id for t in await again.open_tables()] == [1]
    finally:
        await again.close()


async def test_a_failed_transaction_leaves_no_row(store: Store, backend: Backend) -> None:
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, game="tiny", options={}, seed=5, seats=[(3, "host")]
    )
    with pytest.raises(RuntimeError):
        async with store.transaction() as db:
            await backend.run(
                db, "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?,1,4,'x')", table.id
            )
            raise RuntimeError("boom")
    assert [s.seat for s in await store.seats(table.id)] == [0]


async def test_concurrent_transactions_do_not_mix(store: Store, backend: Backend) -> None:
    """Without the lock (SQLite's one connection) or a connection each (PostgreSQL's pool), the
    failing transaction's row would be committed by the other one."""
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, game="tiny", options={}, seed=5, seats=[]
    )

    async def failing() -> None:
        async with store.transaction() as db:
            await backend.run(
                db, "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?,0,1,'a')", table.id
            )
            await asyncio.sleep(0.01)
            raise RuntimeError("boom")

    async def succeeding() -> None:
        await asyncio.sleep(0.001)
        await store.sit(table.id, 1, 2, "b")

    results = await asyncio.gather(failing(), succeeding(), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    assert [(s.seat, s.name) for s in await store.seats(table.id)] == [(1, "b")]


async def test_moves_log_is_unique_per_number(store: Store, backend: Backend) -> None:
    table = await store.create_table(
        guild_id=1,
        channel_id=2,
        host_id=3,
        game="tiny",
        options={},
        seed=5,
        seats=[(3, "h"), (None, "cpu")],
    )
    await store.start_game(table.id, 0, [{"hands": [["AS"], ["AH"]], "stock": []}])
    await store.append_move(table.id, 0, 1, {"action": "play", "card": "AH"}, None)
    with pytest.raises(MoveTaken):  # a second writer of move 0 (another process)
        await store.append_move(
            table.id,
            0,
            0,
            {"action": "play", "card": "AS"},
            3,
            new_deals=[(1, {"hands": [["KS"], ["KH"]], "stock": []})],
            status="finished",
        )
    moves = await store.moves(table.id)
    assert [(m.seq, m.seat, m.move) for m in moves] == [(0, 1, {"action": "play", "card": "AH"})]
    assert await store.deals(table.id) == [{"hands": [["AS"], ["AH"]], "stock": []}]
    assert (await store.get_table(table.id)).status == "playing"  # type: ignore[union-attr]


async def test_results_and_leaderboard(store: Store) -> None:
    for winner in (0, 0, 1):
        table = await store.create_table(
            guild_id=9,
            channel_id=2,
            host_id=1,
            game="tiny",
            options={},
            seed=5,
            seats=[(1, "a"), (2, "b")],
        )
        await store.record_result(
            table,
            "finished",
            {"winners": [winner], "score": [1, 0], "abandoned": False},
            [(1, 0, winner == 0), (2, 1, winner == 1)],
        )
    abandoned = await store.create_table(
        guild_id=9,
        channel_id=2,
        host_id=1,
        game="tiny",
        options={},
        seed=5,
        seats=[(1, "a"), (2, "b")],
    )
    await store.record_result(
        abandoned, "abandoned", {"winners": [], "score": [], "abandoned": True}, [(1, 0, False)]
    )
    board = await store.leaderboard(9)
    assert [(r.user_id, r.won, r.played) for r in board] == [(1, 2, 3), (2, 1, 3)]
    assert await store.leaderboard(9, "thunee") == []
    assert await store.open_tables() == []
    assert await store.open_table_of_user(9, 1) is None


async def test_calls_kept_with_results_are_read_back_newest_first(store: Store) -> None:
    """The calls kept with a result, or added later for a game recorded without them, and the
    seat whose person resigned: the same on either backend."""
    tables = []
    for calls in ([(0, "Thunee", True), (1, "Jodhi", None)], None):
        table = await store.create_table(
            guild_id=9, channel_id=2, host_id=1, game="tiny", options={}, seed=5,
            seats=[(1, "a"), (2, "b")],
        )  # fmt: skip
        outcome = {"winners": [1], "score": [0, 1], "abandoned": True, "resigned": 0}
        await store.record_result(
            table, "abandoned", outcome, [(1, 0, False), (2, 1, True)], calls=calls
        )
        tables.append(table.id)
    await store.keep_calls({tables[1]: [(0, "Khanaak", False)], tables[0]: [(0, "Not kept", True)]})
    recent = await store.recent_calls(9, 1)
    assert [(c.table_id, c.seat, c.abandoned, c.calls) for c in recent] == [
        (tables[1], 0, True, [("Khanaak", False)]),
        (tables[0], 0, True, [("Thunee", True)]),
    ]
    assert [c.calls for c in await store.recent_calls(9, 2)] == [[], [("Jodhi", None)]]
    assert await store.recent_calls(9, 1, "thunee") == []
    assert await store.resigned_seat(tables[0]) == 0
    assert await store.resigned_seat(12345) is None


async def test_writes_return_what_they_changed(store: Store) -> None:
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, game="tiny", options={}, seed=5, seats=[(3, "host")]
    )
    row, seat = await store.sit(table.id, 1, 4, "guest")
    assert (seat.seat, seat.user_id, seat.name, seat.away) == (1, 4, "guest", False)
    assert row.updated_at >= table.updated_at
    row = await store.stand(table.id, 0, host_id=4)
    assert row.host_id == 4 and row == await store.get_table(table.id)
    row, moved = await store.change_seat(table.id, 1, 0)
    assert moved.seat == 0 and [s.seat for s in await store.seats(table.id)] == [0]
    row = await store.start_game(table.id, 0, [{"hands": [["AS"], ["AH"]], "stock": []}])
    assert row.status == "playing" and row.first_dealer == 0
    with pytest.raises(LookupError):  # a second start finds no lobby
        await store.start_game(table.id, 0, [])
    row, changed = await store.set_away(table.id, [0], True)
    assert changed[0].away and (await store.seats(table.id))[0].away


async def test_the_last_move_and_its_result_are_stored_together(
    store: Store, backend: Backend
) -> None:
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, game="tiny", options={}, seed=5, seats=[(3, "h")]
    )
    await store.start_game(table.id, 0, [{"hands": [["AS"], ["AH"]], "stock": []}])
    result = Result(
        "finished", {"winners": [0], "score": [1, 0], "abandoned": False}, [(3, 0, True)]
    )
    with pytest.raises(backend.integrity):  # a result row that cannot be kept ...
        await store.append_move(
            table.id, 0, 0, {"action": "play"}, 3, result=Result("bogus", {}, [(3, 0, True)])
        )
    assert await store.moves(table.id) == []  # ... takes its move with it
    row, _ = await store.append_move(table.id, 0, 0, {"action": "play"}, 3, result=result)
    assert row.status == "finished" and row.turn_deadline is None
    assert [(r.user_id, r.won) for r in await store.leaderboard(1)] == [(3, 1)]
    assert len(await store.moves(table.id)) == 1


async def test_a_locked_database_is_unavailable_and_keeps_nothing(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path, busy_timeout_ms=20)
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, game="tiny", options={}, seed=5, seats=[(3, "h")]
    )
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreUnavailable, match="locked"):
        await store.sit(table.id, 1, 4, "g")
    other.execute("ROLLBACK")
    other.close()
    assert [s.seat for s in await store.seats(table.id)] == [0]
    await store.sit(table.id, 1, 4, "g")  # the same connection works again
    await store.close()
