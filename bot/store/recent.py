"""Settings read lately, kept for a few seconds: a server's settings, a person's language and
turn-ping choice are read on nearly every click (the answer's language, whose turn to ping) and
change a few times a month.

Each store keeps its own and updates it with its own writes, so what this process saves it reads
back at once. Another process sharing the database (a shard on PostgreSQL) changes a person's own
language (it follows them into every server) and this one sees it within :data:`SECONDS`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from functools import cached_property
from typing import Generic, TypeVar

from bot.store.rows import GuildSettings

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

SECONDS = 30.0  # how long a value read is trusted without reading it again
SIZE = 20_000  # values kept at most; the oldest read goes first


class Recent(Generic[K, V]):
    """Values by key, each trusted for ``seconds`` after it was read or written."""

    def __init__(
        self,
        seconds: float = SECONDS,
        size: int = SIZE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = seconds
        self.size = size
        self.clock = clock
        self._values: dict[K, tuple[float, V]] = {}

    def get(self, key: K) -> tuple[bool, V | None]:
        """``(True, value)`` while the value is fresh; ``(False, None)`` when it must be read."""
        found = self._values.get(key)
        if found is None:
            return False, None
        until, value = found
        if self.clock() >= until:
            del self._values[key]
            return False, None
        return True, value

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` (just read, or just written) for :attr:`seconds`; returns it."""
        self._values.pop(key, None)  # to the end: the dict keeps the order of the last puts
        if len(self._values) >= self.size:
            del self._values[next(iter(self._values))]
        self._values[key] = (self.clock() + self.seconds, value)
        return value

    def drop(self, key: K) -> None:
        self._values.pop(key, None)

    def drop_where(self, stale: Callable[[K], bool]) -> None:
        """Forget every value whose key ``stale`` names (a person forgotten everywhere)."""
        for key in [key for key in self._values if stale(key)]:
            del self._values[key]


class RecentSettings:
    """A store's recent settings (a mixin of the settings and privacy parts, which share them):
    a server's (None: it has none stored), a person's own language, a member's turn-ping
    choice."""

    @cached_property
    def recent_guilds(self) -> Recent[int, GuildSettings | None]:
        return Recent()

    @cached_property
    def recent_languages(self) -> Recent[int, str | None]:
        return Recent()

    @cached_property
    def recent_pings(self) -> Recent[tuple[int, int], bool]:
        return Recent()

    def forget_recent(self, user_id: int) -> None:
        """A person forgotten: nothing of theirs is kept."""
        self.recent_languages.drop(user_id)
        self.recent_pings.drop_where(lambda key: key[1] == user_id)
