"""Match length presets: short, standard and long, as each game's own options.

A game's length is set by its rules' own options (a target, a number of balls, a hand limit);
a preset is only a named set of values for them, which the engine validates like any option.
"Standard" is the rules' default wherever the default is a whole game. Each game declares its
presets in its :class:`~games.facts.GameFacts` (``facts.presets``), where its module says why
it chose them.

No preset changes the number of players: a table's seats never change once it is open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.facts import LENGTHS, Preset
from games.registry import all_games

__all__ = ["LENGTHS", "Preset", "current_preset", "preset", "presets_for", "with_preset"]


def presets_for(game: str) -> tuple[Preset, ...]:
    """The game's presets, shortest first; none for a game without any."""
    rules = all_games().get(game)
    return () if rules is None else rules.facts.presets


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
