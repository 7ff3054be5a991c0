"""Moves in PostgreSQL: starting a game, the moves log and its deals
(:mod:`bot.store.moves` is SQLite's)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.store.base import seat_row, table_row
from bot.store.interface import MoveTaken
from bot.store.postgres.results import PostgresResults
from bot.store.rows import MoveRow, Result, SeatRow, TableRow

MOVE_NUMBER_KEY = "moves_table_id_seq_key"  # UNIQUE (table_id, seq) of the moves log


class PostgresMoves(PostgresResults):
    """The moves part of :class:`bot.store.postgres.PostgresStore`."""

    async def start_game(
        self, table_id: int, first_dealer: int, deals: Sequence[dict[str, Any]]
    ) -> TableRow:
        """Lobby to playing; a table no longer in its lobby is refused (LookupError)."""
        async with self.transaction() as db:
            row = table_row(
                await self._returning(
                    db,
                    "UPDATE game_tables SET status = 'playing', first_dealer = $1, updated_at = $2"
                    " WHERE id = $3 AND status = 'lobby' RETURNING *",
                    (first_dealer, time.time(), table_id),
                )
            )
            await db.executemany(
                "INSERT INTO deals (table_id, deal_index, deal) VALUES ($1, $2, $3)",
                [(table_id, index, json.dumps(deal)) for index, deal in enumerate(deals)],
            )
            await db.execute(
                "INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)"
                " SELECT table_id, seat, 0, user_id, name FROM seats WHERE table_id = $1"
                " ORDER BY seat",
                table_id,
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
        """Record one accepted move, its new deals, the table's status and (``result``) the
        game's end, in one transaction (see :meth:`bot.store.moves.SqliteMoves.append_move`).
        ``(table_id, seq)`` is unique: a second writer of the same move number (another bot
        process) is refused as :class:`MoveTaken`, nothing of its move written."""
        now = time.time()
        async with self.transaction() as db:
            try:
                await db.execute(
                    "INSERT INTO moves (table_id, seq, seat, move, user_id, created_at,"
                    " by_computer) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    table_id,
                    seq,
                    seat,
                    json.dumps(move),
                    user_id,
                    now,
                    int(user_id is None),
                )
            except asyncpg.UniqueViolationError as error:
                if error.constraint_name == MOVE_NUMBER_KEY:
                    raise MoveTaken(f"table {table_id} already has move {seq}") from None
                raise
            if new_deals:  # most moves deal nothing: no round trip for them
                await db.executemany(
                    "INSERT INTO deals (table_id, deal_index, deal) VALUES ($1, $2, $3)",
                    [(table_id, index, json.dumps(deal)) for index, deal in new_deals],
                )
            returned = None
            if back:
                returned = seat_row(
                    await self._returning(
                        db,
                        "UPDATE seats SET away = 0 WHERE table_id = $1 AND seat = $2 RETURNING *",
                        (table_id, seat),
                    )
                )
            row = await self._update_table(
                db,
                table_id,
                "status = COALESCE($1, status), turn_deadline = $2, updated_at = $3",
                (status, deadline, now),
            )
            if result is not None:
                row = await self._close(db, row, result, now)
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
