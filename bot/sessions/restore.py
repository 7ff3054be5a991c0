"""Start-up and shutdown: rebuild open tables from their moves log, re-announce what a crash left
untold, stop every task.
"""

from __future__ import annotations

import asyncio
import logging

from bot.player_stats import calls_in
from bot.sessions.closing import ClosingPart
from bot.sessions.table import Line, LiveTable, retell
from bot.shards import owns_guild
from bot.store import Call
from games.base import Deal, Event, Move

log = logging.getLogger(__name__)


class RestorePart(ClosingPart):
    """Start-up and shutdown: rebuild open tables from their moves log, re-announce what a crash
    left untold, stop every task.
    """

    announce_window_seconds = 7 * 86400.0  # closed tables older than this are not re-announced

    async def restore(self) -> None:
        """Rebuild every open table of this process's guilds from the database (called once at
        start-up): with shards, another process owns the other guilds' tables."""
        for row in await self.store.open_tables():
            if not owns_guild(self.settings.shards, row.guild_id):
                continue
            try:
                table = LiveTable(row, {s.seat: s for s in await self.store.seats(row.id)})
                table.touched = row.updated_at
                table.tournament = await self.store.round_table_of(row.id) is not None
                if row.status == "playing":
                    # The recent log as it was: the same replay yields the same events, told
                    # with the names of who held the seats then.
                    table.holders = await self.store.seat_holders(row.id)
                    replayed = await self._rebuild_game(table, after=0)
                    table.recent.append(Line(f"The game begins: {table.game_class.title}.", ()))
                    retell(table, replayed)
                    if table.game is not None and table.game.status == "finished":
                        # Stored by an older bot, whose last move and result were two
                        # transactions: the result is kept now, and the table let go.
                        result = self._result_of(table, table.game)
                        await self.store.record_result(
                            row, result.status, result.outcome, result.players, table.calls
                        )
                        log.info("table %s: finished game found playing; result kept", row.id)
                        continue
                self.tables[row.id] = table
            except Exception:
                log.exception("table %s could not be restored; it is left as stored", row.id)
        log.info("restored %d open tables", len(self.tables))

    async def _rebuild_game(self, table: LiveTable, after: int = -1) -> list[tuple[int, Event]]:
        """Replay the table's stored moves through the rules; return the events of the moves
        numbered after ``after`` (counting from 1), as (move number, event)."""
        row = table.row
        deals = [Deal.from_json(deal) for deal in await self.store.deals(row.id)]
        game = table.game_class.new(
            row.options, seed=row.seed, deals=deals, first_dealer=row.first_dealer
        )
        moves = await self.store.moves(row.id)
        events: list[tuple[int, Event]] = []
        calls: list[Call] = []
        for number, stored in enumerate(moves, start=1):
            applied = game.apply(stored.seat, Move.from_json(stored.move))
            calls += calls_in(applied)
            if after >= 0 and number > after:
                events.extend((number, event) for event in applied)
        table.game = game
        table.calls = calls
        table.moves = len(moves)
        table.note_situation()
        return events

    async def resume_after_connect(self) -> None:
        """After (re)connecting: refresh every table message, resume timers and computers."""
        self.thinker.warm()
        for guild_id in {table.row.guild_id for table in self.tables.values()}:
            await self.table_language(guild_id)  # the tables' posts are worded as moves happen
        for table in list(self.tables.values()):
            self._notify(table, ())
            if table.row.status == "playing":
                self._schedule(table)
            else:
                self._watch_lobby(table)

    async def shutdown(self) -> None:
        """Stop computers and timers, and wait for them (and any timer write under way) to
        end, so that nothing writes to the store once it is closed."""
        self._closing = True
        tasks = [
            task
            for table in self.tables.values()
            for task in (table.timer, table.worker, table.idle)
            if task is not None and not task.done() and task is not asyncio.current_task()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self._writes, return_exceptions=True)
        await self.thinker.close()

    async def unannounced(self) -> list[tuple[LiveTable, list[tuple[int, Event]]]]:
        """Tables a crash left unannounced, each with the events of its moves whose results
        were not posted yet as (move number, event); finished tables are rebuilt for it."""
        out: list[tuple[LiveTable, list[tuple[int, Event]]]] = []
        since = self.clock.now() - self.announce_window_seconds
        for row, through in await self.store.unannounced_tables(since):
            if not owns_guild(self.settings.shards, row.guild_id):
                continue  # the process on that guild's shard tells it
            try:
                live = self.tables.get(row.id)
                # A live table is replayed on a copy: only its events are wanted here.
                seats = live.seats if live else {s.seat: s for s in await self.store.seats(row.id)}
                table = LiveTable(live.row if live else row, seats)
                table.holders = live.holders if live else await self.store.seat_holders(row.id)
                events: list[tuple[int, Event]] = []
                if row.status in ("playing", "finished", "abandoned"):
                    events = await self._rebuild_game(table, after=through)
                if row.status == "finished":  # the re-announced result says if it was rated
                    table.result_note = await self.store.result_note(row.id)
                if row.status == "abandoned":  # a resigned game's board says who left
                    table.resigned = await self.store.resigned_seat(row.id)
                    if table.resigned is not None:
                        table.result_note = await self.store.result_note(row.id)
                out.append((live or table, events))
            except Exception:
                log.exception("table %s: could not be re-announced", row.id)
        return out
