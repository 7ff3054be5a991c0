"""Forgetting a person in SQL: what :mod:`bot.privacy` promises, in one transaction."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import aiosqlite

from bot.records import unrated_seats_reason
from bot.store.base import SqliteBase
from bot.store.recent import RecentSettings
from bot.store.rows import Forgotten
from bot.store.tournaments import forget_in_tournaments

FORMER_PLAYER = "Former player"
FORGOTTEN_HOST = 0

# Open tables are few (index game_tables_open); the closed ones are all the others.
_NOT_OPEN = "table_id NOT IN (SELECT id FROM game_tables WHERE status IN ('lobby', 'playing'))"

# Rows about the person alone, deleted: their settings, ratings, rating history and months.
FORGET_ROWS: tuple[tuple[str, str], ...] = (
    ("member_settings", "user_id"),
    ("ratings", "user_id"),
    ("rating_history", "user_id"),
    ("rating_months", "user_id"),
)


# The person's games' records (read before their result rows go).
_RECORDS = (
    "SELECT table_id, record, unrated_reason FROM results WHERE record IS NOT NULL"
    " AND table_id IN (SELECT table_id FROM result_players WHERE user_id = ?)"
)
# What the forget changes, read once without the lock (WAL readers wait for no one), so that
# the transaction finds it in memory: spread over a big database, it is mostly disk reads.
_WARM = (
    _RECORDS,
    "SELECT SUM(length(move)) FROM moves WHERE user_id = ?",
    "SELECT SUM(length(name)) FROM seats WHERE user_id = ?",
    "SELECT SUM(length(name)) FROM seat_holders WHERE user_id = ?",
    "SELECT SUM(delta) FROM rating_history WHERE user_id = ?",
    "SELECT SUM(games) FROM rating_months WHERE user_id = ?",
    "SELECT SUM(games) FROM ratings WHERE user_id = ?",
)


class SqlitePrivacy(SqliteBase, RecentSettings):
    """Forgetting a person: the one transaction of :func:`bot.privacy.forget_user`."""

    async def forget_user(self, user_id: int) -> Forgotten:
        """Remove or anonymise everything recorded of ``user_id`` outside open tables."""
        for sql in _WARM:
            await self.fetch(sql, (user_id,))
        async with self.transaction() as db:
            async with db.execute(_RECORDS, (user_id,)) as cursor:
                recorded = list(await cursor.fetchall())
            results = await _changed(db, "DELETE FROM result_players WHERE user_id = ?", (user_id,))
            seats = await _changed(
                db,
                "UPDATE seats SET user_id = NULL, name = ?, away = 0"
                f" WHERE user_id = ? AND {_NOT_OPEN}",
                (FORMER_PLAYER, user_id),
            )
            await db.execute(  # who held which seat when: part of the seats, counted with them
                "UPDATE seat_holders SET user_id = NULL, name = ?"
                f" WHERE user_id = ? AND {_NOT_OPEN}",
                (FORMER_PLAYER, user_id),
            )
            moves = await _changed(
                db, f"UPDATE moves SET user_id = NULL WHERE user_id = ? AND {_NOT_OPEN}", (user_id,)
            )
            hosted = await _changed(
                db,
                "UPDATE game_tables SET host_id = ?"
                " WHERE host_id = ? AND status NOT IN ('lobby', 'playing')",
                (FORGOTTEN_HOST, user_id),
            )
            await db.execute("DELETE FROM sit_in_requests WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM user_languages WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM hand_reports WHERE reporter_id = ?", (user_id,))
            await db.execute(
                f"DELETE FROM turn_pings WHERE user_id = ? AND {_NOT_OPEN}", (user_id,)
            )
            ratings = await _forget_ratings(db, user_id)
            ratings += await _forget_in_records(db, user_id, recorded)
            await forget_in_tournaments(db, user_id, name=FORMER_PLAYER, organiser=FORGOTTEN_HOST)
        self.forget_recent(user_id)
        return Forgotten(results, seats, moves, hosted, ratings)


async def _forget_ratings(db: aiosqlite.Connection, user_id: int) -> int:
    changed = 0
    for table, column in FORGET_ROWS:
        changed += await _changed(db, f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
    return changed


async def _forget_in_records(
    db: aiosqlite.Connection, user_id: int, rows: Sequence[aiosqlite.Row]
) -> int:
    changes = forgotten_records(user_id, [tuple(row) for row in rows])
    await db.executemany(
        "UPDATE results SET record = ?, unrated_reason = ? WHERE table_id = ?", changes
    )
    return len(changes)


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


async def _changed(db: aiosqlite.Connection, sql: str, params: tuple[object, ...]) -> int:
    async with db.execute(sql, params) as cursor:
        return max(cursor.rowcount, 0)
