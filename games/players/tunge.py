"""Tunge's computer player: shed the most points (aces and courts first) while causing few matches.

It sees only its seat's view and legal moves (:class:`games.players.Seen`): its hand, the public
reference and the pick-up rule. Among the listed plays (one per rank sequence) it plays out when
it can, else the play with the best score: card points, plus 3 per card, minus 12 per match
(each match makes the next seat pick up a card), plus a random tie-breaker in [0, 1). With no
play it draws (or passes when nothing is left to draw).
"""

from __future__ import annotations

import random

from games.actions import Action
from games.base import Move, NotYourTurn
from games.players import Seen
from games.tunge.grammar import PHANTOM, count_matches
from games.tunge.scoring import CARD_VALUES
from games.views import TungeView

# The easy level's share of random moves. Higher than the other families' 0.3: most Tunge
# decisions are forced (draw or pass) and the heuristic's edge over random play is small, so at
# 0.3 easy plays almost like normal (measured: normal - easy +1.0 penalty points a deal at four
# players, p = 0.04; at 0.6 +4.1, p < 1e-10, normal still losing 45% of the deals).
EASY_NOISE = 0.6


def choose(seen: Seen, rng: random.Random) -> Move:
    if not seen.legal:
        raise NotYourTurn("It is not your turn.")
    plays = [move for move in seen.legal if move.action == Action.PLAY]
    if not plays:
        return seen.legal[0]  # the draw, or the pass when there is nothing to draw
    view = seen.view
    assert isinstance(view, TungeView)
    size = len(view.hand or ())
    reference = view.reference
    ref = "".join("A" if r == PHANTOM else r for r in reference.ranks) if reference else ""
    distinct = view.pickup_count == "distinct_ranks"
    best = plays[0]
    best_score = -1e9
    for move in plays:
        cards: tuple[str, ...] = move.get("cards")
        if len(cards) == size:
            return move
        ranks = "".join(card[0] for card in cards)
        score = (
            sum(CARD_VALUES[card] for card in cards)
            + 3 * len(cards)
            - 12 * count_matches(ranks, ref, distinct)
            + rng.random()
        )
        if score > best_score:
            best, best_score = move, score
    return best
