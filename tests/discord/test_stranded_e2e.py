"""No table is stranded, through the fake Discord: a locked database pauses a click and a
computer's move without losing or doubling one; a double Start and a leaving host are answered.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

import bot.sessions.turns as session_module
import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.clock import ManualClock
from bot.sessions import PAUSED_TEXT
from tests.bot.faults import until
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    ok,
    open_table,
    show_hand,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord


@asynccontextmanager
async def database_locked(bot: Any) -> AsyncIterator[None]:
    """Another process holds the bot's database's write lock (taken once the bot's own write,
    if one is under way, is done: waited for in a thread, so the bot's loop can finish it)."""
    other = sqlite3.connect(
        Path(bot.settings.database_path),
        isolation_level=None,
        timeout=30,
        check_same_thread=False,
    )
    try:
        await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def short_busy_timeout(bot: Any) -> None:
    """Make the bot give up on a lock after 50 ms (the default waits 5 s)."""
    await bot.store._db.execute("PRAGMA busy_timeout=50")


async def test_a_click_on_a_locked_database_is_paused_then_taken(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    ok(await alice.click(table_message(alice, table_id), "Start"))
    await wait_for_table(alice, table_id, "Show my hand", button=True)
    table = running_bot.sessions.find(table_id)
    users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
    user = users[table.game.to_act()[0]]
    await until(lambda: table.row.turn_deadline is not None, "the turn timer is stored")
    await short_busy_timeout(running_bot)
    hand = await show_hand(user, table_id)
    async with database_locked(running_bot):
        paused = ok(await act(user, hand, random.Random(1)) or pytest.fail("no move offered"))
    assert paused.ephemeral and PAUSED_TEXT in paused.text
    assert table.moves == 0 and await running_bot.store.moves(table_id) == []
    taken = await act(user, await show_hand(user, table_id), random.Random(1))
    assert taken is not None and PAUSED_TEXT not in taken.text
    assert [m.seq for m in await running_bot.store.moves(table_id)] == [0]


async def test_a_computer_move_on_a_locked_database_lands_once_the_lock_goes(
    fake_discord: FakeDiscord,
    running_bot: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    thinking = threading.Event()
    original = session_module.choose_move

    def slow_choice(game: Any, seat: int, rng: random.Random, level: str = "normal") -> Any:
        thinking.wait(10)  # the computer decides when the test lets it
        return original(game, seat, rng, level)

    monkeypatch.setattr(session_module, "choose_move", slow_choice)
    running_bot.sessions.computer_budget = 20.0
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tiny")
    await fill_with_computers(fake_discord, alice, table_id)  # the computer (seat 1) leads
    await short_busy_timeout(running_bot)
    ok(await alice.click(table_message(alice, table_id), "Start"))
    table = running_bot.sessions.find(table_id)
    async with database_locked(running_bot):
        thinking.set()
        await until(lambda: "computer move was not saved" in caplog.text, "the write failed")
        assert table.moves == 0 and await running_bot.store.moves(table_id) == []
        assert not table.worker.done(), "the worker lives on"
    await until(lambda: table.moves == 1, "the move lands after the lock goes")
    seat = table.seat_of(alice.id)
    rng = random.Random(2)
    while running_bot.sessions.find(table_id) is not None:
        if seat in table.game.to_act():
            await act(alice, await show_hand(alice, table_id), rng)
        await asyncio.sleep(0.01)
    moves = await running_bot.store.moves(table_id)
    assert [m.seq for m in moves] == list(range(6)), "six cards, none lost, none doubled"
    assert (await running_bot.store.get_table(table_id)).status == "finished"
    await wait_for_table(alice, table_id, "Game over")


async def test_a_double_start_is_answered_twice(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tiny")
    await fill_with_computers(fake_discord, alice, table_id)
    lobby = table_message(alice, table_id)
    results = await asyncio.gather(alice.click(lobby, "Start"), alice.click(lobby, "Start"))
    for result in results:
        ok(result)
    refusals = [r for r in results if r.ephemeral]
    assert len(refusals) == 1 and "already started" in refusals[0].text
    assert len(await running_bot.store.deals(table_id)) == 1


async def test_the_host_leaving_hands_the_lobby_to_the_next_player(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    ok(await alice.click(table_message(alice, table_id), "Leave"))
    await wait_for_table(bob, table_id, "**Bob** · host")
    ok(await bob.click(table_message(bob, table_id), "Add computer player"))
    await wait_for_table(bob, table_id, "🤖")
    ok(await bob.click(table_message(bob, table_id), "Start"))
    await wait_for_table(bob, table_id, "Show my hand", button=True)
    assert (await running_bot.store.get_table(table_id)).host_id == bob.id


async def test_an_idle_lobby_is_closed_and_its_message_says_so(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    clock = ManualClock()
    running_bot.sessions.clock = clock
    running_bot.sessions.lobby_idle_seconds = 1800
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tiny")
    await clock.advance(1801)
    closed = await wait_for_table(alice, table_id, "closed after 30 minutes without activity")
    assert closed.buttons() == []
    assert running_bot.sessions.find(table_id) is None
    second = await open_table(fake_discord, alice, "tiny")  # the host is free again
    assert second != table_id
    assert running_bot.sessions.table_of_user(fake_discord.default_guild.id, alice.id).id == second


async def test_four_tuppi_players_commit_their_bid_cards_at_once(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    names = ("alice", "bob", "carol", "dave")
    users = [fake_discord.user(name) for name in names]
    table_id = await open_table(fake_discord, users[0], "tuppi")
    for user in users[1:]:
        ok(await user.click(table_message(user, table_id), "Join"))
    await wait_for_table(users[0], table_id, "Dave")
    ok(await users[0].click(table_message(users[0], table_id), "Start"))
    await wait_for_table(users[0], table_id, "Show my hand", button=True)
    hands = [await show_hand(user, table_id) for user in users]  # all four see move 0
    results = await asyncio.gather(
        *(
            act(user, hand, random.Random(i))
            for i, (user, hand) in enumerate(zip(users, hands, strict=True))
        )
    )
    for result in results:
        assert result is not None and "out of date" not in result.text
    moves = await running_bot.store.moves(table_id)
    assert sorted(m.seat for m in moves[:4]) == [0, 1, 2, 3], "four bids, none refused or doubled"
    assert all(m.move["action"] == "bid" for m in moves[:4])


async def test_three_new_tables_at_once_make_one(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    results = await asyncio.gather(*(alice.slash("table new", game="tiny") for _ in range(3)))
    for result in results:
        ok(result)
    assert sum("already seated" in r.text for r in results) == 2
    assert await running_bot.store.count_open_tables() == 1


async def test_start_and_remove_at_once_never_unseat_a_player(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    lobby = await wait_for_table(alice, table_id, "Bob")
    results = await asyncio.gather(
        alice.click(lobby, "Start"), alice.select(lobby, f"ct:lr:{table_id}", ["1"])
    )
    for result in results:
        ok(result)
    stored = await running_bot.store.get_table(table_id)
    seats = await running_bot.store.seats(table_id)
    if stored.status == "playing":
        assert [s.user_id for s in seats] == [alice.id, bob.id]
        assert "already started" in results[1].text
        await wait_for_table(alice, table_id, "Show my hand", button=True)
    else:
        assert stored.status == "lobby" and [s.user_id for s in seats] == [alice.id]
        assert "Fill every seat" in results[0].text
