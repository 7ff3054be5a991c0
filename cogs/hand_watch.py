"""Open hands go stale: say so before they do.

A private hand is an ephemeral message the bot can edit only through the interaction that
opened it, for 15 minutes. Shortly before that (14 minutes, on the session manager's clock),
the hand is edited once more to say it stops updating and how to get a fresh one; after that
the bot leaves it alone. A restart loses every open hand's interaction: the board says so for
a minute (:func:`restart_note`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

import discord

from bot.clock import Clock
from bot.i18n import N_

STALE_SECONDS = 14 * 60  # an interaction token lasts 15 minutes; warn with a minute to spare
STALE_NOTE = N_("This hand stops updating soon: press “Show my hand” again.")
RESTART_SECONDS = 60.0
RESTART_NOTE = N_(
    "↻ The bot restarted: hands opened before no longer update; press “Show my hand”."
)

Key = tuple[int, int]  # (table, user)
_watches: dict[Key, asyncio.Task[None]] = {}


@dataclass(frozen=True)
class _Restart:
    clock: Clock
    at: float
    table_ids: frozenset[int]


_restart: list[_Restart] = []  # the last start's, when games in play survived it


def watch(key: Key, clock: Clock, warn: Callable[[], Awaitable[None]]) -> None:
    """(Re)arm the stale notice of one user's hand at a table: ``warn`` runs once, when the
    hand opened now is about to go stale, unless a newer hand replaced it meanwhile."""
    old = _watches.pop(key, None)
    if old is not None:
        old.cancel()
    when = clock.now() + STALE_SECONDS
    _watches[key] = asyncio.get_running_loop().create_task(_wait(key, clock, when, warn))


async def _wait(key: Key, clock: Clock, when: float, warn: Callable[[], Awaitable[None]]) -> None:
    await clock.sleep_until(when)
    if _watches.get(key) is asyncio.current_task():
        del _watches[key]
    with contextlib.suppress(discord.HTTPException):  # the user dismissed it, or it expired
        await warn()


def stop_all() -> None:
    """At shutdown: no notice is owed by a bot that is going away, nor a restart note."""
    for task in _watches.values():
        task.cancel()
    _watches.clear()
    _restart.clear()


def started(clock: Clock, table_ids: Iterable[int]) -> None:
    """The bot (re)started with these tables in play: hands opened before cannot be edited."""
    ids = frozenset(table_ids)
    _restart[:] = [_Restart(clock, clock.now(), ids)] if ids else []


def restart_note(table_id: int) -> str | None:
    """The board's line for the minute after a restart (tables that were in play), else None."""
    for restart in _restart:
        if table_id in restart.table_ids and restart.clock.now() - restart.at < RESTART_SECONDS:
            return RESTART_NOTE
    return None
