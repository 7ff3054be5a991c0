"""The knockout bracket: seeded 1 v N in bracket order, byes to the top seeds, nobody dropped,
winners advancing to a single champion."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.knockout import (
    Match,
    bracket_order,
    first_round,
    knockout_round,
    next_round,
    round_count,
    seed_numbers,
    winner_of,
)
from bot.tournaments.spec import TournamentError, TournamentSpec
from bot.tournaments.standings import seed_order
from bot.tournaments.tables import TableResult
from tests.bot.tournaments.play import people

THUNEE = TournamentSpec.create(game="thunee", format="knockout", entry="pairs", seed=5)


def test_the_standard_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(ValueError):
        bracket_order(6)


@given(st.integers(2, 80), st.integers(0, 2**32))
def test_a_bracket_seeds_everyone_once_with_byes_to_the_top(count: int, seed: int) -> None:
    entrants = people(count, ratings=[float((i * 7919) % 13) for i in range(count)])
    seeds = {e.id: s for s, e in enumerate(seed_order(entrants, seed), start=1)}
    matches = first_round(entrants, seed)
    size = 1 << round_count(count)
    assert size // 2 < count <= size
    assert len(matches) == size // 2
    placed = [e for match in matches for e in match if e is not None]
    assert sorted(placed) == sorted(seeds)  # nobody dropped, nobody twice
    for a, b in matches:
        assert b is None or seeds[a] + seeds[b] == size + 1  # 1 v N, 2 v N-1, ...
    byes = sorted(seeds[a] for a, b in matches if b is None)
    assert byes == list(range(1, size - count + 1))  # the top seeds go through
    half = len(matches) // 2
    if half:  # seeds 1 and 2 in different halves: they can meet only in the final
        top = {e for match in matches[:half] for e in match}
        assert (1 in {seeds[e] for e in top if e is not None}) != (
            2 in {seeds[e] for e in top if e is not None}
        )


@given(st.integers(2, 40), st.integers(0, 2**32))
def test_winners_advance_to_one_champion(count: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = people(count)
    matches: list[Match] = first_round(entrants, seed)
    alive = {e.id for e in entrants}
    played = 0
    for _ in range(round_count(count) - 1):
        winners = {i: rng.choice(m) for i, m in enumerate(matches) if m[1] is not None}
        for index, (a, b) in enumerate(matches):
            if b is not None:
                alive.discard(b if winners[index] == a else a)
        played += len(winners)
        matches = next_round(matches, winners)
        assert sorted(e for m in matches for e in m if e is not None) == sorted(alive)
    assert len(matches) == 1 and None not in matches[0]
    assert played + 1 == count - 1  # every match but the final knocked out one entrant
    with pytest.raises(TournamentError, match="final"):
        next_round(matches, {0: matches[0][0]})


def test_a_match_without_a_winner_does_not_advance() -> None:
    matches = first_round(people(4), 0)
    with pytest.raises(TournamentError, match="Match 2 has no winner"):
        next_round(matches, {0: matches[0][0]})


def test_eight_pairs_of_thunee_play_three_rounds_to_a_champion() -> None:
    entrants = people(8, pairs=True, ratings=[8, 7, 6, 5, 4, 3, 2, 1])
    matches = first_round(entrants, THUNEE.seed)
    seeds = seed_numbers(entrants, THUNEE.seed)
    assert matches == [(1, 8), (4, 5), (2, 7), (3, 6)]
    for number in (1, 2, 3):
        paired = knockout_round(THUNEE, number, matches)
        assert not paired.byes and len(paired.tables) == len(matches)
        # the lower seed (higher number) wins every match but the final, drawn
        winners = {}
        for index, table in enumerate(paired.tables):
            a, b = matches[index]
            assert b is not None and set(table.entrants) == {a, b}
            assert [seat.entrant for seat in table.seats] == [
                table.sides[0][0], table.sides[1][0], table.sides[0][0], table.sides[1][0]
            ]  # fmt: skip
            upset = [table.side_of(b)] if number < 3 else []
            result = TableResult.of_winners(number, table.number, 2, upset)
            winners[index] = winner_of(result, table, seeds)
        if number < 3:
            matches = next_round(matches, winners)
    assert matches == [(5, 6)]
    assert winners == {0: 5}  # a drawn final goes to the better seed


def test_a_knockout_round_needs_a_knockout() -> None:
    swiss = TournamentSpec.create(game="thunee", format="swiss", entry="pairs", rounds=3)
    with pytest.raises(TournamentError):
        knockout_round(swiss, 1, [(1, 2)])


def test_byes_are_not_tables() -> None:
    matches = first_round(people(5, pairs=True, ratings=[5, 4, 3, 2, 1]), 0)
    assert matches == [(1, None), (4, 5), (2, None), (3, None)]
    paired = knockout_round(THUNEE, 1, matches)
    assert paired.byes == (1, 2, 3)
    assert [set(t.entrants) for t in paired.tables] == [{4, 5}]
