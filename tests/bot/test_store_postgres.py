"""The PostgreSQL store's own footing against a real server: its migrations reach the schema of
SQLite's (compared by introspection), it refuses what is not its database, and a lost connection
is :class:`StoreUnavailable` with nothing kept. Behaviour shared with SQLite is tested on both
backends in test_store.py and the session tests."""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.clock import ManualClock
from bot.config import Secret, Settings
from bot.sessions import SessionManager, TablePaused
from bot.store import Migration, Store, StoreInterface, StoreUnavailable, load_migrations
from bot.store.interface import ForeignDatabase
from bot.store.postgres import PostgresStore, load_postgres_migrations
from bot.store.postgres.base import VERSIONS_TABLE
from tests.bot.conftest import Recorder
from tests.bot.test_session_faults import humans_table, state, user_of
from tests.postgres import DATABASE, PostgresServer

# SQLite's declared types and the PostgreSQL types that hold the same values.
SAME_TYPE = {
    "INTEGER": {"bigint", "integer"},
    "REAL": {"double precision"},
    "TEXT": {"text"},
}


def _sqlite_schema(path: Path) -> dict[str, Any]:
    """Tables with their columns (name, type, not null), primary key, unique indexes (columns)
    and foreign keys, and the names of all indexes."""
    schema: dict[str, Any] = {}
    with sqlite3.connect(path) as raw:
        tables = [
            str(r[0])
            for r in raw.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        for table in tables:
            columns = {
                str(r[1]): (str(r[2]), bool(r[3]) or r[5] > 0)  # a key is never NULL
                for r in raw.execute(f"PRAGMA table_info({table})")
            }
            key = tuple(
                str(r[1])
                for r in sorted(raw.execute(f"PRAGMA table_info({table})"), key=lambda r: r[5])
                if r[5] > 0
            )
            unique = set()
            indexes = set()
            for r in raw.execute(f"PRAGMA index_list({table})"):
                name, is_unique, origin = str(r[1]), bool(r[2]), str(r[3])
                cols = tuple(str(c[2]) for c in raw.execute(f"PRAGMA index_info({name})"))
                if is_unique and origin != "pk":
                    unique.add(cols)
                if origin == "c":
                    indexes.add(name)
            foreign = {
                (str(r[3]), str(r[2]), str(r[4]))
                for r in raw.execute(f"PRAGMA foreign_key_list({table})")
            }
            schema[table] = {
                "columns": columns,
                "key": key,
                "unique": unique,
                "foreign": foreign,
                "indexes": indexes,
            }
    raw.close()
    return schema


async def _postgres_schema(url: str) -> dict[str, Any]:
    db = await asyncpg.connect(url)
    try:
        schema: dict[str, Any] = {}
        tables = [
            r[0]
            for r in await db.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " AND tablename != $1 ORDER BY tablename",
                VERSIONS_TABLE,
            )
        ]
        for table in tables:
            columns = {
                r["column_name"]: (r["data_type"], r["is_nullable"] == "NO")
                for r in await db.fetch(
                    "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND table_name = $1",
                    table,
                )
            }
            indexes = await db.fetch(
                "SELECT i.relname AS name, x.indisunique AS is_unique, x.indisprimary AS primary,"
                " ARRAY(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY k(n, o)"
                "  JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n"
                "  ORDER BY k.o) AS cols"
                " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                " WHERE x.indrelid = $1::regclass",
                table,
            )
            key = next((tuple(r["cols"]) for r in indexes if r["primary"]), ())
            foreign = {
                (r["col"], r["ref_table"], r["ref_col"])
                for r in await db.fetch(
                    # every column of a key of several, as SQLite lists them
                    "SELECT a.attname AS col, f.relname AS ref_table, b.attname AS ref_col"
                    " FROM pg_constraint c JOIN pg_class f ON f.oid = c.confrelid"
                    " CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(con, ref)"
                    " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.con"
                    " JOIN pg_attribute b ON b.attrelid = c.confrelid AND b.attnum = k.ref"
                    " WHERE c.contype = 'f' AND c.conrelid = $1::regclass",
                    table,
                )
            }
            schema[table] = {
                "columns": columns,
                "key": key,
                "unique": {
                    tuple(r["cols"]) for r in indexes if r["is_unique"] and not r["primary"]
                },
                "foreign": foreign,
                "indexes": {
                    r["name"]
                    for r in indexes
                    if not r["primary"] and not r["name"].endswith("_key")
                },
            }
        return schema
    finally:
        await db.close()


async def test_both_migrations_reach_the_same_schema(
    tmp_path: Path, postgres_empty_url: str
) -> None:
    """Same tables, columns (of the same kind, nullable alike), keys, unique indexes, foreign
    keys and index names: a migration added to one folder and not the other fails here."""
    assert [m.version for m in load_postgres_migrations()] == [m.version for m in load_migrations()]
    await (await Store.open(tmp_path / "db.sqlite3")).close()
    await (await PostgresStore.open(postgres_empty_url)).close()
    lite = _sqlite_schema(tmp_path / "db.sqlite3")
    pg = await _postgres_schema(postgres_empty_url)
    assert sorted(pg) == sorted(lite)
    for table, expected in lite.items():
        found = pg[table]
        assert sorted(found["columns"]) == sorted(expected["columns"]), table
        for column, (kind, not_null) in expected["columns"].items():
            pg_kind, pg_not_null = found["columns"][column]
            assert pg_kind in SAME_TYPE[kind], (table, column, kind, pg_kind)
            assert pg_not_null == not_null, (table, column)
        assert found["key"] == expected["key"], table
        assert found["unique"] == expected["unique"], table
        assert found["foreign"] == expected["foreign"], table
        assert found["indexes"] == expected["indexes"], table


@pytest.mark.parametrize("start", [0, 1, 6, 11, len(load_postgres_migrations())])
async def test_migrates_from_earlier_versions(postgres_empty_url: str, start: int) -> None:
    migrations = load_postgres_migrations()
    old = await PostgresStore.open(postgres_empty_url, migrations[:start])
    assert await old.schema_version() == start
    await old.close()
    store = await PostgresStore.open(postgres_empty_url)
    try:
        assert await store.schema_version() == len(migrations)
        table = await store.create_table(
            guild_id=1, channel_id=2, host_id=3, game="tiny", options={}, seed=5, seats=[(3, "h")]
        )
        assert await store.get_table(table.id) == table
    finally:
        await store.close()


async def test_two_processes_starting_at_once_migrate_once(postgres_empty_url: str) -> None:
    stores = await asyncio.gather(*(PostgresStore.open(postgres_empty_url) for _ in range(3)))
    try:
        rows = await stores[0].fetch(f"SELECT version FROM {VERSIONS_TABLE} ORDER BY version")
        assert [r[0] for r in rows] == [m.version for m in load_postgres_migrations()]
    finally:
        for store in stores:
            await store.close()


async def test_a_failed_migration_leaves_the_version(postgres_empty_url: str) -> None:
    good = [Migration(1, "one", "CREATE TABLE a (x INTEGER);")]
    bad = [*good, Migration(2, "two", "CREATE TABLE b (x INTEGER); SELECT * FROM missing;")]
    store = await PostgresStore.open(postgres_empty_url, good)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await store.migrate(bad)
        assert await store.schema_version() == 1
        assert await store.fetch("SELECT to_regclass('b')") == [(None,)]
    finally:
        await store.close()


async def test_refuses_a_newer_database(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    async with store.transaction() as db:
        await db.execute(f"INSERT INTO {VERSIONS_TABLE} VALUES (99, 'future', 0)")
    await store.close()
    with pytest.raises(RuntimeError, match="newer"):
        await PostgresStore.open(postgres_url)


async def test_refuses_another_programs_database_and_leaves_it_as_it_was(
    postgres_empty_url: str,
) -> None:
    other = await asyncpg.connect(postgres_empty_url)
    await other.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    try:
        with pytest.raises(ForeignDatabase, match=r"another program's tables \(invoices\)"):
            await PostgresStore.open(postgres_empty_url)
        tables = await other.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
        assert [r[0] for r in tables] == ["invoices"]
    finally:
        await other.close()


async def test_a_lost_connection_is_unavailable_keeps_nothing_and_heals(postgres_url: str) -> None:
    """The server ends the store's sessions (a restart, an admin): the write under way is
    refused as unavailable, nothing of it is kept, and the next write reconnects."""
    store = await PostgresStore.open(postgres_url, max_size=1)
    admin = await asyncpg.connect(postgres_url)
    try:
        table = await store.create_table(
            guild_id=1, channel_id=2, host_id=3, game="tiny", options={}, seed=5, seats=[(3, "h")]
        )
        with pytest.raises(StoreUnavailable):
            async with store.transaction() as db:
                await db.execute(
                    "INSERT INTO seats (table_id, seat, user_id, name) VALUES ($1, 1, 4, 'g')",
                    table.id,
                )
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid != pg_backend_pid()"
                )
                await db.execute("SELECT 1")
        assert [s.seat for s in await store.seats(table.id)] == [0]
        await store.sit(table.id, 1, 4, "g")
        assert [s.seat for s in await store.seats(table.id)] == [0, 1]
    finally:
        await admin.close()
        await store.close()


async def test_an_unreachable_server_is_refused_at_open(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        await PostgresStore.open(f"postgresql://postgres@/none?host={tmp_path}")


def test_both_backends_have_every_method_of_the_interface_alike() -> None:
    """Same names, same parameters, same defaults (mypy checks the types at open_store)."""
    names = [
        name
        for name in dir(StoreInterface)
        if not name.startswith("_") and callable(getattr(StoreInterface, name))
    ]
    assert len(names) > 50
    for name in names:
        expected = inspect.signature(getattr(StoreInterface, name))
        assert inspect.signature(getattr(Store, name)) == expected, name
        assert inspect.signature(getattr(PostgresStore, name)) == expected, name


async def test_a_stopped_server_pauses_a_move_keeps_the_game_and_it_goes_on_after(
    postgres_server: PostgresServer,
) -> None:
    """The PostgreSQL server goes down mid-game (a server of this test's own): the click is
    answered as paused, the game and the cache are as before, and once the server is back the
    same click is taken, once."""
    server = PostgresServer(postgres_server.binaries)
    await asyncio.to_thread(server.start)
    await asyncio.to_thread(server.create_database)
    store = await PostgresStore.open(server.url(DATABASE))
    sessions = SessionManager(
        store,
        Settings(discord_token=Secret("x.y.z"), database_path=Path("unused"), turn_seconds=60),
        clock=ManualClock(),
    )
    sessions.presenter = Recorder()
    try:
        table = await humans_table(sessions)
        assert table.game is not None
        seat = table.game.to_act()[0]
        move = table.game.legal_moves(seat)[0]
        before = await state(sessions, table)
        await asyncio.to_thread(server.stop, keep=True)
        with pytest.raises(TablePaused):
            await sessions.submit(table.id, user_of(table, seat), 0, move)
        with pytest.raises(StoreUnavailable):
            await store.get_table(table.id)
        await asyncio.to_thread(server.start)
        assert await state(sessions, table) == before
        await sessions.submit(table.id, user_of(table, seat), 0, move)  # the same click again
        assert [m.move for m in await store.moves(table.id)] == [move.to_json()]
    finally:
        await sessions.shutdown()
        await store.close()
        await asyncio.to_thread(server.stop)
