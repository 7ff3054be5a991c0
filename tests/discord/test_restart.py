"""A real ``python -m bot`` process, killed with SIGKILL and started again: a button posted
before the kill still works after the restart (the fake Discord outlives the bot)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tests.conftest import BotProcess
from tests.fakediscord import FakeDiscord


async def wait_identified(fake: FakeDiscord, count: int, proc: BotProcess) -> None:
    try:
        await fake.wait_for(lambda: fake.identify_count >= count and fake.connected, timeout=20)
    except TimeoutError:
        raise AssertionError(f"bot did not connect; its output:\n{proc.output()}") from None
    await asyncio.sleep(0.3)  # guild_ready_timeout (0.1 s) before discord.py calls on_ready


async def test_old_refresh_button_works_after_sigkill_restart(
    fake_discord: FakeDiscord, bot_process: Callable[[], BotProcess]
) -> None:
    first = bot_process()
    await wait_identified(fake_discord, 1, first)
    alice = fake_discord.user("alice")
    pinged = await alice.slash("ping")
    assert not pinged.failed, first.output()
    old_message = pinged.message
    assert old_message is not None

    first.kill()
    await fake_discord.wait_for(lambda: not fake_discord.connected, timeout=5)
    second = bot_process()
    await wait_identified(fake_discord, 2, second)

    refreshed = await alice.click(old_message, "Refresh")
    assert not refreshed.failed, second.output()
    assert refreshed.response_type == 7
    assert refreshed.message is not None and refreshed.message.id == old_message.id
    assert fake_discord.errors == []
    assert fake_discord.unknown_routes == []
