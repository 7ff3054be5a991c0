"""Game transcripts and their replay (shared/spec/transcripts.md).

A transcript is plain JSON: game, options, first dealer, the deals in order and every decision.
:func:`replay` applies it through the checked interface and reports what happened; the first
refused move stops it with ``status: rejected``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Deal, DealError, Game, IllegalMove, Move, OptionError
from games.registry import get_game

FORMAT = 1


class TranscriptError(ValueError):
    """A transcript whose header (format, game, options, deals) is unusable."""


@dataclass
class Transcript:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    first_dealer: int = 0
    deals: list[Deal] = field(default_factory=list)
    moves: list[tuple[int, Move]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "first_dealer": self.first_dealer,
            "deals": [deal.to_json() for deal in self.deals],
            "moves": [{"seat": seat, **move.to_json()} for seat, move in self.moves],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)


def parse_header(data: Any) -> Transcript:
    """The transcript without its moves; raises :class:`TranscriptError` for a bad header."""
    if not isinstance(data, Mapping):
        raise TranscriptError("a transcript is a JSON object")
    if data.get("format") != FORMAT:
        raise TranscriptError(f"unsupported transcript format {data.get('format')!r}")
    game = data.get("game")
    try:
        get_game(str(game))
    except KeyError as error:
        raise TranscriptError(str(error.args[0])) from None
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise TranscriptError("options must be an object")
    first_dealer = data.get("first_dealer", 0)
    if type(first_dealer) is not int or first_dealer < 0:
        raise TranscriptError("first_dealer must be a seat number")
    deals_data = data.get("deals", [])
    if not isinstance(deals_data, list):
        raise TranscriptError("deals must be a list")
    try:
        deals = [Deal.from_json(deal) for deal in deals_data]
    except DealError as error:
        raise TranscriptError(str(error)) from None
    if not isinstance(data.get("moves", []), list):
        raise TranscriptError("moves must be a list")
    return Transcript(str(game), dict(options), first_dealer, deals)


def replay(data: Any) -> dict[str, Any]:
    """Apply a transcript and report, exactly as the spec's replay output describes."""
    try:
        header = parse_header(data)
        game_class = get_game(header.game)
        game: Game = game_class.new(
            header.options, deals=header.deals, first_dealer=header.first_dealer
        )
    except (TranscriptError, OptionError, DealError) as error:
        return {
            "status": "rejected",
            "deals": [],
            "score": None,
            "winner": None,
            "rejected": {"index": None, "move": None, "error": str(error)},
        }
    rejected = None
    for index, raw in enumerate(data.get("moves", [])):
        try:
            seat, move = parse_move(raw, game.players)
            game.apply(seat, move)
        except IllegalMove as error:
            rejected = {"index": index, "move": raw, "error": str(error)}
            break
    output = dict(game.summary())
    output["status"] = "rejected" if rejected else game.status
    if rejected:
        output["rejected"] = rejected
    return {
        key: output[key]
        for key in ("status", "deals", "score", "winner", "rejected")
        if key in output
    }


def parse_move(raw: Any, players: int) -> tuple[int, Move]:
    """A transcript move object as (seat, move); a malformed one is an :class:`IllegalMove`."""
    if not isinstance(raw, Mapping):
        raise IllegalMove("A move must be a JSON object.")
    seat = raw.get("seat")
    if type(seat) is not int or not 0 <= seat < players:
        raise IllegalMove(f"A move needs a seat from 0 to {players - 1}.")
    return seat, Move.from_json(raw)
