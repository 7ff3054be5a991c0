"""End to end: the bot keeps to its request budget, so a burst of table edits meets no global
429 from Discord, while answers to clicks and commands still go out at once.

The fake Discord's global limit is lowered to 5 a second and counted on the test's own clock,
which the bot's budget (4 a second: 80% of 5, one every quarter second) reads too, and the
pacer of table edits (3 a second of those 4); the test moves that clock by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from bot.clock import ManualClock
from bot.request_budget import RequestBudget, per_second
from cogs.pacing import PACER
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import ok, open_table, table_message
from tests.fakediscord import FakeDiscord
from tests.fakediscord.ratelimits import DiscordLimits

LIMIT = 5
TABLES = 10


@contextlib.asynccontextmanager
async def time_passing(clock: ManualClock) -> AsyncIterator[None]:
    """While setting up: a second passes whenever a request waits for the budget."""

    async def tick() -> None:
        while True:
            while not clock.sleepers:
                await asyncio.sleep(0.005)
            await clock.advance(1.0)

    ticker = asyncio.create_task(tick())
    try:
        yield
    finally:
        ticker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticker


def global_429s(fake: FakeDiscord) -> dict[str, int]:
    assert fake.limits is not None
    return {k: n for k, n in fake.limits.refused.items() if k.startswith("global")}


async def test_a_burst_of_table_edits_keeps_to_the_share(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    clock = ManualClock()
    fake_discord.limits = DiscordLimits(global_per_second=LIMIT, routes=(), now=clock.now)
    budget = RequestBudget(per_second(LIMIT, None), clock)
    assert budget.per_second == 4
    with restored_endpoints():
        async with time_passing(clock):
            bot: Any = await start_bot(bot_env, budget=budget)
        pace = PACER.per_second  # the table edits' share of the budget, asked of it at start
        assert (pace, PACER.now) == (3, clock.now)
        try:
            async with time_passing(clock):
                hosts = [fake_discord.user(f"host{i}") for i in range(TABLES)]
                tables = [await open_table(fake_discord, host, "tarneeb") for host in hosts]
                await fake_discord.quiet()
            lobbies = {t: table_message(hosts[0], t).id for t in tables}
            shown = {t: fake_discord.messages[m].text() for t, m in lobbies.items()}
            await clock.advance(1.0)  # a fresh second for the bot and for Discord
            mark = len(fake_discord.requests)

            def edits() -> int:
                return sum(
                    1
                    for r in fake_discord.requests[mark:]
                    if r.method == "PATCH" and r.status == 200 and r.path.startswith("/channels/")
                )

            async def edits_reach(n: int) -> None:
                await fake_discord.wait_for(lambda: edits() >= n)

            # One command redraws every table of the server (its language changed): the
            # answer goes out, one edit goes with it and the others wait their turn.
            admin = fake_discord.user("admin", admin=True)
            ok(await admin.slash("settings server", language="no"))
            await fake_discord.wait_for(lambda: edits() == 1 and clock.sleepers)
            # The edits wait for the budget, yet a player's command is answered at once.
            answer = ok(await hosts[1].slash("settings me", language="fi"))
            assert answer.ephemeral
            assert edits() == 1 and clock.sleepers
            # Then the edits go at the slower of the two paces: one every quarter of a second
            # (the budget's four a second, where Discord allows 5), at most three in a second
            # (the pacer's, so that the budget keeps room for other requests).
            due = [0.0]
            for k in range(1, TABLES):
                after = due[k - pace] + 1.0 if k >= pace else 0.0
                due.append(max(due[k - 1] + 1 / budget.per_second, after))
            now = 0.0
            for sent, when in enumerate(due[1:], start=2):
                while now < when:
                    await clock.advance(0.25)
                    now += 0.25
                await edits_reach(sent)
                assert edits() == sent
            assert due[-1] == 3.0  # ten edits: three seconds, not two and a quarter
            await fake_discord.quiet()
            assert edits() == TABLES
            assert all(fake_discord.messages[m].text() != shown[t] for t, m in lobbies.items())
            assert global_429s(fake_discord) == {}
            assert budget.waited >= TABLES - 1
        finally:
            async with time_passing(clock):
                await stop_bot(bot)
            PACER.follow(RequestBudget.share_of(50, None))  # the wall clock again, for what follows
