"""Play random complete games through the checked interface and print their speed.

``python -m bench.random_games [--games N] [--only NAME ...]``: for each registered game (or the
named ones), plays N games from consecutive seeds, choosing uniformly among the legal moves of a
seat to act, and applying each move with the checked ``apply`` (which runs ``check``). It prints
games per second and actions per second, one line per game and table size (Thunee with 2, 4
and 6 players, Tunge with 2, 3 and 4). Run it on an idle machine.
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


# Table sizes measured besides each game's default.
VARIANTS: dict[str, list[dict[str, object]]] = {
    "thunee": [{"players": 2}, {"players": 4}, {"players": 6}],
    "tunge": [{"players": 2}, {"players": 3}, {"players": 4}],
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    for name in args.only or sorted(all_games()):
        for options in VARIANTS.get(name, [{}]):
            actions, seconds = play(name, args.games, options)
            label = name + "".join(f" {k}={v}" for k, v in options.items())
            print(
                f"{label:28} {args.games / seconds:9.1f} games/s {actions / seconds:11.0f} "
                f"actions/s ({args.games} games, {actions} actions, {seconds:.2f} s)"
            )


if __name__ == "__main__":
    main()
