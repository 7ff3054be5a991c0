"""What the bid-card games say: team names, colours and articles, the refusal builders, and the
events every game shares (made once: events are never changed, see :class:`games.base.Event`).

Kept apart from the engine so that Tuppi and Norwegian Whist word their own texts the same way.
"""

from __future__ import annotations

from typing import Any

from games.base import AgainstRules, Event, Malformed
from games.cards import RANK_NAMES, display, make_deck
from games.seats import seat_ref

BLACK = frozenset("SC")
RED = frozenset("HD")
TEAM_NAMES = ("A", "B")
SEATS = range(4)

# Shared events (never changed: see Event): a card played by a seat, a seat's commitment.
CARD_PLAYED = tuple(
    {
        card: Event(
            "card_played", f"{seat_ref(seat)} plays {display(card)}.", {"seat": seat, "card": card}
        )
        for card in make_deck()
    }
    for seat in SEATS
)
BID_COMMITTED = tuple(
    Event("bid_committed", f"{seat_ref(seat)} has committed a bid.", {"seat": seat})
    for seat in SEATS
)
TRICK_WON_TEXT = tuple(f"{seat_ref(seat)} wins the trick." for seat in SEATS)


def article(card: str) -> str:
    """``a queen``, ``an ace``, ``an eight``."""
    name = RANK_NAMES[card[0]]
    return ("an " if name[0] in "aeiou" else "a ") + name


def colour_of(card: str) -> str:
    return "black" if card[1] in BLACK else "red"


def team_word(team: int) -> str:
    return f"team {TEAM_NAMES[team]}"


def team_title(team: int) -> str:
    """``Team A`` at the start of a sentence (``str.capitalize`` would make it ``Team a``)."""
    return f"Team {TEAM_NAMES[team]}"


def against(text: str, code: str, **params: Any) -> AgainstRules:
    """A refusal with the rule's reason, its stable code and parameters."""
    return AgainstRules(text, code=code, params=params)


def malformed(text: str, **params: Any) -> Malformed:
    return Malformed(text, params=params)
