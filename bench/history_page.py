"""Time the history's queries on a large database (each under 50 ms).

``python -m bench.history_page [--games N] [--players P] [--guilds G] [--path FILE]``

Fills a fresh SQLite file (the bot's own migrations) with ``N`` finished four-seat games among
``P`` players in ``G`` servers, and one game in 10,000 in a small server (each game: one to four
humans, computers in the other seats, one person in twenty leaving mid-game for a computer, a
result and its players). Then prints the median and worst time of: the first history page, a
page deep in the history, a player's first page, a game's first page, a player's page of one
game, and the small server's page (whose few games are found by walking back through all).
Each runs through :mod:`bot.history` on the bot's store, as ``/history`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot import history
from bot.store import Store

GAMES = ("thunee", "tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist")
REPEATS = 30
SMALL_SERVER = 999  # gets one game in 10,000: its page is the longest walk back


def fill(path: Path, games: int, players: int, guilds: int, seed: int = 16) -> None:
    """Write the games straight into the migrated file, in one transaction."""
    rng = random.Random(seed)
    start = 1_700_000_000.0
    tables, seats, holders, results, result_players = [], [], [], [], []
    for table_id in range(1, games + 1):
        guild = SMALL_SERVER if table_id % 10_000 == 0 else 1 + table_id % guilds
        game = rng.choice(GAMES)
        humans = rng.sample(range(1, players + 1), rng.randint(1, 4))
        finished = start + table_id * 60.0 + rng.random() * 30
        tables.append(
            (table_id, guild, 5, humans[0], game, "{}", table_id, 0, "finished", start, finished)
        )
        winners = [0, 2] if rng.random() < 0.5 else [1, 3]
        for seat in range(4):
            person = humans[seat] if seat < len(humans) else None
            user, name = person, f"player {person}" if person else "🤖 Ada"
            holders.append((table_id, seat, 0, user, name))
            if person is not None and rng.random() < 0.05:  # left mid-game: a computer finished
                user, name = None, "🤖 Babbage"
                holders.append((table_id, seat, 20, user, name))
            seats.append((table_id, seat, user, name))
            if person is not None:  # rated with the seat's result, even if they left it
                result_players.append((table_id, person, seat, int(seat in winners)))
        outcome = {"winners": winners, "score": [rng.randint(0, 41), 41], "abandoned": False}
        results.append((table_id, guild, game, json.dumps(outcome), finished))
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO game_tables (id, guild_id, channel_id, host_id, game, options, seed,"
            " first_dealer, status, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            tables,
        )
        db.executemany("INSERT INTO seats (table_id, seat, user_id, name) VALUES (?,?,?,?)", seats)
        db.executemany(
            "INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)"
            " VALUES (?,?,?,?,?)",
            holders,
        )
        db.executemany(
            "INSERT INTO results (table_id, guild_id, game, outcome, finished_at)"
            " VALUES (?,?,?,?,?)",
            results,
        )
        db.executemany(
            "INSERT INTO result_players (table_id, user_id, seat, won) VALUES (?,?,?,?)",
            result_players,
        )
        db.execute("ANALYZE")


async def migrate(path: Path) -> None:
    store = await Store.open(path)
    await store.close()


async def timed(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """Median and worst milliseconds over :data:`REPEATS` runs (after one warm-up)."""
    await work()
    times = []
    for _ in range(REPEATS):
        began = time.perf_counter()
        await work()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), max(times)


async def measure(path: Path, players: int) -> None:
    store = await Store.open(path)
    try:
        player = 1 + players // 2
        cases: dict[str, Callable[[], Awaitable[object]]] = {
            "first page": lambda: history.history_page(store, 1),
            "page 100": lambda: history.history_page(store, 1, 99),
            "a player's first page": lambda: history.history_page(store, 1, user_id=player),
            "a game's first page": lambda: history.history_page(store, 1, game="tuppi"),
            "a player's page of one game": lambda: history.history_page(
                store, 1, user_id=player, game="tuppi"
            ),
            "a small server's first page": lambda: history.history_page(store, SMALL_SERVER),
        }
        for name, work in cases.items():
            median, worst = await timed(work)
            print(f"{name:30} median {median:6.2f} ms   worst {worst:6.2f} ms")
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.history_page", description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--guilds", type=int, default=1)
    parser.add_argument("--path", type=Path, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = args.path or Path(folder) / "bench.sqlite3"
        asyncio.run(migrate(path))
        began = time.perf_counter()
        fill(path, args.games, args.players, args.guilds)
        print(
            f"{args.games} games, {args.players} players, {args.guilds} servers:"
            f" filled in {time.perf_counter() - began:.1f} s"
        )
        asyncio.run(measure(path, args.players))


if __name__ == "__main__":
    main()
