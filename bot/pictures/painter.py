"""Pictures drawn in a worker process of their own: off the bot's core and out of its GIL.

A table picture costs 2-3 ms of CPU (``python -m bench.table_picture``) and most table edits
draw one. In a thread of the bot's process it shares the GIL with the event loop, so a click
arriving meanwhile waits, and its CPU is the bot's. One worker process draws them instead, at a
lower priority than the bot (a click comes first) but well above the computer players'
searches (those have budgets and fall back; a table edit waits for its picture). What crosses
the process boundary is public only: the public view, the seats' names, the table lines, and
the picture back (its PNG and alt text).

Nothing is lost with a worker: a worker that dies (killed, crashed) breaks its pool, which is
replaced, and the picture is drawn again on the new one; a worker that does not answer within
:data:`DRAW_SECONDS` is killed and replaced, and so is one that fails twice, and the picture is
drawn in a thread. With ``processes=0`` every picture is drawn in a thread of the bot's process
(the tests' setting, with ``COMPUTER_PROCESSES=0``).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import worker_pools
from bot.pictures.table import Picture

log = logging.getLogger(__name__)

Draw = Callable[..., Picture]
# Just below the bot (a click comes first) and well above the computer players' workers
# (bot.thinking.WORKER_NICENESS, 10): a table edit waits for its picture, so on a crowded
# machine the picture must not starve (at 5, bench.load at 200 tables on a machine loaded by
# other jobs redrew the tables about half as often as the bot drawing in its own threads).
PAINTER_NICENESS = 1
DRAW_SECONDS = 10.0  # a picture takes milliseconds: a worker this late is stuck


def _prepare() -> None:
    """A new worker's start: lower its priority, end with the bot, and load what every
    picture uses (the fonts, the palette, the cards at their sizes) before the first one is
    asked for."""
    worker_pools.start_worker(PAINTER_NICENESS)
    warm()


def warm() -> None:
    """Choose the palette and scale every card to the sizes the pictures show it at: scaled
    as they first came up, the cards cost a new worker half a second of its first minute's
    pictures (each card's first picture waiting for it)."""
    from bot.card_art import BACK_NAME
    from bot.pictures import sprites
    from bot.pictures.hand import CARD_H
    from bot.pictures.table import FAN_H, SMALL_H, TRICK_H, palette
    from games.cards import make_deck

    palette()
    for card in (*make_deck(), BACK_NAME):
        for height in (FAN_H, SMALL_H, TRICK_H, CARD_H):
            sprites.card(card, height)
    sprites.back(SMALL_H + 4)  # Tunge's stock


def _ready() -> int:
    return os.getpid()


class Painter:
    """Draws pictures in ``processes`` worker processes (started on first use or by
    :meth:`warm`, replaced when one dies or hangs), or in threads when ``processes`` is 0."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self.replaced = 0  # pools replaced after a death or a hang (for tests and logs)

    def _current(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pools.spawn_pool(self.processes, _prepare)
        return self._pool

    def warm(self) -> None:
        """Start the workers now (at start-up), so the first picture does not wait for them."""
        if self.processes > 0 and not self._closed:
            pool = self._current()
            for _ in range(self.processes):
                pool.submit(_ready)

    async def draw(self, draw: Draw, *args: Any) -> Picture:
        """``draw(*args)``'s picture (``draw`` a module-level function: it is sent by name);
        its own errors are raised as they are."""
        if self.processes > 0 and not self._closed:
            for attempt in (1, 2):
                pool = self._current()
                future = asyncio.wrap_future(pool.submit(draw, *args))
                try:
                    async with asyncio.timeout(DRAW_SECONDS):  # no task made, as wait_for makes
                        return await future
                except TimeoutError:
                    self._replace(pool, "did not answer")
                    break
                except BrokenProcessPool:
                    self._replace(pool, "died")
                    if attempt == 2:
                        break
        return await asyncio.to_thread(draw, *args)

    def _replace(self, pool: ProcessPoolExecutor, why: str) -> None:
        """Kill ``pool``'s workers; the next picture starts a new pool."""
        if self._pool is not pool:
            return  # another picture replaced it already
        self._pool = None
        self.replaced += 1
        log.warning("pictures: a worker process %s; it is replaced", why)
        worker_pools.kill(pool)

    async def close(self) -> None:
        """Stop the workers (a picture under way is abandoned: the bot is stopping)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await worker_pools.stop(pool)
