"""The session manager: live tables, the one path every move takes, computers and timers.

A move (a human's click or a computer's choice) goes through :meth:`SessionManager.submit`: take
the table's lock, check the move number (a stale or double click is refused), map the user to a
seat, check and apply the move on a clone, append it to the moves log in one transaction, and
only after the commit swap the clone in. In-memory state is a cache: :meth:`restore` rebuilds
every open table from its stored deals and moves through the checked rules.

The manager knows nothing of Discord: it tells a :class:`Presenter` what changed.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Protocol

from bot.config import Settings
from bot.store import SeatRow, Store, TableRow
from games.base import Deal, Event, Game, IllegalMove, Move, OptionError, fill_names
from games.cards import display
from games.registry import all_games, get_game

log = logging.getLogger(__name__)

COMPUTER_NAMES = ("Ada", "Babbage", "Turing", "Hopper", "Lovelace", "Knuth")
COMPUTER_BUDGET_SECONDS = 2.0
ABANDON_SECONDS = 600.0
RECENT_EVENTS = 8


class UserError(Exception):
    """A refusal to show the user as is: short, and free of hidden information."""


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


class SessionManager:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[int, LiveTable] = {}
        self.presenter: Presenter | None = None
        self.computer_budget = COMPUTER_BUDGET_SECONDS
        self.abandon_seconds = ABANDON_SECONDS
        self._closing = False

    # --- start-up and shutdown ---
    async def restore(self) -> None:
        """Rebuild every open table from the database (called once at start-up)."""
        for row in await self.store.open_tables():
            try:
                table = LiveTable(row, {s.seat: s for s in await self.store.seats(row.id)})
                if row.status == "playing":
                    await self._rebuild_game(table)
                self.tables[row.id] = table
            except Exception:
                log.exception("table %s could not be restored; it is left as stored", row.id)
        log.info("restored %d open tables", len(self.tables))

    async def _rebuild_game(self, table: LiveTable) -> None:
        row = table.row
        deals = [Deal.from_json(deal) for deal in await self.store.deals(row.id)]
        game = table.game_class.new(
            row.options, seed=row.seed, deals=deals, first_dealer=row.first_dealer
        )
        moves = await self.store.moves(row.id)
        for stored in moves:
            game.apply(stored.seat, Move.from_json(stored.move))
        table.game = game
        table.moves = len(moves)

    async def resume_after_connect(self) -> None:
        """After (re)connecting: refresh every table message, resume timers and computers."""
        for table in list(self.tables.values()):
            self._notify(table, ())
            if table.row.status == "playing":
                self._schedule(table)

    async def shutdown(self) -> None:
        self._closing = True
        for table in self.tables.values():
            for task in (table.timer, table.worker):
                if task is not None and not task.done():
                    task.cancel()

    def _notify(self, table: LiveTable, events: Sequence[Event]) -> None:
        if self.presenter is not None:
            self.presenter.table_changed(table, events)

    # --- lookups ---
    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise UserError("That table is closed.")
        return table

    def tables_in_channel(self, channel_id: int) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.row.channel_id == channel_id]

    def table_of_user(self, guild_id: int, user_id: int) -> LiveTable | None:
        for table in self.tables.values():
            if table.row.guild_id == guild_id and table.seat_of(user_id) is not None:
                return table
        return None

    async def _refresh_row(self, table: LiveTable) -> None:
        row = await self.store.get_table(table.id)
        assert row is not None
        table.row = row
        table.seats = {s.seat: s for s in await self.store.seats(table.id)}

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
        self._check_free(guild_id, host_id)
        row = await self.store.create_table(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game=game,
            options=options,
            seed=random.SystemRandom().randrange(2**62),
            seats=[(host_id, host_name)],
        )
        table = LiveTable(row, {s.seat: s for s in await self.store.seats(row.id)})
        self.tables[row.id] = table
        return table

    def _check_free(self, guild_id: int, user_id: int, table_id: int | None = None) -> None:
        other = self.table_of_user(guild_id, user_id)
        if other is not None and other.id != table_id:
            raise UserError(
                f"You are already seated at table #{other.id} in this server; leave it first."
            )
        if other is not None:
            raise UserError("You are already seated at this table.")

    def _lobby(self, table_id: int) -> LiveTable:
        table = self.get(table_id)
        if table.row.status != "lobby":
            raise UserError("This game has already started.")
        return table

    async def join(self, table_id: int, user_id: int, name: str, seat: int | None = None) -> None:
        table = self._lobby(table_id)
        async with table.lock:
            self._check_free(table.row.guild_id, user_id, table.id)
            seat = self._pick_seat(table, seat)
            await self.store.sit(table.id, seat, user_id, name)
            await self._refresh_row(table)
        self._notify(table, ())

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
        table = self._lobby(table_id)
        async with table.lock:
            current = table.seat_of(user_id)
            if current is None:
                raise UserError("Join the table first.")
            target = self._pick_seat(table, seat)
            name = table.seats[current].name
            await self.store.stand(table.id, current)
            await self.store.sit(table.id, target, user_id, name)
            await self._refresh_row(table)
        self._notify(table, ())

    async def add_computer(self, table_id: int, user_id: int, seat: int | None = None) -> None:
        table = self._lobby(table_id)
        async with table.lock:
            if table.seat_of(user_id) is None and user_id != table.row.host_id:
                raise UserError("Only players at this table can add computer players.")
            seat = self._pick_seat(table, seat)
            used = {s.name for s in table.seats.values()}
            name = next((f"🤖 {n}" for n in COMPUTER_NAMES if f"🤖 {n}" not in used), "🤖")
            await self.store.sit(table.id, seat, None, name)
            await self._refresh_row(table)
        self._notify(table, ())

    async def leave(self, table_id: int, user_id: int) -> str:
        """Leave a lobby, or hand one's seat in a running game to a computer player."""
        table = self.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            if table.row.status == "lobby":
                await self.store.stand(table.id, seat)
                await self._refresh_row(table)
                message = "You left the table."
            else:
                await self.store.set_away(table.id, seat, True)
                await self._refresh_row(table)
                message = "A computer player takes your seat; press “I'm back” to return."
        self._notify(table, ())
        if table.row.status == "playing":
            self._schedule(table)
        return message

    async def remove(self, table_id: int, actor_id: int, seat: int, is_admin: bool) -> None:
        table = self._lobby(table_id)
        async with table.lock:
            if actor_id != table.row.host_id and not is_admin:
                raise UserError("Only the host or a server manager can remove a player.")
            if seat not in table.seats:
                raise UserError("That seat is empty.")
            await self.store.stand(table.id, seat)
            await self._refresh_row(table)
        self._notify(table, ())

    async def start(self, table_id: int, user_id: int) -> None:
        table = self._lobby(table_id)
        async with table.lock:
            if user_id != table.row.host_id:
                raise UserError("Only the host can start the game.")
            if table.free_seats():
                raise UserError("Fill every seat first (friends or computer players).")
            if not table.humans():
                raise UserError("At least one person must sit at the table.")
            game = table.game_class.new(table.row.options, seed=table.row.seed)
            await self.store.start_game(
                table.id, game.first_dealer, [deal.to_json() for deal in game.deals]
            )
            await self._refresh_row(table)
            table.game = game
            table.moves = 0
            table.recent.append(f"The game begins: {table.game_class.title}.")
        self._notify(table, ())
        self._schedule(table)

    async def cancel(self, table_id: int, actor_id: int, is_admin: bool) -> None:
        """Cancel a lobby, or abandon a running game (recorded as abandoned)."""
        table = self.get(table_id)
        async with table.lock:
            if actor_id != table.row.host_id and not is_admin:
                raise UserError("Only the host or a server manager can close this table.")
            await self._close(table, "cancelled" if table.row.status == "lobby" else "abandoned")

    async def _close(self, table: LiveTable, status: str) -> None:
        if status == "abandoned":
            score = list(table.game.summary().get("score") or []) if table.game else []
            await self.store.record_result(
                table.row,
                status,
                {"winners": [], "score": score, "abandoned": True},
                [(s.user_id, s.seat, False) for s in table.humans() if s.user_id is not None],
            )
        else:
            await self.store.set_status(table.id, status)
        await self._refresh_row(table)
        self.tables.pop(table.id, None)
        for task in (table.timer, table.worker):
            if task is not None and task is not asyncio.current_task() and not task.done():
                task.cancel()
        if self.presenter is not None:
            self.presenter.table_closed(table)

    async def set_message(self, table: LiveTable, message_id: int) -> None:
        await self.store.set_table_message(table.id, message_id)
        await self._refresh_row(table)

    # --- moves ---
    async def submit(self, table_id: int, user_id: int, seq: int, move: Move) -> list[Event]:
        """A human's move: refused with a :class:`UserError`, or committed and returned."""
        table = self.get(table_id)
        async with table.lock:
            if table.row.status != "playing" or table.game is None:
                raise UserError("This game is not being played.")
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if seq != table.moves:
                raise UserError("That button is out of date; here is your hand as it is now.")
            try:
                table.game.check(seat, move)
            except IllegalMove as error:
                raise UserError(_fill(str(error), table)) from None
            if table.seats[seat].away:
                await self.store.set_away(table.id, seat, False)
                await self._refresh_row(table)
            events = await self._commit(table, seat, move, user_id)
        self._after_move(table, events)
        return events

    async def _commit(
        self, table: LiveTable, seat: int, move: Move, user_id: int | None
    ) -> list[Event]:
        """Apply on a clone, store the move (and any new deal), then swap the clone in."""
        assert table.game is not None
        hidden_before = table.game.hidden_cards(None)
        game = table.game.clone()
        events = game.apply(seat, move)
        new_deals = [
            (i, game.deals[i].to_json()) for i in range(len(table.game.deals), len(game.deals))
        ]
        finished = game.status == "finished"
        await self.store.append_move(
            table.id,
            table.moves,
            seat,
            move.to_json(),
            user_id,
            new_deals,
            status=None,
            deadline=None,
        )
        table.game = game
        table.moves += 1
        table.row = replace(table.row, turn_deadline=None)
        played = {move.get("card")} | set(move.get("cards") or ())
        table.remember(events, (hidden_before & game.hidden_cards(None)) - played)
        if finished:
            outcome = game.outcome()
            assert outcome is not None
            winners = set(outcome.winners)
            await self.store.record_result(
                table.row,
                "finished",
                {
                    "winners": list(outcome.winners),
                    "score": list(outcome.score),
                    "abandoned": False,
                },
                [
                    (s.user_id, s.seat, s.seat in winners)
                    for s in table.humans()
                    if s.user_id is not None
                ],
            )
            await self._refresh_row(table)
        return events

    def _after_move(self, table: LiveTable, events: Sequence[Event]) -> None:
        if self._announce(table, events):
            self._schedule(table)

    def _announce(self, table: LiveTable, events: Sequence[Event]) -> bool:
        """Tell the presenter about a committed move; False (and the table let go) if it ended."""
        self._notify(table, events)
        if table.row.status == "playing":
            return True
        self.tables.pop(table.id, None)
        if self.presenter is not None:
            self.presenter.table_closed(table)
        return False

    async def come_back(self, table_id: int, user_id: int) -> None:
        table = self.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if not table.seats[seat].away:
                raise UserError("You are already in your seat.")
            await self.store.set_away(table.id, seat, False)
            await self._refresh_row(table)
        self._notify(table, ())
        self._schedule(table)

    # --- computers and timers ---
    def _schedule(self, table: LiveTable) -> None:
        """Start the table's worker unless it runs: it plays computer turns and keeps timers."""
        if self._closing or table.row.status != "playing":
            return
        table.wake = True
        if table.worker is None or table.worker.done():
            table.worker = asyncio.get_running_loop().create_task(self._work(table))

    async def _work(self, table: LiveTable) -> None:
        try:
            while table.wake:
                table.wake = False
                while not self._closing and table.row.status == "playing" and table.game:
                    if not await self._computer_step(table):
                        break
                await self._arm_timer(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the computer player failed; the game is unchanged", table.id)

    async def _computer_step(self, table: LiveTable) -> bool:
        """Play one computer move if a computer is to act; False when none is."""
        assert table.game is not None
        seats = [s for s in table.waiting_for() if table.played_by_computer(s)]
        if not seats:
            return False
        seat, seq, snapshot = seats[0], table.moves, table.game.clone()
        rng = random.Random(f"{table.row.seed}:{seq}")
        loop = asyncio.get_running_loop()
        try:
            move = await asyncio.wait_for(
                loop.run_in_executor(None, snapshot.choose_move, seat, rng),
                timeout=self.computer_budget,
            )
        except TimeoutError:
            log.warning("table %s: computer seat %s ran out of time", table.id, seat)
            move = snapshot.legal_moves(seat)[0]
        async with table.lock:
            if table.moves != seq or table.row.status != "playing":
                return True  # someone moved meanwhile: look again
            events = await self._commit(table, seat, move, None)
        if not self._announce(table, events):
            return False
        await asyncio.sleep(0)
        return True

    async def _arm_timer(self, table: LiveTable) -> None:
        """Set (and store) the deadline of the humans to act, and wait for it in a task."""
        if table.row.status != "playing" or table.game is None:
            return
        humans_present = any(not s.away for s in table.humans())
        waiting = [s for s in table.waiting_for() if not table.seats[s].computer]
        if not waiting:
            deadline = None
        elif table.row.turn_deadline is not None:  # this turn's deadline survives restarts
            deadline = table.row.turn_deadline
        elif not humans_present:
            deadline = time.time() + self.abandon_seconds
        else:
            seconds = (
                await self.store.guild_settings(table.row.guild_id, self.settings.turn_seconds)
            ).turn_seconds
            deadline = time.time() + seconds
        if deadline != table.row.turn_deadline:
            await self.store.set_deadline(table.id, deadline)
            await self._refresh_row(table)
            self._notify(table, ())
        if table.timer is not None and not table.timer.done():
            table.timer.cancel()
        if deadline is not None:
            table.timer = asyncio.get_running_loop().create_task(
                self._expire(table, table.moves, deadline)
            )

    async def _expire(self, table: LiveTable, seq: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        async with table.lock:
            if table.moves != seq or table.row.status != "playing":
                return
            if not any(not s.away for s in table.humans()):
                await self._close(table, "abandoned")
                return
            for seat in table.waiting_for():
                if not table.seats[seat].computer and not table.seats[seat].away:
                    await self.store.set_away(table.id, seat, True)
                    table.recent.append(
                        f"{table.seats[seat].name} ran out of time; a computer plays for them."
                    )
            await self.store.set_deadline(table.id, None)
            await self._refresh_row(table)
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
        since = time.time() - self.announce_window_seconds
        for row, through in await self.store.unannounced_tables(since):
            try:
                table = self.tables.get(row.id) or LiveTable(
                    row, {s.seat: s for s in await self.store.seats(row.id)}
                )
                events: list[tuple[int, Event]] = []
                if row.status in ("playing", "finished", "abandoned"):
                    deals = [Deal.from_json(deal) for deal in await self.store.deals(row.id)]
                    game = table.game_class.new(
                        row.options, seed=row.seed, deals=deals, first_dealer=row.first_dealer
                    )
                    moves = await self.store.moves(row.id)
                    for number, stored in enumerate(moves, start=1):
                        applied = game.apply(stored.seat, Move.from_json(stored.move))
                        if number > through:
                            events.extend((number, event) for event in applied)
                    if row.id not in self.tables:
                        table.game, table.moves = game, len(moves)
                out.append((table, events))
            except Exception:
                log.exception("table %s: could not be re-announced", row.id)
        return out


def _fill(text: str, table: LiveTable) -> str:
    return fill_names(text, table.names)
