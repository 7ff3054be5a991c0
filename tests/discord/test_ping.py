"""The real bot, in-process, against the fake: /ping end to end."""

from __future__ import annotations

from typing import Any

from tests.fakediscord import FakeDiscord


async def test_ping_answers_ephemerally_in_time(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    bob = fake_discord.user("bob")
    result = await alice.slash("ping")
    assert not result.failed
    assert result.latency < 3.0
    assert result.response_type == 4
    message = result.message
    assert message is not None and message.is_ephemeral
    assert "healthy" in (message.embeds[0].get("title") or "")
    assert [b.get("label") for b in message.buttons()] == ["Refresh"]
    assert alice.visible_messages() == [message]
    assert bob.visible_messages() == []
    assert fake_discord.unknown_routes == []
    assert fake_discord.errors == []


async def test_refresh_button_edits_the_same_message(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    pinged = await alice.slash("ping")
    refreshed = await alice.click(pinged, "Refresh")
    assert refreshed.response_type == 7
    assert refreshed.message is pinged.message
    assert pinged.message is not None and pinged.message.history  # it was edited
    assert fake_discord.errors == []


async def test_commands_were_synced_to_the_dev_guild(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    names = set(fake_discord.guild_commands[fake_discord.default_guild.id])
    assert "ping" in names
    # ...and to every server, once per change of the command set.
    assert set(fake_discord.global_commands) == names
