"""Swiss pairing: everyone once a round, no repeats while avoidable (checked against brute
force), byes to the lowest without one, similar scores together, deterministic."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.spec import Entrant, TournamentError, TournamentSpec
from bot.tournaments.standings import seed_order
from bot.tournaments.swiss import free_table_sizes, pair_round
from bot.tournaments.tables import Round, TableResult, build_round
from tests.bot.tournaments.play import people

PAIRS = TournamentSpec.create(game="tarneeb", format="swiss", entry="pairs", rounds=15, seed=3)
PARTNERS = TournamentSpec.create(
    game="tarneeb", format="swiss", entry="individuals", rounds=15, seed=3
)
TUNGE = TournamentSpec.create(game="tunge", format="swiss", entry="individuals", rounds=15)


def matchings(nodes: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair ``nodes`` off (negative nodes, byes, never with each other)."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for index, other in enumerate(rest):
        if first < 0 and other < 0:
            continue
        for more in matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, other), *more]


def repeats(
    pairs: Sequence[tuple[int, int]], before: Counter[frozenset[int]], byes: Counter[int]
) -> int:
    """Pairings that happened before, a second bye counted as one."""
    return sum(byes[max(a, b)] if min(a, b) < 0 else before[frozenset((a, b))] for a, b in pairs)


def met(rounds: Sequence[Round], *, partners: bool) -> Counter[frozenset[int]]:
    seen: Counter[frozenset[int]] = Counter()
    for paired in rounds:
        for table in paired.tables:
            for e in table.entrants:
                for o in table.partners(e) if partners else table.opponents(e):
                    if e < o:
                        seen[frozenset((e, o))] += 1
    return seen


def bye_counts(rounds: Sequence[Round]) -> Counter[int]:
    return Counter(e for paired in rounds for e in paired.byes)


def seated_once(paired: Round, entrants: Sequence[Entrant]) -> None:
    everyone = paired.entrants
    assert sorted(everyone) == sorted(e.id for e in entrants)
    for table in paired.tables:
        assert len({seat.entrant for seat in table.seats}) == len(table.entrants)


@st.composite
def past(
    draw: st.DrawFn, spec: TournamentSpec, sizes: tuple[int, int]
) -> tuple[list[Entrant], list[Round], list[TableResult]]:
    """Entrants and up to four past rounds drawn at random (not by the pairing), with results."""
    entrants = people(draw(st.integers(*sizes)), pairs=spec.members == 2)
    ids = [e.id for e in entrants]
    side = 1 if spec is PAIRS else 2
    rounds: list[Round] = []
    results: list[TableResult] = []
    for number in range(1, draw(st.integers(0, 4)) + 1):
        order = draw(st.permutations(ids))
        table_size = 2 * side
        seated = len(order) - len(order) % table_size
        tables = [
            [tuple(order[i : i + side]), tuple(order[i + side : i + table_size])]
            for i in range(0, seated, table_size)
        ]
        paired = build_round(spec, number, tables, byes=order[seated:])
        rounds.append(paired)
        for table in paired.tables:
            winners = draw(st.sampled_from([[0], [1], []]))
            results.append(TableResult.of_winners(number, table.number, 2, winners))
    return entrants, rounds, results


@settings(max_examples=150, deadline=None)
@given(past(PAIRS, (2, 9)))
def test_pairs_meet_again_only_when_unavoidable(
    history: tuple[list[Entrant], list[Round], list[TableResult]],
) -> None:
    entrants, rounds, results = history
    paired = pair_round(PAIRS, entrants, rounds, results)
    seated_once(paired, entrants)
    assert len(paired.byes) == len(entrants) % 2
    before, byes = met(rounds, partners=False), bye_counts(rounds)
    ours = [(t.sides[0][0], t.sides[1][0]) for t in paired.tables] + [(b, -1) for b in paired.byes]
    nodes = [e.id for e in entrants] + [-1] * (len(entrants) % 2)
    best = min(repeats(m, before, byes) for m in matchings(nodes))
    assert repeats(ours, before, byes) == best


@settings(max_examples=100, deadline=None)
@given(past(PARTNERS, (4, 9)))
def test_partners_rotate_and_opponents_repeat_as_little_as_they_can(
    history: tuple[list[Entrant], list[Round], list[TableResult]],
) -> None:
    entrants, rounds, results = history
    paired = pair_round(PARTNERS, entrants, rounds, results)
    seated_once(paired, entrants)
    spare = len(entrants) % 4
    assert len(paired.byes) == spare
    assert all(len(table.seats) == 4 and len(table.sides) == 2 for table in paired.tables)
    partnered, opposed, byes = (
        met(rounds, partners=True),
        met(rounds, partners=False),
        bye_counts(rounds),
    )
    sides = [side for table in paired.tables for side in table.sides]
    ours = [(a, b) for a, b in sides] + [(b, -1 - i) for i, b in enumerate(paired.byes)]
    nodes = [e.id for e in entrants] + [-1 - i for i in range(spare)]
    assert repeats(ours, partnered, byes) == min(
        repeats(m, partnered, byes) for m in matchings(nodes)
    )

    def clashes(tables: Sequence[tuple[int, int]]) -> int:
        return sum(
            opposed[frozenset((x, y))] for p, q in tables for x in sides[p] for y in sides[q]
        )

    chosen = [(sides.index(t.sides[0]), sides.index(t.sides[1])) for t in paired.tables]
    assert clashes(chosen) == min(clashes(m) for m in matchings(list(range(len(sides)))))


@settings(max_examples=60, deadline=None)
@given(past(PAIRS, (2, 12)))
def test_the_same_history_pairs_the_same_way(
    history: tuple[list[Entrant], list[Round], list[TableResult]],
) -> None:
    entrants, rounds, results = history
    assert pair_round(PAIRS, entrants, rounds, results) == pair_round(
        PAIRS, list(reversed(entrants)), rounds, list(reversed(results))
    )


def test_winners_meet_winners_and_the_first_round_follows_the_seeds() -> None:
    entrants = people(4, pairs=True, ratings=[40, 30, 20, 10])
    first = pair_round(PAIRS, entrants, [], [])
    assert [sorted(t.entrants) for t in first.tables] == [[1, 2], [3, 4]]
    results = [
        TableResult.of_winners(1, 1, 2, [first.tables[0].side_of(2)]),
        TableResult.of_winners(1, 2, 2, [first.tables[1].side_of(4)]),
    ]
    second = pair_round(PAIRS, entrants, [first], results)
    assert [sorted(t.entrants) for t in second.tables] == [[2, 4], [1, 3]]


def test_the_bye_goes_to_the_lowest_ranked_entrant_without_one() -> None:
    entrants = people(5, pairs=True, ratings=[50, 40, 30, 20, 10])
    rounds: list[Round] = []
    results: list[TableResult] = []
    for number in range(1, 4):
        paired = pair_round(PAIRS, entrants, rounds, results)
        rounds.append(paired)
        # the better seed wins every match, so the order stays the seed order
        results += [
            TableResult.of_winners(number, t.number, 2, [t.side_of(min(t.entrants))])
            for t in paired.tables
        ]
    assert [paired.byes for paired in rounds] == [(5,), (4,), (3,)]


def test_eight_players_never_partner_twice_in_seven_rounds() -> None:
    entrants = people(8)
    rounds: list[Round] = []
    results: list[TableResult] = []
    for number in range(1, 8):
        paired = pair_round(PARTNERS, entrants, rounds, results)
        rounds.append(paired)
        results += [TableResult.of_winners(number, t.number, 2, [0]) for t in paired.tables]
    assert max(met(rounds, partners=True).values()) == 1
    assert len(met(rounds, partners=True)) == 28  # every one of the 8·7/2 partnerships


@given(st.integers(3, 60))
def test_tunge_tables_seat_three_or_four(players: int) -> None:
    sizes = free_table_sizes(players)
    assert all(size in (3, 4) for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    assert sum(sizes) == players - (1 if players == 5 else 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 14), st.lists(st.integers(0, 3), min_size=14, max_size=14))
def test_tunge_sits_the_standings_in_order(players: int, ratings: list[int]) -> None:
    entrants = people(players, ratings=[float(r) for r in ratings])
    paired = pair_round(TUNGE, entrants, [], [])
    seated_once(paired, entrants)
    order = [e.id for e in seed_order(entrants, TUNGE.seed)]
    assert paired.byes == tuple(order[sum(free_table_sizes(players)) :])
    for table in paired.tables:
        assert set(table.entrants) == set(order[: len(table.seats)])
        order = order[len(table.seats) :]


def test_a_swiss_round_needs_a_swiss_tournament_with_rounds_left() -> None:
    knockout = TournamentSpec.create(game="thunee", format="knockout", entry="pairs")
    with pytest.raises(TournamentError, match="not Swiss"):
        pair_round(knockout, people(4, pairs=True), [], [])
    short = TournamentSpec.create(game="thunee", format="swiss", entry="pairs", rounds=1)
    first = pair_round(short, people(4, pairs=True), [], [])
    with pytest.raises(TournamentError, match="rounds have been paired"):
        pair_round(short, people(4, pairs=True), [first], [])
    with pytest.raises(TournamentError, match="at least 2 pairs"):
        pair_round(short, people(1, pairs=True), [], [])
