"""Settings: a server's, a member's own (turn pings, language), and the command sync's
fingerprints. No table involved.
"""

from __future__ import annotations

import json
import time

from bot.store.recent import RecentSettings
from bot.store.rows import GuildSettings, TurnPing
from bot.store.sql import SqlStore


class SettingsSql(SqlStore, RecentSettings):
    """The settings part of both stores."""

    async def guild_settings(self, guild_id: int, default_turn_seconds: int) -> GuildSettings:
        fresh, known = self.recent_guilds.get(guild_id)
        if not fresh:
            known = self.recent_guilds.put(guild_id, await self._guild_settings(guild_id))
        return known or GuildSettings(guild_id, default_turn_seconds, False)

    async def _guild_settings(self, guild_id: int) -> GuildSettings | None:
        """The server's stored settings (None: it has none)."""
        rows = await self._all("SELECT * FROM guild_settings WHERE guild_id = $1", (guild_id,))
        if not rows:
            return None
        row = rows[0]
        return GuildSettings(
            guild_id,
            row["turn_seconds"],
            bool(row["use_threads"]),
            computers=bool(row["computers"]),
            rated=bool(row["rated"]),
            trick_lines=bool(row["trick_lines"]),
            channels=tuple(int(c) for c in json.loads(row["channels"])),
            defaults=json.loads(row["defaults"]),
            language=row["language"],
            tournament_role=row["tournament_role"],
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async with self.writing() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_seconds, use_threads, computers,"
                " rated, trick_lines, channels, defaults, language, tournament_role)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = excluded.turn_seconds,"
                " use_threads = excluded.use_threads, computers = excluded.computers,"
                " rated = excluded.rated, trick_lines = excluded.trick_lines,"
                " channels = excluded.channels, defaults = excluded.defaults,"
                " language = excluded.language, tournament_role = excluded.tournament_role",
                (
                    settings.guild_id,
                    settings.turn_seconds,
                    int(settings.use_threads),
                    int(settings.computers),
                    int(settings.rated),
                    int(settings.trick_lines),
                    json.dumps(list(settings.channels)),
                    json.dumps(settings.defaults, sort_keys=True),
                    settings.language,
                    settings.tournament_role,
                ),
            )
        self.recent_guilds.put(settings.guild_id, settings)

    async def user_language(self, user_id: int) -> str | None:
        fresh, known = self.recent_languages.get(user_id)
        if fresh:
            return known
        rows = await self._all("SELECT language FROM user_languages WHERE user_id = $1", (user_id,))
        return self.recent_languages.put(user_id, str(rows[0][0]) if rows else None)

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """A person's own language (None: forget it, back to the server's or the client's)."""
        async with self.writing() as db:
            if language is None:
                await db.execute("DELETE FROM user_languages WHERE user_id = $1", (user_id,))
            else:
                await db.execute(
                    "INSERT INTO user_languages (user_id, language) VALUES ($1, $2)"
                    " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
                    (user_id, language),
                )
        self.recent_languages.put(user_id, language)

    async def turn_ping_wanted(self, guild_id: int, user_id: int) -> bool:
        fresh, known = self.recent_pings.get((guild_id, user_id))
        if fresh:
            return bool(known)
        rows = await self._all(
            "SELECT turn_ping FROM member_settings WHERE guild_id = $1 AND user_id = $2",
            (guild_id, user_id),
        )
        return self.recent_pings.put((guild_id, user_id), bool(rows and rows[0][0]))

    async def set_turn_ping_wanted(self, guild_id: int, user_id: int, wanted: bool) -> None:
        async with self.writing() as db:
            await db.execute(
                "INSERT INTO member_settings (guild_id, user_id, turn_ping) VALUES ($1, $2, $3)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET turn_ping = excluded.turn_ping",
                (guild_id, user_id, int(wanted)),
            )
        self.recent_pings.put((guild_id, user_id), wanted)

    async def turn_pings(self, table_id: int) -> list[TurnPing]:
        rows = await self._all(
            "SELECT * FROM turn_pings WHERE table_id = $1 ORDER BY user_id", (table_id,)
        )
        return [
            TurnPing(r["table_id"], r["user_id"], r["channel_id"], r["message_id"], r["turn"])
            for r in rows
        ]

    async def save_turn_ping(self, ping: TurnPing) -> None:
        async with self.writing() as db:
            await db.execute(
                "INSERT INTO turn_pings (table_id, user_id, channel_id, message_id, turn)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (table_id, user_id) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id,"
                " turn = excluded.turn",
                (ping.table_id, ping.user_id, ping.channel_id, ping.message_id, ping.turn),
            )

    async def delete_turn_ping(self, table_id: int, user_id: int) -> None:
        async with self.writing() as db:
            await db.execute(
                "DELETE FROM turn_pings WHERE table_id = $1 AND user_id = $2", (table_id, user_id)
            )

    async def command_fingerprint(self, application_id: int, guild_id: int | None) -> str | None:
        """The fingerprint of the commands last synced to a guild (or globally: None)."""
        rows = await self._all(
            "SELECT fingerprint FROM command_syncs WHERE application_id = $1 AND scope = $2",
            (application_id, guild_id or 0),
        )
        return str(rows[0][0]) if rows else None

    async def save_command_fingerprint(
        self, application_id: int, guild_id: int | None, fingerprint: str
    ) -> None:
        async with self.writing() as db:
            await db.execute(
                "INSERT INTO command_syncs (application_id, scope, fingerprint, synced_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (application_id, scope) DO UPDATE SET"
                " fingerprint = excluded.fingerprint, synced_at = excluded.synced_at",
                (application_id, guild_id or 0, fingerprint, time.time()),
            )
