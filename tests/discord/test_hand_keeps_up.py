"""An open hand says it is about to go stale (14 minutes on
the bot's clock), and a restart keeps the table's recent log and says hands must be reopened."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.clock import ManualClock
from cogs.hand_watch import RESTART_NOTE, STALE_NOTE, STALE_SECONDS
from tests.conftest import BotProcess
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    open_table,
    settle,
    show_hand,
    start,
    table_message,
    wait_for_table,
)
from tests.discord.test_restart import wait_identified
from tests.discord.test_table_restart import rebuild, stored_moves
from tests.fakediscord import FakeDiscord, Message

NOTICE = "This hand stops updating soon"
assert NOTICE in STALE_NOTE


def now_text(fake: FakeDiscord, message: Message) -> str:
    return fake.messages[message.id].text()


async def test_an_open_hand_says_it_stops_updating_before_it_does(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    clock = ManualClock()
    running_bot.sessions.clock = clock
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    first = await show_hand(alice, table_id)
    await clock.advance(10 * 60)
    second = await show_hand(alice, table_id)  # a fresh hand takes over from the first
    await clock.advance(STALE_SECONDS - 10 * 60 + 1)  # the first one's notice would be due
    await settle(fake_discord)
    assert NOTICE not in now_text(fake_discord, first), "a replaced hand is left alone"
    assert NOTICE not in now_text(fake_discord, second)
    await clock.advance(10 * 60)  # 14 minutes after the second hand opened
    await fake_discord.wait_for(lambda: NOTICE in now_text(fake_discord, second), timeout=5)
    assert (table_id, alice.id) not in running_bot.open_hands, "no edit after the notice"
    cards = [b for b in fake_discord.messages[second.id].buttons() if "ct:" in b["custom_id"]]
    assert cards, "the buttons stay: a click still plays and opens a fresh hand"
    assert fake_discord.errors == []


def recent_field(message: Message) -> str:
    fields = message.embeds[0].get("fields", [])
    return next((f["value"] for f in fields if f["name"] == "Recent"), "")


def picture_words(message: Message) -> str:
    return message.image_alt(message.embeds[0]) or ""


async def steady(fake: FakeDiscord, user: Any, table_id: int, database: Path) -> Message:
    """The board once the computers have played up to the user's turn and it shows that move."""
    for _ in range(300):
        moves = stored_moves(database, table_id)
        if rebuild(database, table_id).waiting_for() == (0,):  # the host sits first
            board = table_message(user, table_id)
            if f"Move {moves} " in board.text():
                return board
        await asyncio.sleep(0.02)
    raise AssertionError("the table never settled on the host's turn")


@pytest.mark.new_application
async def test_a_restart_keeps_the_recent_log_and_says_to_reopen_hands(
    fake_discord: FakeDiscord, bot_env: dict[str, str], bot_process: Callable[[], BotProcess]
) -> None:
    database = Path(bot_env["DATABASE_PATH"])
    first = bot_process()
    await wait_identified(fake_discord, 1, first)
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    rng = random.Random(7)
    board = await steady(fake_discord, alice, table_id, database)
    for _ in range(60):  # a few tricks in: plays and trick results in the log (the latest
        # two beside the picture, which says the trick and the bids)
        if recent_field(board).count("\n") >= 1 and "trick: " in picture_words(board):
            break
        await act(alice, await show_hand(alice, table_id), rng)
        board = await steady(fake_discord, alice, table_id, database)
    before, drawn = recent_field(board), picture_words(board)
    assert before.count("\n") >= 1 and "trick: " in drawn, board.text()

    def uploads() -> list[object]:
        return [r for r in fake_discord.requests if r.method == "POST" and "emojis" in r.path]

    # The first start draws and uploads the card pictures (in the background).
    await fake_discord.wait_for(lambda: len(uploads()) == 53, timeout=30)
    first.kill()
    await fake_discord.wait_for(lambda: not fake_discord.connected, timeout=5)

    second = bot_process()
    await wait_identified(fake_discord, 2, second)
    board = await wait_for_table(alice, table_id, RESTART_NOTE, timeout=10)
    assert recent_field(board) == before, second.output()
    assert picture_words(board) == drawn, "the same table, drawn again and told alike"
    again = [r for r in fake_discord.requests if r.method == "POST" and "emojis" in r.path]
    assert len(again) == 53, "the pictures were reused, not uploaded again"
    hand = await show_hand(alice, table_id)
    assert "<:c_" in str(hand.embeds[0]["description"])
    assert "Traceback" not in second.output()


async def test_a_hand_first_shown_files_no_view_and_its_controls_still_play(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """A hand is sent as the plain data of its controls, each dispatched by its custom id:
    discord.py files no view for it (nor a 15-minute timer), and a click on it plays."""
    store = running_bot._connection._view_store
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    hand = await show_hand(alice, table_id)
    assert hand.id not in store._synced_message_views and hand.id not in store._views
    assert hand.buttons(), "the hand's cards"
    table = running_bot.sessions.find(table_id)
    before = table.moves
    rng = random.Random(3)
    for _ in range(50):  # the computers play up to alice's turn; then she moves on this hand
        if await act(alice, fake_discord.messages[hand.id], rng) is not None:
            break
        await settle(fake_discord)
    await fake_discord.wait_for(lambda: table.moves > before, timeout=10)
    assert fake_discord.errors == []
