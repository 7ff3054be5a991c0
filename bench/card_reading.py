"""What reading the card play costs the hard level: its decisions' CPU time with and without it.

``python -m bench.card_reading [--games G ...] [--positions N] [--seed S]``

For each game, ``N`` positions in the card play (seeded games played by the normal player up to
a random card, at least one other seat having played), each decided by the hard level twice on
the same random source: once as it is (:mod:`games.search.card_reading` enabled for the game)
and once without the reading (``bench.hard_today``'s ``hard-no-play-inference``). Prints the
median and 95th percentile of the decisions' CPU time (``time.process_time``: what a decision
costs on a busy machine), the share of decisions whose move differs, and how much of the worlds
the reading's weights keep: the mean weight, under the reading, of the worlds drawn without it
(1: the card play says nothing the plain worlds do not already fit).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from contextlib import AbstractContextManager, nullcontext

from bench.hard_today import _no_play_inference
from bench.match import percentile
from games.base import Game
from games.levels import choose_move
from games.players import seen_for
from games.registry import all_games
from games.search import card_reading
from games.search.card_reading import reading
from games.search.worlds import Knowledge, NoWorld

GAMES = ("tarneeb", "tuppi", "tarneeb_egyptian", "norwegian_whist")


def positions(name: str, count: int, seed: int) -> list[tuple[Game, int]]:
    """``count`` positions of ``name`` in the card play, each a few cards into it (from the
    second card to the 45th, the exact endgame's among them)."""
    found: list[tuple[Game, int]] = []
    game_seed = seed
    while len(found) < count:
        game = all_games()[name].new(seed=game_seed)
        rng = random.Random(game_seed)
        stop = 2 + game_seed % 44
        plays = 0
        while game.status == "in_progress":
            seat = game.to_act()[0]
            if game.view(seat).phase in ("tricks", "play"):
                plays += 1
                if plays >= stop:
                    if len(game.legal_moves(seat)) > 1:
                        found.append((game, seat))
                    break
            game.apply(seat, choose_move(game, seat, rng))
        game_seed += 1
    return found


def plain_fit(game: Game, seat: int) -> float | None:
    """The mean reading weight (per seat read) of worlds drawn without the reading."""
    seen = seen_for(game, seat, "hard")
    try:
        knowledge = Knowledge.of(seen)
    except NoWorld:
        return None
    read = reading(seen, knowledge)
    if read is None:
        return None
    weights: list[float] = []
    rng = random.Random(0)
    for _ in range(20):
        deal = knowledge.sample(rng)
        if deal is not None:
            weights += [read.weight(other, deal.hands[other]) for other in read.plays]
    return statistics.fmean(weights) if weights else None


def timed(game: Game, seat: int, context: AbstractContextManager[None]) -> tuple[float, str]:
    with context:
        start = time.process_time()
        move = choose_move(game, seat, random.Random(7), "hard")
        return time.process_time() - start, str(move)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checked", type=int, default=card_reading.CHECKED)
    parser.add_argument("--mismatch", type=float, default=card_reading.MISMATCH)
    args = parser.parse_args(argv)
    saved = card_reading.GAMES
    card_reading.CHECKED, card_reading.MISMATCH = args.checked, args.mismatch
    for name in args.games:
        card_reading.GAMES = frozenset({name})  # measured whether enabled today or not
        found = positions(name, args.positions, args.seed)
        late = [(game, seat) for game, seat in found if sum(game.view(seat).hand_sizes) <= 30]
        for game, seat in late[:1]:  # warm up: the first exact endgame loads and sizes DDS
            timed(game, seat, _no_play_inference())
        with_reading: list[float] = []
        without: list[float] = []
        differ = 0
        fits: list[float] = []
        for game, seat in found:
            fit = plain_fit(game, seat)
            if fit is not None:
                fits.append(fit)
            cpu, move = timed(game, seat, nullcontext())
            cpu_off, move_off = timed(game, seat, _no_play_inference())
            with_reading.append(cpu)
            without.append(cpu_off)
            differ += move != move_off
        print(f"{name}: {len(found)} card-play decisions of the hard level (CPU ms)")
        for label, values in (("reading the play", with_reading), ("without", without)):
            print(
                f"  {label}: median {statistics.median(values) * 1000:.1f},"
                f" 95th percentile {percentile(values, 0.95) * 1000:.1f},"
                f" max {max(values) * 1000:.1f}"
            )
        print(f"  moves that differ: {differ} of {len(found)}")
        if fits:
            print(f"  mean reading weight of the plain worlds: {statistics.fmean(fits):.2f}")
    card_reading.GAMES = saved


if __name__ == "__main__":
    main()
