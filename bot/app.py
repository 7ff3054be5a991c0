"""The bot object: start-up order, cogs, persistent components, command sync, shutdown."""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import __version__, collector
from bot.clock import Clock
from bot.command_translator import CatalogueTranslator
from bot.config import Settings
from bot.pictures.painter import Painter
from bot.redelivery import once_per_interaction
from bot.request_budget import RequestBudget
from bot.sessions import SessionManager
from bot.sessions.tournaments import TournamentRunner
from bot.shards import identify_wait, publishes
from bot.store import StoreInterface, open_store

log = logging.getLogger(__name__)

COGS = (
    "cogs.health",
    "cogs.play",
    "cogs.tables",
    "cogs.tournaments",
    "cogs.stats",
    "cogs.help",
    "cogs.admin",
    "cogs.history",
    "cogs.replay",
    "cogs.hand_report",
    "cogs.privacy",
)
# How long a clean shutdown waits for pending table-message edits before disconnecting anyway.
FLUSH_SECONDS = 5.0


@dataclass
class OpenHand:
    """A player's open private hand: the interaction that edits it, when it was opened, what it
    shows now (a key of its content, so an update that changes nothing is not sent) and the
    language it is read in."""

    interaction: discord.Interaction
    opened: float
    shown: object = None
    lang: str = "en"  # its reader's language, as when it was opened


def apply_endpoint_overrides(settings: Settings) -> None:
    """Point discord.py at another API and gateway (the in-repo fake Discord, for tests).

    These are two discord.py internals; tests assert they still exist, so an upgrade that moves
    them fails loudly instead of silently reaching the real Discord.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


# A command's payload with its translations, by the command's payload without them (as JSON):
# the catalogue does not change while the process runs, so each command is translated once.
_TRANSLATED: dict[str, dict[str, Any]] = {}


async def command_payloads(
    tree: app_commands.CommandTree[Any], guild: discord.Object | None
) -> list[dict[str, Any]]:
    """Exactly the payloads ``tree.sync(guild=...)`` would send, translations included.

    Translating every string for each of Discord's 30-odd client languages is most of the work
    of a sync: the bot does it once a process (the catalogue's translations, by the untranslated
    payload) and uses the result for the fingerprint and the sync alike."""
    translator = tree.translator
    commands = tree.get_commands(guild=guild)
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    if not isinstance(translator, CatalogueTranslator):  # another translator: ask it every time
        return [await command.get_translated_payload(tree, translator) for command in commands]
    payloads = []
    for command in commands:
        plain = json.dumps(command.to_dict(tree), sort_keys=True, default=str)
        if plain not in _TRANSLATED:
            _TRANSLATED[plain] = await command.get_translated_payload(tree, translator)
        payloads.append(_TRANSLATED[plain])
    return payloads


def fingerprint_of(payloads: list[dict[str, Any]]) -> str:
    """A digest of command payloads, whatever their order (a changed catalogue changes it)."""
    ordered = sorted(payloads, key=lambda payload: (payload.get("type", 1), payload["name"]))
    text = json.dumps(ordered, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


async def command_fingerprint(
    tree: app_commands.CommandTree[Any], guild: discord.Object | None
) -> str:
    """A digest of exactly the payloads ``tree.sync(guild=...)`` would send (their
    translations included: a changed catalogue is synced again)."""
    return fingerprint_of(await command_payloads(tree, guild))


class CardTableBot(commands.Bot):
    """The bot: owns the settings, the store and the session manager."""

    store: StoreInterface
    sessions: SessionManager
    tournaments: TournamentRunner

    def __init__(
        self,
        settings: Settings,
        store: StoreInterface | None = None,
        clock: Clock | None = None,
        budget: RequestBudget | None = None,
        **kwargs: Any,
    ) -> None:
        # The bot never joins voice: the voice libraries' "not installed" warnings are noise.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        options: dict[str, Any] = {}
        if settings.guild_ready_timeout is not None:
            options["guild_ready_timeout"] = settings.guild_ready_timeout
        # This process's share of Discord's global limit, on the wall clock unless a test
        # passes a budget on its own clock.
        self.budget = budget or RequestBudget.share_of(settings.global_rate_limit, settings.shards)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=self.budget.trace(lambda: self.application_id),
            **options,
            **kwargs,
        )
        self.settings = settings
        # Table pictures: one worker process of their own beside the computer players' (none
        # when those think in threads, COMPUTER_PROCESSES=0: then in threads too).
        self.painter = Painter(1 if settings.computer_processes > 0 else 0)
        self.version = __version__
        # serve() sets it: the process is this bot's alone (a test's process runs many bots,
        # and freezing one's objects would keep its garbage after it stopped).
        self.settle_collector = False
        if store is not None:
            self.store = store
        self._prepared = False
        self._clock = clock  # None: the wall clock (tests pass a manual one)
        self._store_closed = False
        # The latest hand interaction of each (table, user), to update that hand in place.
        self.open_hands: dict[tuple[int, int], OpenHand] = {}
        once_per_interaction(self)  # a re-delivered interaction is not handled twice

    async def setup_hook(self) -> None:
        # discord.py calls this after each successful login; a login retried after a network
        # error must not load the cogs twice.
        if not self._prepared:
            log.info(
                "requests: %d a second to Discord, %d at once (its share of GLOBAL_RATE_LIMIT=%d)",
                self.budget.per_second,
                self.budget.burst,
                self.settings.global_rate_limit,
            )
            self.painter.warm()
            if getattr(self, "store", None) is None:
                self.store = await open_store(self.settings)
            self.sessions = SessionManager(self.store, self.settings, self._clock)
            self.tournaments = TournamentRunner(self.sessions)
            for cog in COGS:
                await self.add_cogs_of(cog)
            await self.tree.set_translator(CatalogueTranslator())
            await self.sessions.restore()
            if self.settle_collector:
                collector.settle()  # what start-up built lives as long as the process
            self._prepared = True
        await self.sync_commands()

    async def add_cogs_of(self, name: str) -> None:
        """Run the ``setup`` of cog module ``name``, imported once per process.

        ``load_extension`` would execute the module afresh for every bot (a second bot in one
        process, as in the tests, pays for all its classes and commands again, and modules that
        imported it keep the older copy); the bot never reloads an extension."""
        await importlib.import_module(name).setup(self)

    async def sync_commands(self) -> None:
        """Publish the commands where they differ from what was last published, one log line.

        The dev server gets them at once (guild commands appear instantly); every server gets
        them through a global sync, which Discord rate-limits and takes up to an hour to show,
        so it runs only when the command set changed since the last sync stored in the database.
        """
        application_id = self.application_id
        if application_id is None:  # only before login
            return
        if not publishes(self.settings.shards):
            log.info("commands: published by the process that owns shard 0")
            return
        done: list[str] = []
        unchanged: list[str] = []
        scopes: list[discord.Object | None] = []
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            scopes.append(guild)
        if self.settings.sync_global:
            scopes.append(None)
        for scope in scopes:
            where = f"server {scope.id}" if scope is not None else "every server"
            report = await self._sync_scope(application_id, scope, where)
            (done if report else unchanged).append(report or where)
        if unchanged:
            done.append(f"unchanged since the last sync to {' and '.join(unchanged)}, not synced")
        log.info("commands: %s", "; ".join(done))

    async def _sync_scope(
        self, application_id: int, guild: discord.Object | None, where: str
    ) -> str | None:
        """Sync one scope if its commands changed: what was done, or None when unchanged."""
        guild_id = guild.id if guild is not None else None
        payloads = await command_payloads(self.tree, guild)
        fingerprint = fingerprint_of(payloads)
        if await self.store.command_fingerprint(application_id, guild_id) == fingerprint:
            return None
        try:
            # What ``tree.sync`` sends, without translating every string a second time.
            if guild_id is None:
                synced = await self.http.bulk_upsert_global_commands(
                    application_id, payload=payloads
                )
            else:
                synced = await self.http.bulk_upsert_guild_commands(
                    application_id, guild_id, payload=payloads
                )
        except discord.HTTPException as error:
            hint = ""
            if error.status == 403 and guild is not None:
                hint = " (is the bot in that server, invited with the applications.commands scope?)"
            log.error("could not sync the commands to %s: %s%s", where, error, hint)
            return f"sync to {where} failed (tried again at the next start)"
        await self.store.save_command_fingerprint(application_id, guild_id, fingerprint)
        if guild is not None:
            return f"synced {len(synced)} to {where} (they appear there at once)"
        return f"synced {len(synced)} globally (Discord takes up to an hour to show them)"

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s)", self.user, self.user.id if self.user else "?")
        await self.sessions.resume_after_connect()

    async def flush_tables(self) -> None:
        """Let pending table-message edits go out (the Board coalesces them for a moment)."""
        presenter = getattr(getattr(self, "sessions", None), "presenter", None)
        if presenter is None:
            return
        flush = getattr(presenter, "flush", None)
        if flush is not None:
            waiting = [asyncio.ensure_future(flush())]
        else:  # the Board as it is today: wait for the edit tasks it already started
            pending = getattr(presenter, "pending", {})
            waiting = [
                task
                for p in list(pending.values())
                for task in (getattr(p, "task", None), getattr(p, "hands_task", None))
                if task is not None
            ]
        if waiting:
            _, late = await asyncio.wait(waiting, timeout=FLUSH_SECONDS)
            if late:
                log.warning("%d table messages were not updated before the shutdown", len(late))

    async def close(self) -> None:
        """Stop timers and computer turns, send pending table edits, disconnect, close the DB."""
        sessions = getattr(self, "sessions", None)
        if sessions is not None:
            await self.tournaments.shutdown()
            await sessions.shutdown()
            if self.is_ready() and not self.is_closed():
                await self.flush_tables()
        await super().close()
        await self.painter.close()
        await self.close_store()

    async def close_store(self) -> None:
        store = getattr(self, "store", None)
        if store is not None and not self._store_closed:
            self._store_closed = True
            await store.close()


class ShardedCardTableBot(CardTableBot, commands.AutoShardedBot):
    """The bot on some of the shards (SHARD_COUNT, SHARD_IDS): discord.py's own sharding.

    Several processes, on one machine or several, identify without talking to each other: each
    shard waits for its own slot of Discord's identify window (bot.shards.identify_wait).
    """

    def __init__(
        self,
        settings: Settings,
        store: StoreInterface | None = None,
        clock: Clock | None = None,
        budget: RequestBudget | None = None,
    ) -> None:
        shards = settings.shards
        assert shards is not None
        super().__init__(
            settings, store, clock, budget, shard_count=shards.count, shard_ids=list(shards.ids)
        )
        self._max_concurrency: int | None = None

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        shards = self.settings.shards
        assert shards is not None
        if self._max_concurrency is None:
            try:
                self._max_concurrency = (await self.fetch_session_start_limits()).max_concurrency
            except (discord.HTTPException, discord.GatewayNotFound, OSError):
                self._max_concurrency = 1  # the safe pace
        wait = identify_wait(
            time.time(),
            shard_id or 0,
            shards.count,
            self._max_concurrency,
            self.settings.identify_seconds,
        )
        if wait > 0:
            log.debug("shard %s identifies in %.1f s (its slot)", shard_id, wait)
            await asyncio.sleep(wait)


def create_bot(
    settings: Settings,
    store: StoreInterface | None = None,
    clock: Clock | None = None,
    budget: RequestBudget | None = None,
) -> CardTableBot:
    apply_endpoint_overrides(settings)
    if settings.shards is not None:
        return ShardedCardTableBot(settings, store, clock, budget)
    return CardTableBot(settings, store, clock, budget)
