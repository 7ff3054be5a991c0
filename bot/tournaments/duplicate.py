"""Duplicate deals: every table of a round plays the same deals, and each side is compared with
those who held the same cards.

With duplicate on, every table of a round gets the same game seed
(:func:`bot.tournaments.tables.deal_seed`), so deal ``d`` puts the same cards in the same seats
at every table of a size, and :func:`bot.tournaments.tables.seat_table` turns the seats so that
each hand is held by higher- and lower-ranked sides alike. A side's score on a deal is its hand
score (the game's ``facts.hand_score``) minus the mean of the other sides' at its table (its net
score: what it made of the cards against what was made against it).

A side's duplicate score for the round is, over the deals it played, its net score minus the
mean net score of the sides that held the same hand on the same deal at the round's other
tables (tables of another size or seed play other deals and are not compared). A deal nobody
else has finished counts nothing, so a table that played fewer deals is compared only on the
deals it played. Lucky cards then score the same for everyone who held them: what remains is
how they were played. Partners share their side's score.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from statistics import fmean

from bot.tournaments.tables import Round, Table, TableResult

# Which tables play the same deals in the same seats: (seed, seats, sides).
DealsKey = tuple[int, int, int]


def net_scores(result: TableResult) -> list[list[float]]:
    """``[hand][deal]``: each side's score on each deal minus the mean of the others'."""
    hands = len(result.places)
    return [
        [
            scores[hand] - fmean(scores[h] for h in range(hands) if h != hand)
            for scores in result.deals
        ]
        for hand in range(hands)
    ]


def duplicate_scores(round: Round, results: Sequence[TableResult]) -> dict[int, float]:
    """Each seated entrant's duplicate score in ``round`` from the tables' ``results``
    (entrants at a table without a result, or without another table on its deals, score 0)."""
    groups: dict[DealsKey, list[tuple[Table, list[list[float]]]]] = defaultdict(list)
    for result in results:
        table = round.tables[result.table - 1]
        key = (table.seed, len(table.seats), len(table.sides))
        groups[key].append((table, net_scores(result)))
    scores: dict[int, float] = {e: 0.0 for table in round.tables for e in table.entrants}
    for members in groups.values():
        # per (hand, deal): the sum and count of the net scores of every table that played it
        sums: dict[tuple[int, int], tuple[float, int]] = defaultdict(lambda: (0.0, 0))
        for _, nets in members:
            for hand, deals in enumerate(nets):
                for deal, net in enumerate(deals):
                    total, count = sums[hand, deal]
                    sums[hand, deal] = (total + net, count + 1)
        for table, nets in members:
            for hand, side in enumerate(table.sides):
                score = 0.0
                for deal, mine in enumerate(nets[hand]):
                    total, count = sums[hand, deal]
                    if count > 1:
                        score += mine - (total - mine) / (count - 1)
                for entrant in side:
                    scores[entrant] = score
    return scores
