"""The state every part of the session manager shares: live tables, the store, the clock."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

from bot.clock import Clock, SystemClock
from bot.config import Settings
from bot.i18n import N_
from bot.sessions.errors import UserError
from bot.sessions.table import LiveTable, Presenter
from bot.store import StoreInterface, TableRow
from bot.thinking import Thinker
from games.base import Event

_T = TypeVar("_T")
COMPUTER_BUDGET_SECONDS = 2.0
FALLBACK_LEVEL = "normal"  # plays for a computer whose level failed or ran out of time
ABANDON_SECONDS = 600.0
LOBBY_IDLE_SECONDS = 1800.0
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
MAX_TABLE_CHANNELS = 25
LADDER_PAGE = 10  # players on a page of the leaderboard
CHANNEL_DELETED_NOTE = N_("This table's channel was deleted, so the table was closed.")
CHANNEL_DELETED_REASON = N_("its channel was deleted")  # kept in the results, in English
RESIGNED_TEXT = N_(
    "You were the last person at the table: the game counts as a loss for your side."
)
RESIGNED_ALONE_TEXT = N_(
    "You were the only person at the table: the game counts as a loss for your side."
)
NOT_ABANDONED_ALONE = N_(
    "A rated game under way is not abandoned by one player: /table leave hands your seat to a"
    " computer, and the game still counts for your rating."
)


def fresh_seed() -> int:
    """A new table's deal seed: unpredictable, so nobody can know the cards in advance."""
    return random.SystemRandom().randrange(2**62)


def retry_delay(failures: int) -> float:
    return RETRY_SECONDS[min(failures, len(RETRY_SECONDS)) - 1]


class SessionState:
    """The state every part of the session manager shares: live tables, the store, the clock."""

    def __init__(
        self, store: StoreInterface, settings: Settings, clock: Clock | None = None
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.tables: dict[int, LiveTable] = {}
        self.presenter: Presenter | None = None
        # Told of every table let go (a tournament's runner reads its result); return at once.
        self.closed_listeners: list[Callable[[LiveTable], None]] = []
        self.computer_budget = COMPUTER_BUDGET_SECONDS
        self.abandon_seconds = ABANDON_SECONDS
        self.lobby_idle_seconds = LOBBY_IDLE_SECONDS
        # Where new tables' deal seeds come from; a test sets a fixed one to replay a deal.
        self.new_seed: Callable[[], int] = fresh_seed
        self._guild_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.server_languages: dict[int, str] = {}  # guild → its language, as last read
        self._closing = False
        self._writes: set[asyncio.Task[Any]] = set()  # shielded timer writes under way
        self.thinker = Thinker(settings.computer_processes)

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

    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise UserError(N_("That table is closed."))
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

    def _open(self, table: LiveTable) -> None:
        """Inside the lock: the table is still open (it may have closed while we waited)."""
        if self.tables.get(table.id) is not table:
            raise UserError(N_("That table is closed."))

    def _in_lobby(self, table: LiveTable) -> None:
        self._open(table)
        if table.row.status != "lobby":
            raise UserError(N_("This game has already started."))

    def _lobby_changed(self, table: LiveTable, row: TableRow) -> None:
        table.row = row
        table.touched = self.clock.now()

    def _let_go(self, table: LiveTable) -> None:
        self.tables.pop(table.id, None)
        current = asyncio.current_task()
        for task in (table.timer, table.worker, table.idle):
            if task is not None and task is not current and not task.done():
                task.cancel()
        if self.presenter is not None:
            self.presenter.table_closed(table)
        for listener in self.closed_listeners:
            listener(table)

    @staticmethod
    def _seat_of_user(table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(user_id)
        assert seat is not None
        return seat

    async def _rebuild_game(self, table: LiveTable, after: int = -1) -> list[tuple[int, Event]]:
        """Replay the table's stored moves through the rules: the restore part's work."""
        raise NotImplementedError

    def _schedule(self, table: LiveTable, moved: bool = False) -> None:
        """Wake the table's computer and timer after a change (``moved``: a stored move): the
        turns part's work."""
