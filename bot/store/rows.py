"""The store's typed results: frozen dataclasses, never raw rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.tournaments.spec import ROUND_MINUTES, TournamentSpec
from bot.tournaments.tables import Round

OPEN_STATUSES = ("lobby", "playing")


Call = tuple[int, str, bool | None]  # (seat, label, succeeded or None if the game does not say)


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game: str
    options: dict[str, Any]
    seed: int
    first_dealer: int | None
    status: str
    turn_deadline: float | None
    created_at: float
    updated_at: float
    computer_level: str = "normal"  # how the table's computer seats play (not a rule)
    rated: bool = True  # the server rated new tables when this one was opened
    hints: bool = False  # players may ask for hints (such a table is unrated)
    computers: bool = True  # the server allowed computer players when this table was opened
    # The server's turn timer and trick lines when this table was opened (None: not kept, an
    # older table's; the server's current setting applies)
    turn_seconds: int | None = None
    trick_lines: bool | None = None


@dataclass(frozen=True)
class SeatRow:
    table_id: int
    seat: int
    user_id: int | None
    name: str
    away: bool
    confirmed: bool = True  # False: seated by another's rematch, until they press Join

    @property
    def computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class SeatHolder:
    """Who held a seat of a game from ``after_move`` moves on (``user_id`` None: a computer)."""

    seat: int
    after_move: int
    user_id: int | None
    name: str


@dataclass(frozen=True)
class MoveRow:
    table_id: int
    seq: int
    seat: int
    move: dict[str, Any]
    user_id: int | None  # who clicked; None for a computer, and once the person is forgotten
    created_at: float
    by_computer: bool = False  # a computer chose it (a computer seat, or a stand-in for the away)


@dataclass(frozen=True)
class Result:
    """How a game ended, stored with the table's closing: ``players`` are (user, seat, won).

    ``calls``: every call made in the game, in order, as (seat, label, succeeded or None when
    the game does not say); None when not counted (an abandoned game)."""

    status: str
    outcome: dict[str, Any]
    players: Sequence[tuple[int, int, bool]]
    calls: Sequence[Call] | None = None


@dataclass(frozen=True)
class SeatCalls:
    """The calls a player's seat made in one closed game (None: not counted yet)."""

    table_id: int
    seat: int
    abandoned: bool
    calls: list[tuple[str, bool | None]] | None


@dataclass(frozen=True)
class LeaderboardRow:
    user_id: int
    played: int
    won: int


@dataclass(frozen=True)
class GameTally:
    game: str
    games: int
    wins: int
    rating: float | None  # the conservative rating; None: no rated game yet
    rated: int = 0  # the rated games behind that rating


@dataclass(frozen=True)
class PartnerRow:
    user_id: int
    games: int
    wins: int


@dataclass(frozen=True)
class RecentGame:
    table_id: int
    game: str
    finished_at: float
    seat: int
    won: bool
    place: int | None
    abandoned: bool
    rated: bool
    delta: float | None  # the rating change this game made (None: none)
    sat_out: bool = False  # the player was away and a computer played the seat for them


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings; all but the first three arrived with migration 0007."""

    guild_id: int
    turn_seconds: int
    use_threads: bool
    computers: bool = True  # computer players may join new tables
    rated: bool = True  # new tables are rated
    trick_lines: bool = True  # trick results posted as lines in a table's own thread
    channels: tuple[int, ...] = ()  # the channels that may host tables; empty: any
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # game: options
    language: str | None = None  # the server's language (bot/i18n.py); None: none chosen
    tournament_role: int | None = None  # its members may run tournaments; None: managers only


@dataclass(frozen=True)
class TurnPing:
    """A posted turn ping, kept until the player moves (or the turn passes on)."""

    table_id: int
    user_id: int
    channel_id: int
    message_id: int
    turn: int


@dataclass(frozen=True)
class SeatName:
    seat: int
    name: str
    user_id: int | None  # None for a computer (and for a forgotten player)


@dataclass(frozen=True)
class ClosedGame:
    """A closed game's result as the history lists it."""

    table_id: int
    game: str
    outcome: dict[str, Any]
    finished_at: float


@dataclass(frozen=True)
class Forgotten:
    """What one forget changed: counts of rows, for the person's answer and the tests."""

    results: int  # result rows (games counted for the leaderboard) deleted
    seats: int  # seats of closed games made "Former player"
    moves: int  # moves of closed games whose clicker was forgotten
    hosted: int  # closed tables whose host was forgotten
    ratings: int  # rows of the rating tables deleted or anonymised


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored: where it is announced, who runs it, its settings and status
    (``signup``, ``running``, ``finished`` or ``cancelled``)."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organiser_id: int
    spec: TournamentSpec
    starts_at: float | None  # sign-up closes then; None: when the organiser starts it
    status: str
    created_at: float
    updated_at: float
    round_minutes: int = ROUND_MINUTES  # each round's time: its deadline comes after it


@dataclass(frozen=True)
class TournamentRound:
    """An opened round: its pairing, deadline and times, and the game table of each of its
    tables in table order (None until that table is open)."""

    paired: Round
    deadline: float | None
    opened_at: float
    closed_at: float | None
    table_ids: tuple[int | None, ...]
