"""``/table new|leave|abandon|options``: opening a table, leaving it, closing it, and what its
options mean. The lobby's components are :mod:`cogs.lobby`'s, the live table message
:mod:`cogs.board`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _
from bot.sessions import LiveTable, UserError, check_table_channel, parse_options
from cogs.board import Board
from cogs.errors import answer, answer_in, patiently, quote
from cogs.interactions import is_admin
from cogs.language import reader_language, text_for
from cogs.lobby import DYNAMIC_ITEMS as LOBBY_ITEMS
from cogs.lobby import describe_lobby, lobby_view
from cogs.options import options_message
from cogs.render import (
    jump_url,
    lobby_embed,
)
from games.players import AVAILABLE_LEVELS
from games.registry import all_games, get_game

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

NO_SUCH_TABLE = N_("There is no open table with that number here.")


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
            await answer_in(
                interaction,
                N_("There is no game called {game}. Try one of: {games}."),
                game=quote(game),
                games=", ".join(sorted(games)),
            )
            return
        if level is not None and level not in AVAILABLE_LEVELS:  # a crafted client's value
            await answer_in(
                interaction,
                N_("There is no computer level {level}; choose one of: {levels}."),
                level=quote(level),
                levels=", ".join(AVAILABLE_LEVELS),
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
            lang = await reader_language(interaction)
            await answer(
                interaction,
                permission_advice(lacking or ["Send Messages", "Embed Links"])
                + " "
                + _(lang, "The table was not opened."),
            )
            return
        except discord.HTTPException:
            await sessions.cancel(table.id, interaction.user.id, True)
            await answer_in(
                interaction,
                N_("Discord did not take the table's message; the table was not opened."),
            )
            return
        link = jump_url(interaction.guild_id, message.channel.id, message.id)
        await answer_in(
            interaction, N_("Table #{table} is open: {link}"), table=table.id, link=link
        )

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
        lang = await self.bot.sessions.table_language(table.row.guild_id)
        message = await channel.send(
            embed=describe_lobby(lobby_embed(table, lang), table, lang),
            view=lobby_view(table, lang),
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
            await answer_in(interaction, NO_SUCH_TABLE)
            return
        if live.seat_of(interaction.user.id) is None and not is_admin(interaction):
            await answer_in(
                interaction, N_("Only its players or a server manager can re-post a table.")
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            message = await self.board.repost(live)
        except discord.Forbidden:
            await answer(interaction, permission_advice(["Send Messages", "Embed Links"]))
            return
        link = jump_url(live.row.guild_id, live.row.channel_id, message.id)
        await answer_in(
            interaction, N_("Table #{table} is here again: {link}"), table=live.id, link=link
        )

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
            await answer_in(interaction, N_("You are not seated at any table here."))
            return
        message = await patiently(
            interaction, self.bot.sessions.leave(table.id, interaction.user.id)
        )
        await answer_in(interaction, message)  # the session layer's catalogue text

    @app_commands.command(name="abandon", description="Close a table (host or server manager).")
    @app_commands.describe(table="The table number (defaults to yours)")
    async def abandon(self, interaction: discord.Interaction, table: int | None = None) -> None:
        assert interaction.guild_id is not None
        live = self._find(interaction, table)
        if live is None:
            await answer_in(interaction, NO_SUCH_TABLE)
            return
        resigned = await patiently(
            interaction,
            self.bot.sessions.cancel(live.id, interaction.user.id, is_admin(interaction)),
        )
        lang = await reader_language(interaction)
        closed = _(lang, "Table #{table} is closed.", table=live.id)
        await answer(
            interaction, text_for(lang, closed + (f" {_(lang, resigned)}" if resigned else ""))
        )

    @app_commands.command(name="options", description="Explain a game's variant options.")
    @app_commands.autocomplete(game=game_autocomplete)
    async def options(self, interaction: discord.Interaction, game: str) -> None:
        try:
            get_game(game)
        except KeyError:
            await answer_in(interaction, N_("There is no game called {game}."), game=quote(game))
            return
        assert interaction.guild_id is not None
        try:
            settings = await self.bot.sessions.guild_settings(interaction.guild_id)
            defaults = settings.defaults.get(game)
        except UserError:  # the database is paused: explain the game's own defaults
            defaults = None
        lang = await reader_language(interaction)
        embed, view = options_message(game, defaults=defaults, lang=lang)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(*LOBBY_ITEMS)
    tables = Tables(bot)
    tables.board.pacer.follow(bot.budget)  # table edits: a share of this process's requests
    await bot.add_cog(tables)
