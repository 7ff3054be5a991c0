"""Standings: leaderboards, the rated ladder, a player's games, partners and calls (read-only).
JSON is kept as text in both backends and read with the dialect's JSON."""

from __future__ import annotations

import json
from typing import Any

from bot.ratings import LadderPage, LadderRow
from bot.store.rows import GameTally, LeaderboardRow, PartnerRow, RecentGame, SeatCalls
from bot.store.sql import SqlStore


def _of_game(param: str) -> str:
    """Results ``r`` of the game in ``param``, or of every game when it is NULL."""
    return f"(CAST({param} AS TEXT) IS NULL OR r.game = {param})"


class StandingsSql(SqlStore):
    """The standings part of both stores."""

    @property
    def _abandoned(self) -> str:
        """The outcome's "abandoned" flag of results ``r`` (NULL when the outcome does not say)."""
        return self.dialect.json_value("r.outcome", "abandoned", "boolean")

    async def leaderboard(
        self, guild_id: int, game: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]:
        rows = await self._all(
            "SELECT p.user_id, COUNT(*) AS played, SUM(p.won) AS won"
            " FROM result_players p JOIN results r ON r.table_id = p.table_id"
            f" WHERE r.guild_id = $1 AND {_of_game('$2')} AND {self._abandoned} = FALSE"
            " GROUP BY p.user_id ORDER BY won DESC, played ASC, p.user_id LIMIT $3",
            (guild_id, game, limit),
        )
        return [LeaderboardRow(row["user_id"], row["played"], row["won"] or 0) for row in rows]

    async def ladder(
        self,
        guild_id: int,
        game: str,
        *,
        month: str | None = None,
        computers: bool = False,
        offset: int = 0,
        limit: int = 10,
    ) -> LadderPage:
        """One page of a server's ladder for a game: players with a rated game, best first.

        All time: by the conservative rating (mu - 3 sigma). ``month`` ("YYYY-MM", UTC): by the
        rating gained that month, among players rated in it, with that month's games and wins.
        Computer levels only when ``computers``.
        """
        bytewise = self.dialect.bytewise
        if month is None:
            where = (
                " FROM ratings WHERE guild_id = $1 AND game = $2 AND games > 0"
                " AND (CAST($3 AS BOOLEAN) OR user_id IS NOT NULL)"
            )
            params: tuple[Any, ...] = (guild_id, game, computers)
            rows = await self._all(
                "SELECT player, user_id, level, ordinal, games, wins,"
                " CAST(NULL AS DOUBLE PRECISION) AS change"
                f"{where} ORDER BY ordinal DESC, player{bytewise} LIMIT $4 OFFSET $5",
                (*params, limit, offset),
            )
        else:
            where = (
                " FROM rating_months m WHERE m.guild_id = $1 AND m.game = $2 AND m.month = $3"
                " AND m.games > 0 AND (CAST($4 AS BOOLEAN) OR m.user_id IS NOT NULL)"
            )
            params = (guild_id, game, month, computers)
            rows = await self._all(
                "SELECT m.player, m.user_id, r.level, r.ordinal, m.games, m.wins, m.change"
                " FROM rating_months m JOIN ratings r ON r.guild_id = m.guild_id"
                " AND r.game = m.game AND r.player = m.player"
                " WHERE m.guild_id = $1 AND m.game = $2 AND m.month = $3"
                " AND m.games > 0 AND (CAST($4 AS BOOLEAN) OR m.user_id IS NOT NULL)"
                f" ORDER BY m.change DESC, m.player{bytewise} LIMIT $5 OFFSET $6",
                (*params, limit, offset),
            )
        total = await self._all(f"SELECT COUNT(*){where}", params)
        return LadderPage(
            [
                LadderRow(
                    rank=offset + index,
                    player=row["player"],
                    user_id=row["user_id"],
                    level=row["level"],
                    ordinal=row["ordinal"],
                    games=row["games"],
                    wins=row["wins"] or 0,
                    change=row["change"],
                )
                for index, row in enumerate(rows, start=1)
            ],
            int(total[0][0]) if total else 0,
        )

    async def player_games(self, guild_id: int, user_id: int) -> list[GameTally]:
        """Per game: the player's finished games and wins here (not those a computer played
        for them while they were away), and their rating and its rated games if rated."""
        rows = await self._all(
            "SELECT r.game, COUNT(*) AS games, SUM(p.won) AS wins,"
            " (SELECT ordinal FROM ratings g WHERE g.guild_id = r.guild_id AND g.game = r.game"
            "  AND g.player = CAST(p.user_id AS TEXT)) AS rating,"
            " (SELECT games FROM ratings g WHERE g.guild_id = r.guild_id AND g.game = r.game"
            "  AND g.player = CAST(p.user_id AS TEXT)) AS rated"
            " FROM result_players p JOIN results r ON r.table_id = p.table_id"
            f" WHERE p.user_id = $1 AND r.guild_id = $2 AND {self._abandoned} = FALSE"
            f" AND NOT {self.dialect.sat_out}"
            " GROUP BY r.game, r.guild_id, p.user_id"
            f" ORDER BY games DESC, r.game{self.dialect.bytewise}",
            (user_id, guild_id),
        )
        return [
            GameTally(row["game"], row["games"], row["wins"] or 0, row["rating"], row["rated"] or 0)
            for row in rows
        ]

    async def rating_trend(
        self, guild_id: int, game: str, user_id: int, limit: int = 200
    ) -> list[tuple[float, float]]:
        """The player's rating (ordinal) after each of their latest rated games, oldest first."""
        rows = await self._all(
            "SELECT finished_at, ordinal FROM rating_history"
            " WHERE guild_id = $1 AND game = $2 AND player = $3"
            " ORDER BY finished_at DESC LIMIT $4",
            (guild_id, game, str(user_id), limit),
        )
        return [(row[0], row[1]) for row in reversed(rows)]

    async def best_partner(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> PartnerRow | None:
        """The person this player won most often with on one team (then most games together)."""
        rows = await self._all(
            "SELECT q.user_id, COUNT(*) AS games, SUM(p.won) AS wins"
            " FROM result_players p"
            " JOIN result_players q ON q.table_id = p.table_id AND q.team = p.team"
            "  AND q.seat != p.seat"
            " JOIN results r ON r.table_id = p.table_id"
            " WHERE p.user_id = $1 AND q.user_id != p.user_id AND r.guild_id = $2"
            f" AND {_of_game('$3')} AND {self._abandoned} = FALSE"
            " GROUP BY q.user_id ORDER BY wins DESC, games DESC, q.user_id LIMIT 1",
            (user_id, guild_id, game),
        )
        if not rows:
            return None
        return PartnerRow(rows[0]["user_id"], rows[0]["games"], rows[0]["wins"] or 0)

    async def recent_games(
        self, guild_id: int, user_id: int, game: str | None = None, limit: int = 10
    ) -> list[RecentGame]:
        """The player's latest finished (or abandoned) games in this server, newest first."""
        rows = await self._all(
            "SELECT r.table_id, r.game, r.finished_at, r.rated, p.seat, p.won, p.place,"
            f" {self._abandoned} AS abandoned, h.delta, {self.dialect.sat_out} AS sat_out"
            " FROM result_players p JOIN results r ON r.table_id = p.table_id"
            " LEFT JOIN rating_history h ON h.table_id = r.table_id"
            "  AND h.player = CAST(p.user_id AS TEXT)"
            f" WHERE p.user_id = $1 AND r.guild_id = $2 AND {_of_game('$3')}"
            " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT $4",
            (user_id, guild_id, game, limit),
        )
        return [
            RecentGame(
                table_id=row["table_id"],
                game=row["game"],
                finished_at=row["finished_at"],
                seat=row["seat"],
                won=bool(row["won"]),
                place=row["place"],
                abandoned=bool(row["abandoned"]),
                rated=bool(row["rated"]),
                delta=row["delta"],
                sat_out=bool(row["sat_out"]),
            )
            for row in rows
        ]

    async def recent_calls(
        self, guild_id: int, user_id: int, game: str | None = None, limit: int = 20
    ) -> list[SeatCalls]:
        """The calls the player made in their latest closed games here, newest first."""
        rows = await self._all(
            f"SELECT r.table_id, p.seat, p.calls, {self._abandoned} AS abandoned"
            " FROM result_players p JOIN results r ON r.table_id = p.table_id"
            f" WHERE p.user_id = $1 AND r.guild_id = $2 AND {_of_game('$3')}"
            " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT $4",
            (user_id, guild_id, game, limit),
        )
        return [
            SeatCalls(
                row["table_id"],
                row["seat"],
                bool(row["abandoned"]),
                None
                if row["calls"] is None
                else [(str(label), ok) for label, ok in json.loads(row["calls"])],
            )
            for row in rows
        ]
