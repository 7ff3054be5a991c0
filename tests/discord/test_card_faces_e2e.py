"""Card pictures through the fake Discord: start-up uploads them once as application emojis,
the hand's card buttons and the table's trick show them, a restart reuses them, and a refused
upload leaves the cards as text while the game goes on."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import cogs.table_picture
from bot.card_art import emoji_names
from cogs.card_faces import FACES
from games.cards import display
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    open_table,
    settle,
    show_hand,
    start,
    table_message,
)
from tests.fakediscord import FakeDiscord, FakeUser, Message

pytestmark = pytest.mark.new_application  # each test starts where no picture was uploaded

EMOJI = re.compile(r"<:c_([2-9TJQKA][SHDC]):(\d+)>")
UPLOADS = "POST /applications/"


def no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables without their picture: their text then shows the trick, where card faces go
    (beside a picture the text leaves the trick to it)."""

    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("no picture")

    monkeypatch.setattr(cogs.table_picture, "draw_table", broken)


def uploads(fake: FakeDiscord) -> int:
    return sum(1 for r in fake.requests if r.method == "POST" and r.path.endswith("/emojis"))


async def faces_ready(fake: FakeDiscord) -> None:
    await fake.wait_for(lambda: FACES.ready.is_set(), timeout=20)


def card_buttons(hand: Message) -> list[dict[str, Any]]:
    return [b for b in hand.buttons() if str(b.get("custom_id", "")).startswith(("ct:m:", "ct:x:"))]


def card_of(button: dict[str, Any]) -> str:
    """The card a card button stands for, from its custom id (``ct:x:1:AS``, ``ct:m:…play;AS``)."""
    return str(button["custom_id"])[-2:]


async def play_until_a_trick_shows(fake: FakeDiscord, alice: FakeUser, table_id: int) -> Message:
    rng = random.Random(3)
    for _ in range(40):
        board = table_message(alice, table_id)
        if EMOJI.search(board.text()):
            return board
        hand = await show_hand(alice, table_id)
        await act(alice, hand, rng)
        await settle(fake)
    raise AssertionError("no card picture ever reached the table:\n" + board.text())


async def test_pictures_on_the_hand_and_the_table(
    fake_discord: FakeDiscord, running_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_pictures(monkeypatch)
    await faces_ready(fake_discord)
    made = {str(e["name"]): int(e["id"]) for e in fake_discord.app_emojis.values()}
    assert sorted(made) == sorted(emoji_names()) and len(made) == 53
    assert uploads(fake_discord) == 53
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    hand = await show_hand(alice, table_id)
    buttons = card_buttons(hand)
    assert len(buttons) == 13
    for button in buttons:
        card = card_of(button)
        assert int(button["emoji"]["id"]) == (made[f"c_{card}"]), button
        assert button["label"] == display(card)  # the text stays, for screen readers
    description = str(hand.embeds[0]["description"])
    assert len(EMOJI.findall(description)) == 13
    board = await play_until_a_trick_shows(fake_discord, alice, table_id)
    for card, emoji_id in EMOJI.findall(board.text()):
        assert made[f"c_{card}"] == int(emoji_id)
        assert f"{emoji_id}> {display(card)}" in board.text()
    assert fake_discord.errors == []


async def test_a_restart_reuses_the_pictures(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            await faces_ready(fake_discord)
            first, created = dict(FACES.emojis), FACES.created
        finally:
            await stop_bot(bot)
        assert uploads(fake_discord) == 53 and created == 53
        assert FACES.emojis == {}, "a stopped bot forgets its application's faces"
        bot = await start_bot(bot_env)
        try:
            await faces_ready(fake_discord)
            assert uploads(fake_discord) == 53, "no second upload"
            assert FACES.created == 0 and FACES.emojis == first
        finally:
            await stop_bot(bot)


async def test_a_refused_upload_leaves_the_cards_as_text(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_pictures(monkeypatch)
    refused = fake_discord.fail(UPLOADS, 400, code=50035, message="Invalid Form Body", times=999)
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            await faces_ready(fake_discord)
            assert FACES.failed == 53 and FACES.emojis == {}
            assert refused.remaining == 999 - 53
            alice = fake_discord.user("alice")
            table_id = await open_table(fake_discord, alice, "tarneeb")
            await fill_with_computers(fake_discord, alice, table_id)
            await start(fake_discord, alice, table_id)
            hand = await show_hand(alice, table_id)
            buttons = card_buttons(hand)
            assert len(buttons) == 13
            assert all("emoji" not in b and b["label"] for b in buttons)
            rng = random.Random(5)
            for _ in range(6):
                await act(alice, await show_hand(alice, table_id), rng)
                await settle(fake_discord)
            assert "<:c_" not in table_message(alice, table_id).text()
        finally:
            await stop_bot(bot)
