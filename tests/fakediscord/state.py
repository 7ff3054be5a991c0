"""The fake's state, which every part shares: the world (guilds, channels, members, messages,
commands, emojis), the gateway's sessions and the request log; building the world, and the
lookups tests and routes make in it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .errors import DiscordError
from .gateway_sessions import Session
from .model import (
    BOT_DEFAULT,
    EVERYONE_DEFAULT,
    GUILD_TEXT,
    SEND_MESSAGES,
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
from .records import FaultRule, RateLimitRule, Recorded
from .shards import DISCORD_GUILDS_PER_SESSION, DISCORD_IDENTIFY_INTERVAL, ShardRules

if TYPE_CHECKING:
    from .users import FakeUser

API_VERSION = 10
DEFAULT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.fake.token-for-the-in-repo-fake-discord"


class FakeState:
    """A small, strict, stateful Discord's data: one application (the bot), guilds, users."""

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

    def add_role(self, name: str, permissions: int, guild: Guild | None = None) -> Role:
        guild = guild or self.default_guild
        role = Role(self.ids.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

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

    def dm_channel(self, user: User) -> Channel:
        """The direct-message channel between ``user`` and the bot."""
        for channel in self.dm_channels.values():
            if channel.owner_id == user.id:
                return channel
        channel = Channel(self.ids.next(), 0, f"dm-{user.name}", 1, owner_id=user.id)
        self.dm_channels[channel.id] = channel
        return channel

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

    # ------------------------------------------------------------------ addresses

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    # ------------------------------------------------------------------ as the API finds them

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
