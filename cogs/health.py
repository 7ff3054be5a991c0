"""``/ping``: proves the loop end to end (latency, version, open tables), with a Refresh button
that keeps working after a restart (a dynamic item: everything it needs is in its custom id)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import _
from bot.shards import shard_of
from cogs.errors import guarded, patiently
from cogs.language import reader_language

if TYPE_CHECKING:
    from bot.app import CardTableBot


async def health_embed(
    bot: CardTableBot, guild_id: int | None = None, lang: str = i18n.ENGLISH
) -> discord.Embed:
    latency = bot.latency * 1000 if bot.latency == bot.latency else 0.0  # NaN before a heartbeat
    embed = discord.Embed(
        title="🃏 " + _(lang, "Card table: healthy"), colour=discord.Colour.green()
    )
    embed.add_field(name=_(lang, "Latency"), value=_(lang, "{ms} ms", ms=f"{latency:.0f}"))
    embed.add_field(name=_(lang, "Version"), value=bot.version)
    count = await bot.sessions.open_table_count()
    embed.add_field(name=_(lang, "Open tables"), value=str(count))
    shards = bot.settings.shards
    if shards is not None:  # which shard serves this server (direct messages: shard 0)
        shard = shard_of(guild_id, shards.count) if guild_id is not None else 0
        embed.add_field(
            name=_(lang, "Shard"),
            value=_(lang, "{shard} of {count}", shard=shard, count=shards.count),
        )
    return embed


class RefreshButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"ping:refresh"
):
    def __init__(self, lang: str = i18n.ENGLISH) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Refresh"),
                emoji="🔄",
                style=discord.ButtonStyle.secondary,
                custom_id="ping:refresh",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> RefreshButton:
        return cls()

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: CardTableBot = interaction.client  # type: ignore[assignment]
        lang = await reader_language(interaction)
        embed = await patiently(interaction, health_embed(bot, interaction.guild_id, lang))
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=refresh_view(lang))
        else:
            await interaction.response.edit_message(embed=embed, view=refresh_view(lang))


def refresh_view(lang: str = i18n.ENGLISH) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RefreshButton(lang))
    return view


class Health(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="ping", description="Check that the card table bot is awake.")
    async def ping(self, interaction: discord.Interaction) -> None:
        lang = await reader_language(interaction)
        await interaction.response.send_message(
            embed=await health_embed(self.bot, interaction.guild_id, lang),
            view=refresh_view(lang),
            ephemeral=True,
        )


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(RefreshButton)
    await bot.add_cog(Health(bot))
