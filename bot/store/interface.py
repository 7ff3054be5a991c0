"""The store's typed interface: what the session layer and the query modules depend on.

The SQLite backend (:class:`bot.store.Store`) and the PostgreSQL one
(:class:`bot.store.postgres.PostgresStore`) implement it; :func:`bot.store.open_store` chooses one
at start-up (``DATABASE_URL``), with no change to its callers. Every
write returns what it changed; a database that cannot be written for now raises
:class:`StoreUnavailable` with nothing of the write kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.ratings import LadderPage
from bot.store.rows import (
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
from bot.tournaments.spec import ROUND_MINUTES, Entrant, TournamentSpec
from bot.tournaments.tables import Round, TableResult


class StoreUnavailable(Exception):
    """The database refused a read or write for now (locked, read-only, full, I/O error)."""


class TournamentRefused(ValueError):
    """A tournament write the tournament's state does not allow (sign-up closed, entered
    already, a round out of turn), in one sentence for the person; nothing was written."""


class MoveTaken(Exception):
    """Another writer (another bot process) already stored this move number of the table: the
    move was refused and nothing was written."""


class ForeignDatabase(RuntimeError):
    """The file is another program's database: the bot neither migrates into it nor uses it."""


class TablesStore(Protocol):
    """A table's own row: open, find, change, close; announcement marks; rematches."""

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[tuple[int | None, str]],
        computer_level: str = "normal",
        hints: bool = False,
        rated: bool = True,
        computers: bool = True,
        turn_seconds: int | None = None,
        trick_lines: bool | None = None,
        parent_channel_id: int | None = None,
    ) -> TableRow: ...
    async def get_table(self, table_id: int) -> TableRow | None: ...
    async def open_tables(self) -> list[TableRow]: ...
    async def count_open_tables(self) -> int: ...
    async def set_table_message(self, table_id: int, message_id: int | None) -> TableRow: ...
    async def move_table(self, table_id: int, channel_id: int) -> TableRow: ...
    async def set_status(self, table_id: int, status: str) -> TableRow: ...
    async def set_computer_level(self, table_id: int, level: str) -> TableRow: ...
    async def set_hints(self, table_id: int, hints: bool) -> TableRow: ...
    async def set_deadline(self, table_id: int, deadline: float | None) -> TableRow: ...
    async def set_options(self, table_id: int, options: dict[str, Any]) -> TableRow: ...
    async def create_rematch(
        self,
        old: TableRow,
        seed: int,
        seats: Sequence[tuple[int | None, str, bool] | None],
        *,
        rated: bool,
        computers: bool,
        turn_seconds: int,
        trick_lines: bool,
    ) -> TableRow: ...
    async def rematch_of(self, table_id: int) -> int | None: ...
    async def set_announced(self, table_id: int, results_through: int, board: str) -> None: ...
    async def unannounced_tables(self, closed_since: float) -> list[tuple[TableRow, int]]: ...


class SeatsStore(Protocol):
    """Who sits where: seats, away seats, computers, requests to sit in, seat holders."""

    async def seats(self, table_id: int) -> list[SeatRow]: ...
    async def sit(
        self, table_id: int, seat: int, user_id: int | None, name: str
    ) -> tuple[TableRow, SeatRow]: ...
    async def change_seat(
        self, table_id: int, seat: int, target: int
    ) -> tuple[TableRow, SeatRow]: ...
    async def stand(self, table_id: int, seat: int, host_id: int | None = None) -> TableRow: ...
    async def set_away(
        self,
        table_id: int,
        seats: Sequence[int],
        away: bool,
        *,
        clear_deadline: bool = False,
    ) -> tuple[TableRow, list[SeatRow]]: ...
    async def open_table_of_user(self, guild_id: int, user_id: int) -> int | None: ...
    async def sit_computers(
        self, table_id: int, seats: Sequence[tuple[int, str]]
    ) -> tuple[TableRow, list[SeatRow]]: ...
    async def confirm_seat(self, table_id: int, seat: int) -> tuple[TableRow, SeatRow]: ...
    async def hand_to_computer(
        self, table_id: int, seat: int, name: str, host_id: int | None = None
    ) -> tuple[TableRow, SeatRow]: ...
    async def ask_sit_in(self, table_id: int, seat: int, user_id: int, name: str) -> bool: ...
    async def sit_in_request(self, table_id: int, seat: int, user_id: int) -> str | None: ...
    async def drop_sit_in(self, table_id: int, seat: int, user_id: int) -> None: ...
    async def take_seat(
        self, table_id: int, seat: int, user_id: int, name: str
    ) -> tuple[TableRow, SeatRow]: ...
    async def seat_holders(self, table_id: int) -> list[SeatHolder]: ...


class MovesStore(Protocol):
    """Starting a game, the moves log and its deals (the last move keeps the result too)."""

    async def start_game(
        self, table_id: int, first_dealer: int, deals: Sequence[dict[str, Any]]
    ) -> TableRow: ...
    async def append_move(
        self,
        table_id: int,
        seq: int,
        seat: int,
        move: dict[str, Any],
        user_id: int | None,
        new_deals: Sequence[tuple[int, dict[str, Any]]] = (),
        status: str | None = None,
        deadline: float | None = None,
        *,
        back: bool = False,
        result: Result | None = None,
    ) -> tuple[TableRow, SeatRow | None]: ...
    async def moves(self, table_id: int) -> list[MoveRow]: ...
    async def deals(self, table_id: int) -> list[dict[str, Any]]: ...


class ResultsStore(Protocol):
    """Closing a table with its result, record, rating changes and calls."""

    async def record_result(
        self,
        table: TableRow,
        status: str,
        outcome: dict[str, Any],
        players: Sequence[tuple[int, int, bool]],
        calls: Sequence[Call] | None = None,
    ) -> TableRow: ...
    async def result_note(self, table_id: int) -> str | None: ...
    async def resigned_seat(self, table_id: int) -> int | None: ...
    async def keep_calls(self, games: Mapping[int, Sequence[Call]]) -> None: ...


class StandingsStore(Protocol):
    """Read-only: leaderboards, the rated ladder, a player's games and partners."""

    async def leaderboard(
        self, guild_id: int, game: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]: ...
    async def ladder(
        self,
        guild_id: int,
        game: str,
        *,
        month: str | None = None,
        computers: bool = False,
        offset: int = 0,
        limit: int = 10,
    ) -> LadderPage: ...
    async def player_games(self, guild_id: int, user_id: int) -> list[GameTally]: ...
    async def rating_trend(
        self, guild_id: int, game: str, user_id: int, limit: int = 200
    ) -> list[tuple[float, float]]: ...
    async def best_partner(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> PartnerRow | None: ...
    async def recent_games(
        self, guild_id: int, user_id: int, game: str | None = None, limit: int = 10
    ) -> list[RecentGame]: ...
    async def recent_calls(
        self, guild_id: int, user_id: int, game: str | None = None, limit: int = 20
    ) -> list[SeatCalls]: ...


class SettingsStore(Protocol):
    """A server's settings, a member's own, and the command sync's fingerprints."""

    async def guild_settings(self, guild_id: int, default_turn_seconds: int) -> GuildSettings: ...
    async def save_guild_settings(self, settings: GuildSettings) -> None: ...
    async def turn_ping_wanted(self, guild_id: int, user_id: int) -> bool: ...
    async def user_language(self, user_id: int) -> str | None: ...
    async def set_user_language(self, user_id: int, language: str | None) -> None: ...
    async def set_turn_ping_wanted(self, guild_id: int, user_id: int, wanted: bool) -> None: ...
    async def turn_pings(self, table_id: int) -> list[TurnPing]: ...
    async def save_turn_ping(self, ping: TurnPing) -> None: ...
    async def delete_turn_ping(self, table_id: int, user_id: int) -> None: ...
    async def command_fingerprint(
        self, application_id: int, guild_id: int | None
    ) -> str | None: ...
    async def save_command_fingerprint(
        self, application_id: int, guild_id: int | None, fingerprint: str
    ) -> None: ...


class HistoryStore(Protocol):
    """Read-only: a server's closed games, their seats, and who may see one."""

    async def closed_games(
        self,
        guild_id: int,
        *,
        user_id: int | None,
        game: str | None,
        limit: int,
        offset: int,
        viewer: tuple[str, int] | None,
    ) -> list[ClosedGame]: ...
    async def seat_names(self, table_ids: Sequence[int]) -> dict[int, list[SeatName]]: ...
    async def may_see(self, table_id: int, channels: str, user_id: int) -> bool: ...


class PrivacyStore(Protocol):
    """Forgetting a person everywhere but at open tables, in one transaction."""

    async def forget_user(self, user_id: int) -> Forgotten: ...
    async def close(self) -> None: ...


class ReportsStore(Protocol):
    """Players' reports of a computer's play at a trick: the position as that seat saw it
    (:mod:`games.reports`), one per player per trick."""

    async def add_hand_report(
        self,
        table_id: int,
        hand: int,
        trick: int,
        reporter_id: int,
        seat: int,
        position: Mapping[str, Any],
    ) -> bool: ...
    async def hand_reported(
        self, table_id: int, hand: int, trick: int, reporter_id: int
    ) -> bool: ...


class TournamentsStore(Protocol):
    """Tournaments: settings and status, entrants (a pair by invitation), rounds and their
    tables, results.

    The database keeps the promises: a round opens once (:meth:`open_round` answers ``None``
    the second time), a result counts once (:meth:`record_tournament_result` answers
    ``False``), a person enters a tournament once."""

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        spec: TournamentSpec,
        starts_at: float | None,
        now: float,
        round_minutes: int = ROUND_MINUTES,
    ) -> TournamentRow: ...
    async def get_tournament(self, tournament_id: int) -> TournamentRow | None: ...
    async def open_tournaments(self) -> list[TournamentRow]: ...
    async def set_tournament_message(
        self, tournament_id: int, message_id: int | None, *, now: float
    ) -> TournamentRow: ...
    async def set_tournament_status(
        self, tournament_id: int, status: str, *, now: float
    ) -> TournamentRow: ...
    async def enter_tournament(
        self,
        tournament_id: int,
        user_ids: Sequence[int],
        *,
        name: str,
        rating: float,
        now: float,
    ) -> Entrant: ...
    async def withdraw_entrant(self, tournament_id: int, user_id: int) -> Entrant | None: ...
    async def entrants(self, tournament_id: int) -> list[Entrant]: ...
    async def open_round(
        self, tournament_id: int, paired: Round, *, deadline: float | None, now: float
    ) -> TournamentRound | None: ...
    async def tournament_rounds(self, tournament_id: int) -> list[TournamentRound]: ...
    async def close_round(self, tournament_id: int, round: int, *, now: float) -> bool: ...
    async def link_round_table(
        self, tournament_id: int, round: int, number: int, table_id: int
    ) -> bool: ...
    async def round_table_of(self, table_id: int) -> tuple[int, int, int] | None: ...
    async def round_tables_of(self, table_ids: Sequence[int]) -> dict[int, tuple[int, int]]: ...
    async def record_tournament_result(
        self, tournament_id: int, result: TableResult, *, now: float
    ) -> bool: ...
    async def tournament_results(self, tournament_id: int) -> list[TableResult]: ...
    async def invite_partner(
        self, tournament_id: int, inviter: int, invitee: int, *, now: float
    ) -> None: ...
    async def accept_invite(
        self,
        tournament_id: int,
        inviter: int,
        invitee: int,
        *,
        name: str,
        rating: float,
        now: float,
    ) -> Entrant: ...
    async def decline_invite(self, tournament_id: int, inviter: int, invitee: int) -> bool: ...
    async def invites_to(self, tournament_id: int, invitee: int) -> list[int]: ...


class StoreInterface(
    TablesStore,
    SeatsStore,
    MovesStore,
    ResultsStore,
    StandingsStore,
    SettingsStore,
    HistoryStore,
    PrivacyStore,
    ReportsStore,
    TournamentsStore,
    Protocol,
):
    """Everything the bot asks of its database."""
