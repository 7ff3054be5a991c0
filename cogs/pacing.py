"""Table-message edits in one channel go out one at a time.

Discord lets a bot edit messages in one channel about five times in five seconds, and several
tables often share a channel. discord.py waits by itself when a response says a route's bucket is
empty, but only for the requests that come after that response: edits of several tables sent at
once all go out and meet 429s (each one counts towards Discord's invalid-request ban, and every
table in the channel waits out the penalty). One edit in flight per channel lets each wait for the
last answer's count instead; the lock is first come, first served, and each table shows its latest
state when its turn comes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class ChannelPacer:
    """One table-message edit in flight per channel."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def turn(self, channel_id: int) -> AsyncIterator[None]:
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            yield
