"""Tarneeb's cards: the 52-card deck, ace high, its ranks and sort order, and what a deal is."""

from __future__ import annotations

from games.base import Deal, DealError
from games.cards import make_deck
from games.tricks import strength_table

RANKS = "23456789TJQKA"
DECK: tuple[str, ...] = tuple(make_deck())
DECK_SET = frozenset(DECK)
RANK_VALUE: dict[str, int] = strength_table(RANKS)
SUIT_ORDER = "SHDC"


def validate_deal(deal: Deal) -> None:
    if len(deal.hands) != 4 or any(len(hand) != 13 for hand in deal.hands) or deal.stock:
        raise DealError("a Tarneeb deal is four hands of 13 cards and no stock")
    if {card for hand in deal.hands for card in hand} != DECK_SET:
        raise DealError("a Tarneeb deal uses each of the 52 cards once")
