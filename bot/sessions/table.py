"""The live table: one table's cached state (its stored row, seats and game) and its log."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict, deque
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

from bot.i18n import N_
from bot.store import Call, SeatHolder, SeatRow, TableRow
from games.base import Event, Game, fill_names
from games.cards import display
from games.registry import get_game
from games.views import TableView

log = logging.getLogger(__name__)


COMPUTER_NAMES = ("Ada", "Babbage", "Turing", "Hopper", "Lovelace", "Knuth")


RECENT_EVENTS = 8


# An away human's stand-in plays at this level whatever the table's: the table's level is the
# challenge its computer seats set, and a stand-in at easy would throw away the absent player's
# (and partner's) game while one at hard would make going away pay.
STAND_IN_LEVEL = "normal"


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
    # A tournament's table: an away person's seat is played by a computer even when nobody
    # else is there (a round's game is finished, never abandoned).
    tournament: bool = False
    # The game's views as last computed (seat → view, None: the public's) and the game state
    # they belong to (see :meth:`view`).
    _views: dict[int | None, TableView] = field(default_factory=dict, repr=False, compare=False)
    _views_of: tuple[Game | None, int, int, str] = field(
        default=(None, 0, 0, ""), repr=False, compare=False
    )

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

    def view(self, seat: int | None) -> TableView:
        """``game.view(seat)`` (``None``: the public's), computed once per game state: a move's
        table edit, its picture and each open hand read the same views several times, and a
        view costs about 0.1 ms. The state is the game object and how far it is (its deals,
        the current deal's moves, its status): a game changes only through ``apply`` and
        ``add_deal``, which log every move (and start the log again at a new deal)."""
        game = self.game
        assert game is not None
        state = (game, len(game.deals), len(game.public_log), str(game.status))
        known = self._views_of
        if known[0] is not game or known[1:] != state[1:]:
            self._views.clear()
            self._views_of = state
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = game.view(seat)
        return view

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
        return row.away and (self.tournament or any(not human.away for human in self.humans()))

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
        return not self.options_mark(seat) <= seq <= self.moves

    def options_mark(self, seat: int) -> int:
        """The move number since which ``seat``'s options stand (it moved, or its legal moves
        changed, then). A hand's controls carry it: they stay good until that seat's options
        change, so a hand need not be redrawn for others' moves that change nothing for it."""
        return self.fresh_from.get(seat, self.moves)

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits on (a game may offer optional moves to others)."""
        if self.game is None or self.game.status != "in_progress":
            return ()
        return self.game.waiting_for()

    def computers_to_act(self) -> bool:
        """Only computers are to act, and the table's worker is playing for them: the table
        changes again in a moment without anyone's click."""
        waiting = self.waiting_for()
        return (
            bool(waiting)
            and self.row.status == "playing"
            and self.worker is not None
            and not self.worker.done()
            and all(self.played_by_computer(seat) for seat in waiting)
        )

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


def seat_list(seats: Sequence[int]) -> str:
    """``seat 2`` or ``seats 1 and 3``."""
    numbers = [str(seat + 1) for seat in seats]
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


def change_line(old: str, new: str, *, computer: bool) -> Line:
    """The log's line for a seat changing hands mid-game."""
    if computer:
        return Line(N_("{s0} left; {s1} plays their seat."), (old, new))
    return Line(N_("{s0} sits in for {s1}."), (new, old))


def retell(table: LiveTable, replayed: Sequence[tuple[int, Event]]) -> None:
    """After a restart, the recent log as it was: each move's events told with the names of who
    held the seats then, and the seats changing hands between the moves."""
    changes: defaultdict[int, list[Line]] = defaultdict(list)
    last: dict[int, SeatHolder] = {}
    for holder in table.holders:
        before = last.get(holder.seat)
        if before is not None:
            line = change_line(before.name, holder.name, computer=holder.user_id is None)
            changes[holder.after_move].append(line)
        last[holder.seat] = holder
    events: defaultdict[int, list[Event]] = defaultdict(list)
    for number, event in replayed:
        events[number].append(event)
    for number in sorted(set(events) | {after + 1 for after in changes}):
        table.recent.extend(changes.get(number - 1, ()))
        if number in events:
            table.remember(events[number], names=table.names_after(number - 1))


def computer_name(table: LiveTable, taken: AbstractSet[str] = frozenset()) -> str:
    """A computer's name not used at the table yet (nor in ``taken``)."""
    used = {s.name for s in table.seats.values()} | taken
    return next((f"🤖 {n}" for n in COMPUTER_NAMES if f"🤖 {n}" not in used), "🤖")
