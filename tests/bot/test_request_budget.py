"""The request budget: each process's share of Discord's global limit, on a hand-driven clock."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
from multidict import CIMultiDict
from yarl import URL

from bot.clock import ManualClock
from bot.config import Settings
from bot.request_budget import RequestBudget, burst, counted, per_second
from bot.shards import Shards

APP = 111_111_111_111_111_111
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.fake.token"


@pytest.mark.parametrize(
    ("limit", "shards", "pace", "at_once"),
    [
        (50, None, 40, 5),  # one process, no shards: the whole limit, less the margin
        (50, Shards(1, (0,)), 40, 5),
        (50, Shards(2, (0,)), 20, 2),  # two processes of one shard each: 25 each
        (50, Shards(4, (1, 3)), 20, 2),  # two of four shards: half of it
        (50, Shards(8, (0, 1, 2)), 15, 1),  # 18.75: 15 a second and 1 at once
        (50, Shards(16, tuple(range(16))), 40, 5),  # every shard here
        (50, Shards(1000, (7,)), 1, 1),  # a thousandth of 50: still one a second
        (500, Shards(4, (0,)), 100, 12),  # a raised limit
    ],
)
def test_the_share_per_shard_layout(
    limit: int, shards: Shards | None, pace: int, at_once: int
) -> None:
    assert (per_second(limit, shards), burst(limit, shards)) == (pace, at_once)
    if at_once > 1:  # what may go in any one second stays inside the share, with a margin
        share = limit if shards is None else limit * len(shards.ids) / shards.count
        assert pace + at_once <= 0.9 * share


def test_the_limit_is_a_setting() -> None:
    env = {"DISCORD_TOKEN": TOKEN}
    assert Settings.from_env(env).global_rate_limit == 50
    assert Settings.from_env({**env, "GLOBAL_RATE_LIMIT": "1200"}).global_rate_limit == 1200
    with pytest.raises(ValueError, match="GLOBAL_RATE_LIMIT must be a whole number"):
        Settings.from_env({**env, "GLOBAL_RATE_LIMIT": "fifty"})


def test_interaction_answers_do_not_count() -> None:
    assert counted("/channels/5/messages/6", APP)
    assert counted("/applications/5/emojis", APP)
    assert not counted("/interactions/9/tok-en/callback", APP)
    assert not counted(f"/webhooks/{APP}/tok-en/messages/@original", APP)
    assert not counted(f"/webhooks/{APP}/tok-en", APP)  # a followup
    assert counted("/webhooks/222/other-token", APP)  # someone else's webhook
    assert counted(f"/webhooks/{APP}/tok-en", None)  # before login: counted, to be safe


async def test_a_burst_is_spread_evenly_over_the_seconds_it_needs() -> None:
    clock = ManualClock()
    budget = RequestBudget(4, clock)
    tasks = [asyncio.create_task(budget.spend()) for _ in range(10)]
    await clock.advance(0)
    done = [sum(t.done() for t in tasks)]
    for _ in range(10):
        await clock.advance(0.25)
        done.append(sum(t.done() for t in tasks))
    # One at once, then one every quarter second: ten in 2.25 s, never five in a second.
    assert done == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10]
    assert (budget.spent, budget.waited) == (10, 9)


async def test_first_come_first_served_and_an_idle_budget_does_not_wait() -> None:
    clock = ManualClock()
    budget = RequestBudget(2, clock)
    order: list[int] = []

    async def send(n: int) -> None:
        await budget.spend()
        order.append(n)

    await send(0)
    await clock.advance(0.6)  # more than half a second later: the next goes at once
    await send(1)
    tasks = [asyncio.create_task(send(n)) for n in (2, 3)]
    await clock.advance(0)
    assert order == [0, 1]
    await clock.advance(0.4)
    assert order == [0, 1]  # 1.0: half a second after 1 is 1.1
    await clock.advance(0.1)
    assert order == [0, 1, 2]
    await clock.advance(0.5)
    assert order == [0, 1, 2, 3]
    await asyncio.gather(*tasks)
    await clock.advance(5.0)  # idle: a new request goes at once again
    await asyncio.wait_for(send(4), 1)
    assert budget.waited == 2


async def test_requests_held_up_together_still_leave_one_by_one() -> None:
    clock = ManualClock()
    budget = RequestBudget(4, clock)
    tasks = [asyncio.create_task(budget.spend()) for _ in range(4)]
    await clock.advance(0)
    assert sum(t.done() for t in tasks) == 1
    await clock.advance(2.0)  # the event loop was busy for two seconds: the queue is late
    assert sum(t.done() for t in tasks) == 2  # only the next one goes now...
    await clock.advance(0.25)
    assert sum(t.done() for t in tasks) == 3  # ...and the rest a quarter second apart
    await clock.advance(0.25)
    assert all(t.done() for t in tasks)


async def test_after_a_quiet_moment_a_burst_goes_at_once_then_the_pace() -> None:
    clock = ManualClock()
    budget = RequestBudget(4, clock, burst=3)
    tasks = [asyncio.create_task(budget.spend()) for _ in range(6)]
    await clock.advance(0)
    assert sum(t.done() for t in tasks) == 3  # the bucket was full: three at once
    for done in (4, 5, 6):
        await clock.advance(0.25)
        assert sum(t.done() for t in tasks) == done  # then one a quarter second


async def test_a_busy_moment_is_caught_up_with_a_burst_no_larger_than_the_bucket() -> None:
    """Requests held up by a busy event loop go out together, but never more than the burst:
    in any one second at most ``per_second + burst`` go."""
    clock = ManualClock()
    budget = RequestBudget(4, clock, burst=2)
    sent: list[float] = []

    async def send() -> None:
        await budget.spend()
        sent.append(clock.now())

    tasks = [asyncio.create_task(send()) for _ in range(12)]
    await clock.advance(0)
    await clock.advance(2.0)  # the loop was busy for two seconds
    for _ in range(12):
        await clock.advance(0.25)
    await asyncio.gather(*tasks)
    assert len(sent) == 12
    for start in sent:
        assert sum(start <= t < start + 1.0 for t in sent) <= 4 + 2, sent


async def trace_start(trace: aiohttp.TraceConfig, url: str) -> None:
    """What aiohttp runs before it sends a request to ``url``."""
    params = aiohttp.TraceRequestStartParams("POST", URL(url), CIMultiDict())
    for callback in trace.on_request_start:
        await callback(None, trace.trace_config_ctx(), params)  # type: ignore[arg-type]


async def test_the_trace_holds_counted_requests_only(monkeypatch: pytest.MonkeyPatch) -> None:
    base = "http://127.0.0.1:9/api/v10"
    monkeypatch.setattr(discord.http.Route, "BASE", base)
    clock = ManualClock()
    budget = RequestBudget(1, clock)
    trace = budget.trace(lambda: APP)
    await trace_start(trace, f"{base}/channels/5/messages")
    held = asyncio.create_task(trace_start(trace, f"{base}/channels/5/messages/6"))
    await clock.advance(0)
    assert not held.done(), "the second counted request in a second waits"
    # Interaction answers, the gateway and the CDN go at once, the budget full or not.
    for url in (
        f"{base}/interactions/9/tok-en/callback",
        f"{base}/webhooks/{APP}/tok-en/messages/@original",
        "ws://127.0.0.1:9/gateway?v=10",
        "https://cdn.discordapp.com/emojis/1.png",
    ):
        await asyncio.wait_for(trace_start(trace, url), 1)
    assert not held.done()
    await clock.advance(1)
    assert held.done()
    assert (budget.spent, budget.waited) == (2, 1)


def test_a_budget_needs_room_for_a_request() -> None:
    with pytest.raises(ValueError):
        RequestBudget(0, ManualClock())
