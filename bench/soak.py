"""Proof that a crash loses nothing: a load run during which the bot is killed again and again.

``python -m bench.soak --tables N --minutes M --kills K [--backend sqlite|postgres]
[--processes P] [--think LOW HIGH] [--json PATH]``

The set-up is bench/load.py's (bench/fleet.py): the real bot against the in-repo fake Discord, as
one process or as P shard processes (``--processes``), on SQLite or on a PostgreSQL server of the
run's own (``--backend``), simulated people at N tables spread over servers on every shard.
During the run a bot process gets SIGKILL K times (one process at a time, chosen at random), each
time started again at once. A third of the kills come at a random moment (to a process chosen at
random), a third a few milliseconds after a person clicks a move (while the bot validates and
writes it) and a third a little later (while the computers that follow think and write), those
two to the process serving the table clicked at. Each person keeps their own
record of every move they sent and what they were told: accepted, refused, or no answer (the bot
was dead). Turns time out after 10 s, and the people at every third table walk away once a game
for longer than that: their turn timer must hand the seat to a computer (kills or not), and they
come back with "I'm back" (as anyone finding that button on their table does).

At the end the database is checked against those records:

- every stored game replays cleanly through the rules, and is finished or can go on, on every
  shard; no game still playing is stuck (each had a move in the last :data:`STUCK_SECONDS`);
- no move a person was told was accepted is missing (in their order, at their table);
- no move is doubled: a person has at most as many stored moves as they were told were accepted
  plus the clicks that got no answer;
- every table a person saw end (its message says how: over, abandoned, resigned, cancelled;
  bench/table_ends.py) is stored so, and the report counts the ends by kind;
- every computer turn and timer fired once: no move number is stored twice at a table, moves
  were stored in their order, no process found a move it was writing already stored by another
  (``was stored by another process`` in any log: two processes holding one table), and every
  walk-away's timer fired.

It prints the figures and the failures (if any), writes a JSON report, and exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench import load
from bench.fleet import (
    BACKENDS,
    IDENTIFY_SECONDS,
    Database,
    Fleet,
    World,
    names,
    open_database,
    spread,
)
from bench.table_ends import ABANDONED, CANCELLED, ENDS, OVER, RESIGNED
from bot.shards import shard_of
from games.base import Deal, Move
from games.registry import get_game
from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord, FakeUser, InteractionResult
from tests.fakediscord.model import Channel

GRACE_SECONDS = 40.0  # play on after the last kill, so its recovery is part of the run
TURN_SECONDS = 10  # the bot's turn time here (its least)
AWAY_SECONDS = TURN_SECONDS + 10.0  # a walk-away: past the turn time, a restart included
TIMER_LATE_SECONDS = 30.0  # how long after a walk-away the person looks for "I'm back"
STUCK_SECONDS = 30.0  # a game still playing had a move this recently at the end
DOUBLE_HOLD = "was stored by another process"  # bot/sessions/moves.py, on MoveTaken
I_AM_BACK = "I'm back"
# How a table's message says it ended, and the statuses the database may keep for it (a game
# its rules abandon is a finished game).
STORED_AS = {
    OVER: ("finished",),
    ABANDONED: ("abandoned", "finished"),
    RESIGNED: ("abandoned",),
    CANCELLED: ("cancelled",),
}


@dataclass
class SoakReport:
    tables: int
    minutes: float
    backend: str = "sqlite"
    processes: int = 1
    kills: int = 0
    kills_after_click: int = 0
    kills_by_process: dict[int, int] = field(default_factory=dict)
    restarts_seconds: list[float] = field(default_factory=list)
    moves_stored: int = 0
    moves_told_accepted: int = 0
    moves_unanswered: int = 0
    games_finished: int = 0
    games_resumable: int = 0
    games_by_shard: dict[int, dict[str, int]] = field(default_factory=dict)
    lost: int = 0
    doubled: int = 0
    move_numbers_twice: int = 0
    moves_out_of_order: int = 0
    held_by_two_processes: int = 0
    stuck: int = 0
    walk_aways: int = 0
    timers_fired: int = 0
    came_back: int = 0
    # How the tables the people played at ended, as their messages said (bench/table_ends.py);
    # "open": still going on when the soak stopped.
    table_ends: dict[str, int] = field(default_factory=dict)
    refusals: dict[str, int] = field(default_factory=dict)  # moves refused, by answer
    failures: list[str] = field(default_factory=list)


class SoakPerson(load.Person):
    """A person who comes back ("I'm back") when their seat was given to a computer, and, when
    ``wanders``, walks away once a game for longer than the turn time."""

    def __init__(
        self,
        fake: FakeDiscord,
        user: FakeUser,
        channel: Channel,
        rng: random.Random,
        think: tuple[float, float],
        answers: list[load.Answer],
        wanders: bool,
        shard: int,
        last_click: list[int],
    ) -> None:
        super().__init__(fake, user, channel, rng, think, answers)
        self.wanders = wanders
        self.shard = shard  # the shard of this person's server: process ``shard`` serves it
        self.last_click = last_click  # shared: the shard of the latest move clicked
        self.walked: set[int] = set()  # the tables they walked away from
        self.walk_aways = 0
        self.timers_fired = 0  # walk-aways after which "I'm back" was there
        self.timers_missed: list[tuple[int, str]] = []  # walk-aways after which it was not:
        # the table, and what the person saw
        self.came_back = 0

    async def interact(
        self, kind: str, action: Awaitable[InteractionResult]
    ) -> InteractionResult | None:
        if kind == "move":  # noted before the click leaves, as the killer wakes on it
            self.last_click[:] = [self.shard]
        return await super().interact(kind, action)

    async def open_hand(self, kind: str = "hand") -> None:
        await self.come_back()
        await super().open_hand(kind)

    async def come_back(self) -> bool:
        """Click "I'm back" if the table shows it and this person's seat is away."""
        message = self.table_message()
        if message is None or not any(b.get("label") == I_AM_BACK for b in message.buttons()):
            return False
        result = await self.interact("back", self.user.click(message, I_AM_BACK))
        if result is None or result.failed or result.message is None:
            return False
        if "Welcome back" not in result.message.text():
            return False  # another person at the table was the one away
        self.came_back += 1
        if result.ephemeral:
            self.hand, self.hand_opened = result.message, time.monotonic()
        return True

    async def move(self) -> None:
        if self.wanders and self.table_id not in self.walked and self.rng.random() < 0.05:
            self.walked.add(self.table_id)
            self.walk_aways += 1
            await asyncio.sleep(AWAY_SECONDS)  # the turn timer hands the seat to a computer
            # A restart may hold the timer back a little: look a while longer, as a person would.
            for _ in range(int(TIMER_LATE_SECONDS / 0.5)):
                if end := self.table_end():  # ended while they were away
                    self.ends[self.table_id] = end
                    return
                if await self.come_back():
                    self.timers_fired += 1
                    break
                await asyncio.sleep(0.5)
            else:
                self.timers_missed.append((self.table_id, screen(self)))
            await super().open_hand("reopen")
            return
        await super().move()


def replay_problem(
    game: str,
    options: str,
    seed: int,
    first_dealer: int | None,
    status: str,
    deals: list[Deal],
    moves: list[tuple[int, Move]],
) -> str | None:
    """None when the stored game replays through the rules; else what went wrong."""
    try:
        state = get_game(game).new(
            json.loads(options), seed=seed, deals=deals, first_dealer=first_dealer
        )
        for seat, move in moves:
            state.apply(seat, move)
    except Exception as error:  # any failure to replay is what this soak looks for
        return f"({game}) does not replay: {error}"
    if status == "finished" and state.status != "finished":
        return "is stored finished but its moves do not finish it"
    if status == "playing" and state.status == "finished":
        return "is finished by its moves but stored as playing"
    return None


def is_subsequence(told: Sequence[str], stored: Sequence[str]) -> bool:
    it = iter(stored)
    return all(any(code == s for s in it) for code in told)


async def check_games(
    database: Database, processes: int, ended: float, report: SoakReport
) -> tuple[dict[int, list[tuple[int | None, Move]]], dict[int, str]]:
    """Every stored game: replays, is finished or can go on (not stuck), its moves numbered once
    and stored in order. Each table's moves (who clicked, move) and stored status, for the
    people's check."""
    found: dict[int, list[tuple[int | None, Move]]] = {}
    statuses: dict[int, str] = {}
    by_shard: dict[int, Counter[str]] = {}
    for table_id, guild_id, game, options, seed, dealer, status, updated in await database.rows(
        "SELECT id, guild_id, game, options, seed, first_dealer, status, updated_at"
        " FROM game_tables ORDER BY id"
    ):
        rows = await database.rows(
            "SELECT seq, seat, user_id, move, created_at FROM moves WHERE table_id = ?"
            " ORDER BY seq",
            table_id,
        )
        found[table_id] = [(user, Move.from_json(json.loads(move))) for _, _, user, move, _ in rows]
        statuses[table_id] = status
        shard = shard_of(guild_id, processes)
        by_shard.setdefault(shard, Counter())[status] += 1
        numbers = [row[0] for row in rows]
        if len(set(numbers)) != len(numbers):
            report.move_numbers_twice += 1
            report.failures.append(f"table {table_id}: a move number stored twice")
        times = [row[4] for row in rows]
        if times != sorted(times):
            report.moves_out_of_order += 1
            report.failures.append(f"table {table_id}: moves stored out of their order")
        report.moves_stored += len(rows)
        if status in ("lobby", "cancelled"):
            continue
        deals = [
            Deal.from_json(json.loads(deal))
            for (deal,) in await database.rows(
                "SELECT deal FROM deals WHERE table_id = ? ORDER BY deal_index", table_id
            )
        ]
        moves = [(seat, Move.from_json(json.loads(move))) for _, seat, _, move, _ in rows]
        problem = replay_problem(game, options, seed, dealer, status, deals, moves)
        if problem:
            report.failures.append(f"table {table_id} (shard {shard}) {problem}")
        elif status == "finished":
            report.games_finished += 1
        elif status == "playing":
            report.games_resumable += 1
            last = max([updated, *times])
            if ended - last > STUCK_SECONDS:
                report.stuck += 1
                report.failures.append(
                    f"table {table_id} (shard {shard}, {game}) is stuck: no move in the last"
                    f" {ended - last:.0f} s"
                )
    report.games_by_shard = {s: dict(c) for s, c in sorted(by_shard.items())}
    return found, statuses


def check_people(
    games: dict[int, list[tuple[int | None, Move]]],
    statuses: dict[int, str],
    people: list[SoakPerson],
    report: SoakReport,
) -> None:
    for person in people:
        report.walk_aways += person.walk_aways
        report.timers_fired += person.timers_fired
        report.came_back += person.came_back
        for table_id in person.games:
            stored = [m.code for user, m in games.get(table_id, []) if user == person.user.id]
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
    stuck = {int(f.split()[1]) for f in report.failures if f.endswith(" s") and "stuck" in f}
    for person in people:
        if person.table_id in stuck:
            report.failures.append(
                f"{person.user.name} sees at table {person.table_id}: {screen(person)}"
            )
    missed = [(p.user.name, t) for p in people for t in p.timers_missed]
    if missed:
        report.failures.append(
            f"{len(missed)} of {report.walk_aways} walk-aways found no 'I'm back' within"
            f" {AWAY_SECONDS + TIMER_LATE_SECONDS:.0f} s: a turn timer did not fire ({missed})"
        )
    ends = Counter(person.ends.get(t, "open") for person in people for t in person.games)
    report.table_ends = {end: ends[end] for end in (*ENDS, "open")}
    for person in people:  # what their table's message said is what the database keeps
        for table_id, end in person.ends.items():
            if statuses.get(table_id) not in STORED_AS[end]:
                report.failures.append(
                    f"{person.user.name} saw table {table_id} end ({end}), stored as"
                    f" {statuses.get(table_id)}"
                )
    refusals = sum((p.refusals for p in people), Counter[str]())
    report.refusals = dict(refusals.most_common(8))


def screen(person: load.Person) -> str:
    """What a person sees of their table and hand (to tell why a table is stuck)."""
    table, hand = person.table_message(), person.current_hand()
    shown = []
    for name, message in (("table", table), ("hand", hand)):
        if message is None:
            shown.append(f"no {name} message")
            continue
        labels = [str(b.get("label") or b.get("custom_id")) for b in message.buttons()]
        shown.append(f"{name} {message.text()[-300:]!r} buttons {labels}")
    return "; ".join(shown)


async def killer(
    fake: FakeDiscord,
    bots: Fleet,
    clicked: asyncio.Event,
    last_click: list[int],
    args: argparse.Namespace,
    report: SoakReport,
    rng: random.Random,
) -> None:
    """Kill a bot process ``args.kills`` times, about ``--minutes`` apart in all, restarting it
    each time; then let the tables play on for a while, so every last kill is recovered from."""
    gap = args.minutes * 60 / args.kills
    kills: Counter[int] = Counter()
    for number in range(args.kills):
        await asyncio.sleep(rng.uniform(0.5, 1.5) * gap)
        kind = number % 3
        if kind:  # right after a click: during its write (1), or as computers follow (2)
            clicked.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(clicked.wait(), timeout=gap)
            await asyncio.sleep(rng.uniform(0.0, 0.01) if kind == 1 else rng.uniform(0.02, 0.3))
            report.kills_after_click += 1
        # The process of the table just clicked at; else one at random.
        process = last_click[0] if kind and last_click else rng.randrange(len(bots.bots))
        last_click.clear()
        started = time.monotonic()
        await bots.restart(fake, process)
        report.kills += 1
        kills[process] += 1
        report.restarts_seconds.append(round(time.monotonic() - started, 2))
    report.kills_by_process = dict(sorted(kills.items()))
    await asyncio.sleep(GRACE_SECONDS)


async def keep_playing(
    fake: FakeDiscord, person: SoakPerson, game: str, stop: asyncio.Event
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
    report = SoakReport(
        tables=args.tables, minutes=args.minutes, backend=args.backend, processes=args.processes
    )
    with tempfile.TemporaryDirectory(prefix="cardtable-soak-") as folder:
        async with open_database(args.backend, Path(folder)) as database:
            people, ended = await soak(args, rng, database, report)
            games, statuses = await check_games(database, args.processes, ended, report)
        check_people(games, statuses, people, report)
        if report.held_by_two_processes:
            report.failures.append(
                f"{report.held_by_two_processes} moves were played by two processes"
                f" ({DOUBLE_HOLD!r} in the logs)"
            )
    return report


async def soak(
    args: argparse.Namespace, rng: random.Random, database: Database, report: SoakReport
) -> tuple[list[SoakPerson], float]:
    """Play and kill; the people, and when play stopped (unix time)."""
    fake = FakeDiscord(
        token=f"{DEFAULT_TOKEN}-{rng.getrandbits(64):x}",
        discord_limits=True,
        identify_interval=IDENTIFY_SECONDS,
    )
    await fake.start()
    env = fake.env(**database.env, LOG_LEVEL="WARNING", TURN_SECONDS=str(TURN_SECONDS))
    bots = Fleet(env, args.processes, args.log)
    bots.start()
    people: list[SoakPerson] = []
    try:
        await bots.wait_connected(fake)
        await fake.wait_for(lambda: fake.global_commands, timeout=60)
        answers: list[load.Answer] = []
        world = World(fake, args.processes, "soak")
        clicked = asyncio.Event()
        last_click: list[int] = []
        for index, place in enumerate(spread(args.tables, args.processes, args.per_channel, 5)):
            name = f"s{index}a"
            host = SoakPerson(
                fake,
                world.person(name, place),
                world.channel(place),
                random.Random(index),
                args.think,
                answers,
                wanders=index % 3 == 2,
                shard=place.shard,
                last_click=last_click,
            )
            host.clicked = clicked
            host.reopen_after = 3.0  # a restart forgets open hands: people look again soon
            people.append(host)
        stop = asyncio.Event()
        players = [
            asyncio.create_task(keep_playing(fake, person, load.GAMES[i % 6], stop))
            for i, person in enumerate(people)
        ]
        await killer(fake, bots, clicked, last_click, args, report, rng)
        ended = time.time()
        stop.set()
        await asyncio.gather(*players)
    finally:
        await bots.stop()
        await fake.stop()
    report.held_by_two_processes = bots.log_count(DOUBLE_HOLD)
    return people, ended


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.5), metavar=("LOW", "HIGH"))
    parser.add_argument("--per-channel", type=int, default=4)
    parser.add_argument("--backend", choices=BACKENDS, default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="bot (shard) processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=Path("bench/soak-report.json"))
    parser.add_argument("--log", type=Path, default=Path(tempfile.gettempdir()) / "soak-bot.log")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args))
    restarts = sorted(report.restarts_seconds)
    median = restarts[len(restarts) // 2] if restarts else 0
    print(
        f"{names(report.backend, report.processes)} · tables {report.tables} · {report.minutes}"
        f" min · kills {report.kills} ({report.kills_after_click} right after a click; by"
        f" process {report.kills_by_process}) · restart median {median} s"
    )
    print(
        f"moves stored {report.moves_stored} · told accepted {report.moves_told_accepted}"
        f" · unanswered clicks {report.moves_unanswered}"
    )
    print(
        f"games finished {report.games_finished} · resumable {report.games_resumable}"
        f" · by shard {report.games_by_shard} · stuck {report.stuck}"
        f" · lost {report.lost} · doubled {report.doubled}"
    )
    print(
        f"move numbers stored twice {report.move_numbers_twice} · out of order"
        f" {report.moves_out_of_order} · moves played by two processes"
        f" {report.held_by_two_processes} · walk-aways {report.walk_aways}, their timer fired"
        f" {report.timers_fired} · came back {report.came_back}"
    )
    print(f"tables ended: {report.table_ends}")
    print(f"moves refused, by answer: {report.refusals}")
    for failure in report.failures:
        print("FAIL", failure)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(asdict(report), indent=2) + "\n")
    print(f"report: {args.json}")
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
