"""What a cog reads off an interaction: the bot it reached, whether its user manages the
server (a server manager may close any table), and which channels the user can view (what the
history and replays may show them)."""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

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


def picked_game(interaction: discord.Interaction) -> int | None:
    """The one table number a games menu sent (history's export and replay), or None for
    anything else a client may send: nothing, several values, a value that is no number.
    Whether the game may be shown is the session manager's to judge."""
    data: dict[str, Any] = dict(interaction.data or {})
    values = data.get("values") or []
    value = str(values[0]) if len(values) == 1 else ""
    return int(value) if re.fullmatch(r"[0-9]{1,20}", value) else None
