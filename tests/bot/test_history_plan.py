"""The history of one server reads that server's results only, however many other servers have
(real SQLite: the query plan, and a small server among many games of another)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot import history
from bot.history import PAGE_SIZE
from bot.store import Store

BIG, SMALL = 1, 2


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "db.sqlite3")
    yield opened
    await opened.close()


async def fill(store: Store, games: int, small_every: int) -> list[int]:
    """``games`` finished games, one in ``small_every`` of the small server; its table ids."""
    small = []
    async with store.transaction() as db:
        for table_id in range(1, games + 1):
            guild = SMALL if table_id % small_every == 0 else BIG
            game = "tarneeb" if table_id % 3 else "tuppi"
            small += [table_id] if guild == SMALL else []
            await db.execute(
                "INSERT INTO game_tables (id, guild_id, channel_id, host_id, game, options, seed,"
                " first_dealer, status, created_at, updated_at)"
                " VALUES (?, ?, 5, 7, ?, '{}', 1, 0, 'finished', 0, 0)",
                (table_id, guild, game),
            )
            await db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, 0, 7, 'Ann')",
                (table_id,),
            )
            outcome = {"winners": [0], "score": [1, 0], "abandoned": False}
            await db.execute(
                "INSERT INTO results (table_id, guild_id, game, outcome, finished_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, guild, game, json.dumps(outcome), float(table_id)),
            )
    return small


async def plans(store: Store, monkeypatch: pytest.MonkeyPatch, **query: Any) -> list[str]:
    """The query plan of each statement one history page runs."""
    seen: list[tuple[str, Sequence[Any]]] = []
    read = store._all

    async def recording(sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        seen.append((sql, params))
        return await read(sql, params)

    monkeypatch.setattr(store, "_all", recording)
    await history.history_page(store, SMALL, **query)
    monkeypatch.undo()
    out = []
    for sql, params in seen:
        rows = await store.fetch(f"EXPLAIN QUERY PLAN {sql}", params)
        out.append(" / ".join(str(row["detail"]) for row in rows))
    return out


@pytest.mark.parametrize("game", [None, "tuppi"])
async def test_a_server_s_history_page_walks_only_that_server_s_results(
    store: Store, monkeypatch: pytest.MonkeyPatch, game: str | None
) -> None:
    await fill(store, 30, 10)
    page_plan = (await plans(store, monkeypatch, game=game))[0]
    assert "SCAN r" not in page_plan, page_plan
    assert "USING INDEX results_guild" in page_plan and "(guild_id=?" in page_plan, page_plan
    assert "TEMP B-TREE" not in page_plan, "no sort: the index gives the order"


async def test_a_small_server_s_history_is_its_own_games_newest_first(store: Store) -> None:
    small = await fill(store, 3000, 250)
    first = await history.history_page(store, SMALL)
    assert [g.table_id for g in first.games] == small[::-1][:PAGE_SIZE]
    assert first.more
    second = await history.history_page(store, SMALL, 1)
    assert [g.table_id for g in second.games] == small[::-1][PAGE_SIZE:]
    assert not second.more
    tuppi = await history.history_page(store, SMALL, game="tuppi")
    assert [g.table_id for g in tuppi.games] == [t for t in small[::-1] if t % 3 == 0]
