"""Helpers for end-to-end tournament tests: people sign up and play through the bot.

Sign-up, start, standings and /tournament show go through the fake Discord. The games are
played by simulated people who move through the session manager (as the hand's buttons do) with
an easy computer's choice, so a tournament of three rounds takes seconds, not minutes; an absent
person simply never moves, and the test's manual clock runs their turn out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections import defaultdict
from fractions import Fraction
from typing import Any

from bot.clock import ManualClock
from bot.sessions import UserError
from bot.store import GuildSettings
from games.levels import choose_move
from tests.bot.backends import fetch
from tests.discord.table_driver import ok
from tests.fakediscord import FakeDiscord, FakeUser

TURN_SECONDS = 60


async def prepare(fake: FakeDiscord, bot: Any, *, threads: bool = False) -> ManualClock:
    """A manual clock for the bot's timers, and a server whose turns last a minute (whose
    tables open in their own threads, if asked)."""
    clock = ManualClock()
    bot.sessions.clock = clock
    await bot.store.save_guild_settings(GuildSettings(fake.default_guild.id, TURN_SECONDS, threads))
    return clock


async def announce(fake: FakeDiscord, organiser: FakeUser, **options: Any) -> int:
    result = await ok(await organiser.slash("tournament new", **options)).wait_done(30)
    await fake.quiet()
    match = re.search(r"Tournament #(\d+)", result.text or "")
    assert match, result.text
    return int(match.group(1))


def signup_message(user: FakeUser, tournament_id: int, *, open_only: bool = True) -> Any:
    """The tournament's sign-up message (with its button, unless ``open_only`` is False)."""
    for message in reversed(user.visible_messages()):
        if f"**Tournament #{tournament_id}**:" in message.text() and (
            message.buttons() or not open_only
        ):
            return message
    raise AssertionError(f"{user.name} sees no sign-up message")


async def play_out(
    fake: FakeDiscord,
    bot: Any,
    clock: ManualClock,
    tournament_id: int,
    absent: dict[int, set[int]] | None = None,
    timeout: float = 120.0,
    stop_after: int | None = None,
    moves: int | None = None,
) -> None:
    """Play every open round table until the tournament ends: each person moves at once,
    except those ``absent`` in a round (round: user ids), whose turn the clock runs out.
    ``stop_after``: stop once that round's games have ended (or, with ``moves``, once that
    many moves of that round were made)."""
    absent = absent or {}
    made = 0
    rng = random.Random(7)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    moved = False
    while True:
        if not moved:  # a round changes only once its tables wait for nobody: read it again
            if (await bot.store.get_tournament(tournament_id)).status != "running":
                break
            rounds = await bot.store.tournament_rounds(tournament_id)
        assert loop.time() < deadline, "the tournament did not end in time"
        number = rounds[-1].paired.number if rounds else 0
        if stop_after is not None and number >= stop_after:
            tables = [bot.sessions.find(t) for t in rounds[-1].table_ids]
            if (moves is not None and made >= moves) or all(t is None for t in tables):
                break
        moved = False
        for table_id in rounds[-1].table_ids if rounds else ():
            table = bot.sessions.find(table_id)
            if table is None or table.game is None or table.row.status != "playing":
                continue
            missing = absent.get(number, set())
            for row in list(table.seats.values()):
                if row.away and not row.computer and row.user_id not in missing:
                    # the clock run for an absent player also ran out a present one's turn
                    # (a manual clock gives turns begun at one moment one deadline): back
                    with contextlib.suppress(UserError):
                        await bot.sessions.come_back(table_id, row.user_id)
            for seat in table.waiting_for():
                row = table.seats[seat]
                if row.computer or row.away:
                    continue
                if row.user_id in absent.get(number, set()):
                    await clock.advance(TURN_SECONDS + 1)
                    moved = True
                    continue
                move = choose_move(table.game, seat, rng, "easy")
                try:
                    await bot.sessions.submit(table_id, row.user_id, table.moves, move)
                    made += 1
                except Exception as error:  # a computer moved meanwhile: look again
                    if "out of date" not in str(error) and "not being played" not in str(error):
                        raise
                moved = True
                break
        if not moved:
            await asyncio.sleep(0.01)  # computers (or the runner) are at work
    await fake.quiet()


def points_by_hand(places: list[int]) -> list[Fraction]:
    """Match points at a table, computed here from the places (2 a win, 1 a draw, 0 a loss for
    two sides; first 2 and last 0 at a table of more)."""
    sides = len(places)
    out = []
    for mine in places:
        beaten = sum(1 for p in places if p > mine)
        tied = sum(1 for p in places if p == mine) - 1
        out.append(Fraction(2) * (beaten + Fraction(tied, 2)) / (sides - 1))
    return out


async def expected_standings(
    bot: Any, tournament_id: int
) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Each entrant's match points and Buchholz from the stored pairings and the games' own
    final scores (read from the finished game tables, not from the tournament's results)."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    met: dict[int, list[list[int]]] = defaultdict(list)
    rounds = await bot.store.tournament_rounds(tournament_id)
    for stored in rounds:
        for entrant in stored.paired.byes:
            points[entrant] += 2
        for table, table_id in zip(stored.paired.tables, stored.table_ids, strict=True):
            places = await game_places(bot, table_id, table)
            for hand, (side, gained) in enumerate(
                zip(table.sides, points_by_hand(places), strict=True)
            ):
                for entrant in side:
                    points[entrant] += gained
                    met[entrant].append(
                        [e for h, s in enumerate(table.sides) if h != hand for e in s]
                    )
    buchholz = {
        e: sum(
            (sum((points[o] for o in group), Fraction()) / len(group) for group in groups),
            Fraction(),
        )
        for e, groups in met.items()
    }
    return dict(points), buchholz


async def game_places(bot: Any, table_id: int, table: Any) -> list[int]:
    """Each hand's place at a finished game from its stored outcome: the winners first; in a
    game for each alone the rest by their final score, lower first (Tunge's cards left)."""
    rows = await fetch(bot.store, "SELECT outcome FROM results WHERE table_id = ?", table_id)
    outcome = json.loads(rows[0][0])
    winners, score = set(outcome["winners"]), outcome["score"]
    hands = len(table.sides)
    won = [any(s in winners for s in range(h, len(table.seats), hands)) for h in range(hands)]
    if hands == 2:
        return [1 if w else 2 for w in won] if winners else [1, 1]
    rest = sorted({score[h] for h in range(hands) if not won[h]})
    first = 1 if any(won) else 0
    return [1 if won[h] else 1 + first + rest.index(score[h]) for h in range(hands)]


def standings_rows(text: str) -> dict[str, tuple[str, str]]:
    """Entrant label -> (MP, Buchholz) from a standings block."""
    block = text.split("```")[1]
    rows = {}
    for line in block.strip().splitlines()[1:]:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) >= 4 and cells[0].isdigit():
            rows[cells[1].rstrip("*")] = (cells[2], cells[3])
    return rows
