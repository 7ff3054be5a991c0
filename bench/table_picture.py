"""The table picture's cost: CPU time to draw one, and its size, per game.

    python -m bench.table_picture [--games N]
    python -m bench.table_picture --golden tests/bot/pictures/golden   # rewrite the goldens
    python -m bench.table_picture --docs docs      # the README's Thunee and Tunge pictures

Plays ``N`` (3) seeded games of every game (computer players at the normal level) and draws the
public picture after every move, as the table message would (:func:`bot.pictures.draw_table`).
Per game: pictures drawn, CPU time per picture (median and 95th percentile, process time, so
another program's load does not count), and bytes per picture (median and largest). The first
picture of a process also cuts and scales the card sprites and chooses the palette: it is drawn
before the timing and reported apart ("warm-up").

``--golden DIR`` writes the pictures of the fixed positions (:data:`POSITIONS`) that the golden
image tests compare with; ``--docs DIR`` the README's pictures of a Thunee and a Tunge table
(:data:`DOCS`, real games too).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.pictures import Picture, Seating, draw_table
from cogs.table_picture import table_lines
from games.base import Game
from games.levels import choose_move
from games.registry import get_game
from games.views import TableView

NAMES = ("Alice", "محمد", "Carol", "Dan", "Eve", "Frank")  # Arabic: shaped, right to left
GAMES: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("thunee", {}),
    ("thunee", {"players": 6}),
    ("tarneeb", {}),
    ("tarneeb_egyptian", {}),
    ("tuppi", {}),
    ("norwegian_whist", {}),
    ("tunge", {}),
)
MAX_MOVES = 400


@dataclass(frozen=True)
class Position:
    """A seeded game (normal computer players) stopped after ``moves`` moves."""

    name: str
    game: str
    seed: int
    moves: int
    options: Mapping[str, Any] = field(default_factory=dict)


POSITIONS: tuple[Position, ...] = (
    Position("tarneeb_trick", "tarneeb", 5, 30),
    Position("tarneeb_auction", "tarneeb", 6, 2),
    Position("egyptian_trick", "tarneeb_egyptian", 5, 33),
    Position("thunee_trick", "thunee", 5, 30),
    Position("thunee_six", "thunee", 5, 25, {"players": 6}),
    Position("tuppi_trick", "tuppi", 5, 40),
    Position("whist_trick", "norwegian_whist", 5, 30),
    Position("tunge_pile", "tunge", 3, 12),
    Position("tunge_three", "tunge", 7, 20, {"players": 3}),
)


DOCS = {"thunee.png": "thunee_trick", "tunge.png": "tunge_three"}


def seating(game: Game) -> Seating:
    players = len(game.view(None).hand_sizes)
    away = tuple(seat == 2 for seat in range(players))
    title = f"{type(game).title} · table #7"
    return Seating(NAMES[:players], away, type(game).teams, title)


def played(game_name: str, options: Mapping[str, Any], seed: int) -> Iterator[Game]:
    """The game after each move of a seeded game (the same object, moved on)."""
    game = get_game(game_name).new(dict(options), seed=seed)
    rng = random.Random(seed)
    yield game
    for _ in range(MAX_MOVES):
        if game.status != "in_progress" or not game.to_act():
            return
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))
        yield game


def at(position: Position) -> Game:
    """The game of a fixed position."""
    last = None
    for moves, game in enumerate(played(position.game, position.options, position.seed)):
        last = game
        if moves == position.moves:
            break
    assert last is not None
    return last


def picture_at(position: Position) -> Picture:
    game = at(position)
    return draw_table(game.view(None), seating(game), game.status == "in_progress")


def write_golden(folder: Path, names: Mapping[str, str] | None = None) -> list[Path]:
    """The pictures of :data:`POSITIONS` (or of ``names``: file name → position name)."""
    folder.mkdir(parents=True, exist_ok=True)
    by_name = {position.name: position for position in POSITIONS}
    chosen = names or {f"{position.name}.png": position.name for position in POSITIONS}
    written = []
    for filename, name in chosen.items():
        path = folder / filename
        path.write_bytes(picture_at(by_name[name]).png)
        written.append(path)
    return written


@dataclass
class Figures:
    """One game's measurements."""

    seconds: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(games: int) -> dict[str, Figures]:
    found: dict[str, Figures] = {}
    for game_name, options in GAMES:
        label = game_name + (f" ({options['players']} seats)" if "players" in options else "")
        figures = found.setdefault(label, Figures())
        for seed in range(games):
            for game in played(game_name, options, seed):
                view: TableView = game.view(None)
                seats = seating(game)
                live = game.status == "in_progress"
                started = time.process_time()  # the table lines in words, as the bot draws
                picture = draw_table(view, seats, live, table_lines(view, seats))
                figures.seconds.append(time.process_time() - started)
                figures.sizes.append(len(picture.png))
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.table_picture")
    parser.add_argument("--games", type=int, default=3, help="seeded games per game")
    parser.add_argument("--golden", type=Path, help="write the golden pictures to this folder")
    parser.add_argument("--docs", type=Path, help="write the README's pictures to this folder")
    args = parser.parse_args(argv)
    if args.golden or args.docs:
        written = write_golden(args.golden) if args.golden else write_golden(args.docs, DOCS)
        for path in written:
            print(path)
        return 0
    started = time.process_time()
    picture_at(POSITIONS[0])
    warm = (time.process_time() - started) * 1000
    print(f"warm-up (sprites cut and scaled, palette chosen): {warm:.0f} ms")
    heads = ("pictures", "median ms", "p95 ms", "KB med", "KB max")
    print(f"{'game':<22} " + " ".join(f"{head:>9}" for head in heads))
    for label, figures in measure(args.games).items():
        ms = [s * 1000 for s in figures.seconds]
        print(
            f"{label:<22} {len(ms):>9} {statistics.median(ms):>9.1f} "
            f"{percentile(ms, 0.95):>9.1f} {statistics.median(figures.sizes) / 1000:>9.1f} "
            f"{max(figures.sizes) / 1000:>9.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
