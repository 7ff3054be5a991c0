"""Random playouts on the search's fast trick play: card plays per second, per game.

``python -m bench.playouts [--seconds S] [--seed N]``: for each trick game the fast path models
(Tarneeb, Egyptian Tarneeb, Tuppi, Norwegian Whist) and for Thunee (2, 4 and 6 players, its own
fast path :mod:`games.search.thunee_fast`), deals seeded hands up to the first card (through the
engine and its normal players; Thunee's ordinary hands up to the second card, as the first turns
the trump card up), then plays random legal cards to the end of the hand on copies of that
position (``random_playout``), for at least ``S`` CPU seconds; then Tunge at 2, 3 and 4 players on
its own fast path (:mod:`games.search.tunge_fast`), random legal moves (plays, draws, passes) from
20 seeded deals to the end of each. The rate is per CPU second (``time.process_time``), beside the
wall-clock rate: a wall rate well below it means the machine was busy.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol, Self, TypeVar

from games.levels import choose_move
from games.registry import all_games
from games.search import thunee_fast
from games.search.tricks import TrickPlay, from_world, random_playout
from games.thunee import Thunee

GAMES = (
    "tarneeb",
    "tarneeb_egyptian",
    "tuppi",
    "norwegian_whist",
    "thunee 2",
    "thunee 4",
    "thunee 6",
)
TUNGE_SIZES = (2, 3, 4)


class Position(Protocol):
    """A fast path's position: a playout runs on a copy."""

    def copy(self) -> Self: ...


P = TypeVar("P", bound=Position)


def first_card(name: str, seed: int) -> TrickPlay:
    """The position before the first card of a seeded hand (a sooli hand is dealt again)."""
    while True:
        game = all_games()[name].new(seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            state = from_world(game)
            if state is not None:
                return state
            seat = game.to_act()[0]
            game.apply(seat, choose_move(game, seat, rng))
        seed += 1_000


def thunee_start(players: int, seed: int) -> thunee_fast.ThuneePlay:
    """A seeded Thunee hand of an ordinary contract after its first card (others dealt again)."""
    while True:
        game = Thunee.new({"players": players}, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress" and game.records[-1].result is None:
            state = thunee_fast.from_world(game)
            if state is not None:
                return state
            seat = game.to_act()[0]
            game.apply(seat, choose_move(game, seat, rng))
        seed += 1_000


def rate(name: str, seconds: float, seed: int) -> tuple[int, float, float]:
    """Card plays, CPU seconds and wall seconds of random playouts for ``name``."""
    if name.startswith("thunee"):
        players = int(name.removeprefix("thunee "))
        thunee = [thunee_start(players, seed + index) for index in range(20)]
        return _rate(thunee, thunee_fast.random_playout, seconds, seed)
    starts = [first_card(name, seed + index) for index in range(20)]
    return _rate(starts, random_playout, seconds, seed)


def _rate(
    starts: Sequence[P], playout: Callable[[P, random.Random], int], seconds: float, seed: int
) -> tuple[int, float, float]:
    """Plays (or moves) of random playouts from copies of ``starts``, CPU and wall seconds."""
    rng = random.Random(seed)
    plays = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        for start in starts:
            plays += playout(start.copy(), rng)
    return plays, time.process_time() - cpu, time.perf_counter() - wall


def tunge_rate(players: int, seconds: float, seed: int) -> tuple[int, float, float]:
    """Moves (plays, draws, passes) of random Tunge playouts on the fast path
    (:func:`games.search.tunge_fast.random_playout`) from 20 seeded deals of ``players``."""
    from games.search.tunge_fast import Deal, Rules, random_playout

    starts = []
    for index in range(20):
        game = all_games()["tunge"].new({"players": players}, seed=seed + index)
        deal = game.deals[0]
        first = (game.first_dealer + 1) % players
        rules = Rules.of(game.options)
        starts.append(Deal.start(rules, deal.hands, tuple(reversed(deal.stock)), turn=first))
    return _rate(starts, random_playout, seconds, seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for name in GAMES:
        plays, cpu, wall = rate(name, args.seconds, args.seed)
        print(
            f"{name:18} {plays / cpu:10.0f} card plays/s CPU {plays / wall:10.0f} wall"
            f" ({plays} plays, {cpu:.2f} s CPU, {wall:.2f} s wall)"
        )
    for players in TUNGE_SIZES:
        moves, cpu, wall = tunge_rate(players, args.seconds, args.seed)
        print(
            f"{f'tunge {players}p':18} {moves / cpu:10.0f} moves/s CPU"
            f" {moves / wall:10.0f} wall ({moves} moves, {cpu:.2f} s CPU, {wall:.2f} s wall)"
        )


if __name__ == "__main__":
    main()
