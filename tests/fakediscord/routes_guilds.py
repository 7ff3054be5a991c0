"""REST: guilds, channels, members, users and threads; and what moderators do to them
(permission overwrites, roles, deleted channels), which the gateway tells the bot."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import limits
from .errors import DiscordError, form_error, one_error
from .gateway import GatewayPart
from .model import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Channel,
    Guild,
    Overwrite,
    Role,
)


class GuildsPart(GatewayPart):
    """Guilds, channels and threads, as the bot reads them and moderators change them."""

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

    async def _get_channel(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return self._channel(int(p["channel"]))[1].payload()

    async def _get_member(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        guild = self.guilds.get(int(p["guild"]))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        if int(p["user"]) not in guild.members:
            raise DiscordError(404, 10007, "Unknown Member")
        return guild.members[int(p["user"])].payload()

    async def _get_user(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        user = self.users.get(int(p["user"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return user.payload()

    # ------------------------------------------------------------------ threads

    async def _new_thread(
        self, guild: Guild, parent: Channel, name: str, kind: int, message_id: int | None
    ) -> Channel:
        if parent.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        perms = guild.channel_permissions(self.bot_user.id, parent)
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
                one_error(("type",), "BASE_TYPE_CHOICES", "Value must be one of (11, 12).")
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

    # ------------------------------------------------------------------ moderators

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

    async def create_role(self, name: str, permissions: int, guild: Guild | None = None) -> Role:
        """A moderator creates a role: the gateway tells the bot with GUILD_ROLE_CREATE."""
        guild = guild or self.default_guild
        role = self.add_role(name, permissions, guild)
        await self.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}
        )
        return role

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
