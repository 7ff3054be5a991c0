"""Count the other seats' unrevealed bids that reach the hard level's decisions.

``python -m bench.secrets [--games N]``: for Tuppi, Tuppi under tournament rules (tokens) and
Norwegian Whist, plays ``N`` (40) seeded deals, one per seed 0, 1, 2, ... (a fresh game played
until its first hand is scored) with the normal player at every seat (the first seat to act
moves, from ``random.Random(seed)``). Before every decision it builds what the hard level would
be handed for it (:func:`games.players.seen_for`) and counts, in that ``Seen.history``, the
bids of other seats that the reveal has not shown (read from the game's own state, not from the
history). One line per variant: the decisions, the decisions handed at least one unrevealed
bid, and the unrevealed bids handed in all (a decision handed two counts two). Every figure is
determined by the seeds; the hard level must be handed none.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.bidcards import BidCardGame
from games.levels import choose_move
from games.players import seen_for
from games.registry import all_games

VARIANTS: tuple[tuple[str, str, Mapping[str, Any]], ...] = (
    ("Tuppi", "tuppi", {}),
    ("Tuppi, tournament rules", "tuppi", {"rules": "tournament"}),
    ("Norwegian Whist", "norwegian_whist", {}),
)


@dataclass(slots=True)
class Count:
    """One variant's figures."""

    decisions: int = 0
    leaking: int = 0  # decisions handed at least one unrevealed bid
    bids: int = 0  # unrevealed bids handed, over all decisions


def unrevealed_bids(game: BidCardGame, seat: int) -> int:
    """How many other seats' bids the reveal has not shown appear in the hard level's history."""
    shown = {revealed[0] for revealed in game.revealed}
    history = seen_for(game, seat, "hard").history
    return sum(
        1
        for mover, move in history
        if mover != seat and move is not None and move.action == "bid" and mover not in shown
    )


def count(name: str, options: Mapping[str, Any], games: int) -> Count:
    """Play ``games`` seeded deals of ``name`` and count (see the module docstring)."""
    result = Count()
    for seed in range(games):
        game = all_games()[name].new(dict(options), seed=seed)
        assert isinstance(game, BidCardGame)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = game.to_act()[0]
            handed = unrevealed_bids(game, seat)
            result.decisions += 1
            result.leaking += handed > 0
            result.bids += handed
            events = game.apply(seat, choose_move(game, seat, rng))
            if any(event.kind == "hand_scored" for event in events):
                break
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args(argv)
    print(f"{args.games} seeded deals per variant, played by the normal player; counted in what")
    print("the hard level is handed at each decision: other seats' bids the reveal has not shown")
    print(f"{'variant':<26}{'decisions':>10}{'handed a bid':>14}{'bids handed':>13}")
    for label, name, options in VARIANTS:
        result = count(name, options, args.games)
        print(f"{label:<26}{result.decisions:>10}{result.leaking:>14}{result.bids:>13}")


if __name__ == "__main__":
    main()
