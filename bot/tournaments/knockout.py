"""A seeded knockout bracket: 1 meets N, 2 meets N-1, ..., placed so that the top seeds can only
meet late, with byes to the top seeds when the count is not a power of two; nobody is dropped.

The bracket has ``size`` = the next power of two slots. Seed ``s`` (1 = highest rating, ties
drawn from the tournament's seed) plays seed ``size + 1 - s`` in the first round; a seed over
the number of entrants is a bye, so seeds ``1 .. size - N`` go through without playing. The
matches are listed in the standard bracket order (for eight: 1-8, 4-5, 2-7, 3-6), and the
winners of matches ``2k`` and ``2k+1`` meet in the next round, so seeds 1 and 2 can only meet
in the final.

A knockout match needs a winner: a drawn match (a Tuppi game level on peaks) goes to the
higher seed (:func:`winner_of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.spec import Entrant, Format, TournamentError, TournamentSpec
from bot.tournaments.standings import seed_order
from bot.tournaments.tables import Round, Table, TableResult, build_round

# One match of a bracket: two entrant ids, or one and ``None`` (a bye).
Match = tuple[int, int | None]


def round_count(entrants: int) -> int:
    """How many rounds a knockout of ``entrants`` takes (the last is the final)."""
    return max(entrants - 1, 0).bit_length()


def bracket_order(size: int) -> list[int]:
    """The seeds in bracket order for a power of two: 1, 8, 4, 5, 2, 7, 3, 6 for eight."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_round(entrants: Sequence[Entrant], seed: int) -> list[Match]:
    """The first round's matches in bracket order, the better seed first in each."""
    seeded = seed_order(entrants, seed)
    if len(seeded) < 2:
        raise TournamentError("A knockout needs at least two entrants.")
    size = 1 << round_count(len(seeded))
    order = bracket_order(size)
    slots = [seeded[s - 1].id if s <= len(seeded) else None for s in order]
    matches: list[Match] = []
    for index in range(0, size, 2):
        top = slots[index]
        if top is None:  # never: the better seed of a pair always exists
            raise AssertionError("a bracket pair without its top seed")
        matches.append((top, slots[index + 1]))
    return matches


def next_round(matches: Sequence[Match], winners: Mapping[int, int]) -> list[Match]:
    """The next round's matches: ``winners`` maps each match's index (in ``matches``) to its
    winner; a bye's entrant goes through without one. The earlier match's winner comes first."""
    through: list[int] = []
    for index, (a, b) in enumerate(matches):
        if b is None:
            through.append(a)
            continue
        winner = winners.get(index)
        if winner not in (a, b):
            raise TournamentError(f"Match {index + 1} has no winner yet.")
        through.append(winner)
    if len(through) < 2:
        raise TournamentError("The final has been played.")
    return [(through[i], through[i + 1]) for i in range(0, len(through), 2)]


def seed_numbers(entrants: Sequence[Entrant], seed: int) -> dict[int, int]:
    """Each entrant's seed: 1 for the highest rating (ties drawn from ``seed``)."""
    return {e.id: number for number, e in enumerate(seed_order(entrants, seed), start=1)}


def winner_of(result: TableResult, table: Table, seeds: Mapping[int, int]) -> int:
    """The entrant going through from a played match: the side placed first, or on a draw the
    better seed (``seeds``: :func:`seed_numbers`)."""
    firsts = [side[0] for hand, side in enumerate(table.sides) if result.places[hand] == 1]
    if len(firsts) == 1:
        return firsts[0]
    return min(table.entrants, key=lambda entrant: seeds[entrant])


def knockout_round(spec: TournamentSpec, number: int, matches: Sequence[Match]) -> Round:
    """A bracket round as tables (the played matches, in bracket order) and byes."""
    if spec.format is not Format.KNOCKOUT:
        raise TournamentError("This tournament is not a knockout.")
    tables = [[(a,), (b,)] for a, b in matches if b is not None]
    return build_round(spec, number, tables, byes=[a for a, b in matches if b is None])
