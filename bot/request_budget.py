"""This process's share of Discord's global request limit, kept before each request leaves.

Discord lets a bot token make ``GLOBAL_RATE_LIMIT`` requests a second (50 unless Discord raised
it) across all its processes; discord.py only learns of the limit from a 429, and each process
knows nothing of the others. So each process keeps to its shards' share of it,
``limit × shards here / shard count``, less a safety margin: 80% of it at a steady pace and
10% as a burst after a quiet moment, the rest for network jitter. Interaction answers
(callbacks) and the interaction webhooks (followups, edits of replies) do not count on Discord
and never wait here: a click's answer is never held back behind table edits.

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

PACE = 0.8  # of the share: the steady rate
BURST = 0.1  # of the share: what may go at once after a quiet moment (together at most 90%)
_INTERACTION_WEBHOOK = re.compile(r"^/webhooks/(\d+)/[^/]+")


def share(global_limit: int, shards: Shards | None) -> float:
    """This process's shards' share of the global limit (requests a second)."""
    return float(global_limit) if shards is None else global_limit * len(shards.ids) / shards.count


def per_second(global_limit: int, shards: Shards | None) -> int:
    """Requests a second this process sends at a steady pace: most of its share; at least one."""
    return max(1, math.floor(share(global_limit, shards) * PACE + 1e-9))


def burst(global_limit: int, shards: Shards | None) -> int:
    """Requests this process may send at once after a quiet moment: with the steady pace, at
    most 90% of its share in any one second (the rest for network jitter); at least one."""
    return max(1, math.floor(share(global_limit, shards) * BURST + 1e-9))


def counted(path: str, application_id: int | None) -> bool:
    """Whether Discord counts a request to ``path`` (below the API base) against the global
    limit: everything but interaction callbacks and the application's interaction webhooks."""
    if path.startswith("/interactions/"):
        return False
    webhook = _INTERACTION_WEBHOOK.match(path)
    return webhook is None or application_id is None or int(webhook[1]) != application_id


class RequestBudget:
    """A token bucket: counted requests go at ``per_second`` on average, up to ``burst`` at once
    after a quiet moment, so never more than ``per_second + burst`` in any one second. First
    come, first served. A bucket, not an even spacing: when the event loop was busy a moment
    the requests held up catch up with a short burst, where an even spacing would lose that
    moment's sends for good (and the bot fall behind under load)."""

    def __init__(self, per_second: int, clock: Clock | None = None, burst: int = 1) -> None:
        if per_second < 1 or burst < 1:
            raise ValueError("per_second and burst must be 1 or more")
        self.per_second = per_second
        self.burst = burst
        self.clock = clock or SystemClock()  # the pacer of table edits keeps time by it too
        self._tokens = float(burst)  # requests that may go now
        self._stamp: float | None = None  # when the tokens were last counted
        self._turn = asyncio.Lock()  # fair: waiters go in the order they came
        self.spent = 0  # counted requests sent
        self.waited = 0  # of them, how many had to wait for their turn

    @classmethod
    def share_of(
        cls, global_limit: int, shards: Shards | None, clock: Clock | None = None
    ) -> RequestBudget:
        """This process's budget: its shards' share of the global limit."""
        return cls(per_second(global_limit, shards), clock, burst(global_limit, shards))

    def _refill(self) -> None:
        now = self.clock.now()
        if self._stamp is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.per_second)
        self._stamp = now

    async def spend(self) -> None:
        """Return when this request may go."""
        held = self._turn.locked()
        async with self._turn:
            self._refill()
            if self._tokens < 1:
                held = True
                wait = (1 - self._tokens) / self.per_second
                await self.clock.sleep_until(self.clock.now() + wait)
                self._refill()
            self._tokens -= 1
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
