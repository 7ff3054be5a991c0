"""The events engines build once and share between moves and games, found by walking the
``games`` package's module globals (tables of events, and caches filled as games are played).

Engines may share an :class:`~games.base.Event` only because nobody changes one; the
end-to-end tests take a :func:`snapshot` before a game through the bot and check with
:func:`changed` after it that the bot's whole path (rendering, history, storage) left every
shared event as it was built.
"""

from __future__ import annotations

import copy
import importlib
import pkgutil
from typing import Any

import games
from games.base import Event

Path = tuple[str, ...]


def _walk(value: Any, path: Path, found: dict[Path, Event], depth: int) -> None:
    if isinstance(value, Event):
        found[path] = value
    elif depth and isinstance(value, dict):
        for key, item in list(value.items()):
            _walk(item, (*path, repr(key)), found, depth - 1)
    elif depth and isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _walk(item, (*path, str(index)), found, depth - 1)


def shared_events() -> dict[Path, Event]:
    """Every event held by a ``games`` module global, by its path (module, name, keys)."""
    found: dict[Path, Event] = {}
    for info in pkgutil.walk_packages(games.__path__, "games."):
        module = importlib.import_module(info.name)
        for name, value in list(vars(module).items()):
            if not name.startswith("__"):
                _walk(value, (info.name, name), found, depth=3)
    return found


def snapshot() -> dict[Path, Event]:
    """Deep copies of the shared events as they are now."""
    return copy.deepcopy(shared_events())


def changed(before: dict[Path, Event]) -> list[Path]:
    """The shared events that differ from ``before`` (events cached since are not judged)."""
    now = shared_events()
    return [path for path, event in before.items() if now.get(path) != event]
