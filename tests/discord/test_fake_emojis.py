"""The fake's application emojis (GET/POST /applications/{id}/emojis) keep Discord's limits:
names of 2-32 letters, digits or underscores, unique per application, images of at most
256 KiB, at most 2000 emojis."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator

import discord
import pytest

from tests.conftest import restored_endpoints
from tests.discord.minibot import MiniBot, start_minibot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.limits import MAX_APP_EMOJIS, MAX_EMOJI_IMAGE_BYTES

pytestmark = pytest.mark.new_application  # the fake's emoji endpoints, from none

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


@pytest.fixture
async def minibot(fake_discord: FakeDiscord) -> AsyncIterator[MiniBot]:
    with restored_endpoints():
        bot = await start_minibot(fake_discord)
        yield bot
        await bot.close()


async def test_create_then_list(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    made = await minibot.create_application_emoji(name="c_AS", image=PNG)
    assert made.name == "c_AS" and made.id
    listed = await minibot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(made.id, "c_AS")]
    assert (await minibot.fetch_application_emoji(made.id)).name == "c_AS"
    assert fake_discord.app_emojis[made.id]["size"] == len(PNG)


@pytest.mark.parametrize("name", ["x", "a" * 33, "c-AS", "c AS", "♠A"])
async def test_bad_names_are_refused(
    fake_discord: FakeDiscord, minibot: MiniBot, name: str
) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await minibot.create_application_emoji(name=name, image=PNG)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert fake_discord.app_emojis == {}


async def test_a_name_is_taken_once(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    await minibot.create_application_emoji(name="c_AS", image=PNG)
    with pytest.raises(discord.HTTPException) as refused:
        await minibot.create_application_emoji(name="c_AS", image=PNG)
    assert "already exists" in str(refused.value)
    assert len(fake_discord.app_emojis) == 1


async def test_images_over_256_kib_are_refused(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    big = PNG + b"\0" * MAX_EMOJI_IMAGE_BYTES
    with pytest.raises(discord.HTTPException) as refused:
        await minibot.create_application_emoji(name="big", image=big)
    assert "256" in str(refused.value)


async def test_at_most_2000_per_application(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    for n in range(MAX_APP_EMOJIS):  # filled directly: 2000 uploads would only slow the test
        fake_discord.app_emojis[n + 1] = {"id": str(n + 1), "name": f"e{n}", "size": 1}
    with pytest.raises(discord.HTTPException) as refused:
        await minibot.create_application_emoji(name="one_more", image=PNG)
    assert refused.value.code == 30018


async def test_a_button_may_show_only_a_known_emoji(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    made = await minibot.create_application_emoji(name="c_AS", image=PNG)
    channel = minibot.get_partial_messageable(fake_discord.default_channel.id)
    good = discord.ui.View()
    good.add_item(discord.ui.Button(label="A♠", emoji=made, custom_id="good"))
    await channel.send("ok", view=good)
    bad = discord.ui.View()
    bad.add_item(
        discord.ui.Button(label="A♠", emoji=discord.PartialEmoji(name="c_AS", id=1), custom_id="b")
    )
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("not ok", view=bad)
    assert "Invalid emoji" in str(refused.value)
