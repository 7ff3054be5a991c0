"""End to end: hints. The host turns hints on in the lobby; the lobby and the table
say "Hints on (unrated)"; on their turn a player presses Hint on the private hand and is told,
privately, the normal computer player's move. With hints off there is no Hint button and a
crafted hint custom id is refused."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from games.levels import choose_move
from tests.bot.faults import until
from tests.discord.table_driver import (
    fill_with_computers,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord

HINTS_ON = "Hints on (unrated)"
TURN_ON = "Turn hints on (unrated)"


def stored_hints(path: Path | str, table_id: int) -> int:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT hints FROM game_tables WHERE id = ?", (table_id,)).fetchone()
    return int(row[0])


async def test_the_host_turns_hints_on_and_a_player_gets_the_normal_move(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    database = running_bot.settings.database_path
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    lobby = table_message(alice, table_id)
    assert HINTS_ON not in lobby.text().replace(TURN_ON, "")
    refused = ok(await bob.click(lobby, TURN_ON))
    assert refused.ephemeral and "Only the host" in refused.text
    assert stored_hints(database, table_id) == 0

    ok(await alice.click(lobby, TURN_ON))
    lobby = await wait_for_table(alice, table_id, "Turn hints off", button=True)
    assert f"Hints: {HINTS_ON}" in lobby.text()
    assert stored_hints(database, table_id) == 1
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    await wait_for_table(alice, table_id, HINTS_ON)

    table = running_bot.sessions.find(table_id)
    seat = table.seat_of(alice.id)
    await until(lambda: seat in table.waiting_for(), "alice's turn")
    hand = await show_hand(alice, table_id)
    assert any(b.get("label") == "Hint" for b in hand.buttons())
    # Computers wait for alice now: the position cannot change under the oracle.
    expected = choose_move(
        table.game, seat, random.Random(f"{table.row.seed}:{table.moves}"), "normal"
    )
    label = table.game.move_label(expected, seat)
    before = table.moves
    answer = ok(await alice.click(hand, "Hint"))
    assert answer.ephemeral, "a hint is for its player alone"
    assert answer.text.startswith(f"💡 Hint: **{label}** — "), (answer.text, label)
    assert table.moves == before  # asking plays nothing

    # Bob is not at the table (and cannot see alice's hand): a crafted hint click is refused.
    crafted = ok(await bob.crafted_component(table_message(bob, table_id), f"ct:hint:{table_id}"))
    assert crafted.ephemeral and "Hint:" not in crafted.text


async def test_with_hints_off_there_is_no_hint_button_and_a_crafted_one_is_refused(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tiny")
    await fill_with_computers(fake_discord, alice, table_id)
    crafted_on = f"ct:lh:{table_id}:1"
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.find(table_id)
    seat = table.seat_of(alice.id)
    await until(lambda: seat in table.waiting_for(), "alice's turn")
    hand = await show_hand(alice, table_id)
    assert not any(b.get("label") == "Hint" for b in hand.buttons())
    assert HINTS_ON not in table_message(alice, table_id).text()

    # A crafted hint click (the hand offers none, so discord.py takes no callback for it) and
    # a crafted lobby toggle after the start are both answered with a refusal and change nothing.
    refused = ok(await alice.crafted_component(hand, f"ct:hint:{table_id}"))
    assert refused.ephemeral and refused.text == "That button does nothing any more."
    late = ok(await alice.crafted_component(table_message(alice, table_id), crafted_on))
    assert late.ephemeral and "Hint:" not in late.text
    assert not running_bot.sessions.find(table_id).row.hints


async def test_hints_at_creation(fake_discord: FakeDiscord, running_bot: Any) -> None:
    alice = fake_discord.user("alice")
    result = ok(await alice.slash("table new", game="tiny", hints=True))
    assert result.ephemeral
    await fake_discord.quiet()
    (table,) = running_bot.sessions.tables.values()
    assert table.row.hints
    lobby = await wait_for_table(alice, table.id, "Turn hints off", button=True)
    assert HINTS_ON in lobby.text()
