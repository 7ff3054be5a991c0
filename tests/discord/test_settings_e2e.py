"""End to end: server settings, turn pings and trick lines in threads."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.store import GuildSettings
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import (
    act,
    ok,
    open_table,
    show_hand,
    table_message,
    table_messages,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser, Message


async def until(check: Callable[[], Any], timeout: float = 5.0, what: str = "") -> Any:
    """Wait for the bot's work to show (polling what the fake recorded), up to ``timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (found := check()):
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.02)
    return found


def bot_messages(fake: FakeDiscord, starts: str, channel_id: int | None = None) -> list[Message]:
    """Every public message the bot posted whose text starts so (deleted ones included)."""
    return [
        m
        for m in sorted(fake.messages.values(), key=lambda m: m.id)
        if not m.is_ephemeral
        and m.content.startswith(starts)
        and (channel_id is None or m.channel_id == channel_id)
    ]


async def test_members_without_manage_server_change_nothing(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    guild = fake_discord.default_guild.id
    before = await running_bot.store.guild_settings(guild, 60)
    member = fake_discord.user("member")
    for command, options in (
        ("settings server", {"computers": False, "rated": False, "turn_seconds": 30}),
        ("settings defaults", {"game": "tarneeb", "option": "target", "value": "31"}),
        ("settings reset_defaults", {"game": "tarneeb"}),
        ("settings channels", {"action": "add", "text_channel": fake_discord.default_channel}),
    ):
        refused = ok(await member.slash(command, **options))
        assert refused.ephemeral and "Manage Server" in refused.text, command
    assert await running_bot.store.guild_settings(guild, 60) == before
    shown = ok(await member.slash("settings show"))  # anyone may look
    assert shown.ephemeral and "Turn timer" in str(shown.message.embeds[0])


async def test_a_default_option_applies_to_new_tables(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    suggested = await admin.autocomplete("settings defaults", "option", "tar", game="tarneeb")
    assert "target" in [c["value"] for c in suggested.choices]
    # FakeUser.autocomplete's own ``option`` argument hides the command's: build it directly.
    data, _ = admin._build_command_data(
        "settings defaults",
        {"game": "tarneeb", "option": "target", "value": ""},
        fake_discord.default_channel,
        focused="value",
    )
    values = await fake_discord.send_interaction(admin.user, 4, data, fake_discord.default_channel)
    assert [c["value"] for c in values.choices] == ["31", "41", "61"]
    wrong = ok(await admin.slash("settings defaults", game="tarneeb", option="target", value="40"))
    assert wrong.ephemeral and "one of 31, 41, 61" in wrong.text
    done = ok(await admin.slash("settings defaults", game="tarneeb", option="target", value="31"))
    assert "target=31" in str(done.message.embeds[0])
    table_id = await open_table(fake_discord, admin, "tarneeb")
    assert running_bot.sessions.find(table_id).row.options["target"] == 31
    explained = ok(await admin.slash("table options", game="tarneeb"))
    assert "This server's defaults: `target=31`" in str(explained.message.embeds[0])


async def test_a_bad_default_gets_one_clear_line_and_changes_nothing(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    guild = fake_discord.default_guild.id
    before = await running_bot.store.guild_settings(guild, 60)
    for value, reason in (
        ("²", "one word or a whole number"),
        ("5" * 5000, "one word or a whole number"),
        ("3 match_target=1", "one word or a whole number"),
        ("1" * 1500, "one word or a whole number"),
        ("20000", "turn_limit must be at most 10000"),
    ):
        refused = ok(
            await admin.slash("settings defaults", game="tunge", option="turn_limit", value=value)
        )
        assert refused.ephemeral and reason in refused.text, (value[:20], refused.text)
        assert "\n" not in refused.text and "went wrong" not in refused.text
    assert await running_bot.store.guild_settings(guild, 60) == before
    table_id = await open_table(fake_discord, admin, "tunge")
    assert running_bot.sessions.find(table_id).row.options["turn_limit"] == 500


async def test_a_new_tables_options_out_of_range_are_refused(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    for options, reason in (
        ("turn_limit=20000", "turn_limit must be at most 10000"),
        ("players=3 match_target=123456789", "match_target must be at most 10000"),
    ):
        refused = ok(await alice.slash("table new", game="tunge", options=options))
        assert refused.ephemeral and reason in refused.text, refused.text
    assert await running_bot.store.count_open_tables() == 0


async def test_resetting_a_games_defaults_clears_them_all(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings defaults", game="tarneeb", option="target", value="31"))
    ok(await admin.slash("settings defaults", game="tarneeb", option="hand_limit", value="50"))
    done = ok(await admin.slash("settings reset_defaults", game="tarneeb"))
    assert "Default options" not in str(done.message.embeds[0])
    stored = await running_bot.store.guild_settings(fake_discord.default_guild.id, 60)
    assert stored.defaults == {}


async def test_tables_open_only_in_the_listed_channels(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    games = fake_discord.add_channel("games")
    added = ok(await admin.slash("settings channels", action="add", text_channel=games))
    assert added.message.embeds and f"<#{games.id}>" in str(added.message.embeds[0]), added
    alice = fake_discord.user("alice")
    refused = ok(await alice.slash("table new", game="tiny"))
    assert refused.ephemeral and f"<#{games.id}>" in refused.text
    assert await running_bot.store.count_open_tables() == 0
    opened = await ok(await alice.slash("table new", game="tiny", channel=games)).wait_done()
    await fake_discord.quiet()
    assert "Table #" in " ".join([opened.text] + [m.text() for m in opened.followups])
    assert await running_bot.store.count_open_tables() == 1


async def test_computers_off_and_unrated_tables(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    done = ok(await admin.slash("settings server", computers=False, rated=False))
    shown = str(done.message.embeds[0])
    assert "Computer players may join: **off**" in shown and "rated: **off**" in shown
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tiny")
    stored = await running_bot.store.get_table(table_id)
    assert stored is not None and not stored.rated and not stored.computers
    lobby = table_message(alice, table_id)
    labels = [button.get("label") for button in lobby.buttons()]
    assert "Join" in labels, labels
    assert "Add computer player" not in labels and "Fill with computers" not in labels
    assert "Unrated" in lobby.text() and "Computer level" not in lobby.text()
    refused = ok(await alice.crafted_component(lobby, f"ct:l:{table_id}:cpu"))  # an old client
    assert refused.ephemeral
    assert "*empty*" in table_message(alice, table_id).text(), "the seat is still free"


async def two_humans(fake: FakeDiscord, bot: Any) -> tuple[int, FakeUser, FakeUser]:
    alice, bob = fake.user("alice"), fake.user("bob")
    table_id = await open_table(fake, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    ok(await alice.click(table_message(alice, table_id), "Start"))
    await wait_for_table(alice, table_id, "Show my hand")
    return table_id, alice, bob


async def test_a_turn_ping_comes_with_the_turn_and_goes_with_the_move(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    on = ok(await alice.slash("settings me", turn_ping="on"))
    assert "Turn ping: **on**" in on.text
    table_id, alice, bob = await two_humans(fake_discord, running_bot)
    table = running_bot.sessions.find(table_id)
    users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
    rng = random.Random(5)
    pinged: list[Message] = []
    for _ in range(3):  # three of Alice's turns
        while users[table.game.to_act()[0]] is bob:
            assert await act(bob, await show_hand(bob, table_id), rng)
        ping = await until(
            lambda: [m for m in bot_messages(fake_discord, f"<@{alice.id}>") if not m.deleted],
            what="Alice's turn ping",
        )
        assert len(ping) == 1
        assert f"your turn at Table #{table_id} (" in ping[0].content
        assert "https://discord.com/channels/" in ping[0].content
        pinged.append(ping[0])
        if table.game.status != "in_progress":
            break
        assert await act(alice, await show_hand(alice, table_id), rng)
        current = ping[0]
        await until(lambda: current.deleted, what="the ping deleted once Alice moved")  # noqa: B023
    assert len({m.id for m in pinged}) == len(pinged), "a new ping each turn"
    await fake_discord.quiet()
    everything = bot_messages(fake_discord, f"<@{alice.id}>")
    assert everything[: len(pinged)] == pinged
    assert len(everything) <= len(pinged) + 1, "one ping per turn, not per board edit"
    live = [m.id for m in everything if not m.deleted]
    stored = await running_bot.sessions.turn_pings(table_id)
    assert [p.message_id for p in stored] == live, "the database knows the pending ping"
    assert bot_messages(fake_discord, f"<@{bob.id}>") == [], "Bob did not ask for pings"


async def test_the_turn_ping_goes_when_the_table_closes(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    ok(await alice.slash("settings me", turn_ping="on"))
    table_id, alice, bob = await two_humans(fake_discord, running_bot)
    table = running_bot.sessions.find(table_id)
    if table.seat_of(alice.id) not in table.game.to_act():
        assert await act(bob, await show_hand(bob, table_id), random.Random(1))
    ping = await until(lambda: bot_messages(fake_discord, f"<@{alice.id}>"), what="a ping")
    ok(await fake_discord.user("admin", admin=True).slash("table abandon", table=table_id))
    await until(lambda: ping[0].deleted, what="the ping deleted with the table")
    await fake_discord.quiet()
    assert await running_bot.sessions.turn_pings(table_id) == []


async def test_trick_lines_are_posted_in_the_tables_thread(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", threads=True))
    alice = fake_discord.user("alice")
    ok(await alice.slash("table new", game="tiny"))
    await fake_discord.quiet()
    lobby = table_messages(alice)[-1]
    thread = lobby.channel_id
    assert thread != fake_discord.default_channel.id
    table_id = int(lobby.embeds[0]["title"].split("#")[1].split()[0])
    ok(await alice.click(lobby, "Add computer player"))
    await wait_for_table(alice, table_id, "Start", button=True)
    ok(await alice.click(table_message(alice, table_id), "Start"))
    rng = random.Random(3)
    table = running_bot.sessions.find(table_id)
    while table.game.status == "in_progress" and not bot_messages(fake_discord, "Trick", thread):
        if table.seat_of(alice.id) in table.game.to_act():
            await act(alice, await show_hand(alice, table_id), rng)
        await asyncio.sleep(0.02)
    line = (await until(lambda: bot_messages(fake_discord, "Trick", thread)))[0]
    assert " wins with " in line.content
    assert bot_messages(fake_discord, "Trick", fake_discord.default_channel.id) == []


async def test_a_running_table_keeps_its_trick_lines_when_the_server_turns_them_off(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", threads=True, trick_lines=True))
    alice = fake_discord.user("alice")
    ok(await alice.slash("table new", game="tiny"))
    await fake_discord.quiet()
    lobby = table_messages(alice)[-1]
    thread = lobby.channel_id
    table_id = int(lobby.embeds[0]["title"].split("#")[1].split()[0])
    ok(await alice.click(lobby, "Add computer player"))
    await wait_for_table(alice, table_id, "Start", button=True)
    ok(await alice.click(table_message(alice, table_id), "Start"))
    ok(await admin.slash("settings server", trick_lines=False))  # while the table runs
    rng = random.Random(3)
    table = running_bot.sessions.find(table_id)
    while table.game.status == "in_progress" and not bot_messages(fake_discord, "Trick", thread):
        if table.seat_of(alice.id) in table.game.to_act():
            await act(alice, await show_hand(alice, table_id), rng)
        await asyncio.sleep(0.02)
    line = (await until(lambda: bot_messages(fake_discord, "Trick", thread), what="a line"))[0]
    assert " wins " in line.content, "the running table keeps the lines it opened with"


async def test_trick_lines_can_be_turned_off(fake_discord: FakeDiscord, running_bot: Any) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", threads=True, trick_lines=False))
    table_id = await open_table(fake_discord, admin, "tiny")
    ok(await admin.click(table_message(admin, table_id), "Add computer player"))
    await wait_for_table(admin, table_id, "Start", button=True)
    ok(await admin.click(table_message(admin, table_id), "Start"))
    table = running_bot.sessions.find(table_id)
    rng = random.Random(4)
    while table.game is not None and table.game.status == "in_progress" and table.moves < 6:
        if table.seat_of(admin.id) in table.game.to_act():
            await act(admin, await show_hand(admin, table_id), rng)
        await asyncio.sleep(0.02)
    await fake_discord.quiet()
    assert bot_messages(fake_discord, "Trick") == []


async def test_a_restart_neither_repeats_nor_forgets_a_turn_ping(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    alice = fake_discord.user("alice")
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            ok(await alice.slash("settings me", turn_ping="on"))
            table_id, alice, bob = await two_humans(fake_discord, bot)
            table = bot.sessions.find(table_id)
            if table.seat_of(alice.id) not in table.game.to_act():
                assert await act(bob, await show_hand(bob, table_id), random.Random(2))
            ping = (await until(lambda: bot_messages(fake_discord, f"<@{alice.id}>")))[0]
            await fake_discord.quiet()
        finally:
            await stop_bot(bot)
        bot = await start_bot(bot_env)
        try:
            await fake_discord.quiet(idle=0.3)
            assert bot_messages(fake_discord, f"<@{alice.id}>") == [ping], "not posted again"
            assert not ping.deleted, "still Alice's turn"
            assert await act(alice, await show_hand(alice, table_id), random.Random(3))
            await until(lambda: ping.deleted, what="the adopted ping deleted after the move")
        finally:
            await stop_bot(bot)


async def test_the_turn_ping_goes_when_the_timer_hands_the_turn_to_a_computer(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    await running_bot.store.save_guild_settings(
        GuildSettings(fake_discord.default_guild.id, 2, False)  # a two-second turn timer
    )
    alice = fake_discord.user("alice")
    ok(await alice.slash("settings me", turn_ping="on"))
    table_id, alice, bob = await two_humans(fake_discord, running_bot)
    table = running_bot.sessions.find(table_id)
    seat = table.seat_of(alice.id)
    if seat not in table.game.to_act():  # Bob moves at once, so he is in his seat
        assert await act(bob, await show_hand(bob, table_id), random.Random(6))
    ping = (await until(lambda: bot_messages(fake_discord, f"<@{alice.id}>")))[0]
    await until(lambda: table.seats[seat].away, 8.0, "Alice timed out")
    assert not table.seats[table.seat_of(bob.id)].away, "a computer plays for Alice"
    await until(lambda: ping.deleted, what="the ping deleted when a computer took the turn")
    assert [m for m in bot_messages(fake_discord, f"<@{alice.id}>") if not m.deleted] == [], (
        "no ping while a computer plays for Alice"
    )
