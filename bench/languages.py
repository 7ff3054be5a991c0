"""What reading the bot in a language costs: ``python -m bench.languages [--calls N]
[--games tarneeb,thunee,tunge]``.

Prints, for each shipped language: the first load of its catalogues (the ``.po`` compiled in
memory, once per process), then per call: a refusal worded by code (``cogs/refusals.py``), and
the reader's language looked up (``SessionManager.reader_language``: the person's and the
server's setting, read from a real SQLite database in a scratch folder). A refusal is answered
within Discord's 3 seconds; these show how little of that the language takes.

Then, for English and each shipped language, the table message and a hand of a game in its play
(``--games``: Tarneeb by default; ``thunee,tunge`` for those), the texts every table edit
renders: each render from a cold phrasebook (the games' texts looked up afresh) and as a redraw
finds it (the phrases of the last render cached).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot import i18n
from bot.config import Secret, Settings
from bot.sessions import LiveTable, SessionManager, UserError
from bot.store import SeatRow, Store, TableRow
from cogs.engine_words import said
from cogs.refusals import refusal_text
from cogs.render import hand_embed, table_embed
from games.registry import get_game

SHIPPED = ("ar", "fi", "no")


def load_ms(lang: str) -> float:
    i18n.translator_for.cache_clear()
    start = time.perf_counter()
    i18n.translator_for(lang)
    i18n.translator_for(lang, i18n.COMMANDS_DOMAIN)
    return (time.perf_counter() - start) * 1000


def refusal_us(lang: str, calls: int) -> float:
    error = UserError("It is Bob's turn.", code="not_your_turn", params={"turn": "Bob"})
    refusal_text(error, lang)
    start = time.perf_counter()
    for _ in range(calls):
        refusal_text(error, lang)
    return (time.perf_counter() - start) / calls * 1e6


async def lookup_us(calls: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        store = await Store.open(path)
        sessions = SessionManager(
            store, Settings(discord_token=Secret("x.y.z"), database_path=path)
        )
        try:
            await sessions.set_user_language(1, "fi")
            await sessions.change_guild_settings(7, language="ar")
            times = []
            for user in range(calls):
                start = time.perf_counter()
                await sessions.reader_language(7, user % 2, "no")
                times.append(time.perf_counter() - start)
            return statistics.median(times) * 1e6
        finally:
            await sessions.shutdown()
            await store.close()


def game_in_play(name: str) -> LiveTable:
    """A table of the game in its play, its default seats named: Tarneeb after its auction and
    a few tricks, another game after 20 random moves."""
    players = get_game(name).seat_count(None)
    row = TableRow(1, 1, 2, 3, 10, name, {}, 5, 0, "playing", None, 0, 0)
    names = ("Alice", "Bob", "Carol", "Dan", "Erin", "Fay")[:players]
    table = LiveTable(row, {s: SeatRow(1, s, 10 + s, n, False) for s, n in enumerate(names)})
    game = get_game(name).new(seed=5)
    rng = random.Random(5)
    moved = 0
    while game.status == "in_progress" and (
        len(getattr(game, "tricks", ())) < 5 if name == "tarneeb" else moved < 20
    ):
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_moves(seat)))
        moved += 1
    table.game = game
    return table


def render_us(name: str, lang: str, calls: int, cold: bool) -> float:
    """One table message and one hand, rendered in ``lang`` (µs per pair)."""
    table = game_in_play(name)
    seat = (table.game.to_act() or (0,))[0] if table.game is not None else 0
    times = []
    for _ in range(calls):
        if cold:
            said.cache_clear()
        start = time.perf_counter()
        table_embed(table, lang=lang)
        hand_embed(table, seat, lang=lang)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--games", default="tarneeb", help="comma-separated, e.g. thunee,tunge")
    args = parser.parse_args()
    calls = args.calls
    for lang in SHIPPED:
        print(
            f"{lang}: catalogues loaded in {load_ms(lang):.1f} ms (once); "
            f"a refusal worded in {refusal_us(lang, calls):.1f} µs"
        )
    print(f"reader's language looked up in {asyncio.run(lookup_us(calls)):.0f} µs (median)")
    for name in args.games.split(","):
        title = get_game(name).title
        for lang in (i18n.ENGLISH, *SHIPPED):
            cold = render_us(name, lang, calls // 4, True)
            warm = render_us(name, lang, calls // 4, False)
            print(
                f"{lang}: a {title} table message and hand rendered in {cold:.0f} µs "
                f"(phrasebook cold), {warm:.0f} µs (as a redraw), median"
            )


if __name__ == "__main__":
    main()
