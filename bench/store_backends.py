"""The two store backends side by side: a move's write, many tables at once, a feature's
calls, and the migration.

``python -m bench.store_backends [--tables 40] [--moves 100] [--calls 300] [--url ...]``

Each backend plays ``--tables`` tables of four seats through the store as the session manager
does (create, seat, start with a deal, then ``append_move`` per move, the last one with the
game's result and ratings):

- one table at a time: each move's write, median and 95th percentile (what a click waits for);
- every table at once (one coroutine each, as the bot's tables): moves written per second;

- a feature's calls around a move, one at a time (``--calls`` of each): a table's seats read, a
  server's settings read (a server not read before, so not from the recent settings), the turn
  deadline written, a request to sit in kept and dropped: the median of each;

then ``python -m bot.migrate``'s copy of the SQLite file into an empty PostgreSQL database, in
rows per second. Without ``--url`` a throwaway PostgreSQL server is started from the machine's
binaries (``tests/postgres.py``), over a unix socket, with ``fsync`` off: the figures compare the
backends' own costs, not a disk's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot import migrate
from bot.store import Result, Store, StoreInterface
from bot.store.postgres import PostgresStore
from tests.postgres import PostgresServer, find_binaries

DEAL = {"hands": [["AS", "KS"], ["AH", "KH"], ["AD", "KD"], ["AC", "KC"]], "stock": []}


async def play(store: StoreInterface, guild: int, moves: int, times: list[float]) -> None:
    """One table's life; each move's write time appended to ``times``."""
    people = [(guild * 10 + seat, f"p{seat}") for seat in range(4)]
    table = await store.create_table(
        guild_id=guild, channel_id=guild, host_id=people[0][0], game="tarneeb", options={},
        seed=guild, seats=people,
    )  # fmt: skip
    await store.start_game(table.id, 0, [DEAL])
    for seq in range(moves):
        seat = seq % 4
        result = None
        if seq == moves - 1:
            outcome = {"winners": [0, 2], "score": [31, 12], "abandoned": False}
            result = Result("finished", outcome, [(p, s, s % 2 == 0) for s, (p, _) in
                                                  enumerate(people)])  # fmt: skip
        started = time.perf_counter()
        await store.append_move(
            table.id, seq, seat, {"action": "play", "card": "AS"}, people[seat][0], result=result
        )
        times.append(time.perf_counter() - started)


async def measure(name: str, store: StoreInterface, tables: int, moves: int) -> None:
    alone: list[float] = []
    for guild in range(1, 1 + max(1, tables // 4)):
        await play(store, guild, moves, alone)
    together: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(play(store, 1000 + guild, moves, together) for guild in range(tables)))
    elapsed = time.perf_counter() - started
    alone.sort()
    print(
        f"{name:10} one table: a move's write {statistics.median(alone) * 1000:.2f} ms median, "
        f"{alone[int(len(alone) * 0.95)] * 1000:.2f} ms p95; {tables} tables at once: "
        f"{len(together) / elapsed:,.0f} moves/s"
    )


async def feature_calls(name: str, store: StoreInterface, calls: int) -> None:
    """The median time of each of a few feature calls (reads and writes outside the moves log)."""
    table = await store.create_table(
        guild_id=9_000, channel_id=9_000, host_id=1, game="tarneeb", options={}, seed=1,
        seats=[(1, "p0"), (2, "p1"), (None, "computer"), (4, "p3")],
    )  # fmt: skip
    await store.start_game(table.id, 0, [DEAL])

    async def seats(i: int) -> None:
        await store.seats(table.id)

    async def settings(i: int) -> None:
        await store.guild_settings(10_000 + i, 60)

    async def deadline(i: int) -> None:
        await store.set_deadline(table.id, float(i))

    async def sit_in(i: int) -> None:
        await store.ask_sit_in(table.id, 2, 5, "p5")
        await store.drop_sit_in(table.id, 2, 5)

    figures = []
    for label, call in (
        ("seats read", seats),
        ("settings read", settings),
        ("deadline write", deadline),
        ("sit-in ask+drop", sit_in),
    ):
        times = []
        for i in range(calls):
            started = time.perf_counter()
            await call(i)
            times.append(time.perf_counter() - started)
        figures.append(f"{label} {statistics.median(times) * 1_000_000:,.0f} µs")
    print(f"{name:10} calls, median: " + ", ".join(figures))


@contextlib.contextmanager
def postgres(url: str | None) -> Iterator[tuple[str, str]]:
    """Two empty PostgreSQL databases: the store's and the migration's target."""
    if url is not None:
        yield url, url
        return
    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL server binaries: pass --url")
    server = PostgresServer(binaries)
    try:
        server.start()
        server.create_database()
        with server.schema(migrated=False) as first, server.schema(migrated=False) as second:
            yield first, second
    finally:
        server.stop()


async def main(args: argparse.Namespace, url: str, target: str, folder: str) -> None:
    path = Path(folder) / "bench.sqlite3"
    stores: list[tuple[str, Any]] = [
        ("sqlite", await Store.open(path)),
        ("postgresql", await PostgresStore.open(url)),
    ]
    for name, store in stores:
        try:
            await measure(name, store, args.tables, args.moves)
            await feature_calls(name, store, args.calls)
        finally:
            await store.close()
    if args.url is None:
        started = time.perf_counter()
        counts = await migrate.migrate(path, target, say=lambda line: None)
        elapsed = time.perf_counter() - started
        rows = sum(counts.values())
        print(
            f"migrate    {rows:,} rows of {len(counts)} tables in {elapsed:.2f} s "
            f"({rows / elapsed:,.0f} rows/s, the opening and checks included)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--calls", type=int, default=300, help="of each feature call")
    parser.add_argument("--url", help="an empty PostgreSQL database (else a throwaway server)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, postgres(arguments.url) as (url, target):
        asyncio.run(main(arguments, url, target, folder))
