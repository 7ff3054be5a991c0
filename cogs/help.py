"""``/rules game:``: a short summary of a game's rules and its options."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import N_, _
from cogs.errors import answer_in, quote
from cogs.language import reader_language, text_for
from cogs.options import OptionsPage
from cogs.tables import game_autocomplete
from cogs.words import GLOSSARY, shown_word
from games.base import Game
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import CardTableBot


NO_SUCH_GAME = N_("There is no game called {game}. Try: {games}.")
WORDS = N_("Words")
OPTIONS = N_("Options (defaults)")
NONE = N_("none")
FOOTER = N_("/table options explains each option · /table new starts a table")


def glossary_text(game: str, lang: str = i18n.ENGLISH) -> str:
    """The game's words, one line each, for ``/rules``; empty when it has none. The words
    stay the game's own (a plain English term as the table says it in ``lang``); their
    meanings are in ``lang``."""
    entries = GLOSSARY.get(game, ())
    return "\n".join(f"**{shown_word(lang, word)}**: {_(lang, means)}" for word, means in entries)


def summary_text(game: type[Game], lang: str = i18n.ENGLISH) -> str:
    """The game's rule summary in ``lang`` (English where the catalogue has none)."""
    return _(lang, game.summary_text) if game.summary_text else ""


class Help(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How a game is played here.")
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        games = all_games()
        if game not in games:
            await answer_in(
                interaction, NO_SUCH_GAME, game=quote(game), games=", ".join(sorted(games))
            )
            return
        lang = await reader_language(interaction)
        game_class = games[game]
        embed = discord.Embed(
            title=f"📖 {game_class.title}",
            description=text_for(lang, summary_text(game_class, lang))[:4000] or "—",
            colour=discord.Colour.blurple(),
        )
        defaults = ", ".join(f"{o.name}={o.default}" for o in game_class.OPTIONS)
        words = text_for(lang, glossary_text(game, lang))
        if words:
            embed.add_field(name=_(lang, WORDS), value=words[:1024], inline=False)
        embed.add_field(name=_(lang, OPTIONS), value=defaults[:1024] or _(lang, NONE), inline=False)
        embed.set_footer(text=_(lang, FOOTER))
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(OptionsPage)  # the pages of /table options
    await bot.add_cog(Help(bot))
