"""One table-message edit in flight per channel, so discord.py can pace them by its headers."""

from __future__ import annotations

import asyncio

from cogs.pacing import ChannelPacer


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
