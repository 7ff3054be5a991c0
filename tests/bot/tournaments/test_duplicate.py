"""Duplicate deals: the same cards at every table of a round, the seats turned from table to
table, and each side compared with those who held the same cards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.duplicate import duplicate_scores
from bot.tournaments.spec import TournamentSpec
from bot.tournaments.standings import seed_order
from bot.tournaments.swiss import pair_round
from bot.tournaments.tables import Round, TableResult, build_round
from tests.bot.tournaments.play import new_game, people


def spec(game: str = "tarneeb", entry: str = "pairs", *, duplicate: bool = True) -> TournamentSpec:
    return TournamentSpec.create(
        game=game, format="swiss", entry=entry, rounds=5, duplicate=duplicate, seed=11
    )


def test_every_table_deals_the_same_cards_and_the_seats_turn() -> None:
    tarneeb = spec()
    entrants = people(8, pairs=True)
    order = [e.id for e in seed_order(entrants, tarneeb.seed)]  # the first round's ranking
    paired = pair_round(tarneeb, entrants, [], [])
    first, second = (new_game(tarneeb, table) for table in paired.tables[:2])
    assert first.deals[0] == second.deals[0]
    assert {table.seed for table in paired.tables} == {first_seed := paired.tables[0].seed}
    one, two = paired.tables[0], paired.tables[1]
    # table 1: the better pair holds team 0's cards; table 2: the better pair holds team 1's,
    # the cards the other pair held at table 1
    better_at = [min(t.entrants, key=order.index) for t in (one, two)]
    assert one.side_of(better_at[0]) == 0 and two.side_of(better_at[1]) == 1
    held_by_second_at_one = [first.deals[0].hands[s] for s in (1, 3)]
    held_by_first_at_two = [
        second.deals[0].hands[s] for s, seat in enumerate(two.seats) if seat.entrant == better_at[1]
    ]
    assert held_by_first_at_two == held_by_second_at_one
    assert first_seed != pair_round(tarneeb, entrants, [paired], []).tables[0].seed


def test_without_duplicate_every_table_has_its_own_deals() -> None:
    tarneeb = spec(duplicate=False)
    paired = pair_round(tarneeb, people(8, pairs=True), [], [])
    assert len({table.seed for table in paired.tables}) == 4
    games = [new_game(tarneeb, table) for table in paired.tables]
    assert games[0].deals[0] != games[1].deals[0]
    results = [TableResult(1, t.number, (1, 2), deals=((10.0, 0.0),)) for t in paired.tables]
    assert set(duplicate_scores(paired, results).values()) == {0.0}


def four_tables() -> Round:
    return build_round(spec(), 1, [[(1,), (2,)], [(3,), (4,)], [(5,), (6,)], [(7,), (8,)]])


def test_a_side_is_compared_with_those_who_held_the_same_cards() -> None:
    paired = four_tables()
    # hands (team 0, team 1) at tables 1-4 are held by (1,2), (4,3), (5,6), (8,7)
    assert [t.sides for t in paired.tables] == [
        ((1,), (2,)), ((4,), (3,)), ((5,), (6,)), ((8,), (7,))
    ]  # fmt: skip
    deals = {
        1: ((10.0, 0.0), (0.0, 4.0)),
        2: ((6.0, 0.0), (0.0, 8.0)),
        3: ((4.0, 2.0), (2.0, 2.0)),
        4: ((0.0, 6.0),),  # this table played only the first deal
    }
    results = [TableResult(1, number, (1, 2), deals=d) for number, d in deals.items()]
    scores = duplicate_scores(paired, results)
    # net scores of team 0 on deal 1 at tables 1-4: 10, 6, 2, -6 (mean of the others: 2/3 ...)
    net0 = {1: [10, -4], 2: [6, -8], 3: [2, 0], 4: [-6]}
    expected0 = {}
    for table, nets in net0.items():
        total = 0.0
        for deal, mine in enumerate(nets):
            others = [n[deal] for t, n in net0.items() if t != table and deal < len(n)]
            total += mine - sum(others) / len(others)
        expected0[table] = total
    holders0 = {1: 1, 2: 4, 3: 5, 4: 8}
    holders1 = {1: 2, 2: 3, 3: 6, 4: 7}
    for table in deals:
        assert scores[holders0[table]] == pytest.approx(expected0[table])
        # team 1's net is the negative of team 0's, and so is its comparison
        assert scores[holders1[table]] == pytest.approx(-expected0[table])
    assert scores[1] == pytest.approx((10 - (6 + 2 - 6) / 3) + (-4 - (-8 + 0) / 2))


def test_a_table_without_a_result_scores_nothing_and_is_not_compared() -> None:
    paired = four_tables()
    results = [
        TableResult(1, 1, (1, 2), deals=((10.0, 0.0),)),
        TableResult(1, 2, (1, 2), deals=((4.0, 0.0),)),
    ]
    scores = duplicate_scores(paired, results)
    assert scores == {1: 6.0, 2: -6.0, 4: -6.0, 3: 6.0, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0}


def test_tables_of_another_size_play_other_deals_and_are_not_compared() -> None:
    tunge = spec("tunge", "individuals")
    paired = pair_round(tunge, people(7), [], [])
    assert [len(t.seats) for t in paired.tables] == [4, 3]
    results = [
        TableResult(1, 1, (1, 2, 3, 4), deals=((9.0, 3.0, 1.0, 0.0),)),
        TableResult(1, 2, (1, 2, 3), deals=((5.0, 2.0, 0.0),)),
    ]
    assert set(duplicate_scores(paired, results).values()) == {0.0}


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 6),
    st.integers(1, 4),
    st.data(),
)
def test_duplicate_scores_of_those_holding_the_same_cards_sum_to_zero(
    tables: int, deals: int, data: st.DataObject
) -> None:
    paired = build_round(spec(), 1, [[(2 * t + 1,), (2 * t + 2,)] for t in range(tables)])
    score = st.integers(-20, 20).map(float)
    results = [
        TableResult(
            1,
            t + 1,
            (1, 2),
            deals=tuple((data.draw(score), data.draw(score)) for _ in range(deals)),
        )
        for t in range(tables)
    ]
    scores = duplicate_scores(paired, results)
    for hand in (0, 1):
        holders = [table.sides[hand][0] for table in paired.tables]
        assert sum(scores[e] for e in holders) == pytest.approx(0.0, abs=1e-9)
    same = [TableResult(1, t + 1, (1, 2), deals=results[0].deals) for t in range(tables)]
    assert set(duplicate_scores(paired, same).values()) == {0.0}  # the same play, no luck
