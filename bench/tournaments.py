"""What pairing a tournament round costs, by field size and layout.

    python -m bench.tournaments [--rounds 5]

For each size, a whole Swiss tournament is paired round by round (every round's results drawn
at random, with duplicate deal scores), and the slowest round's pairing CPU time is printed with
the standings': pairs (one pair against another), rotating partners (tables of four) and
Tunge (tables of three and four), then a knockout bracket of the same size.
"""

from __future__ import annotations

import argparse
import random
import time

from bot.tournaments.knockout import first_round
from bot.tournaments.spec import Entrant, TournamentSpec
from bot.tournaments.standings import standings
from bot.tournaments.swiss import pair_round
from bot.tournaments.tables import Round, TableResult

LAYOUTS = (("tarneeb", "pairs"), ("tarneeb", "individuals"), ("tunge", "individuals"))
SIZES = (16, 32, 64, 128)


def swiss(game: str, entry: str, size: int, rounds: int, rng: random.Random) -> tuple[float, float]:
    """The slowest round's pairing and the final standings' CPU time, in seconds (CPU, not
    wall-clock: the figures hold on a shared machine)."""
    spec = TournamentSpec.create(game=game, format="swiss", entry=entry, rounds=rounds, seed=1)
    members = 2 if entry == "pairs" else 1
    entrants = [
        Entrant(i, tuple(range(10 * i, 10 * i + members)), rating=rng.random())
        for i in range(1, size + 1)
    ]
    played: list[Round] = []
    results: list[TableResult] = []
    slowest = 0.0
    for number in range(1, rounds + 1):
        started = time.process_time()
        paired = pair_round(spec, entrants, played, results)
        slowest = max(slowest, time.process_time() - started)
        played.append(paired)
        for table in paired.tables:
            hands = len(table.sides)
            places = tuple(rng.sample(range(1, hands + 1), hands))
            deals = tuple(tuple(float(rng.randint(0, 10)) for _ in range(hands)) for _ in range(8))
            results.append(TableResult(number, table.number, places, deals))
    started = time.process_time()
    standings(entrants, played, results, seed=spec.seed)
    return slowest, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(0)
    for game, entry in LAYOUTS:
        for size in SIZES:
            pairing, table = swiss(game, entry, size, args.rounds, rng)
            print(
                f"{game} {entry:<11} {size:>4} entrants: slowest round paired in "
                f"{pairing * 1000:8.1f} ms, standings in {table * 1000:6.1f} ms"
            )
    for size in SIZES:
        entrants = [Entrant(i, (i,), rating=rng.random()) for i in range(1, size + 1)]
        started = time.process_time()
        first_round(entrants, 1)
        spent = (time.process_time() - started) * 1000
        print(f"knockout {size:>4} entrants: bracket in {spent:.2f} ms")


if __name__ == "__main__":
    main()
