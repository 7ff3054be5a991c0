"""History reads in PostgreSQL: a server's closed games a page at a time, their seats, and who may
see one (:mod:`bot.store.history` is SQLite's and says what a viewer is)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.store.postgres.base import PostgresBase
from bot.store.rows import ClosedGame, SeatName


def _visible(channels: int, user: int) -> str:
    """The condition that the viewer may see result ``r``: ``$channels`` (a JSON list of channel
    ids, NULL for no viewer) holds its channel or its thread's channel, or ``$user`` sat there."""
    listed = f"(SELECT jsonb_array_elements_text(${channels}::jsonb)::bigint)"
    return (
        f" AND (${channels}::jsonb IS NULL OR EXISTS (SELECT 1 FROM game_tables t"
        f" WHERE t.id = r.table_id AND (t.channel_id IN {listed} OR t.parent_channel_id IN"
        f" {listed})) OR EXISTS (SELECT 1 FROM seats v WHERE v.table_id = r.table_id"
        f" AND v.user_id = ${user}::bigint) OR EXISTS (SELECT 1 FROM seat_holders v"
        f" WHERE v.table_id = r.table_id AND v.user_id = ${user}::bigint))"
    )


class PostgresHistory(PostgresBase):
    """The history's SQL (:mod:`bot.history` pages and checks what it returns)."""

    async def closed_games(
        self,
        guild_id: int,
        *,
        user_id: int | None,
        game: str | None,
        limit: int,
        offset: int,
        viewer: tuple[str, int] | None,
    ) -> list[ClosedGame]:
        """Closed games of the server, newest table first: only those where ``user_id`` sat,
        only of ``game``, and only those ``viewer`` may see, when given."""
        seen = (None, None) if viewer is None else viewer
        params: list[Any] = [guild_id, limit, offset, *seen]
        sql = "SELECT r.table_id, r.game, r.outcome, r.finished_at FROM results r"
        where = " WHERE r.guild_id = $1" + _visible(4, 5)
        if user_id is not None:
            params.append(user_id)
            where += " AND (EXISTS (SELECT 1 FROM seats s WHERE s.table_id = r.table_id"
            where += f" AND s.user_id = ${len(params)}) OR EXISTS (SELECT 1 FROM seat_holders h"
            where += f" WHERE h.table_id = r.table_id AND h.user_id = ${len(params)}))"
        if game is not None:
            params.append(game)
            where += f" AND r.game = ${len(params)}"
        rows = await self.fetch(f"{sql}{where} ORDER BY r.table_id DESC LIMIT $2 OFFSET $3", params)
        return [
            ClosedGame(
                int(row["table_id"]),
                str(row["game"]),
                json.loads(row["outcome"]),
                float(row["finished_at"]),
            )
            for row in rows
        ]

    async def seat_names(self, table_ids: Sequence[int]) -> dict[int, list[SeatName]]:
        """Who sat where at each of these tables: by seat, everyone who held it in the order
        they held it (a table that never started: who sits there)."""
        if not table_ids:
            return {}
        rows = await self.fetch(
            "SELECT table_id, seat, user_id, name, id AS n FROM seat_holders"
            " WHERE table_id = ANY($1::bigint[])"
            " UNION ALL SELECT table_id, seat, user_id, name, 0 FROM seats s"
            " WHERE table_id = ANY($1::bigint[]) AND NOT EXISTS"
            " (SELECT 1 FROM seat_holders h WHERE h.table_id = s.table_id)"
            " ORDER BY table_id, seat, n",
            (list(table_ids),),
        )
        names: dict[int, list[SeatName]] = {}
        for row in rows:
            names.setdefault(int(row["table_id"]), []).append(
                SeatName(int(row["seat"]), str(row["name"]), row["user_id"])
            )
        return names

    async def may_see(self, table_id: int, channels: str, user_id: int) -> bool:
        """Whether the viewer (``channels``, ``user_id``) may see this table's game."""
        rows = await self.fetch(
            "SELECT 1 FROM (SELECT $1::bigint AS table_id) r WHERE true" + _visible(2, 3),
            (table_id, channels, user_id),
        )
        return bool(rows)
