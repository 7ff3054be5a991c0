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
