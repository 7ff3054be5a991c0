"""Exact trick counts, our alpha-beta against DDS, and where the hard level switches to DDS.

``python -m bench.dds [--positions N] [--cards 52,40,...] [--own-max C] [--deals D]
[--games tarneeb,...] [--switches 12,24,...] [--seed S] [--skip-solvers] [--skip-hard]``

1. Solvers: ``N`` positions (default 40, the hard level's worlds) at the start of a trick with
   52, 40, 32, 24, 16, 12 and 8 cards left (``--cards``), from seeded Tarneeb hands (a trump
   suit) and Norwegian Whist grand hands (no trump) played by the normal players. For each
   position, the CPU time (``time.process_time``: DDS's own threads included) of

   - ours: :func:`games.search.tricks.best_tricks` once per legal card, after that card (what
     :func:`games.search.hard.evaluate` does per candidate), per card and per position, at
     most ``C`` cards left (default 16: above that it takes seconds);
   - DDS per candidate: one DDS call per legal card, after that card;
   - DDS per world: one call valuing every legal card (:func:`games.search.dds.card_tricks`,
     what the hard level does);
   - DDS in bulk: the ``N`` positions in one call (:func:`games.search.dds.cards_tricks`),
     its time per position (and its wall time: the bulk call spreads over the cores).

   Median, 95th percentile and most, in milliseconds; where both solve, they must agree (a mismatch
   stops the bench).
2. The hard level's decision: ``D`` seeded deals of each game the switch concerns (Tarneeb,
   Egyptian Tarneeb, Tuppi, Norwegian Whist), played by the normal players; at every card
   decision with a choice, the hard level decides twice, with DDS from the first card
   (``Budget.dds`` = 52) and without it (0), CPU time each. A decision with ``c`` cards left
   costs under a switch point ``p`` what it cost with DDS if ``c <= p``, else without, so one
   pair of runs gives the median, 95th percentile and most of every switch point of
   ``--switches`` (a run no switch point of the list needs is skipped). Card decisions only:
   the switch does not touch bids, trumps and calls.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace

from games.base import Game
from games.levels import choose_move
from games.players import seen_for
from games.registry import all_games
from games.search import dds, hard
from games.search.tricks import TrickPlay, best_tricks, cards_of, from_world

CARDS_LEFT = (52, 40, 32, 24, 16, 12, 8)
SWITCH_GAMES = ("tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist")
SWITCHES = (12, 16, 24, 32, 36, 40, 44, 48)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(seconds: Sequence[float]) -> str:
    """Median, 95th percentile and most, in milliseconds."""
    if not seconds:
        return "-"
    return (
        f"median {statistics.median(seconds) * 1000:8.3f} ms, "
        f"95th {percentile(seconds, 0.95) * 1000:8.3f} ms, most {max(seconds) * 1000:8.3f} ms"
    )


def position(name: str, seed: int, left: int) -> TrickPlay | None:
    """The position of a seeded hand with ``left`` cards left at a trick's start, if DDS
    models that hand (a low or sooli hand is skipped)."""
    game = all_games()[name].new(seed=seed)
    rng = random.Random(seed)
    while game.status == "in_progress":
        state = from_world(game)
        if state is not None:
            if dds.solvable(game) is None:
                return None
            cards = sum(hand.bit_count() for hand in state.hands)
            if cards == left and not state.trick:
                return state
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))
    return None


def positions(count: int, left: int, seed: int) -> list[TrickPlay]:
    """``count`` positions at ``left`` cards, Tarneeb and Norwegian Whist grand in turn."""
    found: list[TrickPlay] = []
    index = 0
    while len(found) < count:
        name = ("tarneeb", "norwegian_whist")[index % 2]
        state = position(name, seed + index, left)
        index += 1
        if state is not None:
            found.append(state)
    return found


def after(state: TrickPlay, card: int) -> TrickPlay:
    child = state.copy()
    child.play(card)
    return child


def dds_after(state: TrickPlay, card: int, team: int) -> int:
    """``team``'s tricks in the hand after ``card``, by one DDS call on the position after it."""
    child = after(state, card)
    if child.over:
        return child.won[team]
    left = (sum(hand.bit_count() for hand in child.hands) + len(child.trick)) // 4
    tricks = max(dds.card_tricks(child).values())
    mine = tricks if child.turn % 2 == team else left - tricks
    return child.won[team] + mine


def solvers(count: int, rows: Sequence[int], own_max: int, seed: int) -> None:
    print(f"Solvers: {count} positions per row (Tarneeb and Norwegian Whist grand), CPU time")
    dds.card_tricks(positions(1, 8, seed)[0])  # DDS allocates its memory on the first call
    for left in rows:
        states = positions(count, left, seed)
        own_card: list[float] = []
        own_world: list[float] = []
        per_candidate: list[float] = []
        per_world: list[float] = []
        answers: list[dict[int, int]] = []
        for state in states:
            team = state.turn % 2
            start = time.process_time()
            tricks = dds.card_tricks(state)
            per_world.append(time.process_time() - start)
            answers.append(tricks)
            legal = cards_of(state.legal())
            start = time.process_time()
            one_by_one = {card: dds_after(state, card, team) for card in legal}
            per_candidate.append(time.process_time() - start)
            won = state.won[team]
            if one_by_one != {card: won + tricks[card] for card in legal}:
                raise SystemExit(f"DDS per card and per world disagree at {left} cards")
            if left > own_max:
                continue
            world_start = time.process_time()
            for card in legal:
                start = time.process_time()
                ours = best_tricks(after(state, card), team)
                own_card.append(time.process_time() - start)
                if ours != won + tricks[card]:
                    raise SystemExit(f"our solver and DDS disagree at {left} cards: {state}")
            own_world.append(time.process_time() - world_start)
        cpu, wall = time.process_time(), time.perf_counter()
        bulk = dds.cards_tricks(states)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if bulk != answers:
            raise SystemExit(f"DDS in bulk and one by one disagree at {left} cards")
        print(f"{left:2d} cards left")
        print(f"   ours, one card          {figures(own_card)}")
        print(f"   ours, every card        {figures(own_world)}")
        print(f"   DDS, a call per card    {figures(per_candidate)}")
        print(f"   DDS, one call per world {figures(per_world)}")
        print(
            f"   DDS in bulk, {len(states)} worlds    {cpu * 1000:8.3f} ms CPU "
            f"({cpu / len(states) * 1000:.3f} ms a world), {wall * 1000:8.3f} ms wall"
        )


def decisions(name: str, deals: int, seed: int) -> list[tuple[Game, int]]:
    """Card decisions with a choice in ``deals`` seeded hands of ``name`` (normal players)."""
    found: list[tuple[Game, int]] = []
    for index in range(deals):
        game = all_games()[name].new(seed=seed + index)
        rng = random.Random(seed + index)
        hands = 0
        while game.status == "in_progress" and hands < 1:
            seat = game.to_act()[0]
            legal = game.legal_moves(seat)
            if from_world(game) is not None and len(legal) > 1:
                found.append((game.clone(), seat))
            events = game.apply(seat, choose_move(game, seat, rng))
            hands += sum(event.kind == "hand_scored" for event in events)
    return found


def decision_times(name: str, deals: int, seed: int, switches: Sequence[int]) -> None:
    found = decisions(name, deals, seed)
    rules = all_games()[name]
    base = hard.scaled(hard.DEFAULT_BUDGET, rules, 4)
    timed: list[tuple[int, float, float]] = []
    for index, (game, seat) in enumerate(found):
        seen = seen_for(game, seat, "hard")
        left = sum(seen.view.hand_sizes)
        costs = [0.0, 0.0]
        for place, switch in enumerate((52, 0)):
            if (switch and left > max(switches)) or (not switch and left <= min(switches)):
                continue  # no switch point of the list decides it this way
            start = time.process_time()
            hard.choose(seen, random.Random(index), replace(base, dds=switch))
            costs[place] = time.process_time() - start
        timed.append((left, costs[0], costs[1]))
    print(f"{name}: {len(timed)} card decisions in {deals} hands, hard level's CPU time")
    for switch in switches:
        times = [with_dds if left <= switch else without for left, with_dds, without in timed]
        print(f"   DDS at <= {switch:2d} cards left: {figures(times)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--cards", default=",".join(map(str, CARDS_LEFT)))
    parser.add_argument("--own-max", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--switches", default=",".join(map(str, SWITCHES)))
    parser.add_argument("--games", default=",".join(SWITCH_GAMES))
    parser.add_argument("--skip-solvers", action="store_true")
    parser.add_argument("--skip-hard", action="store_true")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # long: show progress
    if not args.skip_solvers:
        rows = [int(value) for value in args.cards.split(",")]
        solvers(args.positions, rows, args.own_max, args.seed)
    if not args.skip_hard:
        switches = [int(value) for value in args.switches.split(",")]
        for name in args.games.split(","):
            decision_times(name, args.deals, args.seed, switches)


if __name__ == "__main__":
    main()
