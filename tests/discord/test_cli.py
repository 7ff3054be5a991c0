"""The command-line faces of the fake: serve's env lines and a scripted scenario."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord
from tests.fakediscord.__main__ import Session, env_lines


async def test_env_lines_point_at_the_fake(fake_discord: FakeDiscord) -> None:
    text = env_lines(fake_discord)
    assert f"DISCORD_API_BASE={fake_discord.api_base}" in text
    assert f"DISCORD_GATEWAY_URL={fake_discord.gateway_url}" in text


async def test_play_session_commands(
    fake_discord: FakeDiscord, running_bot: Any, tmp_path: Path
) -> None:
    session = Session(fake_discord)
    assert "healthy" in await session.run("/ping")
    assert "#1" in await session.run("show")
    assert "healthy" in await session.run("click Refresh")
    await session.run("as bob")
    assert await session.run("show") == "(nothing to see)"


async def test_a_click_echoes_the_message_once_the_bot_has_settled(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """The table is edited a moment after the click is answered: the echo shows the edit."""
    session = Session(fake_discord)
    assert "is open" in await session.run("/table new game:tarneeb")
    echo = await session.run('click "Add computer player"')
    assert "`2` **🤖" in echo and "`2` *empty*" not in echo
