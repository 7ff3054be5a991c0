"""Running a tournament: sign-up, rounds that open tables, results, standings, the end.

Everything is read back from the database, so a restart (or a kill) only calls :meth:`resume`:
the store's keys make a round open once and a result count once, and :meth:`_advance` is safe
to run any number of times. It opens what is missing of the current round (its game tables),
records the results of tables that finished meanwhile, and once every table of the round has
its result closes the round (the standings posted once) and opens the next, or ends the
tournament. A round's deadline marks everyone still playing absent: computers finish the games.

Time comes from the session manager's clock; pairing runs in a thread (it can take a second).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Protocol, TypeVar

from bot.clock import Clock
from bot.i18n import N_
from bot.pictures.table import Picture
from bot.sessions import LiveTable, SessionManager, TablePaused, UserError
from bot.sessions.errors import paused
from bot.sessions.state import retry_delay
from bot.sessions.tournament_results import game_result
from bot.sessions.tournament_texts import (
    TournamentState,
    not_started_text,
    opening_text,
    over_text,
    plain,
    round_over_text,
    standings_picture,
    summary_text,
)
from bot.store import TournamentRefused, TournamentRound, TournamentRow
from bot.tournaments import knockout
from bot.tournaments.spec import (
    MAX_ROUND_MINUTES,
    MIN_ROUND_MINUTES,
    ROUND_MINUTES,
    Entrant,
    Format,
    Layout,
    TournamentError,
    TournamentSpec,
)
from bot.tournaments.swiss import pair_round
from bot.tournaments.tables import Round, Table, TableResult

log = logging.getLogger(__name__)
_T = TypeVar("_T")

PAIR_JOIN = " & "  # a pair's entrant name: its two members' names joined


class TournamentPresenter(Protocol):
    """What the Discord layer does for a tournament (each may fail: the runner logs it)."""

    async def post_tables(self, tournament: TournamentRow, tables: Sequence[LiveTable]) -> None:
        """Post the boards of a round's newly opened tables (each in its thread, if set)."""
        ...

    async def announce(
        self, tournament: TournamentRow, text: str, picture: Picture | None = None
    ) -> None:
        """Post a line (a round opening, standings, the end) in the tournament's channel, with
        a picture (the standings drawn) if given."""
        ...


def seat_names(entrant: Entrant) -> list[str]:
    """Each member's name from the entrant's (a pair's is its two names joined)."""
    names = entrant.name.split(PAIR_JOIN) if len(entrant.members) > 1 else [entrant.name]
    if len(names) != len(entrant.members):
        return [f"{entrant.label} ({index + 1})" for index in range(len(entrant.members))]
    return names


def refusal(error: TournamentError) -> UserError:
    """The core's refusal as the user's one line (its code and values carried over)."""
    return UserError(str(error), code=error.code, params=error.params)


def next_pairing(
    spec: TournamentSpec,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[TableResult],
) -> Round | None:
    """The next round, or None when the tournament is over (pure: run in a thread)."""
    if spec.format is Format.SWISS:
        assert spec.rounds is not None
        return pair_round(spec, entrants, rounds, results) if len(rounds) < spec.rounds else None
    matches = knockout_matches(spec, entrants, rounds, results)
    return None if matches is None else knockout.knockout_round(spec, len(rounds) + 1, matches)


def knockout_matches(
    spec: TournamentSpec,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[TableResult],
) -> list[knockout.Match] | None:
    """The bracket's matches after ``rounds`` (all with results), or None after the final."""
    matches = knockout.first_round(entrants, spec.seed)
    seeds = knockout.seed_numbers(entrants, spec.seed)
    by_table = {(r.round, r.table): r for r in results}
    for paired in rounds:
        played = [index for index, (_, b) in enumerate(matches) if b is not None]
        winners = {
            index: knockout.winner_of(by_table[(paired.number, table.number)], table, seeds)
            for index, table in zip(played, paired.tables, strict=True)
        }
        if len(matches) == 1:
            return None
        matches = knockout.next_round(matches, winners)
    return matches


def champion(
    spec: TournamentSpec,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[TableResult],
) -> int | None:
    """A finished knockout's winner (the final's)."""
    if spec.format is not Format.KNOCKOUT or not rounds or len(rounds[-1].tables) != 1:
        return None
    final = rounds[-1].tables[0]
    result = next(r for r in results if (r.round, r.table) == (rounds[-1].number, 1))
    return knockout.winner_of(result, final, knockout.seed_numbers(entrants, spec.seed))


async def until_done(
    what: str, work: Callable[[], Awaitable[None]], clock: Clock, stopped: Callable[[], bool]
) -> None:
    """Do ``work`` until it is done: a database that cannot be written for now (or any other
    failure) is tried again, later and later, as turn timers are; never a stall until the next
    restart. ``stopped``: the runner is shutting down."""
    failures = 0
    while not stopped():
        try:
            await work()
            return
        except asyncio.CancelledError:
            raise
        except Exception as error:
            failures += 1
            if failures == 1 and not isinstance(error, TablePaused):
                log.exception("%s failed; trying again", what)
            else:
                log.warning("%s failed (%s); trying again", what, type(error).__name__)
        await clock.sleep_until(clock.now() + retry_delay(failures))


class TournamentRunner:
    """Tournaments over the session manager: what happens at sign-up, at the start, when a
    round's table finishes, at a round's deadline and after a restart."""

    def __init__(self, sessions: SessionManager) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self.presenter: TournamentPresenter | None = None
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._work: set[asyncio.Task[None]] = set()
        self._closing = False
        sessions.closed_listeners.append(self._table_closed)

    # --- organising ------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        game: str,
        format: str,
        entry: str,
        rounds: int | None,
        options: dict[str, Any],
        starts_at: float | None,
        round_minutes: int = ROUND_MINUTES,
    ) -> TournamentRow:
        if not MIN_ROUND_MINUTES <= round_minutes <= MAX_ROUND_MINUTES:
            raise UserError(
                f"A round lasts {MIN_ROUND_MINUTES} to {MAX_ROUND_MINUTES} minutes.",
                code="round_minutes",
                params={"low": MIN_ROUND_MINUTES, "high": MAX_ROUND_MINUTES},
            )
        try:
            spec = TournamentSpec.create(
                game=game,
                format=format,
                entry=entry,
                rounds=rounds,
                options=options,
                seed=random.SystemRandom().randrange(2**62),
            )
        except TournamentError as error:
            raise refusal(error) from None
        if starts_at is not None and starts_at <= self.sessions.clock.now():
            raise UserError(N_("The start must be in the future."))
        with paused():
            row = await self.store.create_tournament(
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser_id,
                spec=spec,
                starts_at=starts_at,
                now=self.sessions.clock.now(),
                round_minutes=round_minutes,
            )
        self._arm(row)
        return row

    async def get(self, tournament_id: int, guild_id: int) -> TournamentRow:
        with paused():
            row = await self.store.get_tournament(tournament_id)
        if row is None or row.guild_id != guild_id:
            raise UserError(N_("There is no tournament with that number here."))
        return row

    async def open_in(self, guild_id: int) -> list[TournamentRow]:
        """The server's tournaments in sign-up or running, oldest first."""
        with paused():
            rows = await self.store.open_tournaments()
        return [row for row in rows if row.guild_id == guild_id]

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message (edited as people enter)."""
        with paused():
            await self.store.set_tournament_message(
                tournament_id, message_id, now=self.sessions.clock.now()
            )

    async def sign_up(self, tournament_id: int, user_id: int, name: str) -> Entrant:
        rating = await self._rating(tournament_id, [user_id])
        return await self._refusable(
            self.store.enter_tournament(
                tournament_id, [user_id], name=name, rating=rating, now=self.sessions.clock.now()
            )
        )

    async def _rating(self, tournament_id: int, users: Sequence[int]) -> float:
        """An entrant's seeding rating: its members' latest rating in the game on this server
        (the mean for a pair; 0 for one never rated)."""
        with paused():
            row = await self.store.get_tournament(tournament_id)
            if row is None:
                return 0.0
            latest = [
                await self.store.rating_trend(row.guild_id, row.spec.game, user, limit=1)
                for user in users
            ]
        return sum(trend[-1][1] if trend else 0.0 for trend in latest) / len(users)

    async def invite(self, tournament_id: int, user_id: int, partner_id: int) -> None:
        await self._refusable(
            self.store.invite_partner(
                tournament_id, user_id, partner_id, now=self.sessions.clock.now()
            )
        )

    async def accept(
        self, tournament_id: int, inviter: tuple[int, str], invitee: tuple[int, str]
    ) -> Entrant:
        rating = await self._rating(tournament_id, [inviter[0], invitee[0]])
        return await self._refusable(
            self.store.accept_invite(
                tournament_id,
                inviter[0],
                invitee[0],
                name=PAIR_JOIN.join((inviter[1], invitee[1])),
                rating=rating,
                now=self.sessions.clock.now(),
            )
        )

    async def decline(self, tournament_id: int, inviter: int, invitee: int) -> bool:
        """Drop an invitation to partner; False if it was not open."""
        with paused():
            return await self.store.decline_invite(tournament_id, inviter, invitee)

    async def drop(self, tournament_id: int, user_id: int) -> Entrant:
        entrant = await self._refusable(self.store.withdraw_entrant(tournament_id, user_id))
        if entrant is None:
            raise UserError(N_("You are not entered in this tournament."))
        return entrant

    async def cancel(self, tournament_id: int) -> TournamentRow:
        async with self._locks[tournament_id]:
            row = await self._refusable(
                self.store.set_tournament_status(
                    tournament_id, "cancelled", now=self.sessions.clock.now()
                )
            )
        self._disarm(tournament_id)
        return row

    async def start(self, tournament_id: int) -> TournamentRow:
        """Close sign-up and open the first round (refused with too few entrants)."""
        async with self._locks[tournament_id]:
            with paused():
                row = await self.store.get_tournament(tournament_id)
                entrants = await self.store.entrants(tournament_id)
            if row is None or row.status != "signup":
                raise UserError(N_("Only a tournament in sign-up can start."))
            try:
                row.spec.check_entrants(entrants)
            except TournamentError as error:
                raise refusal(error) from None
            row = await self._refusable(
                self.store.set_tournament_status(
                    tournament_id, "running", now=self.sessions.clock.now()
                )
            )
        self._disarm(tournament_id)
        await self._advance(tournament_id)
        return row

    async def _refusable(self, work: Coroutine[Any, Any, _T]) -> _T:
        """The store's refusal (late, twice, ...) as the user's one line."""
        try:
            with paused():
                return await work
        except TournamentRefused as error:
            raise UserError(str(error)) from None

    # --- the state, for /tournament show ---------------------------------------------------

    async def summary(self, row: TournamentRow, lang: str | None = None) -> str:
        """The tournament in a few lines: entrants in sign-up, else rounds and standings (in
        ``lang``; by default the server's)."""
        state = await self._state(row)
        lang = lang or await self.sessions.server_language(row.guild_id)
        rounds = [r.paired for r in state.rounds]
        winner = champion(row.spec, list(state.entrants), rounds, list(state.results))
        return summary_text(row, state, lang, winner)

    async def _state(self, row: TournamentRow) -> TournamentState:
        with paused():
            entrants = tuple(plain(e) for e in await self.store.entrants(row.id))
            stored = tuple(await self.store.tournament_rounds(row.id))
            results = tuple(await self.store.tournament_results(row.id))
        return TournamentState(entrants, stored, results)

    # --- running ---------------------------------------------------------------------------

    async def resume(self) -> None:
        """After start-up: continue every open tournament from the database."""
        for row in await self.store.open_tournaments():
            if row.status == "running":  # its round's deadline is armed by _advance
                self._spawn(self._advance(row.id))
            else:
                self._arm(row)

    async def shutdown(self) -> None:
        self._closing = True
        tasks = [*self._timers.values(), *self._work]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        if self._closing:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    def _table_closed(self, table: LiveTable) -> None:
        if table.tournament and not self._closing:
            self._spawn(self._after_table(table.id))

    async def _after_table(self, table_id: int) -> None:
        async def advance() -> None:
            place = await self.store.round_table_of(table_id)
            if place is not None:
                await self._advance(place[0])

        await self._retried(f"table {table_id}: its tournament's next step", advance)

    async def _retried(self, what: str, work: Callable[[], Awaitable[None]]) -> None:
        await until_done(what, work, self.sessions.clock, lambda: self._closing)

    async def _advance(self, tournament_id: int) -> None:
        """Bring a running tournament up to date (see the module's docstring); idempotent."""
        async with self._locks[tournament_id]:
            row = await self.store.get_tournament(tournament_id)
            if row is None or row.status != "running":
                return
            entrants = await self.store.entrants(tournament_id)
            stored = await self.store.tournament_rounds(tournament_id)
            if stored:
                current = stored[-1]
                if not await self._round_done(row, current):
                    self._arm(row, current.deadline)
                    return
                if await self.store.close_round(
                    tournament_id, current.paired.number, now=self.sessions.clock.now()
                ):
                    await self._round_over(row, current.paired.number)
            results = await self.store.tournament_results(tournament_id)
            rounds = [r.paired for r in stored]
            paired = await asyncio.to_thread(next_pairing, row.spec, entrants, rounds, results)
            now = self.sessions.clock.now()
            if paired is None:
                row = await self.store.set_tournament_status(tournament_id, "finished", now=now)
                self._disarm(tournament_id)
                lang = await self.sessions.server_language(row.guild_id)
                await self._tell(row, over_text(row, await self.summary(row, lang), lang))
                return
            deadline = now + 60 * row.round_minutes
            await self.store.open_round(tournament_id, paired, deadline=deadline, now=now)
            opened = (await self.store.tournament_rounds(tournament_id))[-1]
            await self._round_done(row, opened)  # its tables open (and are posted) first
            lang = await self.sessions.server_language(row.guild_id)
            await self._tell(row, opening_text(row, opened, entrants, lang))
            self._arm(row, opened.deadline)

    async def _round_done(self, row: TournamentRow, current: TournamentRound) -> bool:
        """Open the round's missing tables, record the finished ones' results; True when every
        table has its result."""
        done = {
            r.table
            for r in await self.store.tournament_results(row.id)
            if r.round == current.paired.number
        }
        fresh: list[LiveTable] = []
        for table, table_id in zip(current.paired.tables, current.table_ids, strict=True):
            if table.number in done:
                continue
            live = self.sessions.find(table_id)
            if table_id is None:
                live = await self._open_table(row, current.paired.number, table)
            if live is not None:
                await self.sessions.start_seated(live)
                if live.row.message_id is None:
                    fresh.append(live)
                continue
            assert table_id is not None
            if await self._record(row, current.paired.number, table, table_id):
                done.add(table.number)
        if fresh and self.presenter is not None:
            try:
                await self.presenter.post_tables(row, fresh)
            except Exception:
                log.exception("tournament %s: its tables could not all be posted", row.id)
        return len(done) == len(current.paired.tables)

    async def _open_table(self, row: TournamentRow, number: int, table: Table) -> LiveTable:
        entrants = {e.id: e for e in await self.store.entrants(row.id)}
        seats = [
            (entrants[s.entrant].members[s.member], seat_names(entrants[s.entrant])[s.member])
            for s in table.seats
        ]
        options = dict(row.spec.options)
        if row.spec.layout is Layout.FREE:
            options["players"] = len(seats)
        live = await self.sessions.open_seated(
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game=row.spec.game,
            options=options,
            seed=table.seed,
            seats=seats,
        )
        await self.store.link_round_table(row.id, number, table.number, live.id)
        return live

    async def _record(self, row: TournamentRow, number: int, table: Table, table_id: int) -> bool:
        """Keep the result of a round table whose game has ended; False if it has not."""
        result = await game_result(self.store, row.spec, number, table, table_id)
        if result is None:
            return False
        await self.store.record_tournament_result(row.id, result, now=self.sessions.clock.now())
        return True

    async def _round_over(self, row: TournamentRow, number: int) -> None:
        """The standings after a round, as text and as a picture (drawn in a thread; a picture
        that fails leaves the text)."""
        lang = await self.sessions.server_language(row.guild_id)
        text = round_over_text(row, number, await self.summary(row, lang), lang)
        try:
            state = await self._state(row)
            picture = await asyncio.to_thread(standings_picture, row, state, number, lang)
        except Exception as error:
            log.error("tournament %s: standings not drawn (%s)", row.id, type(error).__name__)
            picture = None
        await self._tell(row, text, picture)

    async def _tell(self, row: TournamentRow, text: str, picture: Picture | None = None) -> None:
        if self.presenter is None:
            return
        try:
            await self.presenter.announce(row, text, picture)
        except Exception:
            log.exception("tournament %s: a message could not be posted", row.id)

    # --- timers: the start of sign-up's end, a round's deadline ----------------------------

    def _arm(self, row: TournamentRow, deadline: float | None = None) -> None:
        """Wait for the tournament's start (in sign-up) or its round's deadline (running)."""
        self._disarm(row.id)
        when = row.starts_at if row.status == "signup" else deadline
        if when is None or self._closing:
            return
        task = asyncio.get_running_loop().create_task(self._wait(row, when))
        self._timers[row.id] = task

    def _disarm(self, tournament_id: int) -> None:
        task = self._timers.pop(tournament_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _wait(self, row: TournamentRow, when: float) -> None:
        await self.sessions.clock.sleep_until(when)
        if row.status == "signup":
            await self._retried(f"tournament {row.id}: its start", lambda: self._start_on_time(row))
        else:
            await self._retried(f"tournament {row.id}: its deadline", lambda: self._overdue(row.id))

    async def _start_on_time(self, row: TournamentRow) -> None:
        try:
            await self.start(row.id)
        except TablePaused:
            raise  # the database, not the tournament: tried again
        except UserError as error:
            await self.cancel(row.id)
            lang = await self.sessions.server_language(row.guild_id)
            await self._tell(row, not_started_text(row, error, lang))

    async def _overdue(self, tournament_id: int) -> None:
        """The round's deadline: computers finish every game still being played."""
        stored = await self.store.tournament_rounds(tournament_id)
        if not stored:
            return
        for table_id in stored[-1].table_ids:
            live = self.sessions.find(table_id)
            if live is not None and live.row.status == "playing":
                await self.sessions.stand_in(live.id)


__all__ = ["TournamentPresenter", "TournamentRow", "TournamentRunner", "seat_names"]
