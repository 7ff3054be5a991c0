"""The blunder suite: how often each level makes a clear mistake of the card play, per kind.

``python -m bench.blunders [--positions N] [--games G ...] [--levels L ...] [--worlds W]
[--seed S] [--reports DIR]``

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

Reported positions: the positions players reported from the table ("Report this hand", exported
by ``python -m bot.report_export DIR``) are judged the same way, each level deciding
from the reporting seat's view as it was; ``--reports`` names their folder (by default
``tests/games/blunder_reports/``, whose fixtures the test suite runs too, when present).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from bench import hard_today
from bench.hard_today import LEVELS, choose_move
from games.base import Game, Move
from games.levels import level_player
from games.players import ENDGAME_CARDS, Seen, player_for, seen_for
from games.players.blunders import KINDS, chances, spot, table_of
from games.registry import all_games
from games.reports import seen_of
from games.search.confirm import best_other, verdict
from games.tricks import PLAY

REPORTS = Path(__file__).resolve().parent.parent / "tests" / "games" / "blunder_reports"
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
    return kinds_seen(seen_for(game, seat, "hard"))


def kinds_seen(seen: Seen) -> tuple[str, ...]:
    """The kinds of mistake possible at a decision as the seat (at the hard level) saw it."""
    table = table_of(seen)
    if table is None:
        return ()
    kinds = chances(table)
    if len(table.hand) == 2 and len(table.legal) == 2:
        kinds = [*kinds, "endgame"]
    return tuple(kinds)


def positions(
    name: str, count: int, seed: int = 0, kinds: Sequence[str] | None = None
) -> list[Position]:
    """Positions of ``name`` from normal play (see the module docstring): a decision is kept
    while one of its kinds has fewer than ``count`` chances so far, so rare kinds are not
    drowned by frequent ones (at most ``30 * count`` deals are played). ``kinds``: only
    these kinds are sought (the play stops once each has its ``count``)."""
    rules = all_games()[name]
    found: list[Position] = []
    taken: Counter[str] = Counter()
    possible = set(GAME_KINDS[name] if kinds is None else kinds)
    for index in range(30 * count + 10):
        if all(taken[kind] >= count for kind in possible):
            break
        game = rules.new({}, seed=seed * 1000 + index)
        rng = random.Random(f"{seed}:{index}")
        while game.status == "in_progress":
            acting = game.to_act()
            seat = acting[0] if len(acting) == 1 else rng.choice(acting)
            here = kinds_at(game, seat)
            wanted = here if kinds is None else possible.intersection(here)
            if any(taken[kind] < count for kind in wanted):
                found.append(Position(game.clone(), seat, here))
                taken.update(here)
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
    seen = seen_for(position.game, position.seat, "hard")
    return judge_seen(seen, position.kinds, move, worlds, seed, cache)


def judge_seen(
    seen: Seen,
    kinds: Sequence[str],
    move: Move,
    worlds: int,
    seed: str,
    cache: dict[tuple[str, Move], bool],
) -> Counts:
    """The counts of one decision, from what the seat saw (the hard level's ``Seen``)."""
    counts = Counts()
    counts.chances.update(kinds)
    table = table_of(seen)
    assert table is not None
    card = move.get("card")
    shaped = spot(table, card) if isinstance(card, str) else None
    if shaped is not None and shaped.kind in kinds:
        counts.shaped[shaped.kind] += 1
        key = (shaped.kind, move)
        if key not in cache:
            found = verdict(
                seen, move, PLAY[shaped.better], table.wants, random.Random(seed), worlds
            )
            cache[key] = found.mistake
        counts.mistakes[shaped.kind] += cache[key]
    if "endgame" in kinds:
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


@dataclass(frozen=True, slots=True)
class Reported:
    """A position a player reported: the file, what the seat saw, the move it made."""

    path: Path
    seen: Seen
    played: Move

    @property
    def kinds(self) -> tuple[str, ...]:
        return kinds_seen(self.seen)


def reported(folder: Path = REPORTS) -> list[Reported]:
    """The reported positions in ``folder`` (none when it does not exist)."""
    found = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        seen, played = seen_of(json.loads(path.read_text(encoding="utf-8")))
        found.append(Reported(path, seen, played))
    return found


def decide(seen: Seen, level: str, rng: random.Random) -> Move:
    """A level's move from what the seat saw (a reported position has no game to replay)."""
    assert seen.game is not None
    stand_in = seen.game.new(seen.options, seed=0)  # names the family's player; never read
    hand = seen.view.hand or ()
    if level == hard_today.NAME:
        return hard_today.choose(seen, rng)
    if level == hard_today.NORMAL_TODAY:
        return player_for(stand_in)(replace(seen, history=()), rng)
    if level != "hard" and len(hand) > ENDGAME_CARDS:  # as seen_for hands it to the level
        seen = replace(seen, history=())
    return level_player(stand_in, level)(seen, rng)


def run_reports(
    folder: Path, levels: Sequence[str], worlds: int = 24, seed: int = 0
) -> dict[str, Counts]:
    """Every level's counts over the reported positions in ``folder``."""
    result = {level: Counts() for level in levels}
    for index, report in enumerate(reported(folder)):
        cache: dict[tuple[str, Move], bool] = {}
        for level in levels:
            rng = random.Random(f"{seed}:report:{index}:decide")
            move = decide(report.seen, level, rng)
            result[level].add(
                judge_seen(report.seen, report.kinds, move, worlds, f"{seed}:{index}", cache)
            )
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
    parser.add_argument(
        "--reports", type=Path, default=REPORTS, help="the reported positions' folder"
    )
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
    found = reported(args.reports)
    if found:
        results = run_reports(args.reports, args.levels, args.worlds, args.seed)
        print("\n".join(table_lines(f"reported positions ({len(found)})", results)))


if __name__ == "__main__":
    main()
