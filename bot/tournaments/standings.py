"""Standings after any round: match points, then Buchholz, then the duplicate score, then seed.

- **Match points** per table: ``2 × (sides beaten + ½ × sides tied) / (sides − 1)``: a match
  between two sides scores 2 for a win, 1 for a draw and 0 for a loss; at a Tunge table of
  three or four the first scores 2 and the last 0 whatever the table's size. A **bye** scores a
  win's 2, as Swiss rules score it.
- **Buchholz**: for each round played, the mean of that round's opponents' match points (their
  current total), summed. For a match of two sides this is the usual sum of opponents' points;
  the mean keeps a Tunge player at a table of four level with one at a table of three. A bye
  has no opponent and adds nothing; nor does a table still without a result.
- **Duplicate score**: :func:`bot.tournaments.duplicate.duplicate_scores` summed over rounds.
- Then the **seed order**: rating, then a draw from the tournament's seed (stable).

Entrants equal on the first three share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.duplicate import duplicate_scores
from bot.tournaments.spec import Entrant, derive_seed
from bot.tournaments.tables import Round, TableResult

WIN = Fraction(2)
BYE = WIN


def table_points(places: Sequence[int], hand: int) -> Fraction:
    """The match points of the side holding ``hand`` at a table that finished in ``places``."""
    mine = places[hand]
    beaten = sum(1 for place in places if place > mine)
    tied = sum(1 for place in places if place == mine) - 1
    return WIN * (beaten + Fraction(tied, 2)) / (len(places) - 1)


def seed_order(entrants: Iterable[Entrant], seed: int) -> list[Entrant]:
    """Entrants strongest first: by rating, equal ratings in an order drawn from ``seed``."""
    return sorted(entrants, key=lambda e: (-e.rating, derive_seed(seed, "draw", e.id), e.id))


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; ``stand_ins`` counts the rounds a computer played for them."""

    rank: int
    entrant: Entrant
    points: Fraction
    buchholz: Fraction
    duplicate: float
    played: int
    byes: int
    stand_ins: int


def standings(
    entrants: Iterable[Entrant],
    rounds: Sequence[Round],
    results: Iterable[TableResult],
    *,
    seed: int,
) -> list[Standing]:
    """The standings from the rounds paired so far and the results in so far."""
    ordered = seed_order(entrants, seed)
    by_table = {(result.round, result.table): result for result in results}
    points: dict[int, Fraction] = defaultdict(Fraction)
    played: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    stand_ins: dict[int, int] = defaultdict(int)
    duplicate: dict[int, float] = defaultdict(float)
    met: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for paired in rounds:
        for entrant in paired.byes:
            points[entrant] += BYE
            byes[entrant] += 1
        finished = [
            by_table[(paired.number, table.number)]
            for table in paired.tables
            if (paired.number, table.number) in by_table
        ]
        for entrant, score in duplicate_scores(paired, finished).items():
            duplicate[entrant] += score
        for result in finished:
            table = paired.tables[result.table - 1]
            for hand, side in enumerate(table.sides):
                for entrant in side:
                    points[entrant] += table_points(result.places, hand)
                    played[entrant] += 1
                    met[entrant].append(table.opponents(entrant))
            for entrant in result.stand_ins:
                stand_ins[entrant] += 1
    buchholz = {
        e.id: sum(
            (sum((points[o] for o in group), Fraction()) / len(group) for group in met[e.id]),
            Fraction(),
        )
        for e in ordered
    }
    key = {e.id: (-points[e.id], -buchholz[e.id], -round_score(duplicate[e.id])) for e in ordered}
    ordered.sort(key=lambda e: key[e.id])  # stable: equal keys stay in seed order
    rows: list[Standing] = []
    for index, e in enumerate(ordered):
        shared = index > 0 and key[e.id] == key[ordered[index - 1].id]
        rows.append(
            Standing(
                rank=rows[-1].rank if shared else index + 1,
                entrant=e,
                points=points[e.id],
                buchholz=buchholz[e.id],
                duplicate=duplicate[e.id],
                played=played[e.id],
                byes=byes[e.id],
                stand_ins=stand_ins[e.id],
            )
        )
    return rows


def round_score(value: float) -> float:
    """A duplicate score as compared and shown: to two decimals (float sums of the same deals
    in another order must not split a tie)."""
    return round(value, 2) + 0.0


def number(value: Fraction | float) -> str:
    """A score for people: whole numbers plain, others to two decimals."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.2f}"
    return "0" if text in ("0.00", "-0.00") else text


@dataclass(frozen=True, slots=True)
class StandingsWords:
    """The words of a standings table, in the reader's language (English by default): the
    column heads, how byes are counted, the note under the table and a line of the words
    said in place of the picture."""

    heads: tuple[str, str, str, str, str, str] = (
        "#",
        "Entrant",
        "MP",
        "Buchholz",
        "Dup",
        "Played",
    )
    byes: Callable[[int], str] = lambda n: f"+{n} bye" if n == 1 else f"+{n} byes"
    note: str = "* a computer played for them in at least one round"
    said: str = "{rank}. {name}: {points} MP, Buchholz {buchholz}"


ENGLISH = StandingsWords()


def played_cell(row: Standing, words: StandingsWords = ENGLISH) -> str:
    """Games played, and the byes beside them."""
    return f"{row.played} {words.byes(row.byes)}" if row.byes else str(row.played)


def standings_text(
    rows: Sequence[Standing], *, duplicate: bool = True, words: StandingsWords = ENGLISH
) -> str:
    """The standings as a fixed-width table (for a code block); an entrant a computer played
    for is marked ``*``, with a note under the table."""
    place, entrant, mp, buchholz, dup, played = words.heads
    header = [place, entrant, mp, buchholz] + ([dup] if duplicate else []) + [played]
    lines = [
        [
            str(row.rank),
            row.entrant.label + ("*" if row.stand_ins else ""),
            number(row.points),
            number(row.buchholz),
            *([number(round_score(row.duplicate))] if duplicate else []),
            played_cell(row, words),
        ]
        for row in rows
    ]
    widths = [max(len(line[i]) for line in [header, *lines]) for i in range(len(header))]
    left = {1, len(header) - 1}

    def cells(line: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(line, widths, strict=True))
        ).rstrip()

    text = [cells(header), *(cells(line) for line in lines)]
    if any(row.stand_ins for row in rows):
        text.append(words.note)
    return "\n".join(text)
