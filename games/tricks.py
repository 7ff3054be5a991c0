"""The trick-taking vocabulary every trick game shares: following suit, a trick's winner, records.

Thunee, Tarneeb and the bid-card games (Tuppi, Norwegian Whist) all play tricks the same way:
the first card of a trick sets the suit led, a player who holds that suit must follow it, and the
trick goes to the highest trump, else to the highest card of the suit led. What differs per game is
only data: the trump (or none) and the rank order, given here as a *strength* table from card to
number (higher wins). Games add their own restrictions on top (Thunee's undercut rule).

A trick in progress is a sequence of ``(seat, card)`` pairs in order of play. A finished trick is a
:class:`TrickRecord`, and a hand's tricks and result a :class:`HandRecord`; both are frozen or
plainly typed so that :mod:`games.state` clones them cheaply, and both give the replay summary's
JSON in the exact shape shared/spec/transcripts.md describes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from games.base import Deal, Move
from games.cards import SUITS, make_deck

Trick = Sequence[tuple[int, str]]
"""A trick in progress: ``(seat, card)`` in order of play."""

PlayProblem = Literal["not_in_hand", "must_follow"]

PLAY: dict[str, Move] = {card: Move.of("play", card=card) for card in make_deck()}
"""The ``play`` move of every card of the 52-card deck (shared, so legal-move lists are cheap)."""


def strength_table(order: str, suits: str = SUITS) -> dict[str, int]:
    """Card → strength for ranks listed from low to high (``"23456789TJQKA"``: ace high)."""
    return {rank + suit: index for suit in suits for index, rank in enumerate(order)}


def led_suit(trick: Trick) -> str | None:
    """The suit of the trick's first card, or ``None`` before the lead."""
    return trick[0][1][1] if trick else None


def playable(hand: Sequence[str], trick: Trick) -> Sequence[str]:
    """The cards of ``hand`` that follow suit: the suit led if held, else the whole hand.

    Returns ``hand`` itself (not a copy) when every card may be played.
    """
    if not trick:
        return hand
    led = trick[0][1][1]
    return [card for card in hand if card[1] == led] or hand


def play_moves(hand: Sequence[str], trick: Trick) -> list[Move]:
    """The ``play`` moves of :func:`playable` (cards of the 52-card deck), in hand order."""
    if trick:
        led = trick[0][1][1]
        same = [PLAY[card] for card in hand if card[1] == led]
        if same:
            return same
    return [PLAY[card] for card in hand]


def play_problem(hand: Sequence[str], trick: Trick, card: str) -> PlayProblem | None:
    """Why ``card`` may not be played to ``trick`` from ``hand`` under follow-suit, or ``None``."""
    if card not in hand:
        return "not_in_hand"
    if trick:
        led = trick[0][1][1]
        if card[1] != led:
            for held in hand:
                if held[1] == led:
                    return "must_follow"
    return None


def is_legal_play(move: Move, hand: Sequence[str], trick: Trick) -> bool:
    """Whether ``move`` is exactly a ``play`` of a card that :func:`playable` allows.

    Agrees with :func:`play_moves`; type-strict, so a malformed field is never taken for a card.
    """
    fields = move.fields
    if move.action != "play" or len(fields) != 1 or fields[0][0] != "card":
        return False
    card = fields[0][1]
    if type(card) is not str or card not in hand:
        return False
    if trick:
        led = trick[0][1][1]
        if card[1] != led:
            for held in hand:
                if held[1] == led:
                    return False
    return True


def trick_winner(trick: Trick, trump: str | None, strength: Mapping[str, int]) -> int:
    """The seat that wins ``trick`` (complete or so far).

    The highest trump wins, else the highest card of the suit led; ``trump`` may be ``None`` or
    any non-suit (``"NT"``) for no trump. ``strength`` ranks cards within a suit.
    """
    best_seat, best_card = trick[0]
    for seat, card in trick[1:]:
        suit = card[1]
        best_suit = best_card[1]
        if suit == best_suit:
            if strength[card] > strength[best_card]:
                best_seat, best_card = seat, card
        elif suit == trump:
            best_seat, best_card = seat, card
    return best_seat


def winning_so_far(
    trick: Trick, trump: str | None, strength: Mapping[str, int], trump_known: bool = True
) -> int | None:
    """Who wins ``trick`` so far as a viewer can tell: ``None`` before the lead, and, while the
    trump is hidden from the viewer, ``None`` once a card off the suit led might be a trump."""
    if not trick:
        return None
    if trump_known:
        return trick_winner(trick, trump, strength)
    led = trick[0][1][1]
    if any(card[1] != led for _, card in trick):
        return None
    return trick_winner(trick, None, strength)


def deal_round(deck: Sequence[str], players: int, first: int) -> Deal:
    """Deal ``deck`` one card at a time, starting with seat ``first``, until it runs out."""
    hands = [tuple(deck[(seat - first) % players :: players]) for seat in range(players)]
    return Deal(tuple(hands))


# Each card's place in a sorted hand, per suit order and strength table (by identity: the
# tables are the games' module constants, kept here so that an identity is never reused).
_PLACES: dict[tuple[str, int], tuple[Mapping[str, int], dict[str, int]]] = {}


def sort_hand(cards: Iterable[str], suit_order: str, strength: Mapping[str, int]) -> list[str]:
    """Cards for display: by suit in ``suit_order``, strongest first within a suit.

    Every view sorts its hands, so each card's place is worked out once per suit order and
    strength table (card by card, the sort was a third of a Tarneeb seat's view at the deal)."""
    known = _PLACES.get((suit_order, id(strength)))
    if known is None or known[0] is not strength:
        if len(_PLACES) >= 64:  # tables made on the fly (tests): the memo stays small
            _PLACES.clear()
        high, low = max(strength.values(), default=0), min(strength.values(), default=0)
        places = {  # by suit, then strongest first: one number to compare
            card: suit_order.index(card[1]) * (high - low + 1) + high - value
            for card, value in strength.items()
        }
        known = _PLACES[suit_order, id(strength)] = (strength, places)
    return sorted(cards, key=known[1].__getitem__)


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A finished trick: who led, the cards in order of play, who won (and its card points)."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    seats: tuple[int, ...]
    points: int | None = None

    @classmethod
    def of(cls, trick: Trick, winner: int, points: int | None = None) -> TrickRecord:
        seats, cards = zip(*trick, strict=True)
        return cls(trick[0][0], cards, winner, seats, points)

    @property
    def plays(self) -> list[tuple[int, str]]:
        """The trick as ``(seat, card)`` pairs again."""
        return list(zip(self.seats, self.cards, strict=True))

    def to_json(self, players: int) -> dict[str, Any]:
        """The summary's trick: ``leader``, ``cards``, ``winner``, and ``seats`` when not every
        seat played (a seat sitting out)."""
        data: dict[str, Any] = {
            "leader": self.leader,
            "cards": list(self.cards),
            "winner": self.winner,
        }
        if len(self.seats) != players:
            data["seats"] = list(self.seats)
        return data

    def last_trick(self) -> dict[str, Any]:
        """The views' ``last_trick``: ``{"cards": [[seat, card], ...], "winner", "points"}``."""
        return {
            "cards": [[seat, card] for seat, card in zip(self.seats, self.cards, strict=True)],
            "winner": self.winner,
            "points": self.points,
        }


@dataclass(slots=True)
class HandRecord:
    """One deal of a game for the replay summary: its tricks, its result and the totals after.

    ``result`` is built once, when the hand ends, and never changed after (so clones share it);
    ``dealer`` is given only by games whose summary names the dealer of every deal.
    """

    tricks: list[TrickRecord] = field(default_factory=list)
    result: Mapping[str, Any] | None = None
    score_after: tuple[int, ...] | None = None
    dealer: int | None = None

    def finish(self, result: Mapping[str, Any], score: Sequence[int]) -> None:
        self.result = result
        self.score_after = tuple(score)

    def to_json(self, players: int) -> dict[str, Any]:
        data: dict[str, Any] = {} if self.dealer is None else {"dealer": self.dealer}
        data["tricks"] = [trick.to_json(players) for trick in self.tricks]
        data["result"] = plain(self.result)
        data["score_after"] = None if self.score_after is None else list(self.score_after)
        return data


def plain(value: Any) -> Any:
    """A fresh JSON-ready copy: mappings become dicts, sequences lists (strings stay)."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value
