"""End to end: /history lists a server's games, exports a transcript that replays to
the same final score, refuses a game still being played, keeps servers apart, and
/privacy forget takes a person out of it.

Two servers: Card Club (the fake's default) and Other Club, where alice is also a member and dave
only. The bot is started once both exist, as it would find them on connecting.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from cogs.errors import NOTHING
from cogs.history import EXPORT_PLACEHOLDER, NO_GAMES, NOT_A_MEMBER
from games.__main__ import main as games_cli
from games.transcript import replay
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    ok,
    open_table,
    show_hand,
    start,
    table_id_of,
    table_messages,
)
from tests.fakediscord import ClientRefused, FakeDiscord, FakeUser, InteractionResult, Message
from tests.fakediscord.model import Channel

PAGE_TIMEOUT = 30.0


@pytest.fixture
async def two_servers(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> AsyncIterator[tuple[Any, Channel]]:
    """The bot, connected to Card Club and to Other Club (whose channel is returned)."""
    other = fake_discord.add_guild("Other Club")
    lounge = fake_discord.add_channel("lounge", other)
    fake_discord.add_member("alice", other)
    fake_discord.add_member("dave", other)
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            yield bot, lounge
        finally:
            await stop_bot(bot)


def member_of_other(fake: FakeDiscord, name: str) -> FakeUser:
    user = next(u for u in fake.users.values() if u.name == name)
    return FakeUser(fake, user)


async def play_out(fake: FakeDiscord, bot: Any, user: FakeUser, table_id: int) -> None:
    """The one human plays whenever it is their turn (computers play the other seats)."""
    rng = random.Random(table_id)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PAGE_TIMEOUT
    while table_id in bot.sessions.tables:
        assert loop.time() < deadline, "the game did not finish"
        table = bot.sessions.tables[table_id]
        seat = table.seat_of(user.id)
        if table.game is not None and seat in table.game.to_act():
            await act(user, await show_hand(user, table_id), rng)
        else:
            await asyncio.sleep(0.02)


def attachment_of(fake: FakeDiscord, result: InteractionResult) -> tuple[str, bytes]:
    message = result.message
    assert message is not None and result.ephemeral, result
    (attachment,) = message.attachments
    return str(attachment["filename"]), fake.attachment_bytes(attachment)


def history_text(message: Message) -> str:
    return message.text()


async def test_history_export_replay_refusals_and_servers_apart(
    fake_discord: FakeDiscord, two_servers: tuple[Any, Channel], tmp_path: Path
) -> None:
    bot, lounge = two_servers
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    dave = member_of_other(fake_discord, "dave")

    # Alice plays a short game of Norwegian Whist against three computers, to the end.
    finished = await open_table(fake_discord, alice, "norwegian_whist", "target=1")
    await fill_with_computers(fake_discord, alice, finished)
    await start(fake_discord, alice, finished)
    await play_out(fake_discord, bot, alice, finished)
    # Bob's game is still being played.
    playing = await open_table(fake_discord, bob, "norwegian_whist")
    await fill_with_computers(fake_discord, bob, playing)
    await start(fake_discord, bob, playing)
    assert playing in bot.sessions.tables

    # Carol, who sat at neither table, looks at the history.
    listed = ok(await carol.slash("history"))
    page = listed.message
    assert page is not None and page.is_ephemeral, "a page lists what its asker may see"
    text = history_text(page)
    assert f"#{finished}" in text and "Norwegian Whist" in text and "Alice" in text
    assert f"#{playing}" not in text, "a game in play is not listed"
    assert "Page 1" in text
    labels = [b.get("label") for b in page.buttons()]
    assert labels == ["◀ Previous", "Next ▶"]
    assert all(b.get("disabled") for b in page.buttons()), "one page only"

    # She exports it: a file, only for her, that replays to the stored final score.
    exported = ok(await carol.select(page, EXPORT_PLACEHOLDER, [str(finished)]))
    name, data = attachment_of(fake_discord, exported)
    assert name == f"table-{finished}-norwegian_whist.json"
    assert exported.message is not None and exported.message.ephemeral_to == carol.id
    path = tmp_path / name
    path.write_bytes(data)
    rows = await bot.store.fetch("SELECT outcome FROM results WHERE table_id = ?", (finished,))
    stored = json.loads(rows[0]["outcome"])
    assert games_cli(["replay", str(path)]) == 0
    transcript = json.loads(data)
    assert transcript["game"] == "norwegian_whist" and transcript["options"]["target"] == 1
    replayed = replay(transcript)
    assert replayed["status"] == "finished" and replayed["score"] == stored["score"]
    assert str(stored["score"][0]) in text, "the page shows the final score"

    # A game still being played is refused, to its onlookers and to its own player.
    bobs_page = ok(await bob.slash("history")).message
    assert bobs_page is not None
    for who, own_page in ((carol, page), (bob, bobs_page)):
        refused = ok(await who.crafted_component(own_page, "ct:hx", [str(playing)]))
        assert refused.ephemeral and "still being played" in refused.text
        assert refused.message is not None and not refused.message.attachments
    for crafted in (["0"], ["x"], [str(10**30)], [str(finished), str(finished)], []):
        refused = ok(await carol.crafted_component(page, "ct:hx", crafted))
        assert refused.ephemeral and refused.message is not None
        assert not refused.message.attachments, crafted

    # The other server sees nothing of this one, even by a crafted table number on its own
    # history's export menu (after a game of its own, so that the menu is there).
    other_page = ok(await dave.slash("history", channel=lounge))
    assert other_page.message is not None and NO_GAMES in other_page.message.text()
    ok(await dave.slash("table new", channel=lounge, game="tiny"))
    await fake_discord.quiet()
    theirs = table_id_of(table_messages(dave)[-1])
    await fill_with_computers(fake_discord, dave, theirs)
    await start(fake_discord, dave, theirs)
    await play_out(fake_discord, bot, dave, theirs)
    for who in (dave, member_of_other(fake_discord, "alice")):
        other = ok(await who.slash("history", channel=lounge))
        assert other.message is not None
        assert f"#{theirs}" in other.message.text()
        assert f"#{finished}" not in other.message.text()
        stolen = ok(await who.crafted_component(other.message, "ct:hx", [str(finished)]))
        assert stolen.ephemeral and f"no game #{finished} in this server" in stolen.text
        assert stolen.message is not None and not stolen.message.attachments
    mine = ok(await dave.slash("history", channel=lounge, player="alice"))
    assert mine.message is not None and NO_GAMES in mine.message.text()
    here = ok(await carol.slash("history"))
    assert here.message is not None and f"#{theirs}" not in here.message.text()
    assert fake_discord.errors == [] and fake_discord.unknown_routes == []


async def closed_tiny_game(store: Any, guild_id: int, host: int, name: str, channel_id: int) -> int:
    """A finished game written straight to the database (a result, no moves): history filler."""
    row = await store.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host,
        game="tiny",
        options={},
        seed=1,
        seats=[(host, name), (None, "🤖 Ada")],
    )
    await store.start_game(row.id, 0, [])
    await store.record_result(
        row, "finished", {"winners": [0], "score": [2, 1], "abandoned": False}, [(host, 0, True)]
    )
    return int(row.id)


def button(message: Message, label: str) -> dict[str, Any]:
    return next(b for b in message.buttons() if b.get("label") == label)


async def test_pages_of_a_players_games_survive_a_restart(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    guild, channel = fake_discord.default_guild.id, fake_discord.default_channel.id
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            played = {}
            for user in (alice, bob):
                table_id = await open_table(fake_discord, user, "tiny")
                await fill_with_computers(fake_discord, user, table_id)
                await start(fake_discord, user, table_id)
                await play_out(fake_discord, bot, user, table_id)
                played[user.name] = table_id
            filler = [
                await closed_tiny_game(bot.store, guild, alice.id, "Alice", channel)
                for _ in range(10)
            ]
            first = ok(await bob.slash("history", player=alice, game="tiny"))
            assert first.message is not None
            text = first.message.text()
            assert all(f"`#{t}`" in text for t in filler), "the ten newest of hers"
            assert f"`#{played['alice']}`" not in text and f"`#{played['bob']}`" not in text
            assert button(first.message, "◀ Previous").get("disabled")
            assert not button(first.message, "Next ▶").get("disabled")
            none = ok(await bob.slash("history", game="thunee"))
            assert none.message is not None and NO_GAMES in none.message.text()
            bad = ok(await bob.slash("history", game="g" * 300))
            assert bad.ephemeral and "no game called" in bad.text
        finally:
            await stop_bot(bot)

        bot = await start_bot(bot_env)  # the buttons work after a restart
        try:
            second = ok(await bob.click(first.message, "Next ▶"))
            assert second.message is not None and second.message.id == first.message.id
            text = second.message.text()
            assert "Page 2" in text and f"`#{played['alice']}`" in text
            assert f"`#{played['bob']}`" not in text and f"`#{filler[0]}`" not in text
            assert button(second.message, "Next ▶").get("disabled")
            back = ok(await bob.click(second.message, "◀ Previous"))
            assert back.message is not None and "Page 1" in back.message.text()
            assert f"`#{filler[-1]}`" in back.message.text()
        finally:
            await stop_bot(bot)


async def test_privacy_forget_takes_a_player_out_of_history_and_leaderboard(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    await play_out(fake_discord, running_bot, alice, table_id)
    board = ok(await bob.slash("leaderboard", game="tiny"))
    assert board.message is not None and f"<@{alice.id}>" in board.message.text()

    asked = ok(await alice.slash("privacy forget"))
    assert asked.ephemeral and asked.message is not None and "Forget me?" in asked.text
    # Only Alice sees the question; a crafted click elsewhere reaches no button.
    foreign = ok(await bob.crafted_component(board.message, f"ct:pf:{alice.id}:yes"))
    assert foreign.ephemeral and "nothing" in foreign.text
    assert (await running_bot.store.leaderboard(fake_discord.default_guild.id)) != []

    done = ok(await alice.click(asked.message, "Forget me"))
    assert done.message is not None and "you are forgotten" in done.message.text()
    assert not done.message.buttons(), "the question's buttons are gone"

    assert await running_bot.store.leaderboard(fake_discord.default_guild.id) == []
    board = ok(await bob.slash("leaderboard", game="tiny"))
    assert board.message is not None and f"<@{alice.id}>" not in board.message.text()
    listed = ok(await bob.slash("history"))
    assert listed.message is not None
    text = listed.message.text()
    assert f"#{table_id}" in text and "Former player" in text and "Alice" not in text
    mine = ok(await bob.slash("history", player=alice))
    assert mine.message is not None and NO_GAMES in mine.message.text()

    in_dm = ok(await alice.slash_in_dm("history"))
    assert in_dm.ephemeral and "server" in in_dm.text
    asked_in_dm = ok(await alice.slash_in_dm("privacy forget"))  # a person, not a server, asks
    assert asked_in_dm.ephemeral and "Forget me?" in asked_in_dm.text

    kept = ok(await alice.slash("privacy forget"))
    assert kept.message is not None
    answer = ok(await alice.click(kept.message, "Keep my data"))
    assert answer.message is not None and "Nothing was changed" in answer.message.text()
    assert fake_discord.errors == [] and fake_discord.unknown_routes == []


async def test_forged_history_values_get_a_one_line_refusal(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """A digit that is not 0-9 in the export menu or a page button, and a player id Discord
    never resolved, are refused in a line of their own: not the answer for a bug."""
    bob = fake_discord.user("bob")
    guild, channel = fake_discord.default_guild.id, fake_discord.default_channel.id
    table_id = await closed_tiny_game(running_bot.store, guild, bob.id, "Bob", channel)
    page = ok(await bob.slash("history"))
    assert page.message is not None and f"#{table_id}" in page.message.text()
    for custom_id, values, expected in (
        ("ct:hx", ["²"], "Choose one of the games offered."),
        ("ct:hx", [f"{table_id}²"], "Choose one of the games offered."),
        ("ct:hp:²:0:", None, NOTHING),
        ("ct:hp:0:²:", None, NOTHING),
        ("ct:pf:²:yes", None, NOTHING),
    ):
        refused = ok(await bob.crafted_component(page.message, custom_id, values))
        assert refused.ephemeral and refused.text == expected, (custom_id, values)
    for forged in ("1" * 31, "12345"):
        refused = ok(await bob.crafted_slash("history", {"player": forged}))
        assert refused.ephemeral and refused.text == NOT_A_MEMBER, forged
    assert fake_discord.errors == [] and fake_discord.unknown_routes == []


@pytest.fixture
async def secret_channel(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> AsyncIterator[tuple[Any, Channel]]:
    """The bot, connected once Card Club has #secret, a channel only alice and bob can view."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    secret = fake_discord.add_channel(
        "secret", private_to=[fake_discord.bot_user.id, alice.id, bob.id]
    )
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            yield bot, secret
        finally:
            await stop_bot(bot)


async def test_history_lists_and_exports_only_games_of_channels_the_asker_can_view(
    fake_discord: FakeDiscord, secret_channel: tuple[Any, Channel]
) -> None:
    bot, secret = secret_channel
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    admin = fake_discord.user("erin", admin=True)
    ok(await alice.slash("table new", channel=secret, game="tiny"))
    await fake_discord.quiet()
    hidden = table_id_of(table_messages(alice)[-1])
    await fill_with_computers(fake_discord, alice, hidden)
    await start(fake_discord, alice, hidden)
    await play_out(fake_discord, bot, alice, hidden)
    public = await open_table(fake_discord, carol, "tiny")
    await fill_with_computers(fake_discord, carol, public)
    await start(fake_discord, carol, public)
    await play_out(fake_discord, bot, carol, public)

    def listed(result: InteractionResult) -> set[int]:
        assert result.message is not None
        text = result.message.text()
        return {t for t in (hidden, public) if f"`#{t}`" in text}

    async def exports(user: FakeUser, page: Message, table_id: int) -> bool:
        result = ok(await user.crafted_component(page, "ct:hx", [str(table_id)]))
        assert result.ephemeral and result.message is not None
        if result.message.attachments:
            return True
        assert f"There is no game #{table_id} in this server's history." == result.text
        return False

    # Carol cannot view #secret: its game is neither listed nor exported to her.
    page = ok(await carol.slash("history"))
    assert listed(page) == {public}
    assert page.message is not None and not await exports(carol, page.message, hidden)
    assert listed(ok(await carol.slash("history", player=alice))) == set()
    # Bob, who can, and a server admin see both; so does Alice, who played it.
    for who in (bob, admin, alice):
        theirs = ok(await who.slash("history"))
        assert listed(theirs) == {hidden, public}, who.name
        assert theirs.message is not None and await exports(who, theirs.message, hidden)
    # Bob's page is his alone: Carol cannot see it, so cannot turn it either.
    bobs = ok(await bob.slash("history"))
    assert bobs.message is not None and bobs.message.is_ephemeral
    with pytest.raises(ClientRefused):
        await carol.crafted_component(bobs.message, "ct:hp:0:0:")

    # A moderator takes #secret from Alice and Bob: she still sees the game she played, he not.
    for who in (alice, bob):
        await fake_discord.edit_permissions(secret, who.id)
    assert listed(ok(await bob.slash("history"))) == {public}
    assert listed(ok(await bob.slash("history", player=alice))) == set()
    assert not await exports(bob, bobs.message, hidden)
    mine = ok(await alice.slash("history"))
    assert listed(mine) == {hidden, public}
    assert mine.message is not None and await exports(alice, mine.message, hidden)
    assert fake_discord.errors == [] and fake_discord.unknown_routes == []
