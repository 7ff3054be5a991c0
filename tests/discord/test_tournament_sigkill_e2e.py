"""A Swiss tournament survives SIGKILL: the real bot as a subprocess (``python -m bot``) is
killed in the middle of a round, one of its tables finished and counted, the other still being
played; started again, it neither opens the round again nor counts the finished table twice,
and the tournament ends with the standings this test computes from the games themselves.

At each table three of the four people ``/table leave`` (a computer takes each seat at once)
and the fourth plays on by clicking the hand's buttons, so a game takes seconds; until they
click, the table waits for them (a turn lasts an hour here), which makes the moment of the kill
exact: the second table of round 1 is waiting for its last person.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

from bot.store import Store
from bot.tournaments.standings import number
from tests.conftest import BotProcess, bot_processes
from tests.discord.table_driver import act, ok, show_hand
from tests.discord.test_restart import wait_identified
from tests.discord.test_table_restart import CALM
from tests.discord.tournament_driver import (
    announce,
    expected_standings,
    signup_message,
    standings_rows,
)
from tests.fakediscord import FakeDiscord, FakeUser

T = TypeVar("T")
POLL = 0.05


async def until(
    check: Callable[[], Awaitable[T | None]], what: str, proc: BotProcess, timeout: float = 90
) -> T:
    """Poll the database (another process writes it) until ``check`` gives a value."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (found := await check()) is None or found is False:
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}; the bot's output:\n{proc.output()}")
        await asyncio.sleep(POLL)
    return found


async def players_at(store: Store, table_id: int, people: list[FakeUser]) -> list[FakeUser]:
    seated = {row.user_id for row in await store.seats(table_id)}
    return [person for person in people if person.id in seated]


async def leave(user: FakeUser) -> None:
    """Hand the seat to a computer (which plays the game on at once)."""
    left = ok(await user.slash("table leave"))
    assert left.text.startswith("You left"), left.text


async def all_but_one_leave(store: Store, table_id: int, people: list[FakeUser]) -> FakeUser:
    """Three leave the table; the one who stays is returned."""
    *leaving, staying = await players_at(store, table_id, people)
    for person in leaving:
        await leave(person)
    return staying


async def play_to_the_end(
    user: FakeUser, store: Store, table_id: int, proc: BotProcess, seed: int
) -> None:
    """``user`` plays their seat (the computers the others) until the game is over."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while (await store.get_table(table_id)).status == "playing":
        assert loop.time() < deadline, f"table {table_id} did not end:\n{proc.output()}"
        try:
            hand = await show_hand(user, table_id)
        except AssertionError:  # the game ended meanwhile: no hand to show
            continue
        if await act(user, hand, rng, prefer=CALM) is None:
            await asyncio.sleep(POLL)  # a computer's turn


def posts(user: FakeUser, text: str) -> int:
    return sum(1 for m in user.visible_messages() if not m.is_ephemeral and text in m.text())


async def test_a_swiss_killed_mid_round_goes_on_and_counts_each_result_once(
    fake_discord: FakeDiscord, bot_env: dict[str, str], tmp_path: Path
) -> None:
    fake = fake_discord
    env = {**bot_env, "TURN_SECONDS": "3600"}  # a person's turn never runs out here
    database = Path(bot_env["DATABASE_PATH"])
    with bot_processes(env, tmp_path) as start_process:
        first = start_process()
        await wait_identified(fake, 1, first)
        admin = fake.user("organiser", admin=True)
        people = [fake.user(f"k{i}") for i in range(8)]
        tid = await announce(
            fake,
            admin,
            game="tarneeb",
            format="swiss",
            entry="individuals",
            rounds=2,
            options="target=31 hand_limit=10",
        )
        for person in people:
            ok(await person.click(signup_message(person, tid), "Sign up"))
        await ok(await admin.slash("tournament start", tournament=tid)).wait_done(30)
        store = await Store.open(database)
        try:

            async def round_open(count: int) -> Any:
                rounds = await store.tournament_rounds(tid)
                opened = len(rounds) == count and None not in rounds[-1].table_ids
                return rounds[-1] if opened else None

            async def results() -> int:
                return len(await store.tournament_results(tid))

            async def counted(count: int) -> bool:
                return await results() == count

            one = await until(lambda: round_open(1), "round 1 opened", first)
            finished_first, still_playing = one.table_ids
            player = await all_but_one_leave(store, finished_first, people)
            waiting = await all_but_one_leave(store, still_playing, people)
            await play_to_the_end(player, store, finished_first, first, 1)
            await until(lambda: counted(1), "table 1's result counted", first)
            assert (await store.get_table(still_playing)).status == "playing"
            first.kill()  # SIGKILL: no shutdown of any kind
            await fake.wait_for(lambda: not fake.connected, timeout=10)

            second = start_process()
            await wait_identified(fake, 2, second)
            # The table came back as it was: its last person plays it out.
            await play_to_the_end(waiting, store, still_playing, second, 2)
            two = await until(lambda: round_open(2), "round 2 opened", second)
            staying = [await all_but_one_leave(store, t, people) for t in two.table_ids]
            await asyncio.gather(
                *(
                    play_to_the_end(person, store, table_id, second, 3 + index)
                    for index, (person, table_id) in enumerate(
                        zip(staying, two.table_ids, strict=True)
                    )
                )
            )

            async def finished() -> bool:
                return (await store.get_tournament(tid)).status == "finished"

            await until(finished, "the tournament finished", second)
            await fake.quiet()
            rounds = await store.tournament_rounds(tid)
            assert [r.paired.number for r in rounds] == [1, 2], "each round opened once"
            assert [r.table_ids[:2] for r in rounds[:1]] == [(finished_first, still_playing)]
            done = await store.tournament_results(tid)
            assert sorted((r.round, r.table) for r in done) == [(1, 1), (1, 2), (2, 1), (2, 2)]
            games = {t for r in rounds for t in r.table_ids}
            assert len(games) == 4 and len(await store.open_tables()) == 0
            for text in (
                f"#{tid}: round 1 is open",
                f"#{tid}: round 1 is over",
                f"#{tid}: round 2 is open",
                f"#{tid}: round 2 is over",
                f"Tournament #{tid} is over",
            ):
                assert posts(admin, text) == 1, f"{text!r} posted once"

            points, buchholz = await expected_standings(SimpleNamespace(store=store), tid)
            entrants = await store.entrants(tid)
            label = {e.id: e.label for e in entrants}
            shown = ok(await admin.slash("tournament show", tournament=tid))
            assert "Final standings" in shown.text
            assert standings_rows(shown.text) == {
                label[e]: (number(points[e]), number(buchholz.get(e, Fraction()))) for e in points
            }
            assert sum(points.values()) == 4 * 4, "each of the 4 games shares out 4 points"
        finally:
            await store.close()
        assert "Traceback" not in first.output() + second.output()
