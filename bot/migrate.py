"""``python -m bot.migrate SQLITE_PATH POSTGRES_URL``: move the bot's SQLite database to PostgreSQL.

Stop the bot first. The SQLite file is brought to the bot's newest schema (as a start of the bot
would), the PostgreSQL database is migrated to the same version, and must hold no row yet. Every
table is then copied in one PostgreSQL transaction, read from one SQLite snapshot; the id
sequences are set past the copied ids, and each table's row count is compared before the commit:
on any difference nothing is kept and the tool exits 1, naming the tables. Exit 2: refused
(arguments, a database that is not the bot's, a target that is not empty).
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import ForeignDatabase, Store
from bot.store.postgres import PostgresStore
from bot.store.postgres.base import VERSIONS_TABLE

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_REFUSED = 2
BATCH = 5000  # rows per COPY
USAGE = "usage: python -m bot.migrate SQLITE_PATH POSTGRES_URL"


class Refused(Exception):
    """The migration cannot start; the message says why and what to do."""


class Mismatch(Exception):
    """The copy does not hold what the source does: nothing was kept."""


async def tables_in_order(db: asyncpg.Connection) -> list[str]:
    """The bot's tables, each after those its foreign keys point to."""
    names = [
        str(r[0])
        for r in await db.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename != $1 ORDER BY tablename",
            VERSIONS_TABLE,
        )
    ]
    needs: dict[str, set[str]] = {name: set() for name in names}
    for r in await db.fetch(
        "SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent"
        " FROM pg_constraint c WHERE c.contype = 'f'"
    ):
        if r["child"] in needs and r["parent"] != r["child"]:
            needs[r["child"]].add(r["parent"])
    ordered: list[str] = []
    while needs:
        ready = sorted(name for name, parents in needs.items() if parents <= set(ordered))
        ordered.extend(ready)
        for name in ready:
            del needs[name]
    return ordered


async def columns_of(db: asyncpg.Connection, table: str) -> list[str]:
    return [
        str(r[0])
        for r in await db.fetch(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
    ]


def read_rows(
    source: sqlite3.Connection, table: str, columns: Sequence[str]
) -> Iterator[list[Any]]:
    """The table's rows in batches, in key order (a table's own references point backwards)."""
    cursor = source.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid")
    while batch := cursor.fetchmany(BATCH):
        yield [tuple(row) for row in batch]


async def copy_rows(
    target: asyncpg.Connection, table: str, columns: Sequence[str], rows: list[Any]
) -> None:
    await target.copy_records_to_table(table, records=rows, columns=list(columns))


async def check_empty(target: asyncpg.Connection, tables: Sequence[str]) -> None:
    full = []
    for table in tables:
        count = int(await target.fetchval(f"SELECT COUNT(*) FROM {table}"))
        if count:
            full.append(f"{count} in {table}")
    if full:
        raise Refused(
            f"the PostgreSQL database already holds rows ({', '.join(full[:3])}"
            f"{' ...' if len(full) > 3 else ''}): migrate into a new, empty database"
            " (createdb), or drop this one's tables first"
        )


async def fix_sequences(target: asyncpg.Connection) -> None:
    """Identity columns go on after the largest id copied (else the next table would be 1)."""
    for r in await target.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
    ):
        table, column = r["table_name"], r["column_name"]
        await target.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
            f" COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
        )


async def migrate(
    sqlite_path: Path, url: str, say: Callable[[str], None] = print
) -> dict[str, int]:
    """Copy everything; the row count of each table. Raises Refused or Mismatch."""
    if not sqlite_path.is_file():
        raise Refused(f"{str(sqlite_path)!r} is not a file: give the bot's DATABASE_PATH")
    try:
        lite = await Store.open(sqlite_path)  # checks it is the bot's; brings it up to date
    except (ForeignDatabase, sqlite3.DatabaseError) as error:
        raise Refused(f"{str(sqlite_path)!r}: {error}") from None
    await lite.close()
    try:
        store = await PostgresStore.open(url)
    except ForeignDatabase as error:
        raise Refused(f"the PostgreSQL database {error}") from None
    except (OSError, asyncpg.PostgresError) as error:
        raise Refused(f"cannot open the PostgreSQL database: {error}") from None
    await store.close()
    source = sqlite3.connect(sqlite_path)
    target = await asyncpg.connect(url)
    try:
        source.execute("BEGIN")  # one snapshot of the whole file
        lite_version = int(source.execute("PRAGMA user_version").fetchone()[0])
        pg_version = int(await target.fetchval(f"SELECT MAX(version) FROM {VERSIONS_TABLE}"))
        if lite_version != pg_version:
            raise Refused(f"schema versions differ: SQLite {lite_version}, PostgreSQL {pg_version}")
        async with target.transaction():
            tables = await tables_in_order(target)
            await check_empty(target, tables)
            counts: dict[str, int] = {}
            for table in tables:
                columns = await columns_of(target, table)
                for rows in read_rows(source, table, columns):
                    await copy_rows(target, table, columns, rows)
                counts[table] = int(source.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
            await fix_sequences(target)
            wrong = []
            for table, expected in counts.items():
                found = int(await target.fetchval(f"SELECT COUNT(*) FROM {table}"))
                if found != expected:
                    wrong.append(f"{table}: {expected} rows in SQLite, {found} in PostgreSQL")
            if wrong:
                raise Mismatch("; ".join(wrong))
        for table, count in counts.items():
            say(f"{table}: {count} rows")
        return counts
    finally:
        source.close()
        await target.close()


def main(argv: Sequence[str]) -> int:
    return asyncio.run(run(argv))


async def run(argv: Sequence[str]) -> int:
    """The command: its lines, and its exit code."""
    if len(argv) != 2 or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return EXIT_REFUSED
    started = time.monotonic()
    try:
        counts = await migrate(Path(argv[0]), argv[1])
    except Refused as error:
        print(f"not migrated: {error}", file=sys.stderr)
        return EXIT_REFUSED
    except Mismatch as error:
        print(f"not migrated, nothing was kept: row counts differ ({error})", file=sys.stderr)
        return EXIT_MISMATCH
    print(
        f"migrated {sum(counts.values())} rows of {len(counts)} tables in "
        f"{time.monotonic() - started:.1f} s; start the bot with DATABASE_URL set to this database"
    )
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
