"""``/rules game:``: a short summary of a game's rules and its options."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.errors import quote
from cogs.options import OptionsPage
from cogs.tables import game_autocomplete
from cogs.words import GLOSSARY
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import CardTableBot


def glossary_text(game: str) -> str:
    """The game's words, one line each, for ``/rules``; empty when it has none."""
    return "\n".join(f"**{word}**: {meaning}" for word, meaning in GLOSSARY.get(game, ()))


class Help(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How a game is played here.")
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        games = all_games()
        if game not in games:
            await interaction.response.send_message(
                f"There is no game called {quote(game)}. Try: {', '.join(sorted(games))}.",
                ephemeral=True,
            )
            return
        game_class = games[game]
        embed = discord.Embed(
            title=f"📖 {game_class.title}",
            description=game_class.summary_text[:4000] or "—",
            colour=discord.Colour.blurple(),
        )
        defaults = ", ".join(f"{o.name}={o.default}" for o in game_class.OPTIONS)
        words = glossary_text(game)
        if words:
            embed.add_field(name="Words", value=words[:1024], inline=False)
        embed.add_field(name="Options (defaults)", value=defaults[:1024] or "none", inline=False)
        embed.set_footer(text="/table options explains each option · /table new starts a table")
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(OptionsPage)  # the pages of /table options
    await bot.add_cog(Help(bot))
