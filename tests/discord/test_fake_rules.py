"""The fake enforces Discord's rules: each violation fails here as it would on Discord."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest

from tests.conftest import restored_endpoints
from tests.discord.minibot import MiniBot, start_minibot
from tests.fakediscord import ClientRefused, FakeDiscord


@pytest.fixture
async def minibot(fake_discord: FakeDiscord) -> AsyncIterator[MiniBot]:
    with restored_endpoints():
        bot = await start_minibot(fake_discord)
        yield bot
        await bot.close()


async def test_late_answer_fails_the_interaction(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    fake_discord.response_deadline = 0.3  # Discord's is 3 s; shortened to keep the test fast
    alice = fake_discord.user("alice")
    result = await alice.slash("slow", seconds=0.5)
    assert result.failed
    await fake_discord.wait_for(lambda: fake_discord.errors)
    assert fake_discord.errors[-1].response["code"] == 10062  # Unknown interaction
    assert alice.visible_messages() == []


async def test_answer_in_time_succeeds(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    alice = fake_discord.user("alice")
    result = await alice.slash("slow", seconds=0.05)
    assert not result.failed and result.latency < 3
    assert result.text == "late"


async def test_second_initial_response_is_refused(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    alice = fake_discord.user("alice")
    result = await alice.slash("twice")
    assert result.text == "one"
    await fake_discord.wait_for(lambda: "twice" in minibot.behaviour)
    exc = minibot.behaviour["twice"]
    assert isinstance(exc, discord.HTTPException)
    assert exc.status == 400 and exc.code == 40060


async def test_six_buttons_in_a_row_is_invalid(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    alice = fake_discord.user("alice")
    result = await alice.slash("wide")
    exc = minibot.behaviour["wide"]
    assert exc.status == 400 and exc.code == 50035
    assert "components.0.components" in str(exc)
    assert result.text == "fallback"  # the failed callback did not count as the answer


async def test_custom_id_over_100_is_invalid(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    alice = fake_discord.user("alice")
    result = await alice.slash("longid")
    exc = minibot.behaviour["longid"]
    assert exc.code == 50035 and "custom_id" in str(exc)
    assert result.failed


async def test_forbidden_command_is_not_offered(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    alice = fake_discord.user("alice")
    with pytest.raises(ClientRefused, match="lacks the permissions"):
        await alice.slash("admin")
    boss = fake_discord.user("boss", admin=True)
    assert (await boss.slash("admin")).text == "admin ok"


async def test_client_validates_options(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    alice = fake_discord.user("alice")
    with pytest.raises(ClientRefused, match="required"):
        await alice.slash("table new")
    with pytest.raises(ClientRefused, match="one of"):
        await alice.slash("table new", game="poker")
    with pytest.raises(ClientRefused, match="no option"):
        await alice.slash("table new", game="thunee", colour="red")
    with pytest.raises(ClientRefused, match="needs a subcommand"):
        await alice.slash("table")


async def test_defer_then_followup_replaces_the_thinking_message(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    alice = fake_discord.user("alice")
    bob = fake_discord.user("bob")
    result = await alice.slash("table new", game="Thunee", seats=2)
    assert result.deferred
    await result.wait_done()
    assert result.text == "table for thunee with 2 seats"
    assert result.message in bob.visible_messages()  # public


async def test_ephemeral_is_seen_only_by_its_user(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    alice = fake_discord.user("alice")
    bob = fake_discord.user("bob")
    result = await alice.slash("table find", name="tuppi")
    assert result.ephemeral
    assert alice.last_ephemeral() == result.message
    assert bob.visible_messages() == []
    assert result.message not in fake_discord.visible_to(bob.user)


async def test_autocomplete(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    alice = fake_discord.user("alice")
    result = await alice.autocomplete("table find", "name", "t")
    assert [c["value"] for c in result.choices] == ["thunee", "tarneeb", "tuppi"]
    result = await alice.autocomplete("table find", "name", "tu")
    assert [c["value"] for c in result.choices] == ["tuppi"]


async def test_modal_round_trip(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    alice = fake_discord.user("alice")
    opened = await alice.slash("table rename")
    assert opened.modal is not None and opened.modal["title"] == "Rename"
    submitted = await alice.submit_modal(name="Friday game")
    assert submitted.text == "renamed to Friday game"


async def test_only_visible_enabled_components_can_be_clicked(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    alice = fake_discord.user("alice")
    secret = fake_discord.add_channel("secret", private_to=[fake_discord.bot_user.id])
    bob = fake_discord.user("bob")
    owner = fake_discord.user("owner")  # the guild owner sees every channel
    with pytest.raises(ClientRefused, match="may not use"):
        await alice.slash("hello", channel=secret)
    posted = await owner.slash("hello", channel=secret)
    assert posted.failed is False
    with pytest.raises(ClientRefused, match="cannot see"):
        await alice.click(posted, "Again")
    with pytest.raises(ClientRefused, match="cannot see"):
        await bob.click(posted, "Again")
    assert posted.message is not None
    posted.message.components[0]["components"][0]["disabled"] = True
    with pytest.raises(ClientRefused, match="disabled"):
        await owner.click(posted, "Again")


async def test_rate_limit_is_retried_by_discord_py(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    channel = minibot.get_channel(fake_discord.default_channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake_discord.rate_limit("POST /channels/", retry_after=0.05)
    message = await channel.send("after a 429")
    assert [r.status for r in fake_discord.requests if r.path.endswith("/messages")][-2:] == [
        429,
        200,
    ]
    assert fake_discord.messages[message.id].content == "after a 429"


async def test_channel_message_edit_fetch_delete_and_threads(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    channel = minibot.get_channel(fake_discord.default_channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("table", embed=discord.Embed(title="T"))
    await message.edit(content="table v2")
    fetched = await channel.fetch_message(message.id)
    assert fetched.content == "table v2" and fetched.embeds[0].title == "T"
    thread = await message.create_thread(name="table-chat")
    await thread.send("in thread")
    private = await channel.create_thread(name="hand", type=discord.ChannelType.private_thread)
    await private.add_user(discord.Object(fake_discord.user("alice").id))
    await private.send("for alice")
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    assert "for alice" in [m.content for m in alice.visible_messages()]
    assert "for alice" not in [m.content for m in bob.visible_messages()]
    await message.delete()
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(message.id)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("x" * 2001)
    assert info.value.code == 50035
    assert fake_discord.unknown_routes == []


async def test_an_edit_keeps_replaces_or_drops_attachments_as_discord_does(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    """An edit's ``attachments`` name the files kept (by id) and the new uploads (by index); an
    embed's ``attachment://name`` image shows the attachment of that name."""
    channel = minibot.get_channel(fake_discord.default_channel.id)
    assert isinstance(channel, discord.TextChannel)
    png = b"\x89PNG\r\n\x1a\nfirst"
    embed = discord.Embed(title="T").set_image(url="attachment://table.png")
    message = await channel.send(embed=embed, file=discord.File(io.BytesIO(png), "table.png"))
    stored = fake_discord.messages[message.id]
    assert fake_discord.embed_image(stored) == png
    assert message.embeds[0].image.url == stored.attachments[0]["url"]

    await message.edit(embed=embed.copy().set_footer(text="kept"))  # no attachments: kept
    assert fake_discord.embed_image(stored) == png and len(stored.attachments) == 1

    second = b"\x89PNG\r\n\x1a\nsecond"
    upload = discord.File(io.BytesIO(second), "table.png", description="the table")
    edited = await message.edit(embed=embed, attachments=[upload])
    assert fake_discord.embed_image(stored) == second, "the new upload replaced the old one"
    assert [a["description"] for a in stored.attachments] == ["the table"]
    assert edited.attachments[0].description == "the table"

    await message.edit(embed=embed, attachments=[edited.attachments[0]])  # kept by its id
    assert fake_discord.embed_image(stored) == second
    await message.edit(embed=discord.Embed(title="T"), attachments=[])
    assert stored.attachments == [] and fake_discord.embed_image(stored) is None


async def test_unknown_routes_are_recorded(fake_discord: FakeDiscord, minibot: MiniBot) -> None:
    with pytest.raises(discord.NotFound):
        await minibot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert [r.path for r in fake_discord.unknown_routes] == ["/voice/regions"]


async def test_interaction_token_expires_after_15_minutes(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    alice = fake_discord.user("alice")
    result = await alice.slash("hello")
    interaction_token = result.interaction.token
    fake_discord.clock.advance(15 * 60 + 1)
    webhook = discord.Webhook.partial(
        fake_discord.application_id, interaction_token, client=minibot
    )
    with pytest.raises(discord.HTTPException) as info:
        await webhook.edit_message("@original", content="too late")  # type: ignore[arg-type]
    assert info.value.status == 401 and info.value.code == 50027


async def test_gateway_resume_after_a_dropped_connection(
    fake_discord: FakeDiscord, minibot: MiniBot
) -> None:
    await fake_discord.disconnect_bot()
    await fake_discord.wait_for(lambda: fake_discord.resume_count == 1 and fake_discord.connected)
    assert fake_discord.identify_count == 1
    alice = fake_discord.user("alice")
    assert (await alice.slash("hello")).text.startswith("hello!")
    await asyncio.sleep(0)
