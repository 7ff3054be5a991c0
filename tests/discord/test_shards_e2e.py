"""The bot on shards, through the fake Discord: only the process that owns shard 0 publishes the
commands and uploads the card emojis (another finds them when it lists them again), and an
interaction delivered twice is handled once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.app import ShardedCardTableBot
from bot.card_art import emoji_names
from cogs.card_faces import FACES
from tests.conftest import TEST_IDENTIFY_SECONDS, restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import (
    act,
    ok,
    open_table,
    settle,
    show_hand,
    start,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser


def sent(fake: FakeDiscord, method: str, ending: str) -> int:
    return sum(1 for r in fake.requests if r.method == method and r.path.endswith(ending))


@pytest.mark.parametrize("shard", [0, 1])
@pytest.mark.new_application
async def test_only_the_process_on_shard_zero_publishes_and_uploads(
    fake_discord: FakeDiscord, bot_env: dict[str, str], shard: int
) -> None:
    env = {
        **bot_env,
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        "DISCORD_IDENTIFY_SECONDS": str(TEST_IDENTIFY_SECONDS),
    }
    with restored_endpoints():
        bot = await start_bot(env, timeout=15)
        try:
            assert isinstance(bot, ShardedCardTableBot)
            assert bot.shard_count == 2 and set(bot.shards) == {shard}
            assert fake_discord.connected_shards == {shard}
            if shard == 0:
                await asyncio.wait_for(FACES.ready.wait(), 20)
            else:  # it lists the emojis (and will again), it never uploads
                await fake_discord.wait_for(lambda: sent(fake_discord, "GET", "/emojis"), 5)
            await settle(fake_discord)
            publishing = shard == 0
            assert bool(sent(fake_discord, "PUT", "/commands")) is publishing
            assert bool(sent(fake_discord, "POST", "/emojis")) is publishing
            assert len(fake_discord.app_emojis) == (53 if publishing else 0)
            assert fake_discord.errors == []
            if publishing:  # /ping in a server of this shard says which shard serves it
                guild = fake_discord.add_guild("Near", shard=(0, 2))
                await fake_discord.dispatch("GUILD_CREATE", fake_discord.guild_payload(guild))
                member = FakeUser(fake_discord, fake_discord.add_member("nia", guild).user)
                channel = fake_discord.add_channel("play", guild)
                await fake_discord.dispatch("CHANNEL_CREATE", channel.payload())
                pinged = ok(await member.slash("ping", channel=channel))
                assert "Shard" in pinged.text and "0 of 2" in pinged.text
            else:  # the other process uploads them: this one finds them later
                for name in emoji_names():
                    fake_discord.add_app_emoji(name)
                await asyncio.wait_for(FACES.ready.wait(), 20)
                assert len(FACES.emojis) == 53
                assert not sent(fake_discord, "POST", "/emojis")
        finally:
            await stop_bot(bot)


async def test_an_interaction_delivered_twice_is_handled_once(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    joined = ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.tables[table_id]
    mover = alice if table.seat_of(alice.id) in table.waiting_for() else bob
    moved = await act(mover, await show_hand(mover, table_id), random.Random(3))
    assert moved is not None
    await settle(fake_discord)
    moves, seats = table.moves, dict(table.seats)
    messages = len(fake_discord.messages)
    for result in (joined, moved):  # Discord sends the same interaction again
        await fake_discord.dispatch("INTERACTION_CREATE", result.interaction.payload)
    # Handled again, each would be answered a moment later (and Discord would refuse it).
    await fake_discord.quiet(idle=0.5, timeout=10)
    assert table.moves == moves and table.seats == seats
    assert len(fake_discord.messages) == messages, "no second answer, no new message"
    assert joined.interaction.errors == moved.interaction.errors == []
    assert fake_discord.errors == []
