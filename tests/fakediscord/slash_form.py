"""The Discord client's side of a slash command: which commands a user may run where, and
the interaction data it sends for the options typed (converted and checked as the client
checks them, with the users, channels and roles they name resolved)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ClientRefused
from .model import ADMINISTRATOR, USE_APPLICATION_COMMANDS, Channel, Command, Role, User

if TYPE_CHECKING:
    from .server import FakeDiscord


class SlashForm:
    """A person's Discord client filling in a slash command (``FakeUser`` is one)."""

    fake: FakeDiscord
    user: User

    def _find_command(self, words: list[str], channel: Channel) -> Command:
        guild = self.fake.guilds[channel.guild_id]
        cmd = self.fake.commands_for(guild.id).get(words[0])
        if cmd is None or cmd.type != 1:
            raise ClientRefused(f"/{words[0]} is not a synced command here")
        perms = guild.channel_permissions(self.user.id, channel)
        if not perms & USE_APPLICATION_COMMANDS:
            raise ClientRefused(
                f"{self.user.name} may not use application commands in #{channel.name}"
            )
        contexts = cmd.data.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise ClientRefused(f"/{cmd.name} is not available in servers")
        required = cmd.data.get("default_member_permissions")
        if required is not None and not perms & ADMINISTRATOR:
            need = int(required)
            if need == 0 or (perms & need) != need:
                raise ClientRefused(f"{self.user.name} lacks the permissions for /{cmd.name}")
        return cmd

    def _build_command_data(
        self, command: str, options: dict[str, Any], channel: Channel, focused: str | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        words = command.strip().lstrip("/").split()
        cmd = self._find_command(words, channel)
        schema: list[dict[str, Any]] = cmd.data.get("options") or []
        path: list[dict[str, Any]] = []
        for word in words[1:]:
            sub = next(
                (o for o in schema if o.get("name") == word and o.get("type") in (1, 2)), None
            )
            if sub is None:
                raise ClientRefused(f"/{command}: no subcommand {word!r}")
            path.append(sub)
            schema = sub.get("options") or []
        if any(o.get("type") in (1, 2) for o in schema):
            names = ", ".join(o["name"] for o in schema)
            raise ClientRefused(f"/{command} needs a subcommand ({names})")
        resolved: dict[str, dict[str, Any]] = {}
        leaf: list[dict[str, Any]] = []
        known = {o["name"]: o for o in schema}
        for name in options:
            if name not in known:
                raise ClientRefused(f"/{command} has no option {name!r}")
        guild = self.fake.guilds[channel.guild_id]
        focused_schema: dict[str, Any] | None = None
        for opt in schema:
            name = opt["name"]
            if name == focused:
                focused_schema = opt
                leaf.append(
                    {
                        "name": name,
                        "type": opt["type"],
                        "value": str(options.get(name, "")),
                        "focused": True,
                    }
                )
                continue
            if name not in options or options[name] is None:
                if opt.get("required") and focused is None:
                    raise ClientRefused(f"/{command}: option {name!r} is required")
                continue
            value = self._convert(command, opt, options[name], guild, resolved)
            leaf.append({"name": name, "type": opt["type"], "value": value})
        if focused is not None and (
            focused_schema is None or not focused_schema.get("autocomplete")
        ):
            raise ClientRefused(f"/{command}: option {focused!r} has no autocomplete")
        nested: list[dict[str, Any]] = leaf
        for sub in reversed(path):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": 1}
        if nested:
            data["options"] = nested
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        if resolved:
            data["resolved"] = resolved
        return data, cmd.data

    def _convert(
        self,
        command: str,
        opt: dict[str, Any],
        value: Any,
        guild: Any,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        kind = opt["type"]
        name = opt["name"]
        choices = opt.get("choices") or []
        if kind == 3:
            if not isinstance(value, str):
                raise ClientRefused(f"/{command}: {name} must be text")
            if len(value) > opt.get("max_length", 6000) or len(value) < opt.get("min_length", 0):
                raise ClientRefused(f"/{command}: {name} has the wrong length")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                try:
                    value = int(str(value))
                except ValueError:
                    raise ClientRefused(f"/{command}: {name} must be a whole number") from None
        elif kind == 10:
            try:
                value = float(value)
            except (TypeError, ValueError):
                raise ClientRefused(f"/{command}: {name} must be a number") from None
        elif kind == 5:
            if isinstance(value, str):
                value = value.lower() in ("true", "yes", "1", "on")
            value = bool(value)
        elif kind in (6, 9):
            target = value.user if isinstance(value, SlashForm) else value  # a FakeUser
            if isinstance(target, str):
                target = next((u for u in self.fake.users.values() if u.name == target), None)
            if isinstance(target, int):
                target = self.fake.users.get(target)
            if not isinstance(target, User) or target.id not in guild.members:
                raise ClientRefused(f"/{command}: {name}: no such member {value!r}")
            resolved.setdefault("users", {})[str(target.id)] = target.payload()
            member = guild.members[target.id].payload(guild.base_permissions(target.id))
            member.pop("user")
            resolved.setdefault("members", {})[str(target.id)] = member
            value = str(target.id)
        elif kind == 7:
            ch = value if isinstance(value, Channel) else self.fake.channel(value)
            resolved.setdefault("channels", {})[str(ch.id)] = {
                "id": str(ch.id),
                "name": ch.name,
                "type": ch.type,
                "permissions": str(guild.channel_permissions(self.user.id, ch)),
                "parent_id": str(ch.parent_id) if ch.parent_id else None,
            }
            value = str(ch.id)
        elif kind == 8:
            role = (
                value
                if isinstance(value, Role)
                else next((r for r in guild.roles.values() if r.name == value), None)
            )
            if role is None:
                raise ClientRefused(f"/{command}: {name}: no such role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            value = str(role.id)
        else:
            raise ClientRefused(
                f"/{command}: option type {kind} is not supported by the fake client"
            )
        if kind in (4, 10):
            if "min_value" in opt and value < opt["min_value"]:
                raise ClientRefused(f"/{command}: {name} must be at least {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise ClientRefused(f"/{command}: {name} must be at most {opt['max_value']}")
        if choices:
            values = [c["value"] for c in choices]
            if value not in values:
                by_name = {c["name"]: c["value"] for c in choices}
                if value in by_name:
                    return by_name[value]
                raise ClientRefused(f"/{command}: {name} must be one of {values}")
        return value

    def _leaf_schema(self, command: str, channel: Channel) -> list[dict[str, Any]]:
        words = command.strip().lstrip("/").split()
        schema: list[dict[str, Any]] = self._find_command(words, channel).data.get("options") or []
        for word in words[1:]:
            schema = next(o for o in schema if o.get("name") == word).get("options") or []
        return schema
