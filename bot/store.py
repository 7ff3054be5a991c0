"""The SQLite store: one aiosqlite connection, numbered migrations, typed rows.

All SQL of the bot lives here. Every write happens inside :meth:`Store.transaction`, which holds
an :class:`asyncio.Lock` for the whole transaction: on a shared connection without it, a second
coroutine's statements would land inside (and be committed or rolled back with) the first one's.

Writes return the rows they changed (``RETURNING``), so the session manager updates its cache
from the write itself and never re-reads a table behind another coroutine's back. A database that
cannot be written for now (locked, read-only, full, I/O error) raises :class:`StoreUnavailable`
after the transaction is rolled back: nothing of it was kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.ratings import LadderPage, LadderRow, Rating, month_of, rate
from bot.records import GameRecord, SeatInfo, SeatRecord, build_record, rating_note

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "data" / "migrations"
OPEN_STATUSES = ("lobby", "playing")
Call = tuple[int, str, bool | None]  # (seat, label, succeeded or None if the game does not say)


class StoreUnavailable(Exception):
    """The database refused a read or write for now (locked, read-only, full, I/O error)."""


class ForeignDatabase(RuntimeError):
    """The file is another program's database: the bot neither migrates into it nor uses it."""


MARKER_TABLE = "game_tables"  # made by the first migration: a database holding it is the bot's


def _unavailable(error: BaseException) -> bool:
    """A database error that is the machine's fault, not the bot's (no constraint, no misuse)."""
    return isinstance(error, sqlite3.DatabaseError) and not isinstance(
        error, (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError)
    )


async def _check_ours(connection: aiosqlite.Connection) -> None:
    """Refuse a database holding tables of another program: empty, or the bot's own (its
    ``user_version`` set by a migration and its marker table present)."""
    async with connection.execute("PRAGMA user_version") as cursor:
        version = await cursor.fetchone()
    async with connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name"
    ) as cursor:
        names = [str(row[0]) for row in await cursor.fetchall()]
    if not names or (version and version[0] and MARKER_TABLE in names):
        return
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    raise ForeignDatabase(
        f"holds another program's tables ({shown}), not the bot's: point it at the bot's "
        "database or at a new file"
    )


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
    computer_level: str = "normal"  # how the table's computer seats play (not a rule)
    rated: bool = True  # the server rated new tables when this one was opened
    hints: bool = False  # players may ask for hints (such a table is unrated)
    computers: bool = True  # the server allowed computer players when this table was opened
    # The server's turn timer and trick lines when this table was opened (None: not kept, an
    # older table's; the server's current setting applies)
    turn_seconds: int | None = None
    trick_lines: bool | None = None


@dataclass(frozen=True)
class SeatRow:
    table_id: int
    seat: int
    user_id: int | None
    name: str
    away: bool
    confirmed: bool = True  # False: seated by another's rematch, until they press Join

    @property
    def computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class SeatHolder:
    """Who held a seat of a game from ``after_move`` moves on (``user_id`` None: a computer)."""

    seat: int
    after_move: int
    user_id: int | None
    name: str


@dataclass(frozen=True)
class MoveRow:
    table_id: int
    seq: int
    seat: int
    move: dict[str, Any]
    user_id: int | None
    created_at: float


@dataclass(frozen=True)
class Result:
    """How a game ended, stored with the table's closing: ``players`` are (user, seat, won).

    ``calls``: every call made in the game, in order, as (seat, label, succeeded or None when
    the game does not say); None when not counted (an abandoned game)."""

    status: str
    outcome: dict[str, Any]
    players: Sequence[tuple[int, int, bool]]
    calls: Sequence[Call] | None = None


@dataclass(frozen=True)
class SeatCalls:
    """The calls a player's seat made in one closed game (None: not counted yet)."""

    table_id: int
    seat: int
    abandoned: bool
    calls: list[tuple[str, bool | None]] | None


@dataclass(frozen=True)
class LeaderboardRow:
    user_id: int
    played: int
    won: int


# A result_players row ``p`` of results ``r`` whose seat a computer played for the away player
# (the game's record calls the seat a stand-in).
SAT_OUT = (
    "EXISTS (SELECT 1 FROM json_each(r.record, '$.seats') s"
    " WHERE json_extract(s.value, '$.seat') = p.seat AND json_extract(s.value, '$.stand_in'))"
)


@dataclass(frozen=True)
class GameTally:
    game: str
    games: int
    wins: int
    rating: float | None  # the conservative rating; None: no rated game yet
    rated: int = 0  # the rated games behind that rating


@dataclass(frozen=True)
class PartnerRow:
    user_id: int
    games: int
    wins: int


@dataclass(frozen=True)
class RecentGame:
    table_id: int
    game: str
    finished_at: float
    seat: int
    won: bool
    place: int | None
    abandoned: bool
    rated: bool
    delta: float | None  # the rating change this game made (None: none)
    sat_out: bool = False  # the player was away and a computer played the seat for them


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings; all but the first three are issue 16's (migration 0007)."""

    guild_id: int
    turn_seconds: int
    use_threads: bool
    computers: bool = True  # computer players may join new tables
    rated: bool = True  # new tables are rated
    trick_lines: bool = True  # trick results posted as lines in a table's own thread
    channels: tuple[int, ...] = ()  # the channels that may host tables; empty: any
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # game: options


@dataclass(frozen=True)
class TurnPing:
    """A posted turn ping, kept until the player moves (or the turn passes on)."""

    table_id: int
    user_id: int
    channel_id: int
    message_id: int
    turn: int


class Store:
    """The bot's database. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._file: Path | None = None  # the path opened, watched for removal or replacement
        self._identity: tuple[int, int] | None = None  # its (st_dev, st_ino) when opened
        self._file_gone = False

    @classmethod
    async def open(
        cls,
        path: Path | str,
        migrations: Sequence[Migration] | None = None,
        busy_timeout_ms: int = 5000,
    ) -> Store:
        """Open (creating the file and its folder if needed) and migrate to the newest schema.

        ``busy_timeout_ms``: how long a write waits on another process's lock before the
        database counts as unavailable.
        """
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        try:
            await _check_ours(connection)  # before WAL mode, which would change the file
        except BaseException:
            await connection.close()
            raise
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        await connection.execute("PRAGMA synchronous=NORMAL")
        store = cls(connection)
        if str(path) != ":memory:":
            store._file = Path(path).absolute()
            found = os.stat(store._file)
            store._identity = (found.st_dev, found.st_ino)
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
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._check_file()
                    await self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        with contextlib.suppress(sqlite3.Error):
                            await self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                if _unavailable(error):
                    raise StoreUnavailable(str(error)) from error
                raise

    def _check_file(self) -> None:
        """Refuse to commit once the open database is no longer the file at its path (its
        folder removed, the file deleted or replaced): SQLite would go on writing into the
        unlinked file, and every move since would be lost at the next start. One ``stat``.
        """
        if self._file is None:
            return
        try:
            found = os.stat(self._file)
            same = (found.st_dev, found.st_ino) == self._identity
        except OSError:
            same = False
        if same:
            if self._file_gone:
                self._file_gone = False
                log.warning("the database file %r is back: tables go on", str(self._file))
            return
        if not self._file_gone:
            self._file_gone = True
            log.error(
                "DATABASE_PATH %r is no longer the database the bot opened (the file or its "
                "folder was removed or replaced): tables are paused and no move is saved until "
                "that file is back at that path; a restart starts from whatever file is there then",
                str(self._file),
            )
        raise StoreUnavailable("the database file is no longer at DATABASE_PATH")

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
        try:
            async with self._db.execute(sql, params) as cursor:
                return list(await cursor.fetchall())
        except sqlite3.Error as error:
            if _unavailable(error):
                raise StoreUnavailable(str(error)) from error
            raise

    @staticmethod
    async def _returning(
        db: aiosqlite.Connection, sql: str, params: Sequence[Any]
    ) -> aiosqlite.Row:
        """Run one ``... RETURNING *`` statement inside a transaction; its one row."""
        async with db.execute(sql, params) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise LookupError(f"no row changed by: {sql.split()[0]} ...")
        return row

    async def _update_table(
        self, db: aiosqlite.Connection, table_id: int, assignments: str, params: Sequence[Any]
    ) -> TableRow:
        return _table(
            await self._returning(
                db,
                f"UPDATE game_tables SET {assignments} WHERE id = ? RETURNING *",
                (*params, table_id),
            )
        )

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
        computer_level: str = "normal",
        hints: bool = False,
        rated: bool = True,
        computers: bool = True,
        turn_seconds: int | None = None,
        trick_lines: bool | None = None,
        parent_channel_id: int | None = None,
    ) -> TableRow:
        """A new table in the lobby, with ``seats`` entries as (user id or None, name) or empty.

        ``rated``, ``computers``, ``turn_seconds`` and ``trick_lines`` are the server's settings
        now, kept for the table's life. ``parent_channel_id``: the channel of the thread
        ``channel_id`` is, if it is one."""
        now = time.time()
        async with self.transaction() as db:
            table = _table(
                await self._returning(
                    db,
                    "INSERT INTO game_tables (guild_id, channel_id, host_id, game, options, seed,"
                    " computer_level, hints, rated, computers, turn_seconds, trick_lines,"
                    " created_at, updated_at, parent_channel_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        game,
                        json.dumps(options),
                        seed,
                        computer_level,
                        int(hints),
                        int(rated),
                        int(computers),
                        turn_seconds,
                        None if trick_lines is None else int(trick_lines),
                        now,
                        now,
                        parent_channel_id,
                    ),
                )
            )
            table_id = table.id
            for seat, (user_id, name) in enumerate(seats):
                if name:
                    await db.execute(
                        "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                        (table_id, seat, user_id, name),
                    )
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

    async def set_table_message(self, table_id: int, message_id: int | None) -> TableRow:
        async with self.transaction() as db:
            return await self._update_table(
                db, table_id, "message_id = ?, updated_at = ?", (message_id, time.time())
            )

    async def move_table(self, table_id: int, channel_id: int) -> TableRow:
        """The table moved to another channel (its own thread, of the channel it was in)."""
        async with self.transaction() as db:
            return await self._update_table(
                db, table_id, "parent_channel_id = channel_id, channel_id = ?", (channel_id,)
            )

    async def set_status(self, table_id: int, status: str) -> TableRow:
        async with self.transaction() as db:
            if status not in OPEN_STATUSES:
                await _end_sit_ins(db, table_id)
            return await self._update_table(
                db,
                table_id,
                "status = ?, turn_deadline = NULL, updated_at = ?",
                (status, time.time()),
            )

    async def set_computer_level(self, table_id: int, level: str) -> TableRow:
        """The lobby's level for its computer players; a table no longer in its lobby is refused
        (LookupError)."""
        async with self.transaction() as db:
            return _table(
                await self._returning(
                    db,
                    "UPDATE game_tables SET computer_level = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'lobby' RETURNING *",
                    (level, time.time(), table_id),
                )
            )

    async def set_hints(self, table_id: int, hints: bool) -> TableRow:
        """Hints on or off for the table's players; a table no longer in its lobby is refused
        (LookupError)."""
        async with self.transaction() as db:
            return _table(
                await self._returning(
                    db,
                    "UPDATE game_tables SET hints = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'lobby' RETURNING *",
                    (int(hints), time.time(), table_id),
                )
            )

    async def set_deadline(self, table_id: int, deadline: float | None) -> TableRow:
        async with self.transaction() as db:
            return await self._update_table(db, table_id, "turn_deadline = ?", (deadline,))

    # --- seats ---
    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [_seat(row) for row in rows]

    async def sit(
        self, table_id: int, seat: int, user_id: int | None, name: str
    ) -> tuple[TableRow, SeatRow]:
        """Put a player (or a computer, ``user_id`` None) in an empty seat."""
        async with self.transaction() as db:
            placed = await self._returning(
                db,
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, ?, ?, ?) RETURNING *",
                (table_id, seat, user_id, name),
            )
            row = await self._update_table(db, table_id, "updated_at = ?", (time.time(),))
        return row, _seat(placed)

    async def change_seat(self, table_id: int, seat: int, target: int) -> tuple[TableRow, SeatRow]:
        """Move a player from ``seat`` to the empty ``target`` seat."""
        async with self.transaction() as db:
            moved = await self._returning(
                db,
                "UPDATE seats SET seat = ? WHERE table_id = ? AND seat = ? RETURNING *",
                (target, table_id, seat),
            )
            row = await self._update_table(db, table_id, "updated_at = ?", (time.time(),))
        return row, _seat(moved)

    async def stand(self, table_id: int, seat: int, host_id: int | None = None) -> TableRow:
        """Free a seat; ``host_id`` hands the host role on in the same transaction."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
            return await self._update_table(
                db,
                table_id,
                "host_id = COALESCE(?, host_id), updated_at = ?",
                (host_id, time.time()),
            )

    async def set_away(
        self,
        table_id: int,
        seats: Sequence[int],
        away: bool,
        *,
        clear_deadline: bool = False,
    ) -> tuple[TableRow, list[SeatRow]]:
        """Mark seats away (or back), and clear the turn deadline if asked, atomically."""
        async with self.transaction() as db:
            changed = [
                _seat(
                    await self._returning(
                        db,
                        "UPDATE seats SET away = ? WHERE table_id = ? AND seat = ? RETURNING *",
                        (int(away), table_id, seat),
                    )
                )
                for seat in seats
            ]
            row = await self._update_table(
                db,
                table_id,
                "turn_deadline = CASE WHEN ? THEN NULL ELSE turn_deadline END",
                (int(clear_deadline),),
            )
        return row, changed

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
    ) -> TableRow:
        """Lobby to playing; a table no longer in its lobby is refused (LookupError)."""
        async with self.transaction() as db:
            row = _table(
                await self._returning(
                    db,
                    "UPDATE game_tables SET status = 'playing', first_dealer = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'lobby' RETURNING *",
                    (first_dealer, time.time(), table_id),
                )
            )
            for index, deal in enumerate(deals):
                await db.execute(
                    "INSERT INTO deals (table_id, deal_index, deal) VALUES (?, ?, ?)",
                    (table_id, index, json.dumps(deal)),
                )
            await db.execute(
                "INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)"
                " SELECT table_id, seat, 0, user_id, name FROM seats WHERE table_id = ?"
                " ORDER BY seat",
                (table_id,),
            )
        return row

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
        *,
        back: bool = False,
        result: Result | None = None,
    ) -> tuple[TableRow, SeatRow | None]:
        """Record one accepted move, the deals it caused to be shuffled, and the table's status.

        ``back``: the mover was away and is back in their seat. ``result``: the move ended the
        game; its result is kept in the same transaction, so a crash cannot leave a finished
        game "playing". ``(table_id, seq)`` is unique: a second writer of the same move fails.
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
            returned = None
            if back:
                returned = _seat(
                    await self._returning(
                        db,
                        "UPDATE seats SET away = 0 WHERE table_id = ? AND seat = ? RETURNING *",
                        (table_id, seat),
                    )
                )
            row = await self._update_table(
                db,
                table_id,
                "status = COALESCE(?, status), turn_deadline = ?, updated_at = ?",
                (status, deadline, now),
            )
            if result is not None:
                row = await self._close(db, row, result, now)
        return row, returned

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
        calls: Sequence[Call] | None = None,
    ) -> TableRow:
        """Close a table and keep its result: ``players`` are (user id, seat, won) of humans,
        ``calls`` those made in the game (:class:`Result`)."""
        async with self.transaction() as db:
            return await self._close(
                db, table, Result(status, outcome, players, calls), time.time()
            )

    async def _close(
        self, db: aiosqlite.Connection, table: TableRow, result: Result, now: float
    ) -> TableRow:
        """Close the table and keep its record and rating changes, in the caller's transaction."""
        row = await self._update_table(
            db,
            table.id,
            "status = ?, turn_deadline = NULL, updated_at = ?",
            (result.status, now),
        )
        await _end_sit_ins(db, table.id)
        record = await self._build_record(db, row, result, now)
        await db.execute(
            "INSERT INTO results (table_id, guild_id, game, outcome, finished_at, rated,"
            " unrated_reason, record, duration) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                table.guild_id,
                table.game,
                json.dumps(result.outcome),
                now,
                int(record.rated),
                record.reason,
                json.dumps(record.to_json()),
                record.duration,
            ),
        )
        for seat in record.seats:
            if seat.user_id is None:
                continue
            await db.execute(
                "INSERT INTO result_players (table_id, user_id, seat, won, team, place, rated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    seat.user_id,
                    seat.seat,
                    int(seat.won),
                    seat.team,
                    seat.place or None,  # no place in an abandoned game
                    int(seat.rated),
                ),
            )
        if result.calls is not None:
            await self._keep_calls(db, table.id, result.calls, record.seats)
        if record.rated:
            await self._rate(db, table, record, now)
        return row

    @staticmethod
    async def _keep_calls(
        db: aiosqlite.Connection, table_id: int, calls: Sequence[Call], seats: Sequence[SeatRecord]
    ) -> None:
        """Each human seat's calls, beside its result: ``/stats`` counts them, no replay."""
        await db.executemany(
            "UPDATE result_players SET calls = ? WHERE table_id = ? AND seat = ?",
            [
                (_calls_json(calls, seat.seat), table_id, seat.seat)
                for seat in seats
                if seat.user_id is not None
            ],
        )

    async def _build_record(
        self, db: aiosqlite.Connection, table: TableRow, result: Result, now: float
    ) -> GameRecord:
        """The game's record from the seats and the moves log as this transaction sees them."""
        first_person: dict[int, tuple[int, str]] = {}  # seat: its first person, from the log
        async with db.execute(
            "SELECT seat, user_id, name FROM seat_holders"
            " WHERE table_id = ? AND user_id IS NOT NULL ORDER BY id",
            (table.id,),
        ) as cursor:
            for r in await cursor.fetchall():
                first_person.setdefault(r["seat"], (r["user_id"], r["name"]))
        async with db.execute(
            "SELECT s.seat, s.user_id, s.name,"
            " (SELECT COUNT(*) FROM moves m WHERE m.table_id = s.table_id AND m.seat = s.seat"
            "  AND m.user_id IS NOT NULL) AS human,"
            " (SELECT COUNT(*) FROM moves m WHERE m.table_id = s.table_id AND m.seat = s.seat"
            "  AND m.user_id IS NULL) AS computer"
            " FROM seats s WHERE s.table_id = ? ORDER BY s.seat",
            (table.id,),
        ) as cursor:
            seats = []
            for r in await cursor.fetchall():
                # A seat's first person who no longer holds it left it: rated for it.
                left_by, left_name = first_person.get(r["seat"], (None, None))
                if left_by == r["user_id"]:
                    left_by = left_name = None
                seats.append(
                    SeatInfo(
                        r["seat"],
                        r["user_id"],
                        r["name"],
                        r["human"],
                        r["computer"],
                        left_by=left_by,
                        left_name=left_name,
                    )
                )
        if not seats:  # a result kept without seats (older callers): its players alone
            seats = [SeatInfo(seat, user_id, str(user_id)) for user_id, seat, _ in result.players]
        async with db.execute(
            "SELECT MIN(created_at) FROM moves WHERE table_id = ?", (table.id,)
        ) as cursor:
            first = await cursor.fetchone()
        return build_record(
            game=table.game,
            options=table.options,
            status=result.status,
            outcome=result.outcome,
            seats=seats,
            computer_level=table.computer_level,
            table_rated=table.rated,
            hints=table.hints,
            started_at=first[0] if first else None,
            finished_at=now,
        )

    @staticmethod
    async def _rate(
        db: aiosqlite.Connection, table: TableRow, record: GameRecord, now: float
    ) -> None:
        """Read the players' ratings, rate the game with OpenSkill, write the new ratings."""
        keys = sorted({seat.player for seat in record.seats})
        marks = ", ".join("?" for _ in keys)
        async with db.execute(
            f"SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND player IN ({marks})",
            (table.guild_id, table.game, *keys),
        ) as cursor:
            current = {r["player"]: Rating(r["mu"], r["sigma"]) for r in await cursor.fetchall()}
        for change in rate(record, current):
            after = change.after
            await db.execute(
                "INSERT INTO ratings (guild_id, game, player, user_id, level, mu, sigma, ordinal,"
                " games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)"
                " ON CONFLICT (guild_id, game, player) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, ordinal = excluded.ordinal, games = games + 1,"
                " wins = wins + excluded.wins, updated_at = excluded.updated_at",
                (
                    table.guild_id,
                    table.game,
                    change.player,
                    change.user_id,
                    change.level,
                    after.mu,
                    after.sigma,
                    after.ordinal,
                    int(change.won),
                    now,
                ),
            )
            await db.execute(
                "INSERT INTO rating_months (guild_id, game, month, player, user_id, games, wins,"
                " change) VALUES (?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, game, month,"
                " player) DO UPDATE SET games = games + 1, wins = wins + excluded.wins,"
                " change = change + excluded.change",
                (
                    table.guild_id,
                    table.game,
                    month_of(now),
                    change.player,
                    change.user_id,
                    int(change.won),
                    change.delta,
                ),
            )
            await db.execute(
                "INSERT INTO rating_history (table_id, guild_id, game, player, user_id, mu,"
                " sigma, ordinal, delta, won, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    table.guild_id,
                    table.game,
                    change.player,
                    change.user_id,
                    after.mu,
                    after.sigma,
                    after.ordinal,
                    change.delta,
                    int(change.won),
                    now,
                ),
            )

    async def result_note(self, table_id: int) -> str | None:
        """The line a finished game's result shows about its rating (None if unknown)."""
        try:
            rows = await self._all(
                "SELECT rated, unrated_reason FROM results WHERE table_id = ?", (table_id,)
            )
        except StoreUnavailable:  # only words: the game is kept, its board shows no note
            return None
        return rating_note(bool(rows[0]["rated"]), rows[0]["unrated_reason"]) if rows else None

    async def resigned_seat(self, table_id: int) -> int | None:
        """The seat whose last person left the game, making it that seat's loss (None: none)."""
        rows = await self._all(
            "SELECT json_extract(outcome, '$.resigned') FROM results WHERE table_id = ?",
            (table_id,),
        )
        return None if not rows or rows[0][0] is None else int(rows[0][0])

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

    async def ladder(
        self,
        guild_id: int,
        game: str,
        *,
        month: str | None = None,
        computers: bool = False,
        offset: int = 0,
        limit: int = 10,
    ) -> LadderPage:
        """One page of a server's ladder for a game: players with a rated game, best first.

        All time: by the conservative rating (mu - 3 sigma). ``month`` ("YYYY-MM", UTC): by the
        rating gained that month, among players rated in it, with that month's games and wins.
        Computer levels only when ``computers``.
        """
        if month is None:
            where = (
                " FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
                " AND (? OR user_id IS NOT NULL)"
            )
            params: tuple[Any, ...] = (guild_id, game, int(computers))
            rows = await self._all(
                "SELECT player, user_id, level, ordinal, games, wins, NULL AS change"
                f"{where} ORDER BY ordinal DESC, player LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
        else:
            where = (
                " FROM rating_months m WHERE m.guild_id = ? AND m.game = ? AND m.month = ?"
                " AND m.games > 0 AND (? OR m.user_id IS NOT NULL)"
            )
            params = (guild_id, game, month, int(computers))
            rows = await self._all(
                "SELECT m.player, m.user_id, r.level, r.ordinal, m.games, m.wins, m.change"
                " FROM rating_months m JOIN ratings r ON r.guild_id = m.guild_id"
                " AND r.game = m.game AND r.player = m.player"
                " WHERE m.guild_id = ? AND m.game = ? AND m.month = ?"
                " AND m.games > 0 AND (? OR m.user_id IS NOT NULL)"
                " ORDER BY m.change DESC, m.player LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
        total = await self._all(f"SELECT COUNT(*){where}", params)
        return LadderPage(
            [
                LadderRow(
                    rank=offset + index,
                    player=row["player"],
                    user_id=row["user_id"],
                    level=row["level"],
                    ordinal=row["ordinal"],
                    games=row["games"],
                    wins=row["wins"] or 0,
                    change=row["change"],
                )
                for index, row in enumerate(rows, start=1)
            ],
            int(total[0][0]) if total else 0,
        )

    async def player_games(self, guild_id: int, user_id: int) -> list[GameTally]:
        """Per game: the player's finished games and wins here (not those a computer played
        for them while they were away), and their rating and its rated games if rated."""
        rows = await self._all(
            "SELECT r.game, COUNT(*) AS games, SUM(p.won) AS wins,"
            " (SELECT ordinal FROM ratings g WHERE g.guild_id = r.guild_id AND g.game = r.game"
            "  AND g.player = CAST(p.user_id AS TEXT)) AS rating,"
            " (SELECT games FROM ratings g WHERE g.guild_id = r.guild_id AND g.game = r.game"
            "  AND g.player = CAST(p.user_id AS TEXT)) AS rated"
            " FROM result_players p JOIN results r ON r.table_id = p.table_id"
            " WHERE p.user_id = ? AND r.guild_id = ? AND json_extract(r.outcome, '$.abandoned') = 0"
            f" AND NOT {SAT_OUT}"
            " GROUP BY r.game ORDER BY games DESC, r.game",
            (user_id, guild_id),
        )
        return [
            GameTally(row["game"], row["games"], row["wins"] or 0, row["rating"], row["rated"] or 0)
            for row in rows
        ]

    async def rating_trend(
        self, guild_id: int, game: str, user_id: int, limit: int = 200
    ) -> list[tuple[float, float]]:
        """The player's rating (ordinal) after each of their latest rated games, oldest first."""
        rows = await self._all(
            "SELECT finished_at, ordinal FROM rating_history"
            " WHERE guild_id = ? AND game = ? AND player = ?"
            " ORDER BY finished_at DESC LIMIT ?",
            (guild_id, game, str(user_id), limit),
        )
        return [(row[0], row[1]) for row in reversed(rows)]

    async def best_partner(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> PartnerRow | None:
        """The person this player won most often with on one team (then most games together)."""
        rows = await self._all(
            "SELECT q.user_id, COUNT(*) AS games, SUM(p.won) AS wins"
            " FROM result_players p"
            " JOIN result_players q ON q.table_id = p.table_id AND q.team = p.team"
            "  AND q.seat != p.seat"
            " JOIN results r ON r.table_id = p.table_id"
            " WHERE p.user_id = ? AND q.user_id != p.user_id AND r.guild_id = ?"
            " AND (? IS NULL OR r.game = ?) AND json_extract(r.outcome, '$.abandoned') = 0"
            " GROUP BY q.user_id ORDER BY wins DESC, games DESC, q.user_id LIMIT 1",
            (user_id, guild_id, game, game),
        )
        if not rows:
            return None
        return PartnerRow(rows[0]["user_id"], rows[0]["games"], rows[0]["wins"] or 0)

    async def recent_games(
        self, guild_id: int, user_id: int, game: str | None = None, limit: int = 10
    ) -> list[RecentGame]:
        """The player's latest finished (or abandoned) games in this server, newest first."""
        rows = await self._all(
            "SELECT r.table_id, r.game, r.finished_at, r.rated, p.seat, p.won, p.place,"
            f" json_extract(r.outcome, '$.abandoned') AS abandoned, h.delta, {SAT_OUT} AS sat_out"
            " FROM result_players p JOIN results r ON r.table_id = p.table_id"
            " LEFT JOIN rating_history h ON h.table_id = r.table_id"
            "  AND h.player = CAST(p.user_id AS TEXT)"
            " WHERE p.user_id = ? AND r.guild_id = ? AND (? IS NULL OR r.game = ?)"
            " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?",
            (user_id, guild_id, game, game, limit),
        )
        return [
            RecentGame(
                table_id=row["table_id"],
                game=row["game"],
                finished_at=row["finished_at"],
                seat=row["seat"],
                won=bool(row["won"]),
                place=row["place"],
                abandoned=bool(row["abandoned"]),
                rated=bool(row["rated"]),
                delta=row["delta"],
                sat_out=bool(row["sat_out"]),
            )
            for row in rows
        ]

    async def recent_calls(
        self, guild_id: int, user_id: int, game: str | None = None, limit: int = 20
    ) -> list[SeatCalls]:
        """The calls the player made in their latest closed games here, newest first."""
        rows = await self._all(
            "SELECT r.table_id, p.seat, p.calls,"
            " json_extract(r.outcome, '$.abandoned') AS abandoned"
            " FROM result_players p JOIN results r ON r.table_id = p.table_id"
            " WHERE p.user_id = ? AND r.guild_id = ? AND (? IS NULL OR r.game = ?)"
            " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ?",
            (user_id, guild_id, game, game, limit),
        )
        return [
            SeatCalls(
                row["table_id"],
                row["seat"],
                bool(row["abandoned"]),
                None
                if row["calls"] is None
                else [(str(label), ok) for label, ok in json.loads(row["calls"])],
            )
            for row in rows
        ]

    async def keep_calls(self, games: Mapping[int, Sequence[Call]]) -> None:
        """The calls of games recorded before they were kept with their results (counted once
        from a replay), per table: each human seat's, where none are kept yet."""
        async with self.transaction() as db:
            for table_id, calls in games.items():
                async with db.execute(
                    "SELECT seat FROM result_players WHERE table_id = ? AND calls IS NULL",
                    (table_id,),
                ) as cursor:
                    seats = [int(row[0]) for row in await cursor.fetchall()]
                await db.executemany(
                    "UPDATE result_players SET calls = ? WHERE table_id = ? AND seat = ?",
                    [(_calls_json(calls, seat), table_id, seat) for seat in seats],
                )

    # --- server settings ---
    async def guild_settings(self, guild_id: int, default_turn_seconds: int) -> GuildSettings:
        rows = await self._all("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if not rows:
            return GuildSettings(guild_id, default_turn_seconds, False)
        row = rows[0]
        return GuildSettings(
            guild_id,
            row["turn_seconds"],
            bool(row["use_threads"]),
            computers=bool(row["computers"]),
            rated=bool(row["rated"]),
            trick_lines=bool(row["trick_lines"]),
            channels=tuple(int(c) for c in json.loads(row["channels"])),
            defaults=json.loads(row["defaults"]),
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_seconds, use_threads, computers,"
                " rated, trick_lines, channels, defaults) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = excluded.turn_seconds,"
                " use_threads = excluded.use_threads, computers = excluded.computers,"
                " rated = excluded.rated, trick_lines = excluded.trick_lines,"
                " channels = excluded.channels, defaults = excluded.defaults",
                (
                    settings.guild_id,
                    settings.turn_seconds,
                    int(settings.use_threads),
                    int(settings.computers),
                    int(settings.rated),
                    int(settings.trick_lines),
                    json.dumps(list(settings.channels)),
                    json.dumps(settings.defaults, sort_keys=True),
                ),
            )

    # --- a member's own settings, and the turn pings posted (migration 0007) ---
    async def turn_ping_wanted(self, guild_id: int, user_id: int) -> bool:
        rows = await self._all(
            "SELECT turn_ping FROM member_settings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return bool(rows and rows[0][0])

    async def set_turn_ping_wanted(self, guild_id: int, user_id: int, wanted: bool) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO member_settings (guild_id, user_id, turn_ping) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET turn_ping = excluded.turn_ping",
                (guild_id, user_id, int(wanted)),
            )

    async def turn_pings(self, table_id: int) -> list[TurnPing]:
        rows = await self._all(
            "SELECT * FROM turn_pings WHERE table_id = ? ORDER BY user_id", (table_id,)
        )
        return [
            TurnPing(r["table_id"], r["user_id"], r["channel_id"], r["message_id"], r["turn"])
            for r in rows
        ]

    async def save_turn_ping(self, ping: TurnPing) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO turn_pings (table_id, user_id, channel_id, message_id, turn)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id,"
                " turn = excluded.turn",
                (ping.table_id, ping.user_id, ping.channel_id, ping.message_id, ping.turn),
            )

    async def delete_turn_ping(self, table_id: int, user_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "DELETE FROM turn_pings WHERE table_id = ? AND user_id = ?", (table_id, user_id)
            )

    # --- command sync (branch admin): what was last published where ---
    async def command_fingerprint(self, application_id: int, guild_id: int | None) -> str | None:
        """The fingerprint of the commands last synced to a guild (or globally: None)."""
        rows = await self._all(
            "SELECT fingerprint FROM command_syncs WHERE application_id = ? AND scope = ?",
            (application_id, guild_id or 0),
        )
        return str(rows[0][0]) if rows else None

    async def save_command_fingerprint(
        self, application_id: int, guild_id: int | None, fingerprint: str
    ) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO command_syncs (application_id, scope, fingerprint, synced_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (application_id, scope) DO UPDATE SET"
                " fingerprint = excluded.fingerprint, synced_at = excluded.synced_at",
                (application_id, guild_id or 0, fingerprint, time.time()),
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

    # --- the lobby's extras (issue 17: fill, lengths, rematch, sit-in, leaving) -----------------
    async def set_options(self, table_id: int, options: dict[str, Any]) -> TableRow:
        """A lobby's new (validated) options; a table no longer in its lobby is refused
        (LookupError)."""
        async with self.transaction() as db:
            return _table(
                await self._returning(
                    db,
                    "UPDATE game_tables SET options = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'lobby' RETURNING *",
                    (json.dumps(options), time.time(), table_id),
                )
            )

    async def sit_computers(
        self, table_id: int, seats: Sequence[tuple[int, str]]
    ) -> tuple[TableRow, list[SeatRow]]:
        """Computers (``(seat, name)``) in empty seats of a lobby, all or none."""
        async with self.transaction() as db:
            placed = [
                _seat(
                    await self._returning(
                        db,
                        "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, ?, NULL, ?)"
                        " RETURNING *",
                        (table_id, seat, name),
                    )
                )
                for seat, name in seats
            ]
            row = await self._update_table(db, table_id, "updated_at = ?", (time.time(),))
        return row, placed

    async def create_rematch(
        self,
        old: TableRow,
        seed: int,
        seats: Sequence[tuple[int | None, str, bool] | None],
        *,
        rated: bool,
        computers: bool,
        turn_seconds: int,
        trick_lines: bool,
    ) -> TableRow:
        """The lobby of ``old``'s rematch: same server, channel, game, options, level and hints;
        ``rated``, ``computers``, ``turn_seconds`` and ``trick_lines`` are the server's settings
        now. ``seats`` in order as (user id
        or None, name, confirmed), or None for a seat left empty. A second rematch of the same
        table is refused by the database (IntegrityError) unless the first was cancelled."""
        now = time.time()
        host = next(
            seat[0] for seat in seats if seat is not None and seat[0] is not None and seat[2]
        )
        async with self.transaction() as db:
            table = _table(
                await self._returning(
                    db,
                    "INSERT INTO game_tables (guild_id, channel_id, host_id, game, options, seed,"
                    " computer_level, rated, hints, computers, turn_seconds, trick_lines,"
                    " rematch_of, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    (
                        old.guild_id,
                        old.channel_id,
                        host,
                        old.game,
                        json.dumps(old.options),
                        seed,
                        old.computer_level,
                        int(rated),
                        int(old.hints),
                        int(computers),
                        turn_seconds,
                        int(trick_lines),
                        old.id,
                        now,
                        now,
                    ),
                )
            )
            for number, seat in enumerate(seats):
                if seat is None:
                    continue
                user_id, name, confirmed = seat
                await db.execute(
                    "INSERT INTO seats (table_id, seat, user_id, name, confirmed)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (table.id, number, user_id, name, int(confirmed)),
                )
        return table

    async def rematch_of(self, table_id: int) -> int | None:
        """The table opened as the rematch of this one, if any (a cancelled one does not count:
        it frees the way for another)."""
        rows = await self._all(
            "SELECT id FROM game_tables WHERE rematch_of = ? AND status != 'cancelled'",
            (table_id,),
        )
        return int(rows[0][0]) if rows else None

    async def confirm_seat(self, table_id: int, seat: int) -> tuple[TableRow, SeatRow]:
        """A person seated by a rematch confirms their seat."""
        async with self.transaction() as db:
            placed = await self._returning(
                db,
                "UPDATE seats SET confirmed = 1 WHERE table_id = ? AND seat = ? RETURNING *",
                (table_id, seat),
            )
            row = await self._update_table(db, table_id, "updated_at = ?", (time.time(),))
        return row, _seat(placed)

    async def hand_to_computer(
        self, table_id: int, seat: int, name: str, host_id: int | None = None
    ) -> tuple[TableRow, SeatRow]:
        """A person's seat in a running game becomes a computer's (the person is free to go);
        ``host_id`` hands the host role on in the same transaction. The seat holders' log keeps
        who left: the game's record rates the seat's first person with the seat's result."""
        async with self.transaction() as db:
            placed = await self._returning(
                db,
                "UPDATE seats SET user_id = NULL, name = ?, away = 0, confirmed = 1"
                " WHERE table_id = ? AND seat = ? AND user_id IS NOT NULL RETURNING *",
                (name, table_id, seat),
            )
            await _log_holder(db, table_id, seat, None, name)
            row = await self._update_table(
                db,
                table_id,
                "host_id = COALESCE(?, host_id), updated_at = ?",
                (host_id, time.time()),
            )
        return row, _seat(placed)

    async def ask_sit_in(self, table_id: int, seat: int, user_id: int, name: str) -> bool:
        """Keep a request to sit in for a computer; False if the same one is already open."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT OR IGNORE INTO sit_in_requests (table_id, seat, user_id, name, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, seat, user_id, name, time.time()),
            )
            return cursor.rowcount == 1

    async def sit_in_request(self, table_id: int, seat: int, user_id: int) -> str | None:
        """The name of the asker if this request is open, else None."""
        rows = await self._all(
            "SELECT name FROM sit_in_requests WHERE table_id = ? AND seat = ? AND user_id = ?",
            (table_id, seat, user_id),
        )
        return str(rows[0][0]) if rows else None

    async def drop_sit_in(self, table_id: int, seat: int, user_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "DELETE FROM sit_in_requests WHERE table_id = ? AND seat = ? AND user_id = ?",
                (table_id, seat, user_id),
            )

    async def take_seat(
        self, table_id: int, seat: int, user_id: int, name: str
    ) -> tuple[TableRow, SeatRow]:
        """A person takes over a computer's seat mid-game; that seat's open requests and the
        person's other requests at this table end. A seat that is no longer a computer's is
        refused (LookupError)."""
        async with self.transaction() as db:
            placed = await self._returning(
                db,
                "UPDATE seats SET user_id = ?, name = ?, away = 0, confirmed = 1"
                " WHERE table_id = ? AND seat = ? AND user_id IS NULL RETURNING *",
                (user_id, name, table_id, seat),
            )
            await _log_holder(db, table_id, seat, user_id, name)
            await db.execute(
                "DELETE FROM sit_in_requests WHERE table_id = ? AND (seat = ? OR user_id = ?)",
                (table_id, seat, user_id),
            )
            row = await self._update_table(db, table_id, "updated_at = ?", (time.time(),))
        return row, _seat(placed)

    async def seat_holders(self, table_id: int) -> list[SeatHolder]:
        """Who held the seats of the table's game, in the order they took them."""
        rows = await self._all(
            "SELECT seat, after_move, user_id, name FROM seat_holders WHERE table_id = ?"
            " ORDER BY id",
            (table_id,),
        )
        return [
            SeatHolder(int(row["seat"]), int(row["after_move"]), row["user_id"], str(row["name"]))
            for row in rows
        ]

    # --- read access for the query modules (branch history: bot/history.py, bot/privacy.py) --
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Rows of one read-only query, for modules that keep their own SQL (history, privacy);
        like the store's own reads it takes no lock. Writes go through :meth:`transaction`."""
        return await self._all(sql, params)


async def _end_sit_ins(db: aiosqlite.Connection, table_id: int) -> None:
    """A closed table's requests to sit in are moot: kept, they would only keep people's names."""
    await db.execute("DELETE FROM sit_in_requests WHERE table_id = ?", (table_id,))


def _calls_json(calls: Sequence[Call], seat: int) -> str:
    """One seat's calls as kept in ``result_players.calls``: [[label, succeeded], ...]."""
    return json.dumps([[label, ok] for who, label, ok in calls if who == seat])


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
        computer_level=row["computer_level"],
        rated=bool(row["rated"]),
        hints=bool(row["hints"]),
        computers=bool(row["computers"]),
        turn_seconds=row["turn_seconds"],
        trick_lines=None if row["trick_lines"] is None else bool(row["trick_lines"]),
    )


async def _log_holder(
    db: aiosqlite.Connection, table_id: int, seat: int, user_id: int | None, name: str
) -> None:
    """Note (inside the seat change's transaction) that the seat changed hands now."""
    await db.execute(
        "INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)"
        " VALUES (?, ?, (SELECT COUNT(*) FROM moves WHERE table_id = ?), ?, ?)",
        (table_id, seat, table_id, user_id, name),
    )


def _seat(row: aiosqlite.Row) -> SeatRow:
    return SeatRow(
        row["table_id"],
        row["seat"],
        row["user_id"],
        row["name"],
        bool(row["away"]),
        bool(row["confirmed"]),
    )
