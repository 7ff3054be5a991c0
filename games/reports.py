"""Reported positions: a computer's card play, as its seat saw it, kept for the blunder suite.

A player at a table says a computer played badly at a trick of a finished hand. What is kept is
what the computer decided from: :func:`games.players.seen_for` at the hard level (the seat's own
view, its legal moves and the deal's public history as that seat saw it), built by replaying the
game's moves through the rules up to that play, and the card it played. Never the deal: a
report holds no card the seat could not see then. :func:`position` builds it (plain JSON),
:func:`seen_of` reads it back as a :class:`~games.players.Seen` for the blunder checks.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Union, get_args, get_origin, get_type_hints

from games import views
from games.base import Game, Move
from games.players import Seen, seen_for
from games.registry import get_game

FORMAT = 1


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to a trick: the hand (from 1), the trick in it (from 1), the seat, the
    card, and how many moves of the game came before it."""

    hand: int
    trick: int
    seat: int
    card: str
    before: int


def hand_plays(game: Game, moves: Sequence[tuple[int, Move]], upto: int) -> list[Play]:
    """The card plays of the hand the first ``upto`` moves finished, replayed on ``game`` (a
    new game of the transcript: it is played on)."""
    hand, trick, found = 1, 1, []
    for index, (seat, move) in enumerate(moves[:upto]):
        card = move.get("card")
        if move.action == "play" and isinstance(card, str):
            found.append(Play(hand, trick, seat, card, index))
        events = game.apply(seat, move)
        if any(event.kind == "trick_won" for event in events):
            trick += 1
        if any(event.kind == "hand_scored" for event in events) and index + 1 < upto:
            hand, trick, found = hand + 1, 1, []
    return found


def position(game: Game, moves: Sequence[tuple[int, Move]], play: Play) -> dict[str, Any]:
    """The reported position of ``play`` as plain JSON: ``game`` (a new game of the transcript)
    is replayed to just before it, and the seat's decision taken as the hard level sees it."""
    for seat, move in moves[: play.before]:
        game.apply(seat, move)
    seen = seen_for(game, play.seat, "hard")
    return {
        "format": FORMAT,
        "game": seen.view.game,
        "options": dict(seen.options),
        "hand": play.hand,
        "trick": play.trick,
        "seat": play.seat,
        "played": moves[play.before][1].to_json(),
        "view_type": type(seen.view).__name__,
        "view": seen.view.to_json(),
        "legal": [move.to_json() for move in seen.legal],
        "history": [[s, None if m is None else m.to_json()] for s, m in seen.history],
    }


def seen_of(data: Mapping[str, Any]) -> tuple[Seen, Move]:
    """A reported position read back: what the seat saw, and the move it made."""
    if data.get("format") != FORMAT:
        raise ValueError(f"unsupported report format {data.get('format')!r}")
    view_type = getattr(views, str(data["view_type"]), None)
    if not (isinstance(view_type, type) and issubclass(view_type, views.TableView)):
        raise ValueError(f"unknown view type {data['view_type']!r}")
    rules = get_game(str(data["game"]))
    seen = Seen(
        int(data["seat"]),
        _record(view_type, data["view"]),
        tuple(Move.from_json(move) for move in data["legal"]),
        rules,
        dict(data["options"]),
        tuple(
            (int(seat), None if move is None else Move.from_json(move))
            for seat, move in data["history"]
        ),
    )
    return seen, Move.from_json(data["played"])


def _record(cls: type[Any], data: Mapping[str, Any]) -> Any:
    """A view (or a record in one) from its ``to_json`` data, by its fields' types."""
    hints = get_type_hints(cls, vars(views))
    given = {
        item.name: _value(hints[item.name], data[item.name])
        for item in dataclasses.fields(cls)
        if item.init and item.name in data
    }
    return cls(**given)


def _value(kind: Any, value: Any) -> Any:
    if value is None:
        return None
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, types.UnionType):
        (inner,) = [arg for arg in args if arg is not type(None)]
        return _value(inner, value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], item) for item in value)
        return tuple(_value(arg, item) for arg, item in zip(args, value, strict=True))
    if origin is not None and issubclass(origin, Mapping):
        return {key: _value(args[1], item) for key, item in value.items()}
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        return kind(value)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _record(kind, value)
    return value
