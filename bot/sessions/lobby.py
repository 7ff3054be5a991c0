"""The lobby: open a table, take and change seats, computers, level, hints, length, start."""

from __future__ import annotations

from bot.i18n import N_
from bot.sessions.errors import UserError, paused
from bot.sessions.options import (
    check_computers_allowed,
    check_level,
    check_table_channel,
    known_defaults,
    parse_options,
)
from bot.sessions.table import Line, LiveTable, computer_name
from bot.sessions.turns import TurnsPart
from bot.store import SeatHolder, SeatRow
from games.base import OptionError
from games.presets import with_preset


class LobbyPart(TurnsPart):
    """The lobby: open a table, take and change seats, computers, level, hints, length, start."""

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options_text: str | None = None,
        computer_level: str = "normal",
        hints: bool = False,
        parent_channel_id: int | None = None,
    ) -> LiveTable:
        """Open a lobby in ``channel_id`` (a thread of ``parent_channel_id``, if it is one),
        with the server's settings: allowed channels, default options, and the ones the table
        keeps for its life (rated, computers, turn timer, trick lines)."""
        game_class = self._game_class(game)
        settings = await self.guild_settings(guild_id)
        check_table_channel(settings, channel_id, parent_channel_id)
        try:
            options = game_class.validate_options(
                {**known_defaults(game_class, settings), **parse_options(options_text)}
            )
        except OptionError as error:
            raise UserError(
                f"That option is not right: {error}.", code="bad_option", params={"reason": error}
            ) from None
        check_level(computer_level)
        async with self._guild_locks[guild_id]:
            self._check_free(guild_id, host_id)
            with paused():
                row = await self.store.create_table(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    game=game,
                    options=options,
                    seed=self.new_seed(),
                    seats=[(host_id, host_name)],
                    computer_level=computer_level,
                    hints=hints,
                    rated=settings.rated,
                    computers=settings.computers,
                    turn_seconds=settings.turn_seconds,
                    trick_lines=settings.trick_lines,
                    parent_channel_id=parent_channel_id,
                )
            table = LiveTable(row, {0: SeatRow(row.id, 0, host_id, host_name, False)})
            table.touched = self.clock.now()
            self.tables[row.id] = table
        self._watch_lobby(table)
        return table

    async def set_message(self, table: LiveTable, message_id: int | None) -> None:
        """Remember the table's message (None: it is gone and must be posted again)."""
        async with table.lock:
            with paused():
                table.row = await self.store.set_table_message(table.id, message_id)

    async def move_to_channel(self, table: LiveTable, channel_id: int) -> None:
        """The table moved to another channel (its own thread)."""
        async with table.lock:
            with paused():
                table.row = await self.store.move_table(table.id, channel_id)

    def _check_free(self, guild_id: int, user_id: int, table_id: int | None = None) -> None:
        other = self._seated_at(guild_id, user_id)
        if other is not None and other.id != table_id:
            raise UserError(
                f"You are already seated at table #{other.id} in this server; leave it first.",
                code="seated_elsewhere",
                params={"table": other.id},
            )
        if other is not None:
            raise UserError(N_("You are already seated at this table."))

    def _seated_at(self, guild_id: int, user_id: int) -> LiveTable | None:
        """The table here where the user has a confirmed seat (a rematch's reservation does not
        keep anyone from sitting elsewhere)."""
        for table in self.tables.values():
            seat = table.seat_of(user_id) if table.row.guild_id == guild_id else None
            if seat is not None and table.seats[seat].confirmed:
                return table
        return None

    async def join(self, table_id: int, user_id: int, name: str, seat: int | None = None) -> None:
        table = self.get(table_id)
        async with self._guild_locks[table.row.guild_id], table.lock:
            self._in_lobby(table)
            self._check_free(table.row.guild_id, user_id, table.id)
            if await self._confirm(table, user_id):
                self._notify(table, ())
                return
            seat = self._pick_seat(table, seat)
            with paused():
                row, placed = await self.store.sit(table.id, seat, user_id, name)
            table.seats[seat] = placed
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def sit(self, table_id: int, user_id: int, name: str, seat: int) -> None:
        """A click on a seat: join there, or move there from one's own seat."""
        table = self.get(table_id)
        if table.seat_of(user_id) is None:
            await self.join(table_id, user_id, name, seat)
        else:
            await self.move_seat(table_id, user_id, seat)

    def _pick_seat(self, table: LiveTable, seat: int | None) -> int:
        free = table.free_seats()
        if not free:
            raise UserError(N_("The table is full."))
        if seat is None:
            return free[0]
        if seat in table.seats:
            raise UserError(
                f"Seat {seat + 1} is taken.", code="seat_taken", params={"seat": seat + 1}
            )
        if not 0 <= seat < table.seat_count:
            raise UserError(N_("There is no such seat."))
        return seat

    async def move_seat(self, table_id: int, user_id: int, seat: int) -> None:
        """Change seats in the lobby (and so the team, in partnership games)."""
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            current = table.seat_of(user_id)
            if current is None:
                raise UserError(N_("Join the table first."))
            target = self._pick_seat(table, seat)
            with paused():
                row, moved = await self.store.change_seat(table.id, current, target)
            del table.seats[current]
            table.seats[target] = moved
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def add_computer(self, table_id: int, user_id: int, seat: int | None = None) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if table.seat_of(user_id) is None and user_id != table.row.host_id:
                raise UserError(N_("Only players at this table can add computer players."))
            check_computers_allowed(table)
            seat = self._pick_seat(table, seat)
            name = computer_name(table)
            with paused():
                row, placed = await self.store.sit(table.id, seat, None, name)
            table.seats[seat] = placed
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def set_computer_level(self, table_id: int, user_id: int, level: str) -> None:
        """The host sets the level of the table's computer players, in the lobby only."""
        check_level(level)
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError(N_("Only the host can choose the computer players' level."))
            if level == table.row.computer_level:
                return
            with paused():
                row = await self.store.set_computer_level(table.id, level)
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def set_hints(self, table_id: int, user_id: int, hints: bool) -> None:
        """The host turns hints on or off, in the lobby only (a table with hints is unrated)."""
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError(N_("Only the host can turn hints on or off."))
            if hints == table.row.hints:
                return
            with paused():
                row = await self.store.set_hints(table.id, hints)
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def fill_with_computers(self, table_id: int, user_id: int) -> int:
        """The host seats computers in every empty seat of the lobby, at once; how many."""
        table = self.get(table_id)
        check_computers_allowed(table)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError(N_("Only the host can fill the table with computer players."))
            free = table.free_seats()
            if not free:
                raise UserError(N_("Every seat is taken already."))
            names: list[tuple[int, str]] = []
            for seat in free:
                names.append((seat, computer_name(table, {name for _, name in names})))
            with paused():
                row, placed = await self.store.sit_computers(table.id, names)
            for seat_row in placed:
                table.seats[seat_row.seat] = seat_row
            self._lobby_changed(table, row)
        self._notify(table, ())
        return len(placed)

    async def set_length(self, table_id: int, user_id: int, length: str) -> None:
        """The host picks a match length preset; the engine validates the options it sets."""
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError(N_("Only the host can choose the length of the game."))
            try:
                wanted = with_preset(table.row.game, table.row.options, length)
                options = table.game_class.validate_options(wanted)
            except KeyError:
                raise UserError(N_("Choose one of the lengths offered.")) from None
            except OptionError as error:
                raise UserError(
                    f"That length does not fit these options: {error}.",
                    code="bad_length",
                    params={"reason": error},
                ) from None
            if table.game_class.seat_count(options) != table.seat_count:
                raise UserError(N_("That length would change the number of seats."))
            if options == table.row.options:
                return
            with paused():
                row = await self.store.set_options(table.id, options)
            self._lobby_changed(table, row)
        self._notify(table, ())

    async def _confirm(self, table: LiveTable, user_id: int) -> bool:
        """Inside the lock: confirm the user's seat kept by a rematch; False if they have none
        waiting for confirmation."""
        seat = table.seat_of(user_id)
        if seat is None or table.seats[seat].confirmed:
            return False
        with paused():
            row, placed = await self.store.confirm_seat(table.id, seat)
        table.seats[seat] = placed
        self._lobby_changed(table, row)
        return True

    @staticmethod
    def _check_confirmed(table: LiveTable) -> None:
        waiting = [s.name for s in table.humans() if not s.confirmed]
        if waiting:
            who = ", ".join(f"{{s{index}}}" for index in range(len(waiting)))
            raise UserError(
                f"Waiting for {who} to press Join (or remove them to play without).",
                code="rematch_waiting",
                params={"who": who},
                names=waiting,
            )

    async def start(self, table_id: int, user_id: int) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if user_id != table.row.host_id:
                raise UserError(N_("Only the host can start the game."))
            if table.free_seats():
                raise UserError(N_("Fill every seat first (friends or computer players)."))
            if not table.humans():
                raise UserError(N_("At least one person must sit at the table."))
            self._check_confirmed(table)
            game = table.game_class.new(table.row.options, seed=table.row.seed)
            with paused():
                table.row = await self.store.start_game(
                    table.id, game.first_dealer, [deal.to_json() for deal in game.deals]
                )
            table.game = game
            table.moves = 0
            table.holders = [
                SeatHolder(s.seat, 0, s.user_id, s.name) for _, s in sorted(table.seats.items())
            ]
            table.note_situation()
            table.recent.append(Line(f"The game begins: {table.game_class.title}.", ()))
        if table.idle is not None and not table.idle.done():
            table.idle.cancel()
        self._notify(table, ())
        self._schedule(table)

    async def remove(self, table_id: int, actor_id: int, seat: int, is_admin: bool) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._in_lobby(table)
            if actor_id != table.row.host_id and not is_admin:
                raise UserError(N_("Only the host or a server manager can remove a player."))
            if seat not in table.seats:
                raise UserError(N_("That seat is empty."))
            if table.seats[seat].user_id == actor_id:
                raise UserError(N_("To leave your own seat, press Leave."))
            if not await self._unseat(table, seat):
                return
        self._notify(table, ())

    async def _unseat(self, table: LiveTable, seat: int) -> bool:
        """Inside the lock: free a lobby seat, handing the host role on; False if none is left
        to host (the lobby is then closed)."""
        leaving = table.seats[seat].user_id
        new_host = None
        if leaving == table.row.host_id:
            new_host = self._next_host(table, seat)
            if new_host is None:
                await self._close(table, "cancelled", N_("This table was closed: everyone left."))
                return False
        with paused():
            row = await self.store.stand(table.id, seat, new_host)
        del table.seats[seat]
        self._lobby_changed(table, row)
        if new_host is not None:
            table.recent.append(
                Line(N_("{s0} hosts now."), [table.seats[self._seat_of_user(table, new_host)].name])
            )
        return True

    def _next_host(self, table: LiveTable, leaving: int) -> int | None:
        """The next seated person after ``leaving`` (in seat order), or None if there is none."""
        count = table.seat_count
        for step in range(1, count):
            row = table.seats.get((leaving + step) % count)
            if row is not None and not row.computer and row.confirmed:
                return row.user_id
        return None
