"""The hard level in Tunge: PIMC on the fast path, with worlds sampled straight from the view.

Everything in a Tunge position that a seat cannot see is a set of cards: the other hands' cards
that did not come face up from the pile, and the stock. The deal was shuffled uniformly and
every card that left those places was shown (a play, a draw from the pile), so, the other seats'
choices aside (which PIMC ignores in every game), the unseen cards are spread uniformly over the
unseen places. A world is therefore one shuffle of the unseen cards into those places
(:func:`sample`): no replay of the history and no repair (:mod:`games.search.worlds` replays the
whole deal through the engine, which cost most of a decision's budget before a single playout).

Each candidate (the normal player's move, the draw when it is legal, and the plays the normal
heuristic ranks next) is played in every world on the fast path (:mod:`games.search.tunge_fast`)
and the deal played out by the normal player at every seat; the value is the seat's points
against the others' mean (what bench.match scores). The same playout seed serves every
candidate of a world, so the candidates are compared on the same luck. The move with the best
mean wins if it beats the normal move clearly (:func:`games.search.budget.preferred`).

The repetition count of the real deal is not in the view; a world's count starts at its current
position (a deal blocked by a third repetition is rare and ends at the turn limit otherwise).
"""

from __future__ import annotations

import random

from games.base import Move
from games.players import Seen
from games.search import tunge_fast
from games.search.budget import Budget, preferred
from games.search.tunge_fast import CARD_NAMES, Deal, Rules, play_of
from games.views import TungeView

# Simulated fast-path moves a decision may use, per table size, for the default budget's 4000
# steps (so a test's budget of 0 steps still plays its minimum of worlds). Sized so that the
# 95th percentile stays under 250 ms at the measured fast-path rate on a busy machine.
STEP_SCALE = {2: 8.0, 3: 7.0, 4: 6.0}


def sample(seen: Seen, rng: random.Random) -> Deal | None:
    """A world: the seat's own hand, the pile, every card known to have come from the pile,
    and the unseen cards shuffled into the other hands' unseen places and the stock (``None``
    when the view's counts do not add up, which a consistent view never does)."""
    view = seen.view
    assert isinstance(view, TungeView)
    players = len(view.hand_sizes)
    seat = seen.seat
    own = list(view.hand or ())
    pile = list(view.pile)
    known = [list(cards) if other != seat else [] for other, cards in enumerate(view.known_cards)]
    seen_cards = set(own) | set(pile) | {card for cards in known for card in cards}
    unseen = [name for name in CARD_NAMES if name not in seen_cards]
    places = [
        size - len(known[other]) if other != seat else 0
        for other, size in enumerate(view.hand_sizes)
    ]
    if min(places) < 0 or sum(places) + view.stock_size != len(unseen):
        return None
    rng.shuffle(unseen)
    hands: list[list[str]] = []
    start = 0
    for other in range(players):
        if other == seat:
            hands.append(own)
            continue
        hands.append(known[other] + unseen[start : start + places[other]])
        start += places[other]
    stock = unseen[start:]
    reference = view.reference
    last = ""
    if reference is not None and not reference.end_game:
        last = "".join(card[0] for card in reference.cards)
    passes = 0
    for _mover, move in reversed(seen.history):
        if move is None or move.action != "pass":
            break
        passes += 1
    return Deal.start(
        Rules.of(seen.options or {"players": players}),
        hands,
        stock,
        pile,
        turn=seat,
        last=last,
        turns=view.turns_taken,
        passes=passes,
    )


def letters_of(move: Move) -> str:
    return "".join(card[0] for card in move.get("cards"))


def candidates(seen: Seen, normal: Move, limit: int) -> list[Move]:
    """The normal move, the draw (when legal), then the other plays by the normal heuristic's
    score (matches cost 12 points a card, as the normal player counts them), up to ``limit``."""
    chosen = [normal]
    draw = [move for move in seen.legal if move.action == "draw" and move != normal]
    chosen += draw
    view = seen.view
    assert isinstance(view, TungeView)
    reference = view.reference
    ranks = ""
    if reference is not None:
        ranks = "".join("A" if r == "(A)" else r for r in reference.ranks)
    distinct = view.pickup_count == "distinct_ranks"
    plays = [move for move in seen.legal if move.action == "play" and move != normal]

    def score(move: Move) -> int:
        play = play_of(letters_of(move))
        return play.base - 12 * tunge_fast.matches(play, ranks, distinct)

    plays.sort(key=score, reverse=True)
    return (chosen + plays)[: max(limit, len(chosen))]


def apply(deal: Deal, move: Move) -> None:
    if move.action == "play":
        deal.play(play_of(letters_of(move)))
    elif move.action == "draw":
        deal.draw()
    else:
        deal.pass_turn()


def choose(seen: Seen, rng: random.Random, budget: Budget) -> Move:
    """The hard player's Tunge move (see the module docstring)."""
    from games.players.tunge import choose as normal_choose

    normal = normal_choose(seen, rng)
    if len(seen.legal) == 1:
        return seen.legal[0]
    search = random.Random(rng.getrandbits(64))
    moves = candidates(seen, normal, budget.candidates)
    players = len(seen.view.hand_sizes)
    steps_allowed = budget.steps * STEP_SCALE.get(players, 10.0)
    values: dict[Move, list[float]] = {move: [] for move in moves}
    worlds = steps = failures = 0
    while worlds < budget.worlds * 2 and (steps < steps_allowed or worlds < budget.min_worlds):
        world = sample(seen, search)
        if world is None:
            failures += 1
            if failures >= budget.attempts:
                break
            continue
        worlds += 1
        seed = search.getrandbits(64)
        for move in moves:
            deal = world.copy()
            apply(deal, move)
            steps += 1 + tunge_fast.normal_playout(deal, random.Random(seed))
            assert deal.points is not None
            values[move].append(tunge_fast.seat_value(deal.points, seen.seat))
    if not worlds:
        return normal
    return preferred(values, normal, budget.confidence)
