"""What a cog reads off an interaction: the bot it reached, whether its user manages the
server (a server manager may close any table), and which channels the user can view (what the
history and replays may show them)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import discord

from bot.history import Viewer

if TYPE_CHECKING:
    from bot.app import CardTableBot


def bot_of(interaction: discord.Interaction) -> CardTableBot:
    return interaction.client  # type: ignore[return-value]


def is_admin(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


def viewer_of(interaction: discord.Interaction) -> Viewer:
    """Who asks, with the channels and threads of the server they can view (Discord's
    permissions of the member, overwrites included): the history lists and exports the games
    played there, and the asker's own. Without the server in the cache, the channel asked in."""
    here = {interaction.channel_id} if interaction.channel_id else set()
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return Viewer(member.id, frozenset(here))
    seen = set(here)
    for channel in (*guild.channels, *guild.threads):
        with contextlib.suppress(discord.ClientException):  # a thread of an unknown channel
            if channel.permissions_for(member).view_channel:
                seen.add(channel.id)
    return Viewer(member.id, frozenset(seen))
