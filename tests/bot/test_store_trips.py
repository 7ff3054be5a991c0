"""SQLite's calls run on the connection's own thread, and each trip there and back costs the bot
a thread hand-off both ways: a query is one trip, and so is a move's whole transaction."""

from __future__ import annotations

from typing import Any

import aiosqlite
import pytest

from bot.store import Store


def trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The trips to any SQLite connection's thread, from now on (what each ran)."""
    made: list[str] = []
    real = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(getattr(fn, "__name__", repr(fn)))
        return await real(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return made


async def test_a_query_is_one_trip_and_so_is_a_move(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await store.create_table(
        guild_id=1,
        channel_id=2,
        host_id=3,
        game="tiny",
        options={},
        seed=5,
        seats=[(3, "h"), (None, "cpu")],
    )
    await store.start_game(table.id, 0, [{"hands": [["AS"], ["AH"]], "stock": []}])
    made = trips(monkeypatch)
    assert await store.seats(table.id)
    assert len(made) == 1, made
    made.clear()
    row, _ = await store.append_move(table.id, 0, 1, {"action": "play", "card": "AH"}, None)
    assert row.id == table.id
    assert len(made) == 1, f"begin, the move, the table's row returned, commit: {made}"
