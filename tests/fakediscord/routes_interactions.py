"""REST: answering interactions: the initial response (within the deadline, once), followups
and the interaction's webhook messages (while its token lives)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import limits
from .errors import DiscordError, form_error, one_error
from .model import FLAG_EPHEMERAL, FLAG_LOADING, Interaction, Message
from .routes_messages import MessagesPart

TOKEN_LIFETIME = 15 * 60.0
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")


class InteractionsPart(MessagesPart):
    """The bot's answers to interactions."""

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
                    one_error(
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
