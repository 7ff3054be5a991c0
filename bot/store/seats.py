"""Seats: sitting, standing, changing seats, away seats, computers, requests to sit in, and who
held each seat of a game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.store.base import seat_row
from bot.store.rows import SeatHolder, SeatRow, TableRow
from bot.store.sql import Db, SqlStore, returning
from bot.store.tables import update_table


async def log_holder(db: Db, table_id: int, seat: int, user_id: int | None, name: str) -> None:
    """Note (inside the seat change's transaction) that the seat changed hands now."""
    await db.execute(
        "INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)"
        " VALUES ($1, $2, (SELECT COUNT(*) FROM moves WHERE table_id = $1), $3, $4)",
        (table_id, seat, user_id, name),
    )


class SeatsSql(SqlStore):
    """The seats part of both stores."""

    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE table_id = $1 ORDER BY seat", (table_id,))
        return [seat_row(row) for row in rows]

    async def sit(
        self, table_id: int, seat: int, user_id: int | None, name: str
    ) -> tuple[TableRow, SeatRow]:
        """Put a player (or a computer, ``user_id`` None) in an empty seat."""
        async with self.writing() as db:
            placed = await returning(
                db,
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES ($1, $2, $3, $4)"
                " RETURNING *",
                (table_id, seat, user_id, name),
            )
            row = await update_table(db, table_id, "updated_at = $1", (time.time(),))
        return row, seat_row(placed)

    async def change_seat(self, table_id: int, seat: int, target: int) -> tuple[TableRow, SeatRow]:
        """Move a player from ``seat`` to the empty ``target`` seat."""
        async with self.writing() as db:
            moved = await returning(
                db,
                "UPDATE seats SET seat = $1 WHERE table_id = $2 AND seat = $3 RETURNING *",
                (target, table_id, seat),
            )
            row = await update_table(db, table_id, "updated_at = $1", (time.time(),))
        return row, seat_row(moved)

    async def stand(self, table_id: int, seat: int, host_id: int | None = None) -> TableRow:
        """Free a seat; ``host_id`` hands the host role on in the same transaction."""
        async with self.writing() as db:
            await db.execute(
                "DELETE FROM seats WHERE table_id = $1 AND seat = $2", (table_id, seat)
            )
            return await update_table(
                db,
                table_id,
                "host_id = COALESCE($1, host_id), updated_at = $2",
                (host_id, time.time()),
            )

    async def set_away(
        self,
        table_id: int,
        seats: Sequence[int],
        away: bool,
        *,
        clear_deadline: bool = False,
    ) -> tuple[TableRow, list[SeatRow]]:
        """Mark seats away (or back), and clear the turn deadline if asked, atomically."""
        async with self.writing() as db:
            changed = [
                seat_row(
                    await returning(
                        db,
                        "UPDATE seats SET away = $1 WHERE table_id = $2 AND seat = $3 RETURNING *",
                        (int(away), table_id, seat),
                    )
                )
                for seat in seats
            ]
            row = await update_table(
                db,
                table_id,
                "turn_deadline = CASE WHEN CAST($1 AS BOOLEAN) THEN NULL ELSE turn_deadline END",
                (clear_deadline,),
            )
        return row, changed

    async def open_table_of_user(self, guild_id: int, user_id: int) -> int | None:
        """The open table where this user sits in this server, if any."""
        rows = await self._all(
            "SELECT t.id FROM seats s JOIN game_tables t ON t.id = s.table_id"
            " WHERE t.guild_id = $1 AND s.user_id = $2 AND t.status IN ('lobby', 'playing')",
            (guild_id, user_id),
        )
        return int(rows[0][0]) if rows else None

    async def sit_computers(
        self, table_id: int, seats: Sequence[tuple[int, str]]
    ) -> tuple[TableRow, list[SeatRow]]:
        """Computers (``(seat, name)``) in empty seats of a lobby, all or none."""
        async with self.writing() as db:
            placed = [
                seat_row(
                    await returning(
                        db,
                        "INSERT INTO seats (table_id, seat, user_id, name)"
                        " VALUES ($1, $2, NULL, $3) RETURNING *",
                        (table_id, seat, name),
                    )
                )
                for seat, name in seats
            ]
            row = await update_table(db, table_id, "updated_at = $1", (time.time(),))
        return row, placed

    async def confirm_seat(self, table_id: int, seat: int) -> tuple[TableRow, SeatRow]:
        """A person seated by a rematch confirms their seat."""
        async with self.writing() as db:
            placed = await returning(
                db,
                "UPDATE seats SET confirmed = 1 WHERE table_id = $1 AND seat = $2 RETURNING *",
                (table_id, seat),
            )
            row = await update_table(db, table_id, "updated_at = $1", (time.time(),))
        return row, seat_row(placed)

    async def hand_to_computer(
        self, table_id: int, seat: int, name: str, host_id: int | None = None
    ) -> tuple[TableRow, SeatRow]:
        """A person's seat in a running game becomes a computer's (the person is free to go);
        ``host_id`` hands the host role on in the same transaction. The seat holders' log keeps
        who left: the game's record rates the seat's first person with the seat's result."""
        async with self.writing() as db:
            placed = await returning(
                db,
                "UPDATE seats SET user_id = NULL, name = $1, away = 0, confirmed = 1"
                " WHERE table_id = $2 AND seat = $3 AND user_id IS NOT NULL RETURNING *",
                (name, table_id, seat),
            )
            await log_holder(db, table_id, seat, None, name)
            row = await update_table(
                db,
                table_id,
                "host_id = COALESCE($1, host_id), updated_at = $2",
                (host_id, time.time()),
            )
        return row, seat_row(placed)

    async def ask_sit_in(self, table_id: int, seat: int, user_id: int, name: str) -> bool:
        """Keep a request to sit in for a computer; False if the same one is already open."""
        async with self.writing() as db:
            added = await db.execute(
                "INSERT INTO sit_in_requests (table_id, seat, user_id, name, created_at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                (table_id, seat, user_id, name, time.time()),
            )
        return added == 1

    async def sit_in_request(self, table_id: int, seat: int, user_id: int) -> str | None:
        """The name of the asker if this request is open, else None."""
        rows = await self._all(
            "SELECT name FROM sit_in_requests WHERE table_id = $1 AND seat = $2 AND user_id = $3",
            (table_id, seat, user_id),
        )
        return str(rows[0][0]) if rows else None

    async def drop_sit_in(self, table_id: int, seat: int, user_id: int) -> None:
        async with self.writing() as db:
            await db.execute(
                "DELETE FROM sit_in_requests WHERE table_id = $1 AND seat = $2 AND user_id = $3",
                (table_id, seat, user_id),
            )

    async def take_seat(
        self, table_id: int, seat: int, user_id: int, name: str
    ) -> tuple[TableRow, SeatRow]:
        """A person takes over a computer's seat mid-game; that seat's open requests and the
        person's other requests at this table end. A seat that is no longer a computer's is
        refused (LookupError)."""
        async with self.writing() as db:
            placed = await returning(
                db,
                "UPDATE seats SET user_id = $1, name = $2, away = 0, confirmed = 1"
                " WHERE table_id = $3 AND seat = $4 AND user_id IS NULL RETURNING *",
                (user_id, name, table_id, seat),
            )
            await log_holder(db, table_id, seat, user_id, name)
            await db.execute(
                "DELETE FROM sit_in_requests WHERE table_id = $1 AND (seat = $2 OR user_id = $3)",
                (table_id, seat, user_id),
            )
            row = await update_table(db, table_id, "updated_at = $1", (time.time(),))
        return row, seat_row(placed)

    async def seat_holders(self, table_id: int) -> list[SeatHolder]:
        """Who held the seats of the table's game, in the order they took them."""
        rows = await self._all(
            "SELECT seat, after_move, user_id, name FROM seat_holders WHERE table_id = $1"
            " ORDER BY id",
            (table_id,),
        )
        return [
            SeatHolder(int(row["seat"]), int(row["after_move"]), row["user_id"], str(row["name"]))
            for row in rows
        ]
