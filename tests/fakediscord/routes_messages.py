"""REST: messages (create, read, edit, delete, history), their checks against Discord's
limits, and their attachments and embed images."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from . import limits
from .errors import DiscordError, form_error
from .gateway import GatewayPart
from .model import (
    FLAG_EPHEMERAL,
    MANAGE_MESSAGES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    Interaction,
    Message,
    User,
)


class MessagesPart(GatewayPart):
    """Messages, as the bot sends and edits them and as a moderator deletes them."""

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

    async def delete_message(self, message: Message | int) -> None:
        """A moderator deletes a message (the bot hears MESSAGE_DELETE, as on Discord)."""
        msg = self.messages[message if isinstance(message, int) else message.id]
        await self._delete(msg)

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

    # ------------------------------------------------------------------ attachments

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
