"""The blunder suite: how often each level makes a clear mistake of the card play, per kind.

``python -m bench.blunders [--positions N] [--games G ...] [--levels L ...] [--worlds W]
[--seed S]``

Positions: for every trick game (Tarneeb, Egyptian Tarneeb, Tuppi, Norwegian Whist, Thunee) seeded
games (seed ``S * 1000 + k``) are played by the normal player at every seat, and every card-play
decision where a clear mistake is possible is kept, until each kind the game can show has
``N`` (50) chances (at most ``30 N`` deals): the seat plays last
to a trick and could overtake or ruff its partner's trick, win higher than needed, take a trick it
does not want or give the opponents card points (:func:`games.players.blunders.chances`), or it
is the next-to-last trick (``endgame``, every seat).

Levels: easy, normal, hard and the baselines ``hard-today`` and ``normal-today`` (the levels
before natural play and the counted next-to-last trick, :mod:`bench.hard_today`). Each level
decides each position from the seat's view (the same random source for every level).
A decision of a mistake's shape (:func:`games.players.blunders.spot`) is then judged by
double-dummy evaluation over ``W`` (24) worlds consistent with the seat's knowledge
(:func:`games.search.confirm.verdict`): a mistake when the natural card gains more than two
standard errors on average. At the next-to-last trick every decision is judged against the best
other card (:func:`games.search.confirm.best_other`). A rate is mistakes over chances of that
kind; the shaped decisions (mistake or not) are printed beside it. Every figure is determined by
the seeds.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.hard_today import LEVELS, choose_move
from games.base import Game, Move
from games.players import seen_for
from games.players.blunders import KINDS, chances, spot, table_of
from games.registry import all_games
from games.search.confirm import best_other, verdict
from games.tricks import PLAY

GAMES = ("tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist", "thunee")
# The kinds each game can show (no trump in Tuppi and Norwegian Whist, no low hand in Tarneeb
# and Thunee, card points only in Thunee).
GAME_KINDS: dict[str, tuple[str, ...]] = {
    "tarneeb": ("overtake", "ruff", "overwin", "endgame"),
    "tarneeb_egyptian": ("overtake", "ruff", "overwin", "endgame"),
    "tuppi": ("overtake", "overwin", "low_take", "endgame"),
    "norwegian_whist": ("overtake", "overwin", "low_take", "endgame"),
    "thunee": ("overtake", "ruff", "overwin", "points", "endgame"),
}


@dataclass(frozen=True, slots=True)
class Position:
    """A decision worth judging: the game before it, the seat, the kinds of mistake possible."""

    game: Game
    seat: int
    kinds: tuple[str, ...]


def kinds_at(game: Game, seat: int) -> tuple[str, ...]:
    """The kinds of mistake possible at this decision (none outside the card play)."""
    seen = seen_for(game, seat, "hard")
    table = table_of(seen)
    if table is None:
        return ()
    kinds = chances(table)
    if len(table.hand) == 2 and len(table.legal) == 2:
        kinds = [*kinds, "endgame"]
    return tuple(kinds)


def positions(name: str, count: int, seed: int = 0) -> list[Position]:
    """Positions of ``name`` from normal play (see the module docstring): a decision is kept
    while one of its kinds has fewer than ``count`` chances so far, so rare kinds are not
    drowned by frequent ones (at most ``30 * count`` deals are played)."""
    rules = all_games()[name]
    found: list[Position] = []
    taken: Counter[str] = Counter()
    possible = set(GAME_KINDS[name])
    for index in range(30 * count + 10):
        if all(taken[kind] >= count for kind in possible):
            break
        game = rules.new({}, seed=seed * 1000 + index)
        rng = random.Random(f"{seed}:{index}")
        while game.status == "in_progress":
            acting = game.to_act()
            seat = acting[0] if len(acting) == 1 else rng.choice(acting)
            kinds = kinds_at(game, seat)
            if any(taken[kind] < count for kind in kinds):
                found.append(Position(game.clone(), seat, kinds))
                taken.update(kinds)
            events = game.apply(seat, choose_move(game, seat, rng))
            if any(event.kind == "hand_scored" for event in events):
                break
    return found


@dataclass
class Counts:
    """Per kind: the chances, the decisions of the mistake's shape, the confirmed mistakes."""

    chances: Counter[str] = field(default_factory=Counter)
    shaped: Counter[str] = field(default_factory=Counter)
    mistakes: Counter[str] = field(default_factory=Counter)

    def add(self, other: Counts) -> None:
        self.chances.update(other.chances)
        self.shaped.update(other.shaped)
        self.mistakes.update(other.mistakes)


def judge(
    position: Position, move: Move, worlds: int, seed: str, cache: dict[tuple[str, Move], bool]
) -> Counts:
    """The counts of one decision (verdicts cached per card, shared by the levels)."""
    counts = Counts()
    counts.chances.update(position.kinds)
    seen = seen_for(position.game, position.seat, "hard")
    table = table_of(seen)
    assert table is not None
    card = move.get("card")
    shaped = spot(table, card) if isinstance(card, str) else None
    if shaped is not None and shaped.kind in position.kinds:
        counts.shaped[shaped.kind] += 1
        key = (shaped.kind, move)
        if key not in cache:
            found = verdict(
                seen, move, PLAY[shaped.better], table.wants, random.Random(seed), worlds
            )
            cache[key] = found.mistake
        counts.mistakes[shaped.kind] += cache[key]
    if "endgame" in position.kinds:
        key = ("endgame", move)
        if key not in cache:
            other = best_other(seen, move, table.wants, random.Random(seed), worlds)
            cache[key] = other is not None and other[1].mistake
        counts.shaped["endgame"] += cache[key]
        counts.mistakes["endgame"] += cache[key]
    return counts


def run(
    name: str, levels: Sequence[str], count: int, worlds: int = 24, seed: int = 0
) -> dict[str, Counts]:
    """Every level's counts over ``count`` positions of ``name``."""
    result = {level: Counts() for level in levels}
    for index, position in enumerate(positions(name, count, seed)):
        cache: dict[tuple[str, Move], bool] = {}
        for level in levels:
            rng = random.Random(f"{seed}:{name}:{index}:decide")
            move = choose_move(position.game.clone(), position.seat, rng, level)
            result[level].add(judge(position, move, worlds, f"{seed}:{index}:judge", cache))
    return result


def rate(counts: Counts, kind: str) -> float | None:
    chances = counts.chances[kind]
    return counts.mistakes[kind] / chances if chances else None


def table_lines(title: str, results: dict[str, Counts]) -> list[str]:
    lines = [title, f"  {'level':<12}" + "".join(f"{kind:>20}" for kind in KINDS)]
    for level, counts in results.items():
        cells = []
        for kind in KINDS:
            share = rate(counts, kind)
            if share is None:
                cells.append(f"{'-':>20}")
                continue
            mistakes, shaped = counts.mistakes[kind], counts.shaped[kind]
            cell = f"{share:.1%} {mistakes}/{counts.chances[kind]} ({shaped})"
            cells.append(f"{cell:>20}")
        lines.append(f"  {level:<12}" + "".join(cells))
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=50, help="chances per kind and game")
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument(
        "--levels", nargs="+", default=["normal-today", "normal", "hard-today", "hard"]
    )
    parser.add_argument("--worlds", type=int, default=24, help="worlds per verdict")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for level in args.levels:
        if level not in LEVELS:
            parser.error(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    print("mistakes/chances per kind (decisions of the mistake's shape, confirmed or not)")
    totals = {level: Counts() for level in args.levels}
    for name in args.games:
        results = run(name, args.levels, args.positions, args.worlds, args.seed)
        for level, counts in results.items():
            totals[level].add(counts)
        print("\n".join(table_lines(name, results)), flush=True)
    print("\n".join(table_lines("all games", totals)))


if __name__ == "__main__":
    main()
