"""The bot's database, grouped per feature behind a typed interface.

:mod:`bot.store.interface` is the contract (``typing.Protocol``); the SQLite backend is
:class:`Store`, one aiosqlite connection assembled from the feature modules (tables, seats,
moves, results, standings, settings, history, privacy, tournaments) on
:class:`~bot.store.base.SqliteBase` (the connection, its transactions and migrations). Typed
results are in :mod:`bot.store.rows`.
"""

from __future__ import annotations

from bot.store.base import MIGRATIONS_DIR, Migration, load_migrations
from bot.store.history import SqliteHistory
from bot.store.interface import (
    ForeignDatabase,
    MoveTaken,
    StoreInterface,
    StoreUnavailable,
    TournamentRefused,
    TournamentsStore,
)
from bot.store.moves import SqliteMoves
from bot.store.privacy import SqlitePrivacy
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
from bot.store.seats import SqliteSeats
from bot.store.settings import SqliteSettings
from bot.store.standings import SqliteStandings
from bot.store.tables import SqliteTables
from bot.store.tournament_invites import SqliteTournamentInvites
from bot.store.tournaments import SqliteTournaments


class Store(
    SqliteMoves,
    SqliteTables,
    SqliteSeats,
    SqliteStandings,
    SqliteSettings,
    SqliteHistory,
    SqlitePrivacy,
    SqliteTournaments,
    SqliteTournamentInvites,
):
    """The SQLite backend of :class:`StoreInterface`. Open with :meth:`open`, close with
    :meth:`close`."""


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
]
