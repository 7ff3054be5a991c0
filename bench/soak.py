"""Proof that a crash loses nothing: a load run during which the bot is killed again and again.

``python -m bench.soak --tables N --minutes M --kills K [--think LOW HIGH] [--json PATH]``

The set-up is bench/load.py's: the real bot as its own process against the in-repo fake Discord,
simulated people at N tables. During the run the bot process gets SIGKILL K times, each time
started again at once. A third of the kills come at a random moment, a third a few milliseconds
after a person clicks a move (while the bot validates and writes it) and a third a little later
(while the computers that follow think and write). Each person keeps their own record of every
move they sent and what they were told: accepted, refused, or no answer (the bot was dead).

At the end the database is checked against those records:

- every stored game replays cleanly through the rules, and is finished or can go on;
- no move a person was told was accepted is missing (in their order, at their table);
- no move is doubled: a person has at most as many stored moves as they were told were accepted
  plus the clicks that got no answer.

It prints the figures and the failures (if any), writes a JSON report, and exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench import load
from games.base import Deal, Move
from games.registry import get_game
from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord

GRACE_SECONDS = 20.0  # play on after the last kill, so its recovery is part of the run


@dataclass
class SoakReport:
    tables: int
    minutes: float
    kills: int = 0
    kills_after_click: int = 0
    restarts_seconds: list[float] = field(default_factory=list)
    moves_stored: int = 0
    moves_told_accepted: int = 0
    moves_unanswered: int = 0
    games_finished: int = 0
    games_resumable: int = 0
    lost: int = 0
    doubled: int = 0
    failures: list[str] = field(default_factory=list)


def stored_games(path: Path) -> dict[int, tuple[str, list[tuple[int, int | None, Move]]]]:
    """Per table: its status, and its moves (seat, who clicked, move) in order."""
    games: dict[int, tuple[str, list[tuple[int, int | None, Move]]]] = {}
    with contextlib.closing(sqlite3.connect(path)) as db:
        for table_id, status in db.execute("SELECT id, status FROM game_tables"):
            rows = db.execute(
                "SELECT seat, user_id, move FROM moves WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ).fetchall()
            moves = [(s, u, Move.from_json(json.loads(m))) for s, u, m in rows]
            games[int(table_id)] = (str(status), moves)
    return games


def replay_problem(path: Path, table_id: int) -> str | None:
    """None when the stored game replays through the rules; else what went wrong."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        game, options, seed, first_dealer, status = db.execute(
            "SELECT game, options, seed, first_dealer, status FROM game_tables WHERE id = ?",
            (table_id,),
        ).fetchone()
        if status in ("lobby", "cancelled"):
            return None
        deals = [
            Deal.from_json(json.loads(row[0]))
            for row in db.execute(
                "SELECT deal FROM deals WHERE table_id = ? ORDER BY deal_index", (table_id,)
            )
        ]
        moves = db.execute(
            "SELECT seat, move FROM moves WHERE table_id = ? ORDER BY seq", (table_id,)
        ).fetchall()
    try:
        state = get_game(game).new(
            json.loads(options), seed=seed, deals=deals, first_dealer=first_dealer
        )
        for seat, move in moves:
            state.apply(seat, Move.from_json(json.loads(move)))
    except Exception as error:  # any failure to replay is what this soak looks for
        return f"table {table_id} ({game}) does not replay: {error}"
    if status == "finished" and state.status != "finished":
        return f"table {table_id} is stored finished but its moves do not finish it"
    if status == "playing" and state.status == "finished":
        return f"table {table_id} is finished by its moves but stored as playing"
    return None


def is_subsequence(told: Sequence[str], stored: Sequence[str]) -> bool:
    it = iter(stored)
    return all(any(code == s for s in it) for code in told)


def check(path: Path, people: list[load.Person], report: SoakReport) -> None:
    games = stored_games(path)
    report.moves_stored = sum(len(moves) for _, moves in games.values())
    for table_id, (status, _) in games.items():
        problem = replay_problem(path, table_id)
        if problem:
            report.failures.append(problem)
        elif status == "finished":
            report.games_finished += 1
        elif status == "playing":
            report.games_resumable += 1
    for person in people:
        for table_id in person.games:
            _, moves = games.get(table_id, ("", []))
            stored = [m.code for _, user, m in moves if user == person.user.id]
            sent = [(code, outcome) for t, code, outcome in person.moves_sent if t == table_id]
            told = [code for code, outcome in sent if outcome == "accepted"]
            unanswered = sum(1 for _, outcome in sent if outcome == "unknown")
            report.moves_told_accepted += len(told)
            report.moves_unanswered += unanswered
            if not is_subsequence(told, stored):
                report.lost += 1
                report.failures.append(
                    f"{person.user.name} at table {table_id}: told {told}, stored {stored}"
                )
            if len(stored) > len(told) + unanswered:
                report.doubled += 1
                report.failures.append(
                    f"{person.user.name} at table {table_id}: {len(stored)} stored moves for"
                    f" {len(told)} accepted and {unanswered} unanswered"
                )


async def killer(
    fake: FakeDiscord,
    bot: load.BotProcess,
    clicked: asyncio.Event,
    args: argparse.Namespace,
    report: SoakReport,
    rng: random.Random,
) -> None:
    """Kill the bot ``args.kills`` times, about ``--minutes`` apart in all, restarting it each
    time; then let the tables play on for a while, so every last kill is recovered from."""
    gap = args.minutes * 60 / args.kills
    for number in range(args.kills):
        await asyncio.sleep(rng.uniform(0.5, 1.5) * gap)
        kind = number % 3
        if kind:  # right after a click: during its write (1), or as computers follow (2)
            clicked.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(clicked.wait(), timeout=gap)
            await asyncio.sleep(rng.uniform(0.0, 0.01) if kind == 1 else rng.uniform(0.02, 0.3))
            report.kills_after_click += 1
        started = time.monotonic()
        identified = fake.identify_count
        bot.kill()
        report.kills += 1
        bot.start()
        await load.wait_connected(fake, identified + 1, bot)
        report.restarts_seconds.append(round(time.monotonic() - started, 2))
    await asyncio.sleep(GRACE_SECONDS)


async def keep_playing(
    fake: FakeDiscord, person: load.Person, game: str, stop: asyncio.Event
) -> None:
    """Play one table after another (the same game) until the soak stops."""
    while not stop.is_set():
        try:
            await load.open_table(fake, person, None, game, "normal")
        except (RuntimeError, TimeoutError, KeyError):  # the bot died under the lobby
            await asyncio.sleep(1.0)
            continue
        person.games.append(person.table_id)
        await ensure_started(person)
        await person.play(float("inf"), stop)


async def ensure_started(person: load.Person) -> None:
    """A lobby whose clicks died with the bot: fill it and start it again."""
    for _ in range(10):
        message = person.table_message()
        labels = [b.get("label") for b in message.buttons()] if message else []
        if message is None or "Start" not in labels:
            return
        for _ in range(message.text().count("*empty*")):
            await person.interact("lobby", person.user.click(message, "Add computer player"))
        await person.interact("lobby", person.user.click(message, "Start"))
        await asyncio.sleep(1.0)


async def run(args: argparse.Namespace) -> SoakReport:
    rng = random.Random(args.seed)
    report = SoakReport(tables=args.tables, minutes=args.minutes)
    with tempfile.TemporaryDirectory(prefix="cardtable-soak-") as folder:
        database = Path(folder) / "soak.sqlite3"
        fake = FakeDiscord(token=f"{DEFAULT_TOKEN}-{rng.getrandbits(64):x}", discord_limits=True)
        await fake.start()
        env = fake.env(DATABASE_PATH=str(database), LOG_LEVEL="WARNING", TURN_SECONDS="600")
        args.log.unlink(missing_ok=True)
        bot = load.BotProcess(env, args.log)
        bot.start()
        people: list[load.Person] = []
        try:
            await load.wait_connected(fake, 1, bot)
            answers: list[load.Answer] = []
            channels = [
                fake.add_channel(f"soak-{i}")
                for i in range((args.tables + args.per_channel - 1) // args.per_channel)
            ]
            clicked = asyncio.Event()
            for index in range(args.tables):
                channel = channels[index // args.per_channel]
                host = load.Person(
                    fake,
                    fake.user(f"s{index}a"),
                    channel,
                    random.Random(index),
                    args.think,
                    answers,
                )
                host.clicked = clicked
                host.reopen_after = 3.0  # a restart forgets open hands: people look again soon
                people.append(host)
            stop = asyncio.Event()
            players = [
                asyncio.create_task(keep_playing(fake, person, load.GAMES[i % 6], stop))
                for i, person in enumerate(people)
            ]
            await killer(fake, bot, clicked, args, report, rng)
            stop.set()
            await asyncio.gather(*players)
        finally:
            bot.stop()
            await fake.stop()
        check(database, people, report)
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.5), metavar=("LOW", "HIGH"))
    parser.add_argument("--per-channel", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=Path("bench/soak-report.json"))
    parser.add_argument("--log", type=Path, default=Path(tempfile.gettempdir()) / "soak-bot.log")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args))
    restarts = sorted(report.restarts_seconds)
    median = restarts[len(restarts) // 2] if restarts else 0
    print(
        f"tables {report.tables} · {report.minutes} min · kills {report.kills}"
        f" ({report.kills_after_click} right after a click) · restart median {median} s"
    )
    print(
        f"moves stored {report.moves_stored} · told accepted {report.moves_told_accepted}"
        f" · unanswered clicks {report.moves_unanswered}"
    )
    print(
        f"games finished {report.games_finished} · resumable {report.games_resumable}"
        f" · lost {report.lost} · doubled {report.doubled}"
    )
    for failure in report.failures:
        print("FAIL", failure)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(asdict(report), indent=2) + "\n")
    print(f"report: {args.json}")
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
