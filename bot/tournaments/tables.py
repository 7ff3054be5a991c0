"""A round's tables: its sides, who sits in which seat, the deals' seed, and the table's result.

A table has two or more **sides** (a pair, two rotating partners, or one player), each holding
one **hand**: in a partnership game hand ``h`` is team ``h`` (seats ``h, h+2, ...``, the
engine's even and odd seats), in a game for each alone it is seat ``h``. :func:`build_round`
seats each table from its sides in ranked order and turns the seats by one hand per table:

    at table ``t`` (1-based) of a round with ``m`` hands a table, the side ranked ``i`` at it
    holds hand ``(i + t - 1) mod m``.

So in a pairs game the higher-ranked pair holds team 0's cards at table 1, team 1's at table 2,
team 0's at table 3, ...: with duplicate deals (every table the same seed, hence the same cards
in the same seats) the pair in the first place at table 2 holds the cards the second pair held
at table 1. Every hand of the deal is held at every table, and :mod:`bot.tournaments.duplicate`
compares those who held the same hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournaments.spec import Layout, TournamentSpec, derive_seed


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a game seat: an entrant and which of its members (0, or 1 for a pair's
    second)."""

    entrant: int
    member: int


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round. ``sides[h]`` are the entrant ids holding hand ``h``; ``seats[s]``
    who sits in game seat ``s``; ``seed`` the game's seed (the same at every table of a
    duplicate round)."""

    number: int
    sides: tuple[tuple[int, ...], ...]
    seats: tuple[Seat, ...]
    seed: int

    @property
    def entrants(self) -> tuple[int, ...]:
        return tuple(entrant for side in self.sides for entrant in side)

    def side_of(self, entrant: int) -> int:
        return next(hand for hand, side in enumerate(self.sides) if entrant in side)

    def opponents(self, entrant: int) -> tuple[int, ...]:
        mine = self.side_of(entrant)
        return tuple(
            other for hand, side in enumerate(self.sides) if hand != mine for other in side
        )

    def partners(self, entrant: int) -> tuple[int, ...]:
        return tuple(other for other in self.sides[self.side_of(entrant)] if other != entrant)


@dataclass(frozen=True, slots=True)
class Round:
    """A paired round: its tables and the entrants with a bye (scored as a win)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    @property
    def entrants(self) -> tuple[int, ...]:
        """Everyone in the round, seated or on a bye."""
        return tuple(e for table in self.tables for e in table.entrants) + self.byes

    def table_of(self, entrant: int) -> Table | None:
        return next((table for table in self.tables if entrant in table.entrants), None)


@dataclass(frozen=True, slots=True)
class TableResult:
    """How one table ended.

    ``places[h]``: the finishing place of the side holding hand ``h`` (1 is first; sides
    sharing a place drew). ``deals[d][h]``: that side's score on deal ``d``, as the game's
    ``facts.hand_score`` gives it (for the duplicate score; empty without duplicate deals).
    ``stand_ins``: the entrants a computer played for (absent, or gone before the end): the
    result is theirs all the same, and the standings mark it."""

    round: int
    table: int
    places: tuple[int, ...]
    deals: tuple[tuple[float, ...], ...] = ()
    stand_ins: tuple[int, ...] = ()

    @classmethod
    def of_winners(cls, round: int, table: int, sides: int, winners: Sequence[int]) -> TableResult:
        """A result where ``winners`` (hands) share first place and the rest share second; no
        winners is a draw."""
        places = tuple(1 if hand in winners or not winners else 2 for hand in range(sides))
        return cls(round, table, places)


def deal_seed(spec: TournamentSpec, round: int, table: int) -> int:
    """A table's game seed: one per round with duplicate deals, else one per table."""
    if spec.duplicate:
        return derive_seed(spec.seed, "deals", round)
    return derive_seed(spec.seed, "deals", round, table)


def seat_table(
    spec: TournamentSpec, round: int, number: int, ranked: Sequence[Sequence[int]]
) -> Table:
    """Table ``number`` of ``round`` with its sides in ranked order (best first): the sides'
    hands turned by the table number (see the module's docstring), then their members seated
    in the hand's seats in order."""
    hands = len(ranked)
    turn = (number - 1) % hands
    sides: list[tuple[int, ...]] = [()] * hands
    for rank, side in enumerate(ranked):
        sides[(rank + turn) % hands] = tuple(side)
    seats_count = hands if spec.layout is Layout.FREE else spec.seats
    seats: list[Seat | None] = [None] * seats_count
    for hand, side in enumerate(sides):
        positions = range(hand, seats_count, hands)
        each = len(positions) // len(side)
        people = [Seat(entrant, member) for entrant in side for member in range(each)]
        for position, person in zip(positions, people, strict=True):
            seats[position] = person
    return Table(
        number=number,
        sides=tuple(sides),
        seats=tuple(seat for seat in seats if seat is not None),
        seed=deal_seed(spec, round, number),
    )


def build_round(
    spec: TournamentSpec,
    number: int,
    tables: Sequence[Sequence[Sequence[int]]],
    byes: Sequence[int] = (),
) -> Round:
    """A round from each table's sides in ranked order (best table first) and its byes."""
    return Round(
        number=number,
        tables=tuple(
            seat_table(spec, number, index, sides) for index, sides in enumerate(tables, start=1)
        ),
        byes=tuple(byes),
    )
