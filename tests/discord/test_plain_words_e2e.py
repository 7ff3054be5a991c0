"""The table notes a game's own word where it first appears."""

from __future__ import annotations

from typing import Any

from tests.discord.table_driver import fill_with_computers, open_table, start, wait_for_table
from tests.fakediscord import FakeDiscord


async def test_the_thunee_board_says_what_a_trumpman_is(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "thunee")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    board = await wait_for_table(alice, table_id, "*trumpman: the player after the dealer")
    assert board.text().count("*trumpman:") == 1, "one short line, once"
    assert fake_discord.errors == []
