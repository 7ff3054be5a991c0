"""The fake Discord: REST API and gateway on one aiohttp server, over the model in ``model.py``.

Start it with ``await FakeDiscord().start()``; point discord.py at ``fake.api_base`` and
``fake.gateway_url`` (``fake.env()`` gives the environment lines the bot reads).

The fake is one object assembled from parts by concept, sharing one state (``state.py``):
the gateway (``gateway.py``), REST routes per resource (``routes_messages.py``,
``routes_interactions.py``, ``routes_commands.py``, ``routes_guilds.py``), interactions on
their way to the bot (``delivery.py``) and the REST plumbing (``rest.py``): the request log,
rate limits and faults.
"""

from __future__ import annotations

import contextlib
from typing import Any

from aiohttp import web

from .delivery import DeliveryPart
from .errors import DiscordError
from .model import MANAGE_CHANNELS, MANAGE_GUILD, Channel, Message, User
from .records import Recorded
from .rest import Handler, RestPart
from .routes_commands import CommandsPart
from .routes_guilds import GuildsPart
from .routes_interactions import InteractionsPart
from .state import DEFAULT_TOKEN
from .users import FakeUser, InteractionResult

NO_GLOBAL_LIMIT = 100_000  # the bot's GLOBAL_RATE_LIMIT (its highest) where no limit is enforced


class FakeDiscord(InteractionsPart, GuildsPart, CommandsPart, DeliveryPart, RestPart):
    """A small, strict, stateful Discord: one application (the bot), guilds, users."""

    def user(
        self,
        name: str,
        *,
        roles: tuple[str, ...] | list[str] = (),
        admin: bool = False,
        locale: str = "en-US",
    ) -> FakeUser:
        """The driver for a person; creates them as a member of the default guild, their
        Discord client set to ``locale`` (``fi``, ``no``, ``en-US``...)."""
        if name not in self._fake_users:
            member = self.add_member(name, roles=roles, admin=admin)
            member.user.locale = locale
            self._fake_users[name] = FakeUser(self, member.user)
        return self._fake_users[name]

    async def send_interaction(
        self,
        user: User,
        kind: int,
        data: dict[str, Any],
        channel: Channel,
        message: Message | None = None,
    ) -> InteractionResult:
        """Deliver an interaction as the Discord client would and wait for the first answer."""
        interaction, latency = await self.deliver(user, kind, data, channel, message)
        return InteractionResult(self, interaction, latency)

    # ------------------------------------------------------------------ lifecycle

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DEV_GUILD_ID": str(self.default_guild.id),
            "DISCORD_GUILD_READY_TIMEOUT": "0.1",
            # the bot keeps to the global limit this Discord enforces: none unless it models
            # Discord's limits (bench/load.py), and then the same as Discord's
            "GLOBAL_RATE_LIMIT": str(
                NO_GLOBAL_LIMIT if self.limits is None else self.limits.global_per_second
            ),
        }
        env.update(extra)
        return env

    def app(self) -> web.Application:
        app = web.Application(client_max_size=30 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> FakeDiscord:
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.host = host
        self.port = sockets[0].getsockname()[1] if sockets else port
        return self

    async def stop(self) -> None:
        for session in list(self.sessions.values()):
            if session.conn is not None:
                with contextlib.suppress(Exception):
                    await session.conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ routes

    def route_table(self) -> list[tuple[str, str, Handler]]:
        """Every route the fake answers: (method, path pattern, handler)."""
        return [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/applications/@me", self._get_application),
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/gateway/bot", self._get_gateway_bot),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands),
            (
                "GET",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._get_commands,
            ),
            (
                "PUT",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._put_commands,
            ),
            ("GET", r"/applications/(?P<app>\d+)/emojis", self._get_app_emojis),
            ("POST", r"/applications/(?P<app>\d+)/emojis", self._create_app_emoji),
            ("GET", r"/applications/(?P<app>\d+)/emojis/(?P<emoji>\d+)", self._get_app_emoji),
            (
                "DELETE",
                r"/applications/(?P<app>\d+)/emojis/(?P<emoji>\d+)",
                self._delete_app_emoji,
            ),
            ("GET", r"/channels/(?P<channel>\d+)", self._get_channel),
            ("GET", r"/channels/(?P<channel>\d+)/messages", self._get_history),
            ("POST", r"/channels/(?P<channel>\d+)/messages", self._create_message),
            ("GET", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", self._get_message),
            ("PATCH", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", self._edit_message),
            (
                "DELETE",
                r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)",
                self._delete_message,
            ),
            (
                "POST",
                r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)/threads",
                self._thread_from_message,
            ),
            ("POST", r"/channels/(?P<channel>\d+)/threads", self._thread_without_message),
            (
                "PUT",
                r"/channels/(?P<channel>\d+)/thread-members/(?P<user>\d+|@me)",
                self._add_thread_member,
            ),
            (
                "DELETE",
                r"/channels/(?P<channel>\d+)/thread-members/(?P<user>\d+|@me)",
                self._remove_thread_member,
            ),
            ("GET", r"/guilds/(?P<guild>\d+)", self._get_guild),
            ("GET", r"/guilds/(?P<guild>\d+)/channels", self._get_guild_channels),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", self._get_member),
            ("GET", r"/users/(?P<user>\d+)", self._get_user),
            (
                "POST",
                r"/interactions/(?P<interaction>\d+)/(?P<token>[^/]+)/callback",
                self._callback,
            ),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup),
            (
                "GET",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<message>@original|\d+)",
                self._get_webhook_message,
            ),
            (
                "PATCH",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<message>@original|\d+)",
                self._edit_webhook_message,
            ),
            (
                "DELETE",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<message>@original|\d+)",
                self._delete_webhook_message,
            ),
        ]


__all__ = [
    "DEFAULT_TOKEN",
    "MANAGE_CHANNELS",
    "MANAGE_GUILD",
    "DiscordError",
    "FakeDiscord",
    "Recorded",
]
