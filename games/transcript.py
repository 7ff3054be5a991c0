"""Game transcripts and their replay (shared/spec/transcripts.md).

A transcript is plain JSON: game, options, first dealer, the deals in order and every decision.
:func:`replay` applies it through the checked interface and reports what happened; the first
refused move stops it with ``status: rejected``. A transcript may also come wrapped as the
repository's golden examples are, ``{"description", "transcript", "expected"}``: :func:`unwrap`.
:func:`pretty` turns a replay into text a person reads (one trick or turn per line).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Deal, DealError, Game, IllegalMove, Move, OptionError
from games.cards import display
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


@dataclass(frozen=True)
class Wrapped:
    """A transcript as found in a file: bare, or wrapped with a description and expectation."""

    transcript: Any
    description: str | None = None
    expected: Any = None


def unwrap(data: Any) -> Wrapped:
    """Accept both the bare transcript and ``{"description", "transcript", "expected"}``."""
    if isinstance(data, Mapping) and "format" not in data and "transcript" in data:
        description = data.get("description")
        return Wrapped(
            data["transcript"],
            description if isinstance(description, str) else None,
            data.get("expected"),
        )
    return Wrapped(data)


def pretty(output: Mapping[str, Any], wrapped: Wrapped) -> str:
    """The replay as a person reads it: a header, each deal's tricks (or turns) one per line,
    each deal's result and score, then the outcome or the refused move."""
    data = wrapped.transcript if isinstance(wrapped.transcript, Mapping) else {}
    lines = [_heading(data)]
    if wrapped.description:
        lines.append(wrapped.description)
    for number, deal in enumerate(output.get("deals") or [], start=1):
        lines.append("")
        dealer = f" · dealer seat {deal['dealer']}" if deal.get("dealer") is not None else ""
        lines.append(f"Deal {number}{dealer}")
        for index, trick in enumerate(deal.get("tricks") or [], start=1):
            cards = " ".join(_shown(card) for card in trick.get("cards", []))
            won = f"  won by seat {trick['winner']}" if trick.get("winner") is not None else ""
            lines.append(f"  trick {index:2}: seat {trick.get('leader')} leads  {cards}{won}")
        for turn in deal.get("turns") or []:
            lines.append(f"  {_turn(turn)}")
        if deal.get("result") is not None:
            lines.append(f"  result: {_compact(deal['result'])}")
        if deal.get("score_after") is not None:
            lines.append(f"  score after: {_compact(deal['score_after'])}")
    lines.append("")
    status = str(output.get("status", "?")).replace("_", " ")
    summary = f"{status.capitalize()} · score {_compact(output.get('score'))}"
    if output.get("winner") is not None:
        summary += f" · winner {_compact(output['winner'])}"
    lines.append(summary)
    rejected = output.get("rejected")
    if rejected:
        lines.append(rejection_line(rejected))
    return "\n".join(lines)


def rejection_line(rejected: Mapping[str, Any]) -> str:
    """One line: which move was refused and why (or why the header was)."""
    if rejected.get("index") is None:
        return f"Rejected before the first move: {rejected.get('error')}"
    move = rejected.get("move")
    shown = _move(move) if isinstance(move, Mapping) else repr(move)
    return f"Rejected at move {rejected['index']} ({shown}): {rejected.get('error')}"


def _heading(data: Mapping[str, Any]) -> str:
    name = str(data.get("game", "?"))
    try:
        title = get_game(name).title
    except KeyError:
        title = name
    parts = [title]
    options = data.get("options")
    if isinstance(options, Mapping) and options:
        parts.append("options " + ", ".join(f"{k}={_compact(v)}" for k, v in options.items()))
    if data.get("first_dealer") is not None:
        parts.append(f"first dealer seat {data['first_dealer']}")
    return " · ".join(parts)


def _turn(turn: Mapping[str, Any]) -> str:
    text = _move(turn)
    if turn.get("pickup"):
        text += f" · picks up {_compact(turn['pickup'])}"
    if turn.get("stock_left") is not None:
        text += f" · {turn['stock_left']} left to draw"
    return text


def _move(move: Mapping[str, Any]) -> str:
    words = [f"seat {move.get('seat')}", str(move.get("action", "?"))]
    for key in ("card", "cards", "value", "suit", "trump", "call", "bid"):
        if key in move and move[key] is not None and key != move.get("action"):
            words.append(_compact(move[key]))
    return " ".join(words)


def _shown(card: Any) -> str:
    text = str(card)
    try:
        return display(text) if len(text) == 2 else text
    except KeyError:
        return text


def _compact(value: Any) -> str:
    """Short text for a result field: cards with suit symbols, lists with ' · '."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_compact(v)}" for k, v in value.items() if v is not None)
    if isinstance(value, list | tuple):
        if value and all(isinstance(item, str) and len(item) == 2 for item in value):
            return " ".join(_shown(item) for item in value)  # cards
        return " · ".join(_compact(item) for item in value) if value else "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return _shown(value) if len(value) == 2 and value[0] in "23456789TJQKA" else value
    return str(value)
