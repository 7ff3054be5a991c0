"""Time Tunge's legal-play enumeration for big hands against typical references.

``python -m bench.tunge_enumeration [--hands N] [--size 30] [--repeat 3]``: deals random hands
of ``size`` cards (hands grow with forced pick-ups) and times ``legal_moves`` (uncached: the full
enumeration plus the Move objects) against three kinds of reference: the normal phase (the last
play), the end game (the longest viable sequence, with its repeat restriction) and the end game
under ``endgame_repeat_rule: contains``. Target: under 5 ms per call.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.cards import make_deck
from games.tunge import Tunge, sequence_error

DECK = make_deck()


def random_sequence(cards: list[str], rng: random.Random) -> list[str]:
    """A legal sequence of 2-6 cards built from ``cards`` (a run, a group, or ace + card)."""
    by_rank: dict[str, list[str]] = {}
    for card in cards:
        by_rank.setdefault(card[0], []).append(card)
    for _ in range(200):
        kind = rng.random()
        if kind < 0.5:
            low = rng.randrange(0, 11)
            length = rng.randint(2, min(6, 12 - low))
            ranks = "23456789TJQK"[low : low + length]
        elif kind < 0.8:
            ranks = rng.choice("23456789TJQK") * rng.randint(2, 3)
        else:
            ranks = "A" + rng.choice("23456789TJQK")
        chosen: list[str] = []
        for letter in ranks:
            pool = [c for c in by_rank.get(letter, []) if c not in chosen]
            if not pool:
                break
            chosen.append(rng.choice(pool))
        else:
            if rng.random() < 0.5 and ranks[0] != "A":
                chosen.reverse()
            assert sequence_error("".join(c[0] for c in chosen)) is None
            return chosen
    return []


def position(kind: str, size: int, rng: random.Random) -> Tunge:
    cards = DECK[:]
    rng.shuffle(cards)
    hand, rest = cards[:size], cards[size:]
    top = random_sequence(rest, rng)
    rest = [c for c in rest if c not in top]
    if kind == "normal":
        other, stock, pile = rest[:10], rest[10:], top
        return Tunge.from_position(
            {"players": 2}, [hand, other], stock=stock, pile=pile, turn=0, last_play=tuple(top)
        )
    options = {"players": 2, "endgame_repeat_rule": "contains" if kind == "contains" else "exact"}
    pile = rest[:6] + top
    return Tunge.from_position(options, [hand, rest[6:]], pile=pile, turn=0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--size", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="time each hand this often and keep the best (filters out pauses of a busy machine)",
    )
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    for kind in ("normal", "end_game", "contains"):
        games = [position(kind, args.size, rng) for _ in range(args.hands)]
        times = []
        counts = []
        for game in games:
            best = float("inf")
            for _ in range(args.repeat):
                game._legal = None
                start = time.perf_counter()
                moves = game.legal_moves(0)
                best = min(best, time.perf_counter() - start)
            times.append(best)
            counts.append(len(moves))
        times.sort()
        ms = [t * 1000 for t in times]
        print(
            f"{kind:9} {args.size}-card hands: mean {statistics.mean(ms):.2f} ms, "
            f"median {statistics.median(ms):.2f} ms, p99 {ms[int(len(ms) * 0.99) - 1]:.2f} ms, "
            f"max {ms[-1]:.2f} ms; {statistics.mean(counts):.0f} plays on average "
            f"(max {max(counts)})"
        )


if __name__ == "__main__":
    main()
