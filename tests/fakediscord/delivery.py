"""The users' side: an interaction delivered to the bot as the Discord client sends it (from a
guild channel or a direct message), waiting for the bot's first answer."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .gateway import GatewayPart
from .model import SEND_MESSAGES, VIEW_CHANNEL, Channel, Interaction, Message, User

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class DeliveryPart(GatewayPart):
    """Interactions on their way to the bot."""

    async def deliver(
        self,
        user: User,
        kind: int,
        data: dict[str, Any],
        channel: Channel,
        message: Message | None = None,
    ) -> tuple[Interaction, float]:
        """Deliver an interaction as the Discord client would and wait for the first answer: the
        interaction, and the seconds until that answer (or the deadline)."""

        if channel.id in self.dm_channels:
            return await self._deliver_from_dm(user, kind, data, channel, message)
        guild = self.guilds[channel.guild_id]
        ia = self._new_interaction(user, kind, guild.id, channel, message)
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

    def _new_interaction(
        self,
        user: User,
        kind: int,
        guild_id: int | None,
        channel: Channel,
        message: Message | None,
    ) -> Interaction:
        """A new interaction of ``user`` in ``channel`` (``guild_id`` None: a direct message)."""
        return Interaction(
            id=self.ids.next(),
            token=Interaction.new_token(),
            type=kind,
            user=user,
            guild_id=guild_id,
            channel_id=channel.id,
            payload={},
            created=self.clock.now(),
            message_id=message.id if message is not None else None,
        )

    async def _deliver_from_dm(
        self,
        user: User,
        kind: int,
        data: dict[str, Any],
        channel: Channel,
        message: Message | None,
    ) -> tuple[Interaction, float]:
        """An interaction from a direct message with the bot (no guild, no member)."""
        ia = self._new_interaction(user, kind, None, channel, message)
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

    async def _deliver(self, ia: Interaction, payload: dict[str, Any]) -> tuple[Interaction, float]:
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
        return ia, time.monotonic() - started
