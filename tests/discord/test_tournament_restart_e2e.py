"""A tournament survives restarts: a game that ended while the bot was down counts once, a round
opens once, and tables under way when the bot stopped play on to the end."""

from __future__ import annotations

from fractions import Fraction

from bot.clock import ManualClock
from bot.tournaments.standings import number
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import ok
from tests.discord.tournament_driver import (
    announce,
    expected_standings,
    play_out,
    prepare,
    signup_message,
    standings_rows,
)
from tests.fakediscord import FakeDiscord


async def test_a_tournament_goes_on_after_restarts(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    with restored_endpoints():
        bot = await start_bot(bot_env, clock=ManualClock())
        try:
            clock = await prepare(fake_discord, bot)
            admin = fake_discord.user("organiser", admin=True)
            people = [fake_discord.user(f"r{i}") for i in range(4)]
            tid = await announce(
                fake_discord,
                admin,
                game="tarneeb",
                format="swiss",
                entry="pairs",
                rounds=3,
                options="target=31 hand_limit=10",
            )
            for first, second in ((people[0], people[1]), (people[2], people[3])):
                ok(await first.slash("tournament invite", partner=second, tournament=tid))
                await fake_discord.quiet()
                invitation = next(
                    m for m in reversed(second.visible_messages()) if "invites you" in m.text()
                )
                ok(await second.click(invitation, "Accept"))
            assert signup_message(admin, tid)
            await ok(await admin.slash("tournament start", tournament=tid)).wait_done(30)
            # Another one, in sign-up across the restarts, starts at its time all the same.
            later = await announce(
                fake_discord,
                admin,
                game="tarneeb",
                format="swiss",
                entry="individuals",
                rounds=1,
                start="5",
            )
            for name in ("s0", "s1", "s2", "s3"):
                person = fake_discord.user(name)
                ok(await person.click(signup_message(person, later), "Sign up"))
            # The bot "dies" as round 1's game ends: its last move is kept, the result is not.
            bot.sessions.closed_listeners.clear()
            await play_out(fake_discord, bot, clock, tid, stop_after=1)
            first = (await bot.store.tournament_rounds(tid))[0]
            assert (await bot.store.get_table(first.table_ids[0])).status == "finished"
            assert await bot.store.tournament_results(tid) == []
        finally:
            await stop_bot(bot)

        clock = ManualClock()
        bot = await start_bot(bot_env, clock=clock)
        try:
            await fake_discord.wait_for(
                lambda: any("round 2 is open" in m.text() for m in admin.visible_messages()), 30
            )
            # Stopped again in the middle of round 2's game.
            await play_out(fake_discord, bot, clock, tid, stop_after=2, moves=40)
        finally:
            await stop_bot(bot)

        clock = ManualClock()
        bot = await start_bot(bot_env, clock=clock)
        try:
            second = (await bot.store.tournament_rounds(tid))[1]
            assert bot.sessions.find(second.table_ids[0]) is not None, "round 2 plays on"
            assert (await bot.store.get_tournament(later)).status == "signup"
            await clock.advance(5 * 60)
            await fake_discord.wait_for(
                lambda: any(
                    f"Tournament #{later}: round 1 is open" in m.text()
                    for m in admin.visible_messages()
                ),
                30,
            )
            await play_out(fake_discord, bot, clock, tid)
            rounds = await bot.store.tournament_rounds(tid)
            results = await bot.store.tournament_results(tid)
            assert [r.paired.number for r in rounds] == [1, 2, 3]
            assert [(r.round, r.table) for r in results] == [(1, 1), (2, 1), (3, 1)]
            for n in (1, 2, 3):
                posted = [m for m in admin.visible_messages() if f"round {n} is over" in m.text()]
                assert len(posted) == 1, f"round {n}'s standings are posted once"
            entrants = await bot.store.entrants(tid)
            points, buchholz = await expected_standings(bot, tid)
            shown = ok(await admin.slash("tournament show", tournament=tid))
            label = {e.id: e.label for e in entrants}
            assert standings_rows(shown.text) == {
                label[e]: (number(points[e]), number(buchholz.get(e, Fraction()))) for e in points
            }
        finally:
            await stop_bot(bot)
