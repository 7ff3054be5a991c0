"""``/settings``: per-server settings (turn timer, tables in threads), for server managers."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.sessions import UserError

if TYPE_CHECKING:
    from bot.app import CardTableBot


class Admin(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="This server's card table settings.")
    @app_commands.describe(
        turn_seconds="Seconds per turn before a computer plays it (10-3600)",
        threads="Open each new table in its own thread",
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_seconds: app_commands.Range[int, 10, 3600] | None = None,
        threads: bool | None = None,
    ) -> None:
        if interaction.guild_id is None:  # a stale or crafted client in a DM
            raise app_commands.NoPrivateMessage()
        current = await self.bot.sessions.guild_settings(interaction.guild_id)
        if turn_seconds is not None or threads is not None:
            if not interaction.permissions.manage_guild:  # the command's default is advisory
                await interaction.response.send_message(
                    "Only server managers can change these settings.", ephemeral=True
                )
                return
            try:
                current = await self.bot.sessions.change_guild_settings(
                    interaction.guild_id, turn_seconds, threads
                )
            except UserError as error:  # a turn timer out of range, or the database paused
                await interaction.response.send_message(str(error), ephemeral=True)
                return
        await interaction.response.send_message(
            f"Turn timer: **{current.turn_seconds} s** · new tables in threads: "
            f"**{'yes' if current.use_threads else 'no'}**",
            ephemeral=True,
        )


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Admin(bot))
