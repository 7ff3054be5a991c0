"""Whole tournaments of real games (random legal moves), with the standings checked against
scores worked out here independently."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

import pytest

from bot.tournaments.knockout import (
    first_round,
    knockout_round,
    next_round,
    seed_numbers,
    winner_of,
)
from bot.tournaments.spec import Entrant, TournamentSpec
from bot.tournaments.standings import Standing, standings, standings_text
from bot.tournaments.swiss import pair_round
from bot.tournaments.tables import Round, TableResult
from tests.bot.tournaments.play import people, play, play_round


def expected_points(rounds: Sequence[Round], results: Sequence[TableResult]) -> dict[int, Fraction]:
    """Match points the long way: per table, 2 shared out by place; 2 for a bye."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    for paired in rounds:
        for e in paired.byes:
            points[e] += 2
    for result in results:
        table = rounds[result.round - 1].tables[result.table - 1]
        sides = len(result.places)
        for hand, side in enumerate(table.sides):
            better = [p for p in result.places if p > result.places[hand]]
            level = [p for p in result.places if p == result.places[hand]]
            share = Fraction(2 * len(better) + len(level) - 1, sides - 1)
            for e in side:
                points[e] += share
    return points


def expected_buchholz(
    rounds: Sequence[Round], results: Sequence[TableResult], points: dict[int, Fraction]
) -> dict[int, Fraction]:
    total: dict[int, Fraction] = defaultdict(Fraction)
    for result in results:
        table = rounds[result.round - 1].tables[result.table - 1]
        for hand, side in enumerate(table.sides):
            others = [e for h, s in enumerate(table.sides) if h != hand for e in s]
            for e in side:
                total[e] += sum(points[o] for o in others) / len(others)
    return total


def expected_duplicate_two_tables(
    rounds: Sequence[Round], results: Sequence[TableResult]
) -> dict[int, float]:
    """With two tables of two sides a round, a side's duplicate score is, deal by deal, its net
    score minus the net score of the side holding the same hand at the other table."""
    total: dict[int, float] = defaultdict(float)
    for paired in rounds:
        mine = [r for r in results if r.round == paired.number]
        assert len(mine) == 2
        for result, other in ((mine[0], mine[1]), (mine[1], mine[0])):
            table = paired.tables[result.table - 1]
            for hand, side in enumerate(table.sides):
                for deal in range(min(len(result.deals), len(other.deals))):
                    ours = result.deals[deal][hand] - result.deals[deal][1 - hand]
                    theirs = other.deals[deal][hand] - other.deals[deal][1 - hand]
                    for e in side:
                        total[e] += ours - theirs
    return total


def check_standings(
    rows: Sequence[Standing],
    points: dict[int, Fraction],
    buchholz: dict[int, Fraction],
    duplicate: dict[int, float] | None = None,
) -> None:
    for row in rows:
        assert row.points == points[row.entrant.id]
        assert row.buchholz == buchholz[row.entrant.id]
        if duplicate is not None:
            assert row.duplicate == pytest.approx(duplicate[row.entrant.id])
    keys = [(-r.points, -r.buchholz, -round(r.duplicate, 2)) for r in rows]
    assert keys == sorted(keys)
    assert [r.rank for r in rows] == [
        1 + next(i for i, k in enumerate(keys) if k == key) for key in keys
    ]


def test_eight_players_of_tarneeb_with_rotating_partners_over_three_rounds() -> None:
    spec = TournamentSpec.create(
        game="tarneeb", format="swiss", entry="individuals", rounds=3, seed=21,
        options={"target": 31},
    )  # fmt: skip
    entrants = people(8, ratings=[30, 28, 26, 24, 22, 20, 18, 16])
    rng = random.Random(4)
    rounds: list[Round] = []
    results: list[TableResult] = []
    absent = 5
    for number in (1, 2, 3):
        paired = pair_round(spec, entrants, rounds, results)
        assert not paired.byes and len(paired.tables) == 2
        assert sorted(paired.entrants) == list(range(1, 9))  # the absent player too
        rounds.append(paired)
        results += play_round(spec, paired, rng, stand_ins=[absent] if number == 2 else [])
        assert len({t.seed for t in paired.tables}) == 1  # duplicate deals
    partners = [frozenset(side) for p in rounds for t in p.tables for side in t.sides]
    assert len(set(partners)) == len(partners) == 12  # nobody partnered anybody twice
    assert [r.stand_ins for r in results if r.round == 2 and absent in
            rounds[1].tables[r.table - 1].entrants] == [(absent,)]  # fmt: skip
    rows = standings(entrants, rounds, results, seed=spec.seed)
    points = expected_points(rounds, results)
    assert sum(points.values()) == 3 * 2 * 2 * 2  # per round, two tables, two winners, 2 each
    check_standings(
        rows, points, expected_buchholz(rounds, results, points),
        expected_duplicate_two_tables(rounds, results),
    )  # fmt: skip
    assert next(r for r in rows if r.entrant.id == absent).stand_ins == 1
    text = standings_text(rows)
    assert "E5*" in text and "a computer played for them" in text
    assert text.splitlines()[0].split() == ["#", "Entrant", "MP", "Buchholz", "Dup", "Played"]


def test_eight_pairs_knockout_of_thunee() -> None:
    spec = TournamentSpec.create(game="thunee", format="knockout", entry="pairs", seed=8)
    entrants = people(8, pairs=True, ratings=[float(r) for r in (3, 9, 1, 7, 5, 8, 2, 6)])
    seeds = seed_numbers(entrants, spec.seed)
    assert [e for e, _ in sorted(seeds.items(), key=lambda s: s[1])] == [2, 6, 4, 8, 5, 1, 7, 3]
    matches = first_round(entrants, spec.seed)
    assert matches == [(2, 3), (8, 5), (6, 7), (4, 1)]  # 1-8, 4-5, 2-7, 3-6 by seed
    rng = random.Random(2)
    won: dict[int, int] = defaultdict(int)
    for number in (1, 2, 3):
        paired = knockout_round(spec, number, matches)
        winners = {}
        for index, table in enumerate(paired.tables):
            for hand, side in enumerate(table.sides):
                pair = side[0]
                assert [s.member for s in table.seats if s.entrant == pair] == [0, 1]
                assert [i for i, s in enumerate(table.seats) if s.entrant == pair] == [
                    hand, hand + 2
                ]  # fmt: skip
            winner = winner_of(play(spec, number, table, rng), table, seeds)
            assert winner in matches[index]
            won[winner] += 1
            winners[index] = winner
        if number < 3:
            matches = next_round(matches, winners)
            assert len(matches) == 2 // number  # two semi-finals, then the final
    champion = winners[0]
    assert won[champion] == 3 and sum(won.values()) == 7


def test_seven_players_of_tunge_sit_at_tables_of_four_and_three() -> None:
    spec = TournamentSpec.create(game="tunge", format="swiss", entry="individuals", rounds=3)
    entrants = people(7, ratings=[float(r) for r in (5, 3, 6, 1, 4, 2, 7)])
    rng = random.Random(7)
    rounds: list[Round] = []
    results: list[TableResult] = []
    for _ in range(3):
        paired = pair_round(spec, entrants, rounds, results)
        assert [len(t.seats) for t in paired.tables] == [4, 3] and not paired.byes
        assert sorted(paired.entrants) == list(range(1, 8))
        rounds.append(paired)
        results += play_round(spec, paired, rng)
        # the top table has the four best in the standings so far
        before = standings(entrants, rounds[:-1], results[:-2], seed=spec.seed)
        assert set(paired.tables[0].entrants) == {r.entrant.id for r in before[:4]}
    rows = standings(entrants, rounds, results, seed=spec.seed)
    points = expected_points(rounds, results)
    assert sum(points.values()) == 3 * (4 + 3)  # a table of k sides shares out k points
    check_standings(rows, points, expected_buchholz(rounds, results, points))


def test_standings_before_any_result_follow_the_seeds() -> None:
    entrants: list[Entrant] = people(4, ratings=[1, 4, 2, 3])
    rows = standings(entrants, [], [], seed=0)
    assert [r.entrant.id for r in rows] == [2, 4, 3, 1]
    assert [r.rank for r in rows] == [1, 1, 1, 1]
