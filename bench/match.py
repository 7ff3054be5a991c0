"""Duplicate-deal matches between two computer levels: who plays the same cards better.

``python -m bench.match GAME --a LEVEL --b LEVEL --deals N [--players K] [--games G] [--seed S]
[--jobs J] [--progress] [--log FILE]``

Duplicate: every deal is played twice from the same seeded game (same cards, same dealer), once
with level a in the seats ``X`` and b in the others, once with the sides swapped. Luck of the
cards cancels in the pair; what is left is how the levels play them.

- ``X``: in partnership games team 0 (the even seats); in Tunge (each for himself) the one seat
  ``k mod K`` for deal ``k``, so every position takes its turn.
- A deal: a fresh game from seed ``S * 1_000_000 + k``, played until its first ``hand_scored``
  event (throw-ins, annulled hands and exposed-hand redeals on the way are part of the deal). It
  is the first hand of a game, so no score context differs between the two plays.
- A deal's score, per side, from that event's public data (the mean over the side's seats):
  Thunee the balls the hand awards. Card points (the issue's "+20 card points per hand") are
  printed beside them over the deals that were ordinary contracts in both plays only: a Thunee,
  Royals or blind call ends or turns the hand, and easy's random calls made raw card points
  favour easy while it lost the balls. Tarneeb
  and Egyptian Tarneeb the hand's points (negative when a contract fails); Tuppi the points
  scored (ignoring a totals reset, which belongs to the game, not the hand); Norwegian Whist the
  score changes; Tunge minus the seat's penalty points (lower is better there).
- The pair's difference is the mean of (a's score - b's score) over its two plays; the report
  gives its mean, standard error and the two-sided p-value of the paired differences (mean /
  standard error against the normal distribution: the deals are many, scipy is not needed).
- Levels: easy, normal, hard, and ``hard-today`` (:mod:`bench.hard_today`, the hard level as it
  was before natural play, a baseline no user can pick).
- Win rate: the first ``G`` deals (default ``min(N, 100)``) are played on to the end of the
  game; a's wins over those ``2G`` games (a shared win or a draw counts a half).
- Decision times: each ``choose_move`` call (view, legal moves and the decision), per level, in
  wall-clock time and in this process's CPU time (on a busy machine the CPU time is what the
  decision costs; the wall time adds the waits for a core).

``--jobs J`` spreads the deals over J processes; every figure but the times is the same as in
one process, so a long match can use every core.

``--log FILE`` keeps each finished deal as a line of FILE: a match stopped part way (a 300-deal
match of the hard level takes hours) goes on from where it stopped when started again with the
same log, and reports over all its deals. The log's first line names the match (game, levels,
options, seed, full games) and the code of the levels (a hash of ``games/`` and
``bench/hard_today.py``): a log of another match, or of the same match under other code, is
refused rather than mixed in.

Random sources are fixed by the seed: each seat has its own ``Random`` per deal, the same in both
plays (so a level against itself plays identical games and the mean difference is exactly 0),
and the order of simultaneous seats (Thunee's Jodhi claims) comes from one more.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.hard_today import LEVELS, choose_move
from games.base import Game
from games.facts import CardPoints, SeatPoints
from games.registry import all_games

# The games with a hand score (each game's facts.hand_score), and those with a second score.
SCORERS: dict[str, SeatPoints] = {
    name: rules.facts.hand_score
    for name, rules in all_games().items()
    if rules.facts.hand_score is not None
}
CARD_POINTS: dict[str, CardPoints] = {
    name: rules.facts.card_points
    for name, rules in all_games().items()
    if rules.facts.card_points is not None
}


@dataclass
class Play:
    """One play of a deal: each seat's hand score, and the winners if played to the end."""

    hand: list[float]
    points: list[float] | None = None
    winners: tuple[int, ...] | None = None


@dataclass
class Result:
    """A match's figures (everything but the times is determined by the seed)."""

    differences: list[float]
    wins: float
    games: int
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu_times: dict[str, list[float]] = field(default_factory=dict)
    # Thunee's card points, over the deals played as ordinary contracts in both plays
    point_differences: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.differences)

    @property
    def standard_error(self) -> float:
        return standard_error(self.differences)

    @property
    def p_value(self) -> float:
        return p_value(self.differences)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")


def standard_error(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    return statistics.stdev(values) / math.sqrt(len(values))


def p_value(values: Sequence[float]) -> float:
    """Two-sided, normal approximation of mean / standard error (1 with fewer than two values,
    or 0 vs 1 when they do not spread: every pair the same)."""
    if len(values) < 2:
        return 1.0
    mean, error = statistics.fmean(values), standard_error(values)
    if error == 0:
        return 1.0 if mean == 0 else 0.0
    return math.erfc(abs(mean / error) / math.sqrt(2))


def a_seats(game_class: type[Game], players: int, index: int) -> frozenset[int]:
    """The seats level a holds in the first play of deal ``index``."""
    if game_class.teams:
        return frozenset(range(0, players, 2))
    return frozenset({index % players})


def play(
    game: Game,
    levels: Sequence[str],
    seed: str,
    times: dict[str, list[float]],
    to_the_end: bool,
    cpu_times: dict[str, list[float]] | None = None,
) -> Play:
    """Play ``game`` with ``levels[seat]`` in each seat until its first hand is scored (or the
    game ends, when ``to_the_end``)."""
    name = game.name
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(game.players)]
    order = random.Random(f"{seed}:order")
    hand: list[float] | None = None
    points: list[float] | None = None
    while game.status == "in_progress":
        acting = game.to_act()
        seat = acting[0] if len(acting) == 1 else order.choice(acting)
        level = levels[seat]
        start, cpu = time.perf_counter(), time.process_time()
        move = choose_move(game, seat, rngs[seat], level)
        times[level].append(time.perf_counter() - start)
        if cpu_times is not None:
            cpu_times[level].append(time.process_time() - cpu)
        for event in game.apply(seat, move):
            if hand is None and event.kind == "hand_scored":
                result = event.data.get("result", event.data)
                hand = SCORERS[name](result, game.players)
                if name in CARD_POINTS:
                    points = CARD_POINTS[name](result, game.players)
        if hand is not None and not to_the_end:
            break
    if hand is None:
        raise RuntimeError(f"{name}: a game ended before any hand was scored")
    outcome = game.outcome()
    return Play(hand, points, outcome.winners if outcome is not None and to_the_end else None)


def side_score(hand: Sequence[float], seats: frozenset[int]) -> float:
    return statistics.fmean(hand[seat] for seat in seats)


def win_share(winners: tuple[int, ...], seats: frozenset[int]) -> float:
    """1 when only the side's seats win, 0 when none of them does, a half when shared/drawn."""
    ours = any(seat in seats for seat in winners)
    theirs = any(seat not in seats for seat in winners)
    if ours and not theirs:
        return 1.0
    if theirs and not ours:
        return 0.0
    return 0.5


@dataclass
class Deal:
    """One duplicate deal's figures: a's mean advantage over its two plays, the same in Thunee
    card points (None unless both plays were ordinary contracts), and a's share of the full
    games' wins (0 to 2)."""

    difference: float
    point_difference: float | None
    wins: float
    times: dict[str, list[float]]
    cpu_times: dict[str, list[float]]


def play_deal(
    name: str, a: str, b: str, index: int, options: Mapping[str, Any] | None, seed: int, full: bool
) -> Deal:
    """Play deal ``index`` of the match twice, the sides swapped (the deal depends on nothing
    else, so deals can run in any order and in any process)."""
    game_class = all_games()[name]
    times: dict[str, list[float]] = {a: [], b: []}
    cpu_times: dict[str, list[float]] = {a: [], b: []}
    game_seed = seed * 1_000_000 + index
    first = game_class.new(options, seed=game_seed)
    players = first.players
    seats_a = a_seats(game_class, players, index)
    seats_b = frozenset(range(players)) - seats_a
    total = 0.0
    points: float | None = 0.0
    wins = 0.0
    for swap, game in enumerate((first, game_class.new(options, seed=game_seed))):
        mine = seats_b if swap else seats_a
        levels = [a if seat in mine else b for seat in range(players)]
        result = play(game, levels, f"{seed}:{index}", times, full, cpu_times)
        theirs = seats_a if swap else seats_b
        total += side_score(result.hand, mine) - side_score(result.hand, theirs)
        if result.points is None:
            points = None
        elif points is not None:
            points += side_score(result.points, mine) - side_score(result.points, theirs)
        if result.winners is not None:
            wins += win_share(result.winners, mine)
    point_difference = points / 2 if points is not None and name in CARD_POINTS else None
    return Deal(total / 2, point_difference, wins, times, cpu_times)


def match(
    name: str,
    a: str,
    b: str,
    deals: int,
    *,
    options: Mapping[str, Any] | None = None,
    games: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
    log: Path | None = None,
) -> Result:
    """Play ``deals`` duplicate deals of ``name`` between levels ``a`` and ``b``, over ``jobs``
    processes (the figures other than the times do not depend on ``jobs``); with ``log``, the
    deals already in it are taken from it and each new one is added as it finishes."""
    if name not in SCORERS:
        raise KeyError(f"no hand score for {name!r} (known: {', '.join(sorted(SCORERS))})")
    full = min(deals, 100) if games is None else min(games, deals)
    kept = {} if log is None else read_log(log, match_header(name, a, b, options, seed, full))
    arguments = [
        (name, a, b, index, options, seed, index < full)
        for index in range(deals)
        if index not in kept
    ]
    played: dict[int, Deal] = {index: kept[index] for index in range(deals) if index in kept}
    with contextlib.ExitStack() as stack:
        writer = None if log is None else stack.enter_context(log.open("a", encoding="utf-8"))
        if jobs > 1 and arguments:
            pool = stack.enter_context(ProcessPoolExecutor(jobs))
            results = pool.map(play_deal, *zip(*arguments, strict=True))
        else:
            results = (play_deal(*argument) for argument in arguments)
        for argument, deal in zip(arguments, results, strict=True):  # in order, as they come
            index = argument[3]
            played[index] = deal
            if writer is not None:
                writer.write(json.dumps({"index": index, **asdict(deal)}) + "\n")
                writer.flush()
            if progress:  # one line per deal, so a long match stopped early still tells
                print(f"deal {index}: {deal.difference:+.2f}", flush=True)
    ordered = [played[index] for index in sorted(played)]
    result = Result(
        [deal.difference for deal in ordered], 0.0, 2 * full, {a: [], b: []}, {a: [], b: []}
    )
    for deal in ordered:
        result.wins += deal.wins
        if deal.point_difference is not None:
            result.point_differences.append(deal.point_difference)
        for level in (a, b):
            result.times[level] += deal.times[level]
            result.cpu_times[level] += deal.cpu_times[level]
    return result


def code_hash() -> str:
    """A hash of the levels' code (``games/`` and the frozen baseline): what a deal's figures
    depend on besides the match itself."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted([*(root / "games").rglob("*.py"), root / "bench" / "hard_today.py"]):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def match_header(
    name: str, a: str, b: str, options: Mapping[str, Any] | None, seed: int, full: int
) -> dict[str, Any]:
    """What a match log's first line says: the deals' figures depend on these alone."""
    return {
        "game": name,
        "a": a,
        "b": b,
        "options": dict(options or {}),
        "seed": seed,
        "full_games": full,
        "code": code_hash(),
    }


class OtherMatch(ValueError):
    """A match log of another match, or of this one under other code."""


def read_log(log: Path, header: dict[str, Any]) -> dict[int, Deal]:
    """The deals a log holds for this match (a new or empty log gets the header);
    :class:`OtherMatch` when it is another match's, or this one's under other code."""
    if not log.exists() or log.stat().st_size == 0:
        log.write_text(json.dumps(header) + "\n", encoding="utf-8")
        return {}
    text = log.read_text(encoding="utf-8")
    if not text.endswith("\n"):  # the match was stopped mid-line: the next deal starts afresh
        with log.open("a", encoding="utf-8") as writer:
            writer.write("\n")
    first, *lines = text.splitlines()
    found = json.loads(first)
    if found != header:
        changed = ", ".join(key for key in header if found.get(key) != header[key])
        raise OtherMatch(f"{log} is the log of another match (it differs in: {changed})")
    kept: dict[int, Deal] = {}
    for line in lines:
        with contextlib.suppress(ValueError):  # a line cut short when the match was stopped
            row = json.loads(line)
            index = row.pop("index")
            kept[index] = Deal(**row)
    return kept


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(name: str, a: str, b: str, options: Mapping[str, Any], result: Result) -> str:
    label = name + "".join(f" {key}={value}" for key, value in options.items())
    z = result.mean / result.standard_error if result.standard_error else 0.0
    lines = [
        f"{label}: {a} vs {b}, {len(result.differences)} duplicate deals",
        f"  mean score difference per deal ({a} - {b}): {result.mean:+.2f}"
        f" ± {result.standard_error:.2f} (z = {z:+.2f}, paired p = {result.p_value:.2g})",
    ]
    if result.point_differences:
        values = result.point_differences
        lines.append(
            f"  card points per deal ({a} - {b}): {statistics.fmean(values):+.2f}"
            f" ± {standard_error(values):.2f} (p = {p_value(values):.2g}), over the"
            f" {len(values)} deals played as ordinary contracts both times"
        )
    if result.games:
        lines.append(f"  {a} wins {result.win_rate:.1%} of {result.games} full games")
    for level, values in result.times.items():
        if values:
            line = (
                f"  {level} decisions: median {statistics.median(values) * 1000:.3f} ms, "
                f"95th percentile {percentile(values, 0.95) * 1000:.3f} ms ({len(values)})"
            )
            cpu = result.cpu_times.get(level)
            if cpu:
                line += (
                    f"; CPU median {statistics.median(cpu) * 1000:.3f} ms, "
                    f"95th {percentile(cpu, 0.95) * 1000:.3f} ms"
                )
            lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=sorted(SCORERS))
    parser.add_argument("--a", default="normal", choices=LEVELS)
    parser.add_argument("--b", default="easy", choices=LEVELS)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=None, help="full games (default min(N, 100))")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (same figures, faster)")
    parser.add_argument("--progress", action="store_true", help="print each deal's difference")
    parser.add_argument(
        "--log", type=Path, default=None, help="keep each deal here; go on from the deals in it"
    )
    args = parser.parse_args(argv)
    options: dict[str, Any] = {} if args.players is None else {"players": args.players}
    try:
        result = match(
            args.game,
            args.a,
            args.b,
            args.deals,
            options=options,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            progress=args.progress,
            log=args.log,
        )
    except OtherMatch as error:
        parser.error(str(error))
    print(report(args.game, args.a, args.b, options, result))


if __name__ == "__main__":
    main()
