"""Swiss pairing: every round, entrants of similar standing meet, and nobody meets (or partners)
the same entrant again while that can be avoided.

The order is the standings (:mod:`bot.tournaments.standings`; before the first round, the seed
order: rating, then a draw). The pairings are a least-cost perfect matching
(:func:`bot.tournaments.matching.cheapest_pairs`, networkx's maximum-weight matching), with the
costs, most important first:

1. **repeats**: opponents who met before (pairs, one against one); partners who partnered
   before, then opponents who met before (rotating partners); a second bye;
2. **the bye** goes to the lowest-ranked entrant without one (when the count is odd; with
   rotating partners, as many as the tables of four leave over). A bye scores a win's match
   points, as Swiss rules score it (:data:`bot.tournaments.standings.BYE`);
3. **scores**: the square of the difference in match points;
4. **standing**: the square of the difference in rank (Monrad-style: first meets second, third
   meets fourth, when nothing else decides);
5. a draw from the tournament's seed, so that the result is deterministic.

With rotating partners, partnerships are matched first (1., 3., 4. between players), then the
partnerships into tables (1. is then opponents met before). A game for each alone (Tunge) is
seated by score group alone, with no matching: the standings in order at the fewest tables
that seat everyone three or four a table, the top ones of four (seven players: one of four,
one of three); five players make one table of four and a bye (lowest-ranked without one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction

from bot.tournaments.matching import Cost, cheapest_pairs
from bot.tournaments.spec import (
    Entrant,
    Format,
    Layout,
    TournamentError,
    TournamentSpec,
    derive_seed,
)
from bot.tournaments.standings import standings
from bot.tournaments.tables import Round, TableResult, build_round

TIE_RANGE = 1 << 10


class History:
    """Who met, partnered and had a bye in the rounds so far, and the current order."""

    def __init__(
        self,
        spec: TournamentSpec,
        entrants: Sequence[Entrant],
        rounds: Sequence[Round],
        results: Iterable[TableResult],
    ) -> None:
        rows = standings(entrants, rounds, results, seed=spec.seed)
        self.order = [row.entrant.id for row in rows]
        self.rank = {entrant: index for index, entrant in enumerate(self.order)}
        self.points = {row.entrant.id: row.points for row in rows}
        self.met: Counter[frozenset[int]] = Counter()
        self.partnered: Counter[frozenset[int]] = Counter()
        self.byes: Counter[int] = Counter()
        for paired in rounds:
            self.byes.update(paired.byes)
            for table in paired.tables:
                for entrant in table.entrants:
                    for other in table.opponents(entrant):
                        self.met[frozenset((entrant, other))] += 1
                    for other in table.partners(entrant):
                        self.partnered[frozenset((entrant, other))] += 1
        # counted from both ends
        for key in self.met:
            self.met[key] //= 2
        for key in self.partnered:
            self.partnered[key] //= 2

    def score_gap(self, a: Iterable[int], b: Iterable[int]) -> int:
        """The squared difference of two groups' match points, in sixths (whole numbers)."""
        gap = sum((self.points[e] for e in a), Fraction()) - sum(
            (self.points[e] for e in b), Fraction()
        )
        return round(gap * gap * 36)

    def rank_gap(self, a: Iterable[int], b: Iterable[int]) -> int:
        gap = sum(self.rank[e] for e in a) - sum(self.rank[e] for e in b)
        return gap * gap

    def bye_cost(self, entrant: int) -> tuple[int, int]:
        """A bye's repeat and its distance from the bottom of the standings."""
        return self.byes[entrant], len(self.order) - 1 - self.rank[entrant]


def pair_round(
    spec: TournamentSpec,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Iterable[TableResult],
) -> Round:
    """The next Swiss round after ``rounds`` (whose known ``results`` set the standings)."""
    if spec.format is not Format.SWISS:
        raise TournamentError("This tournament is not Swiss.")
    number = len(rounds) + 1
    if spec.rounds is not None and number > spec.rounds:
        raise TournamentError("All the tournament's rounds have been paired.")
    spec.check_entrants(entrants)
    history = History(spec, entrants, rounds, results)
    if spec.layout is Layout.SIDES:
        return _pair_sides(spec, number, history)
    if spec.layout is Layout.PARTNERS:
        return _pair_partners(spec, number, history)
    return _pair_free(spec, number, history)


def _tie(spec: TournamentSpec, number: int, *keys: object) -> int:
    return derive_seed(spec.seed, "pairing", number, *keys) % TIE_RANGE


def _with_byes(
    spec: TournamentSpec, number: int, history: History, byes: int
) -> list[tuple[int, int]]:
    """Everyone matched in pairs of least cost, ``byes`` of them to a bye (node ``-1``, ...):
    the first stage of sides and of rotating partners."""
    phantoms = list(range(-1, -byes - 1, -1))

    def cost(a: int, b: int) -> Cost | None:
        if a < 0 and b < 0:
            return None
        if a < 0 or b < 0:
            repeat, distance = history.bye_cost(max(a, b))
            return (repeat, distance, 0, 0, _tie(spec, number, "bye", max(a, b)))
        before = history.met if spec.layout is Layout.SIDES else history.partnered
        return (
            before[frozenset((a, b))],
            0,
            history.score_gap([a], [b]),
            history.rank_gap([a], [b]),
            _tie(spec, number, a, b),
        )

    return cheapest_pairs([*history.order, *phantoms], cost)


def _pair_sides(spec: TournamentSpec, number: int, history: History) -> Round:
    pairs = _with_byes(spec, number, history, len(history.order) % 2)
    tables = [[(a,), (b,)] for a, b in pairs if b >= 0]
    return build_round(spec, number, tables, byes=[a for a, b in pairs if b < 0])


def _pair_partners(spec: TournamentSpec, number: int, history: History) -> Round:
    pairs = _with_byes(spec, number, history, len(history.order) % 4)
    sides = [(a, b) for a, b in pairs if b >= 0]

    def cost(p: int, q: int) -> Cost:
        mine, theirs = sides[p], sides[q]
        return (
            sum(history.met[frozenset((x, y))] for x in mine for y in theirs),
            history.score_gap(mine, theirs),
            history.rank_gap(mine, theirs),
            _tie(spec, number, "table", *mine, *theirs),
        )

    tables = [[sides[p], sides[q]] for p, q in cheapest_pairs(range(len(sides)), cost)]
    return build_round(spec, number, tables, byes=[a for a, b in pairs if b < 0])


def free_table_sizes(players: int) -> list[int]:
    """Tables of four and three for ``players`` (at least three), fours first; five make one
    table of four (the fifth has a bye)."""
    if players < 3:
        raise TournamentError("A table needs at least three players.")
    if players in (3, 4, 5):
        return [min(players, 4)]
    tables = -(-players // 4)
    fours = players - 3 * tables
    return [4] * fours + [3] * (tables - fours)


def _pair_free(spec: TournamentSpec, number: int, history: History) -> Round:
    sizes = free_table_sizes(len(history.order))
    spare = len(history.order) - sum(sizes)
    # the bye: fewest byes so far, then lowest in the standings
    byes = sorted(history.order, key=lambda e: (history.byes[e], -history.rank[e]))[:spare]
    seated = [e for e in history.order if e not in byes]
    tables: list[list[tuple[int, ...]]] = []
    for size in sizes:
        tables.append([(e,) for e in seated[:size]])
        seated = seated[size:]
    return build_round(spec, number, tables, byes=byes)
