"""Tournaments in SQL: settings, entrants, rounds, round tables and results.

The promises are the database's own keys (data/migrations/0014_tournaments.sql and PostgreSQL's
twin): a second opening of a round or a second result of a table is ``ON CONFLICT DO NOTHING``
on a primary key, not a check that a race could slip past. PostgreSQL runs transactions side by
side (SQLite has one writer at a time), so there a write that reads the tournament before it
writes (sign-up, a withdrawal, a round) first locks the tournament's row (the dialect's
``FOR UPDATE``): two sign-ups at once take entrant numbers one after the other, and nobody enters
a tournament whose status changed meanwhile.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence

from bot.i18n import N_
from bot.store.base import Fields
from bot.store.interface import TournamentRefused
from bot.store.rows import TournamentRound, TournamentRow
from bot.store.sql import Db, Dialect, Row, SqlStore, returning
from bot.tournaments.spec import ROUND_MINUTES, Entrant, TournamentSpec
from bot.tournaments.tables import Round, Seat, Table, TableResult
from games.registry import get_game

STATUSES = ("signup", "running", "finished", "cancelled")
# The status changes allowed: from each status, the ones it may become.
MOVES = {
    "signup": ("running", "cancelled"),
    "running": ("finished", "cancelled"),
    "finished": (),
    "cancelled": (),
}


def tournament_row(row: Fields) -> TournamentRow:
    options = json.loads(row["options"])
    if not get_game(row["game"]).teams:  # the validated default; the tournament seats tables
        options.pop("players", None)
    spec = TournamentSpec.create(
        game=row["game"],
        format=row["format"],
        entry=row["entry"],
        rounds=row["rounds"],
        duplicate=bool(row["duplicate"]),
        options=options,
        seed=row["seed"],
    )
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        organiser_id=row["organiser_id"],
        spec=spec,
        starts_at=row["starts_at"],
        status=row["status"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        round_minutes=row["round_minutes"],
    )


def round_table(row: Fields) -> Table:
    return Table(
        number=row["number"],
        sides=tuple(tuple(side) for side in json.loads(row["sides"])),
        seats=tuple(Seat(entrant, member) for entrant, member in json.loads(row["seats"])),
        seed=row["seed"],
    )


# A read of rows: a transaction's (``db.fetch_all``) or one outside any (the store's ``_all``).
Read = Callable[[str, Sequence[object]], Awaitable[Sequence[Row]]]


class TournamentsSql(SqlStore):
    """The tournaments part of both stores."""

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        spec: TournamentSpec,
        starts_at: float | None,
        now: float,
        round_minutes: int = ROUND_MINUTES,
    ) -> TournamentRow:
        async with self.writing() as db:
            row = await returning(
                db,
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, game, format, entry,"
                " rounds, duplicate, options, seed, starts_at, created_at, updated_at,"
                " round_minutes)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    organiser_id,
                    spec.game,
                    spec.format.value,
                    spec.entry.value,
                    spec.rounds,
                    int(spec.duplicate),
                    json.dumps(dict(spec.options), sort_keys=True),
                    spec.seed,
                    starts_at,
                    now,
                    now,
                    round_minutes,
                ),
            )
        return tournament_row(row)

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._all("SELECT * FROM tournaments WHERE id = $1", (tournament_id,))
        return tournament_row(rows[0]) if rows else None

    async def open_tournaments(self) -> list[TournamentRow]:
        """Tournaments in sign-up or running, oldest first (what a restart picks up)."""
        rows = await self._all(
            "SELECT * FROM tournaments WHERE status IN ('signup', 'running') ORDER BY id"
        )
        return [tournament_row(row) for row in rows]

    async def set_tournament_message(
        self, tournament_id: int, message_id: int | None, *, now: float
    ) -> TournamentRow:
        async with self.writing() as db:
            row = await returning(
                db,
                "UPDATE tournaments SET message_id = $1, updated_at = $2 WHERE id = $3 RETURNING *",
                (message_id, now, tournament_id),
            )
        return tournament_row(row)

    async def set_tournament_status(
        self, tournament_id: int, status: str, *, now: float
    ) -> TournamentRow:
        """Start (``running``), finish or cancel; refused from a status that cannot become
        ``status`` (a tournament starts once, and nothing follows its end)."""
        if status not in STATUSES:
            raise ValueError(f"unknown tournament status {status!r}")
        allowed = [old for old, new in MOVES.items() if status in new]
        async with self.writing() as db:
            row = await db.fetch_one(
                "UPDATE tournaments SET status = $1, updated_at = $2 WHERE id = $3"
                f" AND status {self.dialect.one_of('$4', 'text')} RETURNING *",
                (status, now, tournament_id, self.dialect.values(allowed)),
            )
            if row is None:
                raise TournamentRefused(status_refusal(status))
        return tournament_row(row)

    async def enter_tournament(
        self,
        tournament_id: int,
        user_ids: Sequence[int],
        *,
        name: str,
        rating: float,
        now: float,
    ) -> Entrant:
        """Enter one person, or a pair (both of them, once the second has accepted): refused
        once sign-up has closed, or for anyone entered already."""
        async with self.writing() as db:
            tournament = await open_for_signup(db, self.dialect, tournament_id, now)
            if len(user_ids) != tournament.spec.members or len(set(user_ids)) != len(user_ids):
                raise TournamentRefused(
                    N_("This tournament is entered as a pair of two people.")
                    if tournament.spec.members == 2
                    else N_("This tournament is entered alone.")
                )
            entrant = await add_entrant(
                db, self.dialect, tournament_id, user_ids, name, rating, now
            )
        return entrant

    async def withdraw_entrant(self, tournament_id: int, user_id: int) -> Entrant | None:
        """Take ``user_id``'s entry (with their partner's) out during sign-up; the entry taken
        out, or None if they had none. Refused once the tournament has started."""
        async with self.writing() as db:
            status = await db.fetch_value(
                f"SELECT status FROM tournaments WHERE id = $1{self.dialect.for_update}",
                (tournament_id,),
            )
            if status is not None and status != "signup":
                raise TournamentRefused(N_("The tournament has started: entries are final."))
            mine = await db.fetch_value(
                "SELECT entrant FROM tournament_members WHERE tournament_id = $1 AND user_id = $2",
                (tournament_id, user_id),
            )
            if mine is None:
                return None
            gone = [e for e in await _entrants(db.fetch_all, tournament_id) if e.id == mine]
            await db.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND entrant = $2",
                (tournament_id, mine),
            )
        return gone[0]

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        return await _entrants(self._all, tournament_id)

    async def open_round(
        self, tournament_id: int, paired: Round, *, deadline: float | None, now: float
    ) -> TournamentRound | None:
        """Store a round and its tables, all or nothing; ``None`` if that round is open
        already. Refused unless the tournament is running and the round is the next one."""
        async with self.writing() as db:
            status = await db.fetch_value(
                f"SELECT status FROM tournaments WHERE id = $1{self.dialect.for_update}",
                (tournament_id,),
            )
            if status != "running":
                raise TournamentRefused(N_("The tournament is not running."))
            last = int(
                await db.fetch_value(
                    "SELECT COALESCE(MAX(round), 0) FROM tournament_rounds"
                    " WHERE tournament_id = $1",
                    (tournament_id,),
                )
            )
            if paired.number <= last:
                return None
            if paired.number != last + 1:
                raise TournamentRefused(f"Round {last + 1} comes first.")
            opened = await db.fetch_value(
                "INSERT INTO tournament_rounds (tournament_id, round, byes, deadline, opened_at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING round",
                (tournament_id, paired.number, json.dumps(list(paired.byes)), deadline, now),
            )
            if opened is None:
                return None
            await db.execute_many(
                "INSERT INTO tournament_tables (tournament_id, round, number, sides, seats,"
                " seed) VALUES ($1, $2, $3, $4, $5, $6)",
                [
                    (
                        tournament_id,
                        paired.number,
                        table.number,
                        json.dumps([list(side) for side in table.sides]),
                        json.dumps([[seat.entrant, seat.member] for seat in table.seats]),
                        table.seed,
                    )
                    for table in paired.tables
                ],
            )
        return TournamentRound(paired, deadline, now, None, (None,) * len(paired.tables))

    async def tournament_rounds(self, tournament_id: int) -> list[TournamentRound]:
        rounds = await self._all(
            "SELECT * FROM tournament_rounds WHERE tournament_id = $1 ORDER BY round",
            (tournament_id,),
        )
        tables: dict[int, list[Row]] = defaultdict(list)
        for row in await self._all(
            "SELECT * FROM tournament_tables WHERE tournament_id = $1 ORDER BY round, number",
            (tournament_id,),
        ):
            tables[row["round"]].append(row)
        return [
            TournamentRound(
                paired=Round(
                    number=row["round"],
                    tables=tuple(round_table(t) for t in tables[row["round"]]),
                    byes=tuple(json.loads(row["byes"])),
                ),
                deadline=row["deadline"],
                opened_at=row["opened_at"],
                closed_at=row["closed_at"],
                table_ids=tuple(t["table_id"] for t in tables[row["round"]]),
            )
            for row in rounds
        ]

    async def close_round(self, tournament_id: int, round: int, *, now: float) -> bool:
        """Mark a round closed; False if it was closed already (or never opened)."""
        async with self.writing() as db:
            closed = await db.fetch_value(
                "UPDATE tournament_rounds SET closed_at = $1 WHERE tournament_id = $2"
                " AND round = $3 AND closed_at IS NULL RETURNING round",
                (now, tournament_id, round),
            )
        return closed is not None

    async def link_round_table(
        self, tournament_id: int, round: int, number: int, table_id: int
    ) -> bool:
        """Note the game table that plays a round table; False if it has one already."""
        async with self.writing() as db:
            linked = await db.fetch_value(
                "UPDATE tournament_tables SET table_id = $1 WHERE tournament_id = $2"
                " AND round = $3 AND number = $4 AND table_id IS NULL RETURNING number",
                (table_id, tournament_id, round, number),
            )
        return linked is not None

    async def round_table_of(self, table_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, table number) of a game table a tournament opened."""
        rows = await self._all(
            "SELECT tournament_id, round, number FROM tournament_tables WHERE table_id = $1",
            (table_id,),
        )
        return (int(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else None

    async def round_tables_of(self, table_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
        """(tournament, round) of each of these game tables a tournament opened (the others
        are not listed)."""
        if not table_ids:
            return {}
        rows = await self._all(
            "SELECT table_id, tournament_id, round FROM tournament_tables"
            f" WHERE table_id {self.dialect.one_of('$1', 'bigint')}",
            (self.dialect.values(table_ids),),
        )
        return {int(row[0]): (int(row[1]), int(row[2])) for row in rows}

    async def record_tournament_result(
        self, tournament_id: int, result: TableResult, *, now: float
    ) -> bool:
        """Keep a round table's result; False if it was kept before (a result counts once)."""
        async with self.writing() as db:
            if not await db.fetch_value(
                "SELECT 1 FROM tournament_tables WHERE tournament_id = $1 AND round = $2"
                " AND number = $3",
                (tournament_id, result.round, result.table),
            ):
                raise TournamentRefused(N_("There is no such table in this tournament."))
            kept = await db.fetch_value(
                "INSERT INTO tournament_results (tournament_id, round, number, places, deals,"
                " stand_ins, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7)"
                " ON CONFLICT DO NOTHING RETURNING number",
                (
                    tournament_id,
                    result.round,
                    result.table,
                    json.dumps(list(result.places)),
                    json.dumps([list(deal) for deal in result.deals]),
                    json.dumps(list(result.stand_ins)),
                    now,
                ),
            )
        return kept is not None

    async def tournament_results(self, tournament_id: int) -> list[TableResult]:
        rows = await self._all(
            "SELECT * FROM tournament_results WHERE tournament_id = $1 ORDER BY round, number",
            (tournament_id,),
        )
        return [
            TableResult(
                round=row["round"],
                table=row["number"],
                places=tuple(json.loads(row["places"])),
                deals=tuple(tuple(deal) for deal in json.loads(row["deals"])),
                stand_ins=tuple(json.loads(row["stand_ins"])),
            )
            for row in rows
        ]


async def open_for_signup(
    db: Db, dialect: Dialect, tournament_id: int, now: float
) -> TournamentRow:
    """The tournament, if it still takes entries at ``now``; else a refusal. Its row stays
    locked until the transaction ends (PostgreSQL): sign-ups to one tournament run one after
    the other."""
    found = await db.fetch_one(
        f"SELECT * FROM tournaments WHERE id = $1{dialect.for_update}", (tournament_id,)
    )
    if found is None:
        raise TournamentRefused(N_("There is no such tournament."))
    tournament = tournament_row(found)
    if tournament.status != "signup" or (
        tournament.starts_at is not None and now >= tournament.starts_at
    ):
        raise TournamentRefused(N_("Sign-up for this tournament has closed."))
    return tournament


async def refuse_entered(
    db: Db, dialect: Dialect, tournament_id: int, users: Sequence[int]
) -> None:
    """Refuse if any of ``users`` is entered already."""
    if await db.fetch_value(
        "SELECT 1 FROM tournament_members WHERE tournament_id = $1"
        f" AND user_id {dialect.one_of('$2', 'bigint')}",
        (tournament_id, dialect.values(users)),
    ):
        raise TournamentRefused(N_("Already entered in this tournament."))


async def add_entrant(
    db: Db,
    dialect: Dialect,
    tournament_id: int,
    users: Sequence[int],
    name: str,
    rating: float,
    now: float,
) -> Entrant:
    """Write a new entrant (the next number) with its members, once none is entered; their
    invitations to partner anybody go. The caller holds the tournament's row
    (:func:`open_for_signup`)."""
    await refuse_entered(db, dialect, tournament_id, users)
    number = await db.fetch_value(
        "SELECT COALESCE(MAX(entrant), 0) + 1 FROM tournament_entrants WHERE tournament_id = $1",
        (tournament_id,),
    )
    entrant = Entrant(int(number), tuple(users), rating, name)
    await db.execute(
        "INSERT INTO tournament_entrants (tournament_id, entrant, name, rating, created_at)"
        " VALUES ($1, $2, $3, $4, $5)",
        (tournament_id, entrant.id, name, rating, now),
    )
    await db.execute_many(
        "INSERT INTO tournament_members (tournament_id, entrant, member, user_id)"
        " VALUES ($1, $2, $3, $4)",
        [(tournament_id, entrant.id, index, user) for index, user in enumerate(users)],
    )
    listed = dialect.one_of("$2", "bigint")
    await db.execute(
        f"DELETE FROM tournament_invites WHERE tournament_id = $1 AND (inviter {listed}"
        f" OR invitee {listed})",
        (tournament_id, dialect.values(users)),
    )
    return entrant


async def _entrants(read: Read, tournament_id: int) -> list[Entrant]:
    members: dict[int, list[int]] = defaultdict(list)
    for row in await read(
        "SELECT entrant, user_id FROM tournament_members WHERE tournament_id = $1"
        " ORDER BY entrant, member",
        (tournament_id,),
    ):
        members[row[0]].append(int(row[1]))
    return [
        Entrant(row["entrant"], tuple(members[row["entrant"]]), row["rating"], row["name"])
        for row in await read(
            "SELECT * FROM tournament_entrants WHERE tournament_id = $1 ORDER BY entrant",
            (tournament_id,),
        )
    ]


def status_refusal(status: str) -> str:
    return {
        "running": N_("The tournament has started already, or has ended."),
        "finished": N_("Only a running tournament can finish."),
        "cancelled": N_("The tournament has ended already."),
        "signup": N_("A tournament cannot go back to sign-up."),
    }[status]
