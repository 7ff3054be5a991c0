"""Tunge's state as typed values: the deal in progress, the records of past turns and deals.

Records are immutable once written (named tuples and frozen dataclasses), so a clone shares them;
only the containers that moves change are copied, which keeps :meth:`TungeState.clone` cheap (the
bot clones before every move). ``to_json`` gives the replay output's shapes
(shared/spec/transcripts.md) with their keys in the order the replay has always printed them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from games.tunge.grammar import NO_REFERENCE, Lvs, RankIndex, Reference


@dataclass(frozen=True, slots=True)
class Pickup:
    """A forced pick-up: who took how many cards from where; the rest was forgiven."""

    seat: int
    count: int
    from_stock: int
    from_pile: tuple[str, ...]
    forgiven: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "count": self.count,
            "from_stock": self.from_stock,
            "from_pile": list(self.from_pile),
            "forgiven": self.forgiven,
        }


class Turn(NamedTuple):
    """One move of a deal as the replay reports it.

    ``source`` is where a draw came from (``stock`` or ``pile``), ``card`` the card drawn from
    the pile (a stock card stays secret); ``reference`` is the reference before a play.
    """

    seat: int
    action: str
    cards: tuple[str, ...] = ()
    reference: tuple[str, ...] = ()
    matches: int = 0
    pickup: Pickup | None = None
    source: str = ""
    card: str = ""
    stock_left: int = 0
    hand_sizes: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "action": self.action}
        if self.action == "play":
            data["cards"] = list(self.cards)
            data["reference"] = list(self.reference) or None
            data["matches"] = self.matches
            data["pickup"] = None if self.pickup is None else self.pickup.to_json()
        elif self.action == "draw":
            data["from"] = self.source
            if self.source == "pile":
                data["card"] = self.card
        data["stock_left"] = self.stock_left
        data["hand_sizes"] = list(self.hand_sizes)
        return data


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: its winner (None when blocked, with the reason) and the points."""

    winner: int | None
    blocked: str | None
    turns: int
    hand_values: tuple[int, ...]
    points: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]  # sorted for display

    def to_json(self, *, hands: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "winner": self.winner,
            "blocked": self.blocked,
            "turns": self.turns,
            "hand_values": list(self.hand_values),
            "points": list(self.points),
        }
        if hands:
            data["hands"] = [list(hand) for hand in self.hands]
        return data


#: A turn as the engine records it: :class:`Turn`'s fields up to ``card`` in a plain tuple (a named
#: tuple costs several times as much to make, and every move makes one; the summary reads few).
#: The stock left and the hand sizes after the turn are counted when the turns are read, so the
#: row of a draw or a pass holds nothing that changes from deal to deal and is made once.
TurnRow = tuple[int, str, tuple[str, ...], tuple[str, ...], int, Pickup | None, str, str]


@dataclass(slots=True)
class DealRecord:
    """A deal's entry in the summary: its turns, then its result and the totals after it.

    ``rows`` holds the turns as the engine records them (:data:`TurnRow`), ``hand_sizes`` and
    ``stock`` are the sizes before the first; :attr:`turns` reads them as :class:`Turn` values.
    """

    hand_sizes: tuple[int, ...]
    stock: int
    rows: list[TurnRow] = field(default_factory=list)
    result: DealResult | None = None
    score_after: tuple[int, ...] | None = None

    @property
    def turns(self) -> list[Turn]:
        sizes = list(self.hand_sizes)
        stock = self.stock
        turns = []
        for row in self.rows:
            seat, action, cards, _, _, pickup, source, _ = row
            if action == "draw":
                sizes[seat] += 1
                if source == "stock":
                    stock -= 1
            elif action == "play":
                sizes[seat] -= len(cards)
                if pickup is not None:
                    sizes[pickup.seat] += pickup.from_stock + len(pickup.from_pile)
                    stock -= pickup.from_stock
            turns.append(Turn(*row, stock, tuple(sizes)))
        return turns

    def clone(self) -> DealRecord:
        return DealRecord(
            self.hand_sizes, self.stock, list(self.rows), self.result, self.score_after
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "tricks": [],
            "turns": [turn.to_json() for turn in self.turns],
            "result": None if self.result is None else self.result.to_json(),
            "score_after": None if self.score_after is None else list(self.score_after),
        }


@dataclass(slots=True)
class DealState:
    """The deal in progress. ``stock`` has its top card last, ``pile`` its top card last.

    ``known`` holds, per seat, the cards it took from the face-up pile (public until played
    again). ``positions`` counts end-game positions per seat to act by their Zobrist hash (see
    the engine); ``zobrist`` is that hash of every hand and of the pile in order, kept up to date
    move by move in the end game (0 before it: nothing reads it). ``ranked`` is each hand by
    rank (:class:`RankIndex`), changed with the hand card by card. ``ref`` is the reference now
    as the rules read it (in the end game an :class:`Lvs`). In the end game ``refs`` holds the
    reference of the pile at each height from 0 (``refs[-1]`` is ``ref``), so a card drawn from
    the pile uncovers the reference below and a card played finds its own with
    :meth:`Lvs.then`; it is empty before the end game.
    """

    hands: list[list[str]]
    stock: list[str]
    pile: list[str]
    turn: int
    known: list[set[str]]
    ranked: list[RankIndex]
    last_play: tuple[str, ...] = ()
    last_play_seat: int | None = None
    last_matches: int = 0
    turns_taken: int = 0
    passes: int = 0
    zobrist: int = 0
    positions: list[dict[int, int]] = field(default_factory=list)
    ref: Reference | Lvs = NO_REFERENCE
    refs: list[Lvs] = field(default_factory=list)

    def clone(self) -> DealState:
        return DealState(
            [list(hand) for hand in self.hands],
            list(self.stock),
            list(self.pile),
            self.turn,
            [set(cards) for cards in self.known],
            [index.copy() for index in self.ranked],
            self.last_play,
            self.last_play_seat,
            self.last_matches,
            self.turns_taken,
            self.passes,
            self.zobrist,
            [seen.copy() for seen in self.positions],
            self.ref,
            list(self.refs),
        )


@dataclass(slots=True)
class TungeState:
    """Everything a Tunge game changes as it is played (options and deals live on the game).

    ``in_deal`` is false between deals of an unseeded match waiting for its next deal.
    """

    dealer: int
    deal_index: int
    totals: list[int]
    deal: DealState
    records: list[DealRecord] = field(default_factory=list)
    in_deal: bool = False
    finished: bool = False
    winners: tuple[int, ...] = ()

    def clone(self) -> TungeState:
        records = [*self.records[:-1], self.records[-1].clone()] if self.records else []
        return TungeState(
            self.dealer,
            self.deal_index,
            list(self.totals),
            self.deal.clone(),
            records,
            self.in_deal,
            self.finished,
            self.winners,
        )
