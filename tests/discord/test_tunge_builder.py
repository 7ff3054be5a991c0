"""Tunge on Discord: a player builds a sequence rank by rank, then plays it."""

from __future__ import annotations

from typing import Any

from tests.bot.faults import until
from tests.discord.table_driver import (
    fill_with_computers,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
)
from tests.fakediscord import FakeDiscord


def builder_select(message: Any) -> dict[str, Any] | None:
    return next(
        (c for c in message.iter_components() if str(c.get("custom_id", "")).startswith("ct:q:")),
        None,
    )


async def test_build_and_play_a_sequence(fake_discord: FakeDiscord, running_bot: Any) -> None:
    alice = fake_discord.user("alice")
    for _ in range(5):  # about one deal in 2,500 lets the computer lead out its whole hand
        table_id = await open_table(fake_discord, alice, "tunge", "players=2")
        await fill_with_computers(fake_discord, alice, table_id)
        await start(fake_discord, alice, table_id)

        def ready(table_id: int = table_id) -> bool:
            if running_bot.sessions.find(table_id) is None:  # over at its first move
                return True
            buttons = table_message(alice, table_id).buttons()
            return any(b.get("label") == "Show my hand" for b in buttons)

        await until(ready, "the hand to show (or the game over at once)")
        if running_bot.sessions.find(table_id) is not None:
            break
    table = running_bot.sessions.find(table_id)
    stored = await running_bot.store.get_table(table_id)
    assert table is not None, f"table #{table_id} left the cache; stored as {stored}"
    seat = table.seat_of(alice.id)
    await until(lambda: seat in table.game.to_act(), "alice's turn")
    stale_hand = await show_hand(alice, table_id)  # an older copy, left as it is
    hand = await show_hand(alice, table_id)
    first = builder_select(hand)
    assert first is not None and first["placeholder"] == "Start a sequence"
    before = table.moves
    for _ in range(20):
        play = next(
            (b for b in hand.buttons() if str(b.get("label", "")).startswith("Play ")), None
        )
        if play is not None:
            break
        select = builder_select(hand)
        assert select is not None, "every prefix leads on to a play"
        hand = ok(
            await alice.select(hand, select["custom_id"], [select["options"][0]["value"]])
        ).message
        assert "Your sequence so far" in str(hand.embeds[0]["description"])
        assert any(b.get("label") == "Start over" for b in hand.buttons())
    assert play is not None
    assert table.moves == before, "building a sequence is not a move"
    ok(await alice.click(hand, custom_id=play["custom_id"]))
    stored = (await running_bot.store.moves(table_id))[before]
    assert stored.seat == seat and stored.move["action"] == "play"
    shown = play["label"].removeprefix("Play ").split()
    assert len(stored.move["cards"]) == len(shown) >= 2
    # A builder step from before the move is answered with the fresh hand.
    step = builder_select(stale_hand)
    assert step is not None
    stale = ok(await alice.select(stale_hand, step["custom_id"], [step["options"][0]["value"]]))
    assert "out of date" in str(stale.message.embeds[0]["description"])
