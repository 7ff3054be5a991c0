"""The Tarneeb and Egyptian Tarneeb computer player: simple, sound heuristics from the seat's view.

Bidding counts quick tricks and long-suit length; the trump is the longest suit; in play a seat
leads its masters (no higher card of the suit is still out, judged from its own hand and the
cards played so far, both in its view), wins a trick as cheaply as it can unless its partner
already holds it, and otherwise throws its lowest card, keeping trumps. Decisions depend only on
the view and the legal moves, never on the random source. At the next-to-last trick a seat
handed the deal's tricks solves it (:mod:`games.players.endgame`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from games.actions import Action
from games.base import Move
from games.players import Seen
from games.players.endgame import endgame_card
from games.tricks import PLAY, strength_table, trick_winner
from games.views import TarneebPhase, TarneebView

RANKS = "23456789TJQKA"
RANK_VALUE = strength_table(RANKS)
PASS = Move.of("pass")
DOUBLE = Move.of("double")
TRUMP_MOVES = {s: Move.of("trump", suit=s) for s in ("S", "H", "D", "C", "NT")}


def choose(seen: Seen, rng: random.Random) -> Move:
    """The move for ``seen.seat``: a call, a trump suit or a card."""
    view = seen.view
    assert isinstance(view, TarneebView)
    hand: list[str] = list(view.hand or ())
    if view.phase == TarneebPhase.PLAY:
        return endgame_card(seen, choose_play(seen.seat, view, seen.legal))
    return call(seen.seat, view, seen.legal, strength(hand))


def estimate(hand: Iterable[str]) -> tuple[float, str]:
    """A rough count of tricks the side can take, and the best trump suit for it."""
    by_suit: dict[str, list[int]] = {s: [] for s in "SHDC"}
    for card in hand:
        by_suit[card[1]].append(RANK_VALUE[card])
    high = 0.0
    for ranks in by_suit.values():
        length = len(ranks)
        high += (
            (12 in ranks)
            + 0.7 * (11 in ranks and length >= 2)
            + 0.4 * (10 in ranks and length >= 3)
        )
    best = max("SHDC", key=lambda s: (len(by_suit[s]), sum(by_suit[s])))
    length = len(by_suit[best])
    return high + max(0, length - 3) * 0.9 + 3.0, best


class Strength(NamedTuple):
    """All the auction reads of a hand: the tricks it is worth (whole), its best trump suit and
    its quick tricks (aces and kings). The search's inference (:mod:`games.search.inference`)
    computes it once per sampled hand and asks :func:`call` what that hand would have called
    (few hands differ here, so the answers are cached by it)."""

    level: int
    best: str
    quick: int


def strength(hand: Iterable[str]) -> Strength:
    cards = list(hand)
    value, best = estimate(cards)
    return Strength(int(value), best, sum(1 for c in cards if c[0] in "AK"))


def call(seat: int, view: TarneebView, legal: Sequence[Move], hand: Strength) -> Move:
    """A call or a trump suit, from the hand's :class:`Strength` alone (and the public
    auction in ``view``)."""
    if view.phase == TarneebPhase.TRUMP:
        return TRUMP_MOVES[hand.best]
    if view.game == "tarneeb_egyptian":
        return egyptian_call(seat, view, legal, hand)
    return tarneeb_call(hand.level, legal)


def choose_call(hand: Sequence[str], legal: Sequence[Move]) -> Move:
    """Tarneeb: bid the cheapest bid while it is within the estimate (or when forced), else pass."""
    return tarneeb_call(int(estimate(hand)[0]), legal)


def tarneeb_call(level: int, legal: Sequence[Move]) -> Move:
    """Tarneeb's call for a hand worth ``level`` tricks (see :func:`choose_call`)."""
    bids = [m for m in legal if m.action == Action.BID]
    if not bids:
        return PASS
    cheapest = bids[0]
    if cheapest.get("value") <= level or PASS not in legal:
        return cheapest
    return PASS


def choose_egyptian_call(seat: int, view: TarneebView, legal: Sequence[Move]) -> Move:
    """Egyptian: double a high enemy bid with four quick tricks, else bid the best strain."""
    return egyptian_call(seat, view, legal, strength(view.hand or ()))


def egyptian_call(seat: int, view: TarneebView, legal: Sequence[Move], hand: Strength) -> Move:
    """Egyptian Tarneeb's call for a hand of this :class:`Strength` (see
    :func:`choose_egyptian_call`)."""
    level, best, quick = hand
    bids = [call for call in view.bids if call.action == Action.BID]
    high_level = (bids[-1].value or 0) if bids else 0
    high_bidder = bids[-1].seat if bids else -1
    if DOUBLE in legal and high_level >= 9 and level <= 6 and quick >= 4:
        return DOUBLE
    own_side = high_bidder >= 0 and high_bidder % 2 == seat % 2
    if not own_side:
        for move in legal:
            if (
                move.action == Action.BID
                and move.get("suit") == best
                and move.get("value") <= level
            ):
                return move
    if PASS in legal:
        return PASS
    return next(m for m in legal if m.action == Action.BID)


def choose_play(seat: int, view: TarneebView, moves: Sequence[Move]) -> Move:
    """Lead masters or a low plain card; win cheaply unless partner holds the trick."""
    hand = list(view.hand or ())
    played = set(view.played)
    legal: list[str] = [m.get("card") for m in moves if m.action == Action.PLAY]
    trick = list(view.trick)
    declared = view.trump
    trump = declared if declared not in (None, "NT") else ""

    def is_master(card: str) -> bool:
        """No higher card of the suit is still out (in another hand)."""
        for value in range(RANK_VALUE[card] + 1, 13):
            higher = RANKS[value] + card[1]
            if higher not in played and higher not in hand:
                return False
        return True

    if not trick:
        if declared is None:  # first lead names trump: lead from the longest suit
            _, best = estimate(hand)
            cards = [c for c in legal if c[1] == best] or legal
            return PLAY[max(cards, key=RANK_VALUE.__getitem__)]
        masters = [c for c in legal if is_master(c)]
        if masters:
            return PLAY[max(masters, key=lambda c: (c[1] != trump, RANK_VALUE[c]))]
        plain = [c for c in legal if c[1] != trump] or legal
        return PLAY[min(plain, key=RANK_VALUE.__getitem__)]
    current = trick_winner(trick, declared, RANK_VALUE)
    partner_winning = current % 2 == seat % 2
    winners = [c for c in legal if trick_winner([*trick, (seat, c)], declared, RANK_VALUE) == seat]
    last = len(trick) == 3
    if partner_winning and (last or is_master(dict(trick)[current])):
        winners = []
    if winners and not partner_winning:
        return PLAY[min(winners, key=lambda c: (c[1] == trump, RANK_VALUE[c]))]
    return PLAY[min(legal, key=lambda c: (c[1] == trump, RANK_VALUE[c]))]
