"""Forgetting a person in PostgreSQL: what :mod:`bot.privacy` promises, in one transaction
(:mod:`bot.store.privacy` is SQLite's; the rewriting of game records is shared).

Another bot process may end a game (or a tournament) of the person's while the forget is under
way, and PostgreSQL lets it commit between the forget's statements, each of which reads what is
open afresh: the game's seats would be anonymised while its result, recorded a moment earlier,
kept the person. So the forget first holds the person's open tables and tournaments as they are
(``FOR SHARE``: an ending waits the forget's few milliseconds, then is recorded as any game
that ends after it); what is open stays open, and what is closed is closed, throughout. (SQLite
needs none of it: a transaction there holds the database's one write lock from its start.)
"""

from __future__ import annotations

from bot.store.postgres.base import PostgresBase, changed
from bot.store.postgres.tournaments import forget_in_tournaments
from bot.store.privacy import FORGET_ROWS, FORGOTTEN_HOST, FORMER_PLAYER, forgotten_records
from bot.store.recent import RecentSettings
from bot.store.rows import Forgotten

_NOT_OPEN = "table_id NOT IN (SELECT id FROM game_tables WHERE status IN ('lobby', 'playing'))"
# The person's open tables and tournaments, held open until the forget commits (the tables
# first: an ending game's transaction changes its table first, a tournament's its own row).
_HOLD_OPEN = (
    "SELECT id FROM game_tables WHERE status IN ('lobby', 'playing') AND (host_id = $1"
    " OR id IN (SELECT table_id FROM seats WHERE user_id = $1)"
    " OR id IN (SELECT table_id FROM seat_holders WHERE user_id = $1)) ORDER BY id FOR SHARE",
    "SELECT id FROM tournaments WHERE status IN ('signup', 'running') AND (organiser_id = $1"
    " OR id IN (SELECT tournament_id FROM tournament_members WHERE user_id = $1))"
    " ORDER BY id FOR SHARE",
)
_RECORDS = (
    "SELECT table_id, record, unrated_reason FROM results WHERE record IS NOT NULL"
    " AND table_id IN (SELECT table_id FROM result_players WHERE user_id = $1)"
)


class PostgresPrivacy(PostgresBase, RecentSettings):
    """Forgetting a person: the one transaction of :func:`bot.privacy.forget_user`."""

    async def forget_user(self, user_id: int) -> Forgotten:
        """Remove or anonymise everything recorded of ``user_id`` outside open tables."""
        async with self.transaction() as db:
            for hold in _HOLD_OPEN:
                await db.execute(hold, user_id)
            recorded = [tuple(row) for row in await db.fetch(_RECORDS, user_id)]
            results = changed(
                await db.execute("DELETE FROM result_players WHERE user_id = $1", user_id)
            )
            seats = changed(
                await db.execute(
                    "UPDATE seats SET user_id = NULL, name = $1, away = 0"
                    f" WHERE user_id = $2 AND {_NOT_OPEN}",
                    FORMER_PLAYER,
                    user_id,
                )
            )
            await db.execute(  # who held which seat when: part of the seats, counted with them
                "UPDATE seat_holders SET user_id = NULL, name = $1"
                f" WHERE user_id = $2 AND {_NOT_OPEN}",
                FORMER_PLAYER,
                user_id,
            )
            moves = changed(
                await db.execute(
                    f"UPDATE moves SET user_id = NULL WHERE user_id = $1 AND {_NOT_OPEN}", user_id
                )
            )
            hosted = changed(
                await db.execute(
                    "UPDATE game_tables SET host_id = $1"
                    " WHERE host_id = $2 AND status NOT IN ('lobby', 'playing')",
                    FORGOTTEN_HOST,
                    user_id,
                )
            )
            await db.execute("DELETE FROM sit_in_requests WHERE user_id = $1", user_id)
            await db.execute("DELETE FROM user_languages WHERE user_id = $1", user_id)
            await db.execute("DELETE FROM hand_reports WHERE reporter_id = $1", user_id)
            await db.execute(f"DELETE FROM turn_pings WHERE user_id = $1 AND {_NOT_OPEN}", user_id)
            ratings = 0
            for table, column in FORGET_ROWS:
                ratings += changed(
                    await db.execute(f"DELETE FROM {table} WHERE {column} = $1", user_id)
                )
            changes = forgotten_records(user_id, recorded)
            await db.executemany(
                "UPDATE results SET record = $1, unrated_reason = $2 WHERE table_id = $3", changes
            )
            ratings += len(changes)
            await forget_in_tournaments(db, user_id, name=FORMER_PLAYER, organiser=FORGOTTEN_HOST)
        self.forget_recent(user_id)
        return Forgotten(results, seats, moves, hosted, ratings)
