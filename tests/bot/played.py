"""Games played through the session manager for the history, privacy and migration tests (a real
SQLite file, or a real PostgreSQL database).

Humans always make their first legal move; computers decide as the bot has them decide.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.config import Secret, Settings
from bot.sessions import LiveTable, SessionManager
from bot.store import Store
from tests.bot.backends import Backend
from tests.bot.conftest import Recorder
from tests.bot.faults import until


@asynccontextmanager
async def session_manager(where: Path | Backend) -> AsyncIterator[SessionManager]:
    """A session manager on a real SQLite file (or a test's backend), closed afterwards."""
    store = await (Store.open(where) if isinstance(where, Path) else where.open())
    path = where if isinstance(where, Path) else where.path
    manager = SessionManager(
        store, Settings(discord_token=Secret("x.y.z"), database_path=path, turn_seconds=60)
    )
    manager.presenter = Recorder()
    try:
        yield manager
    finally:
        await manager.shutdown()
        await store.close()


async def open_game(
    sessions: SessionManager,
    guild_id: int,
    humans: Sequence[tuple[int, str]],
    game: str = "tiny",
    options: str | None = None,
) -> LiveTable:
    """A started table: the humans in order, computers in the seats left."""
    (host, host_name), *guests = humans
    table = await sessions.create_table(
        guild_id=guild_id,
        channel_id=guild_id * 10,
        host_id=host,
        host_name=host_name,
        game=game,
        options_text=options,
    )
    for user_id, name in guests:
        await sessions.join(table.id, user_id, name)
    while table.free_seats():
        await sessions.add_computer(table.id, host)
    await sessions.start(table.id, host)
    return table


async def play_moves(sessions: SessionManager, table: LiveTable, limit: int | None = None) -> None:
    """The humans play (``limit`` moves, or to the end); the computers answer in between."""
    made = 0
    while limit is None or made < limit:
        await until(
            lambda: (
                table.id not in sessions.tables
                or any(not table.played_by_computer(s) for s in table.waiting_for())
            ),
            "a human's turn or the end",
        )
        if table.id not in sessions.tables:
            return
        game = table.game
        assert game is not None
        seat = next(s for s in table.waiting_for() if not table.played_by_computer(s))
        user_id = table.seats[seat].user_id
        assert user_id is not None
        await sessions.submit(table.id, user_id, table.moves, game.legal_moves(seat)[0])
        made += 1


async def finished_game(
    sessions: SessionManager,
    guild_id: int,
    humans: Sequence[tuple[int, str]],
    game: str = "tiny",
    options: str | None = None,
) -> LiveTable:
    table = await open_game(sessions, guild_id, humans, game, options)
    await play_moves(sessions, table)
    await until(lambda: table.row.status == "finished", "the result is kept")
    return table
