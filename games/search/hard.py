"""The hard level: determinized playouts with the normal policy (PIMC), for every game.

The player is handed a :class:`~games.players.Seen` (the seat's view, legal moves, the game's
rules (its class) and options and the deal's public history as this seat saw it), never a game
object. From it, it deals *worlds* of its own (:mod:`games.search.worlds`): games dealt with a
sample of the unseen cards consistent with everything the seat has seen, the public history
replayed.

Each candidate move is then applied in every world and the hand played out to its score by the
normal player at every seat; the move with the best mean score for the seat's side wins if it
beats the normal player's own move clearly enough (:func:`preferred`: two standard errors for
a card). A card of a clear mistake's shape when playing last to a trick (overtaking or ruffing the
partner's trick, winning higher than needed, taking a trick the seat does not want:
:mod:`games.players.blunders`) is never a candidate: the natural card stands in for it,
whatever the playouts say (they overrate such cards where the normal players of the playouts
misplay the rest; a good player does not make them). Later in the card play of a trick game
each world is solved exactly instead, every hand open: where the question is a double-dummy
solver's (four hands of a 52-card deck, more tricks better: Tarneeb, Egyptian Tarneeb, Tuppi's
rami, Norwegian Whist's grand) by DDS (:mod:`games.search.dds`) once at most :attr:`Budget.dds`
cards are left, one call per world valuing every candidate card; elsewhere (the low hands, where
each side plays to take the fewest tricks) by our alpha-beta
(:func:`games.search.tricks.best_tricks`) once at most :attr:`Budget.endgame` are. Each world's
exact trick count is then scored as the hand is (:func:`solved_value`), so the worlds' mean
compares scores: a contract made or set, or a low hand's seventh trick, is a step that a mean of
tricks does not see. Bids, trump
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
from games.players.blunders import natural
from games.players.outcome import seat_value
from games.search import dds, tunge_hard
from games.search.budget import Budget, preferred
from games.search.finish import result_of
from games.search.inference import bidding
from games.search.playout import normal_player, playout
from games.search.tricks import best_tricks, card_index, from_world
from games.search.worlds import Knowledge, Meter, NoWorld, game_class, repaired_world, world

if TYPE_CHECKING:
    from games.base import Game

LOW_HANDS = frozenset({"nolo", "nullo"})  # the bid-card games' hands where tricks count against
TRICKS = 13  # in a hand of every game the exact solvers model


DEFAULT_BUDGET = Budget()


def scaled(budget: Budget, rules: type[Game], players: int) -> Budget:
    """``budget`` with its simulated moves scaled for the game at this table size (its
    ``facts.search_steps``: a move costs more in some games than in others); below 1 the
    minimum of worlds shrinks alike (a world itself costs more there). Its worlds are raised
    where the game's ``facts.search_worlds`` says so."""
    facts = rules.facts
    if players in facts.search_worlds:
        budget = replace(budget, worlds=facts.search_worlds[players])
    scale = facts.search_steps.get(players, 1.0)
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
    if not game_class(seen).facts.endgame_solver or sum(view.hand_sizes) > budget.endgame:
        return 0
    if view.phase != "tricks":
        return 0
    hand_type = getattr(view, "hand_type", None)
    if hand_type == "sooli":
        return 0
    return -1 if hand_type in LOW_HANDS else 1


def by_dds(seen: Seen, budget: Budget) -> bool:
    """Whether DDS values this decision's cards: the card play of a trick game the fast path
    models, four seats, a hand where more tricks are better (not nolo, nullo or sooli:
    :mod:`games.search.dds`), at most ``budget.dds`` cards left on the table's hands."""
    view = seen.view
    if not game_class(seen).facts.endgame_solver or view.phase != "tricks":
        return False
    if len(view.hand_sizes) != 4 or sum(view.hand_sizes) > budget.dds:
        return False
    return getattr(view, "hand_type", None) not in LOW_HANDS | {"sooli"}


def solved_value(world: Game, seat: int, taken: int) -> float:
    """The hand's value for ``seat`` (as a playout scores it: :func:`seat_value`) when its side
    ends the hand of ``world`` with ``taken`` tricks: an exact solver's count, scored."""
    won = [0, 0]
    won[seat % 2] = taken
    won[1 - seat % 2] = TRICKS - taken
    return seat_value(type(world), result_of(world, won), world.players, seat)


def dds_values(world: Game, seen: Seen, moves: Sequence[Move]) -> dict[Move, float] | None:
    """The value of each of ``moves`` in ``world`` from one DDS call: the hand's score for the
    seat with the tricks its side takes (those won so far and the rest with every hand open),
    the meaning :func:`evaluate` gives the exact endgame; ``None`` where DDS does not answer the
    question."""
    state = dds.solvable(world)
    if state is None or state.turn != seen.seat or any(m.action != "play" for m in moves):
        return None
    tricks = dds.card_tricks(state)
    won = state.won[seen.seat % 2]
    return {
        move: solved_value(world, seen.seat, won + tricks[card_index(move.get("card"))])
        for move in moves
    }


def evaluate(
    world: Game, seen: Seen, move: Move, rng: random.Random, budget: Budget
) -> tuple[float, int]:
    """The value of ``move`` in ``world`` for the seat: solved exactly near the end of the card
    play (the hand's score with the tricks the side takes, every hand open), else by a normal
    playout."""
    sign = endgame_sign(seen, budget)
    if sign:
        for event in world.apply(seen.seat, move):
            if event.kind == "hand_scored":  # the card ended the hand (Tuppi's early stop)
                result = event.data.get("result", event.data)
                return seat_value(type(world), result, world.players, seen.seat), 1
        state = from_world(world)
        if state is not None:
            taken = best_tricks(state, seen.seat % 2, fewest=sign < 0)
            return solved_value(world, seen.seat, taken), 1
        return 0.0, 1
    return playout(world, seen.seat, move, rng)


def choose(seen: Seen, rng: random.Random, budget: Budget | None = None) -> Move:
    """The hard player's move for ``seen.seat`` (see the module docstring); ``budget``
    defaults to :data:`DEFAULT_BUDGET`, read at call time (the tests shrink it)."""
    rules = game_class(seen)
    if rules.name == "tunge":  # the fast path, worlds from the view (games.search.tunge_hard)
        return tunge_hard.choose(seen, rng, DEFAULT_BUDGET if budget is None else budget)
    if budget is None:
        budget = scaled(DEFAULT_BUDGET, rules, len(seen.view.hand_sizes))
    legal = seen.legal
    shaped = natural(seen)  # clear mistakes' shapes, each with the natural card instead
    normal = normal_player(rules)(seen, rng)
    normal = shaped.get(normal, normal)
    if len(legal) == 1 or rules.facts.hand_score is None:  # a game without a hand score: no search
        return normal if len(legal) > 1 else legal[0]
    unshaped = [move for move in legal if move not in shaped]
    if len(unshaped) == 1:
        return unshaped[0]
    search = random.Random(rng.getrandbits(64))
    try:
        knowledge: Knowledge | None = Knowledge.of(seen)
    except NoWorld:
        knowledge = None  # cards changed hands: worlds by repair
    if knowledge is not None:  # the bids and calls seen narrow the worlds, where modelled
        knowledge.bidding = bidding(seen, knowledge)
    moves = candidates(unshaped, normal, budget.candidates, search)
    values: dict[Move, list[float]] = {move: [] for move in moves}
    solve = by_dds(seen, budget)
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
        solved = dds_values(sample, seen, moves) if solve else None
        for move in moves:
            if solved is not None:
                values[move].append(solved[move])
                steps += 1
                continue
            value, used = evaluate(sample.clone(), seen, move, search, budget)
            values[move].append(value)
            steps += used
    if not worlds:
        return normal
    if all(move.action == "play" for move in moves):
        return preferred(values, normal, budget.card_confidence)
    return preferred(values, normal, budget.call_confidence)
