"""Helpers for end-to-end table tests: users who only click what is on their screen.

The driver finds the table message a user sees, opens the user's hand with "Show my hand", and
picks one of the enabled moves at random. Oracles (what is hidden right now) come from the bot's
session manager: the tests read it, the simulated users never do.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from games.cards import display
from tests.fakediscord import FakeDiscord, FakeUser, InteractionResult, Message

# "🃏 Tarneeb · table #12", in whatever language the server reads ("pöytä #12", "bord #12").
TABLE_TITLE = re.compile(r" #(\d+)$")
ANSWER_SECONDS = 3.0


def table_messages(user: FakeUser) -> list[Message]:
    return [
        m
        for m in user.visible_messages()
        if not m.is_ephemeral and m.embeds and TABLE_TITLE.search(str(m.embeds[0].get("title", "")))
    ]


def table_message(user: FakeUser, table_id: int) -> Message:
    for message in reversed(table_messages(user)):
        if str(message.embeds[0].get("title", "")).endswith(f" #{table_id}"):
            return message
    raise AssertionError(f"{user.name} cannot see table #{table_id}")


def table_id_of(message: Message) -> int:
    match = TABLE_TITLE.search(str(message.embeds[0].get("title", "")))
    assert match
    return int(match.group(1))


def ok(result: InteractionResult) -> InteractionResult:
    assert not result.failed, f"the interaction failed: {result}"
    assert result.latency < ANSWER_SECONDS, f"answered after {result.latency:.2f} s"
    return result


async def open_table(
    fake: FakeDiscord, host: FakeUser, game: str, options: str | None = None
) -> int:
    before = {m.id for m in table_messages(host)}
    kwargs: dict[str, Any] = {"game": game}
    if options:
        kwargs["options"] = options
    result = ok(await host.slash("table new", **kwargs))
    assert result.ephemeral
    await fake.quiet()
    if result.deferred:  # the database was slow: the lobby comes when the write is done
        await fake.wait_for(lambda: any(m.id not in before for m in table_messages(host)), 30)
    new = [m for m in table_messages(host) if m.id not in before]
    assert len(new) == 1, f"one lobby message per new table; the bot said: {result.text}"
    return table_id_of(new[0])


async def fill_with_computers(fake: FakeDiscord, host: FakeUser, table_id: int) -> None:
    for _ in range(6):
        lobby = table_message(host, table_id)
        if "*empty*" not in lobby.text():
            return
        ok(await host.click(lobby, "Add computer player"))
        await fake.quiet()
    assert "*empty*" not in table_message(host, table_id).text()


async def start(fake: FakeDiscord, host: FakeUser, table_id: int) -> None:
    ok(await host.click(table_message(host, table_id), "Start"))
    await fake.quiet()


def move_controls(
    message: Message,
) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
    """Enabled move buttons, and (select, option value) pairs, on a hand message.

    Selects are move choices (``ct:s:``) or steps of the sequence builder (``ct:q:``).
    """
    buttons = [
        b
        for b in message.buttons()
        if str(b.get("custom_id", "")).startswith("ct:m:") and not b.get("disabled")
    ]
    options = [
        (c, o["value"])
        for c in message.iter_components()
        if c.get("type") == 3 and str(c.get("custom_id", "")).startswith(("ct:s:", "ct:q:"))
        for o in c.get("options", [])
    ]
    return buttons, options


async def wait_for_table(
    user: FakeUser, table_id: int, shows: str, timeout: float = 3.0, *, button: bool = False
) -> Message:
    """The table message once it shows ``shows`` as a button label (or, unless ``button``,
    anywhere in its text).

    Edits of the table message are coalesced, so they lag a moment behind the game.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        message = table_message(user, table_id)
        in_text = not button and shows in message.text()
        if in_text or any(b.get("label") == shows for b in message.buttons()):
            return message
        if loop.time() > deadline:
            raise AssertionError(f"table #{table_id} never showed {shows!r}:\n{message.text()}")
        await asyncio.sleep(0.02)


async def show_hand(user: FakeUser, table_id: int, label: str = "Show my hand") -> Message:
    """Press the table's "Show my hand" (``label``: as the server's language words it)."""
    message = await wait_for_table(user, table_id, label, button=True)
    result = ok(await user.click(message, label))
    assert result.ephemeral and result.message is not None
    return result.message


async def act(
    user: FakeUser, hand: Message, rng: random.Random, prefer: tuple[str, ...] = ()
) -> InteractionResult | None:
    """Make one random move from the hand's enabled controls; None when there is none.

    ``prefer``: move codes (such as ``"play;"``, ``"pass"``) to choose among when any is on
    offer. A step of the sequence builder is not a move: the user goes on with the updated hand.
    """
    for _ in range(60):
        buttons, options = move_controls(hand)
        preferred = [b for b in buttons if any(f":{code}" in b["custom_id"] for code in prefer)]
        preferred_options = [
            (c, v) for c, v in options if any(str(v).startswith(code) for code in prefer)
        ]
        if preferred or preferred_options:  # a preferred move, on a button or in a select
            buttons, options = preferred, preferred_options
        total = len(buttons) + len(options)
        if total == 0:
            return None
        pick = rng.randrange(total)
        if pick < len(buttons):
            return ok(await user.click(hand, custom_id=buttons[pick]["custom_id"]))
        select, value = options[pick - len(buttons)]
        result = ok(await user.select(hand, select["custom_id"], [value]))
        if not str(select["custom_id"]).startswith("ct:q:"):
            return result
        assert result.message is not None
        hand = result.message
    raise AssertionError("the sequence builder never reached a play")


def visible_cards(text: str, cards: set[str]) -> set[str]:
    return {c for c in cards if re.search(rf"(?<![0-9]){re.escape(display(c))}", text)}


def public_text(message: Message) -> str:
    """A public message's text without its "Recent" log (checked when each event happened),
    with its picture's alt text (which says what the fields beside a picture leave out)."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [
            f"{f['name']} {f['value']}"
            for f in embed.get("fields", [])
            if f.get("name") != "Recent"
        ]
        parts.append(message.image_alt(embed) or "")
    return "\n".join(parts)


def hand_text(message: Message) -> str:
    parts = [str(e.get("description", "")) for e in message.embeds]
    parts += [str(b.get("label", "")) for b in message.buttons()]
    return "\n".join(parts)


async def settle(fake: FakeDiscord) -> None:
    await fake.quiet(idle=0.05, timeout=5.0)
    await asyncio.sleep(0)


async def play_humans_to_the_end(
    fake: FakeDiscord, bot: Any, table_id: int, users: list[FakeUser]
) -> None:
    """Each person moves when their hand offers a move, until the game is over."""
    rng = random.Random(table_id)
    for _ in range(400):
        table = bot.sessions.tables.get(table_id)
        if table is None:
            return
        for user in users:
            seat = table.seat_of(user.id)
            if seat is not None and seat in table.waiting_for():
                hand = await show_hand(user, table_id)
                await act(user, hand, rng)
                break
        else:
            await fake.wait_for(lambda t=table: someone_to_act(bot, t, users), timeout=5)
    raise AssertionError("the game did not end")


def someone_to_act(bot: Any, table: Any, users: list[FakeUser]) -> bool:
    """The game is over, or waits on one of ``users``."""
    if bot.sessions.tables.get(table.id) is not table:
        return True
    return any(table.seat_of(u.id) in table.waiting_for() for u in users)


async def two_play_a_tiny_game(fake: FakeDiscord, bot: Any, host: FakeUser, guest: FakeUser) -> int:
    """``host`` opens a table of the reference game, ``guest`` joins, and the two play it to
    the end; the table's number."""
    table_id = await open_table(fake, host, "tiny")
    ok(await guest.click(table_message(guest, table_id), "Join"))
    await wait_for_table(host, table_id, guest.name.capitalize())
    await start(fake, host, table_id)
    await play_humans_to_the_end(fake, bot, table_id, [host, guest])
    return table_id
