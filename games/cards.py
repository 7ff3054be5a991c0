"""Card notation shared by every game (see shared/spec/transcripts.md).

A card is its canonical two-character string, rank then suit: ``"TH"`` is the ten of hearts.
Plain strings keep cards hashable, JSON-ready and fast; rank order and card points are per-game
data, never properties of a card. Input is forgiving (``10H``, ``th``, ``10♥``, ``T♥``), output is
always canonical.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}

_SYMBOL_TO_SUIT = {
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
    "\ufe0f": "",
}


class CardError(ValueError):
    """A card token that is not a card; the message names the bad token."""


def parse_card(token: str) -> str:
    """Return the canonical form of a card token, or raise :class:`CardError` naming it."""
    if not isinstance(token, str):
        raise CardError(f"not a card: {token!r}")
    text = token.strip()
    for symbol, letter in _SYMBOL_TO_SUIT.items():
        text = text.replace(symbol, letter)
    text = text.upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise CardError(f"not a card: {token!r}")
    return text


def parse_cards(tokens: Iterable[str]) -> list[str]:
    """Parse several card tokens; the first bad one raises :class:`CardError`."""
    return [parse_card(token) for token in tokens]


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def make_deck(ranks: str = RANKS) -> list[str]:
    """All cards of the given ranks, suit by suit, in a fixed order."""
    return [r + s for s in SUITS for r in ranks]


def display(card: str) -> str:
    """How people see a card: ``10♥``, ``J♠``."""
    shown_rank = "10" if card[0] == "T" else card[0]
    return shown_rank + SUIT_SYMBOLS[card[1]]


def display_suit(suit_letter: str) -> str:
    return SUIT_SYMBOLS[suit_letter]


def card_name(card: str) -> str:
    """Words for a card, for sentences: ``ten of hearts``."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"
