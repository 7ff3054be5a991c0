"""History reads: a server's closed games a page at a time, their seats, and who may see one.

Every query takes the server's id and filters by it. A viewer is ``(channels, user id)``:
``channels`` a JSON list of the channel ids they can view; a result is visible when its table's
channel (or its thread's channel) is listed, or the viewer sat there (a person who left mid-game
sat there too: the seat's holders are kept).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.rows import ClosedGame, SeatName
from bot.store.sql import Dialect, SqlStore


def _visible(dialect: Dialect, channels: int, user: int) -> str:
    """The condition that the viewer may see result ``r``: ``$channels`` (a JSON list of channel
    ids, NULL for no viewer) holds its channel or its thread's channel, or ``$user`` sat there."""
    listed = dialect.json_values(f"${channels}", "bigint")
    sat = f"v.table_id = r.table_id AND v.user_id = CAST(${user} AS BIGINT)"
    return (
        f" AND (CAST(${channels} AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM game_tables t"
        f" WHERE t.id = r.table_id AND (t.channel_id IN {listed} OR t.parent_channel_id IN"
        f" {listed})) OR EXISTS (SELECT 1 FROM seats v WHERE {sat})"
        f" OR EXISTS (SELECT 1 FROM seat_holders v WHERE {sat}))"
    )


class HistorySql(SqlStore):
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
        only of ``game``, and only those ``viewer`` may see, when given.

        Ordered by table number, not by finishing time: the results' indexes on the server end
        with the table number (the rowid), so that order is free."""
        seen = (None, None) if viewer is None else viewer
        if user_id is None:
            # Walks the server's own results backwards by table number (the index on the
            # server, or on the server and game, ends with it): no sort, no other server's game.
            same_game = "" if game is None else " AND r.game = $6"
            rows = await self._all(
                "SELECT r.table_id, r.game, r.outcome, r.finished_at FROM results r"
                f" WHERE r.guild_id = $1{same_game}"
                + _visible(self.dialect, 4, 5)
                + " ORDER BY r.table_id DESC LIMIT $2 OFFSET $3",
                (guild_id, limit, offset, *seen, *([] if game is None else [game])),
            )
        else:  # starts from the player's seats, held now or before (indexes seats_user and
            # seat_holders_user): a few hundred rows at most
            rows = await self._all(
                "SELECT r.table_id, r.game, r.outcome, r.finished_at FROM results r"
                " WHERE r.table_id IN (SELECT table_id FROM seats WHERE user_id = $1"
                " UNION SELECT table_id FROM seat_holders WHERE user_id = $1)"
                " AND r.guild_id = $2 AND (CAST($3 AS TEXT) IS NULL OR r.game = $3)"
                + _visible(self.dialect, 6, 7)
                + " ORDER BY r.table_id DESC LIMIT $4 OFFSET $5",
                (user_id, guild_id, game, limit, offset, *seen),
            )
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
        listed = self.dialect.one_of("$1", "bigint")
        rows = await self._all(
            f"SELECT table_id, seat, user_id, name, id AS n FROM seat_holders"
            f" WHERE table_id {listed}"
            f" UNION ALL SELECT table_id, seat, user_id, name, 0 FROM seats s"
            f" WHERE table_id {listed} AND NOT EXISTS"
            " (SELECT 1 FROM seat_holders h WHERE h.table_id = s.table_id)"
            " ORDER BY table_id, seat, n",
            (self.dialect.values(table_ids),),
        )
        names: dict[int, list[SeatName]] = {}
        for row in rows:
            names.setdefault(int(row["table_id"]), []).append(
                SeatName(int(row["seat"]), str(row["name"]), row["user_id"])
            )
        return names

    async def may_see(self, table_id: int, channels: str, user_id: int) -> bool:
        """Whether the viewer (``channels``, ``user_id``) may see this table's game."""
        rows = await self._all(
            "SELECT 1 FROM (SELECT CAST($1 AS BIGINT) AS table_id) r WHERE TRUE"
            + _visible(self.dialect, 2, 3),
            (table_id, channels, user_id),
        )
        return bool(rows)
