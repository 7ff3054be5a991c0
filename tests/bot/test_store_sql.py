"""The store's SQL layer: one statement text for both backends, and the feature modules that
stand on it alone (no driver of their own)."""

from __future__ import annotations

import ast
import re
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.store.base import SqliteDb
from bot.store.sql import POSTGRES, SQLITE, returning, sqlite_sql

STORE = Path(__file__).resolve().parents[2] / "bot" / "store"
# The feature modules written once for both backends.
FOLDED = [
    "history.py",
    "privacy.py",
    "reports.py",
    "results.py",
    "seats.py",
    "settings.py",
    "standings.py",
    "tables.py",
    "tournament_invites.py",
    "tournaments.py",
]
# A driver a folded module names for its backends' moves logs, which close a game's table inside
# their own transactions (their connection handed to the results).
MOVES_LOG_DRIVER = {"results.py": {"aiosqlite"}}
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b")
QUESTION_MARK = re.compile(r"(?<![\w'])\?\d*(?!\w)")


def test_numbered_placeholders_become_sqlite_s_own_numbers() -> None:
    sql = "SELECT json_extract(x, '$.seat') FROM t WHERE a = $1 AND b = $12 AND c = $1"
    assert sqlite_sql(sql) == (
        "SELECT json_extract(x, '$.seat') FROM t WHERE a = ?1 AND b = ?12 AND c = ?1"
    )


async def test_a_number_used_twice_binds_one_value_in_sqlite() -> None:
    async with aiosqlite.connect(":memory:") as connection:
        connection.row_factory = aiosqlite.Row
        db = SqliteDb(connection)
        assert await db.execute("CREATE TABLE t (a INTEGER, b TEXT)") == 0
        assert await db.execute("INSERT INTO t VALUES ($1, $2), ($1, $2)", (7, "x")) == 2
        assert await db.fetch_value("SELECT COUNT(*) FROM t WHERE a = $1", (7,)) == 2
        row = await returning(db, "UPDATE t SET b = $2 WHERE a = $1 RETURNING b", (7, "y"))
        assert row["b"] == "y"
        with pytest.raises(LookupError):
            await returning(db, "UPDATE t SET b = $2 WHERE a = $1 RETURNING b", (8, "y"))
        lists = f"SELECT COUNT(*) FROM t WHERE a {SQLITE.one_of('$1', 'bigint')}"
        assert await db.fetch_value(lists, (SQLITE.values([6, 7]),)) == 2
        with pytest.raises(sqlite3.IntegrityError):
            await db.execute("CREATE UNIQUE INDEX one ON t (a)")


def test_only_postgres_locks_rows() -> None:
    assert (SQLITE.for_update, SQLITE.for_share) == ("", "")
    assert (POSTGRES.for_update, POSTGRES.for_share) == (" FOR UPDATE", " FOR SHARE")


@pytest.mark.parametrize("name", FOLDED)
def test_a_folded_feature_speaks_through_the_layer_alone(name: str) -> None:
    """No driver, no ``?`` placeholder, no SQL twin under postgres/: the one module serves
    both."""
    source = (STORE / name).read_text(encoding="utf-8")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    drivers = {"aiosqlite", "sqlite3", "asyncpg"} - MOVES_LOG_DRIVER.get(name, set())
    assert not imported & drivers, imported
    assert not [s for s in _strings(STORE / name) if SQL.search(s) and QUESTION_MARK.search(s)]
    twin = STORE / "postgres" / name
    assert not twin.exists() or not [s for s in _strings(twin) if SQL.search(s)], "no SQL twin"


def _strings(path: Path) -> list[str]:
    return [
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
