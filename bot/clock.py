"""Time for timers: the wall clock in the bot, a hand-driven clock in tests.

Turn timers, lobby expiry and retry backoff all read and wait on a :class:`Clock`, so a test can
move time forward by hand instead of sleeping (a busy machine makes real sleeps flaky).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Unix time in seconds (stored in the database as deadlines)."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Return once ``now() >= when``."""
        ...


class SystemClock:
    """The wall clock."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while (left := when - time.time()) > 0:
            await asyncio.sleep(left)


class ManualClock:
    """A clock that moves only when :meth:`advance` is called; sleepers wake in deadline order."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), future))
        await future

    @property
    def sleepers(self) -> int:
        """How many waits are pending (a test can wait for a timer to be armed)."""
        return sum(1 for _, _, future in self._sleepers if not future.done())

    async def advance(self, seconds: float) -> None:
        """Move time forward, wake every sleeper now due, and let them run."""
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)
