"""Tunge's scoring (D.1.9, D.1.10): card values, a deal's points and who wins the game.

Lower is better. The winner of a deal scores 0 and every other seat the value of its hand; a
blocked deal has no winner and every seat scores its hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.tunge.grammar import DECK

CARD_VALUES = {
    card: (11 if card[0] == "A" else 10 if card[0] in "TJQK" else int(card[0])) for card in DECK
}


def hand_value(cards: Iterable[str]) -> int:
    """Points for cards left in a hand: 2-10 face value, J Q K 10, A 11."""
    return sum(CARD_VALUES[card] for card in cards)


def deal_points(
    hands: Sequence[Sequence[str]], winner: int | None, scoring: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each hand's value and each seat's points for the deal (all 0 with scoring off)."""
    values = tuple(hand_value(hand) for hand in hands)
    points = list(values) if scoring else [0] * len(hands)
    if winner is not None:
        points[winner] = 0
    return values, tuple(points)


def game_winners(
    totals: Sequence[int], deal_winner: int | None, *, scoring: bool, match: bool
) -> tuple[int, ...]:
    """Who wins a finished game.

    A match is won by the lowest total (equal lowest totals share). A single deal is won by the
    seat that played out; a blocked single deal has no winner (D.1.10), the seats are then ranked
    by their points alone. Without scoring only playing out wins.
    """
    if scoring and (match or deal_winner is not None):
        low = min(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == low)
    return () if deal_winner is None else (deal_winner,)


def ranking(totals: Sequence[int]) -> list[list[int]]:
    """Seats ranked by points, lowest first; seats with equal points share a place."""
    places: dict[int, list[int]] = {}
    for seat, total in enumerate(totals):
        places.setdefault(total, []).append(seat)
    return [places[total] for total in sorted(places)]
