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
