"""Computer decisions through the process pool against threads: latency, and the event loop's lag.

``python -m bench.thinking [--positions N] [--busy-ms MS] [--processes P]``

1. Latency: the same ``N`` positions (random games of every game, every few moves) decided at
   the normal level through :class:`bot.thinking.Thinker`, once in threads and once in a pool of
   ``P`` worker processes; the wall time of each ``await thinker.choose(...)`` (median and 95th
   percentile, milliseconds). It includes what crosses the boundary: the pickled game out, the
   move back. Before that, the two candidates for what crosses are compared on the same
   positions: the pickled game, and the transcript-like minimum (game, seed, deals and moves so
   far) rebuilt by replaying it through the rules.
2. Responsiveness: a CPU-bound level (``busy``: ``MS`` milliseconds of pure Python, standing in
   for the hard level's search) decides 20 times in a row while the event loop measures its own
   lag (how late a 5 ms sleep wakes up); threads share the GIL with the loop, the pool does not.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import random
import statistics
import time

from bot.thinking import Thinker, register_level
from games.base import Deal, Game, Move
from games.players import Seen
from games.registry import all_games

BUSY_ENV = "BENCH_BUSY_MS"


def busy(seen: Seen, rng: random.Random) -> Move:
    """A stand-in for a search: burn ``$BENCH_BUSY_MS`` of CPU, then play a random move."""
    until = time.perf_counter() + float(os.environ.get(BUSY_ENV, "200")) / 1000
    while time.perf_counter() < until:
        sum(i * i for i in range(2_000))
    return rng.choice(seen.legal)


register_level("busy", busy)


Transcript = tuple[str, int, list[dict[str, object]], list[tuple[int, dict[str, object]]]]


def positions(count: int, seed: int = 1) -> tuple[list[tuple[Game, int]], list[Transcript]]:
    """``count`` positions, and for each the transcript-like minimum that rebuilds it (game
    name, seed, deals so far, moves so far)."""
    rng = random.Random(seed)
    names = sorted(all_games())
    found: list[tuple[Game, int]] = []
    transcripts: list[Transcript] = []
    game_seed = seed
    while len(found) < count:
        name = names[game_seed % len(names)]
        game = all_games()[name].new({}, seed=game_seed)
        moves: list[tuple[int, dict[str, object]]] = []
        while game.status == "in_progress" and len(found) < count:
            seat = game.waiting_for()[0]
            if rng.random() < 0.2:
                found.append((game.clone(), seat))
                deals = [deal.to_json() for deal in game.deals]
                transcripts.append((name, game_seed, deals, list(moves)))
            move = rng.choice(game.legal_moves(seat))
            game.apply(seat, move)
            moves.append((seat, move.to_json()))
        game_seed += 1
    return found, transcripts


def crossing(cases: list[tuple[Game, int]], transcripts: list[Transcript]) -> None:
    """What it costs to hand a position to a worker: the pickled game, or a transcript to
    replay through the rules (pickled too, then rebuilt)."""
    pickled, replayed, game_sizes, transcript_sizes = [], [], [], []
    for (game, _), (name, seed, deals, moves) in zip(cases, transcripts, strict=True):
        began = time.perf_counter()
        data = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.loads(data)
        pickled.append((time.perf_counter() - began) * 1000)
        game_sizes.append(len(data))
        began = time.perf_counter()
        text = pickle.dumps((name, seed, deals, moves), protocol=pickle.HIGHEST_PROTOCOL)
        name, seed, deals, moves = pickle.loads(text)
        rebuilt = all_games()[name].new(
            {}, seed=seed, deals=[Deal.from_json(deal) for deal in deals]
        )
        for seat, move in moves:
            rebuilt.apply(seat, Move.from_json(move))
        replayed.append((time.perf_counter() - began) * 1000)
        transcript_sizes.append(len(text))
    print(
        f"what crosses: pickled game median {statistics.median(game_sizes):.0f} B "
        f"(max {max(game_sizes)}), transcript median {statistics.median(transcript_sizes):.0f} B "
        f"(max {max(transcript_sizes)})"
    )
    print(line("  pickle out and back", pickled))
    print(line("  transcript out, replayed", replayed))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def latency(thinker: Thinker, cases: list[tuple[Game, int]]) -> list[float]:
    times = []
    for index, (game, seat) in enumerate(cases):
        began = time.perf_counter()
        await thinker.choose(game.clone(), seat, f"bench:{index}", "normal", 30.0)
        times.append((time.perf_counter() - began) * 1000)
    return times


async def loop_lag(thinker: Thinker, game: Game, seat: int, decisions: int) -> list[float]:
    """How late 5 ms sleeps wake while ``decisions`` busy decisions run one after another."""
    lags: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        while not done.is_set():
            began = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append((time.perf_counter() - began) * 1000 - 5)

    task = asyncio.create_task(probe())
    for index in range(decisions):
        await thinker.choose(game.clone(), seat, f"busy:{index}", "busy", 60.0)
    done.set()
    await task
    return lags


def line(label: str, values: list[float]) -> str:
    return (
        f"{label:28} median {statistics.median(values):7.2f} ms   "
        f"95th {percentile(values, 0.95):7.2f} ms   max {max(values):7.2f} ms   (n={len(values)})"
    )


async def run(count: int, busy_ms: int, processes: int) -> None:
    os.environ[BUSY_ENV] = str(busy_ms)
    cases, transcripts = positions(count)
    print(f"{count} positions of {len(all_games())} games")
    crossing(cases, transcripts)
    threads = Thinker(0)
    pool = Thinker(processes, imports=("bench.thinking",), quick=frozenset())
    pool.warm()
    await pool.choose(*cases[0], "warm", "normal", 60.0)  # the workers are up
    try:
        print(line("normal, threads", await latency(threads, cases)))
        print(line(f"normal, pool of {processes}", await latency(pool, cases)))
        game, seat = cases[0]
        print(f"event-loop lag while 20 decisions of {busy_ms} ms CPU run (a 5 ms sleep's delay):")
        print(line("  threads", await loop_lag(threads, game, seat, 20)))
        print(line(f"  pool of {processes}", await loop_lag(pool, game, seat, 20)))
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--busy-ms", type=int, default=200)
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.positions, args.busy_ms, args.processes))


if __name__ == "__main__":
    main()
