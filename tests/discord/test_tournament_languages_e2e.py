"""A tournament in the server's language, its answers in each reader's: the sign-up message and
its button, the round's posts, the standings (text and picture) in Finnish for everyone in a
Finnish server; a Norwegian reader's answers in Norwegian, an Arabic reader's refusal in Arabic.
"""

from __future__ import annotations

import re
from typing import Any

from bot.store import GuildSettings
from tests.discord.table_driver import ok
from tests.discord.tournament_driver import TURN_SECONDS, play_out, prepare
from tests.fakediscord import FakeDiscord, FakeUser


def posted(user: FakeUser, text: str) -> list[Any]:
    return [m for m in user.visible_messages() if not m.is_ephemeral and text in m.text()]


async def test_a_finnish_servers_tournament_with_a_norwegian_and_an_arabic_reader(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    clock = await prepare(fake_discord, running_bot)
    guild = fake_discord.default_guild.id
    await running_bot.store.save_guild_settings(
        GuildSettings(guild, TURN_SECONDS, False, language="fi")
    )
    admin = fake_discord.user("organiser", admin=True)
    arabic = fake_discord.user("arabic", admin=True)
    people = [fake_discord.user(f"f{i}") for i in range(4)]
    await running_bot.sessions.set_user_language(arabic.id, "ar")
    await running_bot.sessions.set_user_language(people[0].id, "no")

    refused = ok(
        await arabic.slash(
            "tournament new", game="tarneeb", format="swiss", entry="individuals", start="soon"
        )
    )
    assert refused.ephemeral and "اكتب موعد البدء" in refused.text
    made = await ok(
        await admin.slash(
            "tournament new",
            game="tarneeb",
            format="swiss",
            entry="individuals",
            rounds=1,
            options="target=31 hand_limit=10",
        )
    ).wait_done(30)
    assert made.text.startswith("Turnaukseen #"), made.text
    match = re.search(r"#(\d+)", made.text)
    assert match
    tid = int(match.group(1))
    await fake_discord.quiet()
    message = next(m for m in admin.visible_messages() if f"**Turnaus #{tid}**" in m.text())
    assert "Kukin kierros kestää 60 minuuttia." in message.text()
    assert "Ilmoittautuneet (0): ei vielä ketään" in message.text()
    assert [b["label"] for b in message.buttons()] == ["Ilmoittaudu"]

    answers = [ok(await p.click(message, "Ilmoittaudu")).text for p in people]
    assert answers[0].startswith(f"Du er påmeldt i turnering #{tid}"), "her own language"
    assert answers[1].startswith(f"Olet ilmoittautunut turnaukseen #{tid}"), "the server's"
    started = await ok(await admin.slash("tournament start", tournament=tid)).wait_done(30)
    assert started.text == f"Turnaus #{tid} on alkanut."
    await play_out(fake_discord, running_bot, clock, tid)
    # The tournament is stored as over before its last posts are drawn and sent.
    await fake_discord.wait_for(lambda: posted(admin, f"Turnaus #{tid} on päättynyt."), 30)
    await fake_discord.quiet()

    assert len(posted(admin, f"Turnaus #{tid}: kierros 1 on alkanut.")) == 1
    (over,) = posted(admin, f"Turnaus #{tid}: kierros 1 on päättynyt.")
    assert "Osallistuja" in over.text() and "Pelattu" in over.text()
    (drawn,) = over.attachments
    assert drawn["description"].startswith(f"Turnaus #{tid}: tilanne kierroksen 1 jälkeen: 1. ")
    assert len(posted(admin, f"Turnaus #{tid} on päättynyt.")) == 1
    shown = ok(await people[0].slash("tournament show", tournament=tid))
    assert shown.text.startswith(f"Turnering #{tid} (ferdig). Hver runde varer 60 minutter.")
    assert "Sluttstilling:" in shown.text and "Deltaker" in shown.text


async def test_a_pairs_invitation_and_its_answer_in_the_servers_language(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    await prepare(fake_discord, running_bot)
    guild = fake_discord.default_guild.id
    await running_bot.store.save_guild_settings(
        GuildSettings(guild, TURN_SECONDS, False, language="no")
    )
    admin = fake_discord.user("organiser", admin=True)
    first, second = fake_discord.user("inviter"), fake_discord.user("invitee")
    made = await ok(
        await admin.slash("tournament new", game="tarneeb", format="knockout", entry="pairs")
    ).wait_done(30)
    match = re.search(r"#(\d+)", made.text)
    assert match
    tid = int(match.group(1))
    sent = ok(await first.slash("tournament invite", partner=second, tournament=tid))
    assert sent.text.startswith("Invitasjon sendt til ")
    await fake_discord.quiet()
    invitation = next(m for m in second.visible_messages() if "inviterer deg" in m.text())
    assert [b["label"] for b in invitation.buttons()] == ["Godta", "Avslå"]
    refused = ok(await admin.click(invitation, "Godta"))
    assert refused.text == "Bare den inviterte partneren kan godta."
    ok(await second.click(invitation, "Avslå"))
    await fake_discord.quiet()
    assert f"En invitasjon til å være partnere i turnering #{tid} ble avslått." in (
        invitation.text()
    )
    assert await running_bot.store.entrants(tid) == []
