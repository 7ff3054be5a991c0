"""What players see of a table (links, options, the board)."""

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


async def test_table_options_pages_through_every_option_in_words(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    from games.registry import get_game

    alice = fake_discord.user("alice")
    result = ok(await alice.slash("table options", game="thunee"))
    assert result.ephemeral
    message = result.message
    assert message is not None
    seen: set[str] = set()
    for _ in range(10):
        text = message.text()
        seen |= {o.name for o in get_game("thunee").OPTIONS if f"{o.name} (default" in text}
        assert "Values: int" not in text and "Values: bool" not in text
        nexts = [b for b in message.buttons() if b.get("label") == "Next ▶"]
        assert nexts, "the pager stays on the answer"
        if nexts[0].get("disabled"):
            break
        clicked = ok(await alice.click(message, "Next ▶"))
        await fake_discord.quiet()
        assert clicked.message is not None
        message = clicked.message
    assert seen == {o.name for o in get_game("thunee").OPTIONS}, "all 36 options shown"
    assert len(seen) == 36


async def test_rules_carry_a_legend_of_the_games_words(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    rules = ok(await alice.slash("rules", game="tuppi"))
    assert rules.ephemeral and "Words" in rules.text
    assert "sooli" in rules.text and "nousussa" in rules.text
