"""Thunee's computer player: decides from the seat's view and legal moves alone.

It demands a weak-hand redeal, calls the next step (up to 40) only with a strong first packet and
otherwise passes, never calls blind, lays the lowest card of its longest (then strongest) suit as
trump, calls Thunee only holding nothing but top cards, claims every Jodhi it can (the best
first), declares Double/Khanaak only with a card that surely wins the last trick, leads its best
trump when it is the highest left and it holds another (two or four players: it draws the
opponents' trumps), else a card that is the highest left in its suit (else its cheapest), wins a
trick with the cheapest winning card, and throws its cheapest card (from its shortest suit among
equals) when the partner is winning or it cannot win, except that in an ordinary contract it
feeds a partner's trick its richest plain card (one that does not overtake it, when it plays
last) when it plays last or nothing left beats the partner's card in its suit. The card play is
one plain function, :func:`card_for`, shared by the hint and by the hard player's fast playouts.
In challenge mode it answers nothing with Murial, claims only true Jodhi, and challenges only a
revoke it can prove from the public tricks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.actions import Action
from games.base import IllegalMove, Move
from games.players import Seen
from games.tricks import strength_table, trick_winner
from games.views import ThuneePhase, ThuneeView

# The public vocabulary of the game, restated here so that the player never imports the engine.
RANK_ORDER = "J9ATKQ"  # high to low in a normal hand; Royals reverse it
SUIT_ORDER = "SHDC"
DECK = tuple(rank + suit for suit in SUIT_ORDER for rank in RANK_ORDER)
SUIT_CARDS = {suit: tuple(card for card in DECK if card[1] == suit) for suit in SUIT_ORDER}
POINTS = {card: {"J": 30, "9": 20, "A": 11, "T": 10, "K": 3, "Q": 2}[card[0]] for card in DECK}
NORMAL_STRENGTH = strength_table(RANK_ORDER[::-1], SUIT_ORDER)
ROYAL_STRENGTH = strength_table(RANK_ORDER, SUIT_ORDER)
PASS = Move.of("pass")
DEMAND = Move.of("demand_redeal")
THUNEE = Move.of("thunee")
DOUBLE = Move.of("double")
KHANAAK = Move.of("khanaak")


def card_points(cards: Sequence[str]) -> int:
    return sum(POINTS[c] for c in cards)


def strength_for(contract: str) -> dict[str, int]:
    return ROYAL_STRENGTH if contract.endswith("royals") else NORMAL_STRENGTH


def winner_of(trick: Sequence[tuple[int, str]], trump: str | None, contract: str) -> int:
    return trick_winner(trick, trump, strength_for(contract))


Trick = list[tuple[int, str]]


def choose(seen: Seen, rng: random.Random) -> Move:
    """The move for ``seen.seat``: see the module docstring."""
    legal = list(seen.legal)
    if not legal:
        raise IllegalMove("This seat has nothing to do now.")
    if len(legal) == 1:
        return legal[0]
    view = _view(seen)
    phase = view.phase
    hand: list[str] = list(view.hand or ())
    if phase == ThuneePhase.REDEAL:
        return DEMAND
    if phase == ThuneePhase.AUCTION:
        return _choose_call(hand, legal, view.call)
    if phase == ThuneePhase.TRUMP:
        return _choose_trump(hand, legal)
    if phase == ThuneePhase.WINDOW:
        return THUNEE if THUNEE in legal and _thunee_worthy(hand) else PASS
    return _choose_play(seen, hand, legal)


def choose_before_play(seat: int, light: Any, legal: Sequence[Move]) -> Move:
    """:func:`choose` before the card play, from the few values it reads there (``phase``,
    ``hand``, ``call``: the search's light view, :mod:`games.search.playout`)."""
    hand = list(light.hand)
    phase = light.phase
    if phase == "redeal":
        return DEMAND
    if phase == "auction":
        return _choose_call(hand, list(legal), int(light.call))
    if phase == "trump":
        return _choose_trump(hand, list(legal))
    return THUNEE if THUNEE in legal and _thunee_worthy(hand) else PASS


def _choose_play(seen: Seen, hand: list[str], legal: list[Move]) -> Move:
    """Claims first, then challenges and declarations, then a card."""
    view = _view(seen)
    seat = seen.seat
    challenge_mode = view.rules.challenge_mode
    values: Mapping[str, int] = view.jodhi_values or {}
    jodhi = [m for m in legal if m.action == Action.JODHI]
    if jodhi and not challenge_mode:
        return max(jodhi, key=lambda m: values.get(m.get("suit"), 0))
    if jodhi:
        valid = [m for m in jodhi if m.get("suit") in values]
        if valid:
            return valid[0]
    if challenge_mode:
        proven = _proven_revoke(view, seat)
        accuse = Move.of("challenge", target=proven) if proven is not None else None
        if accuse is not None and accuse in legal:
            return accuse
    plays = [m.get("card") for m in legal if m.action == Action.PLAY]
    if not plays:
        return legal[0]
    trick: Trick = list(view.trick)
    if (
        len(plays) == 1
        and (DOUBLE in legal or KHANAAK in legal)
        and _sure_winner(view, seat, hand, trick, plays[0])
    ):
        if KHANAAK in legal and _khanaak_would_hold(view, seat):
            return KHANAAK
        if DOUBLE in legal:
            return DOUBLE
    return Move.of("play", card=_choose_card(view, seat, hand, trick, plays))


def _choose_call(hand: list[str], legal: list[Move], call: int) -> Move:
    best = 0
    for suit in SUIT_ORDER:
        in_suit = [c for c in hand if c[1] == suit]
        best = max(best, card_points(in_suit) + 12 * len(in_suit))
    strength = best + sum(POINTS[c] for c in hand if c[0] == "J")
    calls = [m for m in legal if m.action == Action.CALL]
    if calls and strength >= 95 and call < 40:
        return min(calls, key=lambda m: int(m.get("value")))
    return PASS


def _choose_trump(hand: list[str], legal: list[Move]) -> Move:
    best_suit = max(
        SUIT_ORDER,
        key=lambda s: (
            sum(1 for c in hand if c[1] == s),
            sum(POINTS[c] for c in hand if c[1] == s),
        ),
    )
    cards = [c for c in hand if c[1] == best_suit]
    if not cards:
        return legal[0]
    return Move.of("trump", card=min(cards, key=NORMAL_STRENGTH.__getitem__))


def _thunee_worthy(hand: list[str]) -> bool:
    """Only top cards: every card's higher ranks of its suit are in the hand too."""
    if len(hand) < 4:
        return False
    for c in hand:
        higher = RANK_ORDER[: RANK_ORDER.index(c[0])]
        if any(r + c[1] not in hand for r in higher):
            return False
    return True


def _view(seen: Seen) -> ThuneeView:
    view = seen.view
    assert isinstance(view, ThuneeView)
    return view


def _played_cards(view: ThuneeView) -> set[str]:
    """The cards of this hand already played (the completed tricks and the current one)."""
    played = {c for t in view.tricks for c in t.cards}
    played.update(c for _, c in view.trick)
    return played


def _sure_winner(view: ThuneeView, seat: int, hand: list[str], trick: Trick, card: str) -> bool:
    """Whether ``card`` wins the last trick for sure (only public cards and own hand)."""
    trump = view.trump
    contract = view.contract
    strength = strength_for(contract)
    known = _played_cards(view) | set(hand)
    outstanding = [c for c in DECK if c not in known]
    if trick and winner_of([*trick, (seat, card)], trump, contract) != seat:
        return False
    led = trick[0][1][1] if trick else card[1]
    if card[1] != led and card[1] != trump:
        return False
    for other in outstanding:
        if other[1] == card[1] and strength[other] > strength[card]:
            return False
        if trump is not None and card[1] != trump and other[1] == trump:
            return False
    return True


def _khanaak_would_hold(view: ThuneeView, seat: int) -> bool:
    team = seat % 2
    other = (team + 1) % 2
    against = view.card_points[other]
    if view.rules.khanaak_formula == "strict":
        against += view.jodhi[other]
    return view.jodhi[team] + 10 > against


def _proven_revoke(view: ThuneeView, seat: int) -> int | None:
    """An opponent who played off a suit he was shown void in earlier (public tricks only)."""
    players = view.players
    void: set[tuple[int, str]] = set()
    sequences: list[Trick] = [
        [((t.leader + i) % players, c) for i, c in enumerate(t.cards)] for t in view.tricks
    ]
    sequences.append(list(view.trick))
    for trick in sequences:
        if not trick:
            continue
        led = trick[0][1][1]
        for s, c in trick:
            if (s, c[1]) in void and s % 2 != seat % 2:
                return s
            if c[1] != led:
                void.add((s, led))
    return None


def _choose_card(
    view: ThuneeView, seat: int, hand: list[str], trick: Trick, cards: Sequence[str]
) -> str:
    return card_for(
        seat,
        hand,
        trick,
        cards,
        trump=view.trump,
        contract=view.contract,
        caller=view.caller,
        played=_played_cards(view),
        players=view.players,
    )[0]


def card_for(
    seat: int,
    hand: Sequence[str],
    trick: Sequence[tuple[int, str]],
    cards: Sequence[str],
    *,
    trump: str | None,
    contract: str,
    caller: int | None,
    played: set[str] | frozenset[str],
    players: int,
) -> tuple[str, str]:
    """The card to play from ``cards`` (the legal ones, in hand order) and why (a key of
    :data:`games.players.hints.THUNEE_REASONS`), from plain values: the view's player and the
    search's fast finish (:mod:`games.search.thunee_finish`) both decide here. ``played`` holds
    the cards of this hand already played (the trick in progress too)."""
    strength = strength_for(contract)
    if len(cards) == 1:
        return cards[0], "only"
    if contract != "normal" and caller == seat:
        return max(cards, key=lambda c: (strength[c], c[1] == trump)), "called"
    known = played.union(hand)

    def top(card: str) -> bool:  # no card left in the others' hands beats it in its suit
        suit, rank = card[1], strength[card]
        return all(o in known for o in SUIT_CARDS[suit] if strength[o] > rank)

    if not trick:
        outstanding = [c for c in DECK if c not in known]
        trumps = [c for c in cards if c[1] == trump]
        if (
            players != 6  # measured: drawing trumps pays with 2 and 4 players, not with 6
            and len(trumps) >= 2
            and any(o[1] == trump for o in outstanding)
            and top(max(trumps, key=strength.__getitem__))
        ):
            return max(trumps, key=strength.__getitem__), "lead_trump"
        tops = [c for c in cards if c[1] != trump and top(c)]
        if tops:
            return max(tops, key=POINTS.__getitem__), "lead_top"
        plain = [c for c in cards if c[1] != trump] or list(cards)
        return min(plain, key=lambda c: (POINTS[c], strength[c])), "lead_low"
    winner = winner_of(trick, trump, contract)
    # the cheapest card, from the shortest suit among equals (a void lets a trump in later)
    suits = "".join([h[1] for h in hand])
    cheap = min(cards, key=lambda c: (c[1] == trump, POINTS[c], suits.count(c[1]), strength[c]))
    if contract != "normal" and caller is not None and caller % 2 == seat % 2:
        return cheap, "partner_called"  # never catch a partner's Thunee
    if winner % 2 == seat % 2:
        plain = [c for c in cards if c[1] != trump]
        if contract == "normal" and plain:
            if len(trick) == players - 1:  # the trick is the partner's: feed it (not take it)
                pool = [c for c in plain if winner_of([*trick, (seat, c)], trump, contract) != seat]
                pool = pool or plain
                return max(pool, key=lambda c: (POINTS[c], -strength[c])), "feed"
            best = dict(trick)[winner]
            if top(best):  # nothing left beats the partner's card in its suit: feed it too
                return max(plain, key=lambda c: (POINTS[c], -strength[c])), "feed_top"
        return cheap, "partner_winning"
    winning = [c for c in cards if winner_of([*trick, (seat, c)], trump, contract) == seat]
    if winning:
        return min(winning, key=lambda c: (c[1] == trump, strength[c])), "win_cheap"
    return cheap, "cannot_win"
