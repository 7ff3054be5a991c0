"""``/privacy forget``: what the bot keeps of a person is removed or made anonymous (issue 16).

- Their results and ratings (what the leaderboard and stats count) are deleted.
- Closed games (finished, abandoned, cancelled) keep their moves, since they are the other
  players' history too, but the person's identity goes: their seats become "Former player"
  without a user id (also in the record of who held which seat when), the moves they clicked
  lose their user id, and a table they hosted gets host 0 (no Discord account has that id).
- Open tables (a lobby, a game in play) are left exactly as they are: the game goes on, and when
  it ends it is recorded as any other. Forgetting covers what was recorded until then.

All of it is one transaction, in every server at once: the person, not a server, asks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import aiosqlite

from bot.store import Store

FORMER_PLAYER = "Former player"
FORGOTTEN_HOST = 0

_CLOSED_TABLES = "SELECT id FROM game_tables WHERE status NOT IN ('lobby', 'playing')"

# Rows about the person alone, deleted: their settings, ratings, rating history and months.
FORGET_ROWS: tuple[tuple[str, str], ...] = (
    ("member_settings", "user_id"),
    ("ratings", "user_id"),
    ("rating_history", "user_id"),
    ("rating_months", "user_id"),
)


@dataclass(frozen=True)
class Forgotten:
    """What one forget changed: counts of rows, for the person's answer and the tests."""

    results: int  # result rows (games counted for the leaderboard) deleted
    seats: int  # seats of closed games made "Former player"
    moves: int  # moves of closed games whose clicker was forgotten
    hosted: int  # closed tables whose host was forgotten
    ratings: int  # rows of the rating tables deleted or anonymised


async def forget_user(store: Store, user_id: int) -> Forgotten:
    """Remove or anonymise everything recorded of ``user_id`` outside open tables."""
    async with store.transaction() as db:
        results = await _changed(db, "DELETE FROM result_players WHERE user_id = ?", (user_id,))
        seats = await _changed(
            db,
            "UPDATE seats SET user_id = NULL, name = ?, away = 0"
            f" WHERE user_id = ? AND table_id IN ({_CLOSED_TABLES})",
            (FORMER_PLAYER, user_id),
        )
        await db.execute(  # who held which seat when: part of the seats, counted with them
            "UPDATE seat_holders SET user_id = NULL, name = ?"
            f" WHERE user_id = ? AND table_id IN ({_CLOSED_TABLES})",
            (FORMER_PLAYER, user_id),
        )
        moves = await _changed(
            db,
            f"UPDATE moves SET user_id = NULL WHERE user_id = ? AND table_id IN ({_CLOSED_TABLES})",
            (user_id,),
        )
        hosted = await _changed(
            db,
            "UPDATE game_tables SET host_id = ?"
            " WHERE host_id = ? AND status NOT IN ('lobby', 'playing')",
            (FORGOTTEN_HOST, user_id),
        )
        ratings = await _forget_ratings(db, user_id)
        ratings += await _forget_in_records(db, user_id)
    return Forgotten(results, seats, moves, hosted, ratings)


async def _forget_ratings(db: aiosqlite.Connection, user_id: int) -> int:
    changed = 0
    for table, column in FORGET_ROWS:
        changed += await _changed(db, f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
    return changed


async def _forget_in_records(db: aiosqlite.Connection, user_id: int) -> int:
    """Game records (``results.record``) keep every seat: the person's becomes "Former player"
    without a user id (and without a level, which tells it from a computer's), also in the
    unrated reason that may name them."""
    changed = 0
    async with db.execute(
        "SELECT table_id, record, unrated_reason FROM results"
        " WHERE record IS NOT NULL AND instr(record, ?) > 0",
        (str(user_id),),
    ) as cursor:
        rows = list(await cursor.fetchall())
    for table_id, text, reason in rows:
        record = json.loads(text)
        seats = [s for s in record.get("seats", []) if s.get("user_id") == user_id]
        if not seats:
            continue
        for seat in seats:
            if reason and seat.get("name"):
                reason = reason.replace(seat["name"], FORMER_PLAYER)
            if record.get("reason") and seat.get("name"):
                record["reason"] = record["reason"].replace(seat["name"], FORMER_PLAYER)
            seat.update(user_id=None, name=FORMER_PLAYER)
        await db.execute(
            "UPDATE results SET record = ?, unrated_reason = ? WHERE table_id = ?",
            (json.dumps(record), reason, table_id),
        )
        changed += 1
    return changed


async def _changed(db: aiosqlite.Connection, sql: str, params: tuple[object, ...]) -> int:
    async with db.execute(sql, params) as cursor:
        return max(cursor.rowcount, 0)
