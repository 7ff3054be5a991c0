"""A ``/history`` replay's cost: building one, finding it in the cache, and a click's step.

    python -m bench.replay [--steps N]

Plays one seeded game of each game (computer players at the normal level) to its end (or
:data:`MAX_MOVES`), then, as the replay cog does off the event loop: builds its replay once
(:func:`bot.replay.build_replay`), takes the cache's key of the export (each click does), and
words and draws ``N`` (20) steps in each language (:func:`cogs.replay.replay_message`: the
step's embed, controls and picture). CPU time (process time, so another program's load does not
count): the build, the key, and per step the median and 95th percentile per language. The first
picture of a process also cuts the card sprites and chooses the palette: it is drawn before the
timing; a language's first pictures of a game still draw its words for the first time (the p95).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from bot.history import Export
from bot.i18n import LANGUAGES
from bot.replay import build_replay
from cogs.replay import _key, replay_message
from games.base import Move
from games.levels import choose_move
from games.registry import get_game
from games.transcript import Transcript

GAMES = ("thunee", "tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist", "tunge")
NAMES = ("Alice", "محمد", "Carol", "Dan", "Eve", "Frank")
MAX_MOVES = 3000


def played(name: str, seed: int = 1) -> Export:
    """A seeded game of ``name`` played to its end, exported as ``/history`` exports it."""
    game = get_game(name).new({}, seed=seed)
    rng = random.Random(seed)
    moves: list[tuple[int, Move]] = []
    while game.status == "in_progress" and len(moves) < MAX_MOVES:
        seat = game.to_act()[0]
        move = choose_move(game, seat, rng)
        game.apply(seat, move)
        moves.append((seat, move))
    transcript = Transcript(name, {}, game.first_dealer, list(game.deals), moves).to_json()
    return Export(1, name, transcript, NAMES[: len(game.view(None).hand_sizes)])


def cpu_ms(work: Callable[[], Any]) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


def p95(values: Sequence[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.95))]


def row(name: str, steps: int) -> str:
    """One game's line: its moves and steps, the build, the key, and each language's steps."""
    exported = played(name)
    start = time.process_time()
    replay = build_replay(1, exported.transcript, exported.names)
    build = (time.process_time() - start) * 1000
    key = statistics.median(cpu_ms(partial(_key, exported)) for _ in range(20))
    rng = random.Random(name)
    indexes = [rng.randrange(len(replay.steps)) for _ in range(steps)]
    cells = []
    for lang in LANGUAGES:
        times = [cpu_ms(partial(replay_message, replay, i, lang)) for i in indexes]
        cells.append(f"{statistics.median(times):>6.1f}/{p95(times):<6.1f}")
    moves = len(exported.transcript["moves"])
    head = f"{name:<17} {moves:>5} {len(replay.steps):>5} {build:>8.0f} {key:>6.2f}"
    return f"{head} {' '.join(cells)}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, default=20, help="steps drawn per language")
    args = parser.parse_args(argv)
    replay_message(build_replay(1, played("tarneeb").transcript, NAMES[:4]), 0)  # warm-up
    langs = " ".join(f"{lang:>13}" for lang in LANGUAGES)
    print(f"{'game':<17} {'moves':>5} {'steps':>5} {'build ms':>8} {'key ms':>6} {langs}")
    print(f"{'':<42} " + " ".join(f"{'ms p50/p95':>13}" for _ in LANGUAGES))
    for name in GAMES:
        print(row(name, args.steps))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
