"""Computer players, apart from the engines: a player is handed only what its seat may know.

A player module (``games/players/<family>.py``) exposes ``choose(seen, rng) -> Move``. It never
receives a game object: :func:`choose_move` builds a :class:`Seen` from the seat's own view and
legal moves, so a player cannot read another seat's cards even by accident. An engine names its
player with the class attribute ``player_module``; without one, the seat plays a random legal move.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.base import Game, Move


@dataclass(frozen=True, slots=True)
class Seen:
    """All a computer player may know: its seat, that seat's view and its legal moves."""

    seat: int
    view: Mapping[str, Any]
    legal: tuple[Move, ...]


Player = Callable[[Seen, random.Random], "Move"]


def random_player(seen: Seen, rng: random.Random) -> Move:
    return rng.choice(seen.legal)


def player_for(game: Game) -> Player:
    """The player function of this game's family (random when it names none)."""
    module_name = getattr(game, "player_module", None)
    if not module_name:
        return random_player
    choose: Player = importlib.import_module(module_name).choose
    return choose


def choose_move(game: Game, seat: int, rng: random.Random) -> Move:
    """The move a computer makes for ``seat``: decided from the seat's view alone."""
    legal = tuple(game.legal_moves(seat))
    if not legal:
        from games.base import NotYourTurn

        raise NotYourTurn("It is not your turn.")
    return player_for(game)(Seen(seat, game.view(seat), legal), rng)
