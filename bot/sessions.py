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
import logging
import random
from collections import defaultdict, deque
from collections.abc import Coroutine, Iterator, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol, TypeVar

from bot.clock import Clock, SystemClock
from bot.config import Settings
from bot.player_stats import PlayerStats
from bot.player_stats import gather as gather_stats
from bot.ratings import LadderPage, month_of
from bot.store import (
    GuildSettings,
    LeaderboardRow,
    Result,
    SeatRow,
    Store,
    StoreUnavailable,
    TableRow,
)
from games.base import Deal, Event, Game, IllegalMove, Move, OptionError, fill_names
from games.cards import display
from games.players import AVAILABLE_LEVELS, choose_move
from games.registry import all_games, get_game

log = logging.getLogger(__name__)
_T = TypeVar("_T")

COMPUTER_NAMES = ("Ada", "Babbage", "Turing", "Hopper", "Lovelace", "Knuth")
COMPUTER_BUDGET_SECONDS = 2.0
ABANDON_SECONDS = 600.0
LOBBY_IDLE_SECONDS = 1800.0
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
RECENT_EVENTS = 8
LADDER_PAGE = 10  # players on a page of the leaderboard
PAUSED_TEXT = "The table is paused: your move was not saved. Try again in a moment."
# An away human's stand-in plays at this level whatever the table's: the table's level is the
# challenge its computer seats set, and a stand-in at easy would throw away the absent player's
# (and partner's) game while one at hard would make going away pay.
STAND_IN_LEVEL = "normal"

__all__ = [
    "PAUSED_TEXT",
    "GuildSettings",
    "LeaderboardRow",
    "LiveTable",
    "Presenter",
    "SessionManager",
    "TablePaused",
    "UserError",
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
    # Per seat, the move number from which that seat's situation (its legal moves) is unchanged:
    # a click numbered at or after it is fresh, also when other seats moved meanwhile.
    fresh_from: dict[int, int] = field(default_factory=dict)
    legal: dict[int, tuple[str, ...]] = field(default_factory=dict)

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

    def remember(self, events: Sequence[Event], secret: AbstractSet[str] = frozenset()) -> None:
        """Keep recent event texts: public ones for the table, private ones per seat.

        ``secret`` are cards that stayed hidden from onlookers through the move: a public event
        naming one is an engine bug, logged and not shown.
        """
        for event in events:
            if event.to is None:
                if any(display(card) in event.text for card in secret):
                    log.error(
                        "table %s: a public %s event named a hidden card; not shown",
                        self.id,
                        event.kind,
                    )
                    continue
                self.recent.append(event.text)
            else:
                for seat in event.to:
                    self.private.setdefault(seat, deque(maxlen=RECENT_EVENTS)).append(event.text)


def parse_options(text: str | None) -> dict[str, Any]:
    """``"players=6 last_trick=bonus"`` as option values: true/false, whole numbers, words."""
    options: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        name, sep, raw = part.partition("=")
        if not sep or not name or not raw:
            raise UserError(f"Options are written name=value, not {part!r}.")
        value: Any = raw
        if raw.lower() in ("true", "yes", "on"):
            value = True
        elif raw.lower() in ("false", "no", "off"):
            value = False
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        options[name.strip().lower()] = value
    return options


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

    # --- start-up and shutdown ---
    async def restore(self) -> None:
        """Rebuild every open table from the database (called once at start-up)."""
        for row in await self.store.open_tables():
            try:
                table = LiveTable(row, {s.seat: s for s in await self.store.seats(row.id)})
                table.touched = row.updated_at
                if row.status == "playing":
                    await self._rebuild_game(table)
                    if table.game is not None and table.game.status == "finished":
                        # Stored by an older bot, whose last move and result were two
                        # transactions: the result is kept now, and the table let go.
                        result = self._result_of(table, table.game)
                        await self.store.record_result(
                            row, result.status, result.outcome, result.players
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
        for number, stored in enumerate(moves, start=1):
            applied = game.apply(stored.seat, Move.from_json(stored.move))
            if after >= 0 and number > after:
                events.extend((number, event) for event in applied)
        table.game = game
        table.moves = len(moves)
        table.note_situation()
        return events

    async def resume_after_connect(self) -> None:
        """After (re)connecting: refresh every table message, resume timers and computers."""
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

    def table_of_user(self, guild_id: int, user_id: int) -> LiveTable | None:
        for table in self.tables.values():
            if table.row.guild_id == guild_id and table.seat_of(user_id) is not None:
                return table
        return None

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
        self, guild_id: int, turn_seconds: int | None = None, use_threads: bool | None = None
    ) -> GuildSettings:
        """Change a server's settings; a turn timer outside 10..3600 seconds is refused."""
        if turn_seconds is not None and not 10 <= turn_seconds <= 3600:
            raise UserError("The turn timer is 10 to 3600 seconds.")
        current = await self.guild_settings(guild_id)
        changed = GuildSettings(
            guild_id,
            current.turn_seconds if turn_seconds is None else turn_seconds,
            current.use_threads if use_threads is None else use_threads,
        )
        with _paused():
            await self.store.save_guild_settings(changed)
        return changed

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
    ) -> LiveTable:
        games = all_games()
        if game not in games:
            raise UserError(
                f"There is no game called {game!r}. Try one of: {', '.join(sorted(games))}."
            )
        try:
            options = games[game].validate_options(parse_options(options_text))
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
        other = self.table_of_user(guild_id, user_id)
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
            seat = self._pick_seat(table, seat)
            used = {s.name for s in table.seats.values()}
            name = next((f"🤖 {n}" for n in COMPUTER_NAMES if f"🤖 {n}" not in used), "🤖")
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

    def _next_host(self, table: LiveTable, leaving: int) -> int | None:
        """The next seated person after ``leaving`` (in seat order), or None if there is none."""
        count = table.seat_count
        for step in range(1, count):
            row = table.seats.get((leaving + step) % count)
            if row is not None and not row.computer:
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
                f"{table.seats[self._seat_of_user(table, new_host)].name} hosts now."
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
                with _paused():
                    row, changed = await self.store.set_away(table.id, [seat], True)
                table.row = row
                table.seats[seat] = changed[0]
                message = "A computer player takes your seat; press “I'm back” to return."
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
            game = table.game_class.new(table.row.options, seed=table.row.seed)
            with _paused():
                table.row = await self.store.start_game(
                    table.id, game.first_dealer, [deal.to_json() for deal in game.deals]
                )
            table.game = game
            table.moves = 0
            table.note_situation()
            table.recent.append(f"The game begins: {table.game_class.title}.")
        if table.idle is not None and not table.idle.done():
            table.idle.cancel()
        self._notify(table, ())
        self._schedule(table)

    async def cancel(self, table_id: int, actor_id: int, is_admin: bool) -> None:
        """Cancel a lobby, or abandon a running game (recorded as abandoned)."""
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            if actor_id != table.row.host_id and not is_admin:
                raise UserError("Only the host or a server manager can close this table.")
            await self._close(table, "cancelled" if table.row.status == "lobby" else "abandoned")

    async def _close(self, table: LiveTable, status: str, note: str | None = None) -> None:
        """Inside the lock: close the table for good (``note`` says why), and let it go."""
        with _paused():
            if status == "abandoned":
                score = list(table.game.summary().get("score") or []) if table.game else []
                table.row = await self.store.record_result(
                    table.row,
                    status,
                    {"winners": [], "score": score, "abandoned": True},
                    [(s.user_id, s.seat, False) for s in table.humans() if s.user_id is not None],
                )
            else:
                table.row = await self.store.set_status(table.id, status)
        table.note = note
        self._let_go(table)

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
        rng = random.Random(f"{table.row.seed}:{seq}")
        level = table.level_of(seat)
        loop = asyncio.get_running_loop()
        try:
            move = await asyncio.wait_for(
                loop.run_in_executor(None, choose_move, snapshot, seat, rng, level),
                timeout=self.computer_budget,
            )
        except TimeoutError:
            log.warning("table %s: computer seat %s ran out of time", table.id, seat)
            move = snapshot.legal_moves(seat)[0]
        except Exception:  # a player's bug must not stop the table: take the first legal move
            log.exception("table %s: computer seat %s failed to choose", table.id, seat)
            move = snapshot.legal_moves(seat)[0]
        async with table.lock:
            if (
                table.moves != seq
                or table.row.status != "playing"
                or self.tables.get(table.id) is not table
            ):
                return True  # someone moved meanwhile: look again
            events = await self._commit(table, seat, move, None)
        if not self._announce(table, events):
            return False
        self._arm(table)
        await asyncio.sleep(0)
        return True

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
                table.recent.append(f"{seat_row.name} ran out of time; a computer plays for them.")
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
                events: list[tuple[int, Event]] = []
                if row.status in ("playing", "finished", "abandoned"):
                    events = await self._rebuild_game(table, after=through)
                if row.status == "finished":  # the re-announced result says if it was rated
                    table.result_note = await self.store.result_note(row.id)
                out.append((live or table, events))
            except Exception:
                log.exception("table %s: could not be re-announced", row.id)
        return out


def _fill(text: str, table: LiveTable) -> str:
    return fill_names(text, table.names)
