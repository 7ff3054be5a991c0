"""The next-to-last trick, solved: the card that takes the most tricks over every possible lie.

With two cards left in each hand, a seat that remembers the tricks played (the deal's public
history) knows which cards are still out, and which seats are void in a suit (they did not
follow it). Every way those cards can lie in the other hands is enumerated (a few dozen), each
played out exactly with every hand open (both sides' best cards for the last two tricks), and
the card with the most tricks on average is played (the fewest, in a hand where tricks count
against the seat). A human at the table does the same count; the heuristic's card stays when it
is as good as any.

Tarneeb, Egyptian Tarneeb, Tuppi and Norwegian Whist, four seats to a trick (a Tuppi sooli hand
is left to the heuristic).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from games.base import Move
from games.players import Seen
from games.tricks import strength_table, trick_winner

ACE_HIGH = strength_table("23456789TJQKA")
DECK = tuple(ACE_HIGH)
LOW_HANDS = frozenset({"nolo", "nullo"})
HIGH_HANDS = frozenset({"rami", "grand"})
CARDS_LEFT = 2  # in the seat's hand: the next-to-last trick


def _history_tricks(seen: Seen) -> tuple[set[str], list[set[str]]] | None:
    """The cards played in the deal and each seat's known voids (``None`` when a play is
    hidden or the tricks are not of four cards)."""
    played: set[str] = set()
    voids: list[set[str]] = [set() for _ in range(4)]
    trick: list[tuple[int, str]] = []
    for mover, move in seen.history:
        if move is None:
            continue
        if move.action != "play":
            continue
        card = move.get("card")
        if not isinstance(card, str):
            return None
        if trick and card[1] != trick[0][1][1]:
            voids[mover].add(trick[0][1][1])
        trick.append((mover, card))
        played.add(card)
        if len(trick) == 4:
            trick = []
    if [(seat, card) for seat, card in trick] != list(seen.view.trick):
        return None  # the history's tricks do not end in the view's trick
    return played, voids


def _lies(
    unseen: Sequence[str], seats: Sequence[int], sizes: Sequence[int], voids: list[set[str]]
) -> list[dict[int, tuple[str, ...]]]:
    """Every split of ``unseen`` into the ``seats``' hands of ``sizes``, respecting voids."""
    if not seats:
        return [{}] if not unseen else []
    seat, size = seats[0], sizes[0]
    found = []
    for hand in combinations(unseen, size):
        if any(card[1] in voids[seat] for card in hand):
            continue
        rest = [card for card in unseen if card not in hand]
        for others in _lies(rest, seats[1:], sizes[1:], voids):
            found.append({seat: hand, **others})
    return found


def _legal(hand: Sequence[str], trick: Sequence[tuple[int, str]]) -> list[str]:
    if trick:
        follow = [card for card in hand if card[1] == trick[0][1][1]]
        if follow:
            return follow
    return list(hand)


def _solve(
    hands: Mapping[int, tuple[str, ...]],
    trick: tuple[tuple[int, str], ...],
    turn: int,
    team: int,
    trump: str | None,
    fewest: bool = False,
) -> int:
    """The tricks ``team`` takes from here, every hand open, both sides at their best: ``team``
    taking the most, or with ``fewest`` (a low hand: each side wants fewer) the fewest while
    the others force the most on it (not the negated high count: see
    :func:`games.search.tricks.best_tricks`)."""
    if len(trick) == 4:
        winner = trick_winner(trick, trump, ACE_HIGH)
        won = int(winner % 2 == team)
        if not hands[winner]:
            return won
        if len(hands[winner]) == 1:  # the last trick: every card is forced
            last = tuple(((winner + step) % 4, hands[(winner + step) % 4][0]) for step in range(4))
            return won + int(trick_winner(last, trump, ACE_HIGH) % 2 == team)
        return won + _solve(hands, (), winner, team, trump, fewest)
    results = []
    for card in _legal(hands[turn], trick):
        rest = dict(hands)
        rest[turn] = tuple(other for other in hands[turn] if other != card)
        results.append(_solve(rest, (*trick, (turn, card)), (turn + 1) % 4, team, trump, fewest))
    return max(results) if (turn % 2 == team) != fewest else min(results)


def endgame_card(seen: Seen, usual: Move) -> Move:
    """The card for the next-to-last trick (see the module docstring); ``usual`` (the
    heuristic's card) elsewhere, or when no card is better."""
    view = seen.view
    hand = tuple(view.hand or ())
    if len(hand) != CARDS_LEFT or len(seen.legal) < 2 or not seen.history:
        return usual
    game = view.game
    if game in ("tarneeb", "tarneeb_egyptian"):
        trump = view.trump if view.trump in ("S", "H", "D", "C") else None
        wants = True
    elif game in ("tuppi", "norwegian_whist"):
        hand_type = getattr(view, "hand_type", None)
        if hand_type not in LOW_HANDS | HIGH_HANDS:
            return usual
        trump, wants = None, hand_type in HIGH_HANDS
    else:
        return usual
    known = _history_tricks(seen)
    if known is None or view.players != 4:
        return usual
    played, voids = known
    seat = seen.seat
    unseen = [card for card in DECK if card not in played and card not in hand]
    others = [other for other in range(4) if other != seat]
    sizes = [view.hand_sizes[other] for other in others]
    if sum(sizes) != len(unseen):
        return usual
    lies = _lies(unseen, others, sizes, voids)
    if not lies:
        return usual
    trick = tuple(view.trick)
    sign = 1 if wants else -1

    def mean(move: Move) -> float:
        card = move.get("card")
        total = 0
        for lie in lies:
            hands = {**lie, seat: tuple(other for other in hand if other != card)}
            total += _solve(
                hands, (*trick, (seat, card)), (seat + 1) % 4, seat % 2, trump, not wants
            )
        return sign * total / len(lies)

    values = {move: mean(move) for move in seen.legal}
    best = max(values.values())
    return usual if values[usual] >= best else max(values, key=values.__getitem__)
