"""One hash of everything the rules engines say over seeded random games: to prove a redesign
changed no behaviour.

``python -m bench.fingerprint [--games N] [--only NAME ...]`` plays ``N`` random games (seeds 0,
1, ...) of every registered game and table size, at every step hashing what a caller can observe:
whose turn, every seat's legal moves and view, the public view, the events a move produced
(kind, text, data, audience, history flag), every seat's public history, a clone's view, and the
final summary and outcome. It prints one hash per game and table size, and one for all. Run it
before and after a change: equal hashes mean the engines said exactly the same things.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from games.base import Game
from games.registry import all_games
from games.views import plain

TABLE_SIZES: dict[str, tuple[int, ...]] = {"thunee": (2, 4, 6), "tunge": (2, 3, 4)}


def _json(value: Any) -> str:
    return json.dumps(plain(value), sort_keys=True, default=str, ensure_ascii=False)


def game_fingerprint(game_class: type[Game], options: dict[str, Any], seed: int) -> str:
    """The hash of one seeded random game, observed at every step."""
    digest = hashlib.sha256()

    def note(*parts: Any) -> None:
        for part in parts:
            digest.update(_json(part).encode())
            digest.update(b"\x00")

    game = game_class.new(options, seed=seed)
    rng = random.Random(seed)
    seats = range(game.players)
    while game.status == "in_progress":
        note(game.to_act(), game.view(None).to_json())
        for seat in seats:
            note(
                [move.code for move in game.legal_moves(seat)],
                game.view(seat).to_json(),
                [(s, None if m is None else m.code) for s, m in game.public_history(seat)],
            )
        seat = rng.choice(game.to_act())
        move = rng.choice(game.legal_moves(seat))
        events = game.apply(seat, move)
        note(
            seat,
            move.code,
            [
                (e.kind, e.text, dict(e.data), None if e.to is None else sorted(e.to), e.history)
                for e in events
            ],
        )
        note(game.clone().view(None).to_json())
    outcome = game.outcome()
    note(game.summary(), None if outcome is None else outcome)
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games per game and table size")
    parser.add_argument("--only", nargs="*", help="only these games")
    args = parser.parse_args(argv)
    total = hashlib.sha256()
    for name, game_class in all_games().items():
        if args.only and name not in args.only:
            continue
        for players in TABLE_SIZES.get(name, (0,)):
            options: dict[str, Any] = {"players": players} if players else {}
            line = hashlib.sha256()
            for seed in range(args.games):
                line.update(game_fingerprint(game_class, options, seed).encode())
            label = f"{name} players={players}" if players else name
            print(f"{label:28} {line.hexdigest()[:16]}", flush=True)
            total.update(line.digest())
    print(f"{'all':28} {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
