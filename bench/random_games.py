"""Play random complete games through the checked interface and print their speed.

``python -m bench.random_games [--games N] [--only NAME ...]``: for each registered game (or the
named ones), plays N games from consecutive seeds, choosing uniformly among the legal moves of a
seat to act, and applying each move with the checked ``apply`` (which runs ``check``). It prints
games per second and actions per second, one line per game. Run it on an idle machine.
"""

from __future__ import annotations

import argparse
import random
import time

from games.registry import all_games


def play(name: str, games: int, options: dict[str, object] | None = None) -> tuple[int, float]:
    game_class = all_games()[name]
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = game_class.new(options, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = rng.choice(game.to_act())
            game.apply(seat, rng.choice(game.legal_moves(seat)))
            actions += 1
    return actions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    for name in args.only or sorted(all_games()):
        actions, seconds = play(name, args.games)
        print(f"{name:18} {args.games / seconds:9.1f} games/s {actions / seconds:11.0f} actions/s "
              f"({args.games} games, {actions} actions, {seconds:.2f} s)")


if __name__ == "__main__":
    main()
