"""Discord's per-route rate limits, modelled for load runs (off unless asked for).

Discord does not publish its exact limits; these are the figures bots meet in practice and the
ones Discord's documentation uses as examples:

- messages in one channel: 5 creates per 5 s, 5 edits per 5 s and 5 deletes per 5 s (separate
  buckets per channel, as the route's major parameter is the channel);
- edits of interaction messages (webhook routes, per interaction token): 5 per 2 s;
- every bot-authenticated route together: 50 per second (the global limit). Interaction callbacks
  and the interaction-token webhooks (followups, edits of replies) are exempt from it, as on
  Discord.

A limited route answers with the headers discord.py reads (``X-RateLimit-Remaining``,
``X-RateLimit-Reset-After``, ``X-RateLimit-Bucket``), so a well-behaved client waits before it
is refused; a request beyond the limit gets a 429 with ``retry_after``.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

GLOBAL_PER_SECOND = 50
MIN_WAIT = 0.01  # a 429's shortest retry_after (Discord's are given to the millisecond)


@dataclass(frozen=True)
class Route:
    """One kind of limited request: ``limit`` requests per ``window`` seconds per major id."""

    name: str
    method: str
    pattern: re.Pattern[str]
    limit: int
    window: float


ROUTES = (
    Route("message create", "POST", re.compile(r"^/channels/(\d+)/messages$"), 5, 5.0),
    Route("message edit", "PATCH", re.compile(r"^/channels/(\d+)/messages/\d+$"), 5, 5.0),
    Route("message delete", "DELETE", re.compile(r"^/channels/(\d+)/messages/\d+$"), 5, 5.0),
    Route(
        "interaction edit",
        "PATCH",
        re.compile(r"^/webhooks/\d+/([^/]+)/messages/(?:@original|\d+)$"),
        5,
        2.0,
    ),
)


@dataclass
class Verdict:
    """What the limiter says of one request: headers to send, and a 429's ``retry_after``."""

    headers: dict[str, str]
    retry_after: float | None = None
    is_global: bool = False


@dataclass
class DiscordLimits:
    """Sliding-window buckets keyed by (route, major id), and the global bucket.

    A test may lower the global limit, leave the per-route limits out (``routes=()``) and count
    time on a clock of its own (``now``) instead of the fake's monotonic seconds.
    """

    global_per_second: int = GLOBAL_PER_SECOND
    routes: tuple[Route, ...] = ROUTES
    now: Callable[[], float] = time.monotonic
    buckets: dict[tuple[str, str], deque[float]] = field(default_factory=dict)
    global_bucket: deque[float] = field(default_factory=deque)
    refused: dict[str, int] = field(default_factory=dict)  # 429s given, per route name

    def check(self, method: str, path: str, now: float) -> Verdict:
        """Count one request at ``now``; refuse it (a 429) when its bucket is full."""
        exempt = path.startswith(("/interactions/", "/webhooks/"))  # interaction tokens
        if not exempt:
            _expire(self.global_bucket, now, 1.0)
            if len(self.global_bucket) >= self.global_per_second:
                key = f"global: {method} {re.sub(r'[0-9]{5,}', ':id', path)}"
                self.refused[key] = self.refused.get(key, 0) + 1
                wait = self.global_bucket[0] + 1.0 - now
                return Verdict({"X-RateLimit-Global": "true"}, max(wait, MIN_WAIT), True)
        for route in self.routes:
            match = route.pattern.match(path) if method == route.method else None
            if match is None:
                continue
            bucket = self.buckets.setdefault((route.name, match.group(1)), deque())
            _expire(bucket, now, route.window)
            reset_after = (bucket[0] + route.window - now) if bucket else route.window
            headers = {
                "X-RateLimit-Limit": str(route.limit),
                "X-RateLimit-Bucket": f"fake-{route.name.replace(' ', '-')}",
            }
            if len(bucket) >= route.limit:
                self.refused[route.name] = self.refused.get(route.name, 0) + 1
                headers |= {
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                    "X-RateLimit-Scope": "user",
                }
                return Verdict(headers, max(reset_after, MIN_WAIT))
            bucket.append(now)
            if not exempt:
                self.global_bucket.append(now)
            reset_after = bucket[0] + route.window - now
            headers |= {
                "X-RateLimit-Remaining": str(route.limit - len(bucket)),
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            }
            return Verdict(headers)
        if not exempt:
            self.global_bucket.append(now)
        return Verdict({})


def _expire(bucket: deque[float], now: float, window: float) -> None:
    while bucket and bucket[0] <= now - window:
        bucket.popleft()
