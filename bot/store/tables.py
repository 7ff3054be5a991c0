"""Tables: open, find, change and close a table's own row; the announcement marks; rematches."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from bot.store.base import table_row
from bot.store.rows import OPEN_STATUSES, TableRow
from bot.store.sql import Db, SqlStore, returning


async def update_table(db: Db, table_id: int, assignments: str, params: Sequence[Any]) -> TableRow:
    """Change a table's row inside the caller's transaction (``assignments`` use ``$1``..``$n``
    for ``params``); the row as it is now."""
    return table_row(
        await returning(
            db,
            f"UPDATE game_tables SET {assignments} WHERE id = ${len(params) + 1} RETURNING *",
            (*params, table_id),
        )
    )


async def end_sit_ins(db: Db, table_id: int) -> None:
    """A closed table's requests to sit in are moot: kept, they would only keep people's names."""
    await db.execute("DELETE FROM sit_in_requests WHERE table_id = $1", (table_id,))


class TablesSql(SqlStore):
    """The tables part of both stores."""

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[tuple[int | None, str]],
        computer_level: str = "normal",
        hints: bool = False,
        rated: bool = True,
        computers: bool = True,
        turn_seconds: int | None = None,
        trick_lines: bool | None = None,
        parent_channel_id: int | None = None,
    ) -> TableRow:
        """A new table in the lobby, with ``seats`` entries as (user id or None, name) or empty.

        ``rated``, ``computers``, ``turn_seconds`` and ``trick_lines`` are the server's settings
        now, kept for the table's life. ``parent_channel_id``: the channel of the thread
        ``channel_id`` is, if it is one."""
        now = time.time()
        async with self.writing() as db:
            table = table_row(
                await returning(
                    db,
                    "INSERT INTO game_tables (guild_id, channel_id, host_id, game, options, seed,"
                    " computer_level, hints, rated, computers, turn_seconds, trick_lines,"
                    " created_at, updated_at, parent_channel_id)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
                    " RETURNING *",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        game,
                        json.dumps(options),
                        seed,
                        computer_level,
                        int(hints),
                        int(rated),
                        int(computers),
                        turn_seconds,
                        None if trick_lines is None else int(trick_lines),
                        now,
                        now,
                        parent_channel_id,
                    ),
                )
            )
            await db.execute_many(
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES ($1, $2, $3, $4)",
                [
                    (table.id, seat, user_id, name)
                    for seat, (user_id, name) in enumerate(seats)
                    if name
                ],
            )
        return table

    async def get_table(self, table_id: int) -> TableRow | None:
        rows = await self._all("SELECT * FROM game_tables WHERE id = $1", (table_id,))
        return table_row(rows[0]) if rows else None

    async def open_tables(self) -> list[TableRow]:
        rows = await self._all(
            "SELECT * FROM game_tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        return [table_row(row) for row in rows]

    async def count_open_tables(self) -> int:
        rows = await self._all(
            "SELECT COUNT(*) FROM game_tables WHERE status IN ('lobby', 'playing')"
        )
        return int(rows[0][0])

    async def set_table_message(self, table_id: int, message_id: int | None) -> TableRow:
        async with self.writing() as db:
            return await update_table(
                db, table_id, "message_id = $1, updated_at = $2", (message_id, time.time())
            )

    async def move_table(self, table_id: int, channel_id: int) -> TableRow:
        """The table moved to another channel (its own thread, of the channel it was in)."""
        async with self.writing() as db:
            return await update_table(
                db, table_id, "parent_channel_id = channel_id, channel_id = $1", (channel_id,)
            )

    async def set_status(self, table_id: int, status: str) -> TableRow:
        async with self.writing() as db:
            if status not in OPEN_STATUSES:
                await end_sit_ins(db, table_id)
            return await update_table(
                db,
                table_id,
                "status = $1, turn_deadline = NULL, updated_at = $2",
                (status, time.time()),
            )

    async def _set_in_lobby(self, table_id: int, column: str, value: Any) -> TableRow:
        """Change one column of a table still in its lobby; else LookupError."""
        async with self.writing() as db:
            return table_row(
                await returning(
                    db,
                    f"UPDATE game_tables SET {column} = $1, updated_at = $2"
                    " WHERE id = $3 AND status = 'lobby' RETURNING *",
                    (value, time.time(), table_id),
                )
            )

    async def set_computer_level(self, table_id: int, level: str) -> TableRow:
        """The lobby's level for its computer players; a table no longer in its lobby is refused
        (LookupError)."""
        return await self._set_in_lobby(table_id, "computer_level", level)

    async def set_hints(self, table_id: int, hints: bool) -> TableRow:
        """Hints on or off for the table's players; a table no longer in its lobby is refused
        (LookupError)."""
        return await self._set_in_lobby(table_id, "hints", int(hints))

    async def set_deadline(self, table_id: int, deadline: float | None) -> TableRow:
        async with self.writing() as db:
            return await update_table(db, table_id, "turn_deadline = $1", (deadline,))

    async def set_options(self, table_id: int, options: dict[str, Any]) -> TableRow:
        """A lobby's new (validated) options; a table no longer in its lobby is refused
        (LookupError)."""
        return await self._set_in_lobby(table_id, "options", json.dumps(options))

    async def create_rematch(
        self,
        old: TableRow,
        seed: int,
        seats: Sequence[tuple[int | None, str, bool] | None],
        *,
        rated: bool,
        computers: bool,
        turn_seconds: int,
        trick_lines: bool,
    ) -> TableRow:
        """The lobby of ``old``'s rematch: same server, channel, game, options, level and hints;
        ``rated``, ``computers``, ``turn_seconds`` and ``trick_lines`` are the server's settings
        now. ``seats`` in order as (user id or None, name, confirmed), or None for a seat left
        empty. A second rematch of the same table is refused by the database (its driver's
        IntegrityError: a unique index) unless the first was cancelled."""
        now = time.time()
        host = next(
            seat[0] for seat in seats if seat is not None and seat[0] is not None and seat[2]
        )
        async with self.writing() as db:
            table = table_row(
                await returning(
                    db,
                    "INSERT INTO game_tables (guild_id, channel_id, host_id, game, options, seed,"
                    " computer_level, rated, hints, computers, turn_seconds, trick_lines,"
                    " rematch_of, created_at, updated_at)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
                    " RETURNING *",
                    (
                        old.guild_id,
                        old.channel_id,
                        host,
                        old.game,
                        json.dumps(old.options),
                        seed,
                        old.computer_level,
                        int(rated),
                        int(old.hints),
                        int(computers),
                        turn_seconds,
                        int(trick_lines),
                        old.id,
                        now,
                        now,
                    ),
                )
            )
            await db.execute_many(
                "INSERT INTO seats (table_id, seat, user_id, name, confirmed)"
                " VALUES ($1, $2, $3, $4, $5)",
                [
                    (table.id, number, seat[0], seat[1], int(seat[2]))
                    for number, seat in enumerate(seats)
                    if seat is not None
                ],
            )
        return table

    async def rematch_of(self, table_id: int) -> int | None:
        """The table opened as the rematch of this one, if any (a cancelled one does not count:
        it frees the way for another)."""
        rows = await self._all(
            "SELECT id FROM game_tables WHERE rematch_of = $1 AND status != 'cancelled'",
            (table_id,),
        )
        return int(rows[0][0]) if rows else None

    async def set_announced(self, table_id: int, results_through: int, board: str) -> None:
        """Record what the bot has announced of a table (results through a move, the board)."""
        async with self.writing() as db:
            await db.execute(
                "INSERT INTO announcements (table_id, results_through, board) VALUES ($1, $2, $3)"
                " ON CONFLICT (table_id) DO UPDATE SET"
                " results_through = excluded.results_through, board = excluded.board",
                (table_id, results_through, board),
            )

    async def unannounced_tables(self, closed_since: float) -> list[tuple[TableRow, int]]:
        """Tables whose message does not show their latest state ("status:moves"), open ones
        and those closed since ``closed_since``: each with the move its results were posted
        through."""
        rows = await self._all(
            "SELECT t.*, COALESCE(a.results_through, 0) AS results_through"
            " FROM game_tables t LEFT JOIN announcements a ON a.table_id = t.id"
            " WHERE (t.status IN ('lobby', 'playing') OR t.updated_at >= $1)"
            " AND (a.table_id IS NULL OR a.board != t.status || ':' ||"
            " (SELECT COUNT(*) FROM moves m WHERE m.table_id = t.id))"
            " ORDER BY t.id",
            (closed_since,),
        )
        return [(table_row(row), int(row["results_through"])) for row in rows]
