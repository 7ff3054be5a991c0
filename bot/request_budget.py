"""This process's share of Discord's global request limit, kept before each request leaves.

Discord lets a bot token make ``GLOBAL_RATE_LIMIT`` requests a second (50 unless Discord raised
it) across all its processes; discord.py only learns of the limit from a 429, and each process
knows nothing of the others. So each process keeps to its shards' share of it,
``limit × shards here / shard count``, less a safety margin (it uses 90% of the share, for
network jitter), at an even pace. Interaction answers (callbacks) and the interaction webhooks
(followups, edits of replies) do not count on Discord and never wait here: a click's answer is
never held back behind table edits.

The budget sees every HTTP request discord.py sends (retries too) through an aiohttp trace
(discord.py's ``http_trace`` option) and holds a counted one until its moment comes. It runs
on a :class:`~bot.clock.Clock`, so that tests move its time by hand (aiolimiter, the library for
this, reads the event loop's clock).
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp
import discord

from bot.clock import Clock, SystemClock
from bot.shards import Shards

SAFETY = 0.9  # the share of the share a process uses
_INTERACTION_WEBHOOK = re.compile(r"^/webhooks/(\d+)/[^/]+")


def per_second(global_limit: int, shards: Shards | None) -> int:
    """Requests a second this process may send: its shards' share of the global limit, less
    the safety margin; at least one."""
    share = float(global_limit) if shards is None else global_limit * len(shards.ids) / shards.count
    return max(1, math.floor(share * SAFETY + 1e-9))


def counted(path: str, application_id: int | None) -> bool:
    """Whether Discord counts a request to ``path`` (below the API base) against the global
    limit: everything but interaction callbacks and the application's interaction webhooks."""
    if path.startswith("/interactions/"):
        return False
    webhook = _INTERACTION_WEBHOOK.match(path)
    return webhook is None or application_id is None or int(webhook[1]) != application_id


class RequestBudget:
    """Counted requests go out one at a time, each at least ``1 / per_second`` seconds after the
    one before on ``clock``: never more than ``per_second`` in any one second, and no bursts (a
    burst sent at the edge of one second and the next would reach Discord within one of its
    seconds). First come, first served. The next one's moment is counted from when the last
    one really went, so requests held up together (the event loop busy a moment) still leave
    one by one."""

    def __init__(self, per_second: int, clock: Clock | None = None) -> None:
        if per_second < 1:
            raise ValueError("per_second must be 1 or more")
        self.per_second = per_second
        self._clock = clock or SystemClock()
        self._interval = 1.0 / per_second
        self._next = -math.inf  # the earliest moment the next counted request may go
        self._turn = asyncio.Lock()  # fair: waiters go in the order they came
        self.spent = 0  # counted requests sent
        self.waited = 0  # of them, how many had to wait for their turn

    async def spend(self) -> None:
        """Return when this request may go."""
        held = self._turn.locked()
        async with self._turn:
            now = self._clock.now()
            if now < self._next:
                held = True
                await self._clock.sleep_until(self._next)
                now = self._clock.now()
            self._next = now + self._interval
            self.spent += 1
            self.waited += held

    def trace(self, application_id: Callable[[], int | None]) -> aiohttp.TraceConfig:
        """An aiohttp trace (discord.py's ``http_trace``) that makes each counted request to
        the API wait for the budget; ``application_id`` tells the interaction webhooks apart."""

        async def on_request_start(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestStartParams,
        ) -> None:
            url = str(params.url)
            base = discord.http.Route.BASE  # read now: tests point it at the fake Discord
            if url.startswith(base) and counted(url[len(base) :], application_id()):
                await self.spend()

        trace = aiohttp.TraceConfig()
        trace.on_request_start.append(on_request_start)
        return trace
