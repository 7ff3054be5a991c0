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
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable

EDITS_PER_SECOND = 30  # of Discord's 50 requests a second for the whole bot


class ChannelPacer:
    """One table-message edit in flight per channel, and ``per_second`` started per second."""

    def __init__(
        self,
        per_second: int = EDITS_PER_SECOND,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.per_second = per_second
        self.now = now
        self.sleep = sleep
        self._loop: asyncio.AbstractEventLoop | None = None
        self._channels: dict[int, asyncio.Lock] = {}
        self._started: deque[float] = deque()
        self._overall = asyncio.Lock()

    def _on_this_loop(self) -> None:
        """Locks belong to one event loop: a new loop (a restarted bot, a test) starts afresh."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._channels, self._started, self._overall = {}, deque(), asyncio.Lock()

    @contextlib.asynccontextmanager
    async def turn(self, channel_id: int) -> AsyncIterator[None]:
        """Hold this channel's turn (first come, first served) and a slot of the second."""
        self._on_this_loop()
        async with self._channels.setdefault(channel_id, asyncio.Lock()):
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
