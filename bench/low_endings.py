"""The low hands' endings, every hand open: the card each reading of the hand picks, and its cost.

``python -m bench.low_endings [--games tuppi norwegian_whist] [--deals N] [--cards C] [--seed S]``

Seeded games of Tuppi and Norwegian Whist are played by the normal player at every seat until
``N`` (default 200) low hands (nolo, nullo) have been played out. At every card decision of
those hands with a choice and at most ``C`` (default 12) cards left on the table's hands, each
legal card is valued with every hand open (the true deal) two ways by
:func:`games.search.tricks.best_tricks`:

- as the low hand is played: the seat's side takes the fewest tricks, the others force the most
  on it (``fewest``);
- as the high game negated (the reading of before): the side's most tricks, the others keeping
  tricks from it.

The report: the decisions, those where the negated reading's card (its best, the first of equals)
takes more tricks than the best card as the hand is played, and the tricks it gives away on
average over all decisions; and the CPU time of one solve (per card) each way, median and 95th
percentile in milliseconds. Every figure but the times is determined by the seed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from games.levels import choose_move
from games.registry import all_games
from games.search.tricks import TrickPlay, best_tricks, cards_of, from_world

LOW_HANDS = ("nolo", "nullo")


def _after(state: TrickPlay, card: int) -> TrickPlay:
    child = state.copy()
    child.play(card)
    return child


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def measure(game: Any, times: dict[str, list[float]]) -> tuple[int, int] | None:
    """The decision of ``game``'s seat to play, valued both ways: (tricks the negated reading's
    card gives away, 1 if it gives any), or None where there is no choice."""
    state = from_world(game)
    if state is None:
        return None
    legal = cards_of(state.legal())
    if len(legal) < 2:
        return None
    team = state.turn % 2
    low: dict[int, int] = {}
    high: dict[int, int] = {}
    for card in legal:
        started = time.process_time()
        low[card] = best_tricks(_after(state, card), team, fewest=True)
        times["fewest"].append(1000 * (time.process_time() - started))
        started = time.process_time()
        high[card] = best_tricks(_after(state, card), team)
        times["negated"].append(1000 * (time.process_time() - started))
    negated = min(legal, key=high.__getitem__)  # the fewest "most tricks": -value at its best
    lost = low[negated] - min(low.values())
    return lost, int(lost > 0)


def run(name: str, deals: int, cards: int, seed: int) -> dict[str, Any]:
    rules = all_games()[name]
    times: dict[str, list[float]] = {"fewest": [], "negated": []}
    decisions = worse = lost = hands = 0
    index = 0
    while hands < deals and index < 50 * deals:
        game: Any = rules.new(seed=seed * 100_000 + index)
        rng = random.Random(index)
        index += 1
        low = False
        while game.status == "in_progress" and hands < deals:
            hand_type = getattr(game, "hand_type", None)
            if getattr(game, "phase", None) == "tricks" and hand_type in LOW_HANDS:
                low = True
                if sum(len(hand) for hand in game.hands) <= cards:
                    found = measure(game, times)
                    if found is not None:
                        decisions += 1
                        lost += found[0]
                        worse += found[1]
            elif low:  # a low hand played out
                hands, low = hands + 1, False
            seat = game.to_act()[0]
            game.apply(seat, choose_move(game, seat, rng))
    return {
        "hands": hands,
        "decisions": decisions,
        "worse": worse,
        "lost": lost,
        "times": times,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["tuppi", "norwegian_whist"])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--cards", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.games:
        found = run(name, args.deals, args.cards, args.seed)
        decisions = max(1, found["decisions"])
        print(
            f"{name}: {found['hands']} low hands, {found['decisions']} decisions with a choice"
            f" at {args.cards} cards or fewer"
        )
        print(
            f"  the negated reading's card takes more tricks than needed in {found['worse']}"
            f" ({100 * found['worse'] / decisions:.1f}%), {found['lost'] / decisions:.3f} tricks"
            " a decision on average"
        )
        for way, values in found["times"].items():
            median = statistics.median(values) if values else 0.0
            print(
                f"  one solve ({way}): median {median:.3f} ms,"
                f" 95th percentile {_percentile(values, 0.95):.3f} ms ({len(values)})"
            )


if __name__ == "__main__":
    main()
