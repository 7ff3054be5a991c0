"""The hard level: determinized playouts with the normal policy (PIMC), for every game.

The player is handed a :class:`~games.players.Seen` (the seat's view, legal moves, the game's
rules (its class) and options and the deal's public history as this seat saw it), never a game
object. From it, it deals *worlds* of its own (:mod:`games.search.worlds`): games dealt with a
sample of the unseen cards consistent with everything the seat has seen, the public history
replayed.

Each candidate move is then applied in every world and the hand played out to its score by the
normal player at every seat; the move with the best mean score for the seat's side wins if it
beats the normal player's own move clearly enough (:func:`preferred`). Near the end of the card
play of a trick game (at most :attr:`Budget.endgame` cards left) each world is solved exactly
instead (alpha-beta over the remaining tricks with every hand open,
:func:`games.search.tricks.best_tricks`). Bids, trump
choices and calls are moves like any other, so they too are chosen by playing whole deals out
per option.

The budget is counted, not timed (worlds and simulated moves), so a seed gives the same move on a
busy machine. When no consistent world is found (a deal whose card flows the sampler does not
model), the seat plays the normal player's move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from games.base import Move
from games.players import Seen
from games.players.outcome import SCORERS
from games.search import tunge_hard
from games.search.budget import Budget, preferred
from games.search.inference import bidding
from games.search.playout import normal_player, playout
from games.search.tricks import best_tricks, from_world
from games.search.worlds import Knowledge, Meter, NoWorld, game_class, repaired_world, world

if TYPE_CHECKING:
    from games.base import Game

ENDGAME_GAMES = frozenset({"tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist"})
LOW_HANDS = frozenset({"nolo", "nullo"})  # the bid-card games' hands where tricks count against


DEFAULT_BUDGET = Budget()

# Per game (and table size), how many simulated moves a decision of the default budget may use:
# a move costs more in some games (full views in Thunee's playouts, Tunge's long deals and its
# repaired worlds) and less in others (Tarneeb's fast finish). Sized from CPU times measured with
# bench.match so that the 95th percentile stays under 250 ms on an idle machine.
STEP_SCALE: dict[tuple[str, int], float] = {
    ("tarneeb", 4): 2.5,
    ("tarneeb_egyptian", 4): 2.0,
    ("tuppi", 4): 2.5,
    ("norwegian_whist", 4): 2.5,
    ("thunee", 2): 2.0,
    ("thunee", 4): 2.0,
    ("thunee", 6): 2.0,
    ("tunge", 2): 0.35,
    ("tunge", 3): 0.3,
    ("tunge", 4): 0.25,
}


# Per game (and table size), more worlds than the default where a world is cheap: Thunee's
# ordinary hands are played out on its fast path (games.search.thunee_finish).
WORLDS: dict[tuple[str, int], int] = {
    ("thunee", 2): 60,
    ("thunee", 4): 60,
    ("thunee", 6): 60,
}


def scaled(budget: Budget, game: str, players: int) -> Budget:
    """``budget`` with its simulated moves scaled for ``game`` (see :data:`STEP_SCALE`); below
    1 the minimum of worlds shrinks alike (a world itself costs more there). Its worlds are
    raised where :data:`WORLDS` says so."""
    if (game, players) in WORLDS:
        budget = replace(budget, worlds=WORLDS[game, players])
    scale = STEP_SCALE.get((game, players), 1.0)
    if scale == 1.0:
        return budget
    min_worlds = budget.min_worlds if scale > 1 else max(1, round(budget.min_worlds * scale))
    return replace(budget, steps=int(budget.steps * scale), min_worlds=min_worlds)


def candidates(legal: Sequence[Move], normal: Move, limit: int, rng: random.Random) -> list[Move]:
    """The moves worth comparing: all of them, or the normal move and a random few others."""
    if len(legal) <= limit:
        return list(legal)
    others = [move for move in legal if move != normal]
    return [normal, *rng.sample(others, limit - 1)]


def endgame_sign(seen: Seen, budget: Budget) -> int:
    """+1 (more tricks are better) or -1 (fewer) when the exact solver takes over this
    decision: the card play of a trick game the fast path models, with at most
    ``budget.endgame`` cards left on the table's hands; 0 otherwise."""
    view = seen.view
    if game_class(seen).name not in ENDGAME_GAMES or sum(view.hand_sizes) > budget.endgame:
        return 0
    if view.phase != "tricks":
        return 0
    hand_type = getattr(view, "hand_type", None)
    if hand_type == "sooli":
        return 0
    return -1 if hand_type in LOW_HANDS else 1


def evaluate(
    world: Game, seen: Seen, move: Move, rng: random.Random, budget: Budget
) -> tuple[float, int]:
    """The value of ``move`` in ``world`` for the seat: solved exactly near the end of the card
    play (the tricks the side takes with every hand open), else by a normal playout."""
    sign = endgame_sign(seen, budget)
    if sign:
        world.apply(seen.seat, move)
        state = from_world(world)
        if state is not None:
            return sign * best_tricks(state, seen.seat % 2), 1
        return 0.0, 1
    return playout(world, seen.seat, move, rng)


def choose(seen: Seen, rng: random.Random, budget: Budget | None = None) -> Move:
    """The hard player's move for ``seen.seat`` (see the module docstring); ``budget``
    defaults to :data:`DEFAULT_BUDGET`, read at call time (the tests shrink it)."""
    rules = game_class(seen)
    if rules.name == "tunge":  # the fast path, worlds from the view (games.search.tunge_hard)
        return tunge_hard.choose(seen, rng, DEFAULT_BUDGET if budget is None else budget)
    if budget is None:
        budget = scaled(DEFAULT_BUDGET, rules.name, len(seen.view.hand_sizes))
    legal = seen.legal
    normal = normal_player(rules)(seen, rng)
    if len(legal) == 1 or rules.name not in SCORERS:  # a game without a hand score: no search
        return normal if len(legal) > 1 else legal[0]
    search = random.Random(rng.getrandbits(64))
    try:
        knowledge: Knowledge | None = Knowledge.of(seen)
    except NoWorld:
        knowledge = None  # cards changed hands: worlds by repair
    if knowledge is not None:  # the bids and calls seen narrow the worlds, where modelled
        knowledge.bidding = bidding(seen, knowledge)
    moves = candidates(legal, normal, budget.candidates, search)
    values: dict[Move, list[float]] = {move: [] for move in moves}
    worlds = steps = failures = 0
    meter = Meter()  # the moves replayed to build worlds count as simulated moves too
    while worlds < budget.worlds and (
        steps + meter.moves < budget.steps or worlds < budget.min_worlds
    ):
        sample = (
            world(seen, knowledge, search, meter)
            if knowledge is not None
            else repaired_world(seen, search, meter)
        )
        if sample is None:
            failures += 1
            if failures >= budget.attempts or meter.moves > 2 * budget.steps + 500:
                break  # no world worth its cost: the normal move, or what the others say
            continue
        worlds += 1
        for move in moves:
            value, used = evaluate(sample.clone(), seen, move, search, budget)
            values[move].append(value)
            steps += used
    if not worlds:
        return normal
    cards_only = all(move.action == "play" for move in moves)
    return preferred(values, normal, budget.confidence if cards_only else budget.call_confidence)
