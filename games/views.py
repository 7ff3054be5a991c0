"""The typed contract between a game and the bot: what a seat (or the public) may see.

:meth:`games.base.Game.view` returns a frozen dataclass, one per game family, built on
:class:`TableView` (the keys every game provides, so one renderer serves them all). A family adds
its own fields and names its phases with a :class:`enum.StrEnum` (a member equals its words, so
``view.phase == "playing"`` holds and the renderer prints it as it is).

Reading: attributes (``view.hand``, ``view.trick``). ``to_json()`` gives the plain JSON data of
the view (tuples as lists, absent optional fields left out), for tests and debugging output.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Protocol


class FinishedTrick(Protocol):
    """What a view reads of a finished trick (:class:`games.tricks.TrickRecord` is one), so that
    the views need no import of the tricks module, which imports the rules core above them."""

    @property
    def leader(self) -> int: ...
    @property
    def cards(self) -> tuple[str, ...]: ...
    @property
    def winner(self) -> int: ...
    @property
    def seats(self) -> tuple[int, ...]: ...
    @property
    def points(self) -> int | None: ...


LEAVES = frozenset({str, int, bool, float, type(None)})  # already JSON: most of a view's data


def plain(value: Any) -> Any:
    """JSON-ready data: views and records become dicts, tuples lists, enums their words."""
    if type(value) in LEAVES:
        return value
    if isinstance(value, StrEnum):
        return str(value)
    if isinstance(value, TableView | ViewPart):
        return value.to_json()
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(kind: type) -> tuple[str, ...]:
    """A dataclass's field names, in order (asked for at every ``to_json``: kept per class)."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(item.name for item in dataclasses.fields(kind))
    return names


@dataclass(frozen=True, slots=True)
class ViewPart:
    """A record inside a view (a trick, a claim); ``to_json`` omits its ``OPTIONAL`` Nones."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name in field_names(type(self)):
            value = getattr(self, name)
            if value is None and name in self.OPTIONAL:
                continue
            data[name] = plain(value)
        return data


@dataclass(frozen=True, slots=True)
class LastTrick(ViewPart):
    """The last completed trick: ``(seat, card)`` in order of play, its winner and points."""

    cards: tuple[tuple[int, str], ...]
    winner: int
    points: int | None

    @classmethod
    def of(cls, record: FinishedTrick | None) -> LastTrick | None:
        """The view of a finished trick record (``None``: no trick yet)."""
        if record is None:
            return None
        return cls(
            tuple(zip(record.seats, record.cards, strict=True)), record.winner, record.points
        )


@dataclass(frozen=True, slots=True)
class TrickView(ViewPart):
    """A finished trick of the hand: who led, the cards in order, who won; ``seats`` only when
    not every seat played."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"seats"})

    leader: int
    cards: tuple[str, ...]
    winner: int
    seats: tuple[int, ...] | None = None

    @classmethod
    def of(cls, record: FinishedTrick, players: int) -> TrickView:
        seats = record.seats if len(record.seats) != players else None
        return cls(record.leader, record.cards, record.winner, seats)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView:
    """The keys every game's view has.

    ``phase`` is the family's phase enum; ``prompt`` what the seats to act are deciding (a text
    with seat placeholders); ``hand`` the seat's own cards sorted for display (``None`` in the
    public view); ``trick`` the cards of the trick in progress; ``trump`` a suit letter, ``"NT"``
    or ``None``; ``lines`` further texts (bids, declarations); ``score`` per team or seat;
    ``winning`` the seat whose card wins the trick in progress so far, as far as the viewer can
    tell (``None``: no trick, or it hangs on a trump the viewer does not know).
    """

    #: fields left out of ``to_json`` while they are ``None``
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"hand", "winning"})

    game: str
    players: int
    dealer: int
    phase: StrEnum
    to_act: tuple[int, ...]
    prompt: str
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, str], ...]
    last_trick: LastTrick | None
    trump: str | None
    lines: tuple[str, ...]
    score: tuple[int, ...]
    score_label: str
    hand: tuple[str, ...] | None = None
    winning: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON data (the shape the ``dict`` views had)."""
        data: dict[str, Any] = {}
        optional = self.OPTIONAL
        for name in field_names(type(self)):
            value = getattr(self, name)
            if value is None and name in optional:
                continue
            data[name] = plain(value)
        return data


# ------------------------------------------------------------ Thunee
class ThuneePhase(StrEnum):
    """Where a Thunee hand is (the member's words are what the table shows)."""

    AWAITING_DEAL = "waiting for the deal"
    REDEAL = "weak-hand redeal"
    AUCTION = "calling"
    TRUMP = "setting trump"
    WINDOW = "Thunee window"
    PLAY = "playing"
    OVER = "game over"


#: the engine's phase names and their enum members
THUNEE_PHASES = {
    "awaiting_deal": ThuneePhase.AWAITING_DEAL,
    "redeal": ThuneePhase.REDEAL,
    "auction": ThuneePhase.AUCTION,
    "trump": ThuneePhase.TRUMP,
    "window": ThuneePhase.WINDOW,
    "play": ThuneePhase.PLAY,
    "over": ThuneePhase.OVER,
}


@dataclass(frozen=True, slots=True)
class JodhiClaimView(ViewPart):
    """A Jodhi claim as everyone sees it: the suit only with ``jodhi_reveal_suit``."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"suit"})

    seat: int
    value: int
    cancelled: bool
    suit: str | None = None


@dataclass(frozen=True, slots=True)
class DeclarationView(ViewPart):
    """A Double or Khanaak declared in the last trick, and by whom."""

    kind: str
    seat: int


@dataclass(frozen=True, slots=True)
class ThuneeRules(ViewPart):
    """The rule options a player needs to decide from the view alone."""

    challenge_mode: bool
    khanaak_formula: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ThuneeView(TableView):
    """A Thunee seat's (or the public) view; see the module docstring for what it shows.

    ``turn`` is the seat the hand waits on; ``caller`` the contract's caller or the highest
    caller so far; ``tricks`` this hand's completed tricks; ``jodhi_values`` (own view only) what
    the seat's valid Jodhi claims would score while its team's window is open."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"hand", "winning", "jodhi_values"})

    phase: ThuneePhase
    turn: int | None
    trump_card: str | None
    trump_face_down: bool
    target: int
    hand_number: int
    trumpman: int
    trumper: int | None
    call: int
    caller: int | None
    contract: str
    counting_team: int | None
    counting_target: int
    tricks_won: tuple[int, ...]
    card_points: tuple[int, ...]
    jodhi: tuple[int, ...]
    jodhi_claims: tuple[JodhiClaimView, ...]
    jodhi_window: int | None
    declaration: DeclarationView | None
    set_aside: int
    tricks: tuple[TrickView, ...]
    rules: ThuneeRules
    jodhi_values: Mapping[str, int] | None = None


# ------------------------------------------------------------ Tarneeb and Egyptian Tarneeb
class TarneebPhase(StrEnum):
    """Where a Tarneeb hand is (the member's words are what the table shows)."""

    AUCTION = "auction"
    TRUMP = "naming trump"
    PLAY = "tricks"
    AWAITING_DEAL = "waiting for the deal"
    OVER = "game over"


#: the engine's phase names and their enum members
TARNEEB_PHASES = {
    "auction": TarneebPhase.AUCTION,
    "trump": TarneebPhase.TRUMP,
    "play": TarneebPhase.PLAY,
    "awaiting_deal": TarneebPhase.AWAITING_DEAL,
    "over": TarneebPhase.OVER,
}


@dataclass(frozen=True, slots=True)
class CallView(ViewPart):
    """One call of the auction: ``action`` is bid, pass or double; ``value`` only for a bid;
    ``strain`` the suit (or ``NT``) an Egyptian bid names."""

    seat: int
    action: str
    value: int | None
    strain: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TarneebView(TableView):
    """A Tarneeb (or Egyptian Tarneeb) view: the auction, the contract, the tricks per team and
    ``played``, every card played so far this hand (public; a computer player counts with it)."""

    phase: TarneebPhase
    target: int
    bids: tuple[CallView, ...]
    declarer: int | None
    contract: int | None
    doubled: bool
    team_tricks: tuple[int, ...]
    deal_number: int
    played: tuple[str, ...]


# ------------------------------------------------------------ Tuppi and Norwegian Whist (bid cards)
class BidPhase(StrEnum):
    """Where a bid-card hand is (the member's words are what the table shows)."""

    BIDS = "bids"
    SOOLI = "sooli"
    EXCHANGE = "exchange"
    TRICKS = "tricks"
    AWAITING_DEAL = "waiting for the deal"
    OVER = "game over"


#: the engine's phase names and their enum members
BID_PHASES = {
    "bids": BidPhase.BIDS,
    "sooli": BidPhase.SOOLI,
    "exchange": BidPhase.EXCHANGE,
    "tricks": BidPhase.TRICKS,
    "between": BidPhase.AWAITING_DEAL,
    "over": BidPhase.OVER,
}


@dataclass(frozen=True, slots=True)
class OwnBid(ViewPart):
    """The seat's own committed bid (its own view only); ``card`` is the bid card (``None`` for
    a token or verbal bid)."""

    value: str
    card: str | None


@dataclass(frozen=True, slots=True)
class BidView(ViewPart):
    """A revealed bid: whose, its value and its card (``None`` for a token or verbal bid)."""

    seat: int
    value: str
    card: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class BidCardsView(TableView):
    """A bid-card game's view: who committed a bid, the seat's own bid, the revealed bids, the
    hand's type and declarer, and the tricks won per seat."""

    phase: BidPhase
    committed: tuple[bool, ...]
    own_bid: OwnBid | None
    revealed: tuple[BidView, ...]
    hand_type: str | None
    declarer: int | None
    tricks_won: tuple[int, ...]
    hand_number: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TuppiView(BidCardsView):
    """Tuppi's view: the soloist and the partner sitting out, which team has points (the other
    is *nousussa*), the peaks, and the exchanged card (to the soloist and partner only)."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"hand", "winning", "exchange_card"})

    soloist: int | None
    sitting_out: int | None
    nousussa: int | None
    peaks: tuple[int, ...]
    target: int
    max_hands: int
    exchange_card: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class NorwegianWhistView(BidCardsView):
    """Norwegian Whist's view: the target and the granding team (``None`` in a nullo hand)."""

    target: int
    granding_team: int | None


# ------------------------------------------------------------ Tunge
class TungePhase(StrEnum):
    """Where a Tunge game is (the member's words are what the table shows)."""

    TURNS = "turns"
    END_GAME = "end game"
    AWAITING_DEAL = "awaiting_deal"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class ReferenceView(ViewPart):
    """The reference a play is compared with: rank letters (``(A)``: a phantom ace), cards."""

    ranks: tuple[str, ...]
    cards: tuple[str, ...]
    phantom_ace: bool
    end_game: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TungeView(TableView):
    """A Tunge seat's (or the public) view: the pile, the stock's size, the reference, the cards
    known to have come from the pile per seat, and when finished every hand and the winners."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"hand", "winning", "hand_value", "final_hands", "winners"}
    )

    phase: TungePhase
    pile: tuple[str, ...]
    stock_size: int
    end_game: bool
    reference: ReferenceView | None
    known_cards: tuple[tuple[str, ...], ...]
    turns_taken: int
    turn_limit: int
    pickup_count: str
    deal_number: int
    last_deal: Mapping[str, Any] | None
    final_hands: tuple[tuple[str, ...], ...] | None = None
    winners: tuple[int, ...] | None = None
    hand_value: int | None = None
