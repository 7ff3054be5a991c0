"""A finished game at a tournament table, read as the table's result.

The game decides who won and what a hand was worth (:mod:`bot.records`' finishing order, the
game's ``facts.hand_score``); this only turns seats into the table's hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.records import finishing_order
from bot.tournaments.tables import Table, TableResult
from games.registry import get_game


def hand_seats(table: Table) -> list[int]:
    """The first seat of each hand (a hand's seats share its score in a partnership game)."""
    return list(range(len(table.sides)))


def places(
    game: str, table: Table, winners: Sequence[int], score: Sequence[Any]
) -> tuple[int, ...]:
    """Each hand's finishing place (1 first, equal places tied) from the game's outcome."""
    order = finishing_order(game, len(table.seats), winners, score)
    place_of = {seat: place for place, group in enumerate(order, start=1) for seat in group}
    return tuple(place_of[seat] for seat in hand_seats(table))


def deal_score(game: str, table: Table, result: Mapping[str, Any]) -> tuple[float, ...]:
    """Each hand's score on one deal from its public ``hand_scored`` result."""
    facts = get_game(game).facts
    if facts.hand_score is None:
        raise ValueError(f"{game} has no hand score")
    scores = facts.hand_score(result, len(table.seats))
    return tuple(float(scores[seat]) for seat in hand_seats(table))


def table_result(
    game: str,
    round: int,
    table: Table,
    *,
    winners: Sequence[int],
    score: Sequence[Any],
    deals: Sequence[Mapping[str, Any]] = (),
    stand_ins: Sequence[int] = (),
) -> TableResult:
    """The result of ``table`` from its game's outcome (``winners``, ``score``), the public
    results of its scored deals in order, and the entrants a computer played for."""
    return TableResult(
        round=round,
        table=table.number,
        places=places(game, table, winners, score),
        deals=tuple(deal_score(game, table, deal) for deal in deals),
        stand_ins=tuple(stand_ins),
    )
