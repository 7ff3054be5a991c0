"""REST: the application: who it is, its slash commands (global and per guild) and its own
emojis, within Discord's limits."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import limits
from .errors import DiscordError, form_error
from .model import Command
from .state import FakeState


class CommandsPart(FakeState):
    """The application, its commands and its emojis."""

    async def _get_me(self, request: web.Request, p: dict[str, str], body: Any) -> Any:
        return {
            **self.bot_user.payload(),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "locale": "en-US",
        }

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

    # ------------------------------------------------------------------ application emojis

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
