"""Real games at tournament tables: random legal moves, read back as the table's result."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from bot.tournaments.results import table_result
from bot.tournaments.spec import Entrant, TournamentSpec
from bot.tournaments.tables import Round, Table, TableResult
from games.base import Game
from games.registry import get_game

MAX_MOVES = 20_000


def people(count: int, *, pairs: bool = False, ratings: Iterable[float] = ()) -> list[Entrant]:
    """Entrants 1..count (user ids 100, 101, ...), with the given ratings (else 0)."""
    given = list(ratings)
    size = 2 if pairs else 1
    return [
        Entrant(
            id=number,
            members=tuple(100 + size * number + member for member in range(size)),
            rating=given[number - 1] if given else 0.0,
            name=f"E{number}",
        )
        for number in range(1, count + 1)
    ]


def new_game(spec: TournamentSpec, table: Table) -> Game:
    options: dict[str, Any] = dict(spec.options)
    if not get_game(spec.game).teams:
        options["players"] = len(table.seats)
    return get_game(spec.game).new(options, seed=table.seed)


def play(
    spec: TournamentSpec,
    round: int,
    table: Table,
    rng: random.Random,
    *,
    stand_ins: Iterable[int] = (),
) -> TableResult:
    """Play ``table``'s game to the end with random legal moves; its result."""
    game = new_game(spec, table)
    deals: list[Mapping[str, Any]] = []
    moves = 0
    while game.status == "in_progress":
        assert moves < MAX_MOVES, "the game did not end"
        seat = rng.choice(game.to_act())
        for event in game.apply(seat, rng.choice(game.legal_moves(seat))):
            if event.kind == "hand_scored":
                deals.append(event.data.get("result", event.data))
        moves += 1
    outcome = game.outcome()
    assert outcome is not None
    return table_result(
        spec.game,
        round,
        table,
        winners=outcome.winners,
        score=outcome.score,
        deals=deals,
        stand_ins=[e for e in stand_ins if e in table.entrants],
    )


def play_round(
    spec: TournamentSpec, paired: Round, rng: random.Random, *, stand_ins: Iterable[int] = ()
) -> list[TableResult]:
    absent = list(stand_ins)
    return [play(spec, paired.number, table, rng, stand_ins=absent) for table in paired.tables]
