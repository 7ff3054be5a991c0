"""The moves of both Tarneeb games (shared objects: legal lists are rebuilt every turn), a call
of the auction, and the words for bids and teams that every text uses."""

from __future__ import annotations

from games.base import Move
from games.cards import SUIT_NAMES
from games.tricks import PLAY

PLAY_MOVES: dict[str, Move] = PLAY
PASS = Move.of("pass")
DOUBLE = Move.of("double")
TRUMP_MOVES: dict[str, Move] = {s: Move.of("trump", suit=s) for s in ("S", "H", "D", "C", "NT")}
BID_MOVES: dict[int, Move] = {v: Move.of("bid", value=v) for v in range(7, 14)}
KNOWN_ACTIONS = frozenset({"play", "trump", "bid", "pass", "double"})

STRAIN_WORDS = {**SUIT_NAMES, "NT": "no trump"}
TEAM_NAMES = ("{s0} & {s2}", "{s1} & {s3}")

Call = tuple[int, str, int, str | None]
"""One call of the auction: (seat, action, value, strain)."""


def bid_words(value: int, strain: str | None) -> str:
    return str(value) if strain is None else f"{value} {STRAIN_WORDS[strain]}"
