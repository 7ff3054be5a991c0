"""Results: closing a table with its record, rating changes and calls, in the caller's transaction
when a move ended the game.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bot.ratings import Rating, month_of, rate
from bot.records import GameRecord, SeatInfo, SeatRecord, build_record, rating_note
from bot.store.interface import StoreUnavailable
from bot.store.rows import Call, Result, TableRow
from bot.store.sql import Db, Dialect, SqlStore
from bot.store.tables import end_sit_ins, update_table


def calls_json(calls: Sequence[Call], seat: int) -> str:
    """One seat's calls as kept in ``result_players.calls``: [[label, succeeded], ...]."""
    return json.dumps([[label, ok] for who, label, ok in calls if who == seat])


class ResultsSql(SqlStore):
    """The results part of both stores."""

    async def record_result(
        self,
        table: TableRow,
        status: str,
        outcome: dict[str, Any],
        players: Sequence[tuple[int, int, bool]],
        calls: Sequence[Call] | None = None,
    ) -> TableRow:
        """Close a table and keep its result: ``players`` are (user id, seat, won) of humans,
        ``calls`` those made in the game (:class:`Result`)."""
        async with self.writing() as db:
            return await self._close_in(
                db, table, Result(status, outcome, players, calls), time.time()
            )

    async def _close_in(self, db: Db, table: TableRow, result: Result, now: float) -> TableRow:
        """Close the table and keep its record and rating changes, in the caller's transaction."""
        row = await update_table(
            db, table.id, "status = $1, turn_deadline = NULL, updated_at = $2", (result.status, now)
        )
        await end_sit_ins(db, table.id)
        record = await _build_record(db, row, result, now)
        await db.execute(
            "INSERT INTO results (table_id, guild_id, game, outcome, finished_at, rated,"
            " unrated_reason, record, duration) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            (
                table.id,
                table.guild_id,
                table.game,
                json.dumps(result.outcome),
                now,
                int(record.rated),
                record.reason,
                json.dumps(record.to_json()),
                record.duration,
            ),
        )
        await db.execute_many(
            "INSERT INTO result_players (table_id, user_id, seat, won, team, place, rated)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (
                    table.id,
                    seat.user_id,
                    seat.seat,
                    int(seat.won),
                    seat.team,
                    seat.place or None,  # no place in an abandoned game
                    int(seat.rated),
                )
                for seat in record.seats
                if seat.user_id is not None
            ],
        )
        if result.calls is not None:
            await _keep_calls(db, table.id, result.calls, record.seats)
        if record.rated:
            await _rate(db, self.dialect, table, record, now)
        return row

    async def result_note(self, table_id: int) -> str | None:
        """The line a finished game's result shows about its rating (None if unknown)."""
        try:
            rows = await self._all(
                "SELECT rated, unrated_reason FROM results WHERE table_id = $1", (table_id,)
            )
        except StoreUnavailable:  # only words: the game is kept, its board shows no note
            return None
        return rating_note(bool(rows[0]["rated"]), rows[0]["unrated_reason"]) if rows else None

    async def resigned_seat(self, table_id: int) -> int | None:
        """The seat whose last person left the game, making it that seat's loss (None: none)."""
        resigned = self.dialect.json_value("outcome", "resigned", "integer")
        rows = await self._all(f"SELECT {resigned} FROM results WHERE table_id = $1", (table_id,))
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def keep_calls(self, games: Mapping[int, Sequence[Call]]) -> None:
        """The calls of games recorded before they were kept with their results (counted once
        from a replay), per table: each human seat's, where none are kept yet."""
        async with self.writing() as db:
            for table_id, calls in games.items():
                seats = [
                    int(row[0])
                    for row in await db.fetch_all(
                        "SELECT seat FROM result_players WHERE table_id = $1 AND calls IS NULL",
                        (table_id,),
                    )
                ]
                await db.execute_many(
                    "UPDATE result_players SET calls = $1 WHERE table_id = $2 AND seat = $3",
                    [(calls_json(calls, seat), table_id, seat) for seat in seats],
                )


async def _keep_calls(
    db: Db, table_id: int, calls: Sequence[Call], seats: Sequence[SeatRecord]
) -> None:
    """Each human seat's calls, beside its result: ``/stats`` counts them, no replay."""
    await db.execute_many(
        "UPDATE result_players SET calls = $1 WHERE table_id = $2 AND seat = $3",
        [
            (calls_json(calls, seat.seat), table_id, seat.seat)
            for seat in seats
            if seat.user_id is not None
        ],
    )


async def _build_record(db: Db, table: TableRow, result: Result, now: float) -> GameRecord:
    """The game's record from the seats and the moves log as this transaction sees them."""
    first_person: dict[int, tuple[int, str]] = {}  # seat: its first person, from the log
    for r in await db.fetch_all(
        "SELECT seat, user_id, name FROM seat_holders"
        " WHERE table_id = $1 AND user_id IS NOT NULL ORDER BY id",
        (table.id,),
    ):
        first_person.setdefault(r["seat"], (r["user_id"], r["name"]))
    seats = []
    for r in await db.fetch_all(
        "SELECT s.seat, s.user_id, s.name,"
        " (SELECT COUNT(*) FROM moves m WHERE m.table_id = s.table_id AND m.seat = s.seat"
        "  AND m.user_id IS NOT NULL) AS human,"
        " (SELECT COUNT(*) FROM moves m WHERE m.table_id = s.table_id AND m.seat = s.seat"
        "  AND m.user_id IS NULL) AS computer"
        " FROM seats s WHERE s.table_id = $1 ORDER BY s.seat",
        (table.id,),
    ):
        # A seat's first person who no longer holds it left it: rated for it.
        left_by, left_name = first_person.get(r["seat"], (None, None))
        if left_by == r["user_id"]:
            left_by = left_name = None
        seats.append(
            SeatInfo(
                r["seat"],
                r["user_id"],
                r["name"],
                r["human"],
                r["computer"],
                left_by=left_by,
                left_name=left_name,
            )
        )
    if not seats:  # a result kept without seats (older callers): its players alone
        seats = [SeatInfo(seat, user_id, str(user_id)) for user_id, seat, _ in result.players]
    first = await db.fetch_value(
        "SELECT MIN(created_at) FROM moves WHERE table_id = $1", (table.id,)
    )
    return build_record(
        game=table.game,
        options=table.options,
        status=result.status,
        outcome=result.outcome,
        seats=seats,
        computer_level=table.computer_level,
        table_rated=table.rated,
        hints=table.hints,
        started_at=first,
        finished_at=now,
    )


async def _rate(db: Db, dialect: Dialect, table: TableRow, record: GameRecord, now: float) -> None:
    """Read the players' ratings, rate the game with OpenSkill, write the new ratings.

    Two games of one server and game may end at once (in two processes, even, on PostgreSQL):
    there the transaction first takes that server and game's advisory lock, so the second reads
    the first's ratings (SQLite's one writer reads them anyway)."""
    if dialect.advisory_lock is not None:
        await db.execute(dialect.advisory_lock, (f"ratings:{table.guild_id}:{table.game}",))
    keys = sorted({seat.player for seat in record.seats})
    current = {
        r["player"]: Rating(r["mu"], r["sigma"])
        for r in await db.fetch_all(
            "SELECT player, mu, sigma FROM ratings WHERE guild_id = $1 AND game = $2"
            f" AND player {dialect.one_of('$3', 'text')}",
            (table.guild_id, table.game, dialect.values(keys)),
        )
    }
    for change in rate(record, current):
        after = change.after
        await db.execute(
            "INSERT INTO ratings (guild_id, game, player, user_id, level, mu, sigma, ordinal,"
            " games, wins, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10)"
            " ON CONFLICT (guild_id, game, player) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, ordinal = excluded.ordinal, games = ratings.games + 1,"
            " wins = ratings.wins + excluded.wins, updated_at = excluded.updated_at",
            (
                table.guild_id,
                table.game,
                change.player,
                change.user_id,
                change.level,
                after.mu,
                after.sigma,
                after.ordinal,
                int(change.won),
                now,
            ),
        )
        await db.execute(
            "INSERT INTO rating_months (guild_id, game, month, player, user_id, games, wins,"
            " change) VALUES ($1, $2, $3, $4, $5, 1, $6, $7) ON CONFLICT (guild_id, game,"
            " month, player) DO UPDATE SET games = rating_months.games + 1,"
            " wins = rating_months.wins + excluded.wins,"
            " change = rating_months.change + excluded.change",
            (
                table.guild_id,
                table.game,
                month_of(now),
                change.player,
                change.user_id,
                int(change.won),
                change.delta,
            ),
        )
        await db.execute(
            "INSERT INTO rating_history (table_id, guild_id, game, player, user_id, mu,"
            " sigma, ordinal, delta, won, finished_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            (
                table.id,
                table.guild_id,
                table.game,
                change.player,
                change.user_id,
                after.mu,
                after.sigma,
                after.ordinal,
                change.delta,
                int(change.won),
                now,
            ),
        )
