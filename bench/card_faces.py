"""What card pictures cost: drawing, image sizes, start-up uploads, and the board's length.

    python -m bench.card_faces

- drawing: the 53 PNGs (52 cards and a back), time and bytes each;
- start-up: the real bot against the in-repo fake Discord, first start (lists, uploads all 53)
  and second start (lists, uploads none), the time until every picture is known;
- length: the longest table message and hand of a played Tarneeb game with pictures, against
  Discord's limits (4096 characters of description, 1024 per field, 6000 per embed).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import discord

from bot.card_art import emoji_names, emoji_png
from bot.sessions import LiveTable
from cogs.card_faces import FACES
from cogs.render import hand_embed, table_embed


def drawing() -> None:
    emoji_png.cache_clear()
    started = time.perf_counter()
    sizes = [len(emoji_png(name)) for name in emoji_names()]
    spent = time.perf_counter() - started
    print(
        f"drawing: {len(sizes)} PNGs in {spent:.2f} s; bytes min {min(sizes)}, "
        f"median {statistics.median(sizes):.0f}, max {max(sizes)} (limit 262144), "
        f"total {sum(sizes)}"
    )


async def start_up() -> None:
    from tests.conftest import restored_endpoints, start_bot, stop_bot
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fake:
        with tempfile.TemporaryDirectory() as folder, restored_endpoints():
            env = fake.env(DATABASE_PATH=str(Path(folder) / "db.sqlite3"), LOG_LEVEL="WARNING")
            for run in ("first", "second"):
                emoji_png.cache_clear()  # a new process draws them again
                bot = await start_bot(env)
                try:
                    assert FACES.task is not None
                    await FACES.task
                    print(
                        f"start-up ({run}): {len(FACES.emojis)} pictures known, "
                        f"{FACES.created} uploaded, {FACES.failed} failed, "
                        f"{FACES.seconds:.2f} s in the background"
                    )
                finally:
                    await stop_bot(bot)


def table_for(game_name: str, options: dict[str, object]) -> LiveTable:
    from bot.store import SeatRow, TableRow
    from games.registry import get_game

    game = get_game(game_name).new(options, seed=5)
    row = TableRow(
        1, 1, 2, 3, 100, game_name, options, 5, game.first_dealer, "playing", 1_800_000_000, 0, 0
    )
    seats = {
        s: SeatRow(1, s, 100 + s, f"Player number {s + 1}", False) for s in range(game.players)
    }
    table = LiveTable(row, seats)
    table.game = game
    return table


def lengths() -> None:
    """Every game played out by computers; the longest board and hand seen."""
    from games.levels import choose_move

    FACES.clear()
    FACES.emojis.update(  # ids as long as Discord's (19 digits)
        {
            name: discord.PartialEmoji(name=name, id=10**18 + n)
            for n, name in enumerate(emoji_names())
        }
    )
    games: list[tuple[str, dict[str, object]]] = [
        ("thunee", {"players": 6}),
        ("thunee", {}),
        ("tarneeb", {}),
        ("tarneeb_egyptian", {}),
        ("tuppi", {"max_hands": 4}),
        ("norwegian_whist", {}),
        ("tunge", {"players": 4}),
    ]
    for name, options in games:
        table = table_for(name, options)
        game = table.game
        assert game is not None
        rng = random.Random(1)
        board_max = hand_max = field_max = description_max = 0
        while game.status == "in_progress" and table.moves < 3000:
            board = table_embed(table)
            board_max = max(board_max, len(board))
            description_max = max(description_max, len(board.description or ""))
            field_max = max([field_max, *(len(f.value or "") for f in board.fields)])
            for seat in range(table.seat_count):
                hand_max = max(hand_max, len(hand_embed(table, seat)))
            seat = game.waiting_for()[0]
            table.remember(game.apply(seat, choose_move(game, seat, rng)))
            table.moves += 1
        print(
            f"length {name} {options or ''}: {table.moves} moves; board max {board_max} of 6000,"
            f" description max {description_max} of 4096, field max {field_max} of 1024,"
            f" hand max {hand_max} of 6000"
        )
    FACES.clear()


def main() -> None:
    drawing()
    asyncio.run(start_up())
    lengths()


if __name__ == "__main__":
    main()
