"""What one hand is worth to each seat, read from its public ``hand_scored`` result.

Shared by the match runner (bench/match.py, which scores deals with it) and the hard player
(which scores its playouts with it), so both measure a hand the same way: higher is better.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

SeatPoints = Callable[[Mapping[str, Any], int], list[float]]


def _team(points: Sequence[float], players: int) -> list[float]:
    return [float(points[seat % 2]) for seat in range(players)]


def _tuppi(result: Mapping[str, Any], players: int) -> list[float]:
    team = [0.0, 0.0]
    team[int(result["scoring_team"])] = float(result["points"])
    return _team(team, players)


# Each game's score of one hand for every seat (higher is better), from the hand_scored result.
SCORERS: dict[str, SeatPoints] = {
    "thunee": lambda result, players: _team(result["balls"], players),
    "tarneeb": lambda result, players: _team(result["points"], players),
    "tarneeb_egyptian": lambda result, players: _team(result["points"], players),
    "tuppi": _tuppi,
    "norwegian_whist": lambda result, players: _team(result["changes"], players),
    "tunge": lambda result, players: [-float(p) for p in result["points"]],
}


def thunee_card_points(result: Mapping[str, Any], players: int) -> list[float] | None:
    """The hand's card points, only for an ordinary contract (a Thunee, Royals or blind call
    ends or turns the hand, so its card points say nothing about the play)."""
    if result.get("contract") != "normal":
        return None
    return _team(result["points"], players)


# A second score printed beside the first where the issue measures in it: Thunee's card points.
CARD_POINTS: dict[str, Callable[[Mapping[str, Any], int], list[float] | None]] = {
    "thunee": thunee_card_points,
}


def seat_value(name: str, result: Mapping[str, Any], players: int, seat: int) -> float:
    """How good the hand was for ``seat``: its score minus the others' mean, plus (Thunee) a
    small share of the card-point margin, which separates plays that win the same balls."""
    scores = SCORERS[name](result, players)
    if name == "tunge":  # each for himself
        rest = [value for index, value in enumerate(scores) if index != seat]
    else:  # the other team
        rest = [value for index, value in enumerate(scores) if index % 2 != seat % 2]
    value = scores[seat] - (sum(rest) / len(rest) if rest else 0.0)
    if name == "thunee":
        points = result.get("points")
        if isinstance(points, Sequence) and len(points) == 2:
            value += (float(points[seat % 2]) - float(points[1 - seat % 2])) / 60
    return value
