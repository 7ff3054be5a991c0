"""What the rest of the bot needs to know about a game beyond its rules: one declaration per game.

Each engine class sets ``facts = GameFacts(...)`` in its own body, beside its ``name`` and
``player_module``; every field is required, so a game cannot leave one out by accident (a test
checks that every registered game declares its own). The lobby's match lengths, the score of a
hand that the hard player and the match runner compare, and the hard player's budget all read it
from there, never from a table of game names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LENGTHS = ("short", "standard", "long")

# One hand's score for every seat (higher is better), from the public hand_scored result.
SeatPoints = Callable[[Mapping[str, Any], int], list[float]]
# A second score shown beside it (or None for a hand where it says nothing).
CardPoints = Callable[[Mapping[str, Any], int], list[float] | None]


@dataclass(frozen=True)
class Preset:
    """One length of one game: its name (one of :data:`LENGTHS`), the option values it sets,
    and a few words for people ("first to 31 points")."""

    length: str
    options: Mapping[str, Any]
    text: str


def three(option: str, values: tuple[Any, Any, Any], unit: str) -> tuple[Preset, ...]:
    """Short, standard and long as three values of one option ("first to 31 points")."""
    return tuple(
        Preset(length, {option: value}, f"first to {value} {unit}")
        for length, value in zip(LENGTHS, values, strict=True)
    )


def teams_score(points: Sequence[float], players: int) -> list[float]:
    """Each seat's score when the two teams (even and odd seats) scored ``points``."""
    return [float(points[seat % 2]) for seat in range(players)]


def team_points(key: str) -> SeatPoints:
    """The hand score of a partnership game whose result lists both teams' ``key``."""

    def score(result: Mapping[str, Any], players: int) -> list[float]:
        return teams_score(result[key], players)

    return score


@dataclass(frozen=True, slots=True, kw_only=True)
class GameFacts:
    """A game's facts outside its rules.

    - ``presets``: its match lengths, shortest first (:mod:`games.presets`); ``()`` for none.
    - ``hand_score``: one hand's score per seat from its ``hand_scored`` result, which the hard
      player's playouts and ``bench.match`` compare; ``None``: the hard level plays the normal
      move (nothing to search for).
    - ``card_points``: a second score printed beside it by ``bench.match`` (Thunee's card points).
    - ``card_margin``: the card points worth one unit of ``hand_score`` in a playout's value
      (Thunee: the margin over 60 separates plays that win the same balls); ``None``: not used.
    - ``search_steps``: by table size, how many times the default budget's simulated moves a
      hard decision may use (a move costs more in some games than others; sized with
      ``bench.match``); a size not listed uses 1.
    - ``search_worlds``: by table size, the worlds a hard decision samples where not the
      default (where a world is cheap).
    - ``endgame_solver``: near the end of the card play the hard player solves the tricks
      exactly (:mod:`games.search.tricks` models the game's trick play).
    """

    presets: tuple[Preset, ...]
    hand_score: SeatPoints | None
    card_points: CardPoints | None
    card_margin: int | None
    search_steps: Mapping[int, float]
    search_worlds: Mapping[int, int]
    endgame_solver: bool
