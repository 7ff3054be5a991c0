"""The history bench fills a database the bot's own store reads (so the bench cannot rot)."""

from __future__ import annotations

from pathlib import Path

from bench.history_page import fill, migrate
from bot import history
from bot.store import Store


async def test_the_bench_fills_games_the_history_lists_with_their_seats(tmp_path: Path) -> None:
    path = tmp_path / "bench.sqlite3"
    await migrate(path)
    fill(path, games=200, players=20, guilds=1)
    store = await Store.open(path)
    try:
        page = await history.history_page(store, 1)
        assert len(page.games) == history.PAGE_SIZE and page.more
        assert all(record.seat_count == 4 for record in page.games)
        everyone = await history.history_page(store, 1, user_id=11)
        assert everyone.games, "a player's own page lists their games"
        assert all(any(s.user_id == 11 for s in record.seats) for record in everyone.games)
    finally:
        await store.close()
