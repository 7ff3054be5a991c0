"""Turn timers, away seats and abandoned tables, and tables in their own threads."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.store import GuildSettings
from tests.discord.table_driver import (
    ok,
    open_table,
    show_hand,
    table_message,
    table_messages,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord


async def two_human_table(fake: FakeDiscord, bot: Any) -> tuple[int, Any, Any]:
    alice, bob = fake.user("alice"), fake.user("bob")
    table_id = await open_table(fake, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    ok(await alice.click(table_message(alice, table_id), "Start"))
    await wait_for_table(alice, table_id, "Show my hand")
    return table_id, alice, bob


async def test_a_timed_out_player_is_replaced_and_comes_back(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    await running_bot.store.save_guild_settings(
        GuildSettings(fake_discord.default_guild.id, 1, False)
    )
    table_id, alice, bob = await two_human_table(fake_discord, running_bot)
    table = running_bot.sessions.tables[table_id]
    slow_seat = table.game.to_act()[0]
    slow = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}[slow_seat]
    await wait_for_table(alice, table_id, "turn ends")
    message = await wait_for_table(alice, table_id, "I'm back", timeout=5)
    away = rf"{re.escape(table.names[slow_seat])} \([^)]*\baway\)"  # the picture says so
    assert re.search(away, message.text()), message.text()
    assert table.moves >= 1, "a computer played the timed-out turn"
    back = ok(await slow.click(message, "I'm back"))
    assert back.ephemeral and "Welcome back" in str(back.message.embeds[0])
    assert not table.seats[slow_seat].away
    hand = await show_hand(slow, table_id)
    assert hand.embeds


async def test_a_table_whose_humans_are_all_away_is_abandoned(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    await running_bot.store.save_guild_settings(
        GuildSettings(fake_discord.default_guild.id, 1, False)
    )
    running_bot.sessions.abandon_seconds = 1.0
    table_id, alice, _ = await two_human_table(fake_discord, running_bot)
    await wait_for_table(alice, table_id, "abandoned", timeout=8)
    stored = await running_bot.store.get_table(table_id)
    assert stored.status == "abandoned"
    assert table_id not in running_bot.sessions.tables
    board = await running_bot.store.leaderboard(fake_discord.default_guild.id)
    assert board == [], "abandoned games do not count"


async def test_tables_open_in_threads_when_the_server_says_so(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    member = fake_discord.user("member")
    refused = ok(await member.slash("settings server", threads=True))  # the bot checks
    assert refused.ephemeral and "Manage Server" in refused.text
    done = ok(await admin.slash("settings server", threads=True))
    assert "own threads: **on**" in str(done.message.embeds[0])
    result = ok(await admin.slash("table new", game="tiny"))
    await asyncio.sleep(0.1)
    await fake_discord.quiet()
    lobby = table_messages(admin)[-1]
    assert lobby.channel_id != fake_discord.default_channel.id, "the lobby is in a thread"
    assert fake_discord.find_channel(lobby.channel_id) is not None
    assert "Table #" in result.text or result.followups


async def test_two_tables_in_one_channel_and_leaving_mid_game(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    table_id, alice, bob = await two_human_table(fake_discord, running_bot)
    carol = fake_discord.user("carol")
    other = await open_table(fake_discord, carol, "tiny")
    assert other != table_id
    assert table_message(carol, other).channel_id == table_message(carol, table_id).channel_id
    busy = ok(await bob.click(table_message(bob, other), "Join"))
    assert busy.ephemeral and "already seated" in busy.text, "one table at a time per server"
    left = ok(await bob.slash("table leave"))
    assert left.ephemeral and "plays your seat" in left.text
    table = running_bot.sessions.tables[table_id]
    assert table.seat_of(bob.id) is None, "a computer has the seat: Bob is free"
    await wait_for_table(alice, table_id, "🤖")
    ok(await bob.click(table_message(bob, other), "Join"))
    assert running_bot.sessions.tables[other].seat_of(bob.id) is not None
