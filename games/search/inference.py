"""Inference from the bidding: the hard player's worlds deal hands that would have bid what was bid.

The plain sampler (:meth:`games.search.worlds.Knowledge.sample`) spreads the unseen cards at
random, so a seat that bid 9 in spades is as likely to hold two spades as six. Here each public
call another seat made (a bid, a pass, a double, a trump choice) is read as evidence about that
seat's dealt hand, under the model that the seat plays like the normal player: a sampled hand is
weighted by whether the normal player, holding it, would have made the same calls
(1 for each call it repeats, :data:`MISMATCH` for each it does not, so a human's odd call only
makes its worlds rarer, never impossible).

Hands are drawn seat by seat (the seats whose calls say most first), each by rejection against
its weight: :data:`TRIES` draws at most, then the best one drawn. The last seat takes the cards
left, and its weight counts in the draw before it. Everything comes from the seat's own
:class:`~games.players.Seen` (its view and the public history), and the random source is the
search's, so a seed gives the same worlds.

Per game: a model says what a hand's strength is (computed once per sampled hand) and which call
that strength makes at a given point of the auction. Enabled only where the match runner shows
it helps (:data:`MODELS`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import Deal, IllegalMove, Move
from games.players import Seen
from games.players import tarneeb as tarneeb_player
from games.search.card_reading import Reading, learn_voids, reading, reads
from games.search.worlds import Knowledge, game_class

MISMATCH = 0.01  # a sampled hand's weight for each public call the normal player would not make
TRIES = 20  # draws of one seat's hand before the best one drawn is taken
RESTARTS = 4  # whole draws before the best one is taken


@dataclass(frozen=True, slots=True)
class Model:
    """How one game's normal player calls: ``strength(hand)`` once per sampled hand (hashable:
    the calls it makes are cached by it), then ``call(seat, view, legal, strength)`` for each
    public call of that seat."""

    strength: Callable[[Sequence[str]], Any]
    call: Callable[[int, Any, Sequence[Move], Any], Move]


TARNEEB = Model(tarneeb_player.strength, tarneeb_player.call)

# By the game's player family (its player_module): the families whose calls are modelled, so
# that worlds are drawn by the bidding (the others keep the plain sampler).
MODELS: dict[str, Model] = {
    tarneeb_player.__name__: TARNEEB,
}


@dataclass(frozen=True, slots=True)
class Call:
    """A public call another seat made: the view and legal moves it had then, and its move."""

    seat: int
    view: Any
    legal: tuple[Move, ...]
    move: Move


@dataclass(slots=True)
class Bidding:
    """The evidence of one decision: every other seat's public calls (where the game's calls
    are modelled) and card plays (where they are read: :mod:`games.search.card_reading`), and
    the order in which the seats' hands are drawn."""

    model: Model | None
    calls: dict[int, list[Call]]
    order: list[int]
    plays: Reading | None = None
    # (seat, strength) -> the number of that seat's calls the strength would not have made
    misses: dict[tuple[int, Any], int] = field(default_factory=dict)

    def weight(self, seat: int, hand: Sequence[str], read: bool = True) -> float:
        """How likely the normal player dealt ``hand`` makes ``seat``'s calls and plays (up to
        a constant): :data:`MISMATCH` to the power of the calls it would make otherwise, times
        the card play's weight (unless not ``read``)."""
        played = 1.0 if self.plays is None or not read else self.plays.weight(seat, hand)
        calls = self.calls.get(seat)
        if not calls or self.model is None:
            return played
        strength = self.model.strength(hand)
        misses = self.misses.get((seat, strength))
        if misses is None:
            misses = sum(
                self.model.call(seat, call.view, call.legal, strength) != call.move
                for call in calls
            )
            self.misses[seat, strength] = misses
        return float(MISMATCH**misses) * played

    def sample(self, knowledge: Knowledge, rng: random.Random) -> Deal | None:
        """A deal with the fixed cards in place and the unseen ones drawn against the evidence,
        no seat getting a suit it is void in (``None`` after a dead end): drawn seat by seat,
        and the whole draw again (:data:`RESTARTS` times at most) by rejection against the
        deal's weight by the calls, since the first seats' draws may leave no good hand for the
        last. (The card play's weights count in the seats' draws only: against the whole deal
        they would restart most draws, for a cost the decision's budget does not have.)"""
        best: tuple[float, Deal | None] = (-1.0, None)
        for _ in range(RESTARTS):
            deal = self.draw(knowledge, rng)
            if deal is None:
                return None
            weight = 1.0
            for seat in self.calls:
                weight *= self.weight(seat, deal.hands[seat], read=False)
            if weight > best[0]:
                best = (weight, deal)
            if rng.random() < weight:
                return deal
        return best[1]

    def draw(self, knowledge: Knowledge, rng: random.Random) -> Deal | None:
        """One draw, seat by seat (see :meth:`sample`)."""
        fixed = knowledge.fixed
        voids = knowledge.voids
        known = {card for cards in fixed for card in cards}
        pool = sorted(knowledge.deck - known)
        rng.shuffle(pool)
        need = [size - len(cards) for size, cards in zip(knowledge.sizes, fixed, strict=True)]
        hands = [list(cards) for cards in fixed]
        seats = [seat for seat in self.order if need[seat] > 0]
        for index, seat in enumerate(seats[:-1]):
            later = seats[index + 1 :]
            last = later[0] if len(later) == 1 and not knowledge.stock else None
            eligible = [card for card in pool if card[-1] not in voids[seat]]
            forced = [
                card
                for card in eligible
                if knowledge.stock == 0 and all(card[-1] in voids[other] for other in later)
            ]
            free = [card for card in eligible if card not in forced]
            count = need[seat] - len(forced)
            if count < 0 or count > len(free):
                return None
            best: tuple[float, list[str]] | None = None
            for _ in range(TRIES):
                drawn = forced + rng.sample(free, count)
                weight = self.weight(seat, fixed[seat] + drawn)
                luck = rng.random()
                if last is not None and weight > 0:
                    if weight <= luck and best is not None and weight <= best[0]:
                        continue  # the last seat's weight only lowers it: not taken, not best
                    taken = set(drawn)
                    rest = [card for card in pool if card not in taken]
                    if any(card[-1] in voids[last] for card in rest):
                        weight = 0.0
                    else:
                        weight *= self.weight(last, fixed[last] + rest)
                if best is None or weight > best[0]:
                    best = (weight, drawn)
                if luck < weight:
                    best = (weight, drawn)
                    break
            assert best is not None
            if best[0] == 0:
                return None
            hands[seat].extend(best[1])
            taken = set(best[1])
            pool = [card for card in pool if card not in taken]
        if seats:  # the last seat (and the stock) take the rest
            seat = seats[-1]
            mine, pool = pool[: need[seat]], pool[need[seat] :]
            if any(card[-1] in voids[seat] for card in mine):
                return None
            hands[seat].extend(mine)
        return Deal(tuple(tuple(hand) for hand in hands), tuple(pool))


def bidding(seen: Seen, knowledge: Knowledge, read: bool = True) -> Bidding | None:
    """The evidence in ``seen``'s public history: the calls, for a game with a :data:`MODELS`
    entry, and the card play, for a game it is read in (unless not ``read``; ``None`` when
    neither says anything). Also records in ``knowledge`` the voids the card play has shown
    (where the calls are modelled), so that the draws respect them from the start."""
    rules = game_class(seen)
    model = MODELS.get(rules.player_module)
    if model is None and not (read and reads(rules)):
        return None
    if model is not None:
        learn_voids(seen, knowledge)
    plays = reading(seen, knowledge) if read else None
    calls = _calls(seen, knowledge) if model is not None else None
    if not calls and plays is None:
        return None
    calls = calls or {}
    others = [seat for seat in range(knowledge.players) if seat != seen.seat]
    seen_plays = plays.plays if plays is not None else {}
    # the seats whose calls say most (bids, doubles, a trump) are drawn first, a passer last;
    # then those whose most cards were read
    order = sorted(
        others,
        key=lambda seat: (
            -sum(call.move.action != "pass" for call in calls.get(seat, ())),
            -len(seen_plays.get(seat, ())),
            seat,
        ),
    )
    return Bidding(model, calls, order, plays)


def _calls(seen: Seen, knowledge: Knowledge) -> dict[int, list[Call]] | None:
    """Every other seat's public calls, with the view and legal moves it had then (``None``
    when the auction cannot be replayed)."""
    deal = knowledge.sample(random.Random(0))  # any deal: the auction does not read the cards
    if deal is None:
        return None
    replay = game_class(seen).new(dict(seen.options), deals=[deal], first_dealer=knowledge.dealer)
    calls: dict[int, list[Call]] = {}
    for mover, move in seen.history:
        if move is None or move.action == "play":
            break
        if mover != seen.seat:
            legal = tuple(replay.legal_moves(mover))
            calls.setdefault(mover, []).append(Call(mover, replay.view(mover), legal, move))
        try:
            replay.apply(mover, move)
        except IllegalMove:
            return None
    return calls
