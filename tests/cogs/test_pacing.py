"""One table-message edit in flight per channel, so discord.py can pace them by its headers."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import ManualClock
from bot.config import Settings
from bot.request_budget import RequestBudget
from cogs.pacing import ChannelPacer

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.fake.token"


async def test_edits_in_one_channel_wait_their_turn_and_other_channels_do_not() -> None:
    pacer = ChannelPacer()
    order: list[str] = []
    release = asyncio.Event()

    async def edit(name: str, channel: int, hold: bool) -> None:
        async with pacer.turn(channel):
            order.append(f"{name} starts")
            if hold:
                await release.wait()
            order.append(f"{name} ends")

    first = asyncio.create_task(edit("a", 1, True))
    second = asyncio.create_task(edit("b", 1, False))
    other = asyncio.create_task(edit("c", 2, False))
    await asyncio.wait_for(other, 1)
    assert order == ["a starts", "c starts", "c ends"]  # b waits behind a, c does not
    release.set()
    await asyncio.wait_for(asyncio.gather(first, second), 1)
    assert order[3:] == ["a ends", "b starts", "b ends"]


async def test_no_more_edits_under_way_at_once_than_allowed() -> None:
    pacer = ChannelPacer(in_flight=2)
    flying: list[int] = []
    most = 0
    release = asyncio.Event()

    async def edit(channel: int) -> None:
        nonlocal most
        async with pacer.turn(channel):
            flying.append(channel)
            most = max(most, len(flying))
            await release.wait()
            flying.remove(channel)

    edits = [asyncio.create_task(edit(channel)) for channel in range(5)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(flying) == 2  # three channels wait for a place, though their channels are free
    release.set()
    await asyncio.wait_for(asyncio.gather(*edits), 1)
    assert most == 2 and not flying


class Clock:
    """Seconds that pass only when the pacer sleeps."""

    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.t += seconds


async def test_no_more_edits_start_in_a_second_than_the_budget() -> None:
    clock = Clock()
    pacer = ChannelPacer(per_second=3, now=clock.now, sleep=clock.sleep)
    started: list[float] = []

    async def edit(channel: int) -> None:
        async with pacer.turn(channel):
            started.append(clock.t)

    await asyncio.gather(*(edit(channel) for channel in range(10)))
    assert len(started) == 10
    for i, start in enumerate(started):
        assert sum(1 for t in started[i:] if t < start + 1.0) <= 3
    assert started[-1] - started[0] >= 3.0  # ten edits at three a second take three seconds


def budget_of(env: dict[str, str]) -> RequestBudget:
    """The process's request budget, from its settings as the bot builds it."""
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, **env})
    return RequestBudget.share_of(settings.global_rate_limit, settings.shards)


@pytest.mark.parametrize(
    ("env", "processes", "edits", "in_flight"),
    [
        ({}, 1, 30, 25),  # one process at Discord's 50 a second: a budget of 40
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, 2, 15, 12),  # a budget of 20 each
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2"}, 4, 7, 6),  # 10 each
        ({"SHARD_COUNT": "8", "SHARD_IDS": "0,1"}, 4, 7, 6),  # two shards of eight each
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0", "GLOBAL_RATE_LIMIT": "500"}, 4, 75, 62),
        ({"GLOBAL_RATE_LIMIT": "2"}, 1, 1, 1),  # never less than one
    ],
)
def test_the_pace_is_a_share_of_the_process_request_budget(
    env: dict[str, str], processes: int, edits: int, in_flight: int
) -> None:
    budget = budget_of(env)
    pacer = ChannelPacer()
    pacer.follow(budget)
    assert (pacer.per_second, pacer.in_flight) == (edits, in_flight)
    if edits > 1:  # room left in the budget for the requests that are not table edits
        assert pacer.per_second < budget.per_second
    limit = int(env.get("GLOBAL_RATE_LIMIT", "50"))
    assert processes * pacer.per_second <= 0.6 * limit or edits == 1  # all processes together


async def test_the_pacer_keeps_time_by_the_budgets_clock() -> None:
    clock = ManualClock()
    pacer = ChannelPacer()
    pacer.follow(RequestBudget(4, clock))  # three edits a second of it
    started: list[float] = []

    async def edit(channel: int) -> None:
        async with pacer.turn(channel):
            started.append(clock.now())

    edits = [asyncio.create_task(edit(channel)) for channel in range(4)]
    await clock.advance(0)
    assert started == [clock.now()] * 3  # the fourth waits for the budget's clock to move
    await clock.advance(0.5)
    assert len(started) == 3
    await clock.advance(0.5)
    await asyncio.wait_for(asyncio.gather(*edits), 1)
    assert started[3] == started[0] + 1.0
