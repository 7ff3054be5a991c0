"""The store's features beside the moves log (:mod:`bot.store.moves`), in one mixin: what
:class:`bot.store.Store` and :class:`bot.store.postgres.PostgresStore` share, in one order."""

from __future__ import annotations

from bot.store.history import HistorySql
from bot.store.privacy import PrivacySql
from bot.store.reports import ReportsSql
from bot.store.seats import SeatsSql
from bot.store.settings import SettingsSql
from bot.store.standings import StandingsSql
from bot.store.tables import TablesSql
from bot.store.tournament_invites import TournamentInvitesSql
from bot.store.tournaments import TournamentsSql


class StoreFeatures(
    TablesSql,
    SeatsSql,
    StandingsSql,
    SettingsSql,
    HistorySql,
    PrivacySql,
    ReportsSql,
    TournamentsSql,
    TournamentInvitesSql,
):
    """The features both backends assemble, in one order."""
