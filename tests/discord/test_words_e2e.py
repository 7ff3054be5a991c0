"""End to end, words and screens a newcomer meets: Egyptian Tarneeb's hand with hints during the
auction, an abandoned board, and the rematch lobby naming the table it follows."""

from __future__ import annotations

from typing import Any

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from tests.discord.table_driver import (
    fill_with_computers,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
    table_messages,
    two_play_a_tiny_game,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord


async def test_the_egyptian_auction_hand_with_hints_opens(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """Thirteen cards and two menus of bids leave the Hint button a place beside the cards."""
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb_egyptian")
    ok(await alice.click(table_message(alice, table_id), "Turn hints on (unrated)"))
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    hand = await show_hand(alice, table_id)
    labels = [b.get("label") for b in hand.buttons()]
    assert "Hint" in labels and len(hand.components) <= 5


async def test_an_abandoned_board_shows_no_turn_and_says_not_rated(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    await start(fake_discord, alice, table_id)
    await wait_for_table(alice, table_id, " to act")  # the picture says whose turn it is
    hand = await show_hand(bob, table_id)
    refused = ok(await alice.slash("table abandon", table=table_id))
    assert refused.ephemeral and "/table leave hands your seat" in refused.text, "Bob plays on"
    admin = fake_discord.user("admin", admin=True)  # a server manager's abandon is unrated
    ok(await admin.slash("table abandon", table=table_id))
    board = await wait_for_table(bob, table_id, "Not rated")
    text = board.text()
    assert "This game was abandoned. Not rated." in text
    assert " to act" not in text and "Show my hand" not in text and not board.buttons()
    await fake_discord.wait_for(lambda: "abandoned" in hand.text(), timeout=5)
    assert not hand.buttons() and "Your move" not in hand.text(), "nothing left to click"


async def test_the_rematch_lobby_names_the_table_it_follows(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await two_play_a_tiny_game(fake_discord, running_bot, alice, bob)
    final = await wait_for_table(alice, table_id, "Rematch", button=True)
    ok(await alice.click(final, "Rematch"))
    await fake_discord.quiet()
    new_id = await running_bot.store.rematch_of(table_id)
    lobby = table_messages(bob)[-1]
    assert f"Rematch of the game at table #{table_id}: this is table #{new_id}." in lobby.content
