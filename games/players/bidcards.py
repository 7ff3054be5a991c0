"""The Tuppi and Norwegian Whist computer player, from the seat's view and legal moves alone.

Bids: a hand with enough high cards (ace 4, king 3, queen 2, jack 1, plus length over four in its
longest suit: 12 or more) bids high (rami, grand), else low, with the lowest card that carries the
bid. A one-colour hand is always exposed when the table redeals them. In the tricks a seat that
wants tricks leads and wins high and ducks behind its partner; a seat that wants none plays just
under the card winning the trick, or throws its highest card when it cannot follow. Tuppi's sooli
is declared with at most one high card, and in the exchange the partner gives his lowest card and
the soloist returns his highest (aces low). At the next-to-last trick a seat handed the deal's
tricks solves it (:mod:`games.players.endgame`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.actions import Action
from games.base import Move
from games.players import Seen
from games.players.endgame import endgame_card
from games.tricks import PLAY, strength_table, trick_winner
from games.views import BidCardsView, BidPhase

NORMAL_STRENGTH = strength_table("23456789TJQKA")
ACE_LOW_STRENGTH = strength_table("A23456789TJQK")
HIGH_WORDS = {"tuppi": "rami", "norwegian_whist": "grand"}
LOW_WORDS = {"tuppi": "nolo", "norwegian_whist": "nullo"}
HIGH_THRESHOLD = 12
EXPOSE = Move.of("expose")
SOOLI = Move.of("sooli")
PASS = Move.of("pass")


def choose(seen: Seen, rng: random.Random) -> Move:
    """The move for ``seen.seat``."""
    view = seen.view
    assert isinstance(view, BidCardsView)
    legal = seen.legal
    phase = view.phase
    if phase == BidPhase.TRICKS:
        return endgame_card(seen, choose_play(seen.seat, view, legal))
    if phase == BidPhase.BIDS:
        if EXPOSE in legal:
            return EXPOSE
        if not view.committed[seen.seat]:
            return choose_bid(view, legal)
    if phase == BidPhase.SOOLI:
        hand = view.hand or ()
        high = sum(1 for card in hand if card[0] != "A" and NORMAL_STRENGTH[card] >= 7)
        return SOOLI if high <= 1 else PASS
    if phase == BidPhase.EXCHANGE:
        return choose_exchange(legal)
    return rng.choice(legal)


def choose_bid(view: BidCardsView, legal: Sequence[Move]) -> Move:
    """High with a strong hand, else low; the lowest card that carries the bid (verbal first)."""
    hand = view.hand or ()
    strength = sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(card[0], 0) for card in hand)
    suits = {s: sum(1 for card in hand if card[1] == s) for s in "SHDC"}
    strength += max(0, max(suits.values()) - 4)
    game = view.game
    want = HIGH_WORDS[game] if strength >= HIGH_THRESHOLD else LOW_WORDS[game]
    moves = [m for m in legal if m.action == Action.BID and m.get("value") == want]
    return min(moves, key=lambda m: NORMAL_STRENGTH[m.get("card")] if m.get("card") else -1)


def choose_exchange(legal: Sequence[Move]) -> Move:
    """The partner gives his lowest card, the soloist returns his highest (aces are low)."""
    if legal[0].action == Action.GIVE:
        return min(legal, key=lambda m: ACE_LOW_STRENGTH[m.get("card")])
    return max(legal, key=lambda m: ACE_LOW_STRENGTH[m.get("card")])


def choose_play(seat: int, view: BidCardsView, moves: Sequence[Move]) -> Move:
    """Win tricks in a high hand, duck in a low one (in sooli nobody wants a trick)."""
    strength = ACE_LOW_STRENGTH if view.hand_type == "sooli" else NORMAL_STRENGTH
    legal: list[str] = [m.get("card") for m in moves]
    want = view.hand_type == HIGH_WORDS[view.game]
    trick = list(view.trick)
    if not trick:
        if want:
            best = max(legal, key=strength.__getitem__)
            if strength[best] >= strength["K" + best[1]]:
                return PLAY[best]
        return PLAY[min(legal, key=strength.__getitem__)]
    best_seat = trick_winner(trick, None, strength)
    best = dict(trick)[best_seat]
    led = trick[0][1][1]
    following = legal[0][1] == led
    # Tuppi's partner of a lone player sits out (Norwegian Whist's view has no such seat); read
    # as an attribute, so the search's light views, which have only what is read here, agree.
    seats_in_trick = 3 if getattr(view, "sitting_out", None) is not None else 4
    last = len(trick) == seats_in_trick - 1
    if want:
        if best_seat % 2 == seat % 2:
            return PLAY[min(legal, key=strength.__getitem__)]
        if following:
            beating = [c for c in legal if strength[c] > strength[best]]
            if beating:
                pick = (
                    min(beating, key=strength.__getitem__)
                    if last
                    else max(beating, key=strength.__getitem__)
                )
                return PLAY[pick]
        return PLAY[min(legal, key=strength.__getitem__)]
    if following:
        under = [c for c in legal if strength[c] < strength[best]]
        if under:
            return PLAY[max(under, key=strength.__getitem__)]
        if last:
            return PLAY[max(legal, key=strength.__getitem__)]
        return PLAY[min(legal, key=strength.__getitem__)]
    return PLAY[max(legal, key=strength.__getitem__)]
