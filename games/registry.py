"""Every game the bot offers, by its transcript name.

A game appears everywhere (lobby choices, /rules, replay, the end-to-end tests) as soon as its
module is listed in ``GAME_MODULES``; each module registers its class with :func:`register`.
"""

from __future__ import annotations

import importlib

from games.base import Game

GAME_MODULES: tuple[str, ...] = (
    "games.thunee",
    "games.tarneeb",
    "games.tarneeb_egyptian",
    "games.tuppi",
    "games.norwegian_whist",
    "games.tunge",
)

_games: dict[str, type[Game]] = {}
_loaded = False


def register(game: type[Game]) -> type[Game]:
    """Add a game class (a decorator; tests use it for their own tiny games too)."""
    _games[game.name] = game
    return game


def all_games() -> dict[str, type[Game]]:
    """Name → class for every registered game, in registration order."""
    global _loaded
    if not _loaded:
        _loaded = True
        for module in GAME_MODULES:
            importlib.import_module(module)
    return dict(_games)


def get_game(name: str) -> type[Game]:
    games = all_games()
    if name not in games:
        known = ", ".join(sorted(games)) or "none"
        raise KeyError(f"unknown game {name!r} (known: {known})")
    return games[name]
