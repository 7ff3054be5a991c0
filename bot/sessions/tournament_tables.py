"""A tournament's tables: opened seated and started at once, and absent people played by computers.

The tournament's runner (:mod:`bot.sessions.tournaments`) decides who sits where; this part only
opens the table (marked :attr:`LiveTable.tournament`: never abandoned, an away seat always played
by a computer) and marks people absent.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bot.i18n import N_
from bot.sessions.errors import paused
from bot.sessions.seating import SeatingPart
from bot.sessions.table import Line, LiveTable

ABSENT_LINE = N_("{s0} is absent; a computer plays for them.")


class TournamentTablesPart(SeatingPart):
    """A tournament's tables: opened seated, started at once, absent people played by computers."""

    async def open_seated(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: Mapping[str, Any],
        seed: int,
        seats: Sequence[tuple[int, str]],
    ) -> LiveTable:
        """A new table in the lobby with every seat taken by ``seats`` (user id, name) in seat
        order, marked as a tournament's; :meth:`start_seated` starts it. Not limited to one
        table a person: a tournament's round seats its entrants wherever else they sit."""
        game_class = self._game_class(game)
        values = game_class.validate_options(dict(options))
        settings = await self.guild_settings(guild_id)
        with paused():
            row = await self.store.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=seats[0][0],
                game=game,
                options=values,
                seed=seed,
                seats=list(seats),
                rated=settings.rated,
                computers=True,
                turn_seconds=settings.turn_seconds,
                trick_lines=settings.trick_lines,
            )
            placed = await self.store.seats(row.id)
        table = LiveTable(row, {s.seat: s for s in placed}, tournament=True)
        table.touched = self.clock.now()
        self.tables[row.id] = table
        return table

    async def start_seated(self, table: LiveTable) -> None:
        """Start a tournament's table opened by :meth:`open_seated` (nothing if it started)."""
        if table.row.status == "lobby":
            await self.start(table.id, table.row.host_id)

    async def stand_in(self, table_id: int, user_ids: Collection[int] | None = None) -> int:
        """Mark these people (everyone, by default) absent at a tournament's table: a computer
        plays their seats at the normal level from now on; how many were marked."""
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            seats = [
                s.seat
                for s in table.humans()
                if not s.away and (user_ids is None or s.user_id in user_ids)
            ]
            if not seats or table.row.status != "playing":
                return 0
            with paused():
                row, changed = await self.store.set_away(table.id, seats, True, clear_deadline=True)
            table.row = row
            for seat_row in changed:
                table.seats[seat_row.seat] = seat_row
                table.recent.append(Line(ABSENT_LINE, [seat_row.name]))
        self._notify(table, ())
        self._schedule(table)
        return len(seats)
