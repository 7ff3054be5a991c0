"""Leaderboards: ``/leaderboard [game]`` over the finished games of this server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.errors import quote
from cogs.tables import game_autocomplete
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import CardTableBot

MEDALS = ("🥇", "🥈", "🥉")


class Stats(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="Who wins most at this server's tables.")
    @app_commands.describe(game="Only this game (all games when left out)")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        if interaction.guild_id is None:  # a stale or crafted client in a DM
            raise app_commands.NoPrivateMessage()
        games = all_games()
        if game is not None and game not in games:
            await interaction.response.send_message(
                f"There is no game called {quote(game)}.", ephemeral=True
            )
            return
        rows = await self.bot.sessions.leaderboard(interaction.guild_id, game)
        title = f"🏆 Leaderboard · {games[game].title if game else 'all games'}"
        lines = [
            f"{MEDALS[i] if i < 3 else f'`{i + 1}.`'} <@{row.user_id}> · **{row.won}** won of "
            f"{row.played} ({100 * row.won // max(row.played, 1)}%)"
            for i, row in enumerate(rows)
        ]
        embed = discord.Embed(
            title=title,
            colour=discord.Colour.gold(),
            description="\n".join(lines) or "No finished games yet.",
        )
        await interaction.response.send_message(embed=embed)


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Stats(bot))
