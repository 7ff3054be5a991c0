"""Reports of a computer's play (the "Report this hand" button): kept for the blunder suite."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from bot.store.sql import SqlStore


class ReportsSql(SqlStore):
    """The reports part of both stores."""

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
        async with self.writing() as db:
            added = await db.execute(
                "INSERT INTO hand_reports (table_id, hand, trick, reporter_id, seat, game,"
                " position, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                " ON CONFLICT DO NOTHING",
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
        return added == 1

    async def hand_reported(self, table_id: int, hand: int, trick: int, reporter_id: int) -> bool:
        rows = await self._all(
            "SELECT 1 FROM hand_reports WHERE table_id = $1 AND hand = $2 AND trick = $3"
            " AND reporter_id = $4",
            (table_id, hand, trick, reporter_id),
        )
        return bool(rows)
