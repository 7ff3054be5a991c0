"""Tournaments end to end: sign-up on Discord, rounds that open tables, standings, restarts."""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction
from typing import Any

from bot.sessions.state import RETRY_SECONDS
from bot.tournaments.standings import number
from tests.bot.faults import fail_writes
from tests.discord.table_driver import ok
from tests.discord.tournament_driver import (
    announce,
    expected_standings,
    game_places,
    play_out,
    prepare,
    signup_message,
    standings_rows,
)
from tests.fakediscord import FakeDiscord


async def test_an_eight_player_swiss_of_tarneeb_with_rotating_partners(
    fake_discord: FakeDiscord, running_bot: Any, rounds: int = 3
) -> None:
    """``rounds``: fewer where the store, not the pairing, is under test (PostgreSQL)."""
    started = time.monotonic()
    clock = await prepare(fake_discord, running_bot)
    admin = fake_discord.user("organiser", admin=True)
    people = [fake_discord.user(f"p{i}") for i in range(8)]
    refused = ok(
        await people[0].slash(
            "tournament new", game="tarneeb", format="swiss", entry="individuals", rounds=3
        )
    )
    assert "Manage Server" in refused.text
    tid = await announce(
        fake_discord,
        admin,
        game="tarneeb",
        format="swiss",
        entry="individuals",
        rounds=rounds,
        options="target=31 hand_limit=10",
    )
    for person in people:
        joined = ok(await person.click(signup_message(person, tid), "Sign up"))
        assert "You are entered" in joined.text
    twice = ok(await people[0].click(signup_message(people[0], tid), "Sign up"))
    assert twice.ephemeral and twice.text == "Already entered in this tournament."
    begun = await ok(await admin.slash("tournament start", tournament=tid)).wait_done(30)
    assert f"Tournament #{tid} has started." in begun.text
    late = fake_discord.user("late")
    closed = await fake_discord.wait_for(
        lambda: (
            "Sign-up is closed" in signup_message(late, tid, open_only=False).content
            and not signup_message(late, tid, open_only=False).buttons()
        ),
        timeout=10,
    )
    assert closed, "the sign-up message says it closed and offers no button"
    refused = ok(  # a client that kept the old button
        await late.crafted_component(signup_message(late, tid, open_only=False), f"ct:ts:{tid}")
    )
    assert refused.ephemeral and refused.text in (
        "Sign-up for this tournament has closed.",
        "That button does nothing any more.",  # the message no longer offers it
    )
    entrants = {e.members[0]: e for e in await running_bot.store.entrants(tid)}
    absent = people[3]
    await play_out(fake_discord, running_bot, clock, tid, absent={2: {absent.id}})

    stored_rounds = await running_bot.store.tournament_rounds(tid)
    assert [len(r.paired.tables) for r in stored_rounds] == [2] * rounds
    partners = set()
    for stored in stored_rounds:
        seated = sorted(e for t in stored.paired.tables for e in t.entrants)
        assert seated == sorted(e.id for e in entrants.values()), "everyone plays every round"
        for table in stored.paired.tables:
            for side in table.sides:
                pair = frozenset(side)
                assert len(pair) == 2 and pair not in partners, "partners rotate"
                partners.add(pair)
    results = await running_bot.store.tournament_results(tid)
    stand_ins = {e for r in results for e in r.stand_ins}
    assert stand_ins == {entrants[absent.id].id}, "only the absent player was stood in for"
    assert all(r.round == 2 for r in results if r.stand_ins)

    points, buchholz = await expected_standings(running_bot, tid)
    shown = ok(await people[0].slash("tournament show", tournament=tid))
    assert "Final standings" in shown.text
    rows = standings_rows(shown.text)
    label = {e.id: e.label for e in entrants.values()}
    assert rows == {
        label[e]: (number(points[e]), number(buchholz.get(e, Fraction()))) for e in points
    }
    assert f"{entrants[absent.id].label}*" in shown.text
    posted = [m for m in admin.visible_messages() if "round 1 is over" in m.text()]
    assert len(posted) == 1, "the standings after a round are posted once"
    (drawn,) = posted[0].attachments  # the standings also drawn, described for screen readers
    assert drawn["filename"] == "standings.png"
    assert fake_discord.attachment_bytes(drawn).startswith(b"\x89PNG")
    assert drawn["description"].startswith(f"Tournament #{tid}: standings after round 1: 1. ")
    assert all(e.label in drawn["description"] for e in entrants.values())
    history = ok(await people[0].slash("history")).message
    assert history is not None
    listed = str(history.embeds[0])
    assert listed.count(f"tournament #{tid}, round ") == 2 * rounds, "its games, each as such"
    # A next tournament of the game seeds its entrants by their rating here, as it is now.
    again = await announce(
        fake_discord, admin, game="tarneeb", format="swiss", entry="individuals", rounds=1
    )
    for person in people[:2]:
        ok(await person.click(signup_message(person, again), "Sign up"))
    guild = fake_discord.default_guild.id
    for entrant in await running_bot.store.entrants(again):
        (trend,) = await running_bot.store.rating_trend(
            guild, "tarneeb", entrant.members[0], limit=1
        )
        assert entrant.rating == trend[1] != 0
    print(f"swiss tarneeb: {time.monotonic() - started:.1f} s")


async def test_an_eight_pair_knockout_of_thunee(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    started = time.monotonic()
    clock = await prepare(fake_discord, running_bot)
    admin = fake_discord.user("organiser", admin=True)
    people = [fake_discord.user(f"q{i}") for i in range(16)]
    tid = await announce(
        fake_discord,
        admin,
        game="thunee",
        format="knockout",
        entry="pairs",
        options="balls_to_win=2",
    )
    button = ok(await people[0].click(signup_message(people[0], tid), "Sign up"))
    assert "Pairs enter together" in button.text
    ok(await people[0].slash("tournament invite", partner=people[5], tournament=tid))
    await fake_discord.quiet()
    asked = next(m for m in reversed(people[5].visible_messages()) if "invites you" in m.text())
    ok(await people[5].click(asked, "Decline"))
    await fake_discord.quiet()
    assert "declined" in fake_discord.messages[asked.id].text()
    assert await running_bot.store.invites_to(tid, people[5].id) == []
    for first, second in zip(people[::2], people[1::2], strict=True):
        ok(await first.slash("tournament invite", partner=second, tournament=tid))
        await fake_discord.quiet()
        invitation = next(
            m for m in reversed(second.visible_messages()) if "invites you" in m.text()
        )
        wrong = ok(await people[0].click(invitation, "Accept"))
        assert wrong.text == "Only the invited partner can accept."
        accepted = ok(await second.click(invitation, "Accept"))
        assert "entered as a pair" in accepted.text
        # The invitation loses its buttons after the answer (a read of the server's language
        # first): wait for it rather than for a pause in the bot's requests.
        answered = fake_discord.messages[invitation.id]
        await fake_discord.wait_for(lambda m=answered: not m.buttons())
    alone = ok(await people[1].slash("tournament invite", partner=people[2], tournament=tid))
    assert alone.text == "Already entered in this tournament."
    begun = await ok(await admin.slash("tournament start", tournament=tid)).wait_done(30)
    assert "has started" in begun.text
    await play_out(fake_discord, running_bot, clock, tid, timeout=300)

    entrants = await running_bot.store.entrants(tid)
    assert len(entrants) == 8 and all(len(e.members) == 2 for e in entrants)
    rounds = await running_bot.store.tournament_rounds(tid)
    assert [len(r.paired.tables) for r in rounds] == [4, 2, 1]
    through = {e.id for e in entrants}
    for stored in rounds:
        assert set(stored.paired.entrants) == through, "the winners, and only they, go on"
        winners = set()
        for table, table_id in zip(stored.paired.tables, stored.table_ids, strict=True):
            places = await game_places(running_bot, table_id, table)
            (side,) = [s for h, s in enumerate(table.sides) if places[h] == 1]
            winners.update(side)
        through = winners
    (champion,) = through
    name = next(e.label for e in entrants if e.id == champion)
    shown = ok(await admin.slash("tournament show", tournament=tid))
    assert f"Won by `{name}`." in shown.text
    print(f"knockout thunee: {time.monotonic() - started:.1f} s")


async def test_a_seven_player_swiss_of_tunge(fake_discord: FakeDiscord, running_bot: Any) -> None:
    started = time.monotonic()
    clock = await prepare(fake_discord, running_bot, threads=True)
    admin = fake_discord.user("organiser", admin=True)
    people = [fake_discord.user(f"t{i}") for i in range(7)]
    tid = await announce(
        fake_discord, admin, game="tunge", format="swiss", entry="individuals", rounds=2
    )
    for person in people:
        ok(await person.click(signup_message(person, tid), "Sign up"))
    dropped = ok(await people[6].slash("tournament drop", tournament=tid))
    assert "withdrawn" in dropped.text
    ok(await people[6].click(signup_message(people[6], tid), "Sign up"))
    await ok(await admin.slash("tournament start", tournament=tid)).wait_done(30)
    await play_out(fake_discord, running_bot, clock, tid, timeout=300)

    rounds = await running_bot.store.tournament_rounds(tid)
    assert len(rounds) == 2
    for stored in rounds:
        assert sorted(len(t.seats) for t in stored.paired.tables) == [3, 4]
        for table_id, table in zip(stored.table_ids, stored.paired.tables, strict=True):
            game = await running_bot.store.get_table(table_id)
            assert game.options["players"] == len(table.seats)
            thread = fake_discord.channel(game.channel_id)
            assert thread.parent_id == fake_discord.default_channel.id, "in its own thread"
    entrants = await running_bot.store.entrants(tid)
    points, buchholz = await expected_standings(running_bot, tid)
    shown = ok(await admin.slash("tournament show", tournament=tid))
    label = {e.id: e.label for e in entrants}
    assert standings_rows(shown.text) == {
        label[e]: (number(points[e]), number(buchholz.get(e, Fraction()))) for e in points
    }
    print(f"swiss tunge: {time.monotonic() - started:.1f} s")


async def test_a_round_past_its_deadline_is_finished_by_computers(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    clock = await prepare(fake_discord, running_bot)
    admin = fake_discord.user("organiser", admin=True)
    people = [fake_discord.user(f"d{i}") for i in range(4)]
    tid = await announce(
        fake_discord,
        admin,
        game="tarneeb",
        format="swiss",
        entry="individuals",
        rounds=1,
        options="target=31 hand_limit=10",
        start="5",
    )
    for person in people:
        ok(await person.click(signup_message(person, tid), "Sign up"))
    await clock.advance(5 * 60)  # sign-up closes: round 1 opens by itself
    await fake_discord.wait_for(
        lambda: any("round 1 is open" in m.text() for m in admin.visible_messages()), 30
    )
    (stored,) = await running_bot.store.tournament_rounds(tid)
    table = running_bot.sessions.find(stored.table_ids[0])
    assert table is not None and table.row.status == "playing"
    host = next(p for p in people if p.id == table.row.host_id)
    refused = ok(await host.slash("table abandon"))
    assert refused.text.startswith("Only a server manager can close a tournament's table")
    # Nobody plays; the round's time runs out and computers finish the game.
    await clock.advance(60 * (await running_bot.store.get_tournament(tid)).round_minutes)
    await fake_discord.wait_for(
        lambda: any(f"Tournament #{tid} is over" in m.text() for m in admin.visible_messages()),
        60,
    )
    assert (await running_bot.store.get_tournament(tid)).status == "finished"
    (result,) = await running_bot.store.tournament_results(tid)
    entrants = await running_bot.store.entrants(tid)
    assert sorted(result.stand_ins) == sorted(e.id for e in entrants)
    assert (await running_bot.store.get_table(stored.table_ids[0])).status == "finished"


async def test_a_tournament_short_of_entrants_at_its_start_is_cancelled(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    clock = await prepare(fake_discord, running_bot)
    admin = fake_discord.user("organiser", admin=True)
    tid = await announce(
        fake_discord,
        admin,
        game="tarneeb",
        format="swiss",
        entry="individuals",
        rounds=1,
        start="5",
    )
    ok(await fake_discord.user("solo").click(signup_message(admin, tid), "Sign up"))
    early = ok(await admin.slash("tournament start", tournament=tid))
    await early.wait_done(10)
    assert early.text == "This tournament needs at least 4 players."
    await clock.advance(5 * 60)
    await fake_discord.wait_for(
        lambda: any("did not start" in m.text() for m in admin.visible_messages()), 10
    )
    assert (await running_bot.store.get_tournament(tid)).status == "cancelled"


async def test_a_result_the_database_could_not_keep_is_kept_once_it_can(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """The disk is full as the round's last game ends: the tournament does not stall until a
    restart; its next step is tried again and the result counts once."""
    clock = await prepare(fake_discord, running_bot)
    admin = fake_discord.user("organiser", admin=True)
    people = [fake_discord.user(f"d{i}") for i in range(4)]
    tid = await announce(
        fake_discord, admin, game="tarneeb", format="swiss", entry="individuals", rounds=1
    )
    for person in people:
        ok(await person.click(signup_message(person, tid), "Sign up"))
    await ok(await admin.slash("tournament start", tournament=tid)).wait_done(30)
    full = fail_writes(running_bot.store, "INSERT INTO tournament_results")
    full.armed = True
    await play_out(fake_discord, running_bot, clock, tid, stop_after=1)
    await asyncio.wait_for(full.failed.wait(), timeout=30)
    assert (await running_bot.store.get_tournament(tid)).status == "running"
    full.armed = False
    for _ in range(10):  # the retry waits on the (manual) clock
        await clock.advance(RETRY_SECONDS[-1])
        if (await running_bot.store.get_tournament(tid)).status == "finished":
            break
        await asyncio.sleep(0.05)
    assert (await running_bot.store.get_tournament(tid)).status == "finished"
    assert len(await running_bot.store.tournament_results(tid)) == 1
