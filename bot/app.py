"""The bot object: start-up order, cogs, persistent components, command sync."""

from __future__ import annotations

import logging
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot import __version__
from bot.config import Settings
from bot.sessions import SessionManager
from bot.store import Store

log = logging.getLogger(__name__)

COGS = ("cogs.health", "cogs.play", "cogs.tables", "cogs.stats", "cogs.help", "cogs.admin")


def apply_endpoint_overrides(settings: Settings) -> None:
    """Point discord.py at another API and gateway (the in-repo fake Discord, for tests).

    These are two discord.py internals; tests assert they still exist, so an upgrade that moves
    them fails loudly instead of silently reaching the real Discord.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class CardTableBot(commands.Bot):
    """The bot: owns the settings, the store and the session manager."""

    store: Store
    sessions: SessionManager

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options: dict[str, Any] = {}
        if settings.guild_ready_timeout is not None:
            options["guild_ready_timeout"] = settings.guild_ready_timeout
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
            **kwargs,
        )
        self.settings = settings
        self.version = __version__
        # The latest hand interaction of each (table, user), to update that hand in place.
        self.open_hands: dict[tuple[int, int], tuple[discord.Interaction, float]] = {}

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.sessions = SessionManager(self.store, self.settings)
        for cog in COGS:
            await self.load_extension(cog)
        await self.sessions.restore()
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server", len(synced))
        if self.settings.sync_global:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to show)", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s)", self.user, self.user.id if self.user else "?")
        await self.sessions.resume_after_connect()

    async def close(self) -> None:
        sessions = getattr(self, "sessions", None)
        if sessions is not None:
            await sessions.shutdown()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def create_bot(settings: Settings) -> CardTableBot:
    apply_endpoint_overrides(settings)
    return CardTableBot(settings)
