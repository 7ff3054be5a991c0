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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
from collections import defaultdict, deque
from collections.abc import Coroutine, Iterator, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Protocol, TypeVar

from bot import history, privacy
from bot.clock import Clock, SystemClock
from bot.config import Settings
from bot.player_stats import PlayerStats, calls_in
from bot.player_stats import gather as gather_stats
from bot.ratings import LadderPage, month_of
from bot.store import (
    Call,
    GuildSettings,
    LeaderboardRow,
    Result,
    SeatHolder,
    SeatRow,
    Store,
    StoreUnavailable,
    TableRow,
    TurnPing,
)
from bot.thinking import Thinker
from games.base import Deal, Event, Game, IllegalMove, Move, OptionError, fill_names
from games.cards import display
from games.levels import choose_move
from games.players import AVAILABLE_LEVELS
from games.players.hints import hint_for
from games.presets import with_preset
from games.registry import all_games, get_game
from games.seats import rematch_order, resignation_winners, seats_to_return_to

log = logging.getLogger(__name__)
_T = TypeVar("_T")

COMPUTER_NAMES = ("Ada", "Babbage", "Turing", "Hopper", "Lovelace", "Knuth")
COMPUTER_BUDGET_SECONDS = 2.0
FALLBACK_LEVEL = "normal"  # plays for a computer whose level failed or ran out of time
ABANDON_SECONDS = 600.0
LOBBY_IDLE_SECONDS = 1800.0
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
RECENT_EVENTS = 8
MAX_TABLE_CHANNELS = 25
LADDER_PAGE = 10  # players on a page of the leaderboard
CHANNEL_DELETED_NOTE = "This table's channel was deleted, so the table was closed."
CHANNEL_DELETED_REASON = "its channel was deleted"
PAUSED_TEXT = "The table is paused: your move was not saved. Try again in a moment."
RESIGNED_TEXT = "You were the last person at the table: the game counts as a loss for your side."
RESIGNED_ALONE_TEXT = (
    "You were the only person at the table: the game counts as a loss for your side."
)
NOT_ABANDONED_ALONE = (
    "A rated game under way is not abandoned by one player: /table leave hands your seat to a"
    " computer, and the game still counts for your rating."
)
# An away human's stand-in plays at this level whatever the table's: the table's level is the
# challenge its computer seats set, and a stand-in at easy would throw away the absent player's
# (and partner's) game while one at hard would make going away pay.
STAND_IN_LEVEL = "normal"

__all__ = [
    "PAUSED_TEXT",
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
    "check_table_channel",
    "parse_option",
    "parse_options",
]


class UserError(Exception):
    """A refusal to show the user as is: short, and free of hidden information."""


class TablePaused(UserError):
    """The database cannot be written for now; nothing of the action was kept."""

    def __init__(self) -> None:
        super().__init__(PAUSED_TEXT)


@contextmanager
def _paused() -> Iterator[None]:
    """Turn a database outage into the user's :class:`TablePaused`."""
    try:
        yield
    except StoreUnavailable as error:
        log.warning("database unavailable: %s", error)
        raise TablePaused() from None


def _retry_delay(failures: int) -> float:
    return RETRY_SECONDS[min(failures, len(RETRY_SECONDS)) - 1]


class Line(str):
    """A line of a table's log: its text with seats as placeholders (``{s0}``), and ``names``,
    the names to fill them with: those of who held the seats when it happened, so a later sit-in
    or leave renames no one. The Discord layer fills them in (escaped)."""

    names: tuple[str, ...]

    def __new__(cls, text: str, names: Sequence[str]) -> Line:
        line = super().__new__(cls, text)
        line.names = tuple(names)
        return line

    def filled(self) -> str:
        """The line in plain words (for logs and tests)."""
        return fill_names(self, self.names)


class Presenter(Protocol):
    """What the Discord layer implements to hear about changes (all calls return at once)."""

    def table_changed(self, table: LiveTable, events: Sequence[Event]) -> None: ...

    def table_closed(self, table: LiveTable) -> None: ...


@dataclass
class LiveTable:
    """One table's cached state: the stored row, its seats and, once started, its game."""

    row: TableRow
    seats: dict[int, SeatRow]
    game: Game | None = None
    moves: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))
    private: dict[int, deque[str]] = field(default_factory=dict)
    timer: asyncio.Task[None] | None = None
    worker: asyncio.Task[None] | None = None
    wake: bool = False  # set when the worker must look at the table again
    idle: asyncio.Task[None] | None = None  # closes a lobby left idle
    touched: float = 0.0  # the clock's time of the lobby's last change
    note: str | None = None  # why the table closed, for its message
    result_note: str | None = None  # whether the finished game was rated, for its result
    resigned: int | None = None  # the seat whose last person left: the game is its loss
    # Per seat, the move number from which that seat's situation (its legal moves) is unchanged:
    # a click numbered at or after it is fresh, also when other seats moved meanwhile.
    fresh_from: dict[int, int] = field(default_factory=dict)
    legal: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # Who held each seat of the game and from which move: the store's seat_holders, in order.
    holders: list[SeatHolder] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)  # made so far, kept with the result

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def game_class(self) -> type[Game]:
        return get_game(self.row.game)

    @cached_property
    def seat_count(self) -> int:  # a table's options never change
        return self.game_class.seat_count(self.row.options)

    @property
    def names(self) -> list[str]:
        return [
            self.seats[s].name if s in self.seats else "(empty)" for s in range(self.seat_count)
        ]

    def names_after(self, done: int) -> list[str]:
        """Who held each seat once ``done`` moves were made (the names a move numbered
        ``done + 1`` is told with); a seat with no record has its present name."""
        names = self.names
        for holder in self.holders:
            if holder.after_move <= done and holder.seat < len(names):
                names[holder.seat] = holder.name
        return names

    def held_by(self, user_id: int) -> set[int]:
        """The seats this person has held in the game (her present one included)."""
        held = {holder.seat for holder in self.holders if holder.user_id == user_id}
        seat = self.seat_of(user_id)
        return held | ({seat} if seat is not None else set())

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats.values():
            if seat.user_id == user_id:
                return seat.seat
        return None

    def free_seats(self) -> list[int]:
        return [s for s in range(self.seat_count) if s not in self.seats]

    def humans(self) -> list[SeatRow]:
        return [seat for seat in self.seats.values() if not seat.computer]

    def played_by_computer(self, seat: int) -> bool:
        """A computer seat, or an away human while some human is still at the table."""
        row = self.seats[seat]
        if row.computer:
            return True
        return row.away and any(not human.away for human in self.humans())

    def level_of(self, seat: int) -> str:
        """The level a computer plays ``seat`` at: the table's for a computer seat, and
        :data:`STAND_IN_LEVEL` for an away human."""
        return self.row.computer_level if self.seats[seat].computer else STAND_IN_LEVEL

    def note_situation(self, mover: int | None = None) -> None:
        """After a move (or a start): every seat whose legal moves changed gets a new mark."""
        game = self.game
        if game is None:
            return
        for seat in range(self.seat_count):
            legal = (
                tuple(m.code for m in game.legal_moves(seat))
                if game.status == "in_progress"
                else ()
            )
            if seat == mover or legal != self.legal.get(seat) or seat not in self.fresh_from:
                self.fresh_from[seat] = self.moves
            self.legal[seat] = legal

    def is_stale(self, seat: int, seq: int) -> bool:
        return not self.fresh_from.get(seat, self.moves) <= seq <= self.moves

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits on (a game may offer optional moves to others)."""
        if self.game is None or self.game.status != "in_progress":
            return ()
        return self.game.waiting_for()

    def remember(
        self,
        events: Sequence[Event],
        secret: AbstractSet[str] = frozenset(),
        names: Sequence[str] | None = None,
    ) -> None:
        """Keep recent event texts: public ones for the table, private ones per seat, each with
        ``names``, who held the seats when the events happened (by default, who holds them now).

        A seat's private notes belong to the deal they were made in: a new deal clears them (a
        trump card set down or a bid chosen last hand is no longer true). ``secret`` are cards
        that stayed hidden from onlookers through the move: a public event naming one is an
        engine bug, logged and not shown.
        """
        names = self.names if names is None else names
        for event in events:
            if event.kind == "new_deal":
                self.private.clear()
            if event.to is None:
                if any(display(card) in event.text for card in secret):
                    log.error(
                        "table %s: a public %s event named a hidden card; not shown",
                        self.id,
                        event.kind,
                    )
                    continue
                self.recent.append(Line(event.text, names))
            else:
                line = Line(event.text, names)
                for seat in event.to:
                    self.private.setdefault(seat, deque(maxlen=RECENT_EVENTS)).append(line)


OPTION_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
OPTION_VALUE = re.compile(r"-?[0-9]{1,32}|[a-z][a-z0-9_]{0,31}")  # plain digits, or a word
MAX_OPTIONS_TEXT = 300
QUOTE_CHARS = 40


def _quoted(text: str) -> str:
    """Typed text fit to quote in a refusal: one line, short, no code span broken."""
    flat = " ".join(text.split())
    shown = flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1] + "…"
    return "`" + shown.replace("`", "'") + "`"


def _value(raw: str) -> Any:
    """A value as typed (already checked by :data:`OPTION_VALUE`): true/false (yes/no, on/off),
    a whole number, or a word. The game's own option rules check its type and range."""
    if raw in ("true", "yes", "on"):
        return True
    if raw in ("false", "no", "off"):
        return False
    if raw.lstrip("-").isdigit():
        return int(raw)
    return raw


def parse_option(name: str, value: str) -> tuple[str, Any]:
    """One option as typed (``/settings defaults``): a name and a single value, never more."""
    name, raw = name.strip().lower(), value.strip().lower()
    if not OPTION_NAME.fullmatch(name):
        raise UserError(f"{_quoted(name)} is not an option name.")
    if not OPTION_VALUE.fullmatch(raw):
        raise UserError(f"A value is one word or a whole number, not {_quoted(value)}.")
    return name, _value(raw)


def parse_options(text: str | None) -> dict[str, Any]:
    """``"players=6 last_trick=bonus"`` as option values: true/false, whole numbers, words.

    The one parser of typed options (``/table new options:``, ``/settings defaults``): anything
    else is refused in one line, before the game's own rules check names, types and ranges."""
    if not text:
        return {}
    if len(text) > MAX_OPTIONS_TEXT:
        raise UserError(f"That is too many options ({len(text)} characters).")
    options: dict[str, Any] = {}
    for part in text.replace(",", " ").split():
        name, sep, raw = part.lower().partition("=")
        if not (sep and OPTION_NAME.fullmatch(name) and OPTION_VALUE.fullmatch(raw)):
            raise UserError(
                f"Options are written name=value (a word or a whole number), not {_quoted(part)}."
            )
        options[name] = _value(raw)
    return options


def check_computers_allowed(table: LiveTable) -> None:
    """Computer seats are refused at a table opened while the server allowed none (a computer
    still plays an away human's turns, so that no table is stranded)."""
    if not table.row.computers:
        raise UserError(
            "This server does not allow computer players at its tables: invite people instead."
        )


class ChannelNotAllowed(UserError):
    """Tables may not be opened in this channel; ``allowed`` are the channels that may."""

    def __init__(self, allowed: Sequence[int]) -> None:
        self.allowed = tuple(allowed)
        where = ", ".join(f"<#{channel}>" for channel in self.allowed)
        super().__init__(f"Tables can be opened here: {where}.")


def check_table_channel(
    settings: GuildSettings, channel_id: int, parent_channel_id: int | None = None
) -> None:
    """Refuse a channel the server did not list for tables (a listed channel's threads count)."""
    if settings.channels and not {channel_id, parent_channel_id} & set(settings.channels):
        raise ChannelNotAllowed(settings.channels)


def _known_defaults(game_class: type[Game], settings: GuildSettings) -> dict[str, Any]:
    """The server's default options for a game, less any the game no longer has or allows (a
    value stored before its range was declared)."""
    known = {option.name: option for option in game_class.OPTIONS}
    stored = settings.defaults.get(game_class.name, {})
    kept = {}
    for name, value in stored.items():
        if name in known:
            with contextlib.suppress(OptionError):
                kept[name] = known[name].validate(value)
    return kept


def check_level(level: str) -> str:
    """``level`` if it is one the bot offers (:data:`games.players.AVAILABLE_LEVELS`)."""
    if level not in AVAILABLE_LEVELS:
        raise UserError(
            f"Choose one of the computer levels offered: {', '.join(AVAILABLE_LEVELS)}."
        )
    return level


class SessionManager:
    def __init__(self, store: Store, settings: Settings, clock: Clock | None = None) -> None:
        self.store = store
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.tables: dict[int, LiveTable] = {}
        self.presenter: Presenter | None = None
        self.computer_budget = COMPUTER_BUDGET_SECONDS
        self.abandon_seconds = ABANDON_SECONDS
        self.lobby_idle_seconds = LOBBY_IDLE_SECONDS
        self._guild_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._closing = False
        self._writes: set[asyncio.Task[Any]] = set()  # shielded timer writes under way
        self.thinker = Thinker(settings.computer_processes)

    # --- start-up and shutdown ---
    async def restore(self) -> None:
        """Rebuild every open table from the database (called once at start-up)."""
        for row in await self.store.open_tables():
            try:
                table = LiveTable(row, {s.seat: s for s in await self.store.seats(row.id)})
                table.touched = row.updated_at
                if row.status == "playing":
                    # The recent log as it was: the same replay yields the same events, told
                    # with the names of who held the seats then.
                    table.holders = await self.store.seat_holders(row.id)
                    replayed = await self._rebuild_game(table, after=0)
                    table.recent.append(Line(f"The game begins: {table.game_class.title}.", ()))
                    _retell(table, replayed)
                    if table.game is not None and table.game.status == "finished":
                        # Stored by an older bot, whose last move and result were two
                        # transactions: the result is kept now, and the table let go.
                        result = self._result_of(table, table.game)
                        await self.store.record_result(
                            row, result.status, result.outcome, result.players, table.calls
                        )
                        log.info("table %s: finished game found playing; result kept", row.id)
                        continue
                self.tables[row.id] = table
            except Exception:
                log.exception("table %s could not be restored; it is left as stored", row.id)
        log.info("restored %d open tables", len(self.tables))

    async def _rebuild_game(self, table: LiveTable, after: int = -1) -> list[tuple[int, Event]]:
        """Replay the table's stored moves through the rules; return the events of the moves
        numbered after ``after`` (counting from 1), as (move number, event)."""
        row = table.row
        deals = [Deal.from_json(deal) for deal in await self.store.deals(row.id)]
        game = table.game_class.new(
            row.options, seed=row.seed, deals=deals, first_dealer=row.first_dealer
        )
        moves = await self.store.moves(row.id)
        events: list[tuple[int, Event]] = []
        calls: list[Call] = []
        for number, stored in enumerate(moves, start=1):
            applied = game.apply(stored.seat, Move.from_json(stored.move))
            calls += calls_in(applied)
            if after >= 0 and number > after:
                events.extend((number, event) for event in applied)
        table.game = game
        table.calls = calls
        table.moves = len(moves)
        table.note_situation()
        return events

    async def resume_after_connect(self) -> None:
        """After (re)connecting: refresh every table message, resume timers and computers."""
        self.thinker.warm()
        for table in list(self.tables.values()):
            self._notify(table, ())
            if table.row.status == "playing":
                self._schedule(table)
            else:
                self._watch_lobby(table)

    async def shutdown(self) -> None:
        """Stop computers and timers, and wait for them (and any timer write under way) to
        end, so that nothing writes to the store once it is closed."""
        self._closing = True
        tasks = [
            task
            for table in self.tables.values()
            for task in (table.timer, table.worker, table.idle)
            if task is not None and not task.done() and task is not asyncio.current_task()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self._writes, return_exceptions=True)
        await self.thinker.close()

    async def _shielded(self, work: Coroutine[Any, Any, _T]) -> _T:
        """Run ``work`` to its end even if the caller is cancelled (re-arming a timer must not
        cut a write or a timeout in half); :meth:`shutdown` waits for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._writes.add(task)
        task.add_done_callback(self._write_done)
        return await asyncio.shield(task)

    def _write_done(self, task: asyncio.Task[Any]) -> None:
        self._writes.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: the waiter (if still there) handles it

    def _notify(self, table: LiveTable, events: Sequence[Event]) -> None:
        if self.presenter is not None:
            self.presenter.table_changed(table, events)

    # --- lookups (read-only: the cogs' way to the cache) ---
    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise UserError("That table is closed.")
        return table

    def find(self, table_id: int | None) -> LiveTable | None:
        """The open table with this number, or None."""
        return self.tables.get(table_id) if table_id is not None else None

    def in_play(self) -> list[LiveTable]:
        """The tables whose game is being played (after a restart: the ones restored)."""
        return [t for t in self.tables.values() if t.row.status == "playing"]

    def table_of_user(self, guild_id: int, user_id: int) -> LiveTable | None:
        """The user's table here; a seat a rematch keeps for them (not confirmed yet) counts
        only when they sit nowhere else."""
        reserved = None
        for table in self.tables.values():
            seat = table.seat_of(user_id) if table.row.guild_id == guild_id else None
            if seat is not None:
                if table.seats[seat].confirmed:
                    return table
                reserved = reserved or table
        return reserved

    async def open_table_count(self) -> int:
        with _paused():
            return await self.store.count_open_tables()

    async def leaderboard(self, guild_id: int, game: str | None = None) -> list[LeaderboardRow]:
        with _paused():
            return await self.store.leaderboard(guild_id, game)

    async def ladder(
        self,
        guild_id: int,
        game: str,
        *,
        month: bool = False,
        computers: bool = False,
        page: int = 0,
    ) -> LadderPage:
        """A page of the rated leaderboard (``month``: by the rating gained this month)."""
        with _paused():
            return await self.store.ladder(
                guild_id,
                game,
                month=month_of(self.clock.now()) if month else None,
                computers=computers,
                offset=max(page, 0) * LADDER_PAGE,
                limit=LADDER_PAGE,
            )

    async def player_stats(self, guild_id: int, user_id: int, game: str | None) -> PlayerStats:
        with _paused():
            return await gather_stats(self.store, guild_id, user_id, game)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        with _paused():
            return await self.store.guild_settings(guild_id, self.settings.turn_seconds)

    async def change_guild_settings(
        self,
        guild_id: int,
        turn_seconds: int | None = None,
        use_threads: bool | None = None,
        *,
        computers: bool | None = None,
        rated: bool | None = None,
        trick_lines: bool | None = None,
    ) -> GuildSettings:
        """Change a server's settings (None: unchanged); a turn timer outside 10..3600 seconds
        is refused. They apply to tables opened from now on."""
        if turn_seconds is not None and not 10 <= turn_seconds <= 3600:
            raise UserError("The turn timer is 10 to 3600 seconds.")
        current = await self.guild_settings(guild_id)
        given: dict[str, Any] = {
            "turn_seconds": turn_seconds,
            "use_threads": use_threads,
            "computers": computers,
            "rated": rated,
            "trick_lines": trick_lines,
        }
        return await self._save_settings(
            replace(current, **{k: v for k, v in given.items() if v is not None})
        )

    async def _save_settings(self, changed: GuildSettings) -> GuildSettings:
        with _paused():
            await self.store.save_guild_settings(changed)
        return changed

    # --- server settings: default options per game, the channels that may host tables ---
    async def set_game_default(
        self, guild_id: int, game: str, option: str, value: str
    ) -> GuildSettings:
        """Make ``option=value`` the server's default for ``game``: checked by the game's own
        option rules, refused (nothing kept) when it is not valid for that game."""
        game_class = self._game_class(game)
        name, parsed = parse_option(option, value)
        current = await self.guild_settings(guild_id)
        chosen = {**_known_defaults(game_class, current), name: parsed}
        try:
            game_class.validate_options(chosen)
        except OptionError as error:
            raise UserError(f"That is not a valid {game_class.title} option: {error}.") from None
        defaults = {**current.defaults, game: dict(sorted(chosen.items()))}
        return await self._save_settings(replace(current, defaults=defaults))

    async def reset_game_defaults(
        self, guild_id: int, game: str, option: str | None = None
    ) -> GuildSettings:
        """Back to the game's own defaults: one option, or all of the game's (``None``)."""
        game_class = self._game_class(game)
        current = await self.guild_settings(guild_id)
        chosen: dict[str, Any] = {}  # no option named: none of the game's defaults stays
        if option is not None:
            chosen = dict(current.defaults.get(game, {}))
            if option not in chosen:
                raise UserError(f"{option} has no server default for {game_class.title}.")
            del chosen[option]
        defaults = {name: opts for name, opts in current.defaults.items() if name != game}
        if chosen:
            defaults[game] = chosen
        return await self._save_settings(replace(current, defaults=defaults))

    async def set_table_channels(
        self,
        guild_id: int,
        *,
        add: int | None = None,
        remove: int | None = None,
        clear: bool = False,
    ) -> GuildSettings:
        """Change the list of channels that may host tables (empty: any channel)."""
        current = await self.guild_settings(guild_id)
        channels = [] if clear else list(current.channels)
        if remove is not None:
            if remove not in channels:
                raise UserError(f"<#{remove}> is not in the list of table channels.")
            channels.remove(remove)
        if add is not None and add not in channels:
            if len(channels) >= MAX_TABLE_CHANNELS:
                raise UserError(f"At most {MAX_TABLE_CHANNELS} channels can host tables.")
            channels.append(add)
        return await self._save_settings(replace(current, channels=tuple(channels)))

    @staticmethod
    def _game_class(game: str) -> type[Game]:
        games = all_games()
        if game not in games:
            raise UserError(
                f"There is no game called {game!r}. Try one of: {', '.join(sorted(games))}."
            )
        return games[game]

    # --- a member's own settings and the turn pings (the cogs' way to the store) ---
    async def turn_ping_wanted(self, guild_id: int, user_id: int) -> bool:
        with _paused():
            return await self.store.turn_ping_wanted(guild_id, user_id)

    async def set_turn_ping_wanted(self, guild_id: int, user_id: int, wanted: bool) -> None:
        with _paused():
            await self.store.set_turn_ping_wanted(guild_id, user_id, wanted)

    async def turn_pings(self, table_id: int) -> list[TurnPing]:
        with _paused():
            return await self.store.turn_pings(table_id)

    async def save_turn_ping(self, ping: TurnPing) -> None:
        with _paused():
            await self.store.save_turn_ping(ping)

    async def forget_turn_ping(self, table_id: int, user_id: int) -> None:
        with _paused():
            await self.store.delete_turn_ping(table_id, user_id)

    # --- the lobby ---
    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options_text: str | None = None,
        computer_level: str = "normal",
        hints: bool = False,
        parent_channel_id: int | None = None,
    ) -> LiveTable:
        """Open a lobby in ``channel_id`` (a thread of ``parent_channel_id``, if it is one),
        with the server's settings: allowed channels, default options, and the ones the table
        keeps for its life (rated, computers, turn timer, trick lines)."""
        game_class = self._game_class(game)
        settings = await self.guild_settings(guild_id)
        check_table_channel(settings, channel_id, parent_channel_id)
        try:
            options = game_class.validate_options(
                {**_known_defaults(game_class, settings), **parse_options(options_text)}
            )
        except OptionError as error:
            raise UserError(f"That option is not right: {error}.") from None
        check_level(computer_level)
        async with self._guild_locks[guild_id]:
            self._check_free(guild_id, host_id)
            with _paused():
                row = await self.store.create_table(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    game=game,
                    options=options,
                    seed=random.SystemRandom().randrange(2**62),
                    seats=[(host_id, host_name)],
                    computer_level=computer_level,
                    hints=hints,
                    rated=settings.rated,
                    computers=settings.computers,
                    turn_seconds=settings.turn_seconds,
                    trick_lines=settings.trick_lines,
                    parent_channel_id=parent_channel_id,
                )
            table = LiveTable(row, {0: SeatRow(row.id, 0, host_id, host_name, False)})
            table.touched = self.clock.now()
            self.tables[row.id] = table
        self._watch_lobby(table)
        return table

    async def set_message(self, table: LiveTable, message_id: int | None) -> None:
        """Remember the table's message (None: it is gone and must be posted again)."""
        async with table.lock:
            with _paused():
                table.row = await self.store.set_table_message(table.id, message_id)

    async def move_to_channel(self, table: LiveTable, channel_id: int) -> None:
        """The table moved to another channel (its own thread)."""
        async with table.lock:
            with _paused():
                table.row = await self.store.move_table(table.id, channel_id)

    def _check_free(self, guild_id: int, user_id: int, table_id: int | None = None) -> None:
        other = self._seated_at(guild_id, user_id)
        if other is not None and other.id != table_id:
            raise UserError(
                f"You are already seated at table #{other.id} in this server; leave it first."
            )
        if other is not None:
            raise UserError("You are already seated at this table.")

    def _open(self, table: LiveTable) -> None:
        """Inside the lock: the table is still open (it may have closed while we waited)."""
        if self.tables.get(table.id) is not table:
            raise UserError("That table is closed.")

    def _in_lobby(self, table: LiveTable) -> None:
        self._open(table)
        if table.row.status != "lobby":
            raise UserError("This game has already started.")

    def _lobby_changed(self, table: LiveTable, row: TableRow) -> None:
        table.row = row
        table.touched = self.clock.now()

    async def join(self, table_id: int, user_id: int, name: str, seat: int | None = None) -> None:
        table = self.get(table_id)
        async with self._guild_locks[table.row.guild_id], table.lock:
            self._in_lobby(table)
            self._check_free(table.row.guild_id, user_id, table.id)
            if await self._confirm(table, user_id):
                self._notify(table, ())
                return
            seat = self._pick_seat(table, seat)
            with _paused():
                row, placed = await self.store.sit(table.id, seat, user_id, name)
            table.seats[seat] = placed
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def sit(self, table_id: int, user_id: int, name: str, seat: int) -> None:
        """A click on a seat: join there, or move there from one's own seat."""
        table = self.get(table_id)
        if table.seat_of(user_id) is None:
            await self.join(table_id, user_id, name, seat)
        else:
            await self.move_seat(table_id, user_id, seat)

    def _pick_seat(self, table: LiveTable, seat: int | None) -> int:
        free = table.free_seats()
        if not free:
            raise UserError("The table is full.")
        if seat is None:
            return free[0]
        if seat in table.seats:
            raise UserError(f"Seat {seat + 1} is taken.")
        if not 0 <= seat < table.seat_count:
            raise UserError("There is no such seat.")
        return seat

    async def move_seat(self, table_id: int, user_id: int, seat: int) -> None:
        """Change seats in the lobby (and so the team, in partnership games)."""
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            current = table.seat_of(user_id)
            if current is None:
                raise UserError("Join the table first.")
            target = self._pick_seat(table, seat)
            with _paused():
                row, moved = await self.store.change_seat(table.id, current, target)
            del table.seats[current]
            table.seats[target] = moved
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def add_computer(self, table_id: int, user_id: int, seat: int | None = None) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if table.seat_of(user_id) is None and user_id != table.row.host_id:
                raise UserError("Only players at this table can add computer players.")
            check_computers_allowed(table)
            seat = self._pick_seat(table, seat)
            name = _computer_name(table)
            with _paused():
                row, placed = await self.store.sit(table.id, seat, None, name)
            table.seats[seat] = placed
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def set_computer_level(self, table_id: int, user_id: int, level: str) -> None:
        """The host sets the level of the table's computer players, in the lobby only."""
        check_level(level)
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError("Only the host can choose the computer players' level.")
            if level == table.row.computer_level:
                return
            with _paused():
                row = await self.store.set_computer_level(table.id, level)
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def set_hints(self, table_id: int, user_id: int, hints: bool) -> None:
        """The host turns hints on or off, in the lobby only (a table with hints is unrated)."""
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError("Only the host can turn hints on or off.")
            if hints == table.row.hints:
                return
            with _paused():
                row = await self.store.set_hints(table.id, hints)
            self._lobby_changed(table, row)
        self._notify(table, ())

    def hint(self, table_id: int, user_id: int) -> tuple[int, Move, str]:
        """What the normal computer player would do for the user's seat now, and why, as (move
        number, move, reason): only at a table with hints, only on the user's turn. Decided
        from the seat's view alone (:mod:`games.players.hints`), with the random source a
        computer would use at this move, and without awaiting, so the state cannot change."""
        table = self.get(table_id)
        if not table.row.hints:
            raise UserError("Hints are off at this table.")
        if table.row.status != "playing" or table.game is None:
            raise UserError("This game is not being played.")
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("You are not playing at this table.")
        if seat not in table.waiting_for():
            raise UserError("It is not your turn; ask for a hint when it is.")
        rng = random.Random(f"{table.row.seed}:{table.moves}")
        move, reason = hint_for(table.game, seat, rng)
        return table.moves, move, reason

    def _next_host(self, table: LiveTable, leaving: int) -> int | None:
        """The next seated person after ``leaving`` (in seat order), or None if there is none."""
        count = table.seat_count
        for step in range(1, count):
            row = table.seats.get((leaving + step) % count)
            if row is not None and not row.computer and row.confirmed:
                return row.user_id
        return None

    async def _unseat(self, table: LiveTable, seat: int) -> bool:
        """Inside the lock: free a lobby seat, handing the host role on; False if none is left
        to host (the lobby is then closed)."""
        leaving = table.seats[seat].user_id
        new_host = None
        if leaving == table.row.host_id:
            new_host = self._next_host(table, seat)
            if new_host is None:
                await self._close(table, "cancelled", "This table was closed: everyone left.")
                return False
        with _paused():
            row = await self.store.stand(table.id, seat, new_host)
        del table.seats[seat]
        self._lobby_changed(table, row)
        if new_host is not None:
            table.recent.append(
                Line("{s0} hosts now.", [table.seats[self._seat_of_user(table, new_host)].name])
            )
        return True

    @staticmethod
    def _seat_of_user(table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(user_id)
        assert seat is not None
        return seat

    async def leave(self, table_id: int, user_id: int) -> str:
        """Leave a lobby, or hand one's seat in a running game to a computer player."""
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            if table.row.status == "lobby":
                if not await self._unseat(table, seat):
                    return "You left; the table is closed."
                message = "You left the table."
            else:
                message = await self._leave_game(table, seat)
                if self.tables.get(table.id) is not table:
                    return message  # the game was abandoned: the table is let go
        self._notify(table, ())
        if table.row.status == "playing":
            self._schedule(table)
        return message

    async def remove(self, table_id: int, actor_id: int, seat: int, is_admin: bool) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if actor_id != table.row.host_id and not is_admin:
                raise UserError("Only the host or a server manager can remove a player.")
            if seat not in table.seats:
                raise UserError("That seat is empty.")
            if table.seats[seat].user_id == actor_id:
                raise UserError("To leave your own seat, press Leave.")
            if not await self._unseat(table, seat):
                return
        self._notify(table, ())

    async def start(self, table_id: int, user_id: int) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError("Only the host can start the game.")
            if table.free_seats():
                raise UserError("Fill every seat first (friends or computer players).")
            if not table.humans():
                raise UserError("At least one person must sit at the table.")
            self._check_confirmed(table)
            game = table.game_class.new(table.row.options, seed=table.row.seed)
            with _paused():
                table.row = await self.store.start_game(
                    table.id, game.first_dealer, [deal.to_json() for deal in game.deals]
                )
            table.game = game
            table.moves = 0
            table.holders = [
                SeatHolder(s.seat, 0, s.user_id, s.name) for _, s in sorted(table.seats.items())
            ]
            table.note_situation()
            table.recent.append(Line(f"The game begins: {table.game_class.title}.", ()))
        if table.idle is not None and not table.idle.done():
            table.idle.cancel()
        self._notify(table, ())
        self._schedule(table)

    async def cancel(self, table_id: int, actor_id: int, is_admin: bool) -> str | None:
        """Cancel a lobby, or abandon a running game (recorded as abandoned). A player (not a
        server manager) abandoning a rated game under way resigns it if she is the only person
        seated (the answer says so), and is refused if others are: she may leave instead."""
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            if actor_id != table.row.host_id and not is_admin:
                raise UserError("Only the host or a server manager can close this table.")
            if table.row.status == "lobby":
                await self._close(table, "cancelled")
                return None
            seat = table.seat_of(actor_id)
            if not is_admin and seat is not None and self._resignable(table):
                if any(s.seat != seat for s in table.humans()):
                    raise UserError(NOT_ABANDONED_ALONE)
                await self._close(table, "abandoned", resigned=seat)
                return RESIGNED_ALONE_TEXT
            await self._close(table, "abandoned")
            return None

    @staticmethod
    def _resignable(table: LiveTable) -> bool:
        """A rated game under way: its last person leaving it resigns it (bot/records.py)."""
        return (
            table.row.rated
            and not table.row.hints
            and table.row.status == "playing"
            and table.game is not None
            and table.game.status == "in_progress"
        )

    async def _close(
        self,
        table: LiveTable,
        status: str,
        note: str | None = None,
        reason: str | None = None,
        resigned: int | None = None,
    ) -> None:
        """Inside the lock: close the table for good (``note`` says why), and let it go.
        ``reason``: why a game was abandoned, kept with its result. ``resigned``: the seat whose
        last person left a rated game: it ends as that seat's loss, rated (games/seats.py)."""
        with _paused():
            if status == "abandoned":
                score = list(table.game.summary().get("score") or []) if table.game else []
                outcome: dict[str, Any] = {"winners": [], "score": score, "abandoned": True}
                if resigned is not None:  # a result: rated like a finished game
                    outcome = {
                        "winners": resignation_winners(
                            resigned, table.seat_count, table.game_class.teams
                        ),
                        "score": score,
                        "abandoned": False,
                        "resigned": resigned,
                    }
                elif reason:
                    outcome["reason"] = reason
                table.row = await self.store.record_result(
                    table.row,
                    status,
                    outcome,
                    [
                        (s.user_id, s.seat, s.seat in outcome["winners"])
                        for s in table.humans()
                        if s.user_id is not None
                    ],
                )
            else:
                table.row = await self.store.set_status(table.id, status)
        table.note = note
        table.resigned = resigned
        if resigned is not None:  # read once the result is kept: words only, never fails
            table.result_note = await self.store.result_note(table.id)
        self._let_go(table)

    async def channel_deleted(self, channel_id: int) -> list[LiveTable]:
        """The channel (or thread) was deleted: no one can reach its tables any more, so each is
        closed for good, a lobby cancelled and a game abandoned (unrated, the reason kept)."""
        closed = []
        for table in [t for t in self.tables.values() if t.row.channel_id == channel_id]:
            async with table.lock:
                if self.tables.get(table.id) is not table:
                    continue
                if table.row.status == "lobby":
                    await self._close(table, "cancelled", CHANNEL_DELETED_NOTE)
                else:
                    await self._close(
                        table, "abandoned", CHANNEL_DELETED_NOTE, CHANNEL_DELETED_REASON
                    )
            log.info("table %s: its channel was deleted; the table is closed", table.id)
            closed.append(table)
        return closed

    def _let_go(self, table: LiveTable) -> None:
        self.tables.pop(table.id, None)
        current = asyncio.current_task()
        for task in (table.timer, table.worker, table.idle):
            if task is not None and task is not current and not task.done():
                task.cancel()
        if self.presenter is not None:
            self.presenter.table_closed(table)

    def _watch_lobby(self, table: LiveTable) -> None:
        """Close the lobby once nothing happened in it for ``lobby_idle_seconds``."""
        if self._closing or table.row.status != "lobby":
            return
        if table.idle is None or table.idle.done():
            table.idle = asyncio.get_running_loop().create_task(self._expire_lobby(table))

    async def _expire_lobby(self, table: LiveTable) -> None:
        failures = 0
        while not self._closing and self.tables.get(table.id) is table:
            await self.clock.sleep_until(table.touched + self.lobby_idle_seconds)
            try:
                async with table.lock:
                    if self.tables.get(table.id) is not table or table.row.status != "lobby":
                        return
                    if self.clock.now() < table.touched + self.lobby_idle_seconds:
                        continue  # something happened meanwhile
                    minutes = round(self.lobby_idle_seconds / 60)
                    note = f"This table was closed after {minutes} minutes without activity."
                    await self._close(table, "cancelled", note)
                    return
            except TablePaused:
                failures += 1
                await self.clock.sleep_until(self.clock.now() + _retry_delay(failures))

    # --- moves ---
    async def submit(self, table_id: int, user_id: int, seq: int, move: Move) -> list[Event]:
        """A human's move: refused with a :class:`UserError`, or committed and returned."""
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            if table.row.status != "playing" or table.game is None:
                raise UserError("This game is not being played.")
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if table.is_stale(seat, seq):
                raise UserError("That button is out of date; here is your hand as it is now.")
            try:
                table.game.check(seat, move)
            except IllegalMove as error:
                raise UserError(_fill(str(error), table)) from None
            events = await self._commit(table, seat, move, user_id)
        self._after_move(table, events)
        return events

    async def _commit(
        self, table: LiveTable, seat: int, move: Move, user_id: int | None
    ) -> list[Event]:
        """Apply on a clone, store the move (with any new deal, and the result if the game
        ended, in one transaction), then swap the clone in."""
        assert table.game is not None
        hidden_before = table.game.hidden_cards(None)
        game = table.game.clone()
        events = game.apply(seat, move)
        new_deals = [
            (i, game.deals[i].to_json()) for i in range(len(table.game.deals), len(game.deals))
        ]
        result = self._result_of(table, game) if game.status == "finished" else None
        calls = [*table.calls, *calls_in(events)]
        if result is not None:
            result = replace(result, calls=calls)
        back = user_id is not None and table.seats[seat].away
        with _paused():
            row, returned = await self.store.append_move(
                table.id,
                table.moves,
                seat,
                move.to_json(),
                user_id,
                new_deals,
                status=None,
                deadline=None,
                back=back,
                result=result,
            )
        table.game = game
        table.moves += 1
        table.calls = calls
        table.row = row
        if returned is not None:
            table.seats[seat] = returned
        table.note_situation(seat)
        played = {move.get("card")} | set(move.get("cards") or ())
        table.remember(events, (hidden_before & game.hidden_cards(None)) - played)
        if result is not None:  # read after the cache is settled: words only, never fails
            table.result_note = await self.store.result_note(table.id)
        return events

    @staticmethod
    def _result_of(table: LiveTable, game: Game) -> Result:
        outcome = game.outcome()
        assert outcome is not None
        winners = set(outcome.winners)
        return Result(
            "finished",
            {"winners": list(outcome.winners), "score": list(outcome.score), "abandoned": False},
            [
                (s.user_id, s.seat, s.seat in winners)
                for s in table.humans()
                if s.user_id is not None
            ],
        )

    def _after_move(self, table: LiveTable, events: Sequence[Event]) -> None:
        if self._announce(table, events):
            self._schedule(table)

    def _announce(self, table: LiveTable, events: Sequence[Event]) -> bool:
        """Tell the presenter about a committed move; False (and the table let go) if it ended."""
        self._notify(table, events)
        if table.row.status == "playing":
            return True
        self._let_go(table)
        return False

    async def come_back(self, table_id: int, user_id: int) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if not table.seats[seat].away:
                raise UserError("You are already in your seat.")
            with _paused():
                row, changed = await self.store.set_away(table.id, [seat], False)
            table.row = row
            table.seats[seat] = changed[0]
        self._notify(table, ())
        self._schedule(table)

    # --- computers and timers ---
    def _schedule(self, table: LiveTable) -> None:
        """Wake the table's worker (computer turns) and re-arm its turn timer, independently."""
        if self._closing or table.row.status != "playing" or self.tables.get(table.id) is not table:
            return
        table.wake = True
        if table.worker is None or table.worker.done():
            table.worker = asyncio.get_running_loop().create_task(self._work(table))
        self._arm(table)

    def _arm(self, table: LiveTable) -> None:
        if table.timer is not None and not table.timer.done():
            table.timer.cancel()
        table.timer = asyncio.get_running_loop().create_task(self._keep_time(table))

    async def _work(self, table: LiveTable) -> None:
        """Play computer turns until none is due. A failure (the database refusing the move)
        leaves the game as it was; the worker waits and tries again, it never gives up."""
        failures = 0
        while table.wake and not self._closing:
            table.wake = False
            try:
                while (
                    not self._closing
                    and self.tables.get(table.id) is table
                    and table.row.status == "playing"
                ):
                    if not await self._computer_step(table):
                        break
                    failures = 0
            except TablePaused:
                failures += 1
                log.warning("table %s: a computer move was not saved; retrying", table.id)
            except Exception:
                failures += 1
                log.exception("table %s: the computer player failed; retrying", table.id)
            if failures:
                table.wake = True
                await self.clock.sleep_until(self.clock.now() + _retry_delay(failures))

    async def _computer_step(self, table: LiveTable) -> bool:
        """Play one computer move if a computer is to act; False when none is."""
        assert table.game is not None
        seats = [s for s in table.waiting_for() if table.played_by_computer(s)]
        if not seats:
            return False
        seat, seq, snapshot = seats[0], table.moves, table.game.clone()
        level, seed = table.level_of(seat), f"{table.row.seed}:{seq}"
        try:  # in a worker process (or a thread): see bot.thinking
            move = await self.thinker.choose(
                snapshot, seat, seed, level, self.computer_budget, choose_move
            )
        except TimeoutError:
            log.warning("table %s: computer seat %s ran out of time", table.id, seat)
            move = await self._fallback_move(snapshot, seat, seed, level)
        except Exception:  # a player's bug must not stop the table
            log.exception("table %s: computer seat %s failed to choose", table.id, seat)
            move = await self._fallback_move(snapshot, seat, seed, level)
        async with table.lock:
            if (
                table.moves != seq
                or table.row.status != "playing"
                or self.tables.get(table.id) is not table
                or not table.played_by_computer(seat)  # a person sat in (or came back) meanwhile
            ):
                return True  # someone moved meanwhile: look again
            events = await self._commit(table, seat, move, None)
        if not self._announce(table, events):
            return False
        self._arm(table)
        await asyncio.sleep(0)
        return True

    async def _fallback_move(self, game: Game, seat: int, seed: str, level: str) -> Move:
        """A move when ``level`` could not decide: the normal level's (a quick rule of thumb, far
        better than any fixed card), or the first legal move if that fails too."""
        if level != FALLBACK_LEVEL:
            with contextlib.suppress(Exception):
                return await self.thinker.choose(
                    game, seat, seed, FALLBACK_LEVEL, self.computer_budget, choose_move
                )
        return game.legal_moves(seat)[0]

    async def _keep_time(self, table: LiveTable) -> None:
        """Store the turn deadline of the humans to act, wait for it, and time them out.

        A database failure is retried with backoff; the timer never depends on the worker.
        Re-arming cancels this task only while it waits: its writes run shielded.
        """
        failures = 0
        while not self._closing and self.tables.get(table.id) is table:
            try:
                armed = await self._shielded(self._deadline_now(table))
                if armed is None:
                    return
                seq, deadline = armed
                await self.clock.sleep_until(deadline)
                await self._shielded(self._expire(table, seq))
                return
            except TablePaused:
                failures += 1
                log.warning("table %s: the turn timer could not be saved; retrying", table.id)
            except Exception:
                failures += 1
                log.exception("table %s: the turn timer failed; retrying", table.id)
            await self.clock.sleep_until(self.clock.now() + _retry_delay(failures))

    async def _deadline_now(self, table: LiveTable) -> tuple[int, float] | None:
        """The move number and deadline to wait for, or None when no human is timed."""
        async with table.lock:
            if table.row.status != "playing" or self.tables.get(table.id) is not table:
                return None
            deadline = await self._set_deadline(table)
            return None if deadline is None else (table.moves, deadline)

    async def _set_deadline(self, table: LiveTable) -> float | None:
        """Inside the lock: this turn's deadline (kept across restarts), stored if it changed."""
        if table.game is None:
            return None
        humans_present = any(not s.away for s in table.humans())
        waiting = [s for s in table.waiting_for() if not table.seats[s].computer]
        if not waiting:
            deadline = None
        elif table.row.turn_deadline is not None:  # this turn's deadline survives restarts
            deadline = table.row.turn_deadline
        elif not humans_present:
            deadline = self.clock.now() + self.abandon_seconds
        else:
            seconds = table.row.turn_seconds  # the table's own, kept from when it opened
            if seconds is None:  # an older table's: the server's current timer
                seconds = (await self.guild_settings(table.row.guild_id)).turn_seconds
            deadline = self.clock.now() + seconds
        if deadline != table.row.turn_deadline:
            with _paused():
                table.row = await self.store.set_deadline(table.id, deadline)
            self._notify(table, ())
        return deadline

    async def _expire(self, table: LiveTable, seq: int) -> None:
        async with table.lock:
            if (
                table.moves != seq
                or table.row.status != "playing"
                or self.tables.get(table.id) is not table
            ):
                return
            if not any(not s.away for s in table.humans()):
                await self._close(table, "abandoned")
                return
            late = [
                seat
                for seat in table.waiting_for()
                if not table.seats[seat].computer and not table.seats[seat].away
            ]
            with _paused():
                row, changed = await self.store.set_away(table.id, late, True, clear_deadline=True)
            table.row = row
            for seat_row in changed:
                table.seats[seat_row.seat] = seat_row
                table.recent.append(
                    Line("{s0} ran out of time; a computer plays for them.", [seat_row.name])
                )
        self._notify(table, ())
        self._schedule(table)

    # --- announcements (added by the faults helper for issue 13, item 6) ---------------------
    announce_window_seconds = 7 * 86400.0  # closed tables older than this are not re-announced

    async def mark_announced(self, table: LiveTable, moves: int) -> None:
        """The table's message shows it at ``moves`` and its results through there are posted."""
        await self.store.set_announced(table.id, moves, f"{table.row.status}:{moves}")

    async def unannounced(self) -> list[tuple[LiveTable, list[tuple[int, Event]]]]:
        """Tables a crash left unannounced, each with the events of its moves whose results
        were not posted yet as (move number, event); finished tables are rebuilt for it."""
        out: list[tuple[LiveTable, list[tuple[int, Event]]]] = []
        since = self.clock.now() - self.announce_window_seconds
        for row, through in await self.store.unannounced_tables(since):
            try:
                live = self.tables.get(row.id)
                # A live table is replayed on a copy: only its events are wanted here.
                seats = live.seats if live else {s.seat: s for s in await self.store.seats(row.id)}
                table = LiveTable(live.row if live else row, seats)
                table.holders = live.holders if live else await self.store.seat_holders(row.id)
                events: list[tuple[int, Event]] = []
                if row.status in ("playing", "finished", "abandoned"):
                    events = await self._rebuild_game(table, after=through)
                if row.status == "finished":  # the re-announced result says if it was rated
                    table.result_note = await self.store.result_note(row.id)
                if row.status == "abandoned":  # a resigned game's board says who left
                    table.resigned = await self.store.resigned_seat(row.id)
                    if table.resigned is not None:
                        table.result_note = await self.store.result_note(row.id)
                out.append((live or table, events))
            except Exception:
                log.exception("table %s: could not be re-announced", row.id)
        return out

    # --- the lobby's extras (issue 17: fill, lengths, rematch, sit-in, leaving) -----------------
    def _seated_at(self, guild_id: int, user_id: int) -> LiveTable | None:
        """The table here where the user has a confirmed seat (a rematch's reservation does not
        keep anyone from sitting elsewhere)."""
        for table in self.tables.values():
            seat = table.seat_of(user_id) if table.row.guild_id == guild_id else None
            if seat is not None and table.seats[seat].confirmed:
                return table
        return None

    async def _confirm(self, table: LiveTable, user_id: int) -> bool:
        """Inside the lock: confirm the user's seat kept by a rematch; False if they have none
        waiting for confirmation."""
        seat = table.seat_of(user_id)
        if seat is None or table.seats[seat].confirmed:
            return False
        with _paused():
            row, placed = await self.store.confirm_seat(table.id, seat)
        table.seats[seat] = placed
        self._lobby_changed(table, row)
        return True

    @staticmethod
    def _check_confirmed(table: LiveTable) -> None:
        waiting = [s.name for s in table.humans() if not s.confirmed]
        if waiting:
            raise UserError(
                f"Waiting for {', '.join(waiting)} to press Join (or remove them to play without)."
            )

    async def fill_with_computers(self, table_id: int, user_id: int) -> int:
        """The host seats computers in every empty seat of the lobby, at once; how many."""
        table = self.get(table_id)
        check_computers_allowed(table)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError("Only the host can fill the table with computer players.")
            free = table.free_seats()
            if not free:
                raise UserError("Every seat is taken already.")
            names: list[tuple[int, str]] = []
            for seat in free:
                names.append((seat, _computer_name(table, {name for _, name in names})))
            with _paused():
                row, placed = await self.store.sit_computers(table.id, names)
            for seat_row in placed:
                table.seats[seat_row.seat] = seat_row
            self._lobby_changed(table, row)
        self._notify(table, ())
        return len(placed)

    async def set_length(self, table_id: int, user_id: int, length: str) -> None:
        """The host picks a match length preset; the engine validates the options it sets."""
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError("Only the host can choose the length of the game.")
            try:
                wanted = with_preset(table.row.game, table.row.options, length)
                options = table.game_class.validate_options(wanted)
            except KeyError:
                raise UserError("Choose one of the lengths offered.") from None
            except OptionError as error:
                raise UserError(f"That length does not fit these options: {error}.") from None
            if table.game_class.seat_count(options) != table.seat_count:
                raise UserError("That length would change the number of seats.")
            if options == table.row.options:
                return
            with _paused():
                row = await self.store.set_options(table.id, options)
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def rematch(self, table_id: int, user_id: int) -> tuple[LiveTable, bool]:
        """Open the lobby of a finished game's rematch, or find the one already open.

        The same people and computers (same options and level), seats turned by
        :func:`games.seats.rematch_order`, under the server's settings of now (rated, computers
        allowed, turn timer, trick lines). The asker hosts and is confirmed; every other person
        confirms with Join (a Rematch click does it too). Returns the lobby and whether this call
        opened it; a second click changes nothing. A rematch lobby that was cancelled frees the
        way for a new one.
        """
        with _paused():
            old = await self.store.get_table(table_id)
        if old is None or old.status != "finished":
            raise UserError("Only a finished game can be played again.")
        async with self._guild_locks[old.guild_id]:
            with _paused():
                existing = await self.store.rematch_of(old.id)
                seats = await self.store.seats(old.id)
            if existing is not None:
                table = self.tables.get(existing)
                if table is None or table.row.status != "lobby":
                    raise UserError(
                        f"The rematch (table #{existing}) has already started or closed."
                    )
                async with table.lock:
                    confirmed = table.row.status == "lobby" and await self._confirm(table, user_id)
                if confirmed:
                    self._notify(table, ())
                return table, False
            if user_id not in {s.user_id for s in seats if not s.computer}:
                raise UserError(f"Only the players of table #{old.id} can ask for its rematch.")
            self._check_free(old.guild_id, user_id)
            game_class = get_game(old.game)
            count = game_class.seat_count(old.options)
            by_seat = {s.seat: s for s in seats}
            if sorted(by_seat) != list(range(count)):
                raise UserError("This table's seats cannot be played again.")
            order = rematch_order(count, game_class.teams)
            # The server's settings of now, as for any new table: rated or not, and whether
            # computers may sit (if not, their seats are left empty for people to take).
            settings = await self.guild_settings(old.guild_id)
            new_seats = [
                (
                    by_seat[old_seat].user_id,
                    by_seat[old_seat].name,
                    by_seat[old_seat].user_id in (None, user_id),
                )
                if not by_seat[old_seat].computer or settings.computers
                else None
                for old_seat in order
            ]
            with _paused():
                row = await self.store.create_rematch(
                    old,
                    random.SystemRandom().randrange(2**62),
                    new_seats,
                    rated=settings.rated,
                    computers=settings.computers,
                    turn_seconds=settings.turn_seconds,
                    trick_lines=settings.trick_lines,
                )
                stored = await self.store.seats(row.id)
            table = LiveTable(row, {s.seat: s for s in stored})
            table.touched = self.clock.now()
            self.tables[row.id] = table
        self._watch_lobby(table)
        return table, True

    async def _leave_game(self, table: LiveTable, seat: int) -> str:
        """Inside the lock: a person leaves a running game. A computer takes their seat and they
        are free; the host role passes on. The last person leaving a rated game resigns it (the
        game is their side's loss, rated); leaving an unrated one abandons it. Leaving
        counts as playing the game out: the store keeps who left the seat, and the game's
        record rates them with the seat's result (bot/records.py)."""
        leaving = table.seats[seat]
        others = [s for s in table.humans() if s.seat != seat]
        if not others and self._resignable(table):
            await self._close(table, "abandoned", resigned=seat)
            return RESIGNED_TEXT
        if not others:
            await self._close(table, "abandoned", "Everyone left, so the game was abandoned.")
            return "You were the last person at the table, so the game is abandoned."
        new_host = None
        if leaving.user_id == table.row.host_id:
            new_host = self._next_host(table, seat)
        name = _computer_name(table)
        with _paused():
            row, placed = await self.store.hand_to_computer(table.id, seat, name, new_host)
        table.row = row
        table.seats[seat] = placed
        table.holders.append(SeatHolder(seat, table.moves, None, name))
        table.recent.append(_change_line(leaving.name, name, computer=True))
        if new_host is not None:
            table.recent.append(
                Line("{s0} hosts now.", [table.seats[self._seat_of_user(table, new_host)].name])
            )
        message = f"You left: {name} plays your seat. You are free to join another table."
        if row.rated and not row.hints:
            message += " The game still counts for your rating, with your seat's result."
        if all(s.away for s in others):
            minutes = round(self.abandon_seconds / 60)
            table.recent.append(
                Line(
                    f"Only away players are left: the game is abandoned within {minutes} minutes "
                    "unless one of them comes back.",
                    (),
                )
            )
            message += (
                f" Only away players are left: the game is abandoned within {minutes} minutes "
                "unless one of them presses “I'm back”."
            )
        return message

    def sit_in_seats(self, table: LiveTable, user_id: int | None = None) -> list[int]:
        """The computer seats one may ask to take over (a running game only): any, for a
        newcomer (or ``user_id`` None); for a person who held a seat earlier in the game, only
        those :func:`games.seats.seats_to_return_to` allows (her own side)."""
        if table.row.status != "playing":
            return []
        computers = [s.seat for s in table.seats.values() if s.computer]
        held = table.held_by(user_id) if user_id is not None else set()
        return seats_to_return_to(table.seat_count, table.game_class.teams, held, computers)

    def check_sit_in(self, table: LiveTable, user_id: int, seat: int | None = None) -> list[int]:
        """The seats this person may ask for (``seat`` among them, when given), or a
        :class:`UserError` saying why none."""
        if table.row.status != "playing":
            raise UserError("This game is not being played.")
        if table.seat_of(user_id) is not None:
            raise UserError("You are already playing at this table.")
        if not self.sit_in_seats(table):
            raise UserError("There is no computer seat to sit in for here.")
        allowed = self.sit_in_seats(table, user_id)
        held = sorted(table.held_by(user_id))
        if held and (not allowed or (seat is not None and seat not in allowed)):
            only = "your own team's seats" if table.game_class.teams else "that seat"
            text = f"You played {_seat_list(held)} earlier in this game: you may come back to "
            if allowed:
                raise UserError(f"{text}{only} only ({_seat_list(allowed)}).")
            raise UserError(f"{text}{only} only, and no computer plays one now.")
        if seat is not None and seat not in allowed:
            raise UserError("That seat is not a computer's; choose one of the seats offered.")
        return allowed

    def former_seats(self, table: LiveTable, user_id: int) -> list[int]:
        """The seats this person held earlier in the table's game (for the host's question)."""
        return sorted(table.held_by(user_id))

    async def ask_sit_in(self, table_id: int, user_id: int, name: str, seat: int) -> None:
        """A person not at the table asks the host to let them play a computer's seat (one who
        played earlier in the game only a seat of her own side)."""
        table = self.get(table_id)
        async with self._guild_locks[table.row.guild_id], table.lock:
            self._open(table)
            self.check_sit_in(table, user_id, seat)
            self._check_free(table.row.guild_id, user_id)
            with _paused():
                if not await self.store.ask_sit_in(table.id, seat, user_id, name):
                    raise UserError("You have asked already; the host has not answered yet.")

    async def withdraw_sit_in(self, table_id: int, user_id: int, seat: int) -> None:
        """Forget a request the host could not be asked about (its message was not posted)."""
        with _paused():
            await self.store.drop_sit_in(table_id, seat, user_id)

    async def answer_sit_in(
        self, table_id: int, host_id: int, seat: int, user_id: int, agree: bool
    ) -> Line:
        """The host lets the asker take over the computer's seat (or says no); what happened,
        naming people as a :class:`Line` does."""
        table = self.get(table_id)
        async with self._guild_locks[table.row.guild_id], table.lock:
            self._open(table)
            if host_id != table.row.host_id:
                raise UserError("Only the host can answer this.")
            with _paused():
                name = await self.store.sit_in_request(table.id, seat, user_id)
            if name is None:
                raise UserError("That request is no longer open.")
            if not agree:
                with _paused():
                    await self.store.drop_sit_in(table.id, seat, user_id)
                return Line("The host said no to {s0}.", (name,))
            stand_in = table.seats.get(seat)
            if stand_in is None or not stand_in.computer or table.row.status != "playing":
                with _paused():
                    await self.store.drop_sit_in(table.id, seat, user_id)
                raise UserError("That seat is not a computer's any more.")
            if seat not in self.sit_in_seats(table, user_id):  # she played another seat since
                with _paused():
                    await self.store.drop_sit_in(table.id, seat, user_id)
                raise UserError(
                    "They played an opponent's seat earlier in this game: they may come back "
                    "only to their own side."
                )
            if self._seated_at(table.row.guild_id, user_id) is not None:
                with _paused():
                    await self.store.drop_sit_in(table.id, seat, user_id)
                raise UserError("They sit at another table now.")
            with _paused():
                row, placed = await self.store.take_seat(table.id, seat, user_id, name)
            table.row = row
            table.seats[seat] = placed
            table.holders.append(SeatHolder(seat, table.moves, user_id, name))
            table.note_situation()
            table.recent.append(_change_line(stand_in.name, name, computer=False))
        self._notify(table, ())
        self._schedule(table)
        return Line(f"{{s0}} plays seat {seat + 1} now (instead of {{s1}}).", (name, stand_in.name))

    # --- history, export and forget (branch history: the queries are bot/history.py's and
    # bot/privacy.py's; these wrap them for the cogs, which never touch the store) ------------
    async def history_page(
        self,
        guild_id: int,
        page: int,
        user_id: int | None = None,
        game: str | None = None,
        viewer: history.Viewer | None = None,
    ) -> history.HistoryPage:
        with _paused(), _refused():
            return await history.history_page(
                self.store, guild_id, page, user_id=user_id, game=game, viewer=viewer
            )

    async def export(
        self, guild_id: int, table_id: int, viewer: history.Viewer | None = None
    ) -> history.Export:
        """A game's transcript; a refusal (another server's table, a game still being played,
        one the viewer may not see) is a :class:`UserError`."""
        with _paused(), _refused():
            return await history.export(self.store, guild_id, table_id, viewer)

    async def forget(self, user_id: int) -> privacy.Forgotten:
        """Forget a person everywhere but at open tables, whose games go on as they are."""
        with _paused():
            return await privacy.forget_user(self.store, user_id)


@contextmanager
def _refused() -> Iterator[None]:
    """A history refusal is a user error: its text is written for the user."""
    try:
        yield
    except history.HistoryRefusal as error:
        raise UserError(str(error)) from None


def _seat_list(seats: Sequence[int]) -> str:
    """``seat 2`` or ``seats 1 and 3``."""
    numbers = [str(seat + 1) for seat in seats]
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


def _change_line(old: str, new: str, *, computer: bool) -> Line:
    """The log's line for a seat changing hands mid-game."""
    if computer:
        return Line("{s0} left; {s1} plays their seat.", (old, new))
    return Line("{s0} sits in for {s1}.", (new, old))


def _retell(table: LiveTable, replayed: Sequence[tuple[int, Event]]) -> None:
    """After a restart, the recent log as it was: each move's events told with the names of who
    held the seats then, and the seats changing hands between the moves."""
    changes: defaultdict[int, list[Line]] = defaultdict(list)
    last: dict[int, SeatHolder] = {}
    for holder in table.holders:
        before = last.get(holder.seat)
        if before is not None:
            line = _change_line(before.name, holder.name, computer=holder.user_id is None)
            changes[holder.after_move].append(line)
        last[holder.seat] = holder
    events: defaultdict[int, list[Event]] = defaultdict(list)
    for number, event in replayed:
        events[number].append(event)
    for number in sorted(set(events) | {after + 1 for after in changes}):
        table.recent.extend(changes.get(number - 1, ()))
        if number in events:
            table.remember(events[number], names=table.names_after(number - 1))


def _fill(text: str, table: LiveTable) -> str:
    return fill_names(text, table.names)


def _computer_name(table: LiveTable, taken: AbstractSet[str] = frozenset()) -> str:
    """A computer's name not used at the table yet (nor in ``taken``)."""
    used = {s.name for s in table.seats.values()} | taken
    return next((f"🤖 {n}" for n in COMPUTER_NAMES if f"🤖 {n}" not in used), "🤖")
