"""The state of a Tarneeb game, typed: the game's totals and the current hand.

Every attribute is annotated, so :func:`games.state.clone` copies the game by its annotations.
The rules live in the layers built on this class, one concept per module: scoring, play,
auction, reasons, view and the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.base import Event, Game
from games.tarneeb.moves import Call
from games.tricks import HandRecord, TrickRecord


@dataclass(init=False, eq=False, repr=False)
class TarneebState(Game):
    """The attributes of both Tarneeb games; the layers above add the rules that change them."""

    teams = True
    egyptian: ClassVar[bool] = False
    player_module = "games.players.tarneeb"

    seed: int | None
    dealer: int
    deal_no: int
    phase: str  # auction | trump | play | awaiting_deal | over
    hands: list[list[str]]
    turn: int
    calls: list[Call]
    high: int  # tarneeb: bid value; egyptian: level * 5 + strain index; 0 = none
    high_bidder: int
    high_strain: str | None
    doubled: bool
    passed: list[bool]
    quiet: int  # egyptian: consecutive passes/doubles
    declarer: int
    contract: int
    trump: str | None
    trick: list[tuple[int, str]]
    tricks: list[TrickRecord]
    team_tricks: list[int]
    score: list[int]
    records: list[HandRecord]
    winner: int | None
    played: set[str]

    def _start_deal(self) -> list[Event]:
        """Deal the next hand (the engine does it; scoring and a throw-in call it)."""
        raise NotImplementedError
