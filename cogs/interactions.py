"""What a cog reads off an interaction: the bot it reached, and whether its user manages the
server (a server manager may close any table)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.app import CardTableBot


def bot_of(interaction: discord.Interaction) -> CardTableBot:
    return interaction.client  # type: ignore[return-value]


def is_admin(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)
