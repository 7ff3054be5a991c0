"""The Discord side of faults: faults injected in the fake Discord (403, 404, 429, 503) and in
the database (slow, failing), bad and crafted input. Each test shows the table going on, every
user answered in time, and no move lost or doubled."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    move_controls,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
    table_messages,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, Message
from tests.fakediscord.model import (
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    Overwrite,
)

MAX_REPLY = 2000


@pytest.fixture(autouse=True)
def everyone_answered(fake_discord: FakeDiscord) -> Iterator[None]:
    """After each test: every interaction got one valid answer in time (no "This interaction
    failed", no second answer), whatever fault was injected."""
    yield
    unanswered = [
        (ia.payload.get("data", {}).get("custom_id"), ia.response_type, ia.errors)
        for ia in fake_discord.interactions.values()
        if ia.failed or ia.response_type is None or ia.errors
    ]
    assert unanswered == []


def results_of(user: FakeUser, table_id: int) -> list[Message]:
    """The result messages of a table that stay in the channel's history."""
    return [
        m
        for m in user.visible_messages()
        if not m.is_ephemeral and m.content.startswith(f"**Table #{table_id}**")
    ]


def answered(result: InteractionResult, *words: str) -> str:
    """The interaction was answered in time, privately, briefly; its text (or followup's)."""
    ok(result)
    texts = [result.text] + [m.text() for m in result.followups]
    text = "\n".join(texts)
    assert result.ephemeral or all(m.is_ephemeral for m in result.followups), text
    assert all(len(t) < MAX_REPLY for t in texts)
    for word in words:
        assert word in text, f"{word!r} not in the answer {text!r}"
    return text


async def answer_of(fake: FakeDiscord, result: InteractionResult) -> str:
    """The text the user finally sees (a deferred answer is followed up)."""
    await fake.wait_for(lambda: not result.deferred or result.followups or result.message)
    await result.wait_done()
    return "\n".join([result.text] + [m.text() for m in result.followups])


async def play_out(
    fake: FakeDiscord, bot: Any, table_id: int, user: FakeUser, seed: str, limit: int = 200
) -> None:
    """``user`` plays their moves (computers the rest) until the table is closed."""
    rng = random.Random(seed)
    for _ in range(limit):
        table = bot.sessions.tables.get(table_id)
        if table is None:
            return
        seat = table.seat_of(user.id)
        if table.game is not None and seat in table.game.to_act():
            await act(user, await show_hand(user, table_id), rng)
        else:
            await asyncio.sleep(0.02)
    raise AssertionError("the game did not finish")


async def tiny_against_computer(fake: FakeDiscord, host: FakeUser) -> int:
    table_id = await open_table(fake, host, "tiny")
    await fill_with_computers(fake, host, table_id)
    await start(fake, host, table_id)
    return table_id


def no_errors(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []


# --- 1: names with cards --------------------------------------------------------------------
async def test_players_named_like_cards_do_not_block_a_table(
    fake_discord: FakeDiscord, running_bot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    ace, ten = fake_discord.user("A♠"), fake_discord.user("10♥ fan")  # tiny's own cards
    table_id = await open_table(fake_discord, ace, "tiny")
    ok(await ten.click(table_message(ten, table_id), "Join"))
    await wait_for_table(ace, table_id, "10♥ fan")
    await start(fake_discord, ace, table_id)
    await wait_for_table(ace, table_id, "Show my hand", button=True)
    users = {running_bot.sessions.tables[table_id].seat_of(u.id): u for u in (ace, ten)}
    rng = random.Random(1)
    for _ in range(50):
        table = running_bot.sessions.tables.get(table_id)
        if table is None:
            break
        mover = users[table.game.to_act()[0]]
        await act(mover, await show_hand(mover, table_id), rng)
        await wait_for_table(ace, table_id, f"Move {table.moves}")  # each update is shown
    final = await wait_for_table(ace, table_id, "Game over")
    assert "A♠" in final.text() and "10♥ fan" in final.text()
    assert results_of(ace, table_id)
    no_errors(caplog)


# --- 4: a deleted table message, /table show --------------------------------------------------
async def test_a_deleted_table_message_comes_back(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    lobby = await wait_for_table(alice, table_id, "Bob")
    await fake_discord.delete_message(lobby)
    assert not [m for m in table_messages(alice) if f"#{table_id}" in m.text()]
    answered(await bob.slash("table leave"), "left")
    await fake_discord.wait_for(lambda: table_messages(alice), timeout=5)
    again = await wait_for_table(alice, table_id, "*empty*")
    assert again.id != lobby.id and "Bob" not in again.text()
    live = running_bot.sessions.tables[table_id]
    await fake_discord.wait_for(lambda: live.row.message_id == again.id)

    shown = await answer_of(fake_discord, ok(await alice.slash("table show")))
    assert "here again" in shown
    newest = table_message(alice, table_id)
    assert newest.id not in (lobby.id, again.id)
    assert "moved" in fake_discord.messages[again.id].text()
    assert not fake_discord.messages[again.id].buttons(), "the old message is not the table's"
    ok(await alice.click(newest, "Add computer player"))
    await wait_for_table(alice, table_id, "🤖")


# --- 5: Discord down (503), busy (429) ----------------------------------------------------------
async def test_updates_and_results_survive_503_and_429(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    running_bot.get_cog("Tables").board.first_backoff = 0.05
    table_id = await tiny_against_computer(fake_discord, alice)
    edits = fake_discord.fail("PATCH /channels/", 503, times=3)
    posts = fake_discord.fail("POST /channels/", 503, times=3)
    fake_discord.rate_limit("PATCH /channels/", times=2)
    await play_out(fake_discord, running_bot, table_id, alice, "503")
    final = await wait_for_table(alice, table_id, "Game over", timeout=10)
    assert [b.get("label") for b in final.buttons()] == ["Rematch"]
    await fake_discord.wait_for(lambda: results_of(alice, table_id), timeout=10)
    assert edits.remaining == 0 and posts.remaining == 0, "the faults were met"
    moves = await running_bot.store.moves(table_id)
    assert f"Move {len(moves)}" in final.text()
    assert len(results_of(alice, table_id)) == 1, "posted once, not dropped nor doubled"


async def test_a_refused_edit_is_retried_once_the_permission_is_back(
    fake_discord: FakeDiscord, running_bot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    alice = fake_discord.user("alice")
    running_bot.get_cog("Tables").board.first_backoff = 0.05
    table_id = await tiny_against_computer(fake_discord, alice)
    refused = fake_discord.fail("PATCH /channels/", 403, times=2)
    await play_out(fake_discord, running_bot, table_id, alice, "403")
    await wait_for_table(alice, table_id, "Game over", timeout=10)
    assert refused.remaining == 0
    assert any("permission is missing" in r.getMessage() for r in caplog.records)
    assert len(results_of(alice, table_id)) == 1


# --- 6: a crash before the result was posted ----------------------------------------------------
async def test_a_result_left_unposted_by_a_crash_is_posted_after_restart(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    alice = fake_discord.user("alice")
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            table_id = await tiny_against_computer(fake_discord, alice)
            old_hand = await show_hand(alice, table_id)
            await show_hand(alice, table_id)  # the newer copy is the one the bot keeps current
            outage = fake_discord.fail("POST /channels/", 503, times=10_000)
            await play_out(fake_discord, bot, table_id, alice, "crash")
            await fake_discord.wait_for(lambda: outage.remaining < 10_000, timeout=10)
        finally:
            await stop_bot(bot)
        outage.remaining = 0
        stored = await _table_status(bot_env, table_id)
        assert stored == "finished" and not results_of(alice, table_id)

        bot = await start_bot(bot_env)
        try:
            await fake_discord.wait_for(lambda: results_of(alice, table_id), timeout=10)
            final = await wait_for_table(alice, table_id, "Game over", timeout=10)
            labels = [b.get("label") for b in final.buttons()]
            assert labels == ["Rematch"], "no live game buttons on a finished table"
            buttons, _ = move_controls(old_hand)
            stale = await alice.click(old_hand, custom_id=buttons[0]["custom_id"])
            assert "over" in answered(stale)
            await fake_discord.quiet()
            assert len(results_of(alice, table_id)) == 1
        finally:
            await stop_bot(bot)
        bot = await start_bot(bot_env)  # a third start announces nothing twice
        try:
            await fake_discord.quiet(idle=0.3)
            assert len(results_of(alice, table_id)) == 1
        finally:
            await stop_bot(bot)


async def _table_status(env: dict[str, str], table_id: int) -> str:
    with sqlite3.connect(env["DATABASE_PATH"]) as db:
        row = db.execute("SELECT status FROM game_tables WHERE id = ?", (table_id,)).fetchone()
    return str(row[0])


# --- 8: a slow or failing database ----------------------------------------------------------
def patch_append(bot: Any, wrapper: Callable[..., Awaitable[Any]]) -> Callable[[], None]:
    original = bot.store.append_move

    async def patched(*args: Any, **kwargs: Any) -> Any:
        return await wrapper(original, *args, **kwargs)

    bot.store.append_move = patched
    return lambda: setattr(bot.store, "append_move", original)


async def test_a_slow_database_is_answered_in_time_and_the_move_lands(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await tiny_against_computer(fake_discord, alice)
    await fake_discord.wait_for(
        lambda: (
            running_bot.sessions.tables[table_id].seat_of(alice.id)
            in running_bot.sessions.tables[table_id].game.to_act()
        )
    )
    before = len(await running_bot.store.moves(table_id))
    gate = asyncio.Event()

    async def slow(original: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
        await gate.wait()  # the database is locked by another process
        return await original(*args, **kwargs)

    undo = patch_append(running_bot, slow)
    hand = await show_hand(alice, table_id)
    buttons, _ = move_controls(hand)
    click = ok(await alice.click(hand, custom_id=buttons[0]["custom_id"]))
    assert click.deferred, "answered (deferred) while the database waits"
    gate.set()
    undo()
    clicked = buttons[0]["custom_id"]  # the hand redrawn after the move no longer offers it
    await fake_discord.wait_for(
        lambda: all(b.get("custom_id") != clicked for b in hand.buttons()), timeout=5
    )
    assert len(await running_bot.store.moves(table_id)) >= before + 1


async def test_a_failing_database_pauses_the_table_and_nothing_is_lost(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await tiny_against_computer(fake_discord, alice)
    table = running_bot.sessions.tables[table_id]
    await fake_discord.wait_for(lambda: table.seat_of(alice.id) in table.game.to_act())
    before = len(await running_bot.store.moves(table_id))

    async def broken(*_: Any, **__: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    undo = patch_append(running_bot, broken)
    hand = await show_hand(alice, table_id)
    buttons, _ = move_controls(hand)
    refused = await alice.click(hand, custom_id=buttons[0]["custom_id"])
    assert "paused" in answered(refused) and "not saved" in answered(refused)
    assert table.moves == before and len(await running_bot.store.moves(table_id)) == before
    undo()
    again = ok(await alice.click(hand, custom_id=buttons[0]["custom_id"]))
    assert not again.failed
    assert len(await running_bot.store.moves(table_id)) >= before + 1


# --- 9: /table new where the bot may not post ---------------------------------------------------
async def test_table_new_without_permission_leaves_no_ghost_table(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.default_channel
    bot_id = fake_discord.bot_user.id
    channel.overwrites.append(Overwrite(bot_id, 1, deny=SEND_MESSAGES))
    refused = ok(await alice.slash("table new", game="tiny"))
    assert "Send Messages" in await answer_of(fake_discord, refused)
    assert await running_bot.store.count_open_tables() == 0
    channel.overwrites.clear()

    fake_discord.fail("POST /channels/", 403)  # Discord refuses anyway (a race with a mod)
    ghost = ok(await alice.slash("table new", game="tiny"))
    assert "not opened" in await answer_of(fake_discord, ghost)
    assert await running_bot.store.count_open_tables() == 0
    table_id = await open_table(fake_discord, alice, "tiny")  # not "already seated"
    assert running_bot.sessions.tables[table_id].seat_of(alice.id) == 0


async def test_table_new_in_threads_names_the_thread_permission(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", threads=True))
    channel = fake_discord.default_channel
    channel.overwrites.append(Overwrite(fake_discord.bot_user.id, 1, deny=CREATE_PUBLIC_THREADS))
    refused = ok(await admin.slash("table new", game="tiny"))
    assert "Create Public Threads" in await answer_of(fake_discord, refused)
    assert await running_bot.store.count_open_tables() == 0
    channel.overwrites.clear()
    fake_discord.fail("/threads", 403)  # refused by Discord after the bot's own check
    ghost = ok(await admin.slash("table new", game="tiny"))
    text = await answer_of(fake_discord, ghost)
    assert "Create Public Threads" in text and "not opened" in text
    assert await running_bot.store.count_open_tables() == 0
    await open_table(fake_discord, admin, "tiny")  # the host is free to open one now


# --- 10: strict options, short replies ---------------------------------------------------------
@pytest.mark.parametrize(
    "game, options",
    [
        ("tiny", "players=--4"),
        ("tiny", "players=²"),
        ("tiny", "players=" + "9" * 4400),
        ("tiny", "x" * 3000),
        ("g" * 3000, None),
    ],
)
async def test_bad_options_get_a_short_answer(
    fake_discord: FakeDiscord, running_bot: Any, game: str, options: str | None
) -> None:
    alice = fake_discord.user("alice")
    extra = {"options": options} if options is not None else {}
    text = await answer_of(fake_discord, ok(await alice.slash("table new", game=game, **extra)))
    assert len(text) < 300, "quotes at most a few dozen characters"
    assert "9" * 60 not in text and "x" * 60 not in text and "g" * 60 not in text
    assert await running_bot.store.count_open_tables() == 0


async def test_long_game_names_are_quoted_briefly(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    for command in ("rules", "leaderboard", "table options"):
        text = answered(await alice.slash(command, game="g" * 3000), "no game")
        assert len(text) < 300


# --- 11: /table in a direct message -------------------------------------------------------------
async def test_table_commands_are_for_servers(fake_discord: FakeDiscord, running_bot: Any) -> None:
    alice = fake_discord.user("alice")
    synced = fake_discord.commands_for(fake_discord.default_guild.id)["table"]
    assert synced.data.get("contexts") == [0], "the group is restricted to servers"
    refused = await alice.slash_in_dm("table new", game="tiny")
    assert "server" in answered(refused)
    admin = fake_discord.user("admin", admin=True)
    assert "server" in answered(await admin.slash_in_dm("settings server", turn_seconds=30))
    assert "server" in answered(await alice.slash_in_dm("leaderboard", game="tiny"))
    assert await running_bot.store.count_open_tables() == 0


# --- 13: crafted values -----------------------------------------------------------------------
async def test_crafted_values_are_refused(
    fake_discord: FakeDiscord, running_bot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    lobby = await wait_for_table(alice, table_id, "Bob")
    table = running_bot.sessions.tables[table_id]
    host_seat = table.seat_of(alice.id)
    remove = await alice.crafted_component(lobby, f"ct:lr:{table_id}", [str(host_seat)])
    assert "offered" in answered(remove)
    assert table.seat_of(alice.id) == host_seat, "the host is still seated"

    admin = fake_discord.user("admin", admin=True)
    negative = await admin.crafted_slash("settings server", {"turn_seconds": -5})
    assert "10 to 3600" in answered(negative)
    settings = await running_bot.store.guild_settings(fake_discord.default_guild.id, 60)
    assert settings.turn_seconds > 0

    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.tables[table_id]
    users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
    mover = users[table.game.to_act()[0]]
    hand = await show_hand(mover, table_id)
    before = table.moves
    crafted = [
        (f"ct:s:{table_id}:{before}:1", ["play;action=bid"]),  # a select the hand never had
        (f"ct:m:{table_id}:{before}:play;action=bid", None),
        ("totally:unknown", None),
        (f"ct:x:{table_id}:AS", None),  # a disabled card's custom id
    ]
    for custom_id, values in crafted:
        assert answered(await mover.crafted_component(hand, custom_id, values))
    assert table.moves == before
    no_errors(caplog)


# --- the one error path -----------------------------------------------------------------------
async def test_an_unexpected_error_is_answered_and_logged_without_its_text(
    fake_discord: FakeDiscord, running_bot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    alice = fake_discord.user("alice")
    table_id = await tiny_against_computer(fake_discord, alice)
    table = running_bot.sessions.tables[table_id]
    await fake_discord.wait_for(lambda: table.seat_of(alice.id) in table.game.to_act())

    async def broken(*_: Any, **__: Any) -> Any:
        raise KeyError("AS TH 9S")  # a bug whose text holds a hand

    submit = running_bot.sessions.submit
    running_bot.sessions.submit = broken
    hand = await show_hand(alice, table_id)
    buttons, _ = move_controls(hand)
    text = answered(await alice.click(hand, custom_id=buttons[0]["custom_id"]), "went wrong")
    assert "AS" not in text and "error" in text
    logged = [r.getMessage() for r in caplog.records if r.name == "cogs.errors"]
    assert len(logged) == 1 and f"table={table_id}" in logged[0] and "move=" in logged[0]
    assert "AS TH" not in logged[0] and "KeyError" in logged[0]
    running_bot.sessions.submit = submit
    ok(await alice.click(hand, custom_id=buttons[0]["custom_id"]))


async def test_a_crafted_value_in_a_real_move_select_is_refused(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.tables[table_id]
    seat = table.seat_of(alice.id)
    await fake_discord.wait_for(lambda: seat in table.game.to_act(), timeout=10)
    hand = await show_hand(alice, table_id)
    _, options = move_controls(hand)
    assert options, "the bids are offered in a select"
    select = options[0][0]["custom_id"]
    before = table.moves
    refused = await alice.crafted_component(hand, select, ["play;action=bid"])
    assert "offered" in answered(refused)
    assert table.moves == before and len(await running_bot.store.moves(table_id)) == before
    chosen = ok(await alice.select(hand, select, [options[0][1]]))  # an offered one is taken
    assert not chosen.failed
    await fake_discord.wait_for(lambda: table.moves > before)
