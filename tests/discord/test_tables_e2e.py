"""End to end: the real bot against the fake Discord, for every registered game.

Users open tables, fill seats, play by clicking what is on their screen, and the tests check
the answers (in time, ephemeral where private), the database, and that no hidden card ever shows
in a public message or in another player's hand.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from cogs.render import hand_embed
from games.registry import all_games
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    hand_text,
    move_controls,
    ok,
    open_table,
    public_text,
    show_hand,
    start,
    table_message,
    visible_cards,
    wait_for_table,
)
from tests.fakediscord import ClientRefused, FakeDiscord, FakeUser

GAMES = sorted(all_games())
MAX_STEPS = 4000


def assert_nothing_hidden_shows(
    fake: FakeDiscord, bot: Any, table_id: int, users: dict[int, FakeUser]
) -> int:
    """The table message shows no card hidden from onlookers; no hand shows another's card.

    Returns how many messages were judged (only those up to date with the game are).
    """
    table = bot.sessions.tables.get(table_id)
    if table is None or table.game is None:
        return 0
    judged = 0
    game = table.game
    any_user = next(iter(users.values()))
    message = table_message(any_user, table_id)
    if f"Move {table.moves} ·" in message.text():  # the message is up to date with the game
        judged += 1
        leaked = visible_cards(public_text(message), game.hidden_cards(None))
        assert not leaked, f"the table message shows hidden cards {leaked}"
    for seat, user in users.items():
        hand = user.last_ephemeral()
        if hand is None or not hand.embeds or f"table #{table_id}" not in str(hand.embeds[0]):
            continue
        now = hand_embed(table, seat).description  # what the bot would show this seat now
        if hand.embeds[0].get("description") == now:  # only a hand that is up to date is judged
            judged += 1
            shown = visible_cards(hand_text(hand), game.hidden_cards(seat))
            assert not shown, f"{user.name}'s hand shows cards of others: {shown}"
    return judged


async def play_to_the_end(
    fake: FakeDiscord, bot: Any, table_id: int, users: dict[int, FakeUser], rng: random.Random
) -> None:
    """Every human acts when their hand offers a move, until the game is over."""
    judged = 0
    for _ in range(MAX_STEPS):
        table = bot.sessions.tables.get(table_id)
        if table is None:
            assert judged > 0, "the visibility oracle judged no message"
            return
        acted = False
        for seat, user in users.items():
            if seat not in table.game.to_act():
                continue
            hand = await show_hand(user, table_id)
            judged += assert_nothing_hidden_shows(fake, bot, table_id, users)
            if await act(user, hand, rng) is not None:
                acted = True
                break
        if not acted:
            await asyncio.sleep(0.02)
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("game", GAMES)
async def test_one_human_against_computers(
    fake_discord: FakeDiscord, running_bot: Any, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, game)
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.tables[table_id]
    seat = table.seat_of(alice.id)
    await play_to_the_end(fake_discord, running_bot, table_id, {seat: alice}, random.Random(game))
    final = await wait_for_table(alice, table_id, "Game over")
    assert not [b for b in final.buttons() if b.get("label") == "Show my hand"]
    history = [
        m
        for m in alice.visible_messages()
        if not m.is_ephemeral and m.content.startswith(f"**Table #{table_id}**")
    ]
    assert history, "hand and game results stay in the channel"
    stored = await running_bot.store.get_table(table_id)
    assert stored.status == "finished"
    moves = await running_bot.store.moves(table_id)
    assert len(moves) == table.moves
    board = ok(await alice.slash("leaderboard", game=game))
    assert "alice" in board.text or str(alice.id) in board.text
    assert fake_discord.unknown_routes == []
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], "no rendering failure, no hidden card refused by the guard"


@pytest.mark.skipif("thunee" not in GAMES, reason="Thunee is not registered")
async def test_thunee_with_four_humans(
    fake_discord: FakeDiscord, running_bot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    names = ("alice", "bob", "carol", "dave")
    users = [fake_discord.user(name) for name in names]
    table_id = await open_table(fake_discord, users[0], "thunee")
    for seat, user in enumerate(users[1:], start=1):
        ok(
            await user.click(
                table_message(user, table_id), f"Sit at seat {seat + 1} (team {'AB'[seat % 2]})"
            )
        )
    await wait_for_table(users[0], table_id, "Dave")
    await start(fake_discord, users[0], table_id)
    table = running_bot.sessions.tables[table_id]
    seated = {table.seat_of(user.id): user for user in users}
    assert sorted(seated) == [0, 1, 2, 3]
    await play_to_the_end(fake_discord, running_bot, table_id, seated, random.Random(4))
    final = await wait_for_table(users[0], table_id, "Game over")
    outcome = await running_bot.store.leaderboard(fake_discord.default_guild.id, "thunee")
    assert sorted(row.user_id for row in outcome) == sorted(user.id for user in users)
    assert sum(row.won for row in outcome) == 2, "one team of two wins"
    assert "Score" in final.text()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_lobby_and_bad_input(fake_discord: FakeDiscord, running_bot: Any) -> None:
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    bad = ok(await alice.slash("table new", game="tiny", options="players=9"))
    assert bad.ephemeral and "players" in bad.text
    table_id = await open_table(fake_discord, alice, "tiny")
    again = ok(await alice.slash("table new", game="tiny"))
    assert again.ephemeral and "already seated" in again.text
    lobby = table_message(bob, table_id)
    early = ok(await bob.click(lobby, "Start"))
    assert early.ephemeral and "host" in early.text
    ok(await bob.click(lobby, "Join"))
    await wait_for_table(alice, table_id, "Bob")
    full = ok(await carol.click(table_message(carol, table_id), "Join"))
    assert full.ephemeral and "full" in full.text
    ok(await alice.click(table_message(alice, table_id), "Start"))
    await wait_for_table(carol, table_id, "Show my hand")
    stranger = ok(await carol.click(table_message(carol, table_id), "Show my hand"))
    assert stranger.ephemeral and "not playing" in stranger.text

    table = running_bot.sessions.tables[table_id]
    users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
    to_act = table.game.to_act()[0]
    waiting = users[(to_act + 1) % 2]
    mover = users[to_act]
    older_hand = await show_hand(mover, table_id)
    hand = await show_hand(mover, table_id)
    other_hand = await show_hand(waiting, table_id)
    assert not move_controls(other_hand)[0], "only the seat to act has enabled moves"
    before = await running_bot.store.moves(table_id)
    buttons, _ = move_controls(hand)
    # A double click: the same button twice at once. Exactly one move is accepted.
    results = await asyncio.gather(
        *(mover.click(hand, custom_id=buttons[0]["custom_id"]) for _ in range(2)),
        return_exceptions=True,
    )
    assert all(not isinstance(r, Exception) and not r.failed for r in results), results
    after = await running_bot.store.moves(table_id)
    assert len(after) == len(before) + 1
    # A button on an older copy of the hand, from before the move, is refused with a fresh hand.
    stale = ok(await mover.click(older_hand, custom_id=buttons[-1]["custom_id"]))
    assert "out of date" in stale.text or "out of date" in str(stale.message.embeds)
    assert len(await running_bot.store.moves(table_id)) == len(after)
    with pytest.raises(ClientRefused):
        await carol.click(hand, custom_id=buttons[0]["custom_id"])  # not on carol's screen


async def test_abandon_needs_host_or_manager(fake_discord: FakeDiscord, running_bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    refused = ok(await bob.slash("table abandon", table=table_id))
    assert refused.ephemeral and "host" in refused.text
    done = ok(await alice.slash("table abandon"))
    assert "closed" in done.text
    await wait_for_table(alice, table_id, "cancelled")
    assert (await running_bot.store.get_table(table_id)).status == "cancelled"


async def test_host_removes_a_player(fake_discord: FakeDiscord, running_bot: Any) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    lobby = await wait_for_table(alice, table_id, "Remove a player (host)")
    refused = ok(await bob.select(lobby, "Remove a player (host)", ["Seat 2: Bob"]))
    assert refused.ephemeral and "Only the host" in refused.text
    ok(await alice.select(lobby, "Remove a player (host)", ["Seat 2: Bob"]))
    await wait_for_table(alice, table_id, "*empty*")
    assert [s.user_id for s in await running_bot.store.seats(table_id)] == [alice.id]


async def test_rules_and_options_for_every_game(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    for name, game_class in all_games().items():
        rules = ok(await alice.slash("rules", game=name))
        assert rules.ephemeral and game_class.title in rules.text
        options = ok(await alice.slash("table options", game=name))
        # the first page; test_table_presentation pages through all of Thunee's 36
        assert all(o.name in options.text for o in game_class.OPTIONS[:5])
    games = ok(await alice.autocomplete("table new", "game", "thu"))
    assert [c["value"] for c in games.choices] == ["thunee"]
    offered = ok(await alice.autocomplete("table new", "options", "players=6 pl", game="thunee"))
    assert "players=6 players=2" in [c["value"] for c in offered.choices]
    unknown = ok(await alice.slash("rules", game="chess"))
    assert "no game called" in unknown.text
