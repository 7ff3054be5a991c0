"""Every game the bot offers, by its transcript name.

A game appears everywhere (lobby choices, /rules, replay, the end-to-end tests) as soon as its
class is listed in :data:`GAMES`: the one place a new game is registered (the README's "For
contributors" names the rest of what a game brings). Tests add their own small games beside
these with :func:`register`.
"""

from __future__ import annotations

from games.base import Game
from games.norwegian_whist import NorwegianWhist
from games.tarneeb import Tarneeb
from games.tarneeb_egyptian import EgyptianTarneeb
from games.thunee import Thunee
from games.tunge import Tunge
from games.tuppi import Tuppi

# The bot's games, in the order the lobby offers them.
GAMES: tuple[type[Game], ...] = (Thunee, Tarneeb, EgyptianTarneeb, Tuppi, NorwegianWhist, Tunge)

_extra: dict[str, type[Game]] = {}


def register(game: type[Game]) -> type[Game]:
    """Add a game beside the bot's own, for this process (a decorator: the tests register
    their tiny reference game with it); the bot's own games are listed in :data:`GAMES`."""
    _extra[game.name] = game
    return game


def all_games() -> dict[str, type[Game]]:
    """Name → class for every game: the bot's own in :data:`GAMES` order, then any registered."""
    return {**{game.name: game for game in GAMES}, **_extra}


def get_game(name: str) -> type[Game]:
    games = all_games()
    if name not in games:
        known = ", ".join(sorted(games)) or "none"
        raise KeyError(f"unknown game {name!r} (known: {known})")
    return games[name]
