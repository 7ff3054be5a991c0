"""``/privacy forget``: a person asks the bot to forget them, and confirms with a button.

The question and its answer are ephemeral. The buttons carry the asker's id: a click by anyone
else (only a crafted client could) is refused. What forgetting does is bot/privacy.py's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import N_, _, ngettext
from cogs.errors import answer_in, guarded, patiently
from cogs.interactions import bot_of
from cogs.language import reader_language, text_for

if TYPE_CHECKING:
    from bot.app import CardTableBot

QUESTION = N_(
    "**Forget me?** In every server this bot is in: your results and ratings are deleted, so "
    "you leave the leaderboards and stats; in finished games your name becomes “Former "
    "player” (the games stay: they are the other players' history too). A game you are "
    "playing now is not changed and is recorded when it ends. This cannot be undone."
)
FORGOTTEN = N_(
    "Done: you are forgotten. {results} deleted, your name removed from {seats}. "
    "Games in progress go on as they were."
)
KEPT = N_("Nothing was changed.")
NOT_YOURS = N_("These buttons are for the person who asked.")


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:pf:(?P<user>[0-9]{1,20}):(?P<answer>yes|no)",
):
    def __init__(self, user_id: int, confirm: bool, lang: str = i18n.ENGLISH) -> None:
        self.user_id, self.confirm = user_id, confirm
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Forget me") if confirm else _(lang, "Keep my data"),
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                custom_id=f"ct:pf:{user_id}:{'yes' if confirm else 'no'}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> ForgetButton:
        return cls(int(match["user"]), match["answer"] == "yes")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            await answer_in(interaction, NOT_YOURS)
            return
        lang = await reader_language(interaction)
        if not self.confirm:
            await interaction.response.edit_message(content=_(lang, KEPT), view=None)
            return
        forgotten = await patiently(interaction, bot_of(interaction).sessions.forget(self.user_id))
        text = text_for(
            lang,
            _(
                lang,
                FORGOTTEN,
                results=ngettext(lang, "{n} result", "{n} results", forgotten.results),
                seats=ngettext(lang, "{n} past table", "{n} past tables", forgotten.seats),
            ),
        )
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=None)
        else:
            await interaction.response.edit_message(content=text, view=None)


def question_view(user_id: int, lang: str = i18n.ENGLISH) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(user_id, True, lang))
    view.add_item(ForgetButton(user_id, False, lang))
    return view


class Privacy(commands.GroupCog, group_name="privacy", group_description="Your data"):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="forget", description="Remove your results and ratings, anonymise your games."
    )
    async def forget(self, interaction: discord.Interaction) -> None:
        lang = await reader_language(interaction)
        await interaction.response.send_message(
            text_for(lang, _(lang, QUESTION)),
            view=question_view(interaction.user.id, lang),
            ephemeral=True,
        )


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(ForgetButton)
    await bot.add_cog(Privacy(bot))
