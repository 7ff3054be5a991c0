"""``/privacy forget``: what the bot keeps of a person is removed or made anonymous (issue 16).

- Their results and ratings (what the leaderboard and stats count) are deleted.
- Closed games (finished, abandoned, cancelled) keep their moves, since they are the other
  players' history too, but the person's identity goes: their seats become "Former player"
  without a user id, the moves they clicked lose their user id, and a table they hosted gets
  host 0 (no Discord account has that id).
- Open tables (a lobby, a game in play) are left exactly as they are: the game goes on, and when
  it ends it is recorded as any other. Forgetting covers what was recorded until then.

All of it is one transaction, in every server at once: the person, not a server, asks.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.store import Store

FORMER_PLAYER = "Former player"
FORGOTTEN_HOST = 0

_CLOSED_TABLES = "SELECT id FROM game_tables WHERE status NOT IN ('lobby', 'playing')"

# === Ratings and stats tables (issue 16, the ratings branch: migration 0006) ==================
# The lead wires the ratings branch's tables here at merge. Each entry is (table, user column).
# FORGET_ROWS: rows about the person (ratings, rating history): deleted.
# FORGET_COLUMNS: a person's id inside a shared record (the per-seat game record): set to NULL,
#   so other players' records stay whole; the column must allow NULL.
# A table that does not exist (yet) is skipped, so listing one early does no harm.
FORGET_ROWS: tuple[tuple[str, str], ...] = (
    ("member_settings", "user_id"),  # the person's own settings (turn pings)
)
FORGET_COLUMNS: tuple[tuple[str, str], ...] = ()
# ==============================================================================================


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
    return Forgotten(results, seats, moves, hosted, ratings)


async def _forget_ratings(db: aiosqlite.Connection, user_id: int) -> int:
    """The rating tables of :data:`FORGET_ROWS` and :data:`FORGET_COLUMNS` that exist."""
    changed = 0
    for table, column in FORGET_ROWS:
        if await _exists(db, table):
            changed += await _changed(db, f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
    for table, column in FORGET_COLUMNS:
        if await _exists(db, table):
            changed += await _changed(
                db, f"UPDATE {table} SET {column} = NULL WHERE {column} = ?", (user_id,)
            )
    return changed


async def _exists(db: aiosqlite.Connection, table: str) -> bool:
    async with db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ) as cursor:
        return await cursor.fetchone() is not None


async def _changed(db: aiosqlite.Connection, sql: str, params: tuple[object, ...]) -> int:
    async with db.execute(sql, params) as cursor:
        return max(cursor.rowcount, 0)
