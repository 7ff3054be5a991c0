"""A table whose channel (or thread) is deleted is closed for good: abandoned and unrated with
the reason kept, its players free to sit elsewhere, and no update retried into the void. A
transient failure (5xx) of the same channel is still retried."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import ok, open_table, start, table_message, wait_for_table
from tests.fakediscord import FakeDiscord, FakeUser


def stored(env: dict[str, str], table_id: int) -> tuple[str, str | None, dict[str, Any] | None]:
    """The table's status, and its result's unrated reason and outcome (None: no result)."""
    with sqlite3.connect(env["DATABASE_PATH"]) as db:
        row = db.execute("SELECT status FROM game_tables WHERE id = ?", (table_id,)).fetchone()
        result = db.execute(
            "SELECT unrated_reason, outcome FROM results WHERE table_id = ?", (table_id,)
        ).fetchone()
    db.close()
    if result is None:
        return str(row[0]), None, None
    return str(row[0]), result[0], json.loads(result[1])


async def two_humans_playing(fake: FakeDiscord, alice: FakeUser, bob: FakeUser) -> int:
    """A tiny game of two people: it waits on them, so nothing but the deletion ends it."""
    table_id = await open_table(fake, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    await start(fake, alice, table_id)
    await wait_for_table(alice, table_id, "Show my hand", button=True)
    return table_id


def requests_to(fake: FakeDiscord, channel_id: int) -> int:
    return sum(f"/channels/{channel_id}/" in r.path for r in fake.requests)


async def test_a_deleted_channel_closes_its_tables_at_once(
    fake_discord: FakeDiscord, running_bot: Any, bot_env: dict[str, str]
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    playing = await two_humans_playing(fake_discord, alice, bob)
    carol = fake_discord.user("carol")
    lobby = await open_table(fake_discord, carol, "tiny")
    channel = fake_discord.default_channel
    sent = requests_to(fake_discord, channel.id)
    await fake_discord.delete_channel(channel)
    sessions = running_bot.sessions
    await fake_discord.wait_for(lambda: not sessions.tables, timeout=10)
    status, reason, outcome = stored(bot_env, playing)
    assert status == "abandoned" and outcome is not None
    assert reason == "the game was abandoned (its channel was deleted)"
    assert outcome["reason"] == "its channel was deleted" and outcome["winners"] == []
    assert stored(bot_env, lobby) == ("cancelled", None, None)
    elsewhere = fake_discord.add_channel("cards")
    new = ok(await alice.slash("table new", channel=elsewhere, game="tiny"))
    assert "already" not in new.text, "the players are free to sit at another table"
    await fake_discord.quiet(idle=1.0, timeout=30)
    assert requests_to(fake_discord, channel.id) == sent, "nothing is sent into the void"


async def test_a_channel_deleted_while_the_bot_was_away_closes_its_table_at_the_next_start(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.default_channel
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            table_id = await two_humans_playing(fake_discord, alice, bob)
        finally:
            await stop_bot(bot)
        await fake_discord.delete_channel(channel)  # the bot hears nothing of it
        broken = fake_discord.fail(f"/channels/{channel.id}/", 503, times=2)
        bot = await start_bot(bot_env)
        try:
            await fake_discord.wait_for(lambda: broken.remaining == 0, timeout=10)
            await fake_discord.wait_for(lambda: not bot.sessions.tables, timeout=20)
            status, reason, _ = stored(bot_env, table_id)
            assert status == "abandoned" and reason is not None and "channel" in reason
            await fake_discord.quiet()
            before = requests_to(fake_discord, channel.id)
        finally:
            await stop_bot(bot)
        bot = await start_bot(bot_env)  # the next start owes that channel nothing
        try:
            await fake_discord.quiet(idle=0.5, timeout=30)
            assert requests_to(fake_discord, channel.id) == before
        finally:
            await stop_bot(bot)


async def test_a_deleted_thread_closes_the_table_in_it(
    fake_discord: FakeDiscord, running_bot: Any, bot_env: dict[str, str]
) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", threads=True))
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await two_humans_playing(fake_discord, alice, bob)
    thread = table_message(alice, table_id).channel_id
    assert thread != fake_discord.default_channel.id, "the table is in its own thread"
    await fake_discord.delete_channel(thread)
    await fake_discord.wait_for(lambda: not running_bot.sessions.tables, timeout=10)
    assert stored(bot_env, table_id)[0] == "abandoned"
    assert fake_discord.find_channel(fake_discord.default_channel.id), "only the thread went"


async def test_a_deleted_channel_closes_the_tables_in_its_threads(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    """Discord sends no THREAD_DELETE for the threads that go with their channel: the bot
    knows its tables' threads (from its cache, also after a restart) and closes them at once."""
    admin = fake_discord.user("admin", admin=True)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            ok(await admin.slash("settings server", threads=True))
            table_id = await two_humans_playing(fake_discord, alice, bob)
        finally:
            await stop_bot(bot)
        bot = await start_bot(bot_env)  # the thread is known from the server's own list
        try:
            await wait_for_table(alice, table_id, "Show my hand", button=True)
            thread = table_message(alice, table_id).channel_id
            assert thread != fake_discord.default_channel.id, "the table is in its own thread"
            sent = requests_to(fake_discord, thread)
            await fake_discord.delete_channel(fake_discord.default_channel)
            await fake_discord.wait_for(lambda: not bot.sessions.tables, timeout=10)
            status, reason, _ = stored(bot_env, table_id)
            assert status == "abandoned" and reason is not None and "channel" in reason
            await fake_discord.quiet(idle=0.5, timeout=30)
            assert requests_to(fake_discord, thread) == sent, "nothing is sent into the void"
        finally:
            await stop_bot(bot)
