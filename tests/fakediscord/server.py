"""The fake Discord: REST API and gateway on one aiohttp server, over the model in ``model.py``.

Start it with ``await FakeDiscord().start()``; point discord.py at ``fake.api_base`` and
``fake.gateway_url`` (``fake.env()`` gives the environment lines the bot reads).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import limits
from .model import (
    BOT_DEFAULT,
    EVERYONE_DEFAULT,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    GUILD_TEXT,
    MANAGE_CHANNELS,
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
    Clock,
    Command,
    Guild,
    Interaction,
    Member,
    Message,
    Overwrite,
    Role,
    Snowflakes,
    User,
)
from .ratelimits import DiscordLimits
from .shards import (
    CLOSE_INVALID_SHARD,
    CLOSE_SHARDING_REQUIRED,
    DISCORD_GUILDS_PER_SESSION,
    DISCORD_IDENTIFY_INTERVAL,
    ShardRules,
    guild_of,
    parse_shard,
    shard_of,
)

if TYPE_CHECKING:
    from .users import FakeUser, InteractionResult

log = logging.getLogger("fakediscord")

API_VERSION = 10
DEFAULT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.fake.token-for-the-in-repo-fake-discord"
INTENT_GUILD_MESSAGES = 1 << 9
TOKEN_LIFETIME = 15 * 60.0
THINKING_GRACE = 3.0  # quiet() waits this long at most for a deferred answer to be given
NO_GLOBAL_LIMIT = 100_000  # the bot's GLOBAL_RATE_LIMIT (its highest) where no limit is enforced
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class DiscordError(Exception):
    """An API error answered as Discord answers it (status, JSON body)."""

    def __init__(self, status: int, code: int, message: str, extra: dict[str, Any] | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: dict[str, Any] = {"message": message, "code": code, **(extra or {})}


def form_error(errors: limits.FormErrors) -> DiscordError:
    body = errors.body()
    return DiscordError(400, 50035, "Invalid Form Body", {"errors": body["errors"]})


UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")


@dataclass
class Recorded:
    method: str
    path: str
    status: int
    body: Any
    response: Any
    at: float = field(default_factory=time.monotonic)


@dataclass
class FaultRule:
    """An injected failure: the next ``remaining`` matching requests get ``status``."""

    pattern: str  # substring of "METHOD /path"
    status: int
    code: int
    message: str
    remaining: int


@dataclass
class RateLimitRule:
    pattern: str  # substring of "METHOD /path"; "" matches everything
    retry_after: float
    remaining: int  # how many 429s still to give
    is_global: bool


class Session:
    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] | None = None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard  # (id, count); None: an unsharded session, which owns every guild
        self.seq = 0
        self.buffer: list[dict[str, Any]] = []
        self.conn: Connection | None = None

    @property
    def shard_id(self) -> int:
        return self.shard[0] if self.shard is not None else 0

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session gets the guild's events (None: a direct message, shard 0's)."""
        if self.shard is None:
            return True
        if guild_id is None:
            return self.shard[0] == 0
        return shard_of(guild_id, self.shard[1]) == self.shard[0]


class Connection:
    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()
        self.compressor = zlib.compressobj() if compress else None
        self.heartbeats = 0
        self.closed_by_server = False
        self.acks: set[asyncio.Task[None]] = set()  # heartbeat ACKs on their way back

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame)
        async with self.lock:
            if self.ws.closed:
                return
            try:
                if self.compressor is not None:
                    data = self.compressor.compress(text.encode()) + self.compressor.flush(
                        zlib.Z_SYNC_FLUSH
                    )
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                pass


Handler = Callable[[web.Request, dict[str, str], Any], Awaitable[Any]]


class FakeDiscord:
    """A small, strict, stateful Discord: one application (the bot), guilds, users."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        clock: Clock | None = None,
        response_deadline: float = 3.0,
        heartbeat_interval_ms: int = 41250,
        gateway_round_trip: float = 0.05,
        discord_limits: bool = False,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        identify_interval: float = DISCORD_IDENTIFY_INTERVAL,
        guilds_per_session: int = DISCORD_GUILDS_PER_SESSION,
    ) -> None:
        self.token = token
        # Sharding (shards.py): what GET /gateway/bot says, and the IDENTIFY rules enforced.
        self.shard_rules = ShardRules(
            recommended_shards=recommended_shards,
            max_concurrency=max_concurrency,
            identify_interval=identify_interval,
            guilds_per_session=guilds_per_session,
        )
        # Discord's per-route limits (tests/fakediscord/ratelimits.py), for load runs.
        self.limits = DiscordLimits() if discord_limits else None
        self.clock = clock or Clock()
        self.response_deadline = response_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        # Discord's HEARTBEAT_ACK comes back over the network, a round trip after the heartbeat
        # left. Answered at once, it would beat discord.py's keep-alive thread to noting when it
        # sent the beat: the bot would take the whole interval (41 s) for its latency.
        self.gateway_round_trip = gateway_round_trip
        self.ids = Snowflakes()
        self.bot_user = User(self.ids.next(), "CardTable", bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = User(self.ids.next(), "owner")
        self.users: dict[int, User] = {
            self.bot_user.id: self.bot_user,
            self.owner_user.id: self.owner_user,
        }
        self.guilds: dict[int, Guild] = {}
        self.messages: dict[int, Message] = {}
        self.global_commands: dict[str, Command] = {}
        self.guild_commands: dict[int, dict[str, Command]] = {}
        self.interactions: dict[int, Interaction] = {}
        self._answered: dict[int, asyncio.Event] = {}
        self.requests: list[Recorded] = []
        self.unknown_routes: list[Recorded] = []
        self.errors: list[Recorded] = []  # every 4xx the bot caused
        self.gateway_log: list[dict[str, Any]] = []
        self.rate_limits: list[RateLimitRule] = []
        self.faults: list[FaultRule] = []
        self.dm_channels: dict[int, Channel] = {}
        self.attachment_data: dict[str, bytes] = {}  # attachment id -> the uploaded bytes
        # The application's own emojis, by id: payload and image size (bytes).
        self.app_emojis: dict[int, dict[str, Any]] = {}
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None  # the latest identified (or resumed) session
        self.shard_sessions: dict[int, Session] = {}  # shard id -> its current session
        self.identify_count = 0
        self.resume_count = 0
        self._connected = asyncio.Event()
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._fake_users: dict[str, FakeUser] = {}
        self._command_version = 0
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0
        self._routes = self._build_routes()

        self.default_guild = self.add_guild("Card Club")
        self.default_channel = self.add_channel("general")

    # ------------------------------------------------------------------ world building

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> Guild:
        """A guild; ``shard=(i, N)`` gives it an id that shard i of N owns."""
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = Guild(gid, name, owner_id=self.owner_user.id)
        guild.roles[gid] = Role(gid, "@everyone", EVERYONE_DEFAULT)
        bot_role = Role(self.ids.next(), "CardTable", BOT_DEFAULT, position=1)
        admin_role = Role(self.ids.next(), "Admin", 1 << 3, position=2)
        guild.roles[bot_role.id] = bot_role
        guild.roles[admin_role.id] = admin_role
        guild.members[self.owner_user.id] = Member(self.owner_user, gid)
        guild.members[self.bot_user.id] = Member(self.bot_user, gid, [bot_role.id])
        self.guilds[gid] = guild
        return guild

    def add_channel(
        self, name: str, guild: Guild | None = None, *, private_to: list[int] | None = None
    ) -> Channel:
        """A text channel; ``private_to`` (user ids) hides it from everyone else (and the bot
        unless listed)."""
        guild = guild or self.default_guild
        channel = Channel(self.ids.next(), guild.id, name, GUILD_TEXT, position=len(guild.channels))
        if private_to is not None:
            channel.overwrites.append(Overwrite(guild.id, 0, deny=VIEW_CHANNEL))
            for uid in private_to:
                channel.overwrites.append(Overwrite(uid, 1, allow=VIEW_CHANNEL | SEND_MESSAGES))
        guild.channels[channel.id] = channel
        return channel

    def add_member(
        self,
        name: str,
        guild: Guild | None = None,
        *,
        roles: tuple[str, ...] | list[str] = (),
        admin: bool = False,
    ) -> Member:
        guild = guild or self.default_guild
        user = next((u for u in self.users.values() if u.name == name and not u.bot), None)
        if user is None:
            user = User(self.ids.next(), name)
            self.users[user.id] = user
        role_ids = [r.id for r in guild.roles.values() if r.name in roles]
        if admin:
            role_ids.append(next(r.id for r in guild.roles.values() if r.name == "Admin"))
        member = guild.members.get(user.id)
        if member is None:
            member = Member(user, guild.id, role_ids)
            guild.members[user.id] = member
        return member

    async def edit_permissions(
        self, channel: Channel, target_id: int, *, allow: int = 0, deny: int = 0
    ) -> None:
        """A moderator sets the channel's permission overwrite for a member or a role (PUT
        /channels/{id}/permissions/{target}), or with neither allow nor deny deletes it (DELETE);
        the gateway tells the bot with CHANNEL_UPDATE, as Discord does."""
        guild = self.guilds[channel.guild_id]
        channel.overwrites = [o for o in channel.overwrites if o.target_id != target_id]
        if allow or deny:
            kind = 0 if target_id in guild.roles else 1
            channel.overwrites.append(Overwrite(target_id, kind, allow=allow, deny=deny))
        await self.dispatch("CHANNEL_UPDATE", channel.payload())

    def add_role(self, name: str, permissions: int, guild: Guild | None = None) -> Role:
        guild = guild or self.default_guild
        role = Role(self.ids.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    async def create_role(self, name: str, permissions: int, guild: Guild | None = None) -> Role:
        """A moderator creates a role: the gateway tells the bot with GUILD_ROLE_CREATE."""
        guild = guild or self.default_guild
        role = self.add_role(name, permissions, guild)
        await self.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}
        )
        return role

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
        from .users import FakeUser

        if name not in self._fake_users:
            member = self.add_member(name, roles=roles, admin=admin)
            member.user.locale = locale
            self._fake_users[name] = FakeUser(self, member.user)
        return self._fake_users[name]

    def channel(self, name_or_id: str | int) -> Channel:
        for guild in self.guilds.values():
            for ch in guild.channels.values():
                if ch.id == name_or_id or ch.name == name_or_id:
                    return ch
        raise KeyError(f"no channel {name_or_id!r}")

    def find_channel(self, channel_id: int) -> tuple[Guild, Channel] | None:
        if channel_id in self.dm_channels:
            return Guild(0, "direct messages", owner_id=0), self.dm_channels[channel_id]
        for guild in self.guilds.values():
            ch = guild.channels.get(channel_id)
            if ch is not None:
                return guild, ch
        return None

    # ------------------------------------------------------------------ queries for tests

    def visible_to(self, user: User | int, channel: Channel | None = None) -> list[Message]:
        """Exactly what this user could see: public messages in channels they can view, plus
        ephemerals addressed to them. Oldest first."""
        uid = user if isinstance(user, int) else user.id
        out: list[Message] = []
        for msg in sorted(self.messages.values(), key=lambda m: m.id):
            if msg.deleted or (channel is not None and msg.channel_id != channel.id):
                continue
            if msg.ephemeral_to is not None:
                if msg.ephemeral_to == uid:
                    out.append(msg)
                continue
            found = self.find_channel(msg.channel_id)
            if found is not None and found[0].can_view(uid, found[1]):
                out.append(msg)
        return out

    def commands_for(self, guild_id: int | None) -> dict[str, Command]:
        merged = dict(self.global_commands)
        if guild_id is not None:
            merged.update(self.guild_commands.get(guild_id, {}))
        return merged

    def attachment_bytes(self, attachment: dict[str, Any]) -> bytes:
        """What the bot uploaded as this attachment (of a message's ``attachments``)."""
        return self.attachment_data[str(attachment["id"])]

    def bot_errors(self) -> list[Recorded]:
        return list(self.errors)

    def rate_limit(
        self,
        pattern: str = "",
        *,
        retry_after: float = 0.05,
        times: int = 1,
        is_global: bool = False,
    ) -> None:
        """Answer the next ``times`` requests matching ``pattern`` ("METHOD /path" substring)
        with 429, as Discord does (``Via`` header, ``retry_after`` in the body)."""
        self.rate_limits.append(RateLimitRule(pattern, retry_after, times, is_global))

    def fail(
        self,
        pattern: str,
        status: int = 503,
        *,
        code: int = 0,
        message: str = "",
        times: int = 1,
    ) -> FaultRule:
        """Answer the next ``times`` requests matching ``pattern`` ("METHOD /path" substring)
        with ``status``, as Discord does when it is down (5xx), refuses (403) or lost something
        (404). The returned rule's ``remaining`` tells how many are still to come."""
        default = {
            403: (50013, "Missing Permissions"),
            404: (10008, "Unknown Message"),
            500: (0, "500: Internal Server Error"),
            502: (0, "502: Bad Gateway"),
            503: (0, "503: Service Unavailable"),
        }.get(status, (0, f"{status}"))
        rule = FaultRule(pattern, status, code or default[0], message or default[1], times)
        self.faults.append(rule)
        return rule

    async def delete_message(self, message: Message | int) -> None:
        """A moderator deletes a message (the bot hears MESSAGE_DELETE, as on Discord)."""
        msg = self.messages[message if isinstance(message, int) else message.id]
        await self._delete(msg)

    async def delete_channel(self, channel: Channel | int) -> None:
        """A moderator deletes a channel or thread, as on Discord: its threads and messages go
        with it, the bot hears CHANNEL_DELETE (THREAD_DELETE for a thread deleted itself; none
        for the threads that go with their channel, as Discord sends none), and requests to it
        answer 404 Unknown Channel (10003)."""
        channel_id = channel if isinstance(channel, int) else channel.id
        found = self.find_channel(channel_id)
        if found is None:
            raise KeyError(f"no channel {channel_id}")
        guild, target = found
        gone = [target] + [
            c for c in guild.channels.values() if c.is_thread and c.parent_id == target.id
        ]
        for each in gone:
            guild.channels.pop(each.id, None)
            for msg in self.messages.values():
                if msg.channel_id == each.id:
                    msg.deleted = True
        if target.is_thread:
            await self.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(target.id),
                    "guild_id": str(guild.id),
                    "parent_id": str(target.parent_id),
                    "type": target.type,
                },
            )
        else:
            await self.dispatch("CHANNEL_DELETE", target.payload())

    def dm_channel(self, user: User) -> Channel:
        """The direct-message channel between ``user`` and the bot."""
        for channel in self.dm_channels.values():
            if channel.owner_id == user.id:
                return channel
        channel = Channel(self.ids.next(), 0, f"dm-{user.name}", 1, owner_id=user.id)
        self.dm_channels[channel.id] = channel
        return channel

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, interval: float = 0.01
    ) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met within {timeout}s")
            await asyncio.sleep(interval)

    async def quiet(self, idle: float = 0.1, timeout: float = 5.0) -> None:
        """Wait until the bot has made no request for ``idle`` seconds and owes no answer it
        deferred ("thinking") in the last few seconds: its work has settled. (A busy machine
        can leave more than ``idle`` between a deferral and the work that answers it.)"""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (
                self._in_flight == 0
                and time.monotonic() - self._last_activity >= idle
                and not self._thinking()
            ):
                return
            await asyncio.sleep(idle / 4)
        raise TimeoutError("the bot kept making requests")

    def _thinking(self) -> bool:
        """Whether a deferred answer younger than :data:`THINKING_GRACE` seconds is still
        "thinking" (older ones the bot failed to give: a test of that waits on its own)."""
        now = time.time()
        return any(m.loading and now - m.created < THINKING_GRACE for m in self.messages.values())

    async def wait_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot session is identified (or resumed) and its guilds were sent."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    @property
    def connected(self) -> bool:
        return self.session is not None and self.session.conn is not None

    @property
    def connected_shards(self) -> set[int]:
        """The shards whose current session is connected."""
        return {i for i, s in self.shard_sessions.items() if s.conn is not None}

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

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

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        q = request.query
        if q.get("encoding", "json") != "json" or q.get("v", str(API_VERSION)) != str(API_VERSION):
            self.gateway_log.append({"error": "bad query", "query": dict(q)})
            await ws.close(code=4012 if q.get("v") != str(API_VERSION) else 4002)
            return ws
        compress = q.get("compress")
        if compress not in (None, "zlib-stream"):
            self.gateway_log.append({"error": f"unsupported compress {compress}"})
            await ws.close(code=4000, message=b"fake supports zlib-stream only")
            return ws
        conn = Connection(ws, compress == "zlib-stream")
        await conn.send(
            {
                "op": 10,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                "s": None,
                "t": None,
            }
        )
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.BINARY:
                        await ws.close(code=4002)
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                data = frame.get("d")
                self.gateway_log.append({"recv": op})
                if op == 1:
                    conn.heartbeats += 1
                    ack = asyncio.create_task(self._acknowledge(conn))
                    conn.acks.add(ack)
                    ack.add_done_callback(conn.acks.discard)
                elif op == 2:
                    if session is not None:
                        await ws.close(code=4005)
                        break
                    if data.get("token") != self.token:
                        await ws.close(code=4004)
                        break
                    shard = parse_shard(data.get("shard"))
                    if isinstance(shard, str):
                        self.gateway_log.append({"error": shard})
                        await ws.close(code=CLOSE_INVALID_SHARD, message=shard.encode())
                        break
                    if self._guild_count(shard) > self.shard_rules.guilds_per_session:
                        await ws.close(code=CLOSE_SHARDING_REQUIRED)
                        break
                    if not self.shard_rules.may_identify(shard, self.clock.now()):
                        # Over max_concurrency: Discord answers Invalid Session (not resumable).
                        self.gateway_log.append({"refused": "identify", "shard": shard})
                        await conn.send({"op": 9, "d": False, "s": None, "t": None})
                        continue
                    session = await self._identify(conn, data, shard)
                elif op == 6:
                    resumed = self.sessions.get(data.get("session_id"))
                    if resumed is None or data.get("token") != self.token:
                        await conn.send({"op": 9, "d": False, "s": None, "t": None})
                        continue
                    session = await self._resume(conn, resumed, int(data.get("seq") or 0))
                elif op == 3:
                    continue
                elif op == 8:
                    await self._members_chunk(data)
                else:
                    await ws.close(code=4001)
                    break
        finally:
            for ack in list(conn.acks):
                ack.cancel()
            if session is not None and session.conn is conn:
                session.conn = None
                if ws.close_code in (1000, 1001) and not conn.closed_by_server:
                    # A clean close ends the session on Discord.
                    self.sessions.pop(session.id, None)
                if self.session is session:
                    self._connected.clear()
        return ws

    async def _acknowledge(self, conn: Connection) -> None:
        """HEARTBEAT_ACK (op 11), a network round trip after the heartbeat."""
        await asyncio.sleep(self.gateway_round_trip)
        await conn.send({"op": 11, "d": None, "s": None, "t": None})

    def _guild_count(self, shard: tuple[int, int] | None) -> int:
        if shard is None:
            return len(self.guilds)
        return sum(1 for g in self.guilds if shard_of(g, shard[1]) == shard[0])

    async def _identify(
        self, conn: Connection, data: dict[str, Any], shard: tuple[int, int] | None = None
    ) -> Session:
        self.identify_count += 1
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), shard)
        self.sessions[session.id] = session
        # A new session for a shard replaces the one before it (one bot: the latest wins).
        previous = self.shard_sessions.get(session.shard_id)
        if previous is not None and previous.conn is not None:
            old = previous.conn
            old.closed_by_server = True
            previous.conn = None
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        self.session = session
        self.shard_sessions[session.shard_id] = session
        session.conn = conn
        guilds = [g for g in self.guilds.values() if session.owns(g.id)]
        await self._dispatch_to(
            session,
            "READY",
            {
                "v": API_VERSION,
                "user": {
                    **self.bot_user.payload(),
                    "verified": True,
                    "mfa_enabled": False,
                    "flags": 0,
                },
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "shard": list(shard or (0, 1)),
            },
        )
        for guild in guilds:
            await self._dispatch_to(session, "GUILD_CREATE", self.guild_payload(guild))
        self._connected.set()
        return session

    async def _resume(self, conn: Connection, session: Session, seq: int) -> Session:
        self.resume_count += 1
        if session.conn is not None and session.conn is not conn:
            old = session.conn
            old.closed_by_server = True
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        session.conn = conn
        self.session = session
        self.shard_sessions[session.shard_id] = session
        for frame in session.buffer:
            if frame["s"] > seq:
                await conn.send(frame)
        await self._dispatch_to(session, "RESUMED", {})
        self._connected.set()
        return session

    async def _members_chunk(self, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or self.session is None:
            return
        members = [self.member_payload(guild, m.user.id) for m in guild.members.values()]
        chunk = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append(frame)
        del session.buffer[:-2000]
        self.gateway_log.append({"send": event, "s": session.seq})
        if session.conn is not None:
            await session.conn.send(frame)

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Send an event to the session of the shard that owns its guild (DMs: shard 0's),
        buffered for RESUME if it is disconnected."""
        guild_id = guild_of(event, data)
        session = next((s for s in self.shard_sessions.values() if s.owns(guild_id)), None)
        if session is None:
            self.gateway_log.append({"dropped": event})
            return False
        if event.startswith("MESSAGE_") and not session.intents & INTENT_GUILD_MESSAGES:
            return False
        await self._dispatch_to(session, event, data)
        return session.conn is not None

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Drop the bot's gateway connection (it should RESUME)."""
        if self.session is not None and self.session.conn is not None:
            self._connected.clear()
            self.session.conn.closed_by_server = True
            await self.session.conn.ws.close(code=code)

    # ------------------------------------------------------------------ payloads

    def member_payload(
        self, guild: Guild, user_id: int, channel: Channel | None = None
    ) -> dict[str, Any]:
        member = guild.members[user_id]
        perms = None if channel is None else guild.channel_permissions(user_id, channel)
        return member.payload(perms)

    def guild_payload(self, guild: Guild) -> dict[str, Any]:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": guild.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": [m.payload() for m in guild.members.values()],
            "channels": [c.payload() for c in guild.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in guild.channels.values() if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def message_event(self, msg: Message) -> dict[str, Any]:
        data = msg.payload()
        if msg.guild_id in self.guilds:
            guild = self.guilds[msg.guild_id]
            if msg.author.id in guild.members:
                member = guild.members[msg.author.id].payload()
                member.pop("user")
                data["member"] = member
        return data

    # ------------------------------------------------------------------ REST plumbing

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        table: list[tuple[str, str, Handler]] = [
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
        return [(m, re.compile(p + r"/?$"), h) for m, p, h in table]

    @staticmethod
    def _json(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        # Exactly "application/json": discord.py parses nothing else as JSON.
        return web.Response(
            status=status,
            body=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        files: list[dict[str, Any]] = []
        if request.content_type.startswith("multipart/"):
            body: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    content = await part.read()  # type: ignore[union-attr]
                    files.append(
                        {
                            "name": part.name,  # type: ignore[union-attr]
                            "filename": part.filename,  # type: ignore[union-attr]
                            "size": len(content),
                            "data": bytes(content),  # kept for the tests, never sent back
                            "content_type": _sniff(content),
                        }
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        if request.content_type != "application/json":
            raise DiscordError(400, 50109, "The request body contains invalid JSON.")
        return json.loads(raw), files

    async def _rest(self, request: web.Request) -> web.Response:
        self._in_flight += 1
        self._last_activity = time.monotonic()
        try:
            return await self._rest_inner(request)
        finally:
            self._in_flight -= 1
            self._last_activity = time.monotonic()

    def _limit(self, method: str, path: str) -> web.Response | dict[str, str] | None:
        """With Discord's limits on: a 429 for a request over its bucket, else its headers."""
        if self.limits is None:
            return None
        verdict = self.limits.check(method, path, self.limits.now())
        if verdict.retry_after is None:
            return verdict.headers
        reply = {
            "message": "You are being rate limited.",
            "retry_after": math.ceil(verdict.retry_after * 1000) / 1000,
            "global": verdict.is_global,
        }
        headers = {
            **verdict.headers,
            "Retry-After": str(max(1, round(verdict.retry_after))),
            "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
        }
        self.requests.append(Recorded(method, path, 429, None, reply))
        return self._json(429, reply, headers)

    async def _rest_inner(self, request: web.Request) -> web.Response:
        prefix = f"/api/v{API_VERSION}"
        path = request.path
        body: Any = None
        if not path.startswith(prefix):
            rec = Recorded(request.method, path, 404, None, None)
            self.requests.append(rec)
            self.unknown_routes.append(rec)
            return self._json(404, {"message": "404: Not Found", "code": 0})
        path = path[len(prefix) :] or "/"
        key = f"{request.method} {path}"
        limited = self._limit(request.method, path)
        if isinstance(limited, web.Response):
            return limited
        for rule in self.rate_limits:
            if rule.remaining > 0 and rule.pattern in key:
                rule.remaining -= 1
                reply = {
                    "message": "You are being rate limited.",
                    "retry_after": rule.retry_after,
                    "global": rule.is_global,
                }
                headers = {
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, round(rule.retry_after))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": str(rule.retry_after),
                    "X-RateLimit-Bucket": "fakebucket" + str(abs(hash(rule.pattern)) % 10000),
                    "X-RateLimit-Scope": "global" if rule.is_global else "user",
                }
                if rule.is_global:
                    headers["X-RateLimit-Global"] = "true"
                self.requests.append(Recorded(request.method, path, 429, None, reply))
                return self._json(429, reply, headers)
        for fault in self.faults:
            if fault.remaining > 0 and fault.pattern in key:
                fault.remaining -= 1
                reply = {"message": fault.message, "code": fault.code}
                self.requests.append(Recorded(request.method, path, fault.status, None, reply))
                log.info("fake discord: injected %s for %s", fault.status, key)
                if fault.status >= 500:  # Discord's own outage pages are not JSON
                    return web.Response(status=fault.status, text=fault.message)
                return self._json(fault.status, reply)
        for method, pattern, handler in self._routes:
            match = pattern.match(path)
            if match is None or method != request.method:
                continue
            try:
                body, files = await self._read_body(request)
                needs_auth = not path.startswith(("/interactions/", "/webhooks/"))
                if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    raise DiscordError(401, 0, "401: Unauthorized")
                if files:
                    body = dict(body or {})
                    body["__files__"] = files
                result = await handler(request, match.groupdict(), body)
            except DiscordError as exc:
                rec = Recorded(request.method, path, exc.status, body, exc.body)
                self.requests.append(rec)
                self.errors.append(rec)
                log.info("fake discord: %s %s -> %s %s", request.method, path, exc.status, exc.body)
                return self._json(exc.status, exc.body)
            status = 204 if result is None else 200
            self.requests.append(Recorded(request.method, path, status, body, result))
            return self._json(status, result, limited)
        rec = Recorded(request.method, path, 404, None, None)
        self.requests.append(rec)
        self.unknown_routes.append(rec)
        return self._json(404, {"message": "404: Not Found", "code": 0})

    # ------------------------------------------------------------------ REST: identity

    async def _get_me(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return {
            **self.bot_user.payload(),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "locale": "en-US",
        }

    async def _get_user(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        user = self.users.get(int(p["user"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return user.payload()

    async def _get_application(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Card games (fake Discord)",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner_user.payload(),
            "team": None,
            "flags": 0,
            "bot": self.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "tags": [],
        }

    async def _get_gateway(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return {
            "url": self.gateway_url,
            "shards": self.shard_rules.recommended_shards,
            "session_start_limit": self.shard_rules.session_start_limit(self.identify_count),
        }

    # ------------------------------------------------------------------ REST: commands

    def _check_app(self, p: dict[str, str]) -> None:
        if int(p["app"]) != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")

    async def _get_commands(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        self._check_app(p)
        if "guild" in p:
            return [c.payload() for c in self.guild_commands.get(int(p["guild"]), {}).values()]
        return [c.payload() for c in self.global_commands.values()]

    async def _put_commands(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        self._check_app(p)
        if not isinstance(body, list):
            raise DiscordError(400, 50035, "Invalid Form Body")
        guild_id = int(p["guild"]) if "guild" in p else None
        if guild_id is not None and guild_id not in self.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        errors = limits.check_commands(body, guild=guild_id is not None)
        if errors:
            raise form_error(errors)
        existing = (
            self.guild_commands.get(guild_id, {}) if guild_id is not None else self.global_commands
        )
        fresh: dict[str, Command] = {}
        for data in body:
            self._command_version += 1
            old = existing.get(data["name"])
            cid = old.id if old is not None else self.ids.next()
            fresh[data["name"]] = Command(
                cid, self.application_id, guild_id, dict(data), self._command_version
            )
        if guild_id is None:
            self.global_commands = fresh
        else:
            self.guild_commands[guild_id] = fresh
        return [c.payload() for c in fresh.values()]

    # ------------------------------------------------------------------ REST: application emojis

    def emoji_payload(self, emoji: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in emoji.items() if k != "size"}

    async def _get_app_emojis(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        self._check_app(p)
        return {"items": [self.emoji_payload(e) for e in self.app_emojis.values()]}

    async def _get_app_emoji(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        self._check_app(p)
        emoji = self.app_emojis.get(int(p["emoji"]))
        if emoji is None:
            raise DiscordError(404, 10014, "Unknown Emoji")
        return self.emoji_payload(emoji)

    async def _create_app_emoji(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        """Discord's limits: 2000 emojis per application, names unique, 256 KiB images."""
        self._check_app(p)
        if len(self.app_emojis) >= limits.MAX_APP_EMOJIS:
            raise DiscordError(400, 30018, "Maximum number of emojis reached (2000)")
        taken = {str(e["name"]) for e in self.app_emojis.values()}
        errors, image = limits.check_app_emoji(body, taken)
        if errors:
            raise form_error(errors)
        return self.emoji_payload(self.add_app_emoji(str(body["name"]), len(image)))

    def add_app_emoji(self, name: str, size: int = 1000) -> dict[str, Any]:
        """An emoji of the application (an upload, or one a bot uploaded at an earlier run)."""
        emoji_id = self.ids.next()
        self.app_emojis[emoji_id] = {
            "id": str(emoji_id),
            "name": name,
            "roles": [],
            "user": self.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
            "size": size,
        }
        return self.app_emojis[emoji_id]

    async def _delete_app_emoji(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        self._check_app(p)
        if self.app_emojis.pop(int(p["emoji"]), None) is None:
            raise DiscordError(404, 10014, "Unknown Emoji")
        return None

    # ------------------------------------------------------------------ REST: channels, messages

    def _channel(self, channel_id: int) -> tuple[Guild, Channel]:
        found = self.find_channel(channel_id)
        if found is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        guild, channel = found
        if not guild.can_view(self.bot_user.id, channel):
            raise DiscordError(403, 50001, "Missing Access")
        return found

    def _message(self, channel: Channel, message_id: int) -> Message:
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.is_ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    async def _get_channel(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return self._channel(int(p["channel"]))[1].payload()

    async def _get_guild(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        guild = self.guilds.get(int(p["guild"]))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        data = self.guild_payload(guild)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return data

    async def _get_guild_channels(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        guild = self.guilds.get(int(p["guild"]))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return [c.payload() for c in guild.channels.values() if not c.is_thread]

    async def _get_member(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        guild = self.guilds.get(int(p["guild"]))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        if int(p["user"]) not in guild.members:
            raise DiscordError(404, 10007, "Unknown Member")
        return guild.members[int(p["user"])].payload()

    async def _get_history(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        _, channel = self._channel(int(p["channel"]))
        limit = int(request.query.get("limit", 50))
        msgs = [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.is_ephemeral
        ]
        msgs.sort(key=lambda m: m.id, reverse=True)
        return [m.payload() for m in msgs[:limit]]

    def _validate_message(
        self, body: dict[str, Any], *, creating: bool, ephemeral_ok: bool
    ) -> None:
        errors = limits.check_message(
            body,
            creating=creating,
            allow_ephemeral=ephemeral_ok,
            has_files=bool(body.get("__files__")),
        )
        self._check_component_emojis(errors, body)
        if errors:
            raise form_error(errors)

    def _check_component_emojis(self, errors: limits.FormErrors, body: dict[str, Any]) -> None:
        """A custom emoji on a button or a select option must be one the bot may use: here,
        one of the application's own (the fake's guilds have no emojis)."""
        for r, row in enumerate(body.get("components") or []):
            for c, comp in enumerate(row.get("components") or []):
                emojis: list[tuple[tuple[str | int, ...], Any]] = [
                    ((*("components", r, "components", c), "emoji"), comp.get("emoji"))
                ]
                emojis += [
                    ((*("components", r, "components", c), "options", o, "emoji"), opt.get("emoji"))
                    for o, opt in enumerate(comp.get("options") or [])
                ]
                for path, emoji in emojis:
                    emoji_id = (emoji or {}).get("id")
                    if emoji_id is not None and int(emoji_id) not in self.app_emojis:
                        errors.add(path, "COMPONENT_INVALID_EMOJI", "Invalid emoji")

    def _apply_edit(self, msg: Message, body: dict[str, Any]) -> None:
        msg.history.append(msg.payload())
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = body["embeds"] or []
        if "components" in body:
            msg.components = body["components"] or []
        if "attachments" in body:
            msg.attachments = self._edited_attachments(msg, body)
        self._resolve_embed_images(msg)
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & (FLAG_EPHEMERAL | (1 << 15))
            msg.flags = keep | (int(body["flags"]) & ~FLAG_EPHEMERAL)
        msg.edited = time.time()

    def _edited_attachments(self, msg: Message, body: dict[str, Any]) -> list[dict[str, Any]]:
        """An edit's ``attachments`` as Discord reads them: the message's own by their ids (the
        rest are removed), and new uploads by the index of their ``files[n]`` part."""
        uploads = {str(f["name"]): f for f in body.get("__files__", [])}
        kept = {str(a["id"]): a for a in msg.attachments}
        attachments = []
        for a in body.get("attachments") or []:
            aid = str(a.get("id"))
            if aid in kept:
                attachments.append(kept[aid])
            elif f"files[{aid}]" in uploads:
                upload = uploads[f"files[{aid}]"]
                name = a.get("filename") or upload["filename"]
                described = {"description": a["description"]} if a.get("description") else {}
                attachments.append(self._attachment({**upload, "filename": name, **described}))
            else:
                raise DiscordError(400, 50035, "Invalid Form Body: unknown attachment")
        return attachments

    def _resolve_embed_images(self, msg: Message) -> None:
        """An embed's ``attachment://name`` image or thumbnail points at the message's
        attachment of that name, as on Discord (an unknown name is left as it is: no image)."""
        by_name = {a["filename"]: a for a in msg.attachments}
        for embed in msg.embeds:
            for key in ("image", "thumbnail"):
                url = str((embed.get(key) or {}).get("url", ""))
                if url.startswith("attachment://") and url[13:] in by_name:
                    found = by_name[url[13:]]
                    embed[key] = {**embed[key], "url": found["url"], "proxy_url": found["url"]}

    def embed_image(self, msg: Message) -> bytes | None:
        """The bytes of the picture a message's first embed shows, if it shows one."""
        for embed in msg.embeds:
            url = str((embed.get("image") or {}).get("url", ""))
            for a in msg.attachments:
                if url and a["url"] == url:
                    return self.attachment_data.get(str(a["id"]))
        return None

    def _attachment(self, a: dict[str, Any]) -> dict[str, Any]:
        aid = str(a.get("id", self.ids.next()))
        name = a.get("filename", "file")
        if "data" in a:  # a file uploaded with this request: keep what it holds
            self.attachment_data[aid] = a["data"]
        return {
            "id": aid,
            "filename": name,
            "size": a.get("size", 0),
            **({"content_type": a["content_type"]} if a.get("content_type") else {}),
            **({"description": a["description"]} if a.get("description") else {}),
            "url": f"{self.base_url}/attachments/{aid}/{name}",
            "proxy_url": f"{self.base_url}/attachments/{aid}/{name}",
        }

    def new_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        *,
        ephemeral_to: int | None = None,
        interaction: Interaction | None = None,
        flags_extra: int = 0,
    ) -> Message:
        flags = int(body.get("flags") or 0) | flags_extra
        if ephemeral_to is None:
            flags &= ~FLAG_EPHEMERAL
        msg = Message(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=self._new_attachments(body),
            flags=flags,
            ephemeral_to=ephemeral_to,
            allowed_mentions=body.get("allowed_mentions"),
        )
        if interaction is not None:
            msg.application_id = self.application_id
            msg.webhook_id = self.application_id
            msg.type = 20 if interaction.type == 2 else 0
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id)},
            }
            if interaction.message_id is not None:
                meta["interacted_message_id"] = str(interaction.message_id)
            msg.interaction = meta
        self._resolve_embed_images(msg)
        self.messages[msg.id] = msg
        channel.last_message_id = msg.id
        return msg

    def _new_attachments(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """A new message's uploads, with the file names and descriptions its ``attachments``
        give them."""
        said = {f"files[{a.get('id')}]": a for a in body.get("attachments") or []}
        found = []
        for upload in body.get("__files__", []):
            a = said.get(str(upload["name"]), {})
            described = {"description": a["description"]} if a.get("description") else {}
            name = a.get("filename") or upload["filename"]
            found.append(self._attachment({**upload, "filename": name, **described}))
        return found

    async def _create_message(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        guild, channel = self._channel(int(p["channel"]))
        perms = guild.channel_permissions(self.bot_user.id, channel)
        need = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if not perms & need:
            raise DiscordError(403, 50013, "Missing Permissions")
        if channel.archived:
            raise DiscordError(400, 50083, "Thread is archived")
        self._validate_message(body or {}, creating=True, ephemeral_ok=False)
        msg = self.new_message(channel, self.bot_user, body)
        await self.dispatch("MESSAGE_CREATE", self.message_event(msg))
        return msg.payload()

    async def _get_message(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        _, channel = self._channel(int(p["channel"]))
        return self._message(channel, int(p["message"])).payload()

    async def _edit_message(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        _, channel = self._channel(int(p["channel"]))
        msg = self._message(channel, int(p["message"]))
        if msg.author.id != self.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._validate_message(body or {}, creating=False, ephemeral_ok=False)
        self._apply_edit(msg, body or {})
        await self.dispatch("MESSAGE_UPDATE", self.message_event(msg))
        return msg.payload()

    async def _delete_message(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        guild, channel = self._channel(int(p["channel"]))
        msg = self._message(channel, int(p["message"]))
        if msg.author.id != self.bot_user.id and not (
            guild.channel_permissions(self.bot_user.id, channel) & MANAGE_MESSAGES
        ):
            raise DiscordError(403, 50013, "Missing Permissions")
        await self._delete(msg)
        return None

    async def _delete(self, msg: Message) -> None:
        msg.deleted = True
        if not msg.is_ephemeral:
            await self.dispatch(
                "MESSAGE_DELETE",
                {
                    "id": str(msg.id),
                    "channel_id": str(msg.channel_id),
                    "guild_id": str(msg.guild_id),
                },
            )

    async def _new_thread(
        self, guild: Guild, parent: Channel, name: str, kind: int, message_id: int | None
    ) -> Channel:
        if parent.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        perms = guild.channel_permissions(self.bot_user.id, parent)
        from .model import CREATE_PRIVATE_THREADS, CREATE_PUBLIC_THREADS

        need = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        if not perms & need:
            raise DiscordError(403, 50013, "Missing Permissions")
        errors = limits.FormErrors()
        limits._max_len(errors, ("name",), name, 100, 1)
        if errors:
            raise form_error(errors)
        thread = Channel(
            message_id or self.ids.next(),
            guild.id,
            name,
            kind,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            thread_member_ids={self.bot_user.id},
        )
        guild.channels[thread.id] = thread
        await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    async def _thread_from_message(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        guild, channel = self._channel(int(p["channel"]))
        msg = self._message(channel, int(p["message"]))
        if msg.thread_id is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = await self._new_thread(
            guild, channel, str((body or {}).get("name", "")), PUBLIC_THREAD, msg.id
        )
        msg.thread_id = thread.id
        return thread.payload()

    async def _thread_without_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> Any:
        guild, channel = self._channel(int(p["channel"]))
        kind = int((body or {}).get("type") or PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise form_error(
                _single(("type",), "BASE_TYPE_CHOICES", "Value must be one of (11, 12).")
            )
        return (
            await self._new_thread(guild, channel, str((body or {}).get("name", "")), kind, None)
        ).payload()

    async def _add_thread_member(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        guild, thread = self._channel(int(p["channel"]))
        if not thread.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        uid = self.bot_user.id if p["user"] == "@me" else int(p["user"])
        if uid not in guild.members:
            raise DiscordError(404, 10007, "Unknown Member")
        thread.thread_member_ids.add(uid)
        return None

    async def _remove_thread_member(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> Any:
        _, thread = self._channel(int(p["channel"]))
        uid = self.bot_user.id if p["user"] == "@me" else int(p["user"])
        thread.thread_member_ids.discard(uid)
        return None

    # ------------------------------------------------------------------ REST: interactions

    def _interaction_by_token(self, app: str, token: str) -> Interaction:
        if int(app) != self.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook")
        ia = next((i for i in self.interactions.values() if i.token == token), None)
        if ia is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if self.clock.now() > ia.created + TOKEN_LIFETIME:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        if ia.response_type is None:
            # A followup or @original before the initial response.
            raise DiscordError(404, 10015, "Unknown Webhook")
        return ia

    async def _callback(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        ia = self.interactions.get(int(p["interaction"]))
        if ia is None or ia.token != p["token"]:
            raise DiscordError(*UNKNOWN_INTERACTION)
        now = self.clock.now()
        if ia.response_type is not None:
            ia.errors.append("second initial response")
            raise DiscordError(*ALREADY_ACKNOWLEDGED)
        if now > ia.created + self.response_deadline:
            ia.errors.append(f"initial response after {now - ia.created:.2f}s")
            ia.failed = True
            raise DiscordError(*UNKNOWN_INTERACTION)
        body = body or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        data = {**data, "__files__": body.get("__files__", [])} if body.get("__files__") else data
        allowed = {
            2: {4, 5, 9},
            3: {4, 5, 6, 7, 9},
            4: {8},
            5: {4, 5, 6, 7} if ia.message_id is not None else {4, 5},
        }[ia.type]
        if kind not in allowed:
            raise DiscordError(
                400,
                40043 if kind == 9 else 50035,
                f"Interaction response type {kind} is not valid for interaction type {ia.type}",
            )
        found = self.find_channel(ia.channel_id)
        assert found is not None
        _, channel = found
        ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        resource: dict[str, Any] | None = None
        msg: Message | None = None
        if kind == 4:
            self._validate_message(data, creating=True, ephemeral_ok=True)
            msg = self.new_message(
                channel,
                self.bot_user,
                data,
                ephemeral_to=ia.user.id if ephemeral else None,
                interaction=ia,
            )
            ia.original_message_id = msg.id
        elif kind == 5:
            errors = limits.check_message(data, creating=False, allow_ephemeral=True)
            if errors:
                raise form_error(errors)
            msg = self.new_message(
                channel,
                self.bot_user,
                {"flags": int(data.get("flags") or 0)},
                ephemeral_to=ia.user.id if ephemeral else None,
                interaction=ia,
                flags_extra=FLAG_LOADING,
            )
            ia.original_message_id = msg.id
        elif kind in (6, 7):
            target = self.messages.get(ia.message_id or 0)
            if target is None or target.deleted:
                raise DiscordError(404, 10008, "Unknown Message")
            ia.original_message_id = target.id
            if kind == 7:
                self._validate_message(data, creating=False, ephemeral_ok=False)
                self._apply_edit(target, data)
                msg = target
                ephemeral = target.is_ephemeral
        elif kind == 8:
            choices = data.get("choices") or []
            if len(choices) > limits.MAX_CHOICES:
                raise form_error(
                    _single(
                        ("data", "choices"),
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 25 or fewer in length.",
                    )
                )
            for i, ch in enumerate(choices):
                errs = limits.FormErrors()
                limits._max_len(errs, ("data", "choices", i, "name"), ch.get("name"), 100, 1)
                if isinstance(ch.get("value"), str):
                    limits._max_len(errs, ("data", "choices", i, "value"), ch.get("value"), 100)
                if errs:
                    raise form_error(errs)
            ia.choices = choices
        elif kind == 9:
            errors = limits.check_modal(data)
            if errors:
                raise form_error(errors)
            ia.modal = data
        ia.response_type = kind
        ia.responded_at = now
        event = self._answered.get(ia.id)
        if event is not None:
            event.set()
        if msg is not None and not msg.is_ephemeral:
            name = "MESSAGE_CREATE" if kind in (4, 5) else "MESSAGE_UPDATE"
            await self.dispatch(name, self.message_event(msg))
        callback: dict[str, Any] = {"id": str(ia.id), "type": ia.type}
        if msg is not None and kind in (4, 5):
            callback["response_message_id"] = str(msg.id)
            callback["response_message_loading"] = kind == 5
            callback["response_message_ephemeral"] = ephemeral
        if msg is not None:
            resource = {"type": kind, "message": msg.payload()}
        elif kind in (6, 8, 9):
            resource = {"type": kind}
        out: dict[str, Any] = {"interaction": callback}
        if resource is not None:
            out["resource"] = resource
        return out

    def _resolve_webhook_message(self, ia: Interaction, ref: str) -> Message:
        mid = ia.original_message_id if ref == "@original" else int(ref)
        msg = self.messages.get(mid or 0)
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        if (
            ref != "@original"
            and msg.id not in ia.followup_ids
            and msg.id != ia.original_message_id
        ):
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        ia = self._interaction_by_token(p["app"], p["token"])
        body = body or {}
        self._validate_message(body, creating=True, ephemeral_ok=True)
        original = self.messages.get(ia.original_message_id or 0)
        if (
            ia.response_type == 5
            and original is not None
            and original.loading
            and not ia.followup_ids
        ):
            # The first followup after a "thinking" defer replaces the loading message.
            original.flags &= ~FLAG_LOADING
            self._apply_edit(original, {k: v for k, v in body.items() if k != "flags"})
            if body.get("__files__"):
                original.attachments = [self._attachment(f) for f in body["__files__"]]
            ia.followup_ids.append(original.id)
            if not original.is_ephemeral:
                await self.dispatch("MESSAGE_UPDATE", self.message_event(original))
            msg = original
        else:
            found = self.find_channel(ia.channel_id)
            assert found is not None
            ephemeral = bool(int(body.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self.new_message(
                found[1],
                self.bot_user,
                body,
                ephemeral_to=ia.user.id if ephemeral else None,
                interaction=ia,
            )
            ia.followup_ids.append(msg.id)
            if not msg.is_ephemeral:
                await self.dispatch("MESSAGE_CREATE", self.message_event(msg))
        if request.query.get("wait") in ("1", "true", "True"):
            return msg.payload()
        return None

    async def _get_webhook_message(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        ia = self._interaction_by_token(p["app"], p["token"])
        return self._resolve_webhook_message(ia, p["message"]).payload()

    async def _edit_webhook_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> Any:
        ia = self._interaction_by_token(p["app"], p["token"])
        msg = self._resolve_webhook_message(ia, p["message"])
        self._validate_message(body or {}, creating=False, ephemeral_ok=False)
        msg.flags &= ~FLAG_LOADING
        self._apply_edit(msg, body or {})
        if not msg.is_ephemeral:
            await self.dispatch("MESSAGE_UPDATE", self.message_event(msg))
        return msg.payload()

    async def _delete_webhook_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> Any:
        ia = self._interaction_by_token(p["app"], p["token"])
        msg = self._resolve_webhook_message(ia, p["message"])
        await self._delete(msg)
        return None

    # ------------------------------------------------------------------ users' side

    async def send_interaction(
        self,
        user: User,
        kind: int,
        data: dict[str, Any],
        channel: Channel,
        message: Message | None = None,
    ) -> InteractionResult:
        """Deliver an interaction as the Discord client would and wait for the first answer."""

        if channel.id in self.dm_channels:
            return await self._send_dm_interaction(user, kind, data, channel, message)
        guild = self.guilds[channel.guild_id]
        ia = Interaction(
            id=self.ids.next(),
            token=Interaction.new_token(),
            type=kind,
            user=user,
            guild_id=guild.id,
            channel_id=channel.id,
            payload={},
            created=self.clock.now(),
            message_id=message.id if message is not None else None,
        )
        payload: dict[str, Any] = {
            "id": str(ia.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel.id),
            "channel": {
                **channel.payload(),
                "permissions": str(guild.channel_permissions(user.id, channel)),
            },
            "member": self.member_payload(guild, user.id, channel),
            "token": ia.token,
            "version": 1,
            "app_permissions": str(guild.channel_permissions(self.bot_user.id, channel)),
            "locale": user.locale,
            "guild_locale": guild.locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if message is not None:
            payload["message"] = message.payload()
        return await self._deliver(ia, payload)

    async def _send_dm_interaction(
        self,
        user: User,
        kind: int,
        data: dict[str, Any],
        channel: Channel,
        message: Message | None,
    ) -> InteractionResult:
        """An interaction from a direct message with the bot (no guild, no member)."""
        ia = Interaction(
            id=self.ids.next(),
            token=Interaction.new_token(),
            type=kind,
            user=user,
            guild_id=None,
            channel_id=channel.id,
            payload={},
            created=self.clock.now(),
            message_id=message.id if message is not None else None,
        )
        payload: dict[str, Any] = {
            "id": str(ia.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": {k: v for k, v in data.items() if k != "guild_id"},
            "channel_id": str(channel.id),
            "channel": {"id": str(channel.id), "type": 1, "recipients": [user.payload()]},
            "user": user.payload(),
            "token": ia.token,
            "version": 1,
            "app_permissions": str(VIEW_CHANNEL | SEND_MESSAGES),
            "locale": user.locale,
            "entitlements": [],
            "authorizing_integration_owners": {"1": str(user.id)},
            "context": 1,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if message is not None:
            payload["message"] = message.payload()
        return await self._deliver(ia, payload)

    async def _deliver(self, ia: Interaction, payload: dict[str, Any]) -> InteractionResult:
        from .users import InteractionResult

        ia.payload = payload
        self.interactions[ia.id] = ia
        event = asyncio.Event()
        self._answered[ia.id] = event
        started = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", payload)
        remaining = ia.created + self.response_deadline - self.clock.now()
        try:
            await asyncio.wait_for(event.wait(), max(remaining, 0.0))
        except TimeoutError:
            ia.failed = True
        finally:
            self._answered.pop(ia.id, None)
        return InteractionResult(self, ia, time.monotonic() - started)


def _single(path: tuple[str | int, ...], code: str, message: str) -> limits.FormErrors:
    errors = limits.FormErrors()
    errors.add(path, code, message)
    return errors


__all__ = [
    "DEFAULT_TOKEN",
    "MANAGE_CHANNELS",
    "MANAGE_GUILD",
    "DiscordError",
    "FakeDiscord",
    "Recorded",
]


def _sniff(content: bytes) -> str | None:
    """The media type Discord reports for an upload, read from its first bytes as Discord does
    (only the kinds the bot sends: PNG pictures and JSON files)."""
    if content.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if content.lstrip()[:1] in (b"{", b"["):
        return "application/json; charset=utf-8"
    return None
