"""Moves: check a person's move, commit it (one transaction), announce it."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.i18n import N_
from bot.player_stats import calls_in
from bot.sessions.closing import ClosingPart
from bot.sessions.errors import UserError, paused
from bot.sessions.table import LiveTable
from bot.store import OPEN_STATUSES, MoveTaken, SeatRow
from games.base import Event, Game, IllegalMove, Move
from games.players.hints import hint_for
from games.seats import seat_ref

# A game's refusal names a seat under one of these parameters; the reader is shown its name.
SEAT_PARAMS = frozenset(("seat", "turn"))


def refusal(error: IllegalMove, table: LiveTable) -> UserError:
    """A game's refusal as the user's: its text and seat parameters name the seats
    (``{s2}``), the players' names go beside them (escaped where they are shown)."""
    params = {
        key: seat_ref(value) if key in SEAT_PARAMS and isinstance(value, int) else value
        for key, value in error.params.items()
    }
    kind = next(str(c.__dict__["code"]) for c in type(error).__mro__ if "code" in c.__dict__)
    return UserError(str(error), code=error.code, params=params, kind=kind, names=table.names)


log = logging.getLogger(__name__)
STALE_TEXT = N_("That button is out of date; here is your hand as it is now.")


class MovesPart(ClosingPart):
    """Moves: check a person's move, commit it (one transaction), announce it."""

    async def submit(self, table_id: int, user_id: int, seq: int, move: Move) -> list[Event]:
        """A human's move: refused with a :class:`UserError`, or committed and returned."""
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            if table.row.status != "playing" or table.game is None:
                raise UserError("This game is not being played.", code="not_being_played")
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.", code="not_seated")
            if table.is_stale(seat, seq):
                raise UserError(STALE_TEXT, code="stale")
            try:
                table.game.check(seat, move)
            except IllegalMove as error:
                raise refusal(error, table) from None
            events = await self._commit(table, seat, move, user_id)
        self._after_move(table, events)
        return events

    async def _commit(
        self, table: LiveTable, seat: int, move: Move, user_id: int | None
    ) -> list[Event]:
        """Apply on a clone, store the move (with any new deal, and the result if the game
        ended, in one transaction), then swap the clone in."""
        assert table.game is not None
        hidden_before = table.game.hidden_cards(None)
        game = table.game.clone()
        events = game.apply(seat, move)
        new_deals = [
            (i, game.deals[i].to_json()) for i in range(len(table.game.deals), len(game.deals))
        ]
        result = self._result_of(table, game) if game.status == "finished" else None
        calls = [*table.calls, *calls_in(events)]
        if result is not None:
            result = replace(result, calls=calls)
        back = user_id is not None and table.seats[seat].away
        seats = {**table.seats, seat: replace(table.seats[seat], away=False)} if back else None
        deadline = await self._next_deadline(table, game, seats or table.seats, None)
        try:
            with paused():
                row, returned = await self.store.append_move(
                    table.id,
                    table.moves,
                    seat,
                    move.to_json(),
                    user_id,
                    new_deals,
                    status=None,
                    deadline=deadline,
                    back=back,
                    result=result,
                )
        except MoveTaken:
            # Another process stored this move number first (two processes held the table, as
            # when shards change hands): nothing was written; take the table as it is stored.
            log.warning("table %s: move %s was stored by another process", table.id, table.moves)
            await self._reload(table)
            raise UserError(STALE_TEXT) from None
        table.game = game
        table.moves += 1
        table.calls = calls
        table.row = row
        if returned is not None:
            table.seats[seat] = returned
        table.note_situation(seat)
        played = {move.get("card")} | set(move.get("cards") or ())
        table.remember(events, (hidden_before & game.hidden_cards(None)) - played)
        if result is not None:  # read after the cache is settled: words only, never fails
            table.result_note = await self.store.result_note(table.id)
        return events

    async def _reload(self, table: LiveTable) -> None:
        """Inside the lock: the table as the database has it now (let go if it closed)."""
        with paused():
            row = await self.store.get_table(table.id)
            if row is None or row.status not in OPEN_STATUSES:
                self._let_go(table)
                return
            table.row = row
            table.seats = {s.seat: s for s in await self.store.seats(table.id)}
            if row.status == "playing":
                await self._rebuild_game(table)

    async def _next_deadline(
        self, table: LiveTable, game: Game, seats: Mapping[int, SeatRow], kept: float | None
    ) -> float | None:
        """The turn deadline once ``game`` and ``seats`` are the table's: None when no person
        is waited on; ``kept`` (this turn's, surviving restarts) if set; else from now, the
        abandon time when every person is away, else the table's own turn length (the
        server's for a table opened before tables kept theirs)."""
        waiting = game.waiting_for() if game.status == "in_progress" else ()
        if not any(
            not seats[s].computer and not (table.tournament and seats[s].away) for s in waiting
        ):
            return None  # at a tournament's table a computer plays an away seat: nobody waits
        if kept is not None:
            return kept
        if not any(not s.away for s in seats.values() if not s.computer):
            return self.clock.now() + self.abandon_seconds
        seconds = table.row.turn_seconds
        if seconds is None:
            seconds = (await self.guild_settings(table.row.guild_id)).turn_seconds
        return self.clock.now() + seconds

    def _after_move(self, table: LiveTable, events: Sequence[Event]) -> None:
        if self._announce(table, events):
            self._schedule(table, moved=True)

    def _announce(self, table: LiveTable, events: Sequence[Event]) -> bool:
        """Tell the presenter about a committed move; False (and the table let go) if it ended."""
        self._notify(table, events)
        if table.row.status == "playing":
            return True
        self._let_go(table)
        return False

    async def come_back(self, table_id: int, user_id: int) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError(N_("You are not playing at this table."))
            if not table.seats[seat].away:
                raise UserError(N_("You are already in your seat."))
            with paused():
                row, changed = await self.store.set_away(table.id, [seat], False)
            table.row = row
            table.seats[seat] = changed[0]
        self._notify(table, ())
        self._schedule(table)

    def hint(self, table_id: int, user_id: int) -> tuple[int, Move, str]:
        """What the normal computer player would do for the user's seat now, and why, as (move
        number, move, reason): only at a table with hints, only on the user's turn. Decided
        from the seat's view alone (:mod:`games.players.hints`), with the random source a
        computer would use at this move, and without awaiting, so the state cannot change."""
        table = self.get(table_id)
        if not table.row.hints:
            raise UserError(N_("Hints are off at this table."))
        if table.row.status != "playing" or table.game is None:
            raise UserError(N_("This game is not being played."))
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError(N_("You are not playing at this table."))
        if seat not in table.waiting_for():
            raise UserError(N_("It is not your turn; ask for a hint when it is."))
        rng = random.Random(f"{table.row.seed}:{table.moves}")
        move, reason = hint_for(table.game, seat, rng)
        return table.moves, move, reason
