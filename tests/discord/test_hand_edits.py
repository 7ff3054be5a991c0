"""An open hand is edited only when what its player can do or see changes.

Four people play Tarneeb, each with their hand open. After every move the test compares what
Alice's hand is about (her cards, her legal moves, whether she is to act, her private notes: read
from the bot's session manager) before and after, and counts the edits of her hand message at the
fake Discord: others' moves that change none of it cost her hand no edit; her turn coming (after
a trick too, when her lead opens every card) costs one; her own move costs one (the click's
answer), with no refresh after it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import discord
import pytest

from cogs.card_faces import FACES
from tests.discord.table_driver import (
    act,
    move_controls,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser

MOVES = 40  # the auction, the trump, and a few tricks


def situation(table: Any, seat: int) -> tuple[object, ...]:
    """What a seat's hand is about, from the session manager (the oracle, not the bot's view)."""
    game = table.game
    legal = tuple(m.code for m in game.legal_moves(seat)) if game.status == "in_progress" else ()
    private = tuple(line.text for line in table.private.get(seat, ()))
    return tuple(game.view(seat).hand or ()), legal, seat in game.to_act(), private


class HandRefreshes:
    """The board's refreshes of a table's open hands, caught as each starts: its pending entry
    is dropped once the table message is edited, which may be before the click's answer is
    read here, while the hands' refresh is still on its way."""

    def __init__(self, bot: Any, table_id: int) -> None:
        self.table_id = table_id
        self.started: list[Any] = []
        board = bot.sessions.presenter
        refresh = board._refresh_hands

        def caught(pending: Any) -> Any:
            self.started.append(pending)
            return refresh(pending)

        board._refresh_hands = caught

    async def done(self, since: int) -> None:
        """Wait until the hands are up to date after the refreshes started ``since``."""
        started = [p for p in self.started[since:] if p.table.id == self.table_id]
        assert started, "a move always schedules a refresh of the table's hands"
        pending = started[-1]
        while pending.hands_task is not None and not pending.hands_task.done():
            await pending.hands_task


async def test_a_hand_is_edited_only_when_what_its_player_can_do_or_see_changes(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    users, table_id = await four_at(fake_discord, "tarneeb")
    alice = users[0]
    table = running_bot.sessions.tables[table_id]
    seat = table.seat_of(alice.id)
    hands = {user.id: (await show_hand(user, table_id)).id for user in users}
    await fake_discord.quiet()
    refreshes = HandRefreshes(running_bot, table_id)
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for step in range(4 * MOVES):  # the deal is random: play on until each case was seen
        if step >= MOVES and seen["trick ended, her turn"] >= 1:
            break
        before = situation(table, seat)
        tricks = len(table.game.tricks)
        edits = len(fake_discord.messages[hands[alice.id]].history)
        actor = next(u for u in users if table.seat_of(u.id) in table.game.to_act())
        started = len(refreshes.started)
        assert await act(actor, fake_discord.messages[hands[actor.id]], rng) is not None
        await refreshes.done(started)
        after = situation(table, seat)
        hand = fake_discord.messages[hands[alice.id]]
        edited = len(hand.history) - edits
        if actor is alice:
            seen["own move"] += 1
            assert edited == 1, "her own move: the click's answer redraws it, nothing more"
        elif after == before:
            seen["unchanged"] += 1
            assert edited == 0, f"{actor.name}'s move changed nothing for Alice: no edit"
        else:
            turn_came = after[2] and not before[2]
            seen["turn came" if turn_came else "changed"] += 1
            if turn_came and len(table.game.tricks) > tricks:
                seen["trick ended, her turn"] += 1
            assert edited == 1, f"{actor.name}'s move changed Alice's hand: one edit"
        buttons, options = move_controls(hand)
        offered = len(buttons) + sum(1 for _ in options)
        assert (offered > 0) == bool(after[1]), "the hand offers moves exactly when she has some"
    assert seen["unchanged"] >= 5 and seen["turn came"] >= 3 and seen["own move"] >= 3, seen
    assert seen["trick ended, her turn"] >= 1, seen
    assert fake_discord.errors == []


async def four_at(fake: FakeDiscord, game: str) -> tuple[list[FakeUser], int]:
    """Alice, Bob, Carol and Dave sit at a started table of ``game``."""
    users = [fake.user(name) for name in ("alice", "bob", "carol", "dave")]
    alice = users[0]
    table_id = await open_table(fake, alice, game)
    for user in users[1:]:
        ok(await user.click(table_message(user, table_id), "Join"))
        await wait_for_table(alice, table_id, user.name.capitalize())
    await start(fake, alice, table_id)
    assert FACES.task is not None
    await FACES.task  # the card pictures, drawn in the background, change every hand once
    return users, table_id


async def test_a_choice_on_a_hand_not_redrawn_still_plays_and_an_older_copy_is_refused(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """In Norwegian Whist everyone commits a bid card at once: Bob's commit leaves Alice's hand
    as it was (not redrawn), and her choice from before it still plays; the same choice on an
    older copy of her hand, made after, is out of date and plays nothing."""
    users, table_id = await four_at(fake_discord, "norwegian_whist")
    alice, bob = users[0], users[1]
    table = running_bot.sessions.tables[table_id]
    older = await show_hand(alice, table_id)
    hand = await show_hand(alice, table_id)
    bob_hand = await show_hand(bob, table_id)
    await fake_discord.quiet()
    buttons, options = move_controls(hand)
    assert options and not buttons, "a bid card to commit, in a select"
    select, value = options[0]
    shown = len(hand.history)
    refreshes = HandRefreshes(running_bot, table_id)
    assert await act(bob, bob_hand, random.Random(1)) is not None
    await refreshes.done(0)
    assert len(fake_discord.messages[hand.id].history) == shown, "nothing changed for Alice"
    moves = table.moves
    custom_id = str(select["custom_id"])
    assert int(custom_id.split(":")[3]) < moves, "her select was drawn before Bob's move"
    played = ok(await alice.select(hand, custom_id, [value]))
    assert table.moves == moves + 1, "a select of a hand not redrawn still plays"
    assert played.message is not None and "⚠️" not in played.message.text()
    stale = ok(await alice.select(older, custom_id, [value]))
    assert table.moves == moves + 1, "the same choice again plays nothing"
    assert stale.message is not None and "out of date" in stale.message.text()
    assert fake_discord.errors == []


async def test_a_hand_s_edits_keep_no_copy_of_its_controls_in_the_bot(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """A hand's controls are found by their custom ids (dynamic items; a card that cannot be
    played is a disabled button no one can press), so its edits (the click's answer, the
    refresh when others moved) file no view in discord.py's view store: nothing there changes
    while the hands are played, however many times they are redrawn."""
    users, table_id = await four_at(fake_discord, "tarneeb")
    table = running_bot.sessions.tables[table_id]
    hands = {user.id: (await show_hand(user, table_id)).id for user in users}
    await fake_discord.quiet()
    store = running_bot._connection._view_store
    filed = {m: store._synced_message_views.get(m) for m in hands.values()}
    edits = {m: len(fake_discord.messages[m].history) for m in hands.values()}
    refreshes = HandRefreshes(running_bot, table_id)
    rng = random.Random(3)
    for _ in range(12):
        actor = next(u for u in users if table.seat_of(u.id) in table.game.to_act())
        started = len(refreshes.started)
        assert await act(actor, fake_discord.messages[hands[actor.id]], rng) is not None
        await refreshes.done(started)
    redrawn = sum(len(fake_discord.messages[m].history) - edits[m] for m in hands.values())
    assert redrawn >= 12, "every click's answer, and the refreshes, redrew the hands"
    now = {m: store._synced_message_views.get(m) for m in hands.values()}
    assert now == filed, "no edit filed a view"
    assert fake_discord.errors == []


async def test_a_click_on_a_hand_builds_no_view_of_the_hand(
    fake_discord: FakeDiscord, running_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py would rebuild the clicked hand as a View for every click on it; a hand's
    controls are made from their custom ids alone (cogs/hand_clicks.py), and still play."""
    users, table_id = await four_at(fake_discord, "tarneeb")
    table = running_bot.sessions.tables[table_id]
    hands = {user.id: (await show_hand(user, table_id)).id for user in users}
    await fake_discord.quiet()
    built: list[object] = []
    real = discord.ui.View.from_message

    def counted(message: Any, /, *, timeout: float | None = 180.0) -> Any:
        built.append(message)
        return real(message, timeout=timeout)

    monkeypatch.setattr(discord.ui.View, "from_message", counted)
    refreshes = HandRefreshes(running_bot, table_id)
    rng = random.Random(4)
    for _ in range(6):
        actor = next(u for u in users if table.seat_of(u.id) in table.game.to_act())
        started, moves = len(refreshes.started), table.moves
        assert await act(actor, fake_discord.messages[hands[actor.id]], rng) is not None
        assert table.moves == moves + 1, "the click played"
        await refreshes.done(started)
    assert built == []
    assert fake_discord.errors == []
