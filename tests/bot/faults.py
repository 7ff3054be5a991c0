"""Real database faults for session tests: another process's lock, and a write that fails.

- :func:`locked`: a second sqlite3 connection holds the write lock (as another process would);
  the store, opened with a short busy timeout, gets SQLite's own "database is locked".
- :class:`FailingWrites`: wraps the store's aiosqlite connection (and the plain sqlite3
  connection under it, which a one-trip write uses on the connection's thread); statements
  starting with a given prefix raise SQLite's "database or disk is full" while armed (a disk
  filling up at exactly that statement, which a lock cannot aim at).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.store import Store


@contextmanager
def locked(path: Path) -> Iterator[None]:
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


class FailingWrites:
    """A proxy of an aiosqlite connection whose matching statements fail while ``armed``."""

    def __init__(self, connection: Any, prefix: str) -> None:
        self._connection = connection
        self.prefix = prefix.upper()
        self.armed = False
        self.failures = 0
        self.failed = asyncio.Event()
        self.loop = asyncio.get_running_loop()  # told of a failure on the connection's thread

    def execute(self, sql: str, parameters: Any = ()) -> Any:
        self.check(sql, self.failed.set)
        return self._connection.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any) -> Any:
        self.check(sql, self.failed.set)
        return self._connection.executemany(sql, parameters)

    def execute_fetchall(self, sql: str, parameters: Any = ()) -> Any:
        """A statement and its rows in one call (``... RETURNING`` writes among them)."""
        self.check(sql, self.failed.set)
        return self._connection.execute_fetchall(sql, parameters)

    def check(self, sql: str, tell: Callable[[], None]) -> None:
        """Raise SQLite's "disk is full" for a matching statement while armed."""
        if self.armed and sql.lstrip().upper().startswith(self.prefix):
            self.failures += 1
            tell()
            raise sqlite3.OperationalError("database or disk is full")

    @property
    def _conn(self) -> Any:
        """The plain sqlite3 connection, as the store's one-trip writes use it on the
        connection's own thread: its matching statements fail too."""
        return _FailingSqlite(self, self._connection._conn, self.loop)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


class _FailingSqlite:
    """The sqlite3 connection under a :class:`FailingWrites`, used on the connection's thread."""

    def __init__(self, owner: FailingWrites, connection: Any, loop: Any) -> None:
        self.owner, self.connection, self.loop = owner, connection, loop

    def execute(self, sql: str, parameters: Any = ()) -> Any:
        self.owner.check(sql, lambda: self.loop.call_soon_threadsafe(self.owner.failed.set))
        return self.connection.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any) -> Any:
        self.owner.check(sql, lambda: self.loop.call_soon_threadsafe(self.owner.failed.set))
        return self.connection.executemany(sql, parameters)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


def fail_writes(store: Store, prefix: str) -> FailingWrites:
    """Put a :class:`FailingWrites` between the store and its connection (disarmed)."""
    proxy = FailingWrites(store._db, prefix)
    store._db = proxy  # type: ignore[assignment]
    return proxy


async def until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait for a condition another task (or the executor) brings about; fail after
    ``timeout`` seconds, which only a hang reaches."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.005)
