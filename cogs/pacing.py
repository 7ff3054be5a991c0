"""Table-message edits paced: one at a time per channel, and a budget per second overall.

Discord lets a bot edit messages in one channel about five times in five seconds, and all of a
bot's requests together about fifty times a second (interaction answers and edits of private
hands are exempt). Table messages are the bot's most frequent request and the only one that can
wait: each edit shows the table's latest state, so an edit that waits for its turn loses
nothing but a moment.

- Per channel, one edit in flight: discord.py waits by itself when a response says a route's
  bucket is empty, but only for requests that come after that response. Edits of several tables
  sent at once all go out and meet 429s (each one counts towards Discord's invalid-request ban).
- Overall, at most :data:`EDITS_PER_SECOND` edits and posts started in any second (result posts
  and new lobbies take slots too), leaving room in the global limit for the rest. With many
  tables each board is redrawn a little less often, instead of the bot meeting the global limit,
  which would hold up everything.
- Overall, at most :data:`EDITS_IN_FLIGHT` edits under way at once: edits started a second apart
  can still reach Discord together (a stalled event loop, a busy network, discord.py holding a
  route), and a burst of fifty would meet the global limit (seen in bench/load.py on a busy
  machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable

EDITS_PER_SECOND = 30  # of Discord's 50 requests a second for the whole bot
# Half the global limit: a burst of them all leaves room for the rest; and enough that edits
# waiting inside discord.py for a busy channel's bucket (up to 5 s) do not hold up the others.
EDITS_IN_FLIGHT = 25


class ChannelPacer:
    """One table-message edit in flight per channel, ``in_flight`` in all, and ``per_second``
    started per second."""

    def __init__(
        self,
        per_second: int = EDITS_PER_SECOND,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        in_flight: int = EDITS_IN_FLIGHT,
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


# One for the whole bot: the budget is Discord's limit for the bot, not for one of its parts.
PACER = ChannelPacer()
