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
from tests.bot.backends import SQLITE, Backend


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


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the tests of a module with ``STORE_BACKENDS`` once per backend (tests/bot/backends.py);
    a test marked ``sqlite_only`` on SQLite alone."""
    if "backend" not in metafunc.fixturenames:
        return
    names = tuple(getattr(metafunc.module, "STORE_BACKENDS", (SQLITE,)))
    if metafunc.definition.get_closest_marker("sqlite_only"):
        names = (SQLITE,)
    if names != (SQLITE,):
        metafunc.parametrize("backend", names, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest, db_path: Path) -> Backend:
    """The store backend of this test: SQLite unless its module opts in to both."""
    name = getattr(request, "param", SQLITE)
    if name == SQLITE:
        return Backend(SQLITE, db_path)
    return Backend(name, db_path, request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    """A store of the test's backend, at the newest schema, closed afterwards."""
    opened = await backend.open()
    yield opened
    await opened.close()


@pytest.fixture
async def timed(
    backend: Backend, db_path: Path, clock: ManualClock
) -> AsyncIterator[SessionManager]:
    """A session manager on the manual clock; an SQLite store waits 20 ms on another's lock."""
    store = await backend.open(busy_timeout_ms=20)
    sessions = SessionManager(
        store,
        Settings(discord_token=Secret("x.y.z"), database_path=db_path, turn_seconds=60),
        clock=clock,
    )
    sessions.presenter = Recorder()
    yield sessions
    await sessions.shutdown()
    await store.close()
