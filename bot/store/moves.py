"""Moves: starting a game, the moves log and its deals; the move that ends a game keeps its result
in the same transaction.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

import aiosqlite

from bot.store.base import seat_row, table_row
from bot.store.interface import MoveTaken
from bot.store.results import SqliteResults
from bot.store.rows import MoveRow, Result, SeatRow, TableRow

INSERT_MOVE = (
    "INSERT INTO moves (table_id, seq, seat, move, user_id, created_at, by_computer)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
INSERT_DEAL = "INSERT INTO deals (table_id, deal_index, deal) VALUES (?, ?, ?)"
SEAT_BACK = "UPDATE seats SET away = 0 WHERE table_id = ? AND seat = ? RETURNING *"
MOVE_TABLE = (
    "UPDATE game_tables SET status = COALESCE(?, status), turn_deadline = ?, updated_at = ?"
    " WHERE id = ? RETURNING *"
)


def _taken(error: sqlite3.IntegrityError, stored: Sequence[Any]) -> Exception:
    """The move number is stored already (another process wrote it): :class:`MoveTaken`;
    another broken constraint is the error itself."""
    if "moves.table_id, moves.seq" in str(error):
        return MoveTaken(f"table {stored[0]} already has move {stored[1]}")
    return error


def _insert_move(db: sqlite3.Connection, stored: Sequence[Any]) -> None:
    try:
        db.execute(INSERT_MOVE, stored)
    except sqlite3.IntegrityError as error:
        raise _taken(error, stored) from None


def _one_row(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> sqlite3.Row:
    """The one row a ``... RETURNING *`` statement changed."""
    rows: list[sqlite3.Row] = db.execute(sql, params).fetchall()
    if not rows:
        raise LookupError(f"no row changed by: {sql.split()[0]} ...")
    return rows[0]


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
        stored = (table_id, seq, seat, json.dumps(move), user_id, now, int(user_id is None))
        deals = [(table_id, index, json.dumps(deal)) for index, deal in new_deals]
        table_now = (status, deadline, now, table_id)
        if result is None:  # nearly every move: the whole transaction in one trip

            def write(db: sqlite3.Connection) -> tuple[TableRow, SeatRow | None]:
                _insert_move(db, stored)
                db.executemany(INSERT_DEAL, deals)
                returned = seat_row(_one_row(db, SEAT_BACK, (table_id, seat))) if back else None
                return table_row(_one_row(db, MOVE_TABLE, table_now)), returned

            return await self.in_one_trip(write)
        async with self.transaction() as db:  # the game's last move: its result too
            await self._run_insert(db, stored)
            for deal in deals:
                await db.execute(INSERT_DEAL, deal)
            returned = None
            if back:
                returned = seat_row(await self._returning(db, SEAT_BACK, (table_id, seat)))
            row = table_row(await self._returning(db, MOVE_TABLE, table_now))
            row = await self._close(db, row, result, now)
        return row, returned

    @staticmethod
    async def _run_insert(db: aiosqlite.Connection, stored: Sequence[Any]) -> None:
        try:
            await db.execute(INSERT_MOVE, stored)
        except sqlite3.IntegrityError as error:
            raise _taken(error, stored) from None

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
