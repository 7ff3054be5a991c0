"""Session-manager fixtures: real SQLite in tmp_path, a hand-driven clock, no Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.clock import ManualClock
from bot.config import Secret, Settings
from bot.sessions import LiveTable, SessionManager
from bot.store import Store
from games.base import Event


class Recorder:
    """A presenter that remembers what it was told."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.changed = 0
        self.closed: list[int] = []

    def table_changed(self, table: LiveTable, events: Sequence[Event]) -> None:
        self.changed += 1
        self.events.extend(events)

    def table_closed(self, table: LiveTable) -> None:
        self.closed.append(table.id)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "db.sqlite3"


@pytest.fixture
async def timed(db_path: Path, clock: ManualClock) -> AsyncIterator[SessionManager]:
    """A session manager on the manual clock; the store waits 20 ms on another's lock."""
    store = await Store.open(db_path, busy_timeout_ms=20)
    sessions = SessionManager(
        store,
        Settings(discord_token=Secret("x.y.z"), database_path=db_path, turn_seconds=60),
        clock=clock,
    )
    sessions.presenter = Recorder()
    yield sessions
    await sessions.shutdown()
    await store.close()
