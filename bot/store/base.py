"""The SQLite store: one aiosqlite connection, numbered migrations, typed rows.

All SQL of the bot lives in this package. Every write happens inside
:meth:`~SqliteBase.transaction`, which holds an :class:`asyncio.Lock` for the whole transaction:
on a shared connection without it, a second coroutine's statements would land inside (and be
committed or rolled back with) the first one's.

Writes return the rows they changed (``RETURNING``), so the session manager updates its cache
from the write itself and never re-reads a table behind another coroutine's back. A database that
cannot be written for now (locked, read-only, full, I/O error) raises :class:`StoreUnavailable`
after the transaction is rolled back: nothing of it was kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self, TypeVar, cast

import aiosqlite

from bot.store.interface import ForeignDatabase, StoreUnavailable
from bot.store.rows import SeatRow, TableRow
from bot.store.sql import SQLITE, Row, SqlStore, Writing, sqlite_sql

_T = TypeVar("_T")

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "data" / "migrations"


WAL_ATTEMPTS = 100  # 5 s at 50 ms
MARKER_TABLE = "game_tables"  # made by the first migration: a database holding it is the bot's


def unavailable(error: BaseException) -> bool:
    """A database error that is the machine's fault, not the bot's (no constraint, no misuse)."""
    return isinstance(error, sqlite3.DatabaseError) and not isinstance(
        error, (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError)
    )


async def _check_ours(connection: aiosqlite.Connection) -> None:
    """Refuse a database holding tables of another program: empty, or the bot's own (its
    ``user_version`` set by a migration and its marker table present)."""
    # One statement, so one snapshot: another process may be migrating the file meanwhile.
    async with connection.execute(
        "SELECT name, (SELECT user_version FROM pragma_user_version) FROM sqlite_master"
        " WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ) as cursor:
        rows = list(await cursor.fetchall())
    names = [str(row[0]) for row in rows]
    if not names or (rows[0][1] and MARKER_TABLE in names):
        return
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    raise ForeignDatabase(
        f"holds another program's tables ({shown}), not the bot's: point it at the bot's "
        "database or at a new file"
    )


async def _switch_to_wal(connection: aiosqlite.Connection) -> None:
    """WAL mode, which needs the file to itself for a moment: SQLite answers "locked" at once,
    without waiting, while another process opening the same new file holds it (processes
    starting together), so the switch is tried again for up to a few seconds."""
    for attempt in range(WAL_ATTEMPTS):
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == WAL_ATTEMPTS - 1:
                raise
            await asyncio.sleep(0.05)


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The numbered scripts ``NNNN_name.sql``, in order; numbers must run 1, 2, 3 without gaps."""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        number, _, name = path.stem.partition("_")
        migrations.append(Migration(int(number), name, path.read_text(encoding="utf-8")))
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return migrations


def _statements(script: str) -> list[str]:
    """A script's statements, one by one (SQLite's own tokenizer decides where one ends, so a
    trigger's body or a quoted ``;`` stays whole): ``executescript`` would commit the
    transaction the migration runs in."""
    statements: list[str] = []
    pending = ""
    *pieces, tail = script.split(";")
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    rest = pending + tail
    if any(line.strip() and not line.strip().startswith("--") for line in rest.splitlines()):
        statements.append(rest.strip())
    return statements


class SqliteDb:
    """The :class:`~bot.store.sql.Db` over the connection inside :meth:`SqliteBase.transaction`
    (which translates its errors): each call one trip to the connection's thread, ``$n`` read
    as ``?n``."""

    __slots__ = ("_connection",)

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._connection.execute(sqlite_sql(sql), params)
        return max(cursor.rowcount, 0)

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._connection.executemany(sqlite_sql(sql), rows)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._connection.execute_fetchall(sqlite_sql(sql), params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self.fetch_all(sql, params)
        return rows[0][0] if rows else None


class SqliteBase(SqlStore):
    """The connection, its transactions and migrations: what every feature's SQL runs on."""

    dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._file: Path | None = None  # the path opened, watched for removal or replacement
        self._identity: tuple[int, int] | None = None  # its (st_dev, st_ino) when opened
        self._file_gone = False

    @classmethod
    async def open(
        cls,
        path: Path | str,
        migrations: Sequence[Migration] | None = None,
        busy_timeout_ms: int = 5000,
    ) -> Self:
        """Open (creating the file and its folder if needed) and migrate to the newest schema.

        ``busy_timeout_ms``: how long a write waits on another process's lock before the
        database counts as unavailable.
        """
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        # First, so that another process opening the same new file (its check, its switch to
        # WAL) is waited for, not answered "database is locked".
        await connection.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        try:
            await _check_ours(connection)  # before WAL mode, which would change the file
        except BaseException:
            await connection.close()
            raise
        await _switch_to_wal(connection)
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA synchronous=NORMAL")
        store = cls(connection)
        if str(path) != ":memory:":
            store._file = Path(path).absolute()
            found = os.stat(store._file)
            store._identity = (found.st_dev, found.st_ino)
        try:
            await store.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            await connection.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with store.transaction() as db:``: all or nothing, one at a time."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._check_file()
                    await self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        with contextlib.suppress(sqlite3.Error):
                            await self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                if unavailable(error):
                    raise StoreUnavailable(str(error)) from error
                raise

    def writing(self) -> Writing:
        return Writing(self.transaction(), SqliteDb)

    async def in_one_trip(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """A write transaction run whole on the connection's own thread: BEGIN IMMEDIATE,
        ``work`` (its statements, on the plain ``sqlite3`` connection), COMMIT, or ROLLBACK if
        anything raised. One trip to that thread and back, where :meth:`transaction` takes one
        a statement (each trip hands the GIL over twice): for a move, four trips become one.

        aiosqlite has no public call to run a function on its thread; ``_execute`` is the one
        its own methods use.
        """

        def transact() -> _T:
            db = self._db._conn
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db)
                self._check_file()
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise
            return result

        async with self._lock:
            try:
                return cast(_T, await self._db._execute(transact))  # type: ignore[no-untyped-call]
            except sqlite3.Error as error:
                if unavailable(error):
                    raise StoreUnavailable(str(error)) from error
                raise

    def _check_file(self) -> None:
        """Refuse to commit once the open database is no longer the file at its path (its
        folder removed, the file deleted or replaced): SQLite would go on writing into the
        unlinked file, and every move since would be lost at the next start. One ``stat``.
        """
        if self._file is None:
            return
        try:
            found = os.stat(self._file)
            same = (found.st_dev, found.st_ino) == self._identity
        except OSError:
            same = False
        if same:
            if self._file_gone:
                self._file_gone = False
                log.warning("the database file %r is back: tables go on", str(self._file))
            return
        if not self._file_gone:
            self._file_gone = True
            log.error(
                "DATABASE_PATH %r is no longer the database the bot opened (the file or its "
                "folder was removed or replaced): tables are paused and no move is saved until "
                "that file is back at that path; a restart starts from whatever file is there then",
                str(self._file),
            )
        raise StoreUnavailable("the database file is no longer at DATABASE_PATH")

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply every newer script, each in one transaction with its ``user_version`` bump.

        Each takes the write lock first and reads the version under it: processes starting
        together on a new database (shards) apply each script once, one after the other.
        """
        newest = migrations[-1].version if migrations else 0
        for migration in migrations:
            async with self._lock:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    current = await self.schema_version()
                    if current > newest:
                        raise RuntimeError(
                            f"the database is at schema version {current}, newer than this bot "
                            f"({newest}): run a newer version of the bot"
                        )
                    if migration.version > current:
                        for statement in _statements(migration.sql):
                            await self._db.execute(statement)
                        await self._db.execute(f"PRAGMA user_version = {migration.version}")
                    await self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    raise

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """One query's rows, in one trip to the database's thread (a cursor opened, read and
        closed there; through a cursor here each of the three is a trip). ``$n`` placeholders
        are read as ``?n``."""
        try:
            return list(await self._db.execute_fetchall(sqlite_sql(sql), params))
        except sqlite3.Error as error:
            if unavailable(error):
                raise StoreUnavailable(str(error)) from error
            raise

    @staticmethod
    def breaks_move_number(error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and "moves.table_id, moves.seq" in str(
            error
        )

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Rows of one read-only query (SQLite's own, so no part of the interface); like every
        read it takes no lock. Writes go through :meth:`transaction`."""
        return await self._all(sql, params)


Fields = Row  # a result row of either backend (``sqlite3.Row``, ``asyncpg.Record``)


def table_row(row: Fields) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        host_id=row["host_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        first_dealer=row["first_dealer"],
        status=row["status"],
        turn_deadline=row["turn_deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        computer_level=row["computer_level"],
        rated=bool(row["rated"]),
        hints=bool(row["hints"]),
        computers=bool(row["computers"]),
        turn_seconds=row["turn_seconds"],
        trick_lines=None if row["trick_lines"] is None else bool(row["trick_lines"]),
    )


def seat_row(row: Fields) -> SeatRow:
    return SeatRow(
        row["table_id"],
        row["seat"],
        row["user_id"],
        row["name"],
        bool(row["away"]),
        bool(row["confirmed"]),
    )
