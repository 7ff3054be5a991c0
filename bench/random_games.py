"""Play random complete games through the checked interface and print their speed.

``python -m bench.random_games [--games N] [--seconds S] [--repeat R] [--only NAME ...]``: for
each registered game (or the named ones), plays games from consecutive seeds, choosing uniformly
among the legal moves of a seat to act, and applying each move with the checked ``apply`` (which
runs ``check``). One line per game and table size (Thunee with 2, 4 and 6 players, Tunge with
2, 3 and 4).

The figures are meant to be comparable from run to run: each line first warms up (caches, the
interned moves) on seeds it does not count, then plays at least ``--games`` games *and* at least
``--seconds`` of CPU time (short games, like random Thunee deals, would otherwise be timed over a
fraction of a second). The rate is given per CPU second (``time.process_time``: what the engine
costs, whatever else runs on the machine) and per wall-clock second; on an idle machine the two
agree, and a wall rate well below the CPU rate means the machine was busy.

Each line is timed ``--repeat`` times (3 by default), each run from the same seeds, so the runs
differ only by the machine's speed of the moment; the line gives the median run, with the
slowest and the fastest rate beside it. This machine's speed swings by a third within
minutes: one run is not a figure, and the spread shows how far to trust the median.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from games.base import Game
from games.registry import all_games

# Seeds at and above this are the warm-up's; the measured games use 0, 1, 2, ...
WARM_UP_SEEDS = 1_000_000


@dataclass(frozen=True, slots=True)
class Run:
    """What one timed line played, and how long it took."""

    games: int
    actions: int
    cpu: float  # seconds of this process's CPU time
    wall: float  # seconds of elapsed time


def play_one(game_class: type[Game], options: dict[str, object] | None, seed: int) -> int:
    """Play one random game from ``seed``; returns how many moves it took."""
    game = game_class.new(options, seed=seed)
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    while game.status == "in_progress":
        seat = choice(game.to_act())
        game.apply(seat, choice(game.legal_moves(seat)))
        actions += 1
    return actions


def play(
    name: str,
    games: int,
    options: dict[str, object] | None = None,
    *,
    seconds: float = 0.0,
    warm_up: float = 0.2,
) -> Run:
    """Play at least ``games`` games and ``seconds`` of CPU time, after ``warm_up`` seconds."""
    game_class = all_games()[name]
    seed = WARM_UP_SEEDS
    end = time.process_time() + warm_up
    while time.process_time() < end:
        play_one(game_class, options, seed)
        seed += 1
    played = actions = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    cpu = 0.0
    while played < games or cpu < seconds:
        actions += play_one(game_class, options, played)
        played += 1
        cpu = time.process_time() - cpu_start
    return Run(played, actions, cpu, time.perf_counter() - wall_start)


# Table sizes measured besides each game's default.
VARIANTS: dict[str, list[dict[str, object]]] = {
    "thunee": [{"players": 2}, {"players": 4}, {"players": 6}],
    "tunge": [{"players": 2}, {"players": 3}, {"players": 4}],
}


def median_run(runs: list[Run]) -> Run:
    """The run with the median rate (the lower middle one for an even count)."""
    return sorted(runs, key=lambda run: run.actions / run.cpu)[(len(runs) - 1) // 2]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="at least this many games a line")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="at least this much CPU time a line"
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed runs a line (the median)")
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    for name in args.only or sorted(all_games()):
        for options in VARIANTS.get(name, [{}]):
            runs = [
                play(name, args.games, options, seconds=args.seconds) for _ in range(args.repeat)
            ]
            run = median_run(runs)
            rates = sorted(each.actions / each.cpu for each in runs)
            label = name + "".join(f" {k}={v}" for k, v in options.items())
            print(
                f"{label:20} {run.actions / run.cpu:8.0f} actions/s CPU "
                f"({rates[0]:.0f} to {rates[-1]:.0f} over {len(runs)} runs) "
                f"{run.actions / run.wall:8.0f} wall {run.games / run.cpu:8.1f} games/s CPU "
                f"({run.games} games, {run.actions} actions, "
                f"{run.cpu:.2f} s CPU, {run.wall:.2f} s wall)",
                flush=True,
            )


if __name__ == "__main__":
    main()
