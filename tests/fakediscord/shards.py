"""Sharding as Discord does it: which session gets a guild's events, and the IDENTIFY rules.

- A guild belongs to shard ``(guild_id >> 22) % shard_count``; direct messages go to shard 0.
- IDENTIFY with ``shard: [i, N]``: ``i >= N``, ``i < 0`` or ``N < 1`` closes with 4010 (invalid
  shard); a session (sharded or not) that would hold more guilds than ``guilds_per_session``
  closes with 4011 (sharding required).
- Identify pacing: shards share buckets ``shard_id % max_concurrency``; a bucket takes one
  IDENTIFY per ``identify_interval`` seconds (5 on Discord). Over that, Discord answers with an
  Invalid Session (op 9, not resumable), as its gateway documentation says; the client waits and
  identifies again. The interval is measured on the fake's clock, so a test may advance it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011
DISCORD_GUILDS_PER_SESSION = 2500
DISCORD_IDENTIFY_INTERVAL = 5.0
# The events that carry their guild as "id", not "guild_id".
GUILD_ITSELF = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's formula: the shard that owns a guild."""
    return (guild_id >> 22) % shard_count


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event is about, or None (a direct message, or no guild at all)."""
    raw = data.get("id") if event in GUILD_ITSELF else data.get("guild_id")
    return int(raw) if raw else None


def parse_shard(value: Any) -> tuple[int, int] | str | None:
    """IDENTIFY's ``shard`` field: (id, count), None when absent, or why it is invalid."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        return "shard must be [shard_id, num_shards]"
    shard_id, count = value
    if count < 1 or not 0 <= shard_id < count:
        return f"invalid shard [{shard_id}, {count}]"
    return (shard_id, count)


@dataclass
class ShardRules:
    """What the fake's gateway enforces, and what ``GET /gateway/bot`` reports."""

    recommended_shards: int = 1
    max_concurrency: int = 1
    identify_interval: float = DISCORD_IDENTIFY_INTERVAL
    guilds_per_session: int = DISCORD_GUILDS_PER_SESSION
    session_starts_total: int = 1000
    # When each bucket last accepted an IDENTIFY (on the fake's clock).
    last_identify: dict[int, float] = field(default_factory=dict)
    refused_identifies: int = 0

    def bucket(self, shard: tuple[int, int] | None) -> int:
        return (shard[0] if shard is not None else 0) % self.max_concurrency

    def may_identify(self, shard: tuple[int, int] | None, now: float) -> bool:
        """Whether this IDENTIFY fits its bucket's pace; if it does, it is counted."""
        bucket = self.bucket(shard)
        last = self.last_identify.get(bucket)
        if last is not None and now - last < self.identify_interval:
            self.refused_identifies += 1
            return False
        self.last_identify[bucket] = now
        return True

    def session_start_limit(self, identified: int) -> dict[str, int]:
        return {
            "total": self.session_starts_total,
            "remaining": max(self.session_starts_total - identified, 0),
            "reset_after": 86_400_000,
            "max_concurrency": self.max_concurrency,
        }
