"""What one hand is worth to each seat, read from its public ``hand_scored`` result.

Shared by the match runner (bench/match.py, which scores deals with it) and the hard player
(which scores its playouts with it), so both measure a hand the same way: higher is better.
Each game's score of a hand is its own fact (``facts.hand_score``, :mod:`games.facts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.base import Game


def seat_value(rules: type[Game], result: Mapping[str, Any], players: int, seat: int) -> float:
    """How good the hand was for ``seat``: its score minus the others' mean (the other team's,
    or each other seat's in a game without teams), plus a small share of the card-point margin
    where the game counts one (``facts.card_margin``: Thunee), which separates plays that win
    the same balls."""
    facts = rules.facts
    if facts.hand_score is None:
        raise KeyError(f"{rules.name} has no hand score")
    scores = facts.hand_score(result, players)
    if not rules.teams:  # each for himself
        rest = [value for index, value in enumerate(scores) if index != seat]
    else:  # the other team
        rest = [value for index, value in enumerate(scores) if index % 2 != seat % 2]
    value = scores[seat] - (sum(rest) / len(rest) if rest else 0.0)
    if facts.card_margin is not None:
        points = result.get("points")
        if isinstance(points, Sequence) and len(points) == 2:
            value += (float(points[seat % 2]) - float(points[1 - seat % 2])) / facts.card_margin
    return value
