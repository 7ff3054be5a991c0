"""Turn pings: a short message mentioning a player whose turn it is, deleted once they move.

A member opts in per server (``/settings me turn_ping:on``). The :class:`Board` tells
:class:`TurnPings` about every change of a table; each table is then reconciled in its own task:
the humans the game waits on (not away: a computer plays an away player's turns) who want pings
get one, and a ping whose player moved, timed out or whose table closed is deleted. When every
human is away no computer plays their turns (the table waits, then is abandoned), so the player
the game waits on is still pinged. Computer seats never are.

One ping per turn, not per board edit: a turn is the seat's ``fresh_from`` mark (the move number
from which its situation is unchanged), so board edits and other seats' optional moves that leave
it unchanged keep the ping. Posted pings are stored (message id and turn): after a restart a ping
still pending is adopted, not posted again, and one whose turn is over is deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot import i18n
from bot.i18n import N_
from bot.sessions import LiveTable, TurnPing, UserError
from cogs.language import text_for
from cogs.pacing import PACER
from cogs.render import jump_url

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)
RETRY_SECONDS = 2.0


def wanted_turns(table: LiveTable) -> dict[int, int]:
    """The humans to ping now, as user id → turn: those the game waits on, in their seats."""
    if table.row.status != "playing" or table.game is None:
        return {}
    turns = {}
    for seat in table.waiting_for():
        row = table.seats.get(seat)
        if row is None or row.user_id is None or table.played_by_computer(seat):
            continue
        turns[row.user_id] = table.fresh_from.get(seat, table.moves)
    return turns


YOUR_TURN = N_("{mention}, your turn at Table #{table} ({title}):")


def ping_text(table: LiveTable, user_id: int, lang: str = i18n.ENGLISH) -> str:
    """The ping, in the server's language (a channel post); the link stays as it is, last, so
    that Discord still sees a link in a right-to-left text."""
    link = jump_url(table.row.guild_id, table.row.channel_id, table.row.message_id or 0)
    text = i18n._(
        lang, YOUR_TURN, mention=f"<@{user_id}>", table=table.id, title=table.game_class.title
    )
    return f"{text_for(lang, text)} {link}"


@dataclass
class _TablePings:
    """One table's pings as posted (user → ping), and the turns checked and left unpinged."""

    table: LiveTable
    posted: dict[int, TurnPing] | None = None  # None until loaded from the database
    declined: dict[int, int] = field(default_factory=dict)  # user → turn, ping not wanted
    dirty: bool = True
    task: asyncio.Task[None] | None = None


def settled(state: _TablePings, table: LiveTable) -> bool:
    """Whether reconciling ``table``'s pings would post and delete nothing now: every ping
    posted is for a turn still wanted, and every turn wanted has its ping or was declined.
    The turns no longer wanted are dropped from those declined, as a reconciling would."""
    if state.posted is None or state.dirty or table.row.status != "playing":
        return False
    wanted = wanted_turns(table)
    if any(wanted.get(user_id) != ping.turn for user_id, ping in state.posted.items()):
        return False
    state.declined = {u: t for u, t in state.declined.items() if wanted.get(u) == t}
    return all(u in state.posted or state.declined.get(u) == t for u, t in wanted.items())


class TurnPings:
    """Posts and deletes the turn pings of every table (the Board calls :meth:`changed`)."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.states: dict[int, _TablePings] = {}
        self.retry_seconds = RETRY_SECONDS

    def changed(self, table: LiveTable) -> None:
        """A table changed (or closed): reconcile its pings soon, at most one pass at a time."""
        state = self.states.get(table.id)
        if state is None and table.row.status == "lobby":
            return
        if state is None:
            state = self.states[table.id] = _TablePings(table)
        state.table = table
        running = state.task is not None and not state.task.done()
        if not running and settled(state, table):
            return  # most changes (a computer's move, a table edit) change no ping
        state.dirty = True
        if not running:
            state.task = asyncio.get_running_loop().create_task(self._run(state))

    async def _run(self, state: _TablePings) -> None:
        while state.dirty and not self.bot.is_closed():
            state.dirty = False
            try:
                await self._reconcile(state)
            except discord.Forbidden as error:  # no right to post here: try at the next change
                log.warning("table %s: turn pings refused (%s)", state.table.id, error.code)
            except (discord.HTTPException, OSError, UserError) as error:
                log.warning("table %s: turn pings not updated (%s)", state.table.id, error)
                state.dirty = True
                await asyncio.sleep(self.retry_seconds)
            except Exception:  # a bug, or the bot closing under us: never a retry storm
                if not self.bot.is_closed():
                    log.exception("table %s: turn pings failed", state.table.id)
                state.posted = None  # read them again from the database next time
                break
        table = state.table
        if self.states.get(table.id) is state and table.row.status != "playing" and not state.dirty:
            del self.states[table.id]

    async def _reconcile(self, state: _TablePings) -> None:
        table = state.table
        sessions = self.bot.sessions
        wanted = wanted_turns(table)
        if state.posted is None:  # first look since start-up: adopt the pings still due
            state.posted = {}
            for ping in await sessions.turn_pings(table.id):
                if wanted.get(ping.user_id) is not None:
                    ping = TurnPing(
                        ping.table_id,
                        ping.user_id,
                        ping.channel_id,
                        ping.message_id,
                        wanted[ping.user_id],
                    )
                    await sessions.save_turn_ping(ping)
                state.posted[ping.user_id] = ping
        for user_id, ping in list(state.posted.items()):
            if wanted.get(user_id) != ping.turn:
                await self._delete(ping)
                await sessions.forget_turn_ping(table.id, user_id)
                del state.posted[user_id]
        state.declined = {u: t for u, t in state.declined.items() if wanted.get(u) == t}
        for user_id, turn in wanted.items():
            if user_id in state.posted or state.declined.get(user_id) == turn:
                continue
            if not await sessions.turn_ping_wanted(table.row.guild_id, user_id):
                state.declined[user_id] = turn
                continue
            if wanted_turns(table).get(user_id) != turn:  # moved while we asked
                state.dirty = True
                continue
            channel = self.bot.get_partial_messageable(table.row.channel_id)
            lang = await sessions.server_language(table.row.guild_id)
            await PACER.slot()  # within the bot's global request budget
            message = await channel.send(
                ping_text(table, user_id, lang),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
            )
            ping = TurnPing(table.id, user_id, table.row.channel_id, message.id, turn)
            state.posted[user_id] = ping
            await sessions.save_turn_ping(ping)

    async def _delete(self, ping: TurnPing) -> None:
        channel = self.bot.get_partial_messageable(ping.channel_id)
        with contextlib.suppress(discord.NotFound):  # someone deleted it already
            await PACER.slot()
            await channel.get_partial_message(ping.message_id).delete()
