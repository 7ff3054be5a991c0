"""End to end: who may run a tournament (the server's tournament role), its round length and
its start as a clock time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.discord.table_driver import ok
from tests.discord.tournament_driver import announce, prepare, signup_message
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


async def test_a_clock_time_start_and_a_round_length_of_its_own(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    clock = await prepare(fake_discord, running_bot)
    admin = fake_discord.user("admin", admin=True)
    people = [fake_discord.user(f"c{i}") for i in range(4)]
    for bad in ("soon", "25:00", "0", "20:3"):
        refused = ok(await admin.slash("tournament new", **NEW, start=bad))
        assert refused.ephemeral and len(refused.text.splitlines()) == 1, bad
    refused = ok(await admin.crafted_slash("tournament new", {"round_minutes": 5}, **NEW))
    assert refused.ephemeral
    assert await running_bot.store.open_tournaments() == [], "nothing refused was kept"

    now = datetime.fromtimestamp(clock.now(), UTC)
    expected = now.replace(hour=20, minute=30, second=0, microsecond=0)
    if expected <= now:
        expected += timedelta(days=1)
    when = int(expected.timestamp())
    tid = await announce(fake_discord, admin, **NEW, start="20:30", round_minutes=20)
    row = await running_bot.store.get_tournament(tid)
    assert (row.starts_at, row.round_minutes) == (when, 20)
    posted = signup_message(admin, tid).text()
    assert f"<t:{when}:F>" in posted and f"<t:{when}:R>" in posted
    assert "Each round lasts 20 minutes." in posted
    shown = ok(await admin.slash("tournament show", tournament=tid))
    assert "Each round lasts 20 minutes." in shown.text
    for person in people:
        ok(await person.click(signup_message(person, tid), "Sign up"))
    await clock.advance(when - clock.now())
    await fake_discord.wait_for(
        lambda: any(f"#{tid}: round 1 is open" in m.text() for m in admin.visible_messages()), 30
    )
    (opened,) = await running_bot.store.tournament_rounds(tid)
    assert opened.deadline == opened.opened_at + 20 * 60

    later = await announce(fake_discord, admin, **NEW, start="45")
    row = await running_bot.store.get_tournament(later)
    assert (row.starts_at, row.round_minutes) == (clock.now() + 45 * 60, 60)
    assert "Each round lasts 60 minutes." in signup_message(admin, later).text()
