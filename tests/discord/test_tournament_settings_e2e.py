"""End to end: who may run a tournament (the server's tournament role), its round length and
its start as a clock time."""

from __future__ import annotations

from typing import Any

from tests.discord.table_driver import ok
from tests.discord.tournament_driver import announce
from tests.fakediscord import FakeDiscord

NEW = {"game": "tarneeb", "format": "swiss", "entry": "individuals", "rounds": 2}


async def test_members_of_the_tournament_role_run_tournaments_until_it_is_cleared(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    guild = fake_discord.default_guild.id
    role = await fake_discord.create_role("Tournament staff", 0)
    admin = fake_discord.user("admin", admin=True)
    staff = fake_discord.user("staff", roles=("Tournament staff",))
    member = fake_discord.user("member")
    refused = ok(await staff.slash("tournament new", **NEW))
    assert refused.ephemeral and "Manage Server" in refused.text
    assert await running_bot.store.open_tournaments() == []

    shown = ok(await admin.slash("settings server", tournament_role=role))
    assert f"<@&{role.id}>" in str(shown.message.embeds[0])
    assert (await running_bot.store.guild_settings(guild, 60)).tournament_role == role.id
    by_staff = await announce(fake_discord, staff, **NEW)
    by_admin = await announce(fake_discord, admin, **NEW)
    refused = ok(await member.slash("tournament new", **NEW))
    assert refused.ephemeral and f"Manage Server or the <@&{role.id}> role" in refused.text
    refused = ok(await member.slash("tournament cancel", tournament=by_admin))
    assert f"<@&{role.id}>" in refused.text
    assert (await running_bot.store.get_tournament(by_admin)).status == "signup"
    cancelled = ok(await staff.slash("tournament cancel", tournament=by_admin))
    assert "is cancelled" in cancelled.text
    assert (await running_bot.store.get_tournament(by_admin)).status == "cancelled"
    refused = ok(await staff.slash("settings server", clear_tournament_role=True))
    assert "Manage Server" in refused.text, "the role runs tournaments, not the settings"

    ok(await admin.slash("settings server", clear_tournament_role=True))
    assert (await running_bot.store.guild_settings(guild, 60)).tournament_role is None
    refused = ok(await staff.slash("tournament new", **NEW))
    assert "Manage Server" in refused.text and "role" not in refused.text
    kept = ok(await staff.slash("tournament cancel", tournament=by_staff))
    assert "is cancelled" in kept.text, "an organiser still runs their own tournament"
    both = ok(
        await admin.slash("settings server", tournament_role=role, clear_tournament_role=True)
    )
    assert "not both" in both.text
    assert (await running_bot.store.guild_settings(guild, 60)).tournament_role is None
