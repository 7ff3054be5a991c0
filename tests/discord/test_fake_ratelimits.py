"""The fake's model of Discord's per-route limits: what the load benchmark measures against."""

from __future__ import annotations

import pytest

from tests.fakediscord.ratelimits import GLOBAL_PER_SECOND, DiscordLimits


def test_five_edits_per_channel_in_five_seconds_then_a_429() -> None:
    limits = DiscordLimits()
    path = "/channels/10/messages/99"
    verdicts = [limits.check("PATCH", path, 100.0 + i * 0.1) for i in range(6)]
    assert [v.retry_after is None for v in verdicts] == [True] * 5 + [False]
    assert verdicts[4].headers["X-RateLimit-Remaining"] == "0"
    assert verdicts[5].retry_after == pytest.approx(4.5)
    assert limits.check("PATCH", "/channels/11/messages/99", 100.6).retry_after is None
    assert limits.check("PATCH", path, 105.01).retry_after is None  # the window moved on
    assert limits.refused == {"message edit": 1}


def test_the_global_limit_spares_interaction_answers() -> None:
    limits = DiscordLimits()
    for i in range(GLOBAL_PER_SECOND):
        assert limits.check("GET", f"/users/{i}", 50.0).retry_after is None
    assert limits.check("GET", "/users/x", 50.5).is_global
    assert limits.check("POST", "/interactions/1/tok/callback", 50.5).retry_after is None
    assert limits.check("PATCH", "/webhooks/1/tok/messages/@original", 50.5).retry_after is None
