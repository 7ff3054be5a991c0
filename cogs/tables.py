"""Tables: ``/table new|leave|abandon|options``, the lobby buttons, and the live table message.

The :class:`Board` hears every change from the session manager and keeps each table's one
public message up to date, coalescing rapid changes (a trick played by three computers costs one
or two edits). Hand and game results are posted as their own messages, which stay in the history.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.sessions import LiveTable, UserError
from cogs.play import answer_error, refresh_hands, table_view
from cogs.render import event_message, lobby_embed, table_embed
from games.base import Event
from games.registry import all_games, get_game

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

RESULT_KINDS = frozenset(
    {"hand_scored", "deal_scored", "game_over", "deal_won", "deal_blocked", "blocked", "annulled"}
)
EDIT_DELAY_SECONDS = 0.3


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

    async def callback(self, interaction: discord.Interaction) -> None:
        sessions = _bot(interaction).sessions
        user = interaction.user
        try:
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
        except UserError as error:
            await answer_error(interaction, str(error))
            return
        await interaction.response.defer()


class RemoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"ct:lr:(?P<table>\d+)"
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

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> RemoveSelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1 or not str(values[0]).isdigit():
            await answer_error(interaction, "Choose one seat.")
            return
        try:
            await _bot(interaction).sessions.remove(
                self.table_id, interaction.user.id, int(values[0]), _is_admin(interaction)
            )
        except UserError as error:
            await answer_error(interaction, str(error))
            return
        await interaction.response.defer()


def lobby_view(table: LiveTable) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    styles = {
        "join": discord.ButtonStyle.success,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }
    for action, label in LOBBY_ACTIONS.items():
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
    for seat in range(table.seat_count):
        team = f" (team {'AB'[seat % 2]})" if game_class.teams else ""
        view.add_item(
            LobbyButton(
                table.id,
                "sit",
                seat,
                f"Sit at seat {seat + 1}{team}",
                discord.ButtonStyle.secondary,
                row=1 + seat // 5,
            )
        )
    guests = [
        (seat.seat, seat.name)
        for seat in sorted(table.seats.values(), key=lambda s: s.seat)
        if seat.user_id != table.row.host_id
    ]
    if guests:
        view.add_item(RemoveSelect(table.id, guests))
    return view


# --- the live board -----------------------------------------------------------------------------
@dataclass
class _Pending:
    results: list[str] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    closed: bool = False


class Board:
    """Keeps table messages current; implements the session manager's ``Presenter``."""

    def __init__(self, bot: CardTableBot, delay: float = EDIT_DELAY_SECONDS) -> None:
        self.bot = bot
        self.delay = delay
        self.pending: dict[int, _Pending] = {}

    def table_changed(self, table: LiveTable, events: Sequence[Event]) -> None:
        pending = self.pending.setdefault(table.id, _Pending())
        results = [e.text for e in events if e.public and e.kind in RESULT_KINDS]
        if results:
            pending.results.append("\n".join(results))
        self._kick(table, pending)

    def table_closed(self, table: LiveTable) -> None:
        pending = self.pending.setdefault(table.id, _Pending())
        pending.closed = True
        self._kick(table, pending)

    def _kick(self, table: LiveTable, pending: _Pending) -> None:
        if pending.task is None or pending.task.done():
            pending.task = asyncio.get_running_loop().create_task(self._flush(table, pending))

    async def _flush(self, table: LiveTable, pending: _Pending) -> None:
        await asyncio.sleep(self.delay)
        self.pending.pop(table.id, None)
        try:
            await self.render(table, pending)
        except discord.HTTPException:
            log.exception("table %s: could not update the table message", table.id)
        except Exception:
            log.exception("table %s: rendering failed", table.id)

    async def render(self, table: LiveTable, pending: _Pending) -> None:
        channel = self.bot.get_partial_messageable(table.row.channel_id)
        for text in pending.results:
            await channel.send(event_message(table, [text]))
        if table.row.message_id is None:
            return
        message = channel.get_partial_message(table.row.message_id)
        status = table.row.status
        if status == "lobby":
            await message.edit(embed=lobby_embed(table), view=lobby_view(table))
        elif status == "cancelled":
            embed = lobby_embed(table)
            embed.description = table.note or "This table was cancelled."
            await message.edit(embed=embed, view=None)
        elif table.game is not None:
            embed = table_embed(table)
            if status == "abandoned":
                embed.description = "This game was abandoned."
            closed = status != "playing"
            await message.edit(embed=embed, view=None if closed else table_view(table))
            await refresh_hands(self.bot, table)


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


class Tables(commands.GroupCog, group_name="table", group_description="Card tables"):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.board = Board(bot)
        bot.sessions.presenter = self.board
        super().__init__()

    @app_commands.command(name="new", description="Open a table for a card game in this channel.")
    @app_commands.describe(game="Which game", options="Variant options, e.g. players=6")
    @app_commands.autocomplete(game=game_autocomplete, options=options_autocomplete)
    @app_commands.guild_only()
    async def new(
        self, interaction: discord.Interaction, game: str, options: str | None = None
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        sessions = self.bot.sessions
        try:
            table = await sessions.create_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                game=game,
                options_text=options,
            )
        except UserError as error:
            await answer_error(interaction, str(error))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel: discord.abc.Messageable = self.bot.get_partial_messageable(interaction.channel_id)
        settings = await sessions.guild_settings(interaction.guild_id)
        if settings.use_threads and isinstance(interaction.channel, discord.TextChannel):
            thread = await interaction.channel.create_thread(
                name=f"{table.game_class.title} · table #{table.id}",
                type=discord.ChannelType.public_thread,
            )
            await sessions.move_to_channel(table, thread.id)
            channel = thread
        message = await channel.send(embed=lobby_embed(table), view=lobby_view(table))
        await sessions.set_message(table, message.id)
        await interaction.followup.send(
            f"Table #{table.id} is open: {message.jump_url}", ephemeral=True
        )

    @app_commands.command(
        name="leave",
        description="Leave your table (a computer takes over your seat in a running game).",
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        table = self.bot.sessions.table_of_user(interaction.guild_id, interaction.user.id)
        if table is None:
            await answer_error(interaction, "You are not seated at any table here.")
            return
        try:
            message = await self.bot.sessions.leave(table.id, interaction.user.id)
        except UserError as error:
            await answer_error(interaction, str(error))
            return
        await interaction.response.send_message(message, ephemeral=True)

    @app_commands.command(name="abandon", description="Close a table (host or server manager).")
    @app_commands.describe(table="The table number (defaults to yours)")
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction, table: int | None = None) -> None:
        assert interaction.guild_id is not None
        sessions = self.bot.sessions
        if table is None:
            mine = sessions.table_of_user(interaction.guild_id, interaction.user.id)
            table = mine.id if mine else None
        live = sessions.find(table)
        if live is None or live.row.guild_id != interaction.guild_id:
            await answer_error(interaction, "There is no open table with that number here.")
            return
        try:
            await sessions.cancel(live.id, interaction.user.id, _is_admin(interaction))
        except UserError as error:
            await answer_error(interaction, str(error))
            return
        await interaction.response.send_message(f"Table #{live.id} is closed.", ephemeral=True)

    @app_commands.command(name="options", description="Explain a game's variant options.")
    @app_commands.autocomplete(game=game_autocomplete)
    async def options(self, interaction: discord.Interaction, game: str) -> None:
        try:
            game_class = get_game(game)
        except KeyError:
            await answer_error(interaction, f"There is no game called {game!r}.")
            return
        embed = discord.Embed(
            title=f"{game_class.title}: options",
            description="Give them to `/table new` as `name=value`, separated by spaces.",
            colour=discord.Colour.blurple(),
        )
        for option in game_class.OPTIONS[:25]:
            allowed = (
                " / ".join(str(c) for c in option.choices)
                if option.choices
                else type(option.default).__name__
            )
            embed.add_field(
                name=f"{option.name} (default {option.default})",
                value=f"{option.help}\nValues: {allowed}"[:1024],
                inline=False,
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(LobbyButton, RemoveSelect)
    await bot.add_cog(Tables(bot))
