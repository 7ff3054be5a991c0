"""A re-delivered interaction (the same id a second time) is dropped before any handler runs.

Discord can send an event twice: a RESUME replays what it thinks the bot missed, and with shards
on several processes a hand-over can overlap. Handled twice, a click would be answered twice
(Discord refuses the second answer) and an action that is not a move (a join, a new table) could
run twice. Interaction ids are unique, and an interaction's token lasts 15 minutes, so the ids
of the last few thousand interactions are enough to remember.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import discord

log = logging.getLogger(__name__)
REMEMBERED = 10_000


class SeenIds:
    """The most recent ``size`` ids, oldest forgotten first."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self.size = size
        self._ids: OrderedDict[str, None] = OrderedDict()

    def first_time(self, key: str) -> bool:
        """True the first time ``key`` is seen (and remember it), False after."""
        if key in self._ids:
            return False
        self._ids[key] = None
        if len(self._ids) > self.size:
            self._ids.popitem(last=False)
        return True


def once_per_interaction(client: discord.Client) -> SeenIds:
    """Wrap discord.py's INTERACTION_CREATE parser (the one door every interaction comes
    through, slash commands and components alike) so that it lets each id in once."""
    parsers = client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]
    seen = SeenIds()

    def parse_once(data: Any) -> None:
        if seen.first_time(str(data.get("id"))):
            parse(data)
        else:
            log.info("interaction %s was delivered twice; the second ignored", data.get("id"))

    parsers["INTERACTION_CREATE"] = parse_once
    return seen
