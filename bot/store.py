"""The SQLite store: one aiosqlite connection, numbered migrations, typed rows.

All SQL of the bot lives here. Every write happens inside :meth:`Store.transaction`, which holds
an :class:`asyncio.Lock` for the whole transaction: on a shared connection without it, a second
coroutine's statements would land inside (and be committed or rolled back with) the first one's.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "data" / "migrations"
OPEN_STATUSES = ("lobby", "playing")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The numbered scripts ``NNNN_name.sql``, in order; numbers must run 1, 2, 3 without gaps."""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        number, _, name = path.stem.partition("_")
        migrations.append(Migration(int(number), name, path.read_text(encoding="utf-8")))
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return migrations


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game: str
    options: dict[str, Any]
    seed: int
    first_dealer: int | None
    status: str
    turn_deadline: float | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class SeatRow:
    table_id: int
    seat: int
    user_id: int | None
    name: str
    away: bool

    @property
    def computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class MoveRow:
    table_id: int
    seq: int
    seat: int
    move: dict[str, Any]
    user_id: int | None
    created_at: float


@dataclass(frozen=True)
class LeaderboardRow:
    user_id: int
    played: int
    won: int


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    turn_seconds: int
    use_threads: bool


class Store:
    """The bot's database. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, migrations: Sequence[Migration] | None = None) -> Store:
        """Open (creating the file and its folder if needed) and migrate to the newest schema."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        await connection.execute("PRAGMA synchronous=NORMAL")
        store = cls(connection)
        try:
            await store.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            await connection.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    # --- transactions and migrations ---
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with store.transaction() as db:``: all or nothing, one at a time."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply every newer script, each in one transaction with its ``user_version`` bump."""
        current = await self.schema_version()
        newest = migrations[-1].version if migrations else 0
        if current > newest:
            raise RuntimeError(
                f"the database is at schema version {current}, newer than this bot ({newest}): "
                "run a newer version of the bot"
            )
        for migration in migrations:
            if migration.version <= current:
                continue
            async with self._lock:
                try:
                    await self._db.executescript(
                        f"BEGIN;\n{migration.sql}\nPRAGMA user_version = {migration.version};\n"
                        "COMMIT;"
                    )
                except Exception:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    raise

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async with self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    # --- tables ---
    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[tuple[int | None, str]],
    ) -> TableRow:
        """A new table in the lobby, with ``seats`` entries as (user id or None, name) or empty."""
        now = time.time()
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO game_tables (guild_id, channel_id, host_id, game, options, seed,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, host_id, game, json.dumps(options), seed, now, now),
            )
            table_id = int(cursor.lastrowid or 0)
            for seat, (user_id, name) in enumerate(seats):
                if name:
                    await db.execute(
                        "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                        (table_id, seat, user_id, name),
                    )
        table = await self.get_table(table_id)
        assert table is not None
        return table

    async def get_table(self, table_id: int) -> TableRow | None:
        rows = await self._all("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return _table(rows[0]) if rows else None

    async def open_tables(self) -> list[TableRow]:
        rows = await self._all(
            "SELECT * FROM game_tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        return [_table(row) for row in rows]

    async def count_open_tables(self) -> int:
        rows = await self._all(
            "SELECT COUNT(*) FROM game_tables WHERE status IN ('lobby', 'playing')"
        )
        return int(rows[0][0])

    async def set_table_message(self, table_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, time.time(), table_id),
            )

    async def move_table(self, table_id: int, channel_id: int) -> None:
        """The table moved to another channel (its own thread)."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET channel_id = ? WHERE id = ?", (channel_id, table_id)
            )

    async def set_status(self, table_id: int, status: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET status = ?, turn_deadline = NULL, updated_at = ?"
                " WHERE id = ?",
                (status, time.time(), table_id),
            )

    async def set_deadline(self, table_id: int, deadline: float | None) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET turn_deadline = ? WHERE id = ?", (deadline, table_id)
            )

    # --- seats ---
    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [_seat(row) for row in rows]

    async def sit(self, table_id: int, seat: int, user_id: int | None, name: str) -> None:
        """Put a player (or a computer, ``user_id`` None) in an empty seat."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                (table_id, seat, user_id, name),
            )
            await db.execute(
                "UPDATE game_tables SET updated_at = ? WHERE id = ?", (time.time(), table_id)
            )

    async def stand(self, table_id: int, seat: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))

    async def set_away(self, table_id: int, seat: int, away: bool) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE seats SET away = ? WHERE table_id = ? AND seat = ?",
                (int(away), table_id, seat),
            )

    async def open_table_of_user(self, guild_id: int, user_id: int) -> int | None:
        """The open table where this user sits in this server, if any."""
        rows = await self._all(
            "SELECT t.id FROM seats s JOIN game_tables t ON t.id = s.table_id"
            " WHERE t.guild_id = ? AND s.user_id = ? AND t.status IN ('lobby', 'playing')",
            (guild_id, user_id),
        )
        return int(rows[0][0]) if rows else None

    # --- the game: start, moves, deals ---
    async def start_game(
        self, table_id: int, first_dealer: int, deals: Sequence[dict[str, Any]]
    ) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET status = 'playing', first_dealer = ?, updated_at = ?"
                " WHERE id = ?",
                (first_dealer, time.time(), table_id),
            )
            for index, deal in enumerate(deals):
                await db.execute(
                    "INSERT INTO deals (table_id, deal_index, deal) VALUES (?, ?, ?)",
                    (table_id, index, json.dumps(deal)),
                )

    async def append_move(
        self,
        table_id: int,
        seq: int,
        seat: int,
        move: dict[str, Any],
        user_id: int | None,
        new_deals: Sequence[tuple[int, dict[str, Any]]] = (),
        status: str | None = None,
        deadline: float | None = None,
    ) -> None:
        """Record one accepted move, the deals it caused to be shuffled, and the table's status.

        ``(table_id, seq)`` is unique: a second writer of the same move number fails here.
        """
        now = time.time()
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO moves (table_id, seq, seat, move, user_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, seq, seat, json.dumps(move), user_id, now),
            )
            for index, deal in new_deals:
                await db.execute(
                    "INSERT INTO deals (table_id, deal_index, deal) VALUES (?, ?, ?)",
                    (table_id, index, json.dumps(deal)),
                )
            await db.execute(
                "UPDATE game_tables SET status = COALESCE(?, status), turn_deadline = ?,"
                " updated_at = ? WHERE id = ?",
                (status, deadline, now, table_id),
            )

    async def moves(self, table_id: int) -> list[MoveRow]:
        rows = await self._all("SELECT * FROM moves WHERE table_id = ? ORDER BY seq", (table_id,))
        return [
            MoveRow(
                row["table_id"],
                row["seq"],
                row["seat"],
                json.loads(row["move"]),
                row["user_id"],
                row["created_at"],
            )
            for row in rows
        ]

    async def deals(self, table_id: int) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT deal FROM deals WHERE table_id = ? ORDER BY deal_index", (table_id,)
        )
        return [json.loads(row["deal"]) for row in rows]

    # --- results and leaderboards ---
    async def record_result(
        self,
        table: TableRow,
        status: str,
        outcome: dict[str, Any],
        players: Sequence[tuple[int, int, bool]],
    ) -> None:
        """Close a table and keep its result: ``players`` are (user id, seat, won) of humans."""
        now = time.time()
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET status = ?, turn_deadline = NULL, updated_at = ?"
                " WHERE id = ?",
                (status, now, table.id),
            )
            await db.execute(
                "INSERT INTO results (table_id, guild_id, game, outcome, finished_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table.id, table.guild_id, table.game, json.dumps(outcome), now),
            )
            for user_id, seat, won in players:
                await db.execute(
                    "INSERT INTO result_players (table_id, user_id, seat, won) VALUES (?, ?, ?, ?)",
                    (table.id, user_id, seat, int(won)),
                )

    async def leaderboard(
        self, guild_id: int, game: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]:
        rows = await self._all(
            "SELECT p.user_id, COUNT(*) AS played, SUM(p.won) AS won"
            " FROM result_players p JOIN results r ON r.table_id = p.table_id"
            " WHERE r.guild_id = ? AND (? IS NULL OR r.game = ?)"
            " AND json_extract(r.outcome, '$.abandoned') = 0"
            " GROUP BY p.user_id ORDER BY won DESC, played ASC, p.user_id LIMIT ?",
            (guild_id, game, game, limit),
        )
        return [LeaderboardRow(row["user_id"], row["played"], row["won"] or 0) for row in rows]

    # --- server settings ---
    async def guild_settings(self, guild_id: int, default_turn_seconds: int) -> GuildSettings:
        rows = await self._all("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if not rows:
            return GuildSettings(guild_id, default_turn_seconds, False)
        row = rows[0]
        return GuildSettings(guild_id, row["turn_seconds"], bool(row["use_threads"]))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_seconds, use_threads) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = excluded.turn_seconds,"
                " use_threads = excluded.use_threads",
                (settings.guild_id, settings.turn_seconds, int(settings.use_threads)),
            )

    # --- announcements (added by the faults helper for issue 13, item 6) ---------------------
    async def set_announced(self, table_id: int, results_through: int, board: str) -> None:
        """Record what the bot has announced of a table (results through a move, the board)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO announcements (table_id, results_through, board) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET"
                " results_through = excluded.results_through, board = excluded.board",
                (table_id, results_through, board),
            )

    async def unannounced_tables(self, closed_since: float) -> list[tuple[TableRow, int]]:
        """Tables whose message does not show their latest state ("status:moves"), open ones
        and those closed since ``closed_since``: each with the move its results were posted
        through."""
        rows = await self._all(
            "SELECT t.*, COALESCE(a.results_through, 0) AS results_through"
            " FROM game_tables t LEFT JOIN announcements a ON a.table_id = t.id"
            " WHERE (t.status IN ('lobby', 'playing') OR t.updated_at >= ?)"
            " AND (a.table_id IS NULL OR a.board != t.status || ':' ||"
            " (SELECT COUNT(*) FROM moves m WHERE m.table_id = t.id))"
            " ORDER BY t.id",
            (closed_since,),
        )
        return [(_table(row), int(row["results_through"])) for row in rows]


def _table(row: aiosqlite.Row) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        host_id=row["host_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        first_dealer=row["first_dealer"],
        status=row["status"],
        turn_deadline=row["turn_deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _seat(row: aiosqlite.Row) -> SeatRow:
    return SeatRow(row["table_id"], row["seat"], row["user_id"], row["name"], bool(row["away"]))
