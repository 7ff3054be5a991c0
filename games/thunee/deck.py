"""Thunee's deck and ranks: 24 cards J 9 A 10 K Q, their points and strengths, and the dealing.

The dealer ``D`` deals counter-clockwise (seat ``D+1`` first) a first packet (4 cards; 2 or 3
with six players) and, after trump is set, a second packet; two players get a second half of six
cards each after six tricks. Ranking J 9 A 10 K Q (Royals: reversed), points 30 20 11 10 3 2 (304
in the deck).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import repeat, starmap
from operator import itemgetter
from typing import Any

from games.base import Deal
from games.cards import display
from games.seats import seat_ref as _seat_ref
from games.tricks import trick_winner

SEAT_REFS = tuple(_seat_ref(s) for s in range(6))


def seat_ref(seat: int) -> str:
    """``{s2}``: a seat placeholder the bot fills with the player's name."""
    return SEAT_REFS[seat]


RANK_ORDER = "J9ATKQ"  # high to low in a normal hand
SUIT_ORDER = "SHDC"
DECK: tuple[str, ...] = tuple(r + s for s in SUIT_ORDER for r in RANK_ORDER)
DECK_SET = frozenset(DECK)
RANK_POINTS = {"J": 30, "9": 20, "A": 11, "T": 10, "K": 3, "Q": 2}
POINTS: dict[str, int] = {c: RANK_POINTS[c[0]] for c in DECK}
NORMAL_STRENGTH: dict[str, int] = {c: 6 - RANK_ORDER.index(c[0]) for c in DECK}
ROYAL_STRENGTH: dict[str, int] = {c: 1 + RANK_ORDER.index(c[0]) for c in DECK}
SORT_KEY: dict[str, tuple[int, int]] = {
    c: (SUIT_ORDER.index(c[1]), RANK_ORDER.index(c[0])) for c in DECK
}
SUIT_OF = itemgetter(1)  # a card's suit
# The cards of each suit.
SUIT_CARDS: dict[str, frozenset[str]] = {
    s: frozenset(c for c in DECK if c[1] == s) for s in SUIT_ORDER
}
BLACK_JACKS = frozenset({"JS", "JC"})
ALL_JACKS = frozenset({"JS", "JH", "JD", "JC"})
DISPLAY: dict[str, str] = {c: display(c) for c in DECK}


def strength_for(contract: str) -> dict[str, int]:
    """The card strengths of a contract: Royals (blind or not) reverse the ranking."""
    return ROYAL_STRENGTH if contract.endswith("royals") else NORMAL_STRENGTH


def winner_of(trick: Sequence[tuple[int, str]], trump: str | None, contract: str) -> int:
    """The seat that wins ``trick`` (so far) under ``trump`` and the contract's ranking."""
    return trick_winner(trick, trump, strength_for(contract))


def shuffled_deck(rng: random.Random) -> list[str]:
    """A uniformly shuffled deck: the cards sorted by independent uniform random keys."""
    return list(itemgetter(*_shuffled_order(rng))(DECK))


_DECK_INDICES = range(len(DECK))


def _shuffled_order(rng: random.Random) -> list[int]:
    """The deck indices of the shuffled deck's cards, top first: one key per card, drawn in deck
    order, and the indices sorted by them (ties keep deck order)."""
    keys = list(starmap(rng.random, repeat((), len(DECK))))
    return sorted(_DECK_INDICES, key=keys.__getitem__)


POINT_OF = POINTS.__getitem__  # bound once, not per call


def card_points(cards: Sequence[str]) -> int:
    return sum(map(POINT_OF, cards))


def packet_sizes(players: int, six_player_first_packet: int = 2) -> tuple[int, int]:
    """First and second packet sizes per seat."""
    if players == 6:
        return six_player_first_packet, 4 - six_player_first_packet
    return 4, 2


def deal_from_deck(
    deck: Sequence[str], dealer: int, players: int = 4, first_packet: int | None = None
) -> Deal:
    """Deal a shuffled deck (top first) as §1.4 (§3.2, §3.3): packets from ``dealer + 1``."""
    cards, hands = _deal_plan(dealer, players, first_packet)
    return Deal(hands(cards(deck)), ())


def deal_shuffled(
    rng: random.Random, dealer: int, players: int, first_packet: int | None = None
) -> Deal:
    """``deal_from_deck(shuffled_deck(rng), ...)``, without building the shuffled deck: the plan
    picks the dealt positions' deck indices, and one getter their cards (a new hand's cost)."""
    cards, hands = _deal_plan(dealer, players, first_packet)
    return Deal(hands(itemgetter(*cards(_shuffled_order(rng)))(DECK)), ())


# A deal plan: a getter of the dealt positions' items, seat after seat, each seat's in the order
# dealt, and a getter that cuts that into the seats' hands (tuple slices).
_DealPlan = tuple[Callable[[Sequence[Any]], tuple[Any, ...]], Callable[[Sequence[str]], Any]]
_DEAL_PLANS: dict[tuple[int, int, int | None], _DealPlan] = {}


def _deal_plan(dealer: int, players: int, first_packet: int | None) -> _DealPlan:
    """The plan of a dealer's deal at this table size (built once per key)."""
    key = (dealer, players, first_packet)
    plan = _DEAL_PLANS.get(key)
    if plan is None:
        plan = _DEAL_PLANS[key] = _build_deal_plan(dealer, players, first_packet)
    return plan


def _build_deal_plan(dealer: int, players: int, first_packet: int | None) -> _DealPlan:
    pk1, pk2 = packet_sizes(players, first_packet or 2)
    second = players * pk1
    third = second + players * pk2
    positions: list[list[int]] = [[] for _ in range(players)]
    for i in range(players):
        cards = [*range(i * pk1, (i + 1) * pk1), *range(second + i * pk2, second + (i + 1) * pk2)]
        if players == 2:
            cards += range(third + i * 6, third + (i + 1) * 6)
        positions[(dealer + 1 + i) % players] = cards
    size = len(positions[0])
    hands = itemgetter(*(slice(s * size, (s + 1) * size) for s in range(players)))
    return itemgetter(*(p for seat in positions for p in seat)), hands


def first_dealer_by_jacks(
    deck: Sequence[str], shuffler: int, players: int, any_jack: bool = False
) -> int:
    """§1.3: deal face up from the shuffler's right until a black jack (or any jack) appears."""
    wanted = ALL_JACKS if any_jack else BLACK_JACKS
    seat = shuffler
    for card in deck:
        seat = (seat + 1) % players
        if card in wanted:
            return seat
    return shuffler  # unreachable with a full deck
