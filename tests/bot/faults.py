"""Real database faults for session tests: another process's lock, and a write that fails.

- :func:`locked`: a second sqlite3 connection holds the write lock (as another process would);
  the store, opened with a short busy timeout, gets SQLite's own "database is locked".
- :class:`FailingWrites`: wraps the store's aiosqlite connection; statements starting with a
  given prefix raise SQLite's "database or disk is full" while armed (a disk filling up at
  exactly that statement, which a lock cannot aim at).
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

    def execute(self, sql: str, parameters: Any = ()) -> Any:
        if self.armed and sql.lstrip().upper().startswith(self.prefix):
            self.failures += 1
            self.failed.set()
            raise sqlite3.OperationalError("database or disk is full")
        return self._connection.execute(sql, parameters)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


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
