"""``/table options``: every variant option of a game, paged by buttons that survive a restart.

The pages come from :func:`cogs.render.options_pages`; a page button's ``custom_id`` carries the
game and the page, so a click on an old answer still works after the bot restarts.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from typing import Any

import discord

from bot import i18n
from bot.i18n import N_, _
from bot.sessions import UserError
from cogs.errors import answer_in, guarded
from cogs.language import reader_language
from cogs.render import options_pages
from games.registry import all_games


def options_view(
    game: str, page: int, pages: int, lang: str = i18n.ENGLISH
) -> discord.ui.View | None:
    """Previous / next buttons, or nothing when everything fits on one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    back, forward = "◀ " + _(lang, "Previous"), _(lang, "Next") + " ▶"
    view.add_item(OptionsPage(game, page - 1, back, disabled=page <= 0))
    view.add_item(OptionsPage(game, page + 1, forward, disabled=page >= pages - 1))
    return view


def options_message(
    game: str,
    page: int = 0,
    defaults: Mapping[str, Any] | None = None,
    lang: str = i18n.ENGLISH,
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed of one page (clamped to the pages there are) and its buttons; ``defaults``
    are the server's default options for the game (``/settings defaults``), said on top."""
    pages = options_pages(all_games()[game], lang)
    page = max(0, min(page, len(pages) - 1))
    embed = pages[page]
    if defaults:
        shown = " ".join(
            f"`{name}={str(value).lower() if isinstance(value, bool) else value}`"
            for name, value in sorted(defaults.items())
        )
        said = _(lang, "This server's defaults: {defaults}", defaults=shown)
        embed.description = f"{embed.description}\n{said}"[:4000]
    return embed, options_view(game, page, len(pages), lang)


class OptionsPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:op:(?P<game>[a-z_]+):(?P<page>[0-9]+)",
):
    def __init__(self, game: str, page: int, label: str = "·", disabled: bool = False) -> None:
        self.game, self.page = game, page
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"ct:op:{game}:{max(page, 0)}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> OptionsPage:
        return cls(match["game"], int(match["page"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game not in all_games():
            await answer_in(interaction, N_("That game is not here any more."))
            return
        defaults = None
        if interaction.guild_id is not None:
            bot: Any = interaction.client
            with contextlib.suppress(UserError):  # a paused database: the game's own defaults
                settings = await bot.sessions.guild_settings(interaction.guild_id)
                defaults = settings.defaults.get(self.game)
        lang = await reader_language(interaction)
        embed, view = options_message(self.game, self.page, defaults, lang)
        if view is None:
            await interaction.response.edit_message(embed=embed)
        else:
            await interaction.response.edit_message(embed=embed, view=view)
