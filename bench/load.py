"""How many tables one machine holds: N tables played at once through the in-repo fake Discord.

``python -m bench.load --tables N --minutes M [--backend sqlite|postgres] [--processes P]
[--think LOW HIGH] [--hard SHARE] [--global-limit R] [--json PATH]``

The real bot runs as its own process (``python -m bot``) against the fake Discord, which runs in
this process with Discord's per-route rate limits switched on (tests/fakediscord/ratelimits.py).
``--processes P`` runs it as P shard processes (process k serves shard k of P, as
``python -m bot --processes P`` deals them) and the tables are dealt over servers on every shard;
``--backend postgres`` gives the bot a PostgreSQL server the bench starts for the run (its writes
flushed to disk as a real server's are: bench/fleet.py), where SQLite is a file in a temporary
folder. ``--global-limit R`` sets Discord's global limit (50 requests a second) to R, in the fake
and in the bot's ``GLOBAL_RATE_LIMIT`` alike: fewer tables against a lower limit meet it as many
more tables meet Discord's, on a machine too busy to play the many.
Simulated people open tables (mixed games, a few tables to a channel, a few channels to a
server, one or two humans a table,
computers in the other seats, a share of tables at the hard level when it is built), then play as
people do: they open their hand once, wait until it offers them a move, think for LOW-HIGH
seconds, and click a legal card or pick a bid. A hand that has offered nothing for a while is
opened again, as a person would.

At the end it prints a table and writes a JSON report: interactions per second; the bot's time to
answer (median, 95th, 99th percentile), overall and per kind of interaction; missed 3-second
deadlines; table-message edits per trick and per channel against Discord's limit; 429s; the bot
processes' CPU and peak memory (summed over the processes); memory per open table; database bytes
per move and per finished game. Cost per move: the bot processes' own CPU (read from /proc, their
computer-player workers and their picture worker apart: the picture worker's is given on a line
of its own) per move a person was told was accepted and per move stored while
people played (theirs and the computers'), and the requests the fake Discord received per
accepted move, by kind (table-message edits, hand edits, interaction answers, followups, channel
posts); the pictures it received (table pictures, hand summaries) per accepted move, their
bytes, and the picture worker's CPU per picture.

``make load`` runs a short version (20 tables, one minute).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.fleet import (
    BACKENDS,
    IDENTIFY_SECONDS,
    Database,
    Fleet,
    World,
    cpu_used,
    names,
    open_database,
    spread,
)
from bench.table_ends import table_end
from bot.pictures.painter import PAINTER_NICENESS
from games.players import AVAILABLE_LEVELS
from tests.fakediscord import (
    DEFAULT_TOKEN,
    ClientRefused,
    FakeDiscord,
    FakeUser,
    InteractionResult,
    Message,
)
from tests.fakediscord.model import Channel
from tests.fakediscord.ratelimits import GLOBAL_PER_SECOND, DiscordLimits

GAMES = ("thunee", "tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist", "tunge")
TABLE_TITLE = re.compile(r"table #(\d+)", re.IGNORECASE)
JUMP_LINK = re.compile(r"https://discord\.com/channels/\d+/\d+/(\d+)")
DEADLINE = 3.0
CARD_PICTURES = 53  # the 52 cards and a back (cogs/card_faces.py)
REOPEN_AFTER = 20.0  # seconds a hand may offer nothing before its player opens it again
TOKEN_LIFETIME = 12 * 60.0  # reopen a hand before its interaction token (15 min) runs out
# The bot's log line when a computer's decision overruns its budget (bot/sessions/turns.py).
COMPUTER_TIMEOUT = ("computer seat", "ran out of time")
CHANNEL_EDIT_LIMIT = (5, 5.0)  # Discord: 5 edits per 5 s per channel
LAG_EVERY = 0.05  # seconds between two samples of the harness's own event-loop lag


@dataclass
class Answer:
    """One interaction as the user saw it."""

    kind: str  # "new", "lobby", "hand", "move", "reopen"
    latency: float
    failed: bool
    at: float


@dataclass
class Report:
    tables: int
    minutes: float
    humans: int
    backend: str = "sqlite"
    processes: int = 1
    tables_not_opened: int = 0
    interactions: int = 0
    interactions_per_second: float = 0.0
    answer_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    missed_deadlines: int = 0
    moves_stored: int = 0
    tricks: float = 0.0
    finished_games: int = 0
    table_edits: int = 0
    table_edits_per_trick: float = 0.0
    busiest_channel_edits_per_5s: int = 0
    channel_edit_limit_per_5s: int = CHANNEL_EDIT_LIMIT[0]
    rate_limited: dict[str, int] = field(default_factory=dict)
    requests_per_second: dict[str, float] = field(default_factory=dict)
    harness_cpu_share: float = 0.0  # this process (the fake Discord and the people): if near 1,
    # the harness, not the bot, is what slows the answers
    # How late this process's event loop ran a callback due now (sampled every LAG_EVERY s): an
    # answer's time is read on that loop, so its lag is in the answer times as well.
    harness_lag_ms: dict[str, float] = field(default_factory=dict)
    bot_cpu_seconds: float = 0.0
    moves_accepted: int = 0  # moves people clicked and were told were accepted, while playing
    moves_played: int = 0  # moves stored while people played (people's and computers')
    bot_cpu_ms_per_accepted_move: float = 0.0
    bot_cpu_ms_per_move: float = 0.0
    requests_per_accepted_move: dict[str, float] = field(default_factory=dict)
    workers_cpu_share: float = 0.0  # the computer players' worker processes
    pictures_cpu_share: float = 0.0  # the table pictures' worker process (bot.pictures.painter)
    pictures_cpu_ms_per_accepted_move: float = 0.0
    # Pictures the fake Discord received while people played (table pictures with table edits
    # and posts, hand summaries with results): the worker draws about one per upload (a table
    # that moved while drawn is drawn again), so its CPU per upload is nearly per drawing.
    pictures_uploaded: dict[str, int] = field(default_factory=dict)
    pictures_per_accepted_move: float = 0.0
    pictures_cpu_ms_per_upload: float = 0.0
    picture_kb_per_accepted_move: float = 0.0
    database_cpu_share: float = 0.0  # the PostgreSQL server's processes (SQLite: in the bot's)
    database_cpu_ms_per_accepted_move: float = 0.0
    computer_timeouts: int = 0  # decisions that ran out of time (the first legal move was played)
    bot_cpu_share: float = 0.0
    bot_peak_rss_mb: float = 0.0
    bot_rss_mb_idle: float = 0.0
    bot_rss_mb_loaded: float = 0.0
    memory_per_table_kb: float = 0.0
    database_bytes: int = 0
    database_bytes_per_move: float = 0.0
    database_bytes_per_finished_game: float | None = None
    levels: dict[str, int] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)


# --- people ------------------------------------------------------------------------------------


class Person:
    """A simulated player at one table: clicks only what their screen shows."""

    def __init__(
        self,
        fake: FakeDiscord,
        user: FakeUser,
        channel: Channel,
        rng: random.Random,
        think: tuple[float, float],
        answers: list[Answer],
    ) -> None:
        self.fake = fake
        self.user = user
        self.channel = channel
        self.rng = rng
        self.think = think
        self.answers = answers
        self.table_id = 0
        self.table_message_id = 0
        self.reopen_after = REOPEN_AFTER
        self.hand: Message | None = None
        self.hand_opened = 0.0
        # Every move this person sent: (move code, what they were told: "accepted", "refused",
        # or "unknown" when no answer came, as when the bot was killed meanwhile).
        self.moves_sent: list[tuple[int, str, str]] = []  # (table, move code, outcome)
        self.games: list[int] = []  # the tables this person played at
        self.ends: dict[int, str] = {}  # how each table ended that this person saw end
        self.clicked: asyncio.Event | None = None  # set as each move is sent (for the soak)
        self.refusals: Counter[str] = Counter()  # what the moves refused were answered

    async def interact(
        self, kind: str, action: Awaitable[InteractionResult]
    ) -> InteractionResult | None:
        try:
            result: InteractionResult = await action
        except ClientRefused:  # the screen changed under the user's finger: look again
            return None
        self.answers.append(Answer(kind, result.latency, result.failed, time.monotonic()))
        return result

    def table_message(self) -> Message | None:
        """The table's message: found once on screen, then read where it is (edited in place)."""
        known = self.fake.messages.get(self.table_message_id)
        if known is not None and not known.deleted:
            return known
        for message in reversed(self.user.visible_messages(self.channel)):
            if message.is_ephemeral or not message.embeds:
                continue
            match = TABLE_TITLE.search(str(message.embeds[0].get("title", "")))
            if match and int(match.group(1)) == self.table_id:
                self.table_message_id = message.id
                return message
        return None

    def table_end(self) -> str | None:
        """How this person's table ended, as its message says (bench/table_ends.py), or None
        while it goes on."""
        message = self.table_message()
        if message is None or not message.embeds:
            return None
        return table_end(str(message.embeds[0].get("description") or ""))

    async def open_hand(self, kind: str = "hand") -> None:
        message = self.table_message()
        if message is None or not any(b.get("label") == "Show my hand" for b in message.buttons()):
            return
        result = await self.interact(kind, self.user.click(message, "Show my hand"))
        if result is not None and result.message is not None and result.ephemeral:
            self.hand, self.hand_opened = result.message, time.monotonic()

    def controls(self) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
        hand = self.current_hand()
        if hand is None:
            return [], []
        buttons = [
            b
            for b in hand.buttons()
            if str(b.get("custom_id", "")).startswith("ct:m:") and not b.get("disabled")
        ]
        options = [
            (c, o["value"])
            for c in hand.iter_components()
            if c.get("type") == 3 and str(c.get("custom_id", "")).startswith(("ct:s:", "ct:q:"))
            for o in c.get("options", [])
        ]
        return buttons, options

    def current_hand(self) -> Message | None:
        if self.hand is None:
            return None
        return self.fake.messages.get(self.hand.id)

    async def play(self, until: float, stop: asyncio.Event | None = None) -> None:
        """Play until the game is over or the time is up (or ``stop`` is set)."""
        await asyncio.sleep(self.rng.uniform(0, self.think[1]))  # people do not arrive at once
        await self.open_hand()
        idle_since = time.monotonic()
        while time.monotonic() < until and not (stop and stop.is_set()):
            buttons, options = self.controls()
            if not buttons and not options:
                if end := self.table_end():
                    self.ends[self.table_id] = end
                    return
                now = time.monotonic()
                stale = now - self.hand_opened > TOKEN_LIFETIME
                if stale or now - idle_since > self.reopen_after or self.current_hand() is None:
                    await self.open_hand("reopen")
                    idle_since = time.monotonic()
                await asyncio.sleep(0.1)
                continue
            await asyncio.sleep(self.rng.uniform(*self.think))
            await self.move()
            idle_since = time.monotonic()

    async def move(self) -> None:
        """One move (through the sequence builder's steps when a select is one)."""
        for _ in range(30):
            buttons, options = self.controls()
            hand = self.current_hand()
            if hand is None or not (buttons or options):
                return
            pick = self.rng.randrange(len(buttons) + len(options))
            if pick < len(buttons):
                custom_id = str(buttons[pick]["custom_id"])
                code = custom_id.split(":", 4)[-1]
                sending = self.user.click(hand, custom_id=custom_id)
            else:
                select, value = options[pick - len(buttons)]
                custom_id, code = str(select["custom_id"]), str(value)
                sending = self.user.select(hand, custom_id, [code])
            step = custom_id.startswith("ct:q:")  # a step of the sequence builder, not a move
            if self.clicked is not None and not step:
                self.clicked.set()
            result = await self.interact("move", sending)
            if result is None:
                return
            if result.failed:
                if not step:
                    self.moves_sent.append((self.table_id, code, "unknown"))
                return
            shown = result.message if result.ephemeral else None
            if shown is not None:
                self.hand = shown
            if not step:
                # Accepted: the answer is the hand, with no warning; a refusal is the hand with
                # a warning, or a line of text alone (as "It is not your turn").
                text = shown.text() if shown is not None else "(no message)"
                accepted = "# Your hand" in text and "⚠️" not in text
                if not accepted:
                    self.refusals[text.strip().splitlines()[0][:80]] += 1
                outcome = "accepted" if accepted else "refused"
                self.moves_sent.append((self.table_id, code, outcome))
                return


# --- the run -----------------------------------------------------------------------------------


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {
        "n": len(ordered),
        "median": round(statistics.median(ordered) * 1000, 1),
        "p95": round(at(0.95), 1),
        "p99": round(at(0.99), 1),
        "max": round(ordered[-1] * 1000, 1),
    }


async def open_table(
    fake: FakeDiscord,
    host: Person,
    guest: Person | None,
    game: str,
    level: str,
) -> int:
    """Host opens a table in their channel; the guest joins; computers fill; host starts."""
    options: dict[str, Any] = {"game": game}
    if level != "normal":
        options["level"] = level
    made = await host.interact("new", host.user.slash("table new", channel=host.channel, **options))
    if made is not None and made.deferred:
        await made.wait_done(timeout=30)  # "thinking...", then the reply with the link
    link = JUMP_LINK.search(made.text) if made is not None else None
    if link is None:
        raise RuntimeError(f"{host.user.name} got no table: {made.text if made else 'refused'}")
    lobby = fake.messages[int(link.group(1))]
    match = TABLE_TITLE.search(str(lobby.embeds[0].get("title", "")))
    assert match
    table_id = int(match.group(1))
    for person in (host, guest):
        if person is not None:  # a new table: forget the last table's message and hand
            person.table_id, person.table_message_id, person.hand = table_id, lobby.id, None
    if guest is not None:
        await guest.interact("lobby", guest.user.click(lobby, "Join"))
    empty = fake.messages[lobby.id].text().count("*empty*") - (guest is not None)
    for _ in range(empty):  # the lobby's text lags behind the clicks: count once
        await host.interact(
            "lobby", host.user.click(fake.messages[lobby.id], "Add computer player")
        )
    await host.interact("lobby", host.user.click(fake.messages[lobby.id], "Start"))
    return table_id


def channel_edit_peak(fake: FakeDiscord, since: float) -> tuple[int, int]:
    """Table-message edits in the run, and the most in any 5 s window of one channel."""
    by_channel: dict[str, list[float]] = defaultdict(list)
    for record in fake.requests:
        edit = record.method == "PATCH" and record.path.startswith("/channels/")
        if edit and record.at >= since and record.status < 300:
            by_channel[record.path.split("/")[2]].append(record.at)
    total = sum(len(times) for times in by_channel.values())
    peak = 0
    window = CHANNEL_EDIT_LIMIT[1]
    for times in by_channel.values():
        times.sort()
        start = 0
        for end, at in enumerate(times):
            while times[start] <= at - window:
                start += 1
            peak = max(peak, end - start + 1)
    return total, peak


def route_rates(fake: FakeDiscord, since: float, seconds: float) -> dict[str, float]:
    """Requests the bot sent per second while people played, by method and route shape."""
    counts: Counter[str] = Counter()
    for record in fake.requests:
        if record.at >= since:
            shape = re.sub(r"/\d+|/(?=[^/]*$)[A-Za-z0-9_-]{20,}", "/:id", record.path)
            counts[f"{record.method} {re.sub(r'/[A-Za-z0-9_-]{40,}', '/:token', shape)}"] += 1
    return {k: round(v / seconds, 2) for k, v in counts.most_common(8)}


REQUEST_KINDS = (  # (kind, method, route): the requests a move costs, as the fake counts them
    ("table-message edits", "PATCH", re.compile(r"/channels/\d+/messages/\d+$")),
    ("channel posts", "POST", re.compile(r"/channels/\d+/messages$")),
    ("hand edits", "PATCH", re.compile(r"/webhooks/\d+/[^/]+/messages/")),
    ("interaction answers", "POST", re.compile(r"/interactions/\d+/[^/]+/callback$")),
    ("followups", "POST", re.compile(r"/webhooks/\d+/[^/]+$")),
)


async def sample_lag(lags: list[float], stop: asyncio.Event) -> None:
    """How late this event loop wakes a sleeper, every :data:`LAG_EVERY` seconds, until
    ``stop``."""
    while not stop.is_set():
        asked = time.monotonic()
        await asyncio.sleep(LAG_EVERY)
        lags.append(max(0.0, time.monotonic() - asked - LAG_EVERY))


def niceness(pid: int) -> int | None:
    """A process's nice value, from /proc (None once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[16])


def split_pictures(
    start: dict[int, float], seen: dict[int, float], nice: dict[int, int | None]
) -> tuple[float, float]:
    """(the computer players' workers' CPU, the picture worker's), told apart by their nice
    values (bot.thinking.WORKER_NICENESS, bot.pictures.painter.PAINTER_NICENESS)."""
    pictures = {pid for pid, value in nice.items() if value == PAINTER_NICENESS}
    drawn = cpu_used(
        {p: c for p, c in start.items() if p in pictures},
        {p: c for p, c in seen.items() if p in pictures},
    )
    return cpu_used(start, seen) - drawn, drawn


def pictures_sent(fake: FakeDiscord, since: float) -> tuple[Counter[str], int]:
    """The pictures the bot uploaded since ``since``, by file name (``table.png``,
    ``hand.png``), and their bytes."""
    names: Counter[str] = Counter()
    size = 0
    for record in fake.requests:
        if record.at < since or record.status >= 300 or not isinstance(record.body, dict):
            continue
        for sent in record.body.get("__files__") or ():
            names[str(sent.get("filename"))] += 1
            size += int(sent.get("size") or 0)
    return names, size


def requests_by_kind(fake: FakeDiscord, since: float) -> Counter[str]:
    """The requests the bot sent since ``since``, by kind (:data:`REQUEST_KINDS`, else "other")."""
    counts: Counter[str] = Counter()
    for record in fake.requests:
        if record.at < since:
            continue
        path = record.path.split("?", 1)[0]
        kind = next(
            (
                k
                for k, method, route in REQUEST_KINDS
                if record.method == method and route.search(path)
            ),
            "other",
        )
        counts[kind] += 1
        counts["all"] += 1
    return counts


async def stored_moves(database: Database) -> int:
    """Moves in the database now (read while the bot writes: SQLite's WAL allows it)."""
    return int(await database.value("SELECT COUNT(*) FROM moves"))


async def database_figures(database: Database) -> tuple[int, int, float, int, float | None]:
    """(bytes, moves stored, tricks played, finished games, bytes per finished game)."""
    size = await database.size()
    moves = await stored_moves(database)
    plays: Counter[int] = Counter()
    games: dict[int, str] = {}
    for table_id, game, move in await database.rows(
        "SELECT m.table_id, t.game, m.move FROM moves m JOIN game_tables t ON t.id = m.table_id"
    ):
        games[table_id] = game
        plays[table_id] += json.loads(move).get("action") == "play"
    seats = Counter(table_id for (table_id,) in await database.rows("SELECT table_id FROM seats"))
    tricks = sum(plays[t] / max(1, seats[t]) for t, game in games.items() if game != "tunge")
    finished, average = (
        await database.rows(
            "SELECT COUNT(*), AVG(n) FROM (SELECT t.id, (SELECT COUNT(*) FROM moves m"
            " WHERE m.table_id = t.id) AS n FROM game_tables t WHERE t.status = 'finished') f"
        )
    )[0]
    per_move = size / moves if moves else 0.0
    per_game = per_move * float(average) if finished else None
    return size, moves, tricks, int(finished), per_game


def seat_people(
    world: World, args: argparse.Namespace, answers: list[Answer], rng: random.Random
) -> tuple[list[tuple[Person, Person | None, str, str]], Counter[str], Counter[str]]:
    """The tables to open (host, guest, game, level), spread over the shards' servers."""
    level_hard = "hard" in AVAILABLE_LEVELS and args.hard > 0
    tables = []
    levels: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for index, place in enumerate(
        spread(args.tables, args.processes, args.per_channel, args.per_guild)
    ):
        channel = world.channel(place)
        game = GAMES[index % len(GAMES)]
        level = "hard" if level_hard and rng.random() < args.hard else "normal"
        levels[level] += 1
        games[game] += 1

        host, guest = (
            Person(
                world.fake,
                world.person(name, place),
                channel,
                random.Random(name),
                args.think,
                answers,
            )
            for name in (f"p{index}a", f"p{index}b")
        )
        tables.append((host, guest if index % 2 == 0 else None, game, level))
    return tables, levels, games


async def run(args: argparse.Namespace) -> Report:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="cardtable-load-") as folder:
        async with open_database(args.backend, Path(folder)) as database:
            report = await run_on(args, rng, database)
            size, moves, tricks, finished, per_game = await database_figures(database)
    report.database_bytes = size
    report.moves_stored = moves
    report.tricks = round(tricks, 1)
    report.finished_games = finished
    report.table_edits_per_trick = round(report.table_edits / tricks, 2) if tricks else 0.0
    report.database_bytes_per_move = round(size / moves, 1) if moves else 0.0
    report.database_bytes_per_finished_game = round(per_game) if per_game else None
    return report


async def run_on(args: argparse.Namespace, rng: random.Random, database: Database) -> Report:
    """The run itself, on ``database``: its figures but the database's."""
    fake = FakeDiscord(
        token=f"{DEFAULT_TOKEN}-{rng.getrandbits(64):x}",
        discord_limits=True,
        identify_interval=IDENTIFY_SECONDS,
    )
    # A lower global limit (the fake's and the bot's setting alike) scales a big bot's traffic
    # against it down to what a busy machine can play.
    fake.limits = DiscordLimits(global_per_second=args.global_limit)
    await fake.start()
    env = fake.env(
        **database.env,
        LOG_LEVEL="WARNING",
        TURN_SECONDS="600",
        GLOBAL_RATE_LIMIT=str(args.global_limit),
    )
    bots = Fleet(env, args.processes, args.log, args.profile)
    bots.start()
    try:
        await bots.wait_connected(fake)
        # A bot's first start uploads its card pictures once (the process on shard 0) and
        # publishes the commands to every server; its later starts reuse them.
        await fake.wait_for(lambda: len(fake.app_emojis) >= CARD_PICTURES, timeout=60)
        await fake.wait_for(lambda: fake.global_commands, timeout=60)
        print(f"bot processes {bots.pids()} (profile them with py-spy)", flush=True)
        idle_rss = bots.memory_kb("VmRSS")
        answers: list[Answer] = []
        tables, levels, games = seat_people(
            World(fake, args.processes, "tables"), args, answers, rng
        )
        semaphore = asyncio.Semaphore(8)

        async def limited(opening: Awaitable[int]) -> int:
            async with semaphore:
                try:
                    return int(await opening)
                except (RuntimeError, TimeoutError) as error:  # counted, not fatal
                    print(f"a table did not open: {error}", flush=True)
                    return 0

        opened = await asyncio.gather(*(limited(open_table(fake, *table)) for table in tables))
        people = [p for host, guest, _, _ in tables for p in (host, guest) if p and p.table_id]
        await fake.quiet(idle=0.2, timeout=30)
        loaded_rss = bots.memory_kb("VmRSS")
        moves_start = await stored_moves(database)
        play_start = time.monotonic()
        cpu_start = bots.cpu_seconds()
        workers_start = bots.children_cpu_seconds()
        workers_seen = dict(workers_start)
        nice = {pid: niceness(pid) for pid in workers_start}
        server_start = database.server_cpu_seconds()
        server_seen = dict(server_start)
        harness_start = time.process_time()
        timeouts_start = bots.log_count(*COMPUTER_TIMEOUT)
        until = play_start + args.minutes * 60
        playing = asyncio.gather(*(p.play(until) for p in people))
        lags: list[float] = []
        lag_stop = asyncio.Event()
        lagging = asyncio.create_task(sample_lag(lags, lag_stop))
        while not playing.done():
            await asyncio.wait([playing], timeout=1.0)
            workers_seen.update(bots.children_cpu_seconds())
            nice.update({pid: niceness(pid) for pid in workers_seen if pid not in nice})
            server_seen.update(database.server_cpu_seconds())
        await playing
        elapsed = time.monotonic() - play_start
        cpu = cpu_used(cpu_start, bots.cpu_seconds())
        played_moves = await stored_moves(database) - moves_start
        sent = requests_by_kind(fake, play_start)
        workers, drawn = split_pictures(workers_start, workers_seen, nice)
        server_seen.update(database.server_cpu_seconds())
        server = cpu_used(server_start, server_seen)
        harness = time.process_time() - harness_start
        lag_stop.set()
        await lagging
        peak = bots.memory_kb("VmHWM")
        edits, busiest = channel_edit_peak(fake, play_start)
        played = [a for a in answers if a.at >= play_start]
        report = Report(tables=args.tables, minutes=args.minutes, humans=len(people))
        report.backend, report.processes = args.backend, args.processes
        report.tables_not_opened = sum(1 for table_id in opened if not table_id)
        report.interactions = len(answers)
        report.interactions_per_second = round(len(played) / elapsed, 2)
        report.answer_ms = {"all": percentiles([a.latency for a in answers])}
        kinds = sorted({a.kind for a in answers})
        for kind in kinds:
            report.answer_ms[kind] = percentiles([a.latency for a in answers if a.kind == kind])
        report.missed_deadlines = sum(1 for a in answers if a.failed or a.latency > DEADLINE)
        report.table_edits = edits
        report.busiest_channel_edits_per_5s = busiest
        report.rate_limited = dict(fake.limits.refused) if fake.limits else {}
        report.requests_per_second = route_rates(fake, play_start, elapsed)
        report.bot_cpu_seconds = round(cpu, 1)
        report.bot_cpu_share = round(cpu / elapsed, 3)
        accepted = sum(1 for p in people for _, _, outcome in p.moves_sent if outcome == "accepted")
        report.moves_accepted, report.moves_played = accepted, played_moves
        if accepted:
            report.bot_cpu_ms_per_accepted_move = round(cpu * 1000 / accepted, 2)
            report.requests_per_accepted_move = {
                kind: round(count / accepted, 2) for kind, count in sent.most_common()
            }
        if played_moves:
            report.bot_cpu_ms_per_move = round(cpu * 1000 / played_moves, 2)
        report.workers_cpu_share = round(workers / elapsed, 3)
        report.pictures_cpu_share = round(drawn / elapsed, 3)
        uploads, upload_bytes = pictures_sent(fake, play_start)
        report.pictures_uploaded = dict(uploads.most_common())
        if uploads:
            report.pictures_cpu_ms_per_upload = round(drawn * 1000 / uploads.total(), 2)
        if accepted:
            report.pictures_cpu_ms_per_accepted_move = round(drawn * 1000 / accepted, 2)
            report.pictures_per_accepted_move = round(uploads.total() / accepted, 2)
            report.picture_kb_per_accepted_move = round(upload_bytes / 1000 / accepted, 1)
        report.database_cpu_share = round(server / elapsed, 3)
        if accepted:
            report.database_cpu_ms_per_accepted_move = round(server * 1000 / accepted, 2)
        report.computer_timeouts = bots.log_count(*COMPUTER_TIMEOUT) - timeouts_start
        report.harness_cpu_share = round(harness / elapsed, 3)
        report.harness_lag_ms = percentiles(lags)
        report.bot_peak_rss_mb = round(peak / 1024, 1)
        report.bot_rss_mb_idle = round(idle_rss / 1024, 1)
        report.bot_rss_mb_loaded = round(loaded_rss / 1024, 1)
        report.memory_per_table_kb = round((loaded_rss - idle_rss) / args.tables, 1)
        report.levels = dict(levels)
        report.games = dict(games)
    finally:
        await bots.stop()
        await fake.stop()
    return report


def lines(report: Report) -> Iterator[str]:
    yield (
        f"{names(report.backend, report.processes)} · tables {report.tables} · humans"
        f" {report.humans} · {report.minutes} min · {report.games}"
    )
    yield f"computer levels: {report.levels} · tables not opened: {report.tables_not_opened}"
    yield f"requests to Discord per second, by route: {report.requests_per_second}"
    yield (
        f"interactions: {report.interactions} ({report.interactions_per_second}/s while playing)"
        f" · missed 3 s deadlines: {report.missed_deadlines}"
    )
    yield "answer time (ms)      n   median    p95    p99    max"
    for kind, figures in report.answer_ms.items():
        if figures.get("n"):
            yield (
                f"  {kind:<10} {figures['n']:>10} {figures['median']:>8} {figures['p95']:>6}"
                f" {figures['p99']:>6} {figures['max']:>6}"
            )
    yield (
        f"moves stored {report.moves_stored} · tricks {report.tricks} · finished games"
        f" {report.finished_games}"
    )
    yield (
        f"table-message edits {report.table_edits} ({report.table_edits_per_trick} per trick);"
        f" busiest channel {report.busiest_channel_edits_per_5s} per 5 s"
        f" (Discord allows {report.channel_edit_limit_per_5s})"
    )
    yield f"429s given by the fake: {report.rate_limited or 'none'}"
    yield (
        f"bot CPU {report.bot_cpu_seconds} s ({report.bot_cpu_share:.0%} of one core, all"
        f" processes) · RSS idle"
        f" {report.bot_rss_mb_idle} MB, with the tables {report.bot_rss_mb_loaded} MB, peak"
        f" {report.bot_peak_rss_mb} MB · {report.memory_per_table_kb} KB per open table"
    )
    yield (
        f"per move: bot CPU {report.bot_cpu_ms_per_accepted_move} ms per accepted click"
        f" ({report.moves_accepted} clicks), {report.bot_cpu_ms_per_move} ms per move stored"
        f" ({report.moves_played} moves, computers' included)"
    )
    yield f"requests to Discord per accepted click: {report.requests_per_accepted_move}"
    if report.pictures_cpu_share:
        yield (
            f"table pictures' worker process CPU: {report.pictures_cpu_share:.0%} of one core,"
            f" {report.pictures_cpu_ms_per_accepted_move} ms per accepted click (beside the bot's"
            " own above)"
        )
    if report.pictures_uploaded:
        yield (
            f"pictures uploaded: {report.pictures_uploaded}, {report.pictures_per_accepted_move}"
            f" per accepted click ({report.picture_kb_per_accepted_move} KB);"
            f" picture worker CPU {report.pictures_cpu_ms_per_upload} ms per picture uploaded"
        )
    yield (
        f"computer players' worker processes CPU: {report.workers_cpu_share:.0%} of one core;"
        f" harness (fake Discord and people): {report.harness_cpu_share:.0%};"
        f" decisions out of time: {report.computer_timeouts}"
    )
    lag = report.harness_lag_ms
    if lag.get("n"):
        yield (
            "harness event-loop lag (ms; answer times are read on this loop):"
            f" median {lag['median']} · p95 {lag['p95']} · p99 {lag['p99']} · max {lag['max']}"
        )
    if report.backend == "postgres":
        yield (
            f"PostgreSQL server CPU: {report.database_cpu_share:.0%} of one core,"
            f" {report.database_cpu_ms_per_accepted_move} ms per accepted click"
        )
    per_game = report.database_bytes_per_finished_game
    yield (
        f"database {report.database_bytes} bytes · {report.database_bytes_per_move} per move"
        + (f" · {per_game} per finished game" if per_game else "")
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 5.0), metavar=("LOW", "HIGH"))
    parser.add_argument("--hard", type=float, default=0.25, help="share of tables at hard level")
    parser.add_argument("--per-channel", type=int, default=4, help="tables sharing a channel")
    parser.add_argument("--per-guild", type=int, default=5, help="channels sharing a server")
    parser.add_argument("--backend", choices=BACKENDS, default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="bot (shard) processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--global-limit",
        type=int,
        default=GLOBAL_PER_SECOND,
        help="Discord's global limit, requests a second (the fake's, and the bot's setting)",
    )
    parser.add_argument("--log", type=Path, default=Path(tempfile.gettempdir()) / "load-bot.log")
    parser.add_argument("--json", type=Path, default=Path("bench/load-report.json"))
    parser.add_argument(
        "--profile",
        type=Path,
        help="run the bot under cProfile (its event loop's thread CPU time) and write its"
        " statistics here; the CPU figures then include the profiler's own cost",
    )
    args = parser.parse_args(argv)
    report = asyncio.run(run(args))
    for line in lines(report):
        print(line)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(asdict(report), indent=2) + "\n")
    print(f"report: {args.json}")


if __name__ == "__main__":
    main()
