"""The live table message: :class:`Board` hears every change from the session manager and keeps
each table's one public message up to date, coalescing rapid changes (a trick played by three
computers costs one or two edits). Hand and game results are posted as their own messages,
which stay in the history.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import aiohttp
import discord
from discord.http import handle_message_parameters

from bot import i18n
from bot.i18n import N_, _
from bot.sessions import LiveTable, TablePaused
from cogs.hand_report import report_view
from cogs.lobby import RematchButton, SitInButton, describe_lobby, lobby_view
from cogs.pacing import PACER
from cogs.play import refresh_hands, table_view
from cogs.render import (
    ABANDONED,
    LeakError,
    directed,
    event_message,
    jump_url,
    lobby_embed,
    resignation_message,
    table_embed,
)
from cogs.table_picture import HandTricks, TablePictures, hand_file, scored_hand
from cogs.trick_lines import TrickLine, TrickLines
from cogs.turn_ping import TurnPings
from games.base import Event

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

EDIT_DELAY_SECONDS = 0.3
CANCELLED = N_("This table was cancelled.")
# The longest an edit waits for the computers playing after a click: the click and the computers'
# answers to it then cost one table edit and one hand edit, not one a move.
HOLD_SECONDS = 1.5
BACKOFF_FIRST_SECONDS = 0.5
BACKOFF_MAX_SECONDS = 300.0
UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003


@dataclass
class _Pending:
    """What a table's message and channel still owe: results to post, the table to re-render."""

    table: LiveTable
    results: list[tuple[int, str]] = field(default_factory=list)  # (move number, message)
    dirty: bool = True
    task: asyncio.Task[None] | None = None
    hands_dirty: bool = True  # the players' open hands, refreshed apart from the table message
    hands_task: asyncio.Task[None] | None = None
    hand_tricks: dict[int, HandTricks] = field(default_factory=dict)  # move number → its tricks
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # set at each change


def _retryable(error: BaseException) -> bool:
    """Discord is down or busy (5xx, 429 after discord.py's own retries), or the network is."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, OSError | TimeoutError | aiohttp.ClientError)


class Board:
    """Keeps table messages current; implements the session manager's ``Presenter``.

    Nothing is dropped: results are posted in order and the table message re-rendered until
    Discord takes them, backing off while it is down (503) or refuses (403); a deleted table
    message (404) is posted again. What has been announced is stored, so a restart redoes
    what a crash left unsaid (:meth:`announce_missing`).
    """

    def __init__(
        self, bot: CardTableBot, delay: float = EDIT_DELAY_SECONDS, hold: float = HOLD_SECONDS
    ) -> None:
        self.bot = bot
        self.delay = delay
        self.hold = hold
        self.hurry = False  # a shutdown: nothing waits for the computers any more
        self.showing_play: set[int] = set()  # tables whose message shows their game in play
        self.pending: dict[int, _Pending] = {}
        self.first_backoff = BACKOFF_FIRST_SECONDS
        self.max_backoff = BACKOFF_MAX_SECONDS
        self.turn_pings = TurnPings(bot)  # mention a player whose turn it is
        self.trick_lines = TrickLines(bot)  # trick results in a table's thread
        self.pacer = PACER
        # the table drawn, as the message's image, by the bot's painter (a stand-in bot in
        # tests has none: drawn in a thread)
        self.pictures = TablePictures(getattr(bot, "painter", None))
        self._posting: dict[int, asyncio.Lock] = {}  # tables whose message is being posted

    def posting(self, table_id: int) -> asyncio.Lock:
        """Held while the table's message is posted by a click (a rematch's lobby), so that two
        clicks post it once."""
        return self._posting.setdefault(table_id, asyncio.Lock())

    def table_changed(self, table: LiveTable, events: Sequence[Event]) -> None:
        results = [e for e in events if e.public and e.history]
        lines = [(table.moves, line) for line in self.trick_lines.lines(table, events)]
        self._enqueue(
            table,
            lines + self._results(table, [(table.moves, results)], self._language(table)),
            scored_hand(table, results),
        )
        self.turn_pings.changed(table)

    @staticmethod
    def _results(
        table: LiveTable, texts: list[tuple[int, list[Event]]], lang: str = i18n.ENGLISH
    ) -> list[tuple[int, str]]:
        """The channel's posts of these moves' results, in ``lang`` (the server's)."""
        out = []
        for seq, lines in texts:
            if not lines:
                continue
            try:
                names = table.names_after(seq - 1)
                out.append((seq, event_message(table, lines, names, lang)))
            except LeakError:
                log.error(
                    "table %s move %s: a result named a hidden card; not shown", table.id, seq
                )
        return out

    def _language(self, table: LiveTable) -> str:
        """The language of the table's message and posts: the server's, as last read."""
        return self.bot.sessions.known_language(table.row.guild_id)

    def table_closed(self, table: LiveTable) -> None:
        self._posting.pop(table.id, None)
        line = resignation_message(table, self._language(table))
        self._enqueue(table, [(table.moves, line)] if line else [])
        self.turn_pings.changed(table)

    def _enqueue(
        self, table: LiveTable, results: list[tuple[int, str]], hand: HandTricks | None = None
    ) -> None:
        pending = self.pending.get(table.id)
        if pending is None:
            pending = self.pending[table.id] = _Pending(table)
        if hand is not None:  # drawn beside the move's result
            pending.hand_tricks[table.moves] = hand
        pending.table = table
        pending.results.extend(results)
        pending.dirty = True
        pending.hands_dirty = True
        pending.changed.set()
        loop = asyncio.get_running_loop()
        if pending.task is None or pending.task.done():
            pending.task = loop.create_task(self._flush(pending))
        if pending.hands_task is None or pending.hands_task.done():
            pending.hands_task = loop.create_task(self._refresh_hands(pending))

    async def _refresh_hands(self, pending: _Pending) -> None:
        """Bring the players' open hands up to date, without waiting for the table message.

        A hand is its player's controls: it must not wait for the channel's edit slot. Each hand
        is edited through its own interaction token, which has limits of its own.
        """
        while pending.hands_dirty and not self.bot.is_closed():
            await asyncio.sleep(self.delay)
            await self._settle(pending)
            if self.bot.is_closed():  # shut down meanwhile: its HTTP session is gone
                return
            pending.hands_dirty = False
            if pending.table.game is not None:
                await refresh_hands(self.bot, pending.table)

    async def _flush(self, pending: _Pending) -> None:
        backoff = self.first_backoff
        while (pending.dirty or pending.results) and not self.bot.is_closed():
            await asyncio.sleep(self.delay)
            await self._settle(pending)
            if self.bot.is_closed():
                break
            table = pending.table
            try:
                await self._deliver(pending)
                backoff = self.first_backoff
            except discord.Forbidden as error:
                log.warning(
                    "table %s: Discord refused an update (403, code %s): a permission is "
                    "missing; retrying in %.0f s",
                    table.id,
                    error.code,
                    backoff,
                )
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self.max_backoff)
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL:
                    log.warning("table %s: the channel is gone (code %s)", table.id, error.code)
                    break
                log.warning("table %s: its channel was deleted (code %s)", table.id, error.code)
                await self.channel_deleted(table.row.channel_id)
                if self.bot.sessions.find(table.id) is None:  # closed: nothing more is owed
                    pending.results.clear()
                    pending.dirty = False
                    await self._record(table)
                break
            except Exception as error:
                if not _retryable(error):
                    log.error(
                        "table %s move %s: rendering failed (%s); the update is dropped",
                        table.id,
                        table.moves,
                        type(error).__name__,
                    )
                    pending.dirty = False
                    pending.results.clear()
                    break
                log.warning(
                    "table %s: Discord failed an update (%s); retrying in %.1f s",
                    table.id,
                    getattr(error, "status", type(error).__name__),
                    backoff,
                )
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self.max_backoff)
        if self.pending.get(pending.table.id) is pending:
            del self.pending[pending.table.id]
            if self.bot.sessions.find(pending.table.id) is None:  # closed: its message is final
                self.pictures.forget(pending.table.id)
                self.showing_play.discard(pending.table.id)

    async def _settle(self, pending: _Pending) -> None:
        """Wait while only computers are to act at a table in play (at most :attr:`hold`
        seconds): its message then shows a click and the computers' answers to it at once."""
        loop = asyncio.get_running_loop()
        until = loop.time() + self.hold
        if pending.table.id not in self.showing_play:  # a game starting shows at once
            return
        while pending.table.computers_to_act() and not self.hurry:
            left = until - loop.time()
            if left <= 0:
                return
            pending.changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):  # no task made, as wait_for makes one
                    await pending.changed.wait()

    async def flush(self) -> None:
        """Send every pending edit now, waiting for no computer (a shutdown)."""
        self.hurry = True
        tasks = []
        for pending in list(self.pending.values()):
            pending.changed.set()
            tasks += [t for t in (pending.task, pending.hands_task) if t is not None]
        if tasks:
            await asyncio.wait(tasks)

    async def channel_deleted(self, channel_id: int) -> None:
        """Close the tables of a deleted channel or thread, which no one can reach any more
        (instead of retrying their updates for ever). A paused database: tried again at their
        next update (a 404 again)."""
        try:
            closed = await self.bot.sessions.channel_deleted(channel_id)
        except TablePaused:
            log.warning(
                "channel %s was deleted; its tables are closed once the database is back",
                channel_id,
            )
            return
        for table in closed:
            pending = self.pending.get(table.id)
            if pending is not None:  # nothing more is owed: its flush ends without a request
                pending.results.clear()
                pending.dirty = False

    async def _deliver(self, pending: _Pending) -> None:
        """Post the results owed, then render the table; record how far it got."""
        table = pending.table
        channel = self.bot.get_partial_messageable(table.row.channel_id)
        posted = any(not isinstance(text, TrickLine) for _, text in pending.results)
        while pending.results:
            seq, text = pending.results[0]
            if await self.trick_lines.allows(table, text):
                hand = None if isinstance(text, TrickLine) else pending.hand_tricks.get(seq)
                file = await hand_file(hand, self.pictures.painter) if hand is not None else None
                await self.pacer.slot()
                if file is not None and hand is not None and hand.computers:
                    # a hand's result, with its tricks drawn and the button to report a
                    # computer's play in it
                    await channel.send(text, file=file, view=report_view(table.id, seq))
                elif file is not None:  # a hand's result, with its tricks drawn
                    await channel.send(text, file=file)
                else:
                    await channel.send(text)
            pending.results.pop(0)
            if not isinstance(text, TrickLine):
                pending.hand_tricks.pop(seq, None)
        if pending.dirty:
            await self.bot.sessions.table_language(table.row.guild_id)  # read once, then kept
            await self.pictures.draw(
                table, self._language(table)
            )  # drawn before waiting for the channel's turn
            async with self.pacer.turn(table.row.channel_id):  # the channel's edits are shared
                pending.dirty = False
                try:
                    await self.render(table)
                except BaseException:
                    pending.dirty = True
                    raise
        # A live table's message is redrawn at every start: what needs recording is the results
        # posted (a restart posts those after the record), and a closed table's last look.
        live = table.row.status in ("lobby", "playing")
        if not pending.results and not pending.dirty and (posted or not live):
            await self._record(table)

    async def _record(self, table: LiveTable) -> None:
        try:
            await self.bot.sessions.mark_announced(table, table.moves)
        except Exception as error:  # the database may be down; a restart then says it twice
            log.warning("table %s: could not record the announcement (%s)", table.id, error)

    async def render(self, table: LiveTable) -> None:
        """Edit the table message to the table as it is; post it again if it was deleted."""
        if table.row.message_id is None:
            return
        # First: the text below is of the same moment, and short beside a picture.
        drawn = await self.pictures.draw(table, self._language(table))
        embed, view = self.content(table, drawn[1].alt if drawn else None)
        files = self.pictures.attach(table.id, embed, drawn)
        try:
            await self._edit(table.row.channel_id, table.row.message_id, embed, view, files)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            log.warning("table %s: its message was deleted; posting it again", table.id)
            await self.repost(table)
            return
        self.pictures.shown(table.id, drawn)
        if table.row.status == "playing":
            self.showing_play.add(table.id)
        else:
            self.showing_play.discard(table.id)

    async def _edit(
        self,
        channel_id: int,
        message_id: int,
        embed: discord.Embed,
        view: discord.ui.View | None,
        files: list[discord.File] | None,
    ) -> None:
        """Edit a table message (``files`` None: its picture stays). The request alone when
        every control is a dynamic item (dispatched by its custom id, as all of a table's are):
        discord.py's ``Message.edit`` would also build a Message of the answer, never read, and
        file the view for dispatch."""
        dynamic = view is None or all(
            isinstance(item, discord.ui.DynamicItem) for item in view.children
        )
        if not dynamic:
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            if files is None:
                await message.edit(embed=embed, view=view)
            else:
                await message.edit(embed=embed, view=view, attachments=files)
            return
        attachments = discord.utils.MISSING if files is None else files
        with handle_message_parameters(embed=embed, view=view, attachments=attachments) as params:
            await self.bot.http.edit_message(channel_id, message_id, params=params)

    def content(
        self, table: LiveTable, picture_alt: str | None = None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The table's message, in the server's language; ``picture_alt``: the alt text of the
        table's picture it shows (its text is then short)."""
        lang = self._language(table)
        status = table.row.status
        if status == "lobby":
            return describe_lobby(lobby_embed(table, lang), table, lang), lobby_view(table, lang)
        if status == "cancelled" or table.game is None:
            embed = lobby_embed(table, lang)
            embed.description = _(lang, table.note or CANCELLED)
            return embed, None
        embed = table_embed(table, lang=lang, picture_alt=picture_alt)
        if status == "abandoned" and table.resigned is None:  # why it was, if the bot knows
            embed.description = (
                directed(lang, _(lang, table.note) + " " + _(lang, "Not rated."))
                if table.note
                else _(lang, ABANDONED)
            )
        if status == "finished" or table.resigned is not None:  # a resigned game is a result
            view = discord.ui.View(timeout=None)
            view.add_item(RematchButton(table.id, lang))
            return embed, view
        if status != "playing":
            return embed, None
        view = table_view(table, lang)
        if self.bot.sessions.sit_in_seats(table):
            view.add_item(SitInButton(table.id, lang))
        return embed, view

    async def repost(self, table: LiveTable) -> discord.Message:
        """Post the table's message anew in its channel; the old one stops being the table's."""
        channel = self.bot.get_partial_messageable(table.row.channel_id)
        lang = await self.bot.sessions.table_language(table.row.guild_id)
        drawn = await self.pictures.draw(table, lang)
        embed, view = self.content(table, drawn[1].alt if drawn else None)
        files = self.pictures.attach(table.id, embed, drawn, new_message=True)
        old = table.row.message_id
        files = files or []  # a new message: no picture is one left out
        message = (
            await channel.send(embed=embed, view=view, files=files)
            if view
            else await channel.send(embed=embed, files=files)
        )
        self.pictures.shown(table.id, drawn)
        await self.bot.sessions.set_message(table, message.id)
        link = jump_url(table.row.guild_id, table.row.channel_id, message.id)
        if old is not None and old != message.id:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(
                    content=_(lang, "Table #{table} moved: {link}", table=table.id, link=link),
                    embed=None,
                    view=None,
                )
        return message

    async def announce_missing(self) -> None:
        """After a restart: post the results and final table messages a crash left unsaid."""
        try:
            missing = await self.bot.sessions.unannounced()
        except Exception as error:
            log.warning("could not look for unannounced results (%s)", type(error).__name__)
            return
        for table, events in missing:
            await self.bot.sessions.table_language(table.row.guild_id)
            by_move: dict[int, list[Event]] = {}
            for seq, event in events:
                if event.public and event.history:
                    by_move.setdefault(seq, []).append(event)
            results = self._results(table, sorted(by_move.items()), self._language(table))
            line = resignation_message(table)  # a crash between the resignation and its post
            self._enqueue(table, results + ([(table.moves, line)] if line else []))


# --- commands -----------------------------------------------------------------------------------
