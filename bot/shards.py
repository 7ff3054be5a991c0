"""Shards: which guilds a process serves, read from SHARD_COUNT and SHARD_IDS.

Discord gives each guild to one shard, ``(guild_id >> 22) % shard_count``, and sends direct
messages to shard 0. A process owns some shards (discord.py's ``AutoShardedBot`` connects them);
a table belongs to its guild and so to one process, which alone restores it and runs its timers
and computer turns. The process that owns shard 0 is the one that publishes the slash commands
and uploads the card emojis (the others only read them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

MAX_SHARDS = 10_000
# Discord's identify window: each bucket (shard id % max_concurrency) identifies once in it.
IDENTIFY_SECONDS = 5.0
# A shard identifies only in the first fifth of its slot, and slots are 1.3 windows long, so two
# identifies of one bucket are always more than a window apart, whatever machine sends them.
SLOT_WINDOWS = 1.3
SLOT_OPEN = 0.2


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's formula: the shard that owns a guild."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards this process connects, of ``count`` in all."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process gets the guild's events (None: direct messages, shard 0's)."""
        if guild_id is None:
            return 0 in self.ids
        return shard_of(guild_id, self.count) in self.ids

    @property
    def first(self) -> bool:
        """Owns shard 0: publishes the commands and uploads the card emojis."""
        return 0 in self.ids

    def describe(self) -> str:
        ids = ", ".join(str(i) for i in self.ids)
        return f"shard{'s' if len(self.ids) > 1 else ''} {ids} of {self.count}"


def owns_guild(shards: Shards | None, guild_id: int | None) -> bool:
    """Whether a process with these shards (None: unsharded, everything) serves the guild."""
    return shards is None or shards.owns(guild_id)


def publishes(shards: Shards | None) -> bool:
    """Whether this process publishes the commands and uploads the emojis (one process does)."""
    return shards is None or shards.first


def share(process: int, processes: int, count: int) -> tuple[int, ...]:
    """The launcher's split: process k of N owns shards k, k + N, k + 2N, ... below ``count``."""
    return tuple(range(process, count, processes))


def identify_wait(
    now: float, shard_id: int, count: int, max_concurrency: int, window: float
) -> float:
    """Seconds a shard waits before it IDENTIFYs, so that processes that cannot talk to each
    other (on several machines even) never identify one bucket twice within a window.

    Time (the wall clock, which machines agree on) is cut into slots; shard ``s`` of bucket
    ``s % max_concurrency`` has slot ``s // max_concurrency`` of every round.
    """
    concurrency = max(max_concurrency, 1)
    rounds = math.ceil(count / concurrency)
    slot = window * SLOT_WINDOWS
    start = (shard_id // concurrency) * slot
    into = (now - start) % (rounds * slot)
    return 0.0 if into < window * SLOT_OPEN else rounds * slot - into


def read_shards(environ: Mapping[str, str], problem: Callable[[str], None]) -> Shards | None:
    """SHARD_COUNT and SHARD_IDS from the environment; None when both are unset (one process,
    unsharded). Each mistake is reported through ``problem`` as one line with the fix."""
    count_text = environ.get("SHARD_COUNT", "").strip()
    ids_text = environ.get("SHARD_IDS", "").strip()
    if not count_text and not ids_text:
        return None
    if not count_text:
        problem(
            "SHARD_IDS is set but SHARD_COUNT is not: set SHARD_COUNT to the number of shards "
            "of the whole bot (the same on every machine)."
        )
        return None
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
        problem(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, not {count_text!r}.")
        return None
    count = int(count_text)
    if not ids_text:
        return Shards(count, tuple(range(count)))
    words = [word.strip() for word in ids_text.split(",")]
    if not all(word.isdigit() for word in words):
        problem(
            f"SHARD_IDS must be shard numbers separated by commas (like 0,2,4), not {ids_text!r}."
        )
        return None
    ids = [int(word) for word in words]
    beyond = [i for i in ids if i >= count]
    if beyond:
        problem(
            f"SHARD_IDS has {', '.join(map(str, beyond))}, but with SHARD_COUNT={count} the "
            f"shards are numbered 0 to {count - 1}."
        )
        return None
    if len(set(ids)) != len(ids):
        problem(f"SHARD_IDS names a shard twice ({ids_text!r}): list each shard once.")
        return None
    return Shards(count, tuple(sorted(ids)))
