"""Issue 17 through the fake Discord: what players see of a table (links, options, the board)."""

from __future__ import annotations

from typing import Any

from tests.discord.table_driver import ok, table_messages
from tests.fakediscord import FakeDiscord


async def test_table_new_links_to_the_lobby_in_its_server(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    result = ok(await alice.slash("table new", game="thunee"))
    await fake_discord.quiet()
    (lobby,) = table_messages(alice)
    assert lobby.guild_id is not None
    link = f"https://discord.com/channels/{lobby.guild_id}/{lobby.channel_id}/{lobby.id}"
    assert link in result.text, result.text
    assert "@me" not in result.text
