"""Match length presets: short, standard and long, as each game's own options.

A game's length is set by its rules' own options (a target, a number of balls, a hand limit);
a preset is only a named set of values for them, which the engine validates like any option.
"Standard" is the rules' default wherever the default is a whole game.

Choices where the rules were silent:
- Tarneeb and Egyptian Tarneeb: the rules' own three targets, 31 / 41 / 61.
- Thunee: 6 / 12 / 18 balls (half and one and a half times the standard 12).
- Tuppi: short is the tournament length (16 hands, the higher peak wins; rules §B.2);
  standard is first to 52; long is first to 78 (one and a half times 52, no hand limit).
- Norwegian Whist: first to 7 / 13 / 20 points (13 is the rules' default).
- Tunge: one deal is a game by default, so it is the short one; standard and long are matches
  to 50 and 100 points (the rules' example match target is 100).
No preset changes the number of players: a table's seats never change once it is open.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LENGTHS = ("short", "standard", "long")


@dataclass(frozen=True)
class Preset:
    """One length of one game: its name (one of :data:`LENGTHS`), the option values it sets,
    and a few words for people ("first to 31 points")."""

    length: str
    options: Mapping[str, Any]
    text: str


def _three(option: str, values: tuple[Any, Any, Any], unit: str) -> tuple[Preset, ...]:
    return tuple(
        Preset(length, {option: value}, f"first to {value} {unit}")
        for length, value in zip(LENGTHS, values, strict=True)
    )


PRESETS: dict[str, tuple[Preset, ...]] = {
    "tarneeb": _three("target", (31, 41, 61), "points"),
    "tarneeb_egyptian": _three("target", (31, 41, 61), "points"),
    "thunee": _three("balls_to_win", (6, 12, 18), "balls"),
    "norwegian_whist": _three("target", (7, 13, 20), "points"),
    "tuppi": (
        Preset("short", {"target": 52, "max_hands": 16}, "16 hands, the higher peak wins"),
        Preset("standard", {"target": 52, "max_hands": 0}, "first to 52 points"),
        Preset("long", {"target": 78, "max_hands": 0}, "first to 78 points"),
    ),
    "tunge": (
        Preset("short", {"match_target": 0}, "one deal"),
        Preset("standard", {"match_target": 50}, "deals until a total reaches 50"),
        Preset("long", {"match_target": 100}, "deals until a total reaches 100"),
    ),
}


def presets_for(game: str) -> tuple[Preset, ...]:
    """The game's presets, shortest first; none for a game without any."""
    return PRESETS.get(game, ())


def preset(game: str, length: str) -> Preset:
    """The named preset of a game; KeyError if the game has no such length."""
    for candidate in presets_for(game):
        if candidate.length == length:
            return candidate
    raise KeyError(f"{game} has no {length} preset")


def with_preset(game: str, options: Mapping[str, Any], length: str) -> dict[str, Any]:
    """``options`` with the values of the named preset (to be validated by the engine)."""
    return {**options, **preset(game, length).options}


def current_preset(game: str, options: Mapping[str, Any]) -> Preset | None:
    """The preset the options match, or None (a custom length set with ``/table new``)."""
    for candidate in presets_for(game):
        if all(options.get(name) == value for name, value in candidate.options.items()):
            return candidate
    return None
