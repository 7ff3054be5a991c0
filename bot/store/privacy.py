"""Forgetting a person in SQL: what :mod:`bot.privacy` promises, in one transaction.

Another bot process (PostgreSQL) may end a game (or a tournament) of the person's while the
forget is under way, and PostgreSQL lets it commit between the forget's statements, each of which
reads what is open afresh: the game's seats would be anonymised while its result, recorded a
moment earlier, kept the person. So there the forget first holds the person's open tables and
tournaments as they are (``FOR SHARE``: an ending waits the forget's few milliseconds, then is
recorded as any game that ends after it); what is open stays open, and what is closed is closed,
throughout. SQLite needs none of it: a transaction there holds the database's one write lock
from its start, so what the forget changes is read once before, without the lock.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.records import unrated_seats_reason
from bot.store.recent import RecentSettings
from bot.store.rows import Forgotten
from bot.store.sql import Db, SqlStore

FORMER_PLAYER = "Former player"
FORGOTTEN_HOST = 0

# Open tables are few (index game_tables_open); the closed ones are all the others.
_NOT_OPEN = "table_id NOT IN (SELECT id FROM game_tables WHERE status IN ('lobby', 'playing'))"
# Ended tournaments: all but the few open ones (index tournaments_open).
_CLOSED = "tournament_id NOT IN (SELECT id FROM tournaments WHERE status IN ('signup', 'running'))"

# Rows about the person alone, deleted: their settings, ratings, rating history and months.
FORGET_ROWS: tuple[tuple[str, str], ...] = (
    ("member_settings", "user_id"),
    ("ratings", "user_id"),
    ("rating_history", "user_id"),
    ("rating_months", "user_id"),
)

# The person's open tables and tournaments, held open until the forget commits (the tables
# first: an ending game's transaction changes its table first, a tournament's its own row); the
# dialect's row lock follows each.
_HOLD_OPEN = (
    "SELECT id FROM game_tables WHERE status IN ('lobby', 'playing') AND (host_id = $1"
    " OR id IN (SELECT table_id FROM seats WHERE user_id = $1)"
    " OR id IN (SELECT table_id FROM seat_holders WHERE user_id = $1)) ORDER BY id",
    "SELECT id FROM tournaments WHERE status IN ('signup', 'running') AND (organiser_id = $1"
    " OR id IN (SELECT tournament_id FROM tournament_members WHERE user_id = $1))"
    " ORDER BY id",
)
# The person's games' records (read before their result rows go).
_RECORDS = (
    "SELECT table_id, record, unrated_reason FROM results WHERE record IS NOT NULL"
    " AND table_id IN (SELECT table_id FROM result_players WHERE user_id = $1)"
)
# What the forget changes, read once without the lock where one writer holds the whole database
# (WAL readers wait for no one), so that the transaction finds it in memory: spread over a big
# database, it is mostly disk reads.
_WARM = (
    _RECORDS,
    "SELECT SUM(length(move)) FROM moves WHERE user_id = $1",
    "SELECT SUM(length(name)) FROM seats WHERE user_id = $1",
    "SELECT SUM(length(name)) FROM seat_holders WHERE user_id = $1",
    "SELECT SUM(delta) FROM rating_history WHERE user_id = $1",
    "SELECT SUM(games) FROM rating_months WHERE user_id = $1",
    "SELECT SUM(games) FROM ratings WHERE user_id = $1",
)


class PrivacySql(SqlStore, RecentSettings):
    """Forgetting a person: the one transaction of :func:`bot.privacy.forget_user`."""

    async def forget_user(self, user_id: int) -> Forgotten:
        """Remove or anonymise everything recorded of ``user_id`` outside open tables."""
        lock = self.dialect.for_share
        if self.dialect.one_writer:
            for sql in _WARM:
                await self._all(sql, (user_id,))
        async with self.writing() as db:
            if lock:
                for hold in _HOLD_OPEN:
                    await db.execute(hold + lock, (user_id,))
            recorded = [(r[0], r[1], r[2]) for r in await db.fetch_all(_RECORDS, (user_id,))]
            results = await db.execute("DELETE FROM result_players WHERE user_id = $1", (user_id,))
            seats = await db.execute(
                "UPDATE seats SET user_id = NULL, name = $1, away = 0"
                f" WHERE user_id = $2 AND {_NOT_OPEN}",
                (FORMER_PLAYER, user_id),
            )
            await db.execute(  # who held which seat when: part of the seats, counted with them
                "UPDATE seat_holders SET user_id = NULL, name = $1"
                f" WHERE user_id = $2 AND {_NOT_OPEN}",
                (FORMER_PLAYER, user_id),
            )
            moves = await db.execute(
                f"UPDATE moves SET user_id = NULL WHERE user_id = $1 AND {_NOT_OPEN}", (user_id,)
            )
            hosted = await db.execute(
                "UPDATE game_tables SET host_id = $1"
                " WHERE host_id = $2 AND status NOT IN ('lobby', 'playing')",
                (FORGOTTEN_HOST, user_id),
            )
            await db.execute("DELETE FROM sit_in_requests WHERE user_id = $1", (user_id,))
            await db.execute("DELETE FROM user_languages WHERE user_id = $1", (user_id,))
            await db.execute("DELETE FROM hand_reports WHERE reporter_id = $1", (user_id,))
            await db.execute(
                f"DELETE FROM turn_pings WHERE user_id = $1 AND {_NOT_OPEN}", (user_id,)
            )
            ratings = 0
            for table, column in FORGET_ROWS:
                ratings += await db.execute(f"DELETE FROM {table} WHERE {column} = $1", (user_id,))
            changes = forgotten_records(user_id, recorded)
            await db.execute_many(
                "UPDATE results SET record = $1, unrated_reason = $2 WHERE table_id = $3", changes
            )
            ratings += len(changes)
            await _forget_in_tournaments(db, user_id)
        self.forget_recent(user_id)
        return Forgotten(results, seats, moves, hosted, ratings)


async def _forget_in_tournaments(db: Db, user_id: int) -> None:
    """In ended tournaments (open ones keep their entrants, as open tables keep their seats):
    the person's entries become "Former player" without a user id, and a tournament they
    organised names nobody; their invitations to partner go everywhere."""
    await db.execute(
        "UPDATE tournament_entrants SET name = $1 WHERE (tournament_id, entrant) IN"
        " (SELECT tournament_id, entrant FROM tournament_members WHERE user_id = $2)"
        f" AND {_CLOSED}",
        (FORMER_PLAYER, user_id),
    )
    await db.execute(f"DELETE FROM tournament_members WHERE user_id = $1 AND {_CLOSED}", (user_id,))
    for column in ("inviter", "invitee"):  # invitations go everywhere, like requests to sit in
        await db.execute(f"DELETE FROM tournament_invites WHERE {column} = $1", (user_id,))
    await db.execute(
        "UPDATE tournaments SET organiser_id = $1 WHERE organiser_id = $2"
        " AND status NOT IN ('signup', 'running')",
        (FORGOTTEN_HOST, user_id),
    )


def forgotten_records(
    user_id: int, rows: Sequence[tuple[Any, ...]]
) -> list[tuple[str, str | None, int]]:
    """Game records (``results.record``; ``rows`` as (table id, record, reason) of the games
    the person had a result in) keep every seat: the person's, found by user id, becomes
    "Former player" without a user id (and without a level, which tells it from a computer's).
    A reason that names stand-in seats is written again from the record's seats, so it names
    them as the record now does. The changed rows as (record, reason, table id)."""
    changes = []
    for table_id, text, reason in rows:
        record = json.loads(text)
        seats = [s for s in record.get("seats", []) if s.get("user_id") == user_id]
        if not seats:
            continue
        # An unrated seat whose person holds another seat too left that one (bot/records.py).
        holders = [s.get("user_id") for s in record["seats"] if s.get("user_id") is not None]
        doubled = [
            s for s in record["seats"] if s.get("stand_in") and holders.count(s.get("user_id")) > 1
        ]
        for seat in seats:
            seat.update(user_id=None, name=FORMER_PLAYER)
        unrated = [s for s in record["seats"] if s.get("stand_in")]
        if record.get("rated") and unrated:
            reason = record["reason"] = unrated_seats_reason(
                [str(s.get("name")) for s in unrated if s not in doubled],
                [str(s.get("name")) for s in doubled],
            )
        changes.append((json.dumps(record), reason, int(table_id)))
    return changes
