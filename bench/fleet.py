"""The bot as the load benches run it: one or several shard processes, on SQLite or PostgreSQL.

``bench.load`` and ``bench.soak`` share this set-up:

- :class:`BotProcess`: one ``python -m bot`` against the fake Discord, its CPU and memory read
  from /proc (Linux); :class:`Fleet`: N of them, process k serving shard k of N (``SHARD_COUNT``
  and ``SHARD_IDS``, as the launcher deals them), each restarted on its own after a kill.
- :func:`open_database`: the run's database, an SQLite file in the run's folder or a throwaway
  PostgreSQL server of the bench's own (tests/postgres.py's, with its writes flushed to disk as
  a real server's are), and the SQL the benches read it with.
- :func:`spread`: where each simulated table sits (shard, server, channel), so that every shard
  gets its share of the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.model import Channel, Guild

REPO = Path(__file__).resolve().parent.parent
BACKENDS = ("sqlite", "postgres")
# ``python -m bot`` under cProfile, timed by the event loop thread's own CPU (a wall clock would
# charge it with the time it waits for the GIL while a picture is drawn in another thread).
PROFILED = """
import cProfile, runpy, sys, time
out, sys.argv = sys.argv[1], sys.argv[:1]
profile = cProfile.Profile(time.thread_time)
try:
    profile.runcall(runpy.run_module, "bot", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    profile.dump_stats(out)
"""
IDENTIFY_SECONDS = 0.5  # the fake's identify window and the bot's (Discord's is 5 s)
# A bench's PostgreSQL keeps what SQLite's WAL with synchronous=NORMAL keeps (bot/store/base.py):
# every commit survives a killed bot; the last ones may be lost to a power cut, never corrupted.
BENCH_POSTGRES = {
    "fsync": "on",
    "full_page_writes": "on",
    "synchronous_commit": "off",
    "shared_buffers": "128MB",
}


# --- where tables sit --------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where one simulated table sits: a shard, a server of that shard, a channel of it."""

    shard: int
    guild: int  # the server's number among its shard's servers
    channel: int  # the channel's number among its server's channels


def spread(tables: int, shards: int, per_channel: int, channels_per_guild: int) -> list[Place]:
    """Table i's place: dealt round robin over the shards (so that every shard has tables from
    the first few on), then ``per_channel`` to a channel, ``channels_per_guild`` to a server."""
    places = []
    for index in range(tables):
        shard, nth = index % shards, index // shards
        channel = nth // per_channel
        places.append(Place(shard, channel // channels_per_guild, channel % channels_per_guild))
    return places


class World:
    """The fake's servers and channels for :func:`spread`'s places, made as they are first used."""

    def __init__(self, fake: FakeDiscord, shards: int, prefix: str) -> None:
        self.fake = fake
        self.shards = shards
        self.prefix = prefix
        self.guilds: dict[tuple[int, int], Guild] = {}
        self.channels: dict[Place, Channel] = {}

    def guild(self, place: Place) -> Guild:
        key = (place.shard, place.guild)
        if key not in self.guilds:
            name = f"{self.prefix} {place.shard}-{place.guild}"
            self.guilds[key] = self.fake.add_guild(name, shard=(place.shard, self.shards))
        return self.guilds[key]

    def channel(self, place: Place) -> Channel:
        if place not in self.channels:
            name = f"{self.prefix}-{place.channel}"
            self.channels[place] = self.fake.add_channel(name, self.guild(place))
        return self.channels[place]

    def person(self, name: str, place: Place) -> FakeUser:
        """A member of the place's server."""
        return FakeUser(self.fake, self.fake.add_member(name, self.guild(place)).user)


# --- the bot processes -------------------------------------------------------------------------


def proc_cpu_seconds(pid: int) -> float:
    """A process's CPU so far (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_used(start: Mapping[int, float], seen: Mapping[int, float]) -> float:
    """CPU used since ``start`` by processes sampled as ``seen`` (process id -> its CPU when last
    seen alive): a process alive at the start counts from there, one started since from zero,
    and one that died counts what it had when last seen."""
    return sum(used - start.get(pid, 0.0) for pid, used in seen.items())


def tree_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU of a process and of its children now alive, by process id (a server's processes)."""
    found: dict[int, float] = {}
    with contextlib.suppress(OSError):
        found[pid] = proc_cpu_seconds(pid)
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                found[int(child)] = proc_cpu_seconds(int(child))
    return found


class BotProcess:
    """``python -m bot`` against the fake; its CPU and memory read from /proc (Linux)."""

    def __init__(self, env: dict[str, str], log: Path, profile: Path | None = None) -> None:
        self.env = env
        self.log = log
        self.profile = profile  # cProfile's statistics of the bot's event loop, written at exit
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        from tests.conftest import die_with_parent

        with open(self.log, "ab") as out:
            command = ["-c", PROFILED, str(self.profile)] if self.profile else ["-m", "bot"]
            self.proc = subprocess.Popen(
                [sys.executable, *command],
                cwd=REPO,
                env={**os.environ, **self.env, "PYTHONUNBUFFERED": "1"},
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
            )

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def stop(self) -> None:
        """A clean stop (SIGTERM), as an operator's restart would do."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def cpu_seconds(self) -> float:
        assert self.proc is not None
        return proc_cpu_seconds(self.proc.pid)

    def children_cpu_seconds(self) -> dict[int, float]:
        """CPU of each of the bot's child processes (the computer players' worker pool) now
        alive, by process id: a replaced worker's CPU is kept by sampling it while it lives."""
        assert self.proc is not None
        found: dict[int, float] = {}
        for task in Path(f"/proc/{self.proc.pid}/task").glob("*"):
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    found[int(child)] = proc_cpu_seconds(int(child))
        return found

    def log_count(self, *texts: str) -> int:
        """How many lines of the bot's log contain every one of ``texts``."""
        with contextlib.suppress(OSError), self.log.open(errors="replace") as lines:
            return sum(1 for line in lines if all(text in line for text in texts))
        return 0

    def memory_kb(self, name: str) -> int:
        """``VmRSS`` (now) or ``VmHWM`` (peak) of the bot process, in KiB."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1])
        return 0


def shard_env(process: int, processes: int) -> dict[str, str]:
    """Process k of N serves shard k of N; one process is the bot unsharded, as by default."""
    if processes == 1:
        return {}
    return {
        "SHARD_COUNT": str(processes),
        "SHARD_IDS": str(process),
        "DISCORD_IDENTIFY_SECONDS": str(IDENTIFY_SECONDS),
    }


class Fleet:
    """N bot processes, process k on shard k of N, each with a log of its own."""

    def __init__(
        self, env: dict[str, str], processes: int, log: Path, profile: Path | None = None
    ) -> None:
        """``profile``: each process's cProfile statistics go to this path (``-k`` added to
        its name when there are several)."""

        def own(path: Path, k: int) -> Path:
            return path if processes == 1 else path.with_name(f"{path.stem}-{k}{path.suffix}")

        self.bots = [
            BotProcess(
                {**env, **shard_env(k, processes)},
                own(log, k),
                None if profile is None else own(profile, k),
            )
            for k in range(processes)
        ]
        for bot in self.bots:
            bot.log.unlink(missing_ok=True)

    def start(self) -> None:
        for bot in self.bots:
            bot.start()

    async def stop(self) -> None:
        """A clean stop of every process at once, the fake serving their last edits meanwhile
        (a wait in this event loop would hold the fake still)."""
        await asyncio.gather(*(asyncio.to_thread(bot.stop) for bot in self.bots))

    def pids(self) -> list[int]:
        return [bot.proc.pid for bot in self.bots if bot.proc is not None]

    async def wait_connected(self, fake: FakeDiscord, identified: int = 0) -> None:
        """Until every shard is connected, after more than ``identified`` IDENTIFYs in all."""
        shards = set(range(len(self.bots))) if len(self.bots) > 1 else {0}

        def ready() -> bool:
            if len(self.bots) == 1:
                connected = {0} if fake.connected else set()
            else:
                connected = fake.connected_shards
            return fake.identify_count > identified and shards <= set(connected)

        try:
            await fake.wait_for(ready, timeout=90)
        except TimeoutError:
            tails = [bot.log.read_text(errors="replace")[-2000:] for bot in self.bots]
            raise SystemExit(
                "the bot did not connect; its output ends:\n" + "\n---\n".join(tails)
            ) from None
        await asyncio.sleep(0.5)  # the guild-ready timeout before discord.py calls on_ready

    async def restart(self, fake: FakeDiscord, number: int) -> None:
        """Kill process ``number`` (SIGKILL) and start it again at once; back when its shard is
        connected again."""
        identified = fake.identify_count
        self.bots[number].kill()
        self.bots[number].start()
        await self.wait_connected(fake, identified)

    def cpu_seconds(self) -> dict[int, float]:
        """Each bot process's CPU, by process id (their workers apart)."""
        found = {}
        for bot in self.bots:
            with contextlib.suppress(OSError, AssertionError):
                found[bot.proc.pid if bot.proc else 0] = bot.cpu_seconds()
        return found

    def children_cpu_seconds(self) -> dict[int, float]:
        found: dict[int, float] = {}
        for bot in self.bots:
            with contextlib.suppress(OSError):
                found.update(bot.children_cpu_seconds())
        return found

    def memory_kb(self, name: str) -> int:
        """``VmRSS`` or ``VmHWM`` summed over the processes (the sum of the peaks: an upper
        bound of the peak of the sum)."""
        return sum(bot.memory_kb(name) for bot in self.bots)

    def log_count(self, *texts: str) -> int:
        return sum(bot.log_count(*texts) for bot in self.bots)


# --- the database ------------------------------------------------------------------------------


class Database:
    """The run's database as the benches read it: SQL with ``?`` placeholders on either."""

    def __init__(
        self,
        backend: str,
        env: dict[str, str],
        path: Path | None,
        url: str | None,
        server: int | None = None,
    ) -> None:
        self.backend = backend
        self.env = env  # what the bot is given: DATABASE_PATH or DATABASE_URL
        self.path = path
        self.url = url
        self.server = server  # the PostgreSQL server's process id

    def server_cpu_seconds(self) -> dict[int, float]:
        """The database server's processes' CPU (PostgreSQL's: none for SQLite, whose work is
        the bot's own), by process id."""
        return tree_cpu_seconds(self.server) if self.server is not None else {}

    async def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        if self.url is None:
            assert self.path is not None
            with contextlib.closing(sqlite3.connect(self.path, timeout=30)) as db:
                found = [tuple(row) for row in db.execute(sql, params).fetchall()]
                db.commit()
                return found
        import asyncpg

        connection = await asyncpg.connect(self.url)
        try:
            records = await connection.fetch(numbered(sql), *params)
        finally:
            await connection.close()
        return [tuple(row) for row in records]

    async def value(self, sql: str, *params: Any) -> Any:
        return (await self.rows(sql, *params))[0][0]

    async def size(self) -> int:
        """Bytes the bot's data takes: the SQLite file and its WAL (checkpointed first), or
        PostgreSQL's tables with their indexes and TOAST (its write-ahead log apart)."""
        if self.url is None:
            assert self.path is not None
            with contextlib.closing(sqlite3.connect(self.path)) as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*"))
        return int(
            await self.value(
                "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            )
        )


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``... (the benches' SQL has no ``?`` in
    its strings)."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], start=1))


@contextlib.asynccontextmanager
async def open_database(backend: str, folder: Path) -> AsyncIterator[Database]:
    """The run's database, empty: the bot creates its tables when it starts."""
    if backend == "sqlite":
        path = folder / "bench.sqlite3"
        yield Database(backend, {"DATABASE_PATH": str(path)}, path, None)
        return
    from tests.postgres import DATABASE, PostgresServer, find_binaries

    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin or PG_BIN")
    server = PostgresServer(binaries, BENCH_POSTGRES)
    try:
        await asyncio.to_thread(server.start)
        await asyncio.to_thread(server.create_database)
        url = server.url(DATABASE)
        assert server.process is not None
        yield Database(backend, {"DATABASE_URL": url}, None, url, server.process.pid)
    finally:
        await asyncio.to_thread(server.stop)


def names(backend: str, processes: int) -> str:
    """The set-up in a few words, for reports."""
    label = "SQLite" if backend == "sqlite" else "PostgreSQL"
    return f"{label}, {processes} bot process{'es' if processes > 1 else ''}"
