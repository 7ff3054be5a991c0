"""End to end: fill with computers, match lengths, Rematch, sitting in for a computer,
and leaving, through the real client against the fake Discord, by users who click what they see.
"""

from __future__ import annotations

import asyncio
from typing import Any

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.store import StoreUnavailable
from tests.discord.table_driver import (
    ok,
    open_table,
    play_humans_to_the_end,
    show_hand,
    someone_to_act,
    start,
    table_message,
    table_messages,
    two_play_a_tiny_game,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser, Message


def newest_with(user: FakeUser, text: str) -> Message:
    for message in reversed(user.visible_messages()):
        if not message.is_ephemeral and text in message.text():
            return message
    raise AssertionError(f"{user.name} sees no message with {text!r}")


def embed_text(message: Message) -> str:
    """What the message's embeds say, as Discord's markdown reads it."""
    parts = []
    for embed in message.embeds:
        parts.append(str(embed.get("description") or ""))
        parts.extend(str(f.get("value")) for f in embed.get("fields", []))
    return "\n".join(parts)


async def test_fill_with_computers_is_one_click_of_the_host(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    refused = ok(await bob.click(table_message(bob, table_id), "Fill with computers"))
    assert refused.ephemeral and "Only the host" in refused.text
    ok(await alice.click(table_message(alice, table_id), "Fill with computers"))
    lobby = await wait_for_table(alice, table_id, "🤖 Babbage")
    assert "*empty*" not in lobby.text() and lobby.text().count("🤖") >= 2
    assert "Fill with computers" not in [b.get("label") for b in lobby.buttons()]
    stored = await running_bot.store.seats(table_id)
    assert [s.user_id for s in stored] == [alice.id, bob.id, None, None]


async def test_a_length_preset_sets_the_live_games_options(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    lobby = table_message(alice, table_id)
    assert "**Standard**: first to 41 points" in lobby.text()
    ok(await bob.click(lobby, "Join"))
    refused = ok(await bob.click(table_message(bob, table_id), "Short: first to 31 points"))
    assert refused.ephemeral and "Only the host" in refused.text
    ok(await alice.click(table_message(alice, table_id), "Short: first to 31 points"))
    lobby = await wait_for_table(alice, table_id, "**Short**: first to 31 points")
    labels = [b.get("label") for b in lobby.buttons()]
    assert "Short: first to 31 points" not in labels, "the chosen length is not offered again"
    assert "Standard: first to 41 points" in labels and "Long: first to 61 points" in labels
    stored = await running_bot.store.get_table(table_id)
    assert stored.options["target"] == 31, "kept in the database (survives a restart)"
    ok(await alice.click(table_message(alice, table_id), "Fill with computers"))
    await fake_discord.quiet()
    await start(fake_discord, alice, table_id)
    game = running_bot.sessions.tables[table_id].game
    assert game is not None and game.options["target"] == 31


async def test_rematch_seats_the_same_people_turned_after_each_confirms(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    await start(fake_discord, alice, table_id)
    old = running_bot.sessions.tables[table_id]
    seats_before = {alice.id: old.seat_of(alice.id), bob.id: old.seat_of(bob.id)}
    await play_humans_to_the_end(fake_discord, running_bot, table_id, [alice, bob])
    final = await wait_for_table(alice, table_id, "Rematch", button=True)

    opened = ok(await alice.click(final, "Rematch"))
    assert opened.ephemeral and "rematch is open" in opened.text
    await fake_discord.quiet()
    lobby = table_messages(bob)[-1]
    new_id = int(lobby.embeds[0]["title"].split("#")[1])
    assert new_id != table_id and f"<@{bob.id}>" in lobby.content, "Bob is called to confirm"
    new = running_bot.sessions.tables[new_id]
    # two seats and no teams: each person moves one seat on
    assert new.seat_of(alice.id) == seats_before[bob.id]
    assert new.seat_of(bob.id) == seats_before[alice.id]
    assert "waiting for" in lobby.text()

    again = ok(await alice.click(final, "Rematch"))  # a second click changes nothing
    assert again.ephemeral and "You are in the rematch" in again.text
    assert await running_bot.store.rematch_of(table_id) == new_id
    early = ok(await alice.click(table_message(alice, new_id), "Start"))
    assert early.ephemeral and "Waiting for Bob" in early.text

    ok(await bob.click(table_message(bob, new_id), "Join"))
    twice = ok(await bob.click(table_message(bob, new_id), "Join"))
    assert twice.ephemeral and "already seated" in twice.text
    await fake_discord.quiet()
    await start(fake_discord, alice, new_id)
    assert new.row.status == "playing"
    assert {s.user_id for s in new.seats.values()} == {alice.id, bob.id}


async def test_two_rematch_clicks_while_discord_is_slow_post_one_lobby(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await two_play_a_tiny_game(fake_discord, running_bot, alice, bob)
    final = await wait_for_table(alice, table_id, "Rematch", button=True)
    await fake_discord.quiet()

    fake_discord.rate_limit("POST /channels/", retry_after=1.0)  # the lobby's post waits
    first, second = await asyncio.gather(alice.click(final, "Rematch"), bob.click(final, "Rematch"))
    for result in (first, second):
        ok(await result.wait_done())
    await fake_discord.quiet()
    assert fake_discord.rate_limits[-1].remaining == 0, "Discord did ask the bot to wait"
    new_id = await running_bot.store.rematch_of(table_id)
    lobbies = [m for m in table_messages(alice) if f"table #{new_id}" in m.embeds[0]["title"]]
    assert len(lobbies) == 1, "one table, one lobby message"
    assert running_bot.sessions.tables[new_id].row.message_id == lobbies[0].id
    assert all(f"table #{new_id}" in r.text for r in (first, second)), "both are shown where"


async def test_a_rematch_message_the_database_did_not_keep_is_not_left_behind(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await alice.click(table_message(alice, table_id), "Fill with computers"))
    await fake_discord.quiet()
    await start(fake_discord, alice, table_id)
    await play_humans_to_the_end(fake_discord, running_bot, table_id, [alice])
    final = await wait_for_table(alice, table_id, "Rematch", button=True)
    store = running_bot.store
    original = store.set_table_message

    async def locked(*_: Any, **__: Any) -> Any:
        store.set_table_message = original  # once
        raise StoreUnavailable("database is locked")

    store.set_table_message = locked
    paused = ok(await alice.click(final, "Rematch"))
    await paused.wait_done()
    assert "paused" in paused.text
    again = ok(await alice.click(final, "Rematch"))
    await again.wait_done()
    await fake_discord.quiet()
    new_id = await store.rematch_of(table_id)
    assert f"table #{new_id}" in again.text
    shown = [
        m
        for m in fake_discord.messages.values()
        if not m.deleted and m.embeds and f"table #{new_id}" in str(m.embeds[0].get("title"))
    ]
    assert [m.id for m in shown] == [running_bot.sessions.tables[new_id].row.message_id]


async def test_a_late_player_sits_in_for_a_computer(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await alice.click(table_message(alice, table_id), "Fill with computers"))
    await fake_discord.quiet()
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.tables[table_id]
    await fake_discord.wait_for(lambda: table.seat_of(alice.id) in table.waiting_for())
    computer_seat = next(s for s in table.seats.values() if s.computer).seat

    board = await wait_for_table(carol, table_id, "Sit in", button=True)
    none_yet = ok(await carol.click(board, "Show my hand"))
    assert none_yet.ephemeral and "not playing" in none_yet.text
    asked = ok(await carol.click(board, "Sit in"))
    assert asked.ephemeral and "host is asked" in asked.text
    prompt = newest_with(alice, "asks to sit in")
    assert f"<@{alice.id}>" in prompt.content and "Carol" in prompt.content
    crafted = ok(await bob.click(prompt, "Let them sit in"))
    assert crafted.ephemeral and "Only the host" in crafted.text
    forged = f"ct:sa:{table_id}:{computer_seat}:{bob.id}:y"  # Bob never asked
    refused = ok(await alice.crafted_component(prompt, forged))
    assert refused.ephemeral and table.seat_of(bob.id) is None, "answered; nothing changed"
    assert table.seats[computer_seat].computer

    ok(await alice.click(prompt, "Let them sit in"))
    assert table.seat_of(carol.id) == computer_seat
    assert "plays seat" in fake_discord.messages[prompt.id].content
    assert not fake_discord.messages[prompt.id].buttons()
    hand = await show_hand(carol, table_id)
    assert f"table #{table_id}" in str(hand.embeds[0])
    await play_humans_to_the_end(fake_discord, running_bot, table_id, [alice, carol])
    moves = await running_bot.store.moves(table_id)
    by_seat = [m.user_id for m in moves if m.seat == computer_seat]
    assert carol.id in by_seat, "the log records Carol's moves as hers"
    assert set(by_seat[: by_seat.index(carol.id)]) <= {None}, "and the computer's as its own"


async def test_leaving_frees_the_leaver_and_the_last_one_out_is_told(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    await start(fake_discord, alice, table_id)

    left = ok(await bob.slash("table leave"))
    assert left.ephemeral and "free to join another table" in left.text
    other = await open_table(fake_discord, bob, "tiny")  # no "already seated"
    assert other != table_id
    await wait_for_table(alice, table_id, "🤖")

    last = ok(await alice.slash("table leave"))
    assert last.ephemeral and "last person" in last.text and "loss for your side" in last.text
    closed = await wait_for_table(alice, table_id, "Alice left: the game counts as a loss")
    assert "Not rated" not in closed.text()
    assert [b.get("label") for b in closed.buttons()] == ["Rematch"], "a resignation is a result"
    stored = await running_bot.store.get_table(table_id)
    assert stored.status == "abandoned"


async def test_rematch_of_a_partnership_game_changes_partners(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """Norwegian Whist, short, two people and two computers. The people's moves go straight to
    the session manager (a whole game of clicks is slow); the Rematch is clicked on the board."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "norwegian_whist")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    ok(await alice.click(table_message(alice, table_id), "Short: first to 7 points"))
    ok(await alice.click(table_message(alice, table_id), "Fill with computers"))
    await fake_discord.quiet()
    await start(fake_discord, alice, table_id)
    sessions = running_bot.sessions
    old = sessions.tables[table_id]
    names_before = [old.seats[s].name for s in range(4)]
    people = {alice.id, bob.id}
    while sessions.tables.get(table_id) is old:
        waiting = [s for s in old.waiting_for() if old.seats[s].user_id in people]
        if not waiting:
            await fake_discord.wait_for(lambda: someone_to_act(running_bot, old, [alice, bob]))
            continue
        seat = waiting[0]
        user = old.seats[seat].user_id
        await sessions.submit(table_id, user, old.moves, old.game.legal_moves(seat)[0])
    final = await wait_for_table(bob, table_id, "Rematch", button=True, timeout=10)
    ok(await bob.click(final, "Rematch"))
    new_id = await running_bot.store.rematch_of(table_id)
    new = sessions.tables[new_id]
    names_after = [new.seats[s].name for s in range(4)]
    assert sorted(names_after) == sorted(names_before), "the same people and computers"
    teams_before = [{names_before[0], names_before[2]}, {names_before[1], names_before[3]}]
    teams_after = [{names_after[0], names_after[2]}, {names_after[1], names_after[3]}]
    assert not any(team in teams_before for team in teams_after), "every partnership changes"
    assert new.row.options == old.row.options and new.row.options["target"] == 7
    lobby = await wait_for_table(alice, new_id, "**Short**: first to 7 points")
    assert "Alice" in lobby.text() and f"<@{alice.id}>" in lobby.content


async def test_a_former_player_is_offered_only_her_own_side_and_her_name_pings_no_one(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    eve = fake_discord.user(f"<@{bob.id}> **eve** @everyone")  # a hostile display name
    table_id = await open_table(fake_discord, alice, "tarneeb")
    ok(await eve.click(table_message(eve, table_id), "Join"))
    lobby = await wait_for_table(alice, table_id, "`2` **")  # seat 2 is hers
    seats = embed_text(lobby)  # labels of buttons and menus are plain text: no markdown there
    assert "\\*\\*eve\\*\\*" in seats and f"<@{bob.id}>" not in seats
    ok(await alice.click(lobby, "Fill with computers"))
    await wait_for_table(alice, table_id, "🤖")
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.tables[table_id]
    assert table.seat_of(eve.id) == 1

    ok(await eve.slash("table leave"))  # she has seen seat 2's hand
    board = await wait_for_table(eve, table_id, "Sit in", button=True)
    asked = ok(await eve.click(board, "Sit in"))  # seats 2, 3, 4 are computers'; hers is 2
    assert asked.ephemeral and "seat 2" in asked.text, asked.text
    prompt = newest_with(alice, "asks to sit in")
    assert "played seat 2 earlier" in prompt.content, "the host knows who asks"
    assert f"<@{eve.id}>" in prompt.content, "and which account it is"
    assert prompt.pinged() == {str(alice.id)}, "the host alone is pinged"
    assert f"<@{bob.id}>" not in prompt.content and "**eve**" not in prompt.content
    ok(await alice.click(prompt, "No, thanks"))

    async def sits_in(user: FakeUser, seat: int) -> None:
        """``user`` picks ``seat`` among the computers' seats offered, and the host agrees."""
        menu = ok(await user.click(board, "Sit in"))
        label = f"Seat {seat + 1}: {table.seats[seat].name}"
        ok(await user.click(menu, label))
        ok(await alice.click(newest_with(alice, f"(seat {seat + 1})"), "Let them sit in"))
        assert table.seat_of(user.id) == seat

    await sits_in(fake_discord.user("carol"), 1)  # her old seat
    await sits_in(fake_discord.user("dave"), 3)  # and her partner's
    refused = ok(await eve.click(board, "Sit in"))  # seat 3, an opponent's, is a computer's
    assert refused.ephemeral and "own team's seats only" in refused.text, refused.text
    assert table.seats[2].computer
    for message in fake_discord.messages.values():
        assert str(bob.id) not in message.pinged() and "everyone" not in message.pinged()


async def test_a_name_that_looks_like_a_mention_pings_no_one(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    mallory = fake_discord.user(f"<@{bob.id}> @everyone _m_")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await alice.click(table_message(alice, table_id), "Fill with computers"))
    await fake_discord.quiet()
    await start(fake_discord, alice, table_id)
    board = await wait_for_table(mallory, table_id, "Sit in", button=True)
    ok(await mallory.click(board, "Sit in"))
    prompt = newest_with(alice, "asks to sit in")
    assert prompt.allowed_mentions is not None, "the message says whom it may ping"
    assert prompt.pinged() == {str(alice.id)}, "the host alone, whatever the asker's name"
    assert f"<@{bob.id}>" not in prompt.content and "\\_m\\_" in prompt.content
    ok(await alice.click(prompt, "Let them sit in"))
    answered = fake_discord.messages[prompt.id]
    assert "plays seat" in answered.content and f"<@{bob.id}>" not in answered.content
    shown = embed_text(await wait_for_table(alice, table_id, "sits in for"))
    assert f"<@{bob.id}>" not in shown and "\\_m\\_" in shown
    for message in fake_discord.messages.values():
        assert message.pinged() <= {str(alice.id)}, message.content
