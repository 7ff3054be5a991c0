"""Closing a table: its result kept, its tasks stopped; an idle lobby's expiry."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.sessions.errors import TablePaused, paused
from bot.sessions.settings import SettingsPart
from bot.sessions.state import CHANNEL_DELETED_NOTE, CHANNEL_DELETED_REASON, retry_delay
from bot.sessions.table import LiveTable
from bot.store import Result
from games.base import Game
from games.seats import resignation_winners, team_of

log = logging.getLogger(__name__)


class ClosingPart(SettingsPart):
    """Closing a table: its result kept, its tasks stopped; an idle lobby's expiry."""

    async def _close(
        self,
        table: LiveTable,
        status: str,
        note: str | None = None,
        reason: str | None = None,
        resigned: int | None = None,
    ) -> None:
        """Inside the lock: close the table for good (``note`` says why), and let it go.
        ``reason``: why a game was abandoned, kept with its result. ``resigned``: the seat whose
        last person left a rated game: it ends as that seat's loss, rated (games/seats.py)."""
        with paused():
            if status == "abandoned":
                score = list(table.game.summary().get("score") or []) if table.game else []
                outcome: dict[str, Any] = {"winners": [], "score": score, "abandoned": True}
                if resigned is not None:  # a result: rated like a finished game
                    outcome = {
                        "winners": resignation_winners(
                            resigned, table.seat_count, table.game_class.teams
                        ),
                        "score": score,
                        "abandoned": False,
                        "resigned": resigned,
                    }
                elif reason:
                    outcome["reason"] = reason
                table.row = await self.store.record_result(
                    table.row,
                    status,
                    outcome,
                    [
                        (s.user_id, s.seat, s.seat in outcome["winners"])
                        for s in table.humans()
                        if s.user_id is not None
                    ],
                )
            else:
                table.row = await self.store.set_status(table.id, status)
        table.note = note
        table.resigned = resigned
        if resigned is not None:  # read once the result is kept: words only, never fails
            table.result_note = await self.store.result_note(table.id)
        self._let_go(table)

    @staticmethod
    def _result_of(table: LiveTable, game: Game) -> Result:
        outcome = game.outcome()
        assert outcome is not None
        winners = set(outcome.winners)
        return Result(
            "finished",
            {"winners": list(outcome.winners), "score": list(outcome.score), "abandoned": False},
            [
                (s.user_id, s.seat, s.seat in winners)
                for s in table.humans()
                if s.user_id is not None
            ],
        )

    @staticmethod
    def _resignable(table: LiveTable) -> bool:
        """A rated game under way: its last person leaving it resigns it (bot/records.py)."""
        return (
            table.row.rated
            and not table.row.hints
            and table.row.status == "playing"
            and table.game is not None
            and table.game.status == "in_progress"
        )

    def _away_resigner(self, table: LiveTable) -> int | None:
        """Inside the lock, every person away: the seat whose side a rated game counts as lost
        when its time runs out (staying away from a game is leaving it), or None — unrated, or
        the away people are on more than one side, which makes it nobody's loss."""
        away = sorted(s.seat for s in table.humans())
        teams = table.game_class.teams
        sides = {team_of(seat) if teams else seat for seat in away}
        if not away or len(sides) != 1 or not self._resignable(table):
            return None
        return away[0]

    async def channel_deleted(self, channel_id: int) -> list[LiveTable]:
        """The channel (or thread) was deleted: no one can reach its tables any more, so each is
        closed for good, a lobby cancelled and a game abandoned (unrated, the reason kept)."""
        closed = []
        for table in [t for t in self.tables.values() if t.row.channel_id == channel_id]:
            async with table.lock:
                if self.tables.get(table.id) is not table:
                    continue
                if table.row.status == "lobby":
                    await self._close(table, "cancelled", CHANNEL_DELETED_NOTE)
                else:
                    await self._close(
                        table, "abandoned", CHANNEL_DELETED_NOTE, CHANNEL_DELETED_REASON
                    )
            log.info("table %s: its channel was deleted; the table is closed", table.id)
            closed.append(table)
        return closed

    def _watch_lobby(self, table: LiveTable) -> None:
        """Close the lobby once nothing happened in it for ``lobby_idle_seconds``."""
        if self._closing or table.row.status != "lobby":
            return
        if table.idle is None or table.idle.done():
            table.idle = asyncio.get_running_loop().create_task(self._expire_lobby(table))

    async def _expire_lobby(self, table: LiveTable) -> None:
        failures = 0
        while not self._closing and self.tables.get(table.id) is table:
            await self.clock.sleep_until(table.touched + self.lobby_idle_seconds)
            try:
                async with table.lock:
                    if self.tables.get(table.id) is not table or table.row.status != "lobby":
                        return
                    if self.clock.now() < table.touched + self.lobby_idle_seconds:
                        continue  # something happened meanwhile
                    minutes = round(self.lobby_idle_seconds / 60)
                    note = f"This table was closed after {minutes} minutes without activity."
                    await self._close(table, "cancelled", note)
                    return
            except TablePaused:
                failures += 1
                await self.clock.sleep_until(self.clock.now() + retry_delay(failures))
