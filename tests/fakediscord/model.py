"""The fake Discord's state: guilds, channels, members, messages, commands and interactions.

Everything here is plain data plus the rules that decide who may see what. The HTTP and gateway
layers (``server.py``) turn it into the JSON payloads discord.py expects.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types.
GUILD_TEXT = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


class Clock:
    """Monotonic seconds that a test may push forward (token expiry, response deadlines)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Snowflakes:
    """Real-looking, strictly increasing snowflakes (discord.py derives created_at from them)."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake whose guild would live on ``shard_id`` of ``shard_count``: its
        timestamp moved up to ``shard_count - 1`` milliseconds ahead (shard = ms % count)."""
        value = self.next()
        ahead = (shard_id - (value >> 22)) % shard_count
        if ahead:
            value = (((value >> 22) + ahead) << 22) | (value & 0x3FFFFF)
            self._last = value
        return value


def iso(ts: float | None = None) -> str:
    moment = dt.datetime.fromtimestamp(ts if ts is not None else time.time(), tz=dt.UTC)
    return moment.isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"  # the person's Discord client language, sent with each interaction

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Overwrite:
    target_id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.target_id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso)

    def payload(self, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "nick": None,
            "avatar": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Channel:
    id: int
    guild_id: int
    name: str
    type: int = GUILD_TEXT
    parent_id: int | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    owner_id: int | None = None  # threads
    thread_member_ids: set[int] = field(default_factory=set)
    archived: bool = False
    position: int = 0
    last_message_id: int | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "type": self.type,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                {
                    "parent_id": str(self.parent_id),
                    "owner_id": str(self.owner_id) if self.owner_id else None,
                    "message_count": 0,
                    "member_count": len(self.thread_member_ids),
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": 1440,
                        "archive_timestamp": iso(),
                        "locked": False,
                        "invitable": self.type == PUBLIC_THREAD,
                        "create_timestamp": iso(),
                    },
                    "total_message_sent": 0,
                }
            )
        else:
            data.update(
                {
                    "parent_id": str(self.parent_id) if self.parent_id else None,
                    "position": self.position,
                    "permission_overwrites": [o.payload() for o in self.overwrites],
                    "topic": None,
                    "nsfw": False,
                    "default_auto_archive_duration": 1440,
                }
            )
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"  # the server's preferred locale (Discord's community setting)
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        if member is None:
            return 0
        perms = self.everyone.permissions
        for role_id in member.role_ids:
            role = self.roles.get(role_id)
            if role is not None:
                perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def channel_permissions(self, user_id: int, channel: Channel) -> int:
        """Discord's permission computation, including overwrites and thread rules."""
        if channel.is_thread:
            parent = self.channels[channel.parent_id] if channel.parent_id else None
            if parent is None:
                return 0
            perms = self.channel_permissions(user_id, parent)
            if (
                channel.type == PRIVATE_THREAD
                and not perms & MANAGE_THREADS
                and user_id not in channel.thread_member_ids
            ):
                perms &= ~VIEW_CHANNEL
            return perms
        perms = self.base_permissions(user_id)
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        if member is None:
            return 0
        by_target = {o.target_id: o for o in channel.overwrites}
        everyone = by_target.get(self.id)
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role_id in member.role_ids:
            ow = by_target.get(role_id)
            if ow is not None:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        own = by_target.get(user_id)
        if own is not None and own.type == 1:
            perms = (perms & ~own.deny) | own.allow
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    def can_view(self, user_id: int, channel: Channel) -> bool:
        return bool(self.channel_permissions(user_id, channel) & VIEW_CHANNEL)


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    ephemeral_to: int | None = None  # None: public
    interaction: dict[str, Any] | None = None  # interaction_metadata
    application_id: int | None = None
    webhook_id: int | None = None
    type: int = 0  # 0 default, 20 chat input command, 19 reply
    created: float = field(default_factory=time.time)
    edited: float | None = None
    deleted: bool = False
    thread_id: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)  # earlier versions
    allowed_mentions: dict[str, Any] | None = None  # as the last create or edit sent it

    @property
    def is_ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def iter_components(self) -> list[dict[str, Any]]:
        """Every interactive component, depth first (rows, then their children)."""
        found: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if item.get("type") in (2, 3, 5, 6, 7, 8):
                    found.append(item)
                walk(item.get("components", []))
                if "accessory" in item:
                    walk([item["accessory"]])

        walk(self.components)
        return found

    def pinged(self) -> set[str]:
        """Who the content's mentions notify, as Discord decides from ``allowed_mentions``:
        user ids, ``&role`` ids and ``everyone``. Mentions in embeds never notify; without
        ``allowed_mentions`` every mention in the content does."""
        allowed = self.allowed_mentions
        parse = None if allowed is None else set(allowed.get("parse") or ())
        users = {str(u) for u in (allowed or {}).get("users") or ()}
        roles = {str(r) for r in (allowed or {}).get("roles") or ()}
        found: set[str] = set()
        for match in re.finditer(r"<@(!?|&)(\d+)>|@(everyone|here)", self.content):
            role, number, crowd = match.groups()
            if crowd:
                if parse is None or "everyone" in parse:
                    found.add("everyone")
            elif role == "&":
                if parse is None or "roles" in parse or number in roles:
                    found.add("&" + number)
            elif parse is None or "users" in parse or number in users:
                found.add(number)
        return found

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def text(self) -> str:
        """The message as a person would read it (content, embeds, component labels)."""
        lines: list[str] = []
        if self.loading:
            lines.append("<bot is thinking...>")
        if self.content:
            lines.append(self.content)
        for embed in self.embeds:
            if embed.get("author", {}).get("name"):
                lines.append(f"  [{embed['author']['name']}]")
            if embed.get("title"):
                lines.append(f"  # {embed['title']}")
            if embed.get("description"):
                lines.extend("  " + ln for ln in str(embed["description"]).splitlines())
            for fld in embed.get("fields", []):
                lines.append(f"  {fld.get('name')}: {fld.get('value')}")
            alt = self.image_alt(embed)
            if alt is not None:  # the picture, as a screen reader (or images off) tells it
                lines.append(f"  [picture: {alt}]")
            if embed.get("footer", {}).get("text"):
                lines.append(f"  -- {embed['footer']['text']}")
        for row in self.components:
            parts: list[str] = []
            for comp in row.get("components", []):
                if comp.get("type") == 2:
                    label = comp.get("label") or (comp.get("emoji") or {}).get("name") or "?"
                    mark = " (disabled)" if comp.get("disabled") else ""
                    parts.append(f"[{label}]{mark}")
                elif comp.get("type") in (3, 5, 6, 7, 8):
                    opts = ", ".join(o.get("label", "") for o in comp.get("options", []))
                    placeholder = comp.get("placeholder") or comp.get("custom_id")
                    parts.append(f"<select {placeholder}: {opts}>")
            if parts:
                lines.append("  " + " ".join(parts))
        return "\n".join(lines)

    def image_alt(self, embed: dict[str, Any]) -> str | None:
        """The alt text of the picture ``embed`` shows (its attachment's description)."""
        url = str((embed.get("image") or {}).get("url", ""))
        for attachment in self.attachments:
            if url and attachment.get("url") == url and attachment.get("description"):
                return str(attachment["description"])
        return None

    def payload(self, guild: Guild | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created),
            "edited_timestamp": iso(self.edited) if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None and not self.is_ephemeral:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction
        return data


@dataclass
class Command:
    """One application command as the bot synced it (the stored, Discord-side view)."""

    id: int
    application_id: int
    guild_id: int | None
    data: dict[str, Any]
    version: int

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type", 1))

    def payload(self) -> dict[str, Any]:
        out = dict(self.data)
        out.update(
            {
                "id": str(self.id),
                "application_id": str(self.application_id),
                "version": str(self.version),
                "type": self.type,
                "default_member_permissions": self.data.get("default_member_permissions"),
                "nsfw": bool(self.data.get("nsfw", False)),
                "options": self.data.get("options", []),
                "description": self.data.get("description", ""),
                "contexts": self.data.get("contexts"),
                "integration_types": self.data.get("integration_types", [0]),
            }
        )
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        else:
            out["dm_permission"] = self.data.get("dm_permission", True)
        return out


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user: User
    guild_id: int | None
    channel_id: int
    payload: dict[str, Any]
    created: float  # fake clock
    message_id: int | None = None  # the message a component sat on
    response_type: int | None = None  # the initial callback type
    responded_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    failed: bool = False  # the user saw "This interaction failed"
    errors: list[str] = field(default_factory=list)  # rule violations by the bot

    @staticmethod
    def new_token() -> str:
        return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(24)
