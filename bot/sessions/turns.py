"""Turns: the computer's turns (the table's worker) and the turn timer of the people to act."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.sessions.errors import TablePaused, paused
from bot.sessions.moves import MovesPart
from bot.sessions.state import FALLBACK_LEVEL, retry_delay
from bot.sessions.table import Line, LiveTable
from games.base import Game, Move
from games.levels import choose_move

log = logging.getLogger(__name__)


class TurnsPart(MovesPart):
    """Turns: the computer's turns (the table's worker) and the turn timer of the people to act."""

    def _schedule(self, table: LiveTable, moved: bool = False) -> None:
        """Wake the table's worker (computer turns) and re-arm its turn timer, independently
        (``moved``: right after a stored move, see :meth:`_arm_after_move`)."""
        if self._closing or table.row.status != "playing" or self.tables.get(table.id) is not table:
            return
        table.wake = True
        if table.worker is None or table.worker.done():
            table.worker = asyncio.get_running_loop().create_task(self._work(table))
        if moved:
            self._arm_after_move(table)
        else:
            self._arm(table)

    def _arm(self, table: LiveTable) -> None:
        if table.timer is not None and not table.timer.done():
            table.timer.cancel()
        table.timer = asyncio.get_running_loop().create_task(self._keep_time(table))

    def _arm_after_move(self, table: LiveTable) -> None:
        """Re-arm the turn timer right after a move was stored. The move stored the turn's
        deadline with it, None when no person is waited on (computers to act); a new timer
        would then find nothing to time and stop at once, so the old one is cancelled and
        none started: most moves are computers' and cost no timer task."""
        if table.row.turn_deadline is not None:
            self._arm(table)
        elif table.timer is not None and not table.timer.done():
            table.timer.cancel()

    async def _work(self, table: LiveTable) -> None:
        """Play computer turns until none is due. A failure (the database refusing the move)
        leaves the game as it was; the worker waits and tries again, it never gives up."""
        failures = 0
        while table.wake and not self._closing:
            table.wake = False
            try:
                while (
                    not self._closing
                    and self.tables.get(table.id) is table
                    and table.row.status == "playing"
                ):
                    if not await self._computer_step(table):
                        break
                    failures = 0
            except TablePaused:
                failures += 1
                log.warning("table %s: a computer move was not saved; retrying", table.id)
            except Exception:
                failures += 1
                log.exception("table %s: the computer player failed; retrying", table.id)
            if failures:
                table.wake = True
                await self.clock.sleep_until(self.clock.now() + retry_delay(failures))

    async def _computer_step(self, table: LiveTable) -> bool:
        """Play one computer move if a computer is to act; False when none is."""
        assert table.game is not None
        seats = [s for s in table.waiting_for() if table.played_by_computer(s)]
        if not seats:
            return False
        seat, seq, snapshot = seats[0], table.moves, table.game.clone()
        level, seed = table.level_of(seat), f"{table.row.seed}:{seq}"
        try:  # in a worker process (or a thread): see bot.thinking
            move = await self.thinker.choose(
                snapshot, seat, seed, level, self.computer_budget, choose_move
            )
        except TimeoutError:
            log.warning("table %s: computer seat %s ran out of time", table.id, seat)
            move = await self._fallback_move(snapshot, seat, seed, level)
        except Exception:  # a player's bug must not stop the table
            log.exception("table %s: computer seat %s failed to choose", table.id, seat)
            move = await self._fallback_move(snapshot, seat, seed, level)
        async with table.lock:
            if (
                table.moves != seq
                or table.row.status != "playing"
                or self.tables.get(table.id) is not table
                or not table.played_by_computer(seat)  # a person sat in (or came back) meanwhile
            ):
                return True  # someone moved meanwhile: look again
            events = await self._commit(table, seat, move, None)
        if not self._announce(table, events):
            return False
        self._arm_after_move(table)
        await asyncio.sleep(0)
        return True

    async def _fallback_move(self, game: Game, seat: int, seed: str, level: str) -> Move:
        """A move when ``level`` could not decide: the normal level's (a quick rule of thumb, far
        better than any fixed card), or the first legal move if that fails too."""
        if level != FALLBACK_LEVEL:
            with contextlib.suppress(Exception):
                return await self.thinker.choose(
                    game, seat, seed, FALLBACK_LEVEL, self.computer_budget, choose_move
                )
        return game.legal_moves(seat)[0]

    async def _keep_time(self, table: LiveTable) -> None:
        """Store the turn deadline of the humans to act, wait for it, and time them out.

        A database failure is retried with backoff; the timer never depends on the worker.
        Re-arming cancels this task only while it waits: its writes run shielded.
        """
        failures = 0
        while not self._closing and self.tables.get(table.id) is table:
            try:
                armed = await self._shielded(self._deadline_now(table))
                if armed is None:
                    return
                seq, deadline = armed
                await self.clock.sleep_until(deadline)
                await self._shielded(self._expire(table, seq))
                return
            except TablePaused:
                failures += 1
                log.warning("table %s: the turn timer could not be saved; retrying", table.id)
            except Exception:
                failures += 1
                log.exception("table %s: the turn timer failed; retrying", table.id)
            await self.clock.sleep_until(self.clock.now() + retry_delay(failures))

    async def _deadline_now(self, table: LiveTable) -> tuple[int, float] | None:
        """The move number and deadline to wait for, or None when no human is timed."""
        async with table.lock:
            if table.row.status != "playing" or self.tables.get(table.id) is not table:
                return None
            deadline = await self._set_deadline(table)
            return None if deadline is None else (table.moves, deadline)

    async def _set_deadline(self, table: LiveTable) -> float | None:
        """Inside the lock: this turn's deadline (kept across restarts), stored if it changed."""
        if table.game is None:
            return None
        deadline = await self._next_deadline(
            table, table.game, table.seats, table.row.turn_deadline
        )
        if deadline != table.row.turn_deadline:
            with paused():
                table.row = await self.store.set_deadline(table.id, deadline)
            self._notify(table, ())
        return deadline

    async def _expire(self, table: LiveTable, seq: int) -> None:
        async with table.lock:
            if (
                table.moves != seq
                or table.row.status != "playing"
                or self.tables.get(table.id) is not table
            ):
                return
            if not table.tournament and not any(not s.away for s in table.humans()):
                resigner = self._away_resigner(table)
                await self._close(table, "abandoned", resigned=resigner)
                return
            late = [
                seat
                for seat in table.waiting_for()
                if not table.seats[seat].computer and not table.seats[seat].away
            ]
            with paused():
                row, changed = await self.store.set_away(table.id, late, True, clear_deadline=True)
            table.row = row
            for seat_row in changed:
                table.seats[seat_row.seat] = seat_row
                table.recent.append(
                    Line("{s0} ran out of time; a computer plays for them.", [seat_row.name])
                )
        self._notify(table, ())
        self._schedule(table)
