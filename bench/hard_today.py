"""``hard-today``: the hard level as it played before natural play, kept as a bench baseline.

A frozen copy of :func:`games.search.hard.choose` and of the rule by which it left the normal
player's card (:func:`preferred`: the best mean of the candidates, if it beats the normal move by
one standard error). It is not a level users can pick: only ``bench.match`` and
``bench.blunders`` name it, so the new hard level can be measured against it on the same deals.
The worlds, playouts and exact endgame are the search's own (shared, not copied); so are the
normal players inside the playouts. Its endgame is our own solver's (at most
``Budget.endgame`` cards), never DDS's earlier switch (:mod:`games.search.dds`).

``hard-own-solver``, another baseline: the hard level of now with DDS only where our own solver
solved before, to measure what the earlier switch to DDS is worth alone.

``hard-by-tricks`` and ``normal-by-tricks``, two more: the hard and normal levels of now with
their exact endgame valued as before it was scored and before the low hands were solved as their
own game: the mean of each world's tricks (a low hand's the high game's count, negated), and the
normal player's next-to-last trick counted alike. They swap those functions in for the duration
of one decision (a bench runs one decision at a time per process).

``hard-no-play-inference``: the hard level of now without reading the other seats' card play
(:mod:`games.search.card_reading`), its worlds weighted by the bidding alone: the baseline that
decides in which games the reading is enabled. It empties the read games for one decision.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games import levels
from games.base import Move
from games.players import Seen, endgame, player_for, seen_for
from games.search import card_reading, dds, hard, tunge_hard
from games.search.budget import Budget
from games.search.hard import candidates, evaluate, scaled
from games.search.inference import bidding
from games.search.playout import normal_player, playout
from games.search.tricks import best_tricks, card_index, from_world
from games.search.worlds import Knowledge, Meter, NoWorld, game_class, repaired_world, world

if TYPE_CHECKING:
    from games.base import Game

NAME = "hard-today"
CONFIDENCE = 1.0  # standard errors by which a card had to beat the normal card
CALL_CONFIDENCE = 2.0  # the same for bids, trumps and calls


def preferred(values: dict[Move, list[float]], normal: Move, confidence: float) -> Move:
    """The move with the best mean, if it beats the normal move by ``confidence`` standard
    errors of their paired differences; else the normal move (the rule as it was)."""
    means = {move: sum(scores) / len(scores) for move, scores in values.items()}
    best = max(means, key=means.__getitem__)
    if best == normal or means[best] <= means[normal]:
        return normal
    gains = [mine - theirs for mine, theirs in zip(values[best], values[normal], strict=True)]
    mean = sum(gains) / len(gains)
    if len(gains) < 2:
        return best if confidence <= 0 else normal
    spread = sum((gain - mean) ** 2 for gain in gains) / (len(gains) - 1)
    error = (spread / len(gains)) ** 0.5
    return best if mean > confidence * error else normal


def choose(seen: Seen, rng: random.Random, budget: Budget | None = None) -> Move:
    """The baseline's move for ``seen.seat`` (the hard level's search, the old rule)."""
    rules = game_class(seen)
    if rules.name == "tunge":
        return tunge_hard.choose(seen, rng, hard.DEFAULT_BUDGET if budget is None else budget)
    if budget is None:  # read at call time, as the hard level does (the tests shrink it)
        budget = scaled(hard.DEFAULT_BUDGET, rules, len(seen.view.hand_sizes))
    legal = seen.legal
    normal = normal_player(rules)(seen, rng)
    if len(legal) == 1 or rules.facts.hand_score is None:
        return normal if len(legal) > 1 else legal[0]
    search = random.Random(rng.getrandbits(64))
    try:
        knowledge: Knowledge | None = Knowledge.of(seen)
    except NoWorld:
        knowledge = None
    if knowledge is not None:
        knowledge.bidding = bidding(seen, knowledge)
    moves = candidates(legal, normal, budget.candidates, search)
    values: dict[Move, list[float]] = {move: [] for move in moves}
    worlds = steps = failures = 0
    meter = Meter()
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
                break
            continue
        worlds += 1
        for move in moves:
            value, used = evaluate(sample.clone(), seen, move, search, budget)
            values[move].append(value)
            steps += used
    if not worlds:
        return normal
    cards_only = all(move.action == "play" for move in moves)
    return preferred(values, normal, CONFIDENCE if cards_only else CALL_CONFIDENCE)


NORMAL_TODAY = "normal-today"  # the normal player without the deal's tricks: no endgame count
OWN_SOLVER = "hard-own-solver"  # the hard level with DDS only where our solver solved before
HARD_BY_TRICKS = "hard-by-tricks"  # the exact endgame by tricks, a low hand the high one negated
NORMAL_BY_TRICKS = "normal-by-tricks"  # the next-to-last trick counted alike
NO_PLAY_INFERENCE = "hard-no-play-inference"  # the hard level not reading the card play
LEVELS = (  # the levels benches name
    "easy",
    "normal",
    "hard",
    NAME,
    NORMAL_TODAY,
    OWN_SOLVER,
    HARD_BY_TRICKS,
    NORMAL_BY_TRICKS,
    NO_PLAY_INFERENCE,
)


def _tricks_evaluate(
    world: Game, seen: Seen, move: Move, rng: random.Random, budget: Budget
) -> tuple[float, int]:
    """:func:`games.search.hard.evaluate` as it was: the side's tricks, a low hand's negated."""
    sign = hard.endgame_sign(seen, budget)
    if sign:
        world.apply(seen.seat, move)
        state = from_world(world)
        return (0.0 if state is None else float(sign * best_tricks(state, seen.seat % 2))), 1
    return playout(world, seen.seat, move, rng)


def _tricks_dds_values(world: Game, seen: Seen, moves: Sequence[Move]) -> dict[Move, float] | None:
    """:func:`games.search.hard.dds_values` as it was: the side's tricks, not their score."""
    state = dds.solvable(world)
    if state is None or state.turn != seen.seat or any(m.action != "play" for m in moves):
        return None
    tricks = dds.card_tricks(state)
    won = state.won[seen.seat % 2]
    return {move: float(won + tricks[card_index(move.get("card"))]) for move in moves}


_SOLVE = endgame._solve


def _high_solve(
    hands: Any, trick: Any, turn: int, team: int, trump: str | None, fewest: bool = False
) -> int:
    """The normal player's count as it was: the high game's, whatever the hand."""
    return _SOLVE(hands, trick, turn, team, trump, False)


@contextmanager
def _by_tricks() -> Iterator[None]:
    saved = hard.evaluate, hard.dds_values, endgame._solve
    hard.evaluate, hard.dds_values = _tricks_evaluate, _tricks_dds_values
    endgame._solve = _high_solve
    try:
        yield
    finally:
        hard.evaluate, hard.dds_values, endgame._solve = saved


@contextmanager
def _no_play_inference() -> Iterator[None]:
    saved = card_reading.GAMES
    card_reading.GAMES = frozenset()
    try:
        yield
    finally:
        card_reading.GAMES = saved


def choose_move(game: Game, seat: int, rng: random.Random, level: str = "normal") -> Move:
    """:func:`games.levels.choose_move`, plus the baselines :data:`NAME` and
    :data:`NORMAL_TODAY` (the normal player handed the view alone, as it was before it
    counted the next-to-last trick: :mod:`games.players.endgame`) and :data:`OWN_SOLVER` (the
    hard level whose DDS starts where our own solver does, ``Budget.endgame`` cards: it
    chooses as the hard level did before DDS, which gives the same counts there)."""
    if level == NAME:
        return choose(seen_for(game, seat, "hard"), rng)
    if level == OWN_SOLVER and game.name != "tunge":  # Tunge has its own search, no DDS
        seen = seen_for(game, seat, "hard")
        budget = scaled(hard.DEFAULT_BUDGET, game_class(seen), len(seen.view.hand_sizes))
        return hard.choose(seen, rng, replace(budget, dds=budget.endgame))
    if level == OWN_SOLVER:
        level = "hard"
    if level in (HARD_BY_TRICKS, NORMAL_BY_TRICKS):
        with _by_tricks():
            return levels.choose_move(game, seat, rng, level.split("-")[0])
    if level == NO_PLAY_INFERENCE:
        with _no_play_inference():
            return levels.choose_move(game, seat, rng, "hard")
    if level == NORMAL_TODAY:
        return player_for(game)(replace(seen_for(game, seat, "normal"), history=()), rng)
    return levels.choose_move(game, seat, rng, level)
