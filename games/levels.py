"""The computer levels: which player decides a seat's move at ``easy``, ``normal`` or ``hard``.

This module sits above both the players (:mod:`games.players`) and the search
(:mod:`games.search`) and nothing in ``games/`` imports it, so neither needs the other to know
the levels (a test keeps the import graph of ``games/`` free of cycles).

- ``easy``: the family's heuristic with noise. Each decision is, with probability
  :data:`games.players.EASY_NOISE` (or the player module's own ``EASY_NOISE``), a uniformly
  random legal move instead, so beginners win sometimes. Noise on every decision (bids, trumps,
  calls and cards alike) rather than a softmax over scores: the heuristics choose by rules, not
  by scores, and this works the same for every family.
- ``normal``: the heuristic unchanged.
- ``hard``: search (:mod:`games.search.hard`): determinized playouts with the normal policy,
  from the seat's view, the game's rules and the deal's public history
  (:attr:`games.players.Seen.history`), all handed over by :func:`games.players.seen_for`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games import players
from games.players import LEVELS, Player, easy_noise, noisy, seen_for

if TYPE_CHECKING:
    from games.base import Game, Move


class UnknownLevel(ValueError):
    """A level that does not exist, or is not built yet; the message names it."""


def level_player(game: Game, level: str) -> Player:
    """The player of ``game``'s family at ``level`` (looked up at call time, so tests can
    stand in for :func:`games.players.player_for` or :func:`games.search.hard.choose`)."""
    if level == "normal":
        return players.player_for(game)
    if level == "easy":
        return noisy(players.player_for(game), easy_noise(game))
    if level == "hard":
        from games.search import hard  # the search loads on a hard seat's first decision

        return hard.choose
    raise UnknownLevel(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")


def choose_move(game: Game, seat: int, rng: random.Random, level: str = "normal") -> Move:
    """The move a computer at ``level`` makes for ``seat``: decided from the seat's view alone."""
    player = level_player(game, level)
    return player(seen_for(game, seat, level), rng)
