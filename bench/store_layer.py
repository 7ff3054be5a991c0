"""What the store's SQL layer (:mod:`bot.store.sql`) costs: a feature's call through it against
the same statements written on the driver itself, as the store's features were before the
layer, interleaved in one process on one database.

``python -m bench.store_layer [--calls 2000] [--url postgresql://...]``

For each backend (SQLite in a temporary file; PostgreSQL at ``--url`` or a throwaway server, as
``bench.store_backends`` starts one): a read (a table's seats) and a write (the turn deadline,
one ``UPDATE ... RETURNING`` in a transaction), each ``--calls`` times both ways, alternately;
the medians and their difference.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.store_backends import postgres
from bot.store import Store, StoreInterface
from bot.store.base import seat_row, table_row
from bot.store.postgres import PostgresStore

Call = Callable[[], Awaitable[object]]


def driver_calls(store: Any, table_id: int) -> tuple[Call, Call]:
    """The read and the write as the hand-written backend code ran them (a table's change
    written from its assignments, as the backends' own code did)."""
    assignments = "turn_deadline = {}"
    if isinstance(store, PostgresStore):
        seats_sql = "SELECT * FROM seats WHERE table_id = $1 ORDER BY seat"

        async def read() -> object:
            return [seat_row(r) for r in await store._pool.fetch(seats_sql, table_id)]

        async def write() -> object:
            async with store.transaction() as db:
                sql = f"UPDATE game_tables SET {assignments.format('$1')} WHERE id = $2 RETURNING *"
                return table_row(await db.fetchrow(sql, 5.0, table_id))

    else:
        seats_sql = "SELECT * FROM seats WHERE table_id = ? ORDER BY seat"

        async def read() -> object:
            return [seat_row(r) for r in await store._db.execute_fetchall(seats_sql, (table_id,))]

        async def write() -> object:
            async with store.transaction() as db:
                sql = f"UPDATE game_tables SET {assignments.format('?')} WHERE id = ? RETURNING *"
                rows = list(await db.execute_fetchall(sql, (5.0, table_id)))
                return table_row(rows[0])

    return read, write


async def measure(name: str, store: StoreInterface, calls: int) -> None:
    table = await store.create_table(
        guild_id=1, channel_id=1, host_id=1, game="tarneeb", options={}, seed=1,
        seats=[(1, "p0"), (2, "p1"), (None, "computer"), (4, "p3")],
    )  # fmt: skip
    driver_read, driver_write = driver_calls(store, table.id)

    async def layer_read() -> object:
        return await store.seats(table.id)

    async def layer_write() -> object:
        return await store.set_deadline(table.id, 5.0)

    pairs = {"read": (layer_read, driver_read), "write": (layer_write, driver_write)}
    figures = []
    for label, (layer, driver) in pairs.items():
        times: dict[Call, list[float]] = {layer: [], driver: []}
        for i in range(calls):
            for call in (layer, driver) if i % 2 else (driver, layer):
                started = time.perf_counter()
                await call()
                times[call].append(time.perf_counter() - started)
        through, direct = (statistics.median(times[c]) * 1_000_000 for c in (layer, driver))
        figures.append(
            f"{label} {through:,.1f} µs through the layer, {direct:,.1f} µs on the driver"
            f" ({through - direct:+.1f} µs)"
        )
    print(f"{name:10} " + "; ".join(figures))


async def main(calls: int, url: str, folder: str) -> None:
    for name, opening in (
        ("sqlite", Store.open(Path(folder) / "layer.sqlite3")),
        ("postgresql", PostgresStore.open(url)),
    ):
        store: Any = await opening
        try:
            await measure(name, store, calls)
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="of each call, each way")
    parser.add_argument("--url", help="an empty PostgreSQL database (else a throwaway server)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, postgres(arguments.url) as (url, _):
        asyncio.run(main(arguments.calls, url, folder))
