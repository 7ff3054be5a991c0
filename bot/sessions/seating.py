"""Seats changing hands around a game: leave, cancel, a rematch, and sitting in."""

from __future__ import annotations

import random

from bot import i18n
from bot.i18n import N_
from bot.sessions.answers import Answer, Sentence
from bot.sessions.errors import UserError, paused
from bot.sessions.lobby import LobbyPart
from bot.sessions.state import NOT_ABANDONED_ALONE, RESIGNED_ALONE_TEXT, RESIGNED_TEXT
from bot.sessions.table import Line, LiveTable, change_line, computer_name, seat_list
from bot.store import SeatHolder
from games.registry import get_game
from games.seats import rematch_order, seats_to_return_to

TOURNAMENT_CLOSE_TEXT = N_(
    "Only a server manager can close a tournament's table; /table leave hands your seat to a"
    " computer."
)


RATED_AFTER_LEAVING = N_("The game still counts for your rating, with your seat's result.")


def away_line(minutes: int, lost: bool) -> str:
    """The table log's warning when only away players are left (a board in another language
    words it through cogs/engine_words/session.py)."""
    unit = "minute" if minutes == 1 else "minutes"
    ending = "counts as a loss for their side" if lost else "is abandoned"
    return (
        f"Only away players are left: unless one of them comes back within {minutes} {unit}, "
        f"the game {ending}."
    )


def away_warning(lang: str, minutes: int, lost: bool) -> str:
    """The same warning in the leaver's answer, in ``lang``."""
    if lost:
        return i18n.ngettext(
            lang,
            "Only away players are left: unless one of them presses “I'm back” within {n} minute,"
            " the game counts as a loss for their side.",
            "Only away players are left: unless one of them presses “I'm back” within {n} minutes,"
            " the game counts as a loss for their side.",
            minutes,
        )
    return i18n.ngettext(
        lang,
        "Only away players are left: unless one of them presses “I'm back” within {n} minute,"
        " the game is abandoned.",
        "Only away players are left: unless one of them presses “I'm back” within {n} minutes,"
        " the game is abandoned.",
        minutes,
    )


class SeatingPart(LobbyPart):
    """Seats changing hands around a game: leave, cancel, a rematch, and sitting in."""

    async def leave(self, table_id: int, user_id: int) -> str:
        """Leave a lobby, or hand one's seat in a running game to a computer player."""
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError(N_("You are not seated at this table."))
            if table.row.status == "lobby":
                if not await self._unseat(table, seat):
                    return N_("You left; the table is closed.")
                message = N_("You left the table.")
            else:
                message = await self._leave_game(table, seat)
                if self.tables.get(table.id) is not table:
                    return message  # the game was abandoned: the table is let go
        self._notify(table, ())
        if table.row.status == "playing":
            self._schedule(table)
        return message

    async def _leave_game(self, table: LiveTable, seat: int) -> str:
        """Inside the lock: a person leaves a running game. A computer takes their seat and they
        are free; the host role passes on. The last person leaving a rated game resigns it (the
        game is their side's loss, rated); leaving an unrated one abandons it. Leaving
        counts as playing the game out: the store keeps who left the seat, and the game's
        record rates them with the seat's result (bot/records.py)."""
        leaving = table.seats[seat]
        others = [s for s in table.humans() if s.seat != seat]
        if not others and self._resignable(table):
            await self._close(table, "abandoned", resigned=seat)
            return RESIGNED_TEXT
        if not others:
            await self._close(table, "abandoned", N_("Everyone left, so the game was abandoned."))
            return N_("You were the last person at the table, so the game is abandoned.")
        new_host = None
        if leaving.user_id == table.row.host_id:
            new_host = self._next_host(table, seat)
        name = computer_name(table)
        with paused():
            row, placed = await self.store.hand_to_computer(table.id, seat, name, new_host)
        table.row = row
        table.seats[seat] = placed
        table.holders.append(SeatHolder(seat, table.moves, None, name))
        table.recent.append(change_line(leaving.name, name, computer=True))
        if new_host is not None:
            table.recent.append(
                Line(N_("{s0} hosts now."), [table.seats[self._seat_of_user(table, new_host)].name])
            )
        said: list[Sentence] = [
            lambda lang: i18n._(
                lang,
                "You left: {name} plays your seat. You are free to join another table.",
                name=name,
            )
        ]
        if row.rated and not row.hints:
            said.append(lambda lang: i18n._(lang, RATED_AFTER_LEAVING))
        if all(s.away for s in others):
            minutes = round(self.abandon_seconds / 60)
            lost = self._away_resigner(table) is not None
            table.recent.append(Line(away_line(minutes, lost), ()))
            said.append(lambda lang: away_warning(lang, minutes, lost))
        return Answer(*said)

    async def cancel(self, table_id: int, actor_id: int, is_admin: bool) -> str | None:
        """Cancel a lobby, or abandon a running game (recorded as abandoned). Anyone seated
        abandoning a rated game under way as its only person resigns it (the answer says so), a
        server manager too: her power is over other people's games. A player is refused while
        others are seated (she may leave instead); a manager's abandon then is a moderator's
        act, unrated."""
        table = self.get(table_id)
        async with table.lock:
            self._open(table)
            if actor_id != table.row.host_id and not is_admin:
                raise UserError(N_("Only the host or a server manager can close this table."))
            if table.tournament and not is_admin:
                raise UserError(TOURNAMENT_CLOSE_TEXT)
            if table.row.status == "lobby":
                await self._close(table, "cancelled")
                return None
            seat = table.seat_of(actor_id)
            if seat is not None and self._resignable(table):
                if not any(s.seat != seat for s in table.humans()):  # a manager who plays too
                    await self._close(table, "abandoned", resigned=seat)
                    return RESIGNED_ALONE_TEXT
                if not is_admin:
                    raise UserError(NOT_ABANDONED_ALONE)
            await self._close(table, "abandoned")
            return None

    async def rematch(self, table_id: int, user_id: int) -> tuple[LiveTable, bool]:
        """Open the lobby of a finished (or resigned) game's rematch, or find the one already open.

        The same people and computers (same options and level), seats turned by
        :func:`games.seats.rematch_order`, under the server's settings of now (rated, computers
        allowed, turn timer, trick lines). The asker hosts and is confirmed; every other person
        confirms with Join (a Rematch click does it too). Returns the lobby and whether this call
        opened it; a second click changes nothing. A rematch lobby that was cancelled frees the
        way for a new one.
        """
        with paused():
            old = await self.store.get_table(table_id)
            resigned = (
                await self.store.resigned_seat(table_id)
                if old is not None and old.status == "abandoned"
                else None
            )
        if old is None or (old.status != "finished" and resigned is None):
            raise UserError(N_("Only a finished game can be played again."))
        async with self._guild_locks[old.guild_id]:
            with paused():
                existing = await self.store.rematch_of(old.id)
                seats = await self.store.seats(old.id)
            if existing is not None:
                table = self.tables.get(existing)
                if table is None or table.row.status != "lobby":
                    raise UserError(
                        f"The rematch (table #{existing}) has already started or closed.",
                        code="rematch_gone",
                        params={"table": existing},
                    )
                async with table.lock:
                    confirmed = table.row.status == "lobby" and await self._confirm(table, user_id)
                if confirmed:
                    self._notify(table, ())
                return table, False
            if user_id not in {s.user_id for s in seats if not s.computer}:
                raise UserError(
                    f"Only the players of table #{old.id} can ask for its rematch.",
                    code="rematch_players_only",
                    params={"table": old.id},
                )
            self._check_free(old.guild_id, user_id)
            game_class = get_game(old.game)
            count = game_class.seat_count(old.options)
            by_seat = {s.seat: s for s in seats}
            if sorted(by_seat) != list(range(count)):
                raise UserError(N_("This table's seats cannot be played again."))
            order = rematch_order(count, game_class.teams)
            # The server's settings of now, as for any new table: rated or not, and whether
            # computers may sit (if not, their seats are left empty for people to take).
            settings = await self.guild_settings(old.guild_id)
            new_seats = [
                (
                    by_seat[old_seat].user_id,
                    by_seat[old_seat].name,
                    by_seat[old_seat].user_id in (None, user_id),
                )
                if not by_seat[old_seat].computer or settings.computers
                else None
                for old_seat in order
            ]
            with paused():
                row = await self.store.create_rematch(
                    old,
                    random.SystemRandom().randrange(2**62),
                    new_seats,
                    rated=settings.rated,
                    computers=settings.computers,
                    turn_seconds=settings.turn_seconds,
                    trick_lines=settings.trick_lines,
                )
                stored = await self.store.seats(row.id)
            table = LiveTable(row, {s.seat: s for s in stored})
            table.touched = self.clock.now()
            self.tables[row.id] = table
        self._watch_lobby(table)
        return table, True

    def sit_in_seats(self, table: LiveTable, user_id: int | None = None) -> list[int]:
        """The computer seats one may ask to take over (a running game only): any, for a
        newcomer (or ``user_id`` None); for a person who held a seat earlier in the game, only
        those :func:`games.seats.seats_to_return_to` allows (her own side)."""
        if table.row.status != "playing":
            return []
        computers = [s.seat for s in table.seats.values() if s.computer]
        held = table.held_by(user_id) if user_id is not None else set()
        return seats_to_return_to(table.seat_count, table.game_class.teams, held, computers)

    def check_sit_in(self, table: LiveTable, user_id: int, seat: int | None = None) -> list[int]:
        """The seats this person may ask for (``seat`` among them, when given), or a
        :class:`UserError` saying why none."""
        if table.row.status != "playing":
            raise UserError(N_("This game is not being played."))
        if table.seat_of(user_id) is not None:
            raise UserError(N_("You are already playing at this table."))
        if not self.sit_in_seats(table):
            raise UserError(N_("There is no computer seat to sit in for here."))
        allowed = self.sit_in_seats(table, user_id)
        held = sorted(table.held_by(user_id))
        if held and (not allowed or (seat is not None and seat not in allowed)):
            # the seats themselves in the parameters: the Discord layer words the list
            played = {"held": tuple(held), "allowed": tuple(allowed)}
            team = table.game_class.teams
            if allowed:
                raise UserError(
                    f"You played {seat_list(held)} earlier in this game: you may come back to "
                    + ("your own team's seats" if team else "that seat")
                    + f" only ({seat_list(allowed)}).",
                    code="come_back_team" if team else "come_back_seat",
                    params=played,
                )
            raise UserError(
                f"You played {seat_list(held)} earlier in this game: you may come back to "
                + ("your own team's seats" if team else "that seat")
                + " only, and no computer plays one now.",
                code="come_back_none_team" if team else "come_back_none_seat",
                params=played,
            )
        if seat is not None and seat not in allowed:
            raise UserError(N_("That seat is not a computer's; choose one of the seats offered."))
        return allowed

    def former_seats(self, table: LiveTable, user_id: int) -> list[int]:
        """The seats this person held earlier in the table's game (for the host's question)."""
        return sorted(table.held_by(user_id))

    async def ask_sit_in(self, table_id: int, user_id: int, name: str, seat: int) -> None:
        """A person not at the table asks the host to let them play a computer's seat (one who
        played earlier in the game only a seat of her own side)."""
        table = self.get(table_id)
        async with self._guild_locks[table.row.guild_id], table.lock:
            self._open(table)
            self.check_sit_in(table, user_id, seat)
            self._check_free(table.row.guild_id, user_id)
            with paused():
                if not await self.store.ask_sit_in(table.id, seat, user_id, name):
                    raise UserError(N_("You have asked already; the host has not answered yet."))

    async def withdraw_sit_in(self, table_id: int, user_id: int, seat: int) -> None:
        """Forget a request the host could not be asked about (its message was not posted)."""
        with paused():
            await self.store.drop_sit_in(table_id, seat, user_id)

    async def answer_sit_in(
        self, table_id: int, host_id: int, seat: int, user_id: int, agree: bool
    ) -> Line:
        """The host lets the asker take over the computer's seat (or says no); what happened,
        naming people as a :class:`Line` does."""
        table = self.get(table_id)
        async with self._guild_locks[table.row.guild_id], table.lock:
            self._open(table)
            if host_id != table.row.host_id:
                raise UserError(N_("Only the host can answer this."))
            with paused():
                name = await self.store.sit_in_request(table.id, seat, user_id)
            if name is None:
                raise UserError(N_("That request is no longer open."))
            if not agree:
                with paused():
                    await self.store.drop_sit_in(table.id, seat, user_id)
                return Line("The host said no to {s0}.", (name,))
            stand_in = table.seats.get(seat)
            if stand_in is None or not stand_in.computer or table.row.status != "playing":
                with paused():
                    await self.store.drop_sit_in(table.id, seat, user_id)
                raise UserError(N_("That seat is not a computer's any more."))
            if seat not in self.sit_in_seats(table, user_id):  # she played another seat since
                with paused():
                    await self.store.drop_sit_in(table.id, seat, user_id)
                raise UserError(
                    N_(
                        "They played an opponent's seat earlier in this game: they may come "
                        "back only to their own side."
                    )
                )
            if self._seated_at(table.row.guild_id, user_id) is not None:
                with paused():
                    await self.store.drop_sit_in(table.id, seat, user_id)
                raise UserError(N_("They sit at another table now."))
            with paused():
                row, placed = await self.store.take_seat(table.id, seat, user_id, name)
            table.row = row
            table.seats[seat] = placed
            table.holders.append(SeatHolder(seat, table.moves, user_id, name))
            table.note_situation()
            table.recent.append(change_line(stand_in.name, name, computer=False))
        self._notify(table, ())
        self._schedule(table)
        return Line(f"{{s0}} plays seat {seat + 1} now (instead of {{s1}}).", (name, stand_in.name))
