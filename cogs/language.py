"""The language of an answer: the reader's for an ephemeral one, the server's for a public one.

The reader's is their own ``/settings me language``, else the server's, else their Discord
client's language where the bot has it (``interaction.locale``: Finnish and Norwegian; Discord
has no Arabic client), else English. Public messages (the table, channel posts) are read by
everyone in the channel, so they follow the server's setting alone.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot import i18n
from bot.bidi import for_direction
from cogs.interactions import bot_of

log = logging.getLogger(__name__)

# A refusal must go out within Discord's 3 seconds even when the database is slow.
LOOKUP_SECONDS = 0.5


def client_language(interaction: discord.Interaction) -> str | None:
    """The Discord client's language (``fi``, ``no``, ``en-US``...), as Discord sent it."""
    locale = getattr(interaction, "locale", None)
    return None if locale is None else str(locale.value if hasattr(locale, "value") else locale)


async def reader_language(interaction: discord.Interaction) -> str:
    """The language of an ephemeral answer to this interaction's user.

    Read from the database; when that fails or is slow (the answer may be the one saying the
    database is down) the client's language still counts.
    """
    sessions = getattr(bot_of(interaction), "sessions", None)
    client = client_language(interaction)
    if sessions is None:
        return i18n.choose(None, None, client)
    try:
        async with asyncio.timeout(LOOKUP_SECONDS):  # no task made, as wait_for makes one
            lang: str = await sessions.reader_language(
                interaction.guild_id, interaction.user.id, client
            )
            return lang
    except Exception as error:  # the database is down: the answer must still go out
        log.warning("reader language unknown (%s): the client's", type(error).__name__)
        return i18n.choose(None, None, client)


async def public_language(interaction: discord.Interaction) -> str:
    """The language of a public message the answer to this interaction posts: the server's;
    English when the database does not say in time (the click must be answered)."""
    sessions = getattr(bot_of(interaction), "sessions", None)
    if sessions is None or interaction.guild_id is None:
        return i18n.ENGLISH
    try:
        async with asyncio.timeout(LOOKUP_SECONDS):
            lang: str = await sessions.server_language(interaction.guild_id)
            return lang
    except Exception as error:
        log.warning("server language unknown (%s): English", type(error).__name__)
        return i18n.ENGLISH


def text_for(lang: str, text: str) -> str:
    """A finished text laid out for ``lang`` (left-to-right runs isolated in Arabic)."""
    return for_direction(lang in i18n.RIGHT_TO_LEFT, text)
