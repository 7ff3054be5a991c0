"""Computer decisions off the event loop: a pool of worker processes, a time budget, a fallback.

A decision is CPU-bound (the hard level searches for up to ~250 ms), so it runs in a separate
process: the event loop keeps answering clicks and the GIL is not shared with the search. What
crosses the process boundary is the pickled clone of the table's game, the seat, the seed text of
the decision's random source and the level; the worker calls :func:`games.levels.choose_move`,
which hands the player only the seat's :class:`games.players.Seen`, never the game object. The
pickled game was measured cheaper than a transcript to replay (0.1-0.6 ms against 0.3-1.1 ms at
40 moves, and a replay grows with the whole game's moves), and unpickling imports the game's
module, so a game registered by an import (a test game) needs nothing else.

A decision is deterministic for its seed: the worker seeds ``random.Random(seed)`` itself, exactly
as the in-process path does. The budget counts thinking only: a decision waits for a free worker
(at most one decision per worker is handed to the pool) and for a new worker to start before its
clock runs. A decision that overruns the budget raises :class:`TimeoutError` and its pool is
replaced (the hung process is killed); a crashed worker breaks the pool, which is replaced too,
and a decision that was only caught in the breakage is tried once more on the new pool. The
caller falls back to the first legal move.

Only searching levels go to the pool. The quick levels (:data:`QUICK_LEVELS`: easy and normal,
rules of thumb that decide in about 0.1 ms, less than a round trip to a worker) run in the
default thread executor: off the event loop all the same, and never queued behind another
table's search (measured in bench/load.py: with every decision in one pool, a hundred normal
tables waited on a few hard ones).

With ``processes=0`` every decision runs in the default thread executor (the tests' setting:
it starts nothing, and lets a test stand in for ``choose_move``).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from bot import worker_pools
from games.levels import choose_move
from games.players import Player, Seen

if TYPE_CHECKING:
    from games.base import Game, Move

log = logging.getLogger(__name__)

Chooser = Callable[["Game", int, random.Random, str], "Move"]

QUICK_LEVELS = frozenset({"easy", "normal"})  # decided in a thread: see the module's docstring
START_SECONDS = 60.0  # the longest a decision waits for a new worker process to start
# Workers think at a lower priority than the bot: on a busy machine the bot's answers to clicks
# come first and a search takes what CPU is left (measured in bench/load.py).
WORKER_NICENESS = 10

# Levels registered at run time by an imported module, beside those of games.players: for tests
# and benches (a slow or hanging level). A worker process sees them when its module is in
# ``imports``. Like every player, such a level is handed the seat's Seen, never the game.
EXTRA_LEVELS: dict[str, Player] = {}


def register_level(name: str, player: Player) -> None:
    """Make ``name`` a level (in this process) that ``player`` plays."""
    EXTRA_LEVELS[name] = player


def decide(game: Game, seat: int, seed: str, level: str, choose: Chooser = choose_move) -> Move:
    """The move at ``level`` for ``seat``, its random source seeded from ``seed`` (any process)."""
    rng = random.Random(seed)
    extra = EXTRA_LEVELS.get(level)
    if extra is not None:
        return extra(Seen(seat, game.view(seat), tuple(game.legal_moves(seat))), rng)
    return choose(game, seat, rng, level)


def _prepare(imports: Sequence[str]) -> None:
    """A new worker's start: lower its priority, import the games (and any modules asked for)
    once, up front, and end with the bot (a killed bot leaves no idle worker behind)."""
    worker_pools.start_worker(WORKER_NICENESS)
    from games.registry import all_games
    from games.search import dds

    all_games()
    dds.load()  # the hard level's double-dummy solver: imported here, not inside a decision
    importlib.import_module("games.search.hard")  # the hard level's search, likewise
    for name in imports:
        importlib.import_module(name)


def _ready() -> int:
    return os.getpid()


class Thinker:
    """Runs computer decisions within a budget: in a process pool, or threads when
    ``processes`` is 0. The pool starts on first use (or :meth:`warm`) and is replaced when a
    worker hangs or dies."""

    def __init__(
        self, processes: int, imports: Sequence[str] = (), quick: frozenset[str] = QUICK_LEVELS
    ) -> None:
        self.processes = processes
        self.quick = quick
        self.imports = tuple(imports)
        self._pool: ProcessPoolExecutor | None = None
        self._started: Future[int] | None = None
        self._slots: asyncio.Semaphore | None = None  # one per worker, made in the running loop
        self._closed = False
        self.replaced = 0  # pools replaced after a hang or a crash (for tests and logs)
        self.decided = 0  # decisions a worker process returned

    @property
    def in_processes(self) -> bool:
        return self.processes > 0

    def _current(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pools.spawn_pool(self.processes, _prepare, self.imports)
            self._started = self._pool.submit(_ready)  # done once a worker is up
        return self._pool

    def warm(self) -> None:
        """Start the worker processes now (at start-up, and after a replacement), so that a
        decision does not wait for them to spawn and import the games."""
        if self.in_processes and not self._closed:
            pool = self._current()
            for _ in range(self.processes - 1):
                pool.submit(_ready)

    async def _worker_up(self) -> None:
        """Wait (at most :data:`START_SECONDS`) until the pool has a worker: spawning one is
        not thinking, and must not eat a decision's budget."""
        started = self._started
        if started is not None and not started.done():
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(started)), START_SECONDS)

    async def choose(
        self,
        game: Game,
        seat: int,
        seed: str,
        level: str,
        budget: float,
        choose: Chooser = choose_move,
    ) -> Move:
        """The decision, or :class:`TimeoutError` after ``budget`` seconds (any other failure
        of the player is raised as is). ``game`` must be a snapshot nobody else changes."""
        loop = asyncio.get_running_loop()
        if not self.in_processes or level in self.quick:
            return await asyncio.wait_for(
                loop.run_in_executor(None, decide, game, seat, seed, level, choose), budget
            )
        if self._closed:
            raise RuntimeError("the thinker is closed")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.processes)
        async with self._slots:  # a free worker: waiting in line is not thinking either
            for attempt in (1, 2):
                pool = self._current()
                await self._worker_up()
                if attempt == 1:
                    deadline = time.monotonic() + budget
                future = asyncio.wrap_future(pool.submit(decide, game, seat, seed, level))
                try:
                    move = await asyncio.wait_for(future, max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    self._replace(pool, "a decision ran out of time")
                    raise
                except BrokenProcessPool:
                    caught = self._pool is not pool  # another decision's hang replaced it
                    self._replace(pool, "a worker process died")
                    if attempt == 2 or deadline <= time.monotonic() or not caught:
                        raise
                else:
                    self.decided += 1
                    return move
        raise AssertionError("unreachable")

    def _replace(self, pool: ProcessPoolExecutor, why: str) -> None:
        """Kill ``pool``'s workers and let the next decision start a new pool."""
        if self._pool is not pool:
            return  # already replaced
        self._pool = None
        self.replaced += 1
        log.warning("computer players: %s; its worker process is replaced", why)
        worker_pools.kill(pool)
        if not self._closed:
            self.warm()

    async def close(self) -> None:
        """Stop the worker processes (a decision under way is abandoned: nothing waits on it
        once the session manager is shut down)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await worker_pools.stop(pool)
