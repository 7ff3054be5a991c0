"""End to end through the fake Discord: scripted games, then /leaderboard's ranks and ratings
against OpenSkill computed here from the stored outcomes, its pages after a restart, the
computers on request, /stats with its PNG chart, and no data of one server in another."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.store import Result
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    ok,
    open_table,
    show_hand,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.model import Message

MODEL = PlackettLuce()


async def play_tiny(
    fake: FakeDiscord,
    bot: Any,
    host: FakeUser,
    guest: FakeUser | None,
    rng: random.Random,
    leave_after: int | None = None,
) -> int:
    """A game of Tiny, host against guest (or a computer), every human move a click; the
    guest runs ``/table leave`` after ``leave_after`` of their cards, if given."""
    table_id = await open_table(fake, host, "tiny")
    if guest is None:
        await fill_with_computers(fake, host, table_id)
    else:
        ok(await guest.click(table_message(guest, table_id), "Join"))
        await wait_for_table(host, table_id, guest.name.capitalize())
    ok(await host.click(table_message(host, table_id), "Start"))
    await fake.quiet()
    table = bot.sessions.tables[table_id]
    humans = {table.seat_of(u.id): u for u in (host, guest) if u is not None}
    played = 0
    for _ in range(200):
        live = bot.sessions.tables.get(table_id)
        if live is None:
            return table_id
        if guest is not None and played == leave_after:
            left = ok(await guest.slash("table leave"))
            assert "counts for your rating" in left.text
            humans = {s: u for s, u in humans.items() if u is not guest}
            leave_after = None
            continue
        mover = next((u for s, u in humans.items() if s in live.game.to_act()), None)
        if mover is None:
            await asyncio.sleep(0.02)
            continue
        await act(mover, await show_hand(mover, table_id), rng)
        played += mover is guest
    raise AssertionError("the game did not finish")


def expected_ladder(db: Path, guild_id: int) -> dict[str, PlackettLuceRating]:
    """OpenSkill over the stored outcomes of the server's finished games, in order (a seat
    its person left counts as theirs, as leaving counts as playing the game out). An abandoned
    game counts for nobody; one whose last person left (``resigned``) is that seat's loss to
    every other seat (the game here has no teams), whatever its score says."""
    ratings: dict[str, PlackettLuceRating] = {}
    with sqlite3.connect(db) as raw:
        games = raw.execute(
            "SELECT table_id, outcome FROM results WHERE guild_id = ? ORDER BY finished_at",
            (guild_id,),
        ).fetchall()
        for table_id, outcome in games:
            seats = raw.execute(
                "SELECT s.seat, COALESCE((SELECT h.user_id FROM seat_holders h"
                "  WHERE h.table_id = s.table_id AND h.seat = s.seat AND h.user_id IS NOT NULL"
                "  ORDER BY h.id LIMIT 1), s.user_id)"
                " FROM seats s WHERE s.table_id = ? ORDER BY s.seat",
                (table_id,),
            ).fetchall()
            stored = json.loads(outcome)
            if stored["abandoned"]:
                continue
            winners = stored["winners"]
            if stored.get("resigned") is not None:
                winners = [seat for seat, _ in seats if seat != stored["resigned"]]
            keys = [str(user) if user is not None else "computer:normal" for _, user in seats]
            teams = [[ratings.get(key) or MODEL.rating()] for key in keys]
            ranks = [1.0 if seat in winners else 2.0 for seat, _ in seats]
            for key, [new] in zip(keys, MODEL.rate(teams, ranks=ranks), strict=True):
                ratings[key] = new
    return ratings


def ladder_lines(message: Message) -> list[str]:
    return [line for line in message.text().splitlines() if "· **" in line]


def in_order(ratings: dict[str, PlackettLuceRating]) -> list[tuple[str, float]]:
    return sorted(((k, r.ordinal()) for k, r in ratings.items()), key=lambda x: (-x[1], x[0]))


def check_page(message: Message, expected: list[tuple[str, float]], first_rank: int) -> None:
    lines = ladder_lines(message)
    assert len(lines) == len(expected)
    for rank, (line, (key, ordinal)) in enumerate(zip(lines, expected, strict=True), first_rank):
        who = f"<@{key}>" if not key.startswith("computer:") else "🤖 computer (normal)"
        assert who in line and f"**{ordinal:.1f}**" in line, (rank, line, key, ordinal)
        if rank > 3 or " 0 wins" in line:
            assert f"`{rank}.`" in line, "a rank number, no medal"


async def test_a_lone_player_who_leaves_loses_on_the_leaderboard(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    """Alice alone against a computer leaves mid-game: the board, her open hand, /leaderboard,
    /history and /stats all count it as her loss, the computer's win."""
    fake = fake_discord
    alice = fake.user("alice")
    db = Path(bot_env["DATABASE_PATH"])
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            table_id = await open_table(fake, alice, "tiny")
            await fill_with_computers(fake, alice, table_id)
            ok(await alice.click(table_message(alice, table_id), "Start"))
            await fake.quiet()
            hand = await show_hand(alice, table_id)
            left = ok(await alice.slash("table leave"))
            assert left.ephemeral and left.text == (
                "You were the last person at the table: the game counts as a loss for your side."
            )
            board = await wait_for_table(alice, table_id, "counts as a loss")
            assert "Alice left: the game counts as a loss for Alice. Rated." in board.text()
            assert "Not rated" not in board.text()
            await fake.wait_for(lambda: "Alice left" in hand.text(), timeout=5)
            assert not hand.buttons() and "Not rated" not in hand.text()
            posted = [
                m.content
                for m in alice.visible_messages()
                if not m.is_ephemeral and m.content.startswith(f"**Table #{table_id}**")
            ]
            assert posted == [
                f"**Table #{table_id}** · Alice left: the game counts as a loss for Alice. Rated."
            ], "a resignation is a result: the channel keeps its line"
            await fake.quiet()
            board = table_message(alice, table_id)
            assert [b.get("label") for b in board.buttons()] == ["Rematch"]
            again = ok(await alice.click(board, "Rematch"))
            assert again.ephemeral and again.text.endswith("press Start there to play."), (
                "no one else is called to join: the others are computers"
            )

            expected = expected_ladder(db, fake.default_guild.id)
            assert set(expected) == {str(alice.id), "computer:normal"}
            assert expected[str(alice.id)].ordinal() < expected["computer:normal"].ordinal()
            ladder = ok(await alice.slash("leaderboard", game="tiny", computers=True))
            check_page(ladder.message, in_order(expected), 1)
            [mine] = [line for line in ladder_lines(ladder.message) if f"<@{alice.id}>" in line]
            assert " 0 wins" in mine
            listed = ok(await alice.slash("history"))
            assert "Alice resigned" in listed.text and "abandoned" not in listed.text
            stats = ok(await alice.slash("stats", game="tiny"))
            await stats.wait_done(timeout=30)
            text = "\n".join(m.text() for m in [stats.message, *stats.followups] if m)
            assert "**1** game ·" in text and f"#{table_id} Tiny: lost" in text
        finally:
            await stop_bot(bot)


async def stats_picture(result: Any) -> dict[str, Any]:
    await result.wait_done(timeout=30)
    messages = list({m.id: m for m in [result.message, *result.followups] if m}.values())
    attached = [a for m in messages for a in m.attachments]
    assert len(attached) == 1, [m.text() for m in messages]
    return dict(attached[0])


async def test_leaderboard_and_stats_follow_openskill_and_stay_in_their_server(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    fake = fake_discord
    other = fake.add_guild("Other Club")
    other_channel = fake.add_channel("other-tables", other)
    players = [fake.user(f"p{i:02d}") for i in range(12)]
    zed = fake.user("zed")
    fake.add_member("p00", other)
    fake.add_member("zed", other)
    db = Path(bot_env["DATABASE_PATH"])
    home = fake.default_guild.id
    rng = random.Random(16)
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            fake.guild_commands[other.id] = dict(fake.guild_commands[home])  # as a global sync
            for a, b in zip(players[::2], players[1::2], strict=True):
                await play_tiny(fake, bot, a, b, rng)
            await play_tiny(fake, bot, players[0], players[2], rng)
            await play_tiny(fake, bot, players[0], None, rng)
            await play_tiny(fake, bot, players[4], players[6], rng, leave_after=2)
            await fake.quiet()
            # In the other server: one game of p00 and zed, recorded as the bot records it.
            store = bot.store
            table = await store.create_table(
                guild_id=other.id,
                channel_id=other_channel.id,
                host_id=zed.id,
                game="tiny",
                options={},
                seed=3,
                seats=[(zed.id, "zed"), (players[0].id, "p00")],
            )
            await store.start_game(table.id, 0, [])
            await store.append_move(table.id, 0, 0, {"action": "play"}, zed.id)
            outcome = {"winners": [0], "score": [2, 1], "abandoned": False}
            await store.append_move(
                table.id,
                1,
                1,
                {"action": "play"},
                players[0].id,
                result=Result("finished", outcome, []),
            )

            expected = expected_ladder(db, home)
            humans = [(k, o) for k, o in in_order(expected) if not k.startswith("computer:")]
            assert len(humans) == 12
            first = ok(await players[5].slash("leaderboard", game="tiny"))
            assert first.message is not None and not first.ephemeral
            check_page(first.message, humans[:10], 1)
            assert "Page 1 of 2 · 12 players" in first.text and str(zed.id) not in first.text
            second = ok(await players[5].click(first.message, "Next"))
            check_page(second.message, humans[10:], 11)
            assert "Page 2 of 2" in second.text

            everyone = ok(await players[1].slash("leaderboard", game="tiny", computers=True))
            assert "13 players" in everyone.text, "twelve people and the computer at normal"
            check_page(everyone.message, in_order(expected)[:10], 1)

            picture = await stats_picture(ok(await players[0].slash("stats", game="tiny")))
            assert picture["filename"] == "rating.png"
            assert picture["content_type"] == "image/png" and picture["size"] > 1000
            mine = ok(await players[3].slash("stats", player=players[0]))
            await mine.wait_done(timeout=30)
            text = "\n".join(m.text() for m in [mine.message, *mine.followups] if m)
            assert "**3** games" in text, "three games here; the other server's is not counted"
            assert f"<@{zed.id}>" not in text

            there = ok(await zed.slash("leaderboard", channel=other_channel, game="tiny"))
            ids = {players[0].id, zed.id}
            assert all(f"<@{p.id}>" not in there.text for p in players[1:])
            assert all(f"<@{i}>" in there.text for i in ids) and "Page 1 of 1" in there.text
            away = ok(await zed.slash("stats", channel=other_channel, player=players[0]))
            await away.wait_done(timeout=30)
            text = "\n".join(m.text() for m in [away.message, *away.followups] if m)
            assert "**1** game ·" in text
        finally:
            await stop_bot(bot)
        old_page = second.message
        bot = await start_bot(bot_env)  # the paging buttons outlive the bot
        try:
            back = ok(await players[7].click(old_page, "Previous"))
            assert back.message is not None and back.message.id == old_page.id
            check_page(back.message, humans[:10], 1)
        finally:
            await stop_bot(bot)
