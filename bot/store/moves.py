"""Moves: starting a game, the moves log and its deals; the move that ends a game keeps its result
in the same transaction.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from bot.store.base import seat_row, table_row
from bot.store.interface import MoveTaken
from bot.store.results import SqliteResults
from bot.store.rows import MoveRow, Result, SeatRow, TableRow


class SqliteMoves(SqliteResults):
    """The SQLite moves part of :class:`bot.store.Store`."""

    async def start_game(
        self, table_id: int, first_dealer: int, deals: Sequence[dict[str, Any]]
    ) -> TableRow:
        """Lobby to playing; a table no longer in its lobby is refused (LookupError)."""
        async with self.transaction() as db:
            row = table_row(
                await self._returning(
                    db,
                    "UPDATE game_tables SET status = 'playing', first_dealer = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'lobby' RETURNING *",
                    (first_dealer, time.time(), table_id),
                )
            )
            for index, deal in enumerate(deals):
                await db.execute(
                    "INSERT INTO deals (table_id, deal_index, deal) VALUES (?, ?, ?)",
                    (table_id, index, json.dumps(deal)),
                )
            await db.execute(
                "INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)"
                " SELECT table_id, seat, 0, user_id, name FROM seats WHERE table_id = ?"
                " ORDER BY seat",
                (table_id,),
            )
        return row

    async def append_move(
        self,
        table_id: int,
        seq: int,
        seat: int,
        move: dict[str, Any],
        user_id: int | None,
        new_deals: Sequence[tuple[int, dict[str, Any]]] = (),
        status: str | None = None,
        deadline: float | None = None,
        *,
        back: bool = False,
        result: Result | None = None,
    ) -> tuple[TableRow, SeatRow | None]:
        """Record one accepted move, the deals it caused to be shuffled, and the table's status.

        ``back``: the mover was away and is back in their seat. ``result``: the move ended the
        game; its result is kept in the same transaction, so a crash cannot leave a finished
        game "playing". ``(table_id, seq)`` is unique: a second writer of the same move fails.
        """
        now = time.time()
        async with self.transaction() as db:
            try:
                await db.execute(
                    "INSERT INTO moves (table_id, seq, seat, move, user_id, created_at,"
                    " by_computer) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_id, seq, seat, json.dumps(move), user_id, now, int(user_id is None)),
                )
            except sqlite3.IntegrityError as error:
                if "moves.table_id, moves.seq" in str(error):
                    raise MoveTaken(f"table {table_id} already has move {seq}") from None
                raise
            for index, deal in new_deals:
                await db.execute(
                    "INSERT INTO deals (table_id, deal_index, deal) VALUES (?, ?, ?)",
                    (table_id, index, json.dumps(deal)),
                )
            returned = None
            if back:
                returned = seat_row(
                    await self._returning(
                        db,
                        "UPDATE seats SET away = 0 WHERE table_id = ? AND seat = ? RETURNING *",
                        (table_id, seat),
                    )
                )
            row = await self._update_table(
                db,
                table_id,
                "status = COALESCE(?, status), turn_deadline = ?, updated_at = ?",
                (status, deadline, now),
            )
            if result is not None:
                row = await self._close(db, row, result, now)
        return row, returned

    async def moves(self, table_id: int) -> list[MoveRow]:
        rows = await self._all("SELECT * FROM moves WHERE table_id = ? ORDER BY seq", (table_id,))
        return [
            MoveRow(
                row["table_id"],
                row["seq"],
                row["seat"],
                json.loads(row["move"]),
                row["user_id"],
                row["created_at"],
                bool(row["by_computer"]),
            )
            for row in rows
        ]

    async def deals(self, table_id: int) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT deal FROM deals WHERE table_id = ? ORDER BY deal_index", (table_id,)
        )
        return [json.loads(row["deal"]) for row in rows]
