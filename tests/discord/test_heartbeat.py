"""The gateway's heartbeat as Discord answers it: the bot's latency is the round trip.

Discord's acknowledgement (op 11) comes back over the network, after the heartbeat has left the
client. A fake that answered at once, on the same machine, would beat discord.py's keep-alive
thread to its own bookkeeping: the bot would measure a whole heartbeat interval (41 s) as its
latency, ``/ping`` would show it and the log would say it "can't keep up" at every beat.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.fakediscord import FakeDiscord

INTERVAL_MS = 1000  # short, so that a test sees several beats; long beside a busy loop's lag
BEATS = 4


def heartbeats(fake: FakeDiscord) -> int:
    return sum(1 for entry in fake.gateway_log if entry.get("recv") == 1)


async def test_the_latency_is_the_round_trip_not_the_heartbeat_interval(
    fake_discord: FakeDiscord, bot_env: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    fake_discord.heartbeat_interval_ms = INTERVAL_MS
    seen: list[float] = []
    with restored_endpoints(), caplog.at_level(logging.WARNING, logger="discord.gateway"):
        bot: Any = await start_bot(bot_env)
        try:
            for beat in range(1, BEATS + 1):
                await fake_discord.wait_for(lambda b=beat: heartbeats(fake_discord) > b, 10)
                seen.append(bot.latency)
            pinged = await fake_discord.user("alice").slash("ping")
        finally:
            await stop_bot(bot)
    measured = [latency for latency in seen if latency != float("inf")]
    assert measured and max(measured) < INTERVAL_MS / 1000 / 2, measured
    assert pinged.message is not None
    shown = next(f for f in pinged.message.embeds[0]["fields"] if f["name"] == "Latency")
    assert int(shown["value"].split()[0]) < INTERVAL_MS / 2
    assert "behind" not in caplog.text
