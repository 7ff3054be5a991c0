"""Command line: ``python -m bot.report_export DIR [--database PATH]``.

Writes every position players reported ("Report this hand") from the bot's database
(``--database``: a SQLite file or a ``postgresql://`` URL; else ``DATABASE_URL``, else
``DATABASE_PATH``, else ``data/cardtable.sqlite3``, as the bot chooses) into ``DIR``, one JSON
file per reported play (reports of one play by several players make one file, with their count):
the fixtures the blunder suite runs (``tests/games/blunder_reports/``, ``python -m
bench.blunders --reports DIR``). A report holds only what the computer's seat saw, so a fixture
may be shared. Exit code 0, or 2 when the database cannot be read. It reads the database read-only
(not through the bot's store, which would migrate it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from games.reports import seen_of

DEFAULT_DATABASE = "data/cardtable.sqlite3"
EXIT_UNREADABLE = 2
QUERY = (
    "SELECT table_id, hand, trick, seat, MIN(position), COUNT(*) FROM hand_reports"
    " GROUP BY table_id, hand, trick, seat ORDER BY table_id, hand, trick, seat"
)


def read_reports(database: str) -> list[tuple[Any, ...]]:
    """The reports, one row per reported play, from a SQLite file or a PostgreSQL URL."""
    if database.startswith(("postgresql://", "postgres://")):
        return asyncio.run(_postgres_rows(database))
    if not Path(database).is_file():
        raise OSError(f"no database at {database}")
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return list(db.execute(QUERY).fetchall())


async def _postgres_rows(url: str) -> list[tuple[Any, ...]]:
    import asyncpg  # the bot's PostgreSQL driver, only when it is asked for

    connection = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await connection.fetch(QUERY)]
    finally:
        await connection.close()


def export(database: str, folder: Path) -> list[Path]:
    """Write the reported positions of ``database`` into ``folder``; the files written."""
    rows = read_reports(database)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for table_id, hand, trick, seat, text, count in rows:
        position = json.loads(text)
        seen_of(position)  # a position the suite cannot read is not written
        position["reports"] = count
        path = folder / f"{position['game']}-{table_id}-{hand}-{trick}-{seat}.json"
        path.write_text(json.dumps(position, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.report_export", description=__doc__)
    parser.add_argument("folder", type=Path, help="where the fixtures go (created if needed)")
    parser.add_argument(
        "--database",
        default=os.environ.get("DATABASE_URL", "").strip()
        or os.environ.get("DATABASE_PATH", "").strip()
        or DEFAULT_DATABASE,
        help="the bot's SQLite file or PostgreSQL URL (default: DATABASE_URL, else "
        "DATABASE_PATH, else data/cardtable.sqlite3)",
    )
    args = parser.parse_args(argv)
    try:
        written = export(args.database, args.folder)
    except Exception as error:  # an unreadable database or report: said, not a traceback
        print(f"cannot export the reports: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    print(f"{len(written)} reported positions written to {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
