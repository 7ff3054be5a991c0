"""The fake Discord's sharding, through a raw gateway client: the shard count it recommends,
which session gets a guild's events, the close codes 4010 and 4011, and identify pacing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord
from tests.fakediscord.shards import shard_of

INTENTS = 513  # guilds and guild messages


class RawGateway:
    """One websocket to the fake's gateway, spoken by hand (JSON, no compression)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[tuple[str, dict[str, Any]]] = []

    async def frame(self, timeout: float = 5.0) -> dict[str, Any] | None:
        """The next frame; None once the server closed the socket."""
        msg = await asyncio.wait_for(self.ws.receive(), timeout)
        if msg.type is not aiohttp.WSMsgType.TEXT:
            return None
        frame: dict[str, Any] = json.loads(msg.data)
        if frame["op"] == 0:
            self.events.append((frame["t"], frame["d"]))
        return frame

    async def identify(self, shard: list[int] | None, token: str = DEFAULT_TOKEN) -> Any:
        """IDENTIFY; the READY data, the op 9 frame, or None if the server closed."""
        payload: dict[str, Any] = {"token": token, "intents": INTENTS, "properties": {}}
        if shard is not None:
            payload["shard"] = shard
        await self.ws.send_json({"op": 2, "d": payload})
        while True:
            frame = await self.frame()
            if frame is None or frame["op"] == 9:
                return frame
            if frame["op"] == 0 and frame["t"] == "READY":
                return frame["d"]

    async def settle(self) -> None:
        """Read what the server has sent so far (the GUILD_CREATEs after READY, ...)."""
        while True:
            try:
                if await self.frame(timeout=0.2) is None:
                    return
            except TimeoutError:
                return

    def guild_ids(self, event: str) -> list[int]:
        key = "id" if event == "GUILD_CREATE" else "guild_id"
        return [int(d[key]) for t, d in self.events if t == event and d.get(key)]


@pytest.fixture
async def connect() -> AsyncIterator[Any]:
    """``await connect(fake)``: a raw gateway client (HELLO already read)."""
    async with aiohttp.ClientSession() as http:
        sockets: list[aiohttp.ClientWebSocketResponse] = []

        async def opener(fake: FakeDiscord) -> RawGateway:
            ws = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json")
            sockets.append(ws)
            gateway = RawGateway(ws)
            hello = await gateway.frame()
            assert hello is not None and hello["op"] == 10
            return gateway

        yield opener
        for ws in sockets:
            await ws.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(max_concurrency=2, recommended_shards=2) as started:
        yield started


async def test_gateway_bot_reports_the_shards_and_the_session_start_limit() -> None:
    async with (
        FakeDiscord(recommended_shards=4, max_concurrency=16) as fake,
        aiohttp.ClientSession() as http,
        http.get(
            f"{fake.api_base}/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
        ) as response,
    ):
        body = await response.json()
    assert body["shards"] == 4
    assert body["session_start_limit"] == {
        "total": 1000,
        "remaining": 1000,
        "reset_after": 86_400_000,
        "max_concurrency": 16,
    }


async def test_each_shard_gets_only_its_guilds_and_dms_go_to_shard_zero(
    fake: FakeDiscord, connect: Any
) -> None:
    on_zero = fake.add_guild("Zero", shard=(0, 2))
    on_one = fake.add_guild("One", shard=(1, 2))
    first, second = await connect(fake), await connect(fake)
    ready = [await first.identify([0, 2]), await second.identify([1, 2])]
    await first.settle()
    await second.settle()
    for index, (client, data) in enumerate(zip((first, second), ready, strict=True)):
        assert data["shard"] == [index, 2]
        owned = {g for g in fake.guilds if shard_of(g, 2) == index}
        assert {int(g["id"]) for g in data["guilds"]} == owned
        assert set(client.guild_ids("GUILD_CREATE")) == owned
    assert on_zero.id in first.guild_ids("GUILD_CREATE")
    assert on_one.id in second.guild_ids("GUILD_CREATE")

    channel = fake.add_channel("games", on_one)
    await fake.dispatch("INTERACTION_CREATE", {"id": "1", "guild_id": str(on_one.id), "type": 2})
    await fake.dispatch(
        "MESSAGE_CREATE", {"id": "2", "guild_id": str(on_one.id), "channel_id": str(channel.id)}
    )
    await fake.dispatch("INTERACTION_CREATE", {"id": "3", "type": 2, "channel_id": "9"})  # a DM
    await first.settle()
    await second.settle()
    assert second.guild_ids("INTERACTION_CREATE") == [on_one.id]
    assert second.guild_ids("MESSAGE_CREATE") == [on_one.id]
    assert first.guild_ids("INTERACTION_CREATE") == first.guild_ids("MESSAGE_CREATE") == []
    dms = [d["id"] for t, d in first.events if t == "INTERACTION_CREATE"]
    assert dms == ["3"], "a direct message reaches shard 0 only"
    assert [d["id"] for t, d in second.events if t == "INTERACTION_CREATE"] == ["1"]
    assert fake.connected_shards == {0, 1}


@pytest.mark.parametrize("shard", [[2, 2], [5, 2], [-1, 2], [0, 0], [0, -3], [0], "0,1"])
async def test_an_invalid_shard_closes_with_4010(
    fake: FakeDiscord, connect: Any, shard: Any
) -> None:
    client = await connect(fake)
    assert await client.identify(shard) is None
    assert client.ws.close_code == 4010
    assert fake.identify_count == 0


async def test_too_many_guilds_for_one_session_closes_with_4011(connect: Any) -> None:
    async with FakeDiscord(guilds_per_session=2) as fake:
        for shard in range(3):  # four guilds in all, at most two on any of three shards
            fake.add_guild(f"guild {shard}", shard=(shard, 3))
        unsharded = await connect(fake)
        assert await unsharded.identify(None) is None
        assert unsharded.ws.close_code == 4011
        sharded = await connect(fake)
        ready = await sharded.identify([0, 3])
        assert ready is not None and ready["shard"] == [0, 3]
        assert len(ready["guilds"]) <= 2


async def test_identify_pacing_one_per_bucket_per_interval(connect: Any) -> None:
    async with FakeDiscord(max_concurrency=1, identify_interval=5.0) as fake:
        first = await connect(fake)
        assert (await first.identify([0, 2]))["shard"] == [0, 2]
        early = await connect(fake)
        refused = await early.identify([1, 2])
        assert refused == {"op": 9, "d": False, "s": None, "t": None}, "Invalid Session"
        assert fake.identify_count == 1 and fake.shard_rules.refused_identifies == 1
        fake.clock.advance(5.0)
        ready = await early.identify([1, 2])  # the same socket may identify again
        assert ready["shard"] == [1, 2]
        assert fake.connected_shards == {0, 1}


async def test_identify_pacing_buckets_follow_max_concurrency(connect: Any) -> None:
    async with FakeDiscord(max_concurrency=2, identify_interval=5.0) as fake:
        clients = [await connect(fake) for _ in range(3)]
        assert (await clients[0].identify([0, 4]))["shard"] == [0, 4]  # bucket 0
        assert (await clients[1].identify([1, 4]))["shard"] == [1, 4]  # bucket 1
        assert (await clients[2].identify([2, 4]))["op"] == 9  # bucket 0 again, too soon
        fake.clock.advance(5.0)
        assert (await clients[2].identify([2, 4]))["shard"] == [2, 4]
