"""Moves: starting a game, the moves log and its deals; the move that ends a game keeps its result
in the same transaction. Written once for both backends (:mod:`bot.store.sql`), with SQLite's
one-trip path for the ordinary move (:class:`SqliteMoves`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.base import SqliteBase, seat_row, table_row
from bot.store.interface import MoveTaken
from bot.store.results import ResultsSql
from bot.store.rows import MoveRow, Result, SeatRow, TableRow
from bot.store.sql import returning, sqlite_sql
from bot.store.tables import update_table

INSERT_MOVE = (
    "INSERT INTO moves (table_id, seq, seat, move, user_id, created_at, by_computer)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7)"
)
INSERT_DEAL = "INSERT INTO deals (table_id, deal_index, deal) VALUES ($1, $2, $3)"
SEAT_BACK = "UPDATE seats SET away = 0 WHERE table_id = $1 AND seat = $2 RETURNING *"
MOVE_TABLE = "status = COALESCE($1, status), turn_deadline = $2, updated_at = $3"


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """The rows one accepted move writes, as statement parameters."""

    table_id: int
    seq: int
    seat: int
    move: tuple[Any, ...]  # the moves log's row
    deals: list[tuple[int, int, str]]  # the deals it caused to be shuffled
    back: bool  # its mover was away and is back in the seat
    changes: tuple[str | None, float | None, float]  # the table's status, deadline, update time

    @property
    def seat_key(self) -> tuple[int, int]:
        return self.table_id, self.seat

    def taken(self) -> MoveTaken:
        return MoveTaken(f"table {self.table_id} already has move {self.seq}")


class MovesSql(ResultsSql):
    """The moves part of both stores."""

    async def start_game(
        self, table_id: int, first_dealer: int, deals: Sequence[dict[str, Any]]
    ) -> TableRow:
        """Lobby to playing; a table no longer in its lobby is refused (LookupError)."""
        async with self.writing() as db:
            row = table_row(
                await returning(
                    db,
                    "UPDATE game_tables SET status = 'playing', first_dealer = $1, updated_at = $2"
                    " WHERE id = $3 AND status = 'lobby' RETURNING *",
                    (first_dealer, time.time(), table_id),
                )
            )
            await db.execute_many(
                INSERT_DEAL,
                [(table_id, index, json.dumps(deal)) for index, deal in enumerate(deals)],
            )
            await db.execute(
                "INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)"
                " SELECT table_id, seat, 0, user_id, name FROM seats WHERE table_id = $1"
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
        game "playing". ``(table_id, seq)`` is unique: a second writer of the same move number
        (another bot process) is refused as :class:`MoveTaken`, nothing of its move written.
        """
        now = time.time()
        written = MoveWrite(
            table_id,
            seq,
            seat,
            (table_id, seq, seat, json.dumps(move), user_id, now, int(user_id is None)),
            [(table_id, index, json.dumps(deal)) for index, deal in new_deals],
            back,
            (status, deadline, now),
        )
        return await self._write_move(written, result, now)

    async def _write_move(
        self, written: MoveWrite, result: Result | None, now: float
    ) -> tuple[TableRow, SeatRow | None]:
        """Write :meth:`append_move`'s rows in one transaction, statement by statement."""
        async with self.writing() as db:
            try:
                await db.execute(INSERT_MOVE, written.move)
            except Exception as error:
                if self.breaks_move_number(error):
                    raise written.taken() from None
                raise
            if written.deals:  # most moves deal nothing: no trip for them
                await db.execute_many(INSERT_DEAL, written.deals)
            returned = None
            if written.back:
                returned = seat_row(await returning(db, SEAT_BACK, written.seat_key))
            row = await update_table(db, written.table_id, MOVE_TABLE, written.changes)
            if result is not None:
                row = await self._close_in(db, row, result, now)
        return row, returned

    async def moves(self, table_id: int) -> list[MoveRow]:
        rows = await self._all("SELECT * FROM moves WHERE table_id = $1 ORDER BY seq", (table_id,))
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
            "SELECT deal FROM deals WHERE table_id = $1 ORDER BY deal_index", (table_id,)
        )
        return [json.loads(row["deal"]) for row in rows]


_MOVE_SQL = sqlite_sql(INSERT_MOVE)
_DEAL_SQL = sqlite_sql(INSERT_DEAL)
_SEAT_BACK_SQL = sqlite_sql(SEAT_BACK)
_TABLE_SQL = sqlite_sql(f"UPDATE game_tables SET {MOVE_TABLE} WHERE id = $4 RETURNING *")


def _one_row(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> sqlite3.Row:
    """The one row a ``... RETURNING *`` statement changed."""
    rows: list[sqlite3.Row] = db.execute(sql, params).fetchall()
    if not rows:
        raise LookupError(f"no row changed by: {sql.split()[0]} ...")
    return rows[0]


class SqliteMoves(MovesSql, SqliteBase):
    """The moves on SQLite: an ordinary move (one that ends no game) is written in one trip to
    the connection's thread (:meth:`SqliteBase.in_one_trip`) instead of one a statement."""

    async def _write_move(
        self, written: MoveWrite, result: Result | None, now: float
    ) -> tuple[TableRow, SeatRow | None]:
        if result is not None:  # the game's last move: its result too, statement by statement
            return await super()._write_move(written, result, now)

        def write(db: sqlite3.Connection) -> tuple[TableRow, SeatRow | None]:
            try:
                db.execute(_MOVE_SQL, written.move)
            except sqlite3.IntegrityError as error:
                if self.breaks_move_number(error):
                    raise written.taken() from None
                raise
            db.executemany(_DEAL_SQL, written.deals)
            back = _one_row(db, _SEAT_BACK_SQL, written.seat_key) if written.back else None
            table = _one_row(db, _TABLE_SQL, (*written.changes, written.table_id))
            return table_row(table), None if back is None else seat_row(back)

        return await self.in_one_trip(write)
