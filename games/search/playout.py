"""The normal player inside simulations: the same decisions, from a light view.

A playout decides hundreds of moves, and building an engine's full view (sorted hands, lines of
text, prompts) costs ten times the move itself. In the card play of the trick games the normal
player reads only a few keys, so :func:`light_view` hands it just those, read straight from the
simulated world (a game the hard player dealt itself, never the real table). The decision is the
normal player's own: ``tests/games/test_search.py`` checks, over many random games, that the light
view and the full view give the same move.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from games.base import Move
from games.players import Seen, random_player
from games.players import bidcards as bidcards_player
from games.players import tarneeb as tarneeb_player
from games.players import thunee as thunee_player
from games.players.outcome import seat_value
from games.search.finish import can_finish, finish

if TYPE_CHECKING:
    from games.base import Game


def _tarneeb(world: Any, seat: int) -> SimpleNamespace | None:
    if world.phase != "play":
        return None
    return SimpleNamespace(
        hand=world.hands[seat], played=world.played, trick=world.trick, trump=world.trump
    )


def _bidcards(world: Any, seat: int) -> SimpleNamespace | None:
    if world.phase != "tricks":
        return None
    soloist = getattr(world, "soloist", None)
    return SimpleNamespace(
        game=world.name,
        hand_type=world.hand_type,
        trick=world.trick,
        sitting_out=None if soloist is None else (soloist + 2) % 4,
    )


def _thunee(world: Any, seat: int) -> SimpleNamespace | None:
    if world.phase not in ("redeal", "auction", "trump", "window"):
        return None  # the card play: the fast finish (or the full view, for the first card)
    return SimpleNamespace(phase=world.phase, hand=world.hands[seat], call=world.call)


# A light view has the attributes of the family's view that the card play reads, and no more.
LightView = Callable[[Any, int], SimpleNamespace | None]
PlayFrom = Callable[[int, Any, Any], Move]

# By the game's player family (its player_module): the light view of its card play and the
# normal player's card-play function; a family not listed is handed the full view.
LIGHT: dict[str, tuple[LightView, PlayFrom]] = {
    tarneeb_player.__name__: (_tarneeb, tarneeb_player.choose_play),
    bidcards_player.__name__: (_bidcards, bidcards_player.choose_play),
    thunee_player.__name__: (_thunee, thunee_player.choose_before_play),
}


def normal_player(rules: type[Game]) -> Callable[[Seen, random.Random], Move]:
    """The normal player of the game ``rules``."""
    module_name = rules.player_module
    if not module_name:
        return random_player
    choose: Callable[[Seen, random.Random], Move] = importlib.import_module(module_name).choose
    return choose


def light_view(world: Game, seat: int) -> SimpleNamespace | None:
    """The keys the normal card play reads, or ``None`` outside the card play (or for games
    whose player reads the full view)."""
    entry = LIGHT.get(world.player_module)
    return None if entry is None else entry[0](world, seat)


def normal_move(world: Game, seat: int, rng: random.Random) -> Move:
    """The normal player's move for ``seat`` in a simulated ``world``."""
    legal = world.legal_moves(seat)
    if len(legal) == 1:
        return legal[0]
    entry = LIGHT.get(world.player_module)
    if entry is not None:
        light = entry[0](world, seat)
        if light is not None:
            return entry[1](seat, light, legal)
    return normal_player(type(world))(Seen(seat, world.view(seat), tuple(legal)), rng)


PLAYOUT_LIMIT = 2000  # moves: a playout that has not scored the hand by then counts as even


def playout(world: Game, seat: int, move: Move, rng: random.Random) -> tuple[float, int]:
    """Apply ``move`` for ``seat`` and let the normal player finish the hand: the hand's value
    for ``seat`` and the number of moves simulated."""
    rules = type(world)
    players = world.players
    events = world.apply(seat, move)
    steps = 1
    while True:
        for event in events:
            if event.kind == "hand_scored":
                result = event.data.get("result", event.data)
                return seat_value(rules, result, players, seat), steps
        if world.status != "in_progress" or steps >= PLAYOUT_LIMIT:
            return 0.0, steps  # thrown in, or too long: no score either way
        if can_finish(world):  # the rest is card play: the fast path
            result, plays = finish(world)
            return seat_value(rules, result, players, seat), steps + plays
        acting = world.to_act()
        mover = acting[0] if len(acting) == 1 else rng.choice(acting)
        events = world.apply(mover, normal_move(world, mover, rng))
        steps += 1
