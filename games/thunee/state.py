"""Thunee's state, typed: the table's constants, the game's totals and the current hand.

Terms: a *hand* is one deal with its tricks and scoring; a *ball* is one game point. The
*trumpman* is the dealer's right-hand player ``D+1``; the *trumper* ``T`` is the trumpman or the
highest caller, and his opponents are the *counting team*.

Every attribute is annotated, so :func:`games.state.clone` copies the game by its annotations
(no hand-written clone to keep in step). Values annotated ``Sequence``/``Mapping`` are replaced,
never changed in place, and are shared by clones. The rules live in the layers built on this
class, one concept per module: scoring, claims, play, auction, reasons, view and the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.base import Deal, Event, Game, Move, Status
from games.tricks import HandRecord, TrickRecord


@dataclass(slots=True)
class JodhiClaim:
    """One Jodhi claim of this hand. ``valid`` is hidden (challenge mode accepts false claims)."""

    seat: int
    suit: str
    value: int
    valid: bool
    cancelled: bool = False
    murial: bool = False


@dataclass(init=False, eq=False, repr=False, slots=True)
class ThuneeState(Game):
    """The attributes of a Thunee game; the layers above add the rules that change them.

    Slots, not instance-dict entries (a game has about 60 attributes). The layers above add no
    attributes of their own."""

    # --- constants per table ---
    seed: int | None
    _seats: frozenset[int]  # the seat numbers: a faster test than 0 <= seat < players
    pk1: int  # first packet per seat
    pk2: int  # second packet per seat
    hand_len: int
    half_tricks: int
    total_tricks: int
    count_target: int
    jodhi_close: int  # a Jodhi window closes when this many cards of the next trick are down
    _challenge: bool
    _undercut: bool
    _single_step: bool
    # the calling's move lists by the standing call (-1: a seat of the holding team), shared
    _auction_table: Mapping[int, list[Move]]
    # --- the game ---
    balls: list[int]
    khanaak_called: bool
    dealer: int
    winner_team: int | None
    records: list[HandRecord]
    deal_no: int
    # --- the hand ---
    phase: str  # awaiting_deal, redeal, auction, trump, window, play, over
    cur: Deal | None
    hands: list[list[str]]
    received: int  # cards of the deal handed out so far per seat
    trumpman: int
    trumper: int | None
    call: int
    high_seat: int | None
    calls: list[tuple[int, int]]
    atturn: int
    passes: int
    trump: str | None
    trump_card: str | None
    trump_down: bool
    trump_unseen: bool
    last_card: bool
    revealed: str | None
    contract: str
    caller: int | None
    set_aside: list[str]
    turn: int
    trick: list[tuple[int, str]]
    tricks_done: int
    winners: list[int]
    team_won: list[int]
    points: list[int]
    claims: list[JodhiClaim]
    jodhi_tot: list[int]
    claimed: set[tuple[int, str]]
    jodhi_team: int | None
    pending: list[int]
    declaration: str | None
    declarer: int | None
    illegal: set[int]  # hidden: seats that made an illegal play (challenge mode)
    lines: list[str]
    last_trick: TrickRecord | None
    # --- caches, rebuilt after every change and shared by clones ---
    _legal: Sequence[Sequence[Move]] | None
    _acting: tuple[int, ...]  # the seats with a legal move (to_act), set with _legal
    # --- Game.status as a plain attribute, not a property: every play loop reads it after every
    # move. "awaiting_deal" in that phase, "finished" once "over", else "in_progress"; set where
    # the phase enters or leaves those two (_reset_hand, _start_hand, _award).
    status: Status

    def _start_hand(self, events: list[Event]) -> None:
        """Deal the next hand (the engine does it; scoring calls it when a hand ends)."""
        raise NotImplementedError
