"""The fast path of trick play: bitmask hands, no checks, copies of a few integers.

The search plays the card play of the trick games (Tarneeb, Egyptian Tarneeb, Tuppi, Norwegian
Whist) thousands of times per decision. The engines check every move, build events and keep
records; here a position is a handful of integers and lists:

- a card is ``suit * 13 + rank`` (suits ``S H D C``, ranks low to high in the hand's order, so
  a higher index within a suit wins), a hand a 52-bit mask;
- a trick in progress is a list of ``(seat, card)``; ``order`` lists the seats of the trick in
  playing order (a seat sitting out is simply not in it);
- ``won`` counts the tricks per team.

It knows only following suit, trumps and who leads next: a game's extra rules (Thunee's undercut,
a sooli hand's early stop) and its scoring stay in the engine. :func:`from_world` reads a position
from an engine, and ``tests/games/test_search_tricks.py`` plays many random games move by move on
both to prove they agree (the same legal cards, hands, trick, turn and tricks won after every
card).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

SUITS = "SHDC"
ACE_HIGH = "23456789TJQKA"
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))


def card_index(card: str, ranks: str = ACE_HIGH) -> int:
    return SUITS.index(card[1]) * 13 + ranks.index(card[0])


def card_name(index: int, ranks: str = ACE_HIGH) -> str:
    return ranks[index % 13] + SUITS[index // 13]


def mask_of(cards: Sequence[str], ranks: str = ACE_HIGH) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card_index(card, ranks)
    return mask


def cards_of(mask: int) -> list[int]:
    """The card indexes of ``mask``, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


class TrickPlay:
    """A position of the card play (see the module docstring); ``trump`` is a suit index or -1."""

    __slots__ = ("hands", "leader", "order", "players", "seat_in_trick", "trick", "trump", "won")

    def __init__(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        order: list[int],
        trump: int,
        won: list[int],
    ) -> None:
        self.hands = hands
        self.trick = trick
        self.order = order  # the seats of every trick, from the leader (rotated at each lead)
        self.trump = trump
        self.won = won
        self.players = len(hands)
        self.leader = order[0]
        self.seat_in_trick = len(trick)

    def copy(self) -> TrickPlay:
        other = TrickPlay.__new__(TrickPlay)
        other.hands = self.hands.copy()
        other.trick = self.trick.copy()
        other.order = self.order
        other.trump = self.trump
        other.won = self.won.copy()
        other.players = self.players
        other.leader = self.leader
        other.seat_in_trick = self.seat_in_trick
        return other

    @property
    def turn(self) -> int:
        return self.order[self.seat_in_trick]

    @property
    def over(self) -> bool:
        return not self.hands[self.order[0]] and not self.trick

    def legal(self) -> int:
        """The mask of the cards the seat to play may play."""
        hand = self.hands[self.order[self.seat_in_trick]]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0][1] // 13]
            if follow:
                return follow
        return hand

    def play(self, card: int) -> int | None:
        """Play ``card`` for the seat to play (unchecked); the trick's winner when it completes."""
        seat = self.order[self.seat_in_trick]
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < len(self.order):
            self.seat_in_trick += 1
            return None
        best_seat, best = trick[0]
        trump = self.trump
        for other_seat, other in trick[1:]:
            if other // 13 == best // 13:
                if other > best:
                    best_seat, best = other_seat, other
            elif other // 13 == trump:
                best_seat, best = other_seat, other
        self.won[best_seat % 2] += 1
        self.trick = []
        self.seat_in_trick = 0
        if best_seat != self.leader:
            position = self.order.index(best_seat)
            self.order = self.order[position:] + self.order[:position]
            self.leader = best_seat
        return best_seat


def random_playout(state: TrickPlay, rng: random.Random) -> int:
    """Play random legal cards to the end of the hand; the number of cards played."""
    plays = 0
    getrandbits = rng.getrandbits
    while True:
        legal = state.legal()
        if not legal:
            return plays
        count = legal.bit_count()
        pick = getrandbits(8) % count if count > 1 else 0
        while pick:  # drop the lowest ``pick`` cards
            legal &= legal - 1
            pick -= 1
        state.play((legal & -legal).bit_length() - 1)
        plays += 1


def best_tricks(state: TrickPlay, team: int, fewest: bool = False) -> int:
    """The tricks ``team`` ends the hand with, every hand open and perfect play on both sides
    (alpha-beta over the remaining cards; meant for the last few tricks): ``team`` taking the
    most and the others giving it the fewest, or with ``fewest`` (a low hand, where each side
    wants fewer tricks) ``team`` taking the fewest and the others forcing the most on it. The
    low hand is a game of its own, not the high one negated: a side that the others could keep
    from every trick may still be unable to avoid one they force on it."""
    # What is known of the tricks ``team`` takes from a trick's start to the end (bounds:
    # a search cut off proves one side only), by the hands and the leader: the tricks won
    # before it do not change the rest of the hand, so every way of reaching it shares it.
    table: dict[tuple[Any, ...], tuple[int, int]] = {}

    def search(alpha: int, beta: int) -> int:
        key: tuple[Any, ...] | None = None
        if not state.trick:
            won = state.won[team]
            if not state.hands[state.order[0]]:
                return won
            key = (*state.hands, state.leader)
            known = table.get(key)
            if known is not None:
                low, high = won + known[0], won + known[1]
                if low == high or low >= beta:
                    return low
                if high <= alpha:
                    return high
                alpha, beta = max(alpha, low), min(beta, high)
            window = (alpha, beta)
        maximise = (state.order[state.seat_in_trick] % 2 == team) != fewest
        legal = state.legal()
        best = -1 if maximise else 99
        while legal:
            low_card = legal & -legal
            card = low_card.bit_length() - 1
            legal ^= low_card
            saved = (state.hands.copy(), state.trick.copy(), state.order, state.leader)
            saved_turn, saved_won = state.seat_in_trick, state.won.copy()
            state.play(card)
            value = search(alpha, beta)
            state.hands, state.trick, state.order, state.leader = saved
            state.seat_in_trick, state.won = saved_turn, saved_won
            if maximise:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        if key is not None:
            won = state.won[team]
            low, high = table.get(key, (0, 13))
            if best <= window[0]:  # failed low: at most ``best``
                high = min(high, best - won)
            elif best >= window[1]:  # failed high: at least ``best``
                low = max(low, best - won)
            else:
                low = high = best - won
            table[key] = (low, high)
        return best

    return search(-1, 99)


def from_world(world: Any) -> TrickPlay | None:
    """The card play of an engine's position (Tarneeb, Egyptian Tarneeb, Tuppi, Norwegian
    Whist), or ``None`` outside it or in a hand the fast path does not model (a sooli hand)."""
    name = world.name
    if name in ("tarneeb", "tarneeb_egyptian"):
        if world.phase != "play":
            return None
        trump = world.trump
        suit = SUITS.index(trump) if trump in ("S", "H", "D", "C") else -1
        if trump is None:
            return None  # the first lead names the trump: an engine step, not a trick
        leader = world.trick[0][0] if world.trick else world.turn
        order = [(leader + offset) % 4 for offset in range(4)]
        won = list(world.team_tricks)
        return _state(world.hands, world.trick, order, suit, won, ACE_HIGH)
    if name in ("tuppi", "norwegian_whist"):
        if world.phase != "tricks" or world.hand_type == "sooli":
            return None
        order = list(world.order)  # the trick's seats from its leader
        return _state(world.hands, world.trick, order, -1, list(world.won), ACE_HIGH)
    return None


def _state(
    hands: Sequence[Sequence[str]],
    trick: Sequence[tuple[int, str]],
    order: list[int],
    trump: int,
    won: list[int],
    ranks: str,
) -> TrickPlay:
    return TrickPlay(
        [mask_of(hand, ranks) for hand in hands],
        [(seat, card_index(card, ranks)) for seat, card in trick],
        order,
        trump,
        won,
    )


def as_cards(state: TrickPlay) -> Mapping[str, Any]:
    """The position in the engines' terms (for comparisons): hands, trick, turn, tricks won."""
    return {
        "hands": [sorted(card_name(card) for card in cards_of(hand)) for hand in state.hands],
        "trick": [(seat, card_name(card)) for seat, card in state.trick],
        "turn": state.turn,
        "won": list(state.won),
    }
