"""Exact trick counts from Bo Haglund's double-dummy solver (DDS, through ``endplay``).

DDS answers one question, fast and exactly: four hands of one 52-card deck, ace high, a trump
suit or none, the tricks played so far gone and maybe a trick in progress; with every hand open
and both sides at their best, how many of the tricks left (the one in progress included) does the
side of the seat to play take after each card it may play? That is the card play of Tarneeb and
Egyptian Tarneeb (a trump suit or no trump), Tuppi's rami and Norwegian Whist's grand (no trump),
and only that (:func:`solvable` says ``None`` elsewhere):

- not Thunee (24 cards, 4 or 6 seats, its own ranks and rules) nor Tunge;
- not the low hands, Tuppi's nolo and Norwegian Whist's nullo: there each side wants *fewer*
  tricks, a misère game DDS does not play (it maximises the side to play's tricks);
- not a Tuppi sooli hand (three to a trick, the ace low, the hand stops at the soloist's first
  trick);
- not Tarneeb's first lead under ``trump_declaration: first_lead`` (the card led names the
  trump: there is no trump to give DDS yet).

The position is read by :func:`games.search.tricks.from_world` (the search's fast path, proven
card by card against the engines), so the games' rules are read in one place, and seats map to
DDS's players as they are (seat ``s + 1`` plays after ``s``; north-south is team 0).

endplay's ``solve_board`` solves in DDS's working memory number 0 of the process, so the calls
here are serialised by a lock (the bot's tests decide in threads; its workers are processes).
endplay's objects stay inside this module: the search sees card indexes and trick counts.
endplay is imported on first use (:func:`load`): its package brings its dealer, plotting and
parsers along (about 0.7 s of CPU and 80 MB measured here), which a process that never solves a
trick game's card play (the bot's own, when computers think in worker processes) need not pay;
a worker pays it at its start instead (``bot.thinking``), not inside a decision's budget.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from games.search.tricks import TrickPlay, from_world

if TYPE_CHECKING:
    from endplay.dds.solve import SolvedBoard
    from endplay.types import Deal, Hand

LOW_HANDS = frozenset({"nolo", "nullo"})  # each side wants fewer tricks: not DDS's game
BATCH = 200  # DDS's most boards in one bulk call (MAXNOOFBOARDS)
_LOCK = threading.Lock()


def load() -> None:
    """Import endplay (and with it DDS's library) now rather than at the first solve."""
    import endplay.dds
    import endplay.types  # noqa: F401


def solvable(world: Any) -> TrickPlay | None:
    """The card play of ``world`` as the fast path reads it, if DDS's question is the hand's
    (see the module docstring); ``None`` otherwise."""
    if getattr(world, "hand_type", None) in LOW_HANDS:
        return None
    state = from_world(world)
    if state is None or state.players != 4 or len(state.order) != 4:
        return None
    return state


def _hand(mask: int) -> Hand:
    """endplay's hand of a card mask: one rank mask per suit (S H D C), DDS's 2 at bit 2."""
    from endplay.types import Hand

    suits = (ctypes.c_uint * 4)(*(((mask >> (13 * suit)) & 0x1FFF) << 2 for suit in range(4)))
    return Hand(suits)


def _deal(state: TrickPlay) -> Deal:
    """endplay's deal of ``state``: the hands as they were at the trick's lead, then the
    trick's cards played (DDS takes a trick in progress as the cards played to it)."""
    from endplay.types import Card, Deal, Denom, Player, Rank

    trump = Denom(state.trump) if state.trump >= 0 else Denom.nt
    deal = Deal(first=Player(state.leader), trump=trump)
    hands = state.hands.copy()
    for seat, card in state.trick:
        hands[seat] |= 1 << card
    for seat, hand in enumerate(hands):
        deal[Player(seat)] = _hand(hand)
    for _, card in state.trick:
        deal.play(Card(suit=Denom(card // 13), rank=Rank(1 << (card % 13 + 2))))
    return deal


def _tricks(solved: SolvedBoard) -> dict[int, int]:
    """Card index -> tricks from one of endplay's solved boards."""
    return {
        int(card.suit) * 13 + int(card.rank).bit_length() - 3: int(score) for card, score in solved
    }


def card_tricks(state: TrickPlay) -> dict[int, int]:
    """For each card the seat to play may play (a card index of :mod:`games.search.tricks`),
    the tricks its side takes from the start of the trick in progress to the end of the hand,
    every hand open, both sides at their best."""
    from endplay.dds import solve_board

    deal = _deal(state)
    with _LOCK:
        return _tricks(solve_board(deal))


def cards_tricks(states: Sequence[TrickPlay]) -> list[dict[int, int]]:
    """:func:`card_tricks` of many positions, by DDS's bulk call (its own threads, up to
    :data:`BATCH` positions a call)."""
    from endplay.dds import solve_all_boards

    found: list[dict[int, int]] = []
    for start in range(0, len(states), BATCH):
        deals = [_deal(state) for state in states[start : start + BATCH]]
        with _LOCK:
            solved = solve_all_boards(deals)
        found.extend(_tricks(board) for board in solved)
    return found
