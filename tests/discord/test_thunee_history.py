"""The channel's history shows Thunee's annulled hands and ball awards.

Four people play Thunee through the fake Discord. Their deals are set the way a restart reads
them: the table is started, the bot stopped before the first move, the deals it shuffled
replaced in the database by three worked examples of the rules contract, and the bot started
again; it rebuilds the game from the stored deals. The hands then go: annulled because the
counting side holds no trump (E13.2), annulled by the trumpman's weak-hand redeal (E13.1), and
a normal hand (E2) that awards a ball. No test-only hook in the bot is needed.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

from games.base import Deal
from games.thunee import DECK
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import (
    act,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
    table_messages,
    visible_cards,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser, Message

GOLDEN = Path(__file__).parents[1] / "games" / "transcripts" / "thunee"
# Dealer seat 0 throughout: an annulled hand is dealt again by the same dealer.
EXAMPLES = ("e13_no_trump_annulled", "e13_weak_hand_redeal", "e02_transfer")
# Pass in every auction and Thunee window, demand the redeal, play cards rather than claim:
# the three hands then end as their examples do, whichever trump card the trumper lays.
PREFER = ("demand_redeal", "pass", "play;")
BALLS = re.compile(r"Team [AB] scores \d+ balls? \(\d+–\d+\)\.")


def first_deal(example: str) -> Deal:
    data: dict[str, Any] = json.loads((GOLDEN / f"{example}.json").read_text())
    return Deal.from_json(data["transcript"]["deals"][0])


def store_deals(database: Path, table_id: int, deals: list[Deal], first_dealer: int) -> None:
    """Replace the table's stored deals and first dealer (the bot is stopped meanwhile)."""
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        (moves,) = db.execute(
            "SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)
        ).fetchone()
        assert moves == 0, "no move was made on the shuffled deals"
        db.execute("DELETE FROM deals WHERE table_id = ?", (table_id,))
        db.executemany(
            "INSERT INTO deals (table_id, deal_index, deal) VALUES (?, ?, ?)",
            [(table_id, i, json.dumps(deal.to_json())) for i, deal in enumerate(deals)],
        )
        db.execute("UPDATE game_tables SET first_dealer = ? WHERE id = ?", (first_dealer, table_id))


async def seat_four(fake: FakeDiscord, users: list[FakeUser]) -> int:
    """Alice opens a Thunee table, the others take seats 2 to 4, Alice starts."""
    table_id = await open_table(fake, users[0], "thunee")
    for seat, user in enumerate(users[1:], start=1):
        label = f"Sit at seat {seat + 1} (team {'AB'[seat % 2]})"
        ok(await user.click(table_message(user, table_id), label))
    await wait_for_table(users[0], table_id, "Dave")
    await start(fake, users[0], table_id)
    return table_id


def history(user: FakeUser) -> list[Message]:
    """The channel's messages other than table messages, as ``user`` sees them."""
    tables = {m.id for m in table_messages(user)}
    return [m for m in user.visible_messages() if not m.is_ephemeral and m.id not in tables]


async def play_until_balls(bot: Any, table_id: int, users: list[FakeUser]) -> None:
    """Whoever the game waits on acts from their own hand, until a team has a ball."""
    rng = random.Random(12)
    for _ in range(300):
        table = bot.sessions.tables[table_id]
        if any(table.game.view(None).score):
            return
        seat = table.game.waiting_for()[0]
        user = users[seat]  # seated in order
        await act(user, await show_hand(user, table_id), rng, prefer=PREFER)
    raise AssertionError("no ball was awarded")


async def test_annulled_hands_and_ball_awards_stay_in_the_channel(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    bot_env["TURN_SECONDS"] = "3600"  # people only: no turn timer plays for anyone
    database = Path(bot_env["DATABASE_PATH"])
    users = [fake_discord.user(name) for name in ("alice", "bob", "carol", "dave")]
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            table_id = await seat_four(fake_discord, users)
        finally:
            await stop_bot(bot)
        store_deals(database, table_id, [first_deal(name) for name in EXAMPLES], first_dealer=0)
        bot = await start_bot(bot_env)
        try:
            table = bot.sessions.tables[table_id]
            assert table.game.deals[:3] == [first_deal(name) for name in EXAMPLES]
            assert [table.seat_of(user.id) for user in users] == [0, 1, 2, 3]
            await play_until_balls(bot, table_id, users)
            alice = users[0]
            await fake_discord.wait_for(
                lambda: any(BALLS.search(m.content) for m in history(alice)), timeout=10
            )
            posts = history(alice)
            texts = [m.content for m in posts]
            assert len(texts) == 3, texts
            assert all(text.startswith(f"**Table #{table_id}** · ") for text in texts)
            assert "The hand is annulled (the counting side holds no trump)" in texts[0]
            assert "The hand is annulled (the trumpman's weak hand)" in texts[1]
            assert all("Alice deals again." in text for text in texts[:2]), "names filled in"
            assert "the counting team, made" in texts[2] and BALLS.search(texts[2])
            assert all("{s" not in text for text in texts)
            # Each post follows a fresh deal, with no card played or shown yet: every card
            # is hidden then, so no card may appear at all.
            for post in posts:
                assert post.channel_id == fake_discord.default_channel.id
                assert not visible_cards(post.content, set(DECK)), post.content
                assert not post.embeds and not post.buttons()
            assert not visible_cards("\n".join(texts), table.game.hidden_cards(None))
            assert len(await bot.store.moves(table_id)) == table.moves
            assert len(await bot.store.deals(table_id)) == 4, "the fourth deal was shuffled"
        finally:
            await stop_bot(bot)
