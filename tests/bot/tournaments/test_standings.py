"""Standings: match points by place, Buchholz (byes add nothing), the duplicate score, shared
ranks, and the printed table."""

from __future__ import annotations

from fractions import Fraction

from bot.tournaments.spec import TournamentSpec
from bot.tournaments.standings import BYE, standings, standings_text, table_points
from bot.tournaments.tables import TableResult, build_round
from tests.bot.tournaments.play import people

PAIRS = TournamentSpec.create(game="tarneeb", format="swiss", entry="pairs", rounds=3)


def test_match_points_share_out_two_by_place() -> None:
    assert [table_points((1, 2), hand) for hand in (0, 1)] == [2, 0]
    assert [table_points((1, 1), hand) for hand in (0, 1)] == [1, 1]
    assert [table_points((2, 1, 3), hand) for hand in range(3)] == [1, 2, 0]
    four = [table_points((1, 2, 3, 4), hand) for hand in range(4)]
    assert four == [2, Fraction(4, 3), Fraction(2, 3), 0]
    assert [table_points((1, 2, 2, 4), hand) for hand in range(4)] == [2, 1, 1, 0]
    assert BYE == 2


def test_buchholz_sums_the_opponents_points_and_a_bye_adds_none() -> None:
    entrants = people(5, pairs=True, ratings=[5, 4, 3, 2, 1])
    one = build_round(PAIRS, 1, [[(1,), (2,)], [(3,), (4,)]], byes=[5])
    two = build_round(PAIRS, 2, [[(1,), (3,)], [(5,), (2,)]], byes=[4])
    results = [
        TableResult.of_winners(1, 1, 2, [0]),  # 1 beats 2
        TableResult.of_winners(1, 2, 2, []),  # 3 and 4 draw
        TableResult(2, 1, (2, 1)),  # 3 (hand 1) beats 1
        TableResult.of_winners(2, 2, 2, [1]),  # 5 beats 2 (5 holds hand 1 at table 2)
    ]
    assert two.tables[0].sides == ((1,), (3,)) and two.tables[1].sides == ((2,), (5,))
    rows = {row.entrant.id: row for row in standings(entrants, [one, two], results, seed=0)}
    assert {e: rows[e].points for e in rows} == {1: 2, 2: 0, 3: 3, 4: 3, 5: 4}
    # 1 met 2 (0) and 3 (3); 3 met 4 (3) and 1 (2); 4 met 3 only (3): its bye adds nothing
    assert {e: rows[e].buchholz for e in rows} == {1: 3, 2: 6, 3: 5, 4: 3, 5: 0}
    assert (rows[4].played, rows[4].byes, rows[5].played, rows[5].byes) == (1, 1, 1, 1)
    order = [row.entrant.id for row in standings(entrants, [one, two], results, seed=0)]
    assert order == [5, 3, 4, 1, 2]


def test_equal_entrants_share_a_rank_and_keep_the_seed_order() -> None:
    entrants = people(4, pairs=True, ratings=[1, 2, 3, 4])
    one = build_round(PAIRS, 1, [[(4,), (3,)], [(2,), (1,)]])
    assert one.tables[1].sides == ((1,), (2,))  # the second table's seats are turned
    results = [TableResult.of_winners(1, 1, 2, [0]), TableResult.of_winners(1, 2, 2, [0])]
    rows = standings(entrants, [one], results, seed=0)
    # 4 and 1 won, each against a pair with no points: equal, so the better seed first
    assert [(r.rank, r.entrant.id) for r in rows] == [(1, 4), (1, 1), (3, 3), (3, 2)]


def test_the_duplicate_score_breaks_a_tie_on_points_and_buchholz() -> None:
    entrants = people(4, pairs=True)
    one = build_round(PAIRS, 1, [[(1,), (2,)], [(3,), (4,)]])
    # table 2 is turned: 4 holds team 0's cards; 1 and 4 won, 4 by more on the same deal
    results = [
        TableResult(1, 1, (1, 2), deals=((5.0, 0.0),)),
        TableResult(1, 2, (1, 2), deals=((9.0, 0.0),)),
    ]
    rows = standings(entrants, [one], results, seed=0)
    assert [r.entrant.id for r in rows] == [4, 1, 2, 3]
    assert [r.duplicate for r in rows] == [4.0, -4.0, 4.0, -4.0]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_the_printed_table() -> None:
    entrants = people(3, ratings=[3, 2, 1])
    tunge = TournamentSpec.create(game="tunge", format="swiss", entry="individuals", rounds=2)
    one = build_round(tunge, 1, [[(1,), (2,), (3,)]])
    results = [TableResult(1, 1, (1, 2, 2), stand_ins=(3,))]
    text = standings_text(standings(entrants, [one], results, seed=0), duplicate=False)
    assert text == "\n".join(
        [
            "#  Entrant    MP  Buchholz  Played",
            "1  E1          2      0.50  1",
            "2  E2       0.50      1.25  1",
            "2  E3*      0.50      1.25  1",
            "* a computer played for them in at least one round",
        ]
    )
