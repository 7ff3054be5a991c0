"""Tables: ``/table new|leave|abandon|options``, the lobby buttons, and the live table message.

The :class:`Board` hears every change from the session manager and keeps each table's one
public message up to date, coalescing rapid changes (a trick played by three computers costs one
or two edits). Hand and game results are posted as their own messages, which stay in the history.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.sessions import LiveTable, TablePaused, UserError, check_table_channel, parse_options
from cogs.errors import answer, guarded, patiently, quote
from cogs.items import ByTable
from cogs.lobby import DYNAMIC_ITEMS as LOBBY_ITEMS
from cogs.lobby import RematchButton, SitInButton, add_lobby_controls, describe_lobby
from cogs.options import options_message
from cogs.pacing import PACER
from cogs.play import chosen_value, refresh_hands, table_view
from cogs.render import (
    ABANDONED,
    LEVEL_TEXT,
    LeakError,
    event_message,
    jump_url,
    lobby_embed,
    table_embed,
)
from cogs.trick_lines import TrickLines
from cogs.turn_ping import TurnPings
from games.base import Event
from games.players import AVAILABLE_LEVELS
from games.registry import all_games, get_game

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

EDIT_DELAY_SECONDS = 0.3
BACKOFF_FIRST_SECONDS = 0.5
BACKOFF_MAX_SECONDS = 300.0
UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003


def _bot(interaction: discord.Interaction) -> CardTableBot:
    return interaction.client  # type: ignore[return-value]


def _is_admin(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


# --- lobby components ---------------------------------------------------------------------------
LOBBY_ACTIONS = {
    "join": "Join",
    "leave": "Leave",
    "cpu": "Add computer player",
    "start": "Start",
    "cancel": "Cancel",
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:l:(?P<table>\d+):(?P<action>[a-z]+)(?P<seat>\d*)",
):
    def __init__(
        self,
        table_id: int,
        action: str,
        seat: int | None = None,
        label: str = "·",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        self.table_id, self.action, self.seat = table_id, action, seat
        suffix = "" if seat is None else str(seat)
        super().__init__(
            discord.ui.Button(
                label=label, style=style, row=row, custom_id=f"ct:l:{table_id}:{action}{suffix}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> LobbyButton:
        seat = int(match["seat"]) if match["seat"] else None
        return cls(int(match["table"]), match["action"], seat)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await patiently(interaction, self._act(interaction))
        if not interaction.response.is_done():
            await interaction.response.defer()

    async def _act(self, interaction: discord.Interaction) -> None:
        sessions = _bot(interaction).sessions
        user = interaction.user
        if self.action == "join":
            await sessions.join(self.table_id, user.id, user.display_name)
        elif self.action == "sit" and self.seat is not None:
            await sessions.sit(self.table_id, user.id, user.display_name, self.seat)
        elif self.action == "leave":
            await sessions.leave(self.table_id, user.id)
        elif self.action == "cpu":
            await sessions.add_computer(self.table_id, user.id)
        elif self.action == "start":
            await sessions.start(self.table_id, user.id)
        elif self.action == "cancel":
            await sessions.cancel(self.table_id, user.id, _is_admin(interaction))
        else:
            raise UserError("That button does nothing any more.")


class RemoveSelect(
    ByTable,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ct:lr:(?P<table>\d+)",
):
    """The host's (or a server manager's) way to clear a seat in the lobby."""

    def __init__(self, table_id: int, seats: list[tuple[int, str]] | None = None) -> None:
        self.table_id = table_id
        options = [
            discord.SelectOption(label=f"Seat {seat + 1}: {name}"[:100], value=str(seat))
            for seat, name in seats or []
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ct:lr:{table_id}",
                placeholder="Remove a player (host)",
                row=3,
                options=options or [discord.SelectOption(label="·", value="none")],
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        value = chosen_value(interaction)  # only a seat this select offered (never the host's)
        table = _bot(interaction).sessions.find(self.table_id)
        host_seat = table.seat_of(table.row.host_id) if table is not None else None
        if value is None or not value.isdigit() or int(value) == host_seat:
            await answer(interaction, "Choose one of the seats offered.")
            return
        await patiently(
            interaction,
            _bot(interaction).sessions.remove(
                self.table_id, interaction.user.id, int(value), _is_admin(interaction)
            ),
        )
        if not interaction.response.is_done():
            await interaction.response.defer()


class LevelSelect(
    ByTable,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ct:lv:(?P<table>\d+)",
):
    """The host's choice of the computer players' level, in the lobby."""

    def __init__(self, table_id: int, current: str = "normal") -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Select(
                custom_id=f"ct:lv:{table_id}",
                placeholder="Computer players' level (host)",
                row=4,
                options=[
                    discord.SelectOption(
                        label=f"Computer level: {level}",
                        value=level,
                        description=LEVEL_TEXT[level][:100],
                        default=level == current,
                    )
                    for level in AVAILABLE_LEVELS
                ],
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        value = chosen_value(interaction)  # only a level this select offered
        if value is None or value not in AVAILABLE_LEVELS:
            await answer(interaction, "Choose one of the levels offered.")
            return
        await patiently(
            interaction,
            _bot(interaction).sessions.set_computer_level(
                self.table_id, interaction.user.id, value
            ),
        )
        if not interaction.response.is_done():
            await interaction.response.defer()


class HintsToggle(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:lh:(?P<table>\d+):(?P<on>[01])",
):
    """The host turns hints on or off in the lobby; the custom id carries the state it sets, so a
    double or stale click sets the same state again."""

    def __init__(self, table_id: int, on: bool) -> None:
        self.table_id, self.on = table_id, on
        super().__init__(
            discord.ui.Button(
                label="Turn hints on (unrated)" if on else "Turn hints off",
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:lh:{table_id}:{int(on)}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> HintsToggle:
        return cls(int(match["table"]), match["on"] == "1")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await patiently(
            interaction,
            _bot(interaction).sessions.set_hints(self.table_id, interaction.user.id, self.on),
        )
        if not interaction.response.is_done():
            await interaction.response.defer()


def lobby_view(table: LiveTable) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    styles = {
        "join": discord.ButtonStyle.success,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }
    for action, label in LOBBY_ACTIONS.items():
        if action == "cpu" and not table.row.computers:  # the server allowed none: not offered
            continue
        view.add_item(
            LobbyButton(
                table.id,
                action,
                None,
                label,
                styles.get(action, discord.ButtonStyle.secondary),
                row=0,
            )
        )
    game_class = table.game_class
    # Only free seats: a taken one cannot be sat at, and the host's seat always leaves at most
    # five, so they fit one row and the biggest lobby keeps room for every control.
    for index, seat in enumerate(table.free_seats()):
        team = f" (team {'AB'[seat % 2]})" if game_class.teams else ""
        view.add_item(
            LobbyButton(
                table.id,
                "sit",
                seat,
                f"Sit at seat {seat + 1}{team}",
                discord.ButtonStyle.secondary,
                row=1 + index // 5,
            )
        )
    add_lobby_controls(view, table)  # fill and length, in the rows with room
    guests = [
        (seat.seat, seat.name)
        for seat in sorted(table.seats.values(), key=lambda s: s.seat)
        if seat.user_id != table.row.host_id
    ]
    if guests:
        view.add_item(RemoveSelect(table.id, guests))
    if table.row.computers:  # the level of computer seats, which a table without them lacks
        view.add_item(LevelSelect(table.id, table.row.computer_level))
    view.add_item(HintsToggle(table.id, not table.row.hints))  # in the first row with room
    return view


# --- the live board -----------------------------------------------------------------------------
@dataclass
class _Pending:
    """What a table's message and channel still owe: results to post, the table to re-render."""

    table: LiveTable
    results: list[tuple[int, str]] = field(default_factory=list)  # (move number, message)
    dirty: bool = True
    task: asyncio.Task[None] | None = None
    hands_dirty: bool = True  # the players' open hands, refreshed apart from the table message
    hands_task: asyncio.Task[None] | None = None


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

    def __init__(self, bot: CardTableBot, delay: float = EDIT_DELAY_SECONDS) -> None:
        self.bot = bot
        self.delay = delay
        self.pending: dict[int, _Pending] = {}
        self.first_backoff = BACKOFF_FIRST_SECONDS
        self.max_backoff = BACKOFF_MAX_SECONDS
        self.turn_pings = TurnPings(bot)  # mention a player whose turn it is
        self.trick_lines = TrickLines(bot)  # trick results in a table's thread
        self.pacer = PACER
        self._posting: dict[int, asyncio.Lock] = {}  # tables whose message is being posted

    def posting(self, table_id: int) -> asyncio.Lock:
        """Held while the table's message is posted by a click (a rematch's lobby), so that two
        clicks post it once."""
        return self._posting.setdefault(table_id, asyncio.Lock())

    def table_changed(self, table: LiveTable, events: Sequence[Event]) -> None:
        results = [e for e in events if e.public and e.history]
        lines = [(table.moves, line) for line in self.trick_lines.lines(table, events)]
        self._enqueue(table, lines + self._results(table, [(table.moves, results)]))
        self.turn_pings.changed(table)

    @staticmethod
    def _results(table: LiveTable, texts: list[tuple[int, list[Event]]]) -> list[tuple[int, str]]:
        out = []
        for seq, lines in texts:
            if not lines:
                continue
            try:
                out.append((seq, event_message(table, lines, table.names_after(seq - 1))))
            except LeakError:
                log.error(
                    "table %s move %s: a result named a hidden card; not shown", table.id, seq
                )
        return out

    def table_closed(self, table: LiveTable) -> None:
        self._posting.pop(table.id, None)
        self._enqueue(table, [])
        self.turn_pings.changed(table)

    def _enqueue(self, table: LiveTable, results: list[tuple[int, str]]) -> None:
        pending = self.pending.get(table.id)
        if pending is None:
            pending = self.pending[table.id] = _Pending(table)
        pending.table = table
        pending.results.extend(results)
        pending.dirty = True
        pending.hands_dirty = True
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
            if self.bot.is_closed():  # shut down meanwhile: its HTTP session is gone
                return
            pending.hands_dirty = False
            if pending.table.game is not None:
                await refresh_hands(self.bot, pending.table)

    async def _flush(self, pending: _Pending) -> None:
        backoff = self.first_backoff
        while (pending.dirty or pending.results) and not self.bot.is_closed():
            await asyncio.sleep(self.delay)
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
        while pending.results:
            _, text = pending.results[0]
            if await self.trick_lines.allows(table, text):
                await self.pacer.slot()
                await channel.send(text)
            pending.results.pop(0)
        if pending.dirty:
            async with self.pacer.turn(table.row.channel_id):  # the channel's edits are shared
                pending.dirty = False
                try:
                    await self.render(table)
                except BaseException:
                    pending.dirty = True
                    raise
        if not pending.results and not pending.dirty:
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
        channel = self.bot.get_partial_messageable(table.row.channel_id)
        message = channel.get_partial_message(table.row.message_id)
        embed, view = self.content(table)
        try:
            await message.edit(embed=embed, view=view)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            log.warning("table %s: its message was deleted; posting it again", table.id)
            await self.repost(table)

    def content(self, table: LiveTable) -> tuple[discord.Embed, discord.ui.View | None]:
        status = table.row.status
        if status == "lobby":
            return describe_lobby(lobby_embed(table), table), lobby_view(table)
        if status == "cancelled" or table.game is None:
            embed = lobby_embed(table)
            embed.description = table.note or "This table was cancelled."
            return embed, None
        embed = table_embed(table)
        if status == "abandoned" and table.resigned is None:  # why it was, if the bot knows
            embed.description = f"{table.note} Not rated." if table.note else ABANDONED
        if status == "finished":
            view = discord.ui.View(timeout=None)
            view.add_item(RematchButton(table.id))
            return embed, view
        if status != "playing":
            return embed, None
        view = table_view(table)
        if self.bot.sessions.sit_in_seats(table):
            view.add_item(SitInButton(table.id))
        return embed, view

    async def repost(self, table: LiveTable) -> discord.Message:
        """Post the table's message anew in its channel; the old one stops being the table's."""
        channel = self.bot.get_partial_messageable(table.row.channel_id)
        embed, view = self.content(table)
        old = table.row.message_id
        message = (
            await channel.send(embed=embed, view=view) if view else await channel.send(embed=embed)
        )
        await self.bot.sessions.set_message(table, message.id)
        link = jump_url(table.row.guild_id, table.row.channel_id, message.id)
        if old is not None and old != message.id:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(
                    content=f"Table #{table.id} moved: {link}", embed=None, view=None
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
            by_move: dict[int, list[Event]] = {}
            for seq, event in events:
                if event.public and event.history:
                    by_move.setdefault(seq, []).append(event)
            self._enqueue(table, self._results(table, sorted(by_move.items())))


# --- commands -----------------------------------------------------------------------------------
async def game_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=cls.title, value=name)
        for name, cls in all_games().items()
        if current.lower() in name or current.lower() in cls.title.lower()
    ][:25]


async def options_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    game = getattr(interaction.namespace, "game", None)
    games = all_games()
    if game not in games:
        return []
    done, _, last = current.rpartition(" ")
    prefix = f"{done} " if done else ""
    choices = []
    for option in games[game].OPTIONS:
        values = option.choices or (
            (True, False) if isinstance(option.default, bool) else (option.default,)
        )
        for value in values:
            text = f"{option.name}={str(value).lower() if isinstance(value, bool) else value}"
            if text.startswith(last):
                choices.append(
                    app_commands.Choice(name=(prefix + text)[:100], value=(prefix + text)[:100])
                )
    return choices[:25]


def missing_permissions(interaction: discord.Interaction, threads: bool) -> list[str]:
    """What the bot lacks in this channel to open a table (names as Discord's settings show)."""
    perms = interaction.app_permissions
    need = {
        "View Channel": perms.view_channel,
        "Send Messages": perms.send_messages,
        "Embed Links": perms.embed_links,
    }
    if threads:
        need["Create Public Threads"] = perms.create_public_threads
        need["Send Messages in Threads"] = perms.send_messages_in_threads
    return [name for name, granted in need.items() if not granted]


def permission_advice(missing: Sequence[str]) -> str:
    names = ", ".join(f"**{name}**" for name in missing)
    return (
        f"I can't open a table here: I am missing the {names} permission in this channel. "
        "A server manager can grant it to the CardTable role (channel settings → Permissions)."
    )


def check_options_text(text: str | None) -> None:
    """Refuse option text the rules would choke on, before anything is read or opened (the
    session manager's parser decides)."""
    parse_options(text)


@app_commands.guild_only()
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
class Tables(commands.GroupCog, group_name="table", group_description="Card tables"):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.board = Board(bot)
        bot.sessions.presenter = self.board
        self._announced = False
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Tables live in servers: a DM reaches here only from a stale or crafted client."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self._announced:
            self._announced = True
            await self.board.announce_missing()

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.board.channel_deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.board.channel_deleted(channel.id)

    @app_commands.command(name="new", description="Open a table for a card game in this channel.")
    @app_commands.describe(
        game="Which game",
        options="Variant options, e.g. players=6",
        level="How the computer players play (the host can change it in the lobby)",
        hints="Players may ask what the computer would play, and why (the table is unrated)",
    )
    @app_commands.autocomplete(game=game_autocomplete, options=options_autocomplete)
    @app_commands.choices(
        level=[app_commands.Choice(name=level, value=level) for level in AVAILABLE_LEVELS]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        level: str | None = None,
        hints: bool = False,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        games = all_games()
        if game not in games:
            await answer(
                interaction,
                f"There is no game called {quote(game)}. Try one of: {', '.join(sorted(games))}.",
            )
            return
        if level is not None and level not in AVAILABLE_LEVELS:  # a crafted client's value
            await answer(
                interaction,
                f"There is no computer level {quote(level)}; "
                f"choose one of: {', '.join(AVAILABLE_LEVELS)}.",
            )
            return
        check_options_text(options)
        settings = await patiently(
            interaction,
            self.bot.sessions.guild_settings(interaction.guild_id),
        )
        parent_id = getattr(interaction.channel, "parent_id", None)  # a thread's channel
        check_table_channel(settings, interaction.channel_id, parent_id)
        threads = settings.use_threads and isinstance(interaction.channel, discord.TextChannel)
        missing = missing_permissions(interaction, threads)
        if missing:
            await answer(interaction, permission_advice(missing))
            return
        sessions = self.bot.sessions
        table = await patiently(
            interaction,
            sessions.create_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                game=game,
                options_text=options,
                computer_level=level or "normal",
                hints=hints is True,
                parent_channel_id=parent_id,
            ),
        )
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            message = await self._post_lobby(interaction, table, threads)
        except discord.Forbidden:
            await sessions.cancel(table.id, interaction.user.id, True)  # no ghost table
            lacking = ["Create Public Threads", "Send Messages in Threads"] if threads else []
            await answer(
                interaction,
                permission_advice(lacking or ["Send Messages", "Embed Links"])
                + " The table was not opened.",
            )
            return
        except discord.HTTPException:
            await sessions.cancel(table.id, interaction.user.id, True)
            await answer(
                interaction, "Discord did not take the table's message; the table was not opened."
            )
            return
        link = jump_url(interaction.guild_id, message.channel.id, message.id)
        await answer(interaction, f"Table #{table.id} is open: {link}")

    async def _post_lobby(
        self, interaction: discord.Interaction, table: LiveTable, threads: bool
    ) -> discord.Message:
        channel: discord.abc.Messageable = self.bot.get_partial_messageable(table.row.channel_id)
        if threads and isinstance(interaction.channel, discord.TextChannel):
            thread = await interaction.channel.create_thread(
                name=f"{table.game_class.title} · table #{table.id}",
                type=discord.ChannelType.public_thread,
            )
            await self.bot.sessions.move_to_channel(table, thread.id)
            channel = thread
        await self.board.pacer.slot()  # a new lobby counts towards the bot's global limit
        message = await channel.send(
            embed=describe_lobby(lobby_embed(table), table), view=lobby_view(table)
        )
        await self.bot.sessions.set_message(table, message.id)
        return message

    @app_commands.command(
        name="show", description="Post your table's message again in its channel (if it was lost)."
    )
    @app_commands.describe(table="The table number (defaults to yours)")
    async def show(self, interaction: discord.Interaction, table: int | None = None) -> None:
        live = self._find(interaction, table)
        if live is None:
            await answer(interaction, "There is no open table with that number here.")
            return
        if live.seat_of(interaction.user.id) is None and not _is_admin(interaction):
            await answer(interaction, "Only its players or a server manager can re-post a table.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            message = await self.board.repost(live)
        except discord.Forbidden:
            await answer(interaction, permission_advice(["Send Messages", "Embed Links"]))
            return
        link = jump_url(live.row.guild_id, live.row.channel_id, message.id)
        await answer(interaction, f"Table #{live.id} is here again: {link}")

    def _find(self, interaction: discord.Interaction, number: int | None) -> LiveTable | None:
        sessions = self.bot.sessions
        assert interaction.guild_id is not None
        if number is None:
            return sessions.table_of_user(interaction.guild_id, interaction.user.id)
        live = sessions.find(number)
        if live is None or live.row.guild_id != interaction.guild_id:
            return None
        return live

    @app_commands.command(
        name="leave",
        description="Leave your table (a computer takes over your seat in a running game).",
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        table = self.bot.sessions.table_of_user(interaction.guild_id, interaction.user.id)
        if table is None:
            await answer(interaction, "You are not seated at any table here.")
            return
        message = await patiently(
            interaction, self.bot.sessions.leave(table.id, interaction.user.id)
        )
        await answer(interaction, message)

    @app_commands.command(name="abandon", description="Close a table (host or server manager).")
    @app_commands.describe(table="The table number (defaults to yours)")
    async def abandon(self, interaction: discord.Interaction, table: int | None = None) -> None:
        assert interaction.guild_id is not None
        live = self._find(interaction, table)
        if live is None:
            await answer(interaction, "There is no open table with that number here.")
            return
        resigned = await patiently(
            interaction,
            self.bot.sessions.cancel(live.id, interaction.user.id, _is_admin(interaction)),
        )
        await answer(
            interaction, f"Table #{live.id} is closed." + (f" {resigned}" if resigned else "")
        )

    @app_commands.command(name="options", description="Explain a game's variant options.")
    @app_commands.autocomplete(game=game_autocomplete)
    async def options(self, interaction: discord.Interaction, game: str) -> None:
        try:
            get_game(game)
        except KeyError:
            await answer(interaction, f"There is no game called {quote(game)}.")
            return
        assert interaction.guild_id is not None
        try:
            settings = await self.bot.sessions.guild_settings(interaction.guild_id)
            defaults = settings.defaults.get(game)
        except UserError:  # the database is paused: explain the game's own defaults
            defaults = None
        embed, view = options_message(game, defaults=defaults)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(LobbyButton, RemoveSelect, LevelSelect, *LOBBY_ITEMS)
    bot.add_dynamic_items(HintsToggle)
    await bot.add_cog(Tables(bot))
