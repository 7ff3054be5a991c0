"""Computer players, apart from the engines: a player is handed only what its seat may know.

A player module (``games/players/<family>.py``) exposes ``choose(seen, rng) -> Move``. It never
receives a game object: :func:`seen_for` builds a :class:`Seen` from the seat's own view and
legal moves, so a player cannot read another seat's cards even by accident. An engine names its
player with the class attribute ``player_module``; without one, the seat plays a random legal move.

The levels (easy, normal, hard) are chosen in :mod:`games.levels`, above both the players and
the search: easy is the family's heuristic with noise (:func:`noisy`, :data:`EASY_NOISE` or the
player module's own ``EASY_NOISE``), normal the heuristic unchanged, hard the search
(:mod:`games.search.hard`).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.base import NotYourTurn

if TYPE_CHECKING:
    from games.base import Game, Move
    from games.views import TableView


@dataclass(frozen=True, slots=True)
class Seen:
    """All a computer player may know: its seat, that seat's view and its legal moves; for the
    hard level also the game's rules (its class, never a game object) and options and the
    deal's public history as the seat saw it (``(seat, move)``, ``None`` for another seat's
    hidden move: see :meth:`games.base.Game.public_history`)."""

    seat: int
    view: TableView
    legal: tuple[Move, ...]
    game: type[Game] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    history: tuple[tuple[int, Move | None], ...] = ()


Player = Callable[[Seen, random.Random], "Move"]

LEVELS = ("easy", "normal", "hard")  # every level the lobby names
AVAILABLE_LEVELS = ("easy", "normal", "hard")  # the levels built so far
EASY_NOISE = 0.3  # the share of an easy player's decisions that are random legal moves


def random_player(seen: Seen, rng: random.Random) -> Move:
    return rng.choice(seen.legal)


def player_for(game: Game) -> Player:
    """The player function of this game's family (random when it names none)."""
    module_name = getattr(game, "player_module", None)
    if not module_name:
        return random_player
    choose: Player = importlib.import_module(module_name).choose
    return choose


def easy_noise(game: Game) -> float:
    """The easy level's share of random moves: the family's own, else :data:`EASY_NOISE`."""
    module_name = getattr(game, "player_module", None)
    if not module_name:
        return EASY_NOISE
    return float(getattr(importlib.import_module(module_name), "EASY_NOISE", EASY_NOISE))


def noisy(player: Player, noise: float) -> Player:
    """``player``, except that a share ``noise`` of its decisions are random legal moves.

    The random source is drawn once per decision (and once more for a random move), so a fixed
    seed gives the same decisions."""

    def choose(seen: Seen, rng: random.Random) -> Move:
        if rng.random() < noise:
            return rng.choice(seen.legal)
        return player(seen, rng)

    return choose


ENDGAME_CARDS = 2  # in hand: from here on every level is handed the tricks played


def seen_for(game: Game, seat: int, level: str = "normal") -> Seen:
    """What a computer at ``level`` is handed for ``seat``'s decision: the public history at
    the hard level, and at every level once the seat holds at most :data:`ENDGAME_CARDS`
    cards (a player remembers the tricks to count the last ones:
    :mod:`games.players.endgame`); otherwise the others decide from the view."""
    legal = tuple(game.legal_moves(seat))
    if not legal:
        raise NotYourTurn("It is not your turn.")
    view = game.view(seat)
    if level == "hard" or (view.hand is not None and len(view.hand) <= ENDGAME_CARDS):
        history = game.public_history(seat)
        return Seen(seat, view, legal, type(game), game.options, history)
    return Seen(seat, view, legal, type(game), game.options)
