from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.conftest import restored_endpoints
from tests.discord.minibot import MiniBot, start_minibot
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def minibot(fake_discord: FakeDiscord) -> AsyncIterator[MiniBot]:
    with restored_endpoints():
        bot = await start_minibot(fake_discord)
        yield bot
        await bot.close()


async def test_hello(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    alice = fake_discord.user("alice")
    result = await alice.slash("hello")
    assert not result.failed, result
    assert result.text.startswith("hello!")
    again = await alice.click(result, "Again")
    assert again.response_type == 7
    assert result.message is not None and result.message.content == "hello again!"
    assert fake_discord.unknown_routes == []
