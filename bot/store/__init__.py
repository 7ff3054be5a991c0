"""The bot's database, grouped per feature behind a typed interface.

:mod:`bot.store.interface` is the contract (``typing.Protocol``). Each feature's SQL (tables,
seats, results, standings, settings, history, privacy, reports, tournaments) is written once, a
mixin of :class:`~bot.store.sql.SqlStore` over the backend's dialect; the SQLite backend is
:class:`Store`, those mixins on :class:`~bot.store.base.SqliteBase` (one aiosqlite connection,
its transactions and migrations) with its one-trip path for a move. Typed results are in
:mod:`bot.store.rows`. The PostgreSQL backend is :class:`bot.store.postgres.PostgresStore`, the
same mixins on its own base; :func:`open_store` opens the one the settings choose.
"""

from __future__ import annotations

from bot.config import Settings
from bot.store.base import MIGRATIONS_DIR, Migration, load_migrations
from bot.store.features import StoreFeatures
from bot.store.interface import (
    ForeignDatabase,
    MoveTaken,
    StoreInterface,
    StoreUnavailable,
    TournamentRefused,
    TournamentsStore,
)
from bot.store.moves import SqliteMoves
from bot.store.rows import (
    OPEN_STATUSES,
    Call,
    ClosedGame,
    Forgotten,
    GameTally,
    GuildSettings,
    LeaderboardRow,
    MoveRow,
    PartnerRow,
    RecentGame,
    Result,
    SeatCalls,
    SeatHolder,
    SeatName,
    SeatRow,
    TableRow,
    TournamentRound,
    TournamentRow,
    TurnPing,
)


class Store(SqliteMoves, StoreFeatures):
    """The SQLite backend of :class:`StoreInterface`. Open with :meth:`open`, close with
    :meth:`close`."""


async def open_store(settings: Settings) -> StoreInterface:
    """The bot's store: PostgreSQL at ``DATABASE_URL`` when it is set, else the SQLite file at
    ``DATABASE_PATH`` (created on first start: nothing to set up). Migrated to the newest schema.
    """
    if settings.database_url is not None:
        from bot.store.postgres import PostgresStore  # asyncpg only when it is used

        return await PostgresStore.open(settings.database_url.reveal())
    return await Store.open(settings.database_path)


__all__ = [
    "MIGRATIONS_DIR",
    "OPEN_STATUSES",
    "Call",
    "ClosedGame",
    "ForeignDatabase",
    "Forgotten",
    "GameTally",
    "GuildSettings",
    "LeaderboardRow",
    "Migration",
    "MoveRow",
    "MoveTaken",
    "PartnerRow",
    "RecentGame",
    "Result",
    "SeatCalls",
    "SeatHolder",
    "SeatName",
    "SeatRow",
    "Store",
    "StoreInterface",
    "StoreUnavailable",
    "TableRow",
    "TournamentRefused",
    "TournamentRound",
    "TournamentRow",
    "TournamentsStore",
    "TurnPing",
    "load_migrations",
    "open_store",
]
