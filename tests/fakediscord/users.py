"""Simulated people: they type slash commands, click and pick only what is on their screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ClientRefused
from .model import Channel, Interaction, Message, User
from .slash_form import SlashForm

if TYPE_CHECKING:
    from .server import FakeDiscord

OPTION_TYPES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


class InteractionResult:
    """What the user saw after one action. Properties read the fake's live state."""

    def __init__(self, fake: FakeDiscord, interaction: Interaction, latency: float) -> None:
        self.fake = fake
        self.interaction = interaction
        self.latency = latency  # seconds until the first answer (or the deadline)

    @property
    def failed(self) -> bool:
        """The user saw "This interaction failed" (no valid initial response in time)."""
        return self.interaction.failed or self.interaction.response_type is None

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def deferred(self) -> bool:
        return self.interaction.response_type in (5, 6)

    @property
    def message(self) -> Message | None:
        """The response message (new for types 4/5, the edited one for 7/6), current state."""
        mid = self.interaction.original_message_id
        return None if mid is None else self.fake.messages.get(mid)

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return bool(msg is not None and msg.is_ephemeral)

    @property
    def followups(self) -> list[Message]:
        return [self.fake.messages[m] for m in self.interaction.followup_ids]

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.interaction.choices or [])

    @property
    def text(self) -> str:
        msg = self.message
        return "" if msg is None else msg.text()

    async def wait_done(self, timeout: float = 5.0) -> InteractionResult:
        """For a deferred "thinking" answer: wait until the loading message was replaced."""
        await self.fake.wait_for(lambda: self.message is None or not self.message.loading, timeout)
        return self

    def __repr__(self) -> str:
        return (
            f"<InteractionResult type={self.response_type} failed={self.failed} "
            f"ephemeral={self.ephemeral} latency={self.latency:.3f}s text={self.text!r}>"
        )


MessageRef = Message | InteractionResult | int


class FakeUser(SlashForm):
    def __init__(self, fake: FakeDiscord, user: User) -> None:
        self.fake = fake
        self.user = user
        self.open_modal: tuple[Interaction, dict[str, Any]] | None = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} {self.id}>"

    # -------------------------------------------------------------- what I see

    def visible_messages(self, channel: Channel | str | None = None) -> list[Message]:
        ch = self.fake.channel(channel) if isinstance(channel, str) else channel
        return self.fake.visible_to(self.user, ch)

    def last_ephemeral(self) -> Message | None:
        mine = [m for m in self.visible_messages() if m.ephemeral_to == self.id]
        return mine[-1] if mine else None

    def last_message(self, channel: Channel | str | None = None) -> Message | None:
        msgs = self.visible_messages(channel)
        return msgs[-1] if msgs else None

    def screen(self, channel: Channel | str | None = None) -> str:
        out = []
        for i, msg in enumerate(self.visible_messages(channel), 1):
            tag = " (only you can see this)" if msg.is_ephemeral else ""
            where = self.fake.channel(msg.channel_id).name
            out.append(f"#{i} [{where}] {msg.author.name}{tag}:\n{msg.text()}")
        return "\n".join(out)

    def _resolve_message(self, ref: MessageRef) -> Message:
        if isinstance(ref, InteractionResult):
            msg = ref.message
            if msg is None:
                raise ClientRefused("that interaction produced no message")
        elif isinstance(ref, Message):
            msg = self.fake.messages.get(ref.id, ref)
        else:
            msg = self.fake.messages.get(int(ref))
            if msg is None:
                raise ClientRefused(f"no message {ref}")
        if msg not in self.visible_messages():
            raise ClientRefused(f"{self.name} cannot see message {msg.id}")
        return msg

    def _channel_of(self, channel: Channel | str | None) -> Channel:
        if channel is None:
            return self.fake.default_channel
        return self.fake.channel(channel) if isinstance(channel, str) else channel

    # -------------------------------------------------------------- slash commands

    async def slash(
        self, command: str, *, channel: Channel | str | None = None, **options: Any
    ) -> InteractionResult:
        """Run ``/command sub`` with options, as the Discord client would send it."""
        ch = self._channel_of(channel)
        data, _ = self._build_command_data(command, options, ch)
        result = await self.fake.send_interaction(self.user, 2, data, ch)
        self._note_modal(result)
        return result

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str,
        *,
        channel: Channel | str | None = None,
        **options: Any,
    ) -> InteractionResult:
        ch = self._channel_of(channel)
        data, _ = self._build_command_data(command, {**options, option: typed}, ch, focused=option)
        return await self.fake.send_interaction(self.user, 4, data, ch)

    async def slash_in_dm(self, command: str, **options: Any) -> InteractionResult:
        """Run a command in a direct message with the bot, as a client allows once commands
        are synced globally without a context restriction (the bot must refuse it itself)."""
        data, _ = self._build_command_data(command, options, self.fake.default_channel)
        return await self.fake.send_interaction(self.user, 2, data, self.fake.dm_channel(self.user))

    async def crafted_slash(
        self,
        command: str,
        raw: dict[str, Any],
        *,
        channel: Channel | str | None = None,
        **options: Any,
    ) -> InteractionResult:
        """An attacker's client: like :meth:`slash`, then ``raw`` option values are sent as
        given (past the client's range and type checks)."""
        ch = self._channel_of(channel)
        data, _ = self._build_command_data(command, options, ch)
        leaf = data.setdefault("options", [])
        while leaf and leaf[0].get("type") in (1, 2):
            leaf = leaf[0].setdefault("options", [])
        schema = {o["name"]: o for o in self._leaf_schema(command, ch)}
        for name, value in raw.items():
            leaf[:] = [o for o in leaf if o["name"] != name]
            leaf.append({"name": name, "type": schema[name]["type"], "value": value})
        return await self.fake.send_interaction(self.user, 2, data, ch)

    async def crafted_component(
        self, message: MessageRef, custom_id: str, values: list[str] | None = None
    ) -> InteractionResult:
        """An attacker's client: a click (or, with ``values``, a select) with any custom id and
        values, on a message this user can see, whatever that message offers."""
        msg = self._resolve_message(message)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        ch = self.fake.channel(msg.channel_id)
        return await self.fake.send_interaction(self.user, 3, data, ch, message=msg)

    # -------------------------------------------------------------- components

    async def click(
        self,
        message: MessageRef,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        index: int = 0,
    ) -> InteractionResult:
        """Click a button (by label or custom_id) on a message this user can see."""
        msg = self._resolve_message(message)
        buttons = msg.buttons()
        matches = [
            b
            for b in buttons
            if (
                label is None
                or b.get("label") == label
                or (b.get("emoji") or {}).get("name") == label
            )
            and (custom_id is None or b.get("custom_id") == custom_id)
        ]
        if not matches:
            shown = [b.get("label") or b.get("custom_id") for b in buttons]
            raise ClientRefused(
                f"no button {label or custom_id!r} on message {msg.id} (buttons: {shown})"
            )
        if index >= len(matches):
            raise ClientRefused(f"only {len(matches)} buttons match {label or custom_id!r}")
        button = matches[index]
        if button.get("disabled"):
            raise ClientRefused(f"button {label or custom_id!r} is disabled")
        if button.get("style") in (5, 6):
            raise ClientRefused("link and premium buttons do not send interactions")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        ch = self.fake.channel(msg.channel_id)
        result = await self.fake.send_interaction(self.user, 3, data, ch, message=msg)
        self._note_modal(result)
        return result

    async def select(
        self, message: MessageRef, custom_id_or_placeholder: str, values: list[str]
    ) -> InteractionResult:
        msg = self._resolve_message(message)
        selects = [c for c in msg.iter_components() if c.get("type") in (3, 5, 6, 7, 8)]
        comp = next(
            (
                c
                for c in selects
                if custom_id_or_placeholder in (c.get("custom_id"), c.get("placeholder"))
            ),
            None,
        )
        if comp is None:
            raise ClientRefused(f"no select {custom_id_or_placeholder!r} on message {msg.id}")
        if comp.get("disabled"):
            raise ClientRefused("that select is disabled")
        picked: list[str] = []
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp["type"] == 3:
            options = comp.get("options") or []
            for v in values:
                opt = next((o for o in options if v in (o.get("value"), o.get("label"))), None)
                if opt is None:
                    raise ClientRefused(f"{v!r} is not an option of {custom_id_or_placeholder!r}")
                picked.append(opt["value"])
        else:
            guild = self.fake.guilds[msg.guild_id or self.fake.default_guild.id]
            resolved: dict[str, dict[str, Any]] = {}
            for v in values:
                picked.append(
                    self._convert(
                        "select",
                        {
                            "name": "values",
                            "type": 6
                            if comp["type"] == 5
                            else 8
                            if comp["type"] == 6
                            else 7
                            if comp["type"] == 8
                            else 9,
                        },
                        v,
                        guild,
                        resolved,
                    )
                )
            data["resolved"] = resolved
        if not comp.get("min_values", 1) <= len(picked) <= comp.get("max_values", 1):
            raise ClientRefused(
                f"pick between {comp.get('min_values', 1)} and {comp.get('max_values', 1)} values"
            )
        data["values"] = picked
        ch = self.fake.channel(msg.channel_id)
        result = await self.fake.send_interaction(self.user, 3, data, ch, message=msg)
        self._note_modal(result)
        return result

    # -------------------------------------------------------------- modals

    def _note_modal(self, result: InteractionResult) -> None:
        if result.modal is not None:
            self.open_modal = (result.interaction, result.modal)

    async def submit_modal(
        self, values: dict[str, str] | None = None, **by_id: str
    ) -> InteractionResult:
        """Fill the open modal (text inputs by custom_id or label) and submit it."""
        if self.open_modal is None:
            raise ClientRefused(f"{self.name} has no modal open")
        origin, modal = self.open_modal
        given = {**(values or {}), **by_id}
        rows: list[dict[str, Any]] = []
        used: set[str] = set()
        for row in modal.get("components") or []:
            if row.get("type") == 18:
                inner = row["component"]
                label = row.get("label")
            else:
                inner = (row.get("components") or [{}])[0]
                label = inner.get("label")
            cid = inner.get("custom_id")
            key = cid if cid in given else label if label in given else None
            value = (
                given.get(key, inner.get("value") or "")
                if key is not None
                else (inner.get("value") or "")
            )
            if key is not None:
                used.add(key)
            if inner.get("type") == 4:
                if inner.get("required", True) and not value:
                    raise ClientRefused(f"modal field {label or cid!r} is required")
                if len(value) > inner.get("max_length", 4000) or (
                    value and len(value) < inner.get("min_length", 0)
                ):
                    raise ClientRefused(f"modal field {label or cid!r} has the wrong length")
                submitted = {"type": 4, "custom_id": cid, "value": value}
            else:
                submitted = {
                    "type": inner.get("type"),
                    "custom_id": cid,
                    "values": list(value) if isinstance(value, list) else [value],
                }
            if "id" in inner:
                submitted["id"] = inner["id"]
            if row.get("type") == 18:
                rows.append({"type": 18, "id": row.get("id"), "component": submitted})
            else:
                rows.append({"type": 1, "id": row.get("id"), "components": [submitted]})
        unknown = set(given) - used
        if unknown:
            raise ClientRefused(f"the modal has no fields {sorted(unknown)}")
        self.open_modal = None
        data = {"custom_id": modal["custom_id"], "components": rows}
        ch = self.fake.channel(origin.channel_id)
        msg = self.fake.messages.get(origin.message_id) if origin.message_id else None
        return await self.fake.send_interaction(self.user, 5, data, ch, message=msg)
