"""Table-message edits paced: one at a time per channel, and a budget per second overall.

Discord lets a bot edit messages in one channel about five times in five seconds, and all of a
bot's requests together about fifty times a second (interaction answers and edits of private
hands are exempt). Table messages are the bot's most frequent request and the only one that can
wait: each edit shows the table's latest state, so an edit that waits for its turn loses
nothing but a moment.

- Per channel, one edit in flight: discord.py waits by itself when a response says a route's
  bucket is empty, but only for requests that come after that response. Edits of several tables
  sent at once all go out and meet 429s (each one counts towards Discord's invalid-request ban).
- Overall, at most :func:`edits_per_second` edits and posts started in any second (result
  posts, turn pings and new lobbies take slots too): a share of this process's request budget
  (bot/request_budget.py, its shards' share of Discord's global limit), leaving the rest of
  the budget for what it counts besides (threads, lobby pings, tournament posts, fetches,
  command syncs; the edits of private hands and answers to clicks are interaction webhooks,
  which Discord does not count). With many tables each board is redrawn a little less often,
  instead of table edits taking the whole budget, which would hold up everything else.
- Overall, at most :func:`edits_in_flight` edits under way at once: each waits its turn in the
  request budget, first come, first served, and the other requests wait behind those already
  there; a bound on them bounds that wait (and edits waiting inside discord.py for a busy
  channel's bucket, up to 5 s, still leave places for the others).

The pace is asked of the process's budget when the bot starts (:meth:`ChannelPacer.follow`, by
cogs/tables.py, whose board edits the tables), and kept on the budget's clock: no second figure
to keep in step with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable

from bot.config import DEFAULT_GLOBAL_RATE_LIMIT
from bot.request_budget import RequestBudget, per_second

# Of the budget's steady pace: table edits and channel posts. One process at Discord's 50 a
# second paces at 40, so 30 of them, and 10 a second for all the rest.
EDITS_SHARE = 0.75
# Edits under way at once, in seconds of the budget's pace: what any other request may find
# ahead of it in the budget's queue (one process: 25 edits, 0.6 s).
IN_FLIGHT_SECONDS = 0.625


def edits_per_second(budget_pace: int) -> int:
    """Table edits and posts started a second, for a budget of ``budget_pace``: at least one."""
    return max(1, math.floor(budget_pace * EDITS_SHARE + 1e-9))


def edits_in_flight(budget_pace: int) -> int:
    """Table edits under way at once, for a budget of ``budget_pace``: at least one."""
    return max(1, math.floor(budget_pace * IN_FLIGHT_SECONDS + 1e-9))


# Before the bot starts: the pace of one process at Discord's own limit.
_ALONE = per_second(DEFAULT_GLOBAL_RATE_LIMIT, None)


class ChannelPacer:
    """One table-message edit in flight per channel, ``in_flight`` in all, and ``per_second``
    started per second."""

    def __init__(
        self,
        per_second: int = edits_per_second(_ALONE),
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        in_flight: int = edits_in_flight(_ALONE),
    ) -> None:
        self.per_second = per_second
        self.in_flight = in_flight
        self.now = now
        self.sleep = sleep
        self._loop: asyncio.AbstractEventLoop | None = None
        self._channels: dict[int, asyncio.Lock] = {}
        self._started: deque[float] = deque()
        self._overall = asyncio.Lock()
        self._flying = asyncio.Semaphore(in_flight)

    def follow(self, budget: RequestBudget) -> None:
        """Pace to a share of ``budget`` (this process's), on its clock."""
        clock = budget.clock

        async def sleep(seconds: float) -> None:
            await clock.sleep_until(clock.now() + seconds)

        self.per_second = edits_per_second(budget.per_second)
        self.in_flight = edits_in_flight(budget.per_second)
        self.now, self.sleep = clock.now, sleep
        self._loop = None  # the next turn starts afresh, at the new pace

    def _on_this_loop(self) -> None:
        """Locks belong to one event loop: a new loop (a restarted bot, a test) starts afresh."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._channels, self._started, self._overall = {}, deque(), asyncio.Lock()
            self._flying = asyncio.Semaphore(self.in_flight)

    @contextlib.asynccontextmanager
    async def turn(self, channel_id: int) -> AsyncIterator[None]:
        """Hold this channel's turn (first come, first served), a place among the edits in
        flight, and a slot of the second."""
        self._on_this_loop()
        async with self._channels.setdefault(channel_id, asyncio.Lock()), self._flying:
            await self.slot()
            yield

    async def slot(self) -> None:
        """Wait for a slot of the second: for the bot's other channel posts (results, lobbies),
        which count towards the same global limit."""
        self._on_this_loop()
        async with self._overall:
            while True:
                now = self.now()
                while self._started and self._started[0] <= now - 1.0:
                    self._started.popleft()
                if len(self._started) < self.per_second:
                    self._started.append(now)
                    return
                await self.sleep(self._started[0] + 1.0 - now)


# One for the whole process: the budget is the process's, not one of its parts'.
PACER = ChannelPacer()
