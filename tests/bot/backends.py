"""The two store backends for parametrised tests: SQLite in tmp_path, PostgreSQL in a database of
the test's own (``postgres_url``, tests/conftest.py).

A test module opts in with ``STORE_BACKENDS = BOTH``: its tests that take the ``backend`` fixture
(directly, or through ``store``, ``timed`` ...) then run once per backend; a test marked
``sqlite_only`` (file locks, ``PRAGMA``, a file on disk) runs on SQLite alone. Modules that do not
opt in run on SQLite.

:class:`Backend` also runs a test's own SQL on either: written with ``?`` placeholders, as the
SQLite store's, and numbered ``$1``, ``$2`` ... for PostgreSQL.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import Store
from bot.store.postgres import PostgresStore
from tests.sqlite_template import migrated_database

SQLITE = "sqlite"
POSTGRES = "postgres"
BOTH = (SQLITE, POSTGRES)
_MARK = re.compile(r"\?")


class Backend:
    """Where a test's store lives, and how to speak to it."""

    def __init__(self, name: str, path: Path, url: str | None = None) -> None:
        self.name = name
        self.path = path  # the SQLite file (also what Settings.database_path names)
        self.url = url  # the PostgreSQL database
        # A write that breaks a constraint, as each driver raises it.
        self.integrity: type[Exception] = (
            sqlite3.IntegrityError if name == SQLITE else asyncpg.IntegrityConstraintViolationError
        )

    def __repr__(self) -> str:
        return f"Backend({self.name})"

    async def open(self, busy_timeout_ms: int = 5000) -> Any:
        """A store on this backend's database (``busy_timeout_ms``: SQLite's only); a new SQLite
        one starts as a copy of the migrated file (tests/sqlite_template.py)."""
        if self.name == SQLITE:
            if not self.path.exists():
                migrated_database(self.path)
            return await Store.open(self.path, busy_timeout_ms=busy_timeout_ms)
        assert self.url is not None
        return await PostgresStore.open(self.url)

    async def run(self, db: Any, text: str, *params: Any) -> None:
        """One statement on ``db``, a connection that ``store.transaction()`` gave."""
        if self.name == SQLITE:
            await db.execute(text, params)
        else:
            await db.execute(numbered(text), *params)


def numbered(text: str) -> str:
    """``?`` placeholders numbered as PostgreSQL's ``$1``, ``$2`` ..."""
    numbers = iter(range(1, text.count("?") + 1))
    return _MARK.sub(lambda _: f"${next(numbers)}", text)


async def execute(store: Any, text: str, *params: Any) -> None:
    """One statement (``?`` placeholders) in a transaction of ``store``, of either backend: a
    test's setting of the scene."""
    async with store.transaction() as db:
        if isinstance(store, PostgresStore):
            await db.execute(numbered(text), *params)
        else:
            await db.execute(text, params)


async def fetch(store: Any, text: str, *params: Any) -> list[tuple[Any, ...]]:
    """The rows of one query (``?`` placeholders) of ``store``, of either backend, as tuples."""
    sql = numbered(text) if isinstance(store, PostgresStore) else text
    return [tuple(row) for row in await store.fetch(sql, params)]
