"""The PostgreSQL store's footing: a pool of asyncpg connections, transactions, migrations.

The same contract as :mod:`bot.store.base`: every write runs in :meth:`PostgresBase.transaction`
(all or nothing, rolled back on any error), writes return the rows they changed, and a server
that cannot be reached or cannot write for now raises :class:`StoreUnavailable`.

Unlike one SQLite file, transactions run side by side here (one pooled connection each, possibly
from several bot processes): what reads and then writes shared rows (the ratings) takes a lock
on them in PostgreSQL, not in this process.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import asyncpg

from bot.store.base import MARKER_TABLE, Migration, load_migrations
from bot.store.interface import ForeignDatabase, StoreUnavailable
from bot.store.sql import POSTGRES, Row, SqlStore, Writing

MIGRATIONS_DIR = Path(__file__).resolve().parents[3] / "data" / "migrations_postgres"
VERSIONS_TABLE = "schema_migrations"  # one row per migration applied
MOVE_NUMBER_KEY = "moves_table_id_seq_key"  # UNIQUE (table_id, seq) of the moves log
VERSIONS_DDL = (
    f"CREATE TABLE IF NOT EXISTS {VERSIONS_TABLE} (version INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
)
MIGRATION_LOCK = 0x636172647461626C  # an advisory lock key: one migrating process at a time

# Errors that are the server's or the network's fault, not the bot's: retried by the session
# layer's pause, never answered as bugs.
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InsufficientResourcesError,
    asyncpg.OperatorInterventionError,
    asyncpg.PostgresSystemError,
    asyncpg.ReadOnlySQLTransactionError,
    asyncpg.TransactionRollbackError,
    asyncpg.LockNotAvailableError,
)


def unavailable(error: BaseException) -> bool:
    """A database error that is the machine's fault (no constraint, no misuse)."""
    if isinstance(error, asyncpg.InterfaceError):
        text = str(error)
        return "closed" in text or "closing" in text
    return isinstance(error, _UNAVAILABLE)


def changed(status: str) -> int:
    """The number of rows a statement changed, from its status (``"UPDATE 3"``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def load_postgres_migrations() -> list[Migration]:
    """PostgreSQL's numbered scripts, one per SQLite script of the same number."""
    return load_migrations(MIGRATIONS_DIR)


class PostgresDb:
    """The :class:`~bot.store.sql.Db` over the connection inside
    :meth:`PostgresBase.transaction` (which translates its errors)."""

    __slots__ = ("_connection",)

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return changed(await self._connection.execute(sql, *params))

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._connection.executemany(sql, rows)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._connection.fetch(sql, *params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = await self._connection.fetchrow(sql, *params)
        return row

    async def fetch_value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._connection.fetchval(sql, *params)


class PostgresBase(SqlStore):
    """The pool, its transactions and migrations: what every feature's SQL runs on."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(
        cls,
        url: str,
        migrations: Sequence[Migration] | None = None,
        *,
        min_size: int = 1,
        max_size: int = 10,
        connect_timeout: float = 10.0,
    ) -> Self:
        """Connect to ``url`` (``postgresql://...``) and migrate to the newest schema.

        Refuses (:class:`ForeignDatabase`) a database holding another program's tables."""
        pool = await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, timeout=connect_timeout
        )
        store = cls(pool)
        try:
            await store._check_ours()
            await store.migrate(load_postgres_migrations() if migrations is None else migrations)
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    async def _check_ours(self) -> None:
        """Empty, or the bot's own (its versions table and its marker table present)."""
        names = [
            str(row[0])
            for row in await self._pool.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " ORDER BY tablename"
            )
        ]
        if not set(names) - {VERSIONS_TABLE} or {VERSIONS_TABLE, MARKER_TABLE} <= set(names):
            return
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        raise ForeignDatabase(
            f"holds another program's tables ({shown}), not the bot's: point it at the bot's "
            "database or at a new one"
        )

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """``async with store.transaction() as db:``: all or nothing, on one connection."""
        try:
            async with self._pool.acquire() as connection, connection.transaction():
                yield connection
        except Exception as error:
            if unavailable(error):
                raise StoreUnavailable(str(error) or type(error).__name__) from error
            raise

    def writing(self) -> Writing:
        return Writing(self.transaction(), PostgresDb)

    async def schema_version(self) -> int:
        rows = await self._all("SELECT to_regclass($1) IS NOT NULL AS present", (VERSIONS_TABLE,))
        if not rows[0]["present"]:
            return 0
        rows = await self._all(f"SELECT COALESCE(MAX(version), 0) FROM {VERSIONS_TABLE}")
        return int(rows[0][0])

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply every newer script, each in one transaction with its version row; an advisory
        lock keeps a second process starting at the same moment waiting, not migrating twice."""
        newest = migrations[-1].version if migrations else 0
        if await self.schema_version() == newest:  # the usual start: nothing to lock or do
            return
        for migration in [None, *migrations]:
            async with self._pool.acquire() as db, db.transaction():
                await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await db.execute(VERSIONS_DDL)
                current = int(
                    await db.fetchval(f"SELECT COALESCE(MAX(version), 0) FROM {VERSIONS_TABLE}")
                )
                if current > newest:
                    raise RuntimeError(
                        f"the database is at schema version {current}, newer than this bot "
                        f"({newest}): run a newer version of the bot"
                    )
                if migration is None or migration.version <= current:
                    continue
                await db.execute(migration.sql)
                await db.execute(
                    f"INSERT INTO {VERSIONS_TABLE} (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    time.time(),
                )

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        try:
            return list(await self._pool.fetch(sql, *params))
        except Exception as error:
            if unavailable(error):
                raise StoreUnavailable(str(error) or type(error).__name__) from error
            raise

    @staticmethod
    def breaks_move_number(error: Exception) -> bool:
        return (
            isinstance(error, asyncpg.UniqueViolationError)
            and error.constraint_name == MOVE_NUMBER_KEY
        )

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        """Rows of one read-only query (PostgreSQL's own SQL, ``$1`` placeholders; no part of
        the interface). Writes go through :meth:`transaction`."""
        return await self._all(sql, params)
