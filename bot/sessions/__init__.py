"""The session manager: live tables, the one path every move takes, computers and timers.

A move (a human's click or a computer's choice) goes through :meth:`SessionManager.submit`: take
the table's lock, check the move number (a stale or double click is refused), map the user to a
seat, check and apply the move on a clone, append it to the moves log in one transaction, and
only after the commit swap the clone in. In-memory state is a cache: :meth:`restore` rebuilds
every open table from its stored deals and moves through the checked rules.

Every table workflow is one of its methods and decides inside the table's lock (seating also
inside the server's lock, taken first). The store's writes return what they changed and only
then does the cache change, so a refused or failed write (:class:`TablePaused`) leaves the game
and the database as before. Computers (the table's worker) and turn timers are separate tasks,
both retrying with backoff when the database fails; time comes from an injectable clock.

The manager knows nothing of Discord: it tells a :class:`Presenter` what changed.
The manager is assembled from parts by concept, each a module of this package sharing one state
(:mod:`~bot.sessions.state`): :mod:`~bot.sessions.settings` (server and player settings, no
table lock), :mod:`~bot.sessions.closing`, :mod:`~bot.sessions.moves`, :mod:`~bot.sessions.turns`,
:mod:`~bot.sessions.lobby`, :mod:`~bot.sessions.seating` and :mod:`~bot.sessions.restore`.
"""

from __future__ import annotations

from bot.sessions.errors import PAUSED_TEXT, ChannelNotAllowed, TablePaused, UserError
from bot.sessions.options import (
    MAX_OPTIONS_TEXT,
    QUOTE_CHARS,
    check_computers_allowed,
    check_level,
    check_table_channel,
    parse_option,
    parse_options,
)
from bot.sessions.restore import RestorePart
from bot.sessions.state import (
    ABANDON_SECONDS,
    CHANNEL_DELETED_NOTE,
    COMPUTER_BUDGET_SECONDS,
    LADDER_PAGE,
    LOBBY_IDLE_SECONDS,
    MAX_TABLE_CHANNELS,
    NOT_ABANDONED_ALONE,
    RESIGNED_ALONE_TEXT,
    RESIGNED_TEXT,
)
from bot.sessions.table import (
    COMPUTER_NAMES,
    RECENT_EVENTS,
    STAND_IN_LEVEL,
    Line,
    LiveTable,
    Presenter,
)
from bot.sessions.tournament_tables import TournamentTablesPart
from bot.store import GuildSettings, LeaderboardRow, TurnPing


class SessionManager(RestorePart, TournamentTablesPart):
    """Every table workflow, each deciding inside the table's lock; see the package's parts."""


__all__ = [
    "ABANDON_SECONDS",
    "CHANNEL_DELETED_NOTE",
    "COMPUTER_BUDGET_SECONDS",
    "COMPUTER_NAMES",
    "LADDER_PAGE",
    "LOBBY_IDLE_SECONDS",
    "MAX_OPTIONS_TEXT",
    "MAX_TABLE_CHANNELS",
    "NOT_ABANDONED_ALONE",
    "PAUSED_TEXT",
    "QUOTE_CHARS",
    "RECENT_EVENTS",
    "RESIGNED_ALONE_TEXT",
    "RESIGNED_TEXT",
    "STAND_IN_LEVEL",
    "ChannelNotAllowed",
    "GuildSettings",
    "LeaderboardRow",
    "Line",
    "LiveTable",
    "Presenter",
    "SessionManager",
    "TablePaused",
    "TurnPing",
    "UserError",
    "check_computers_allowed",
    "check_level",
    "check_table_channel",
    "parse_option",
    "parse_options",
]
