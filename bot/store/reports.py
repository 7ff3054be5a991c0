"""Reports of a computer's play (the "Report this hand" button): kept for the blunder suite."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from bot.store.base import SqliteBase


class SqliteReports(SqliteBase):
    """The SQLite reports part of :class:`bot.store.Store`."""

    async def add_hand_report(
        self,
        table_id: int,
        hand: int,
        trick: int,
        reporter_id: int,
        seat: int,
        position: Mapping[str, Any],
    ) -> bool:
        """Keep a report; ``False`` (nothing changed) when this player reported this trick."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO hand_reports (table_id, hand, trick, reporter_id, seat, game,"
                " position, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    table_id,
                    hand,
                    trick,
                    reporter_id,
                    seat,
                    str(position["game"]),
                    json.dumps(position),
                    time.time(),
                ),
            )
            return cursor.rowcount == 1

    async def hand_reported(self, table_id: int, hand: int, trick: int, reporter_id: int) -> bool:
        rows = await self._all(
            "SELECT 1 FROM hand_reports WHERE table_id = ? AND hand = ? AND trick = ?"
            " AND reporter_id = ?",
            (table_id, hand, trick, reporter_id),
        )
        return bool(rows)
