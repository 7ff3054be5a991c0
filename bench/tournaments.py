"""What pairing a tournament round costs, by field size and layout, and drawing its standings.

    python -m bench.tournaments [--rounds 5]
    python -m bench.tournaments --golden tests/bot/pictures/golden   # the standings' golden

For each size, a whole Swiss tournament is paired round by round (every round's results drawn
at random, with duplicate deal scores), and the slowest round's pairing CPU time is printed with
the standings' and the standings picture's (:func:`bot.pictures.standings.draw_standings`, its
median of five): pairs (one pair against another), rotating partners (tables of four) and
Tunge (tables of three and four), then a knockout bracket of the same size.

``--golden DIR`` writes the picture of :func:`golden_standings` (a fixed field of eight, with an
Arabic name, byes and a computer's stand-in) that ``tests/bot/test_standings_picture.py``
compares with.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from fractions import Fraction
from pathlib import Path

from bot.pictures.standings import draw_standings
from bot.pictures.table import Picture
from bot.tournaments.knockout import first_round
from bot.tournaments.spec import Entrant, TournamentSpec
from bot.tournaments.standings import Standing, standings
from bot.tournaments.swiss import pair_round
from bot.tournaments.tables import Round, TableResult

LAYOUTS = (("tarneeb", "pairs"), ("tarneeb", "individuals"), ("tunge", "individuals"))
SIZES = (16, 32, 64, 128)


def swiss(
    game: str, entry: str, size: int, rounds: int, rng: random.Random
) -> tuple[float, float, float]:
    """The slowest round's pairing, the final standings' and their picture's CPU time, in
    seconds (CPU, not wall-clock: the figures hold on a shared machine)."""
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
    rows = standings(entrants, played, results, seed=spec.seed)
    ranked = time.process_time() - started
    drawn = []
    for _ in range(5):
        started = time.process_time()
        draw_standings(rows, f"Standings after round {rounds}", duplicate=spec.duplicate)
        drawn.append(time.process_time() - started)
    return slowest, ranked, statistics.median(drawn)


def golden_standings() -> Picture:
    """A fixed field of eight after three rounds: the golden standings picture."""
    names = ("Dina", "محمد", "Omar", "Carol", "Dan", "Eve", "Frank", "Grace")
    entrants = [Entrant(i + 1, (i + 1,), rating=8 - i, name=n) for i, n in enumerate(names)]
    rng = random.Random(3)
    rows = [
        Standing(
            rank=min(index + 1, 6),
            entrant=entrant,
            points=Fraction(12 - index, 2),
            buchholz=Fraction(rng.randint(0, 40), 4),
            duplicate=rng.uniform(-9, 9),
            played=3 - (index == 7),
            byes=int(index == 7),
            stand_ins=int(index == 2),
        )
        for index, entrant in enumerate(entrants)
    ]
    return draw_standings(rows, "Tournament #3: standings after round 3", duplicate=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--golden", type=Path, help="write the golden standings picture here")
    args = parser.parse_args()
    if args.golden is not None:
        args.golden.mkdir(parents=True, exist_ok=True)
        (args.golden / "standings.png").write_bytes(golden_standings().png)
        return
    rng = random.Random(0)
    for game, entry in LAYOUTS:
        for size in SIZES:
            pairing, table, drawn = swiss(game, entry, size, args.rounds, rng)
            print(
                f"{game} {entry:<11} {size:>4} entrants: slowest round paired in "
                f"{pairing * 1000:8.1f} ms, standings in {table * 1000:6.1f} ms, "
                f"drawn in {drawn * 1000:5.1f} ms"
            )
    for size in SIZES:
        entrants = [Entrant(i, (i,), rating=rng.random()) for i in range(1, size + 1)]
        started = time.process_time()
        first_round(entrants, 1)
        spent = (time.process_time() - started) * 1000
        print(f"knockout {size:>4} entrants: bracket in {spent:.2f} ms")


if __name__ == "__main__":
    main()
