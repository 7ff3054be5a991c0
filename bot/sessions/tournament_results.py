"""A tournament's table as a result: its game read back from the database and turned into the
table's :class:`~bot.tournaments.tables.TableResult` (places, duplicate deal scores, stand-ins).

Read from what is stored (not from the live table), so a game that ended while the bot was down
counts the same as one that ended under its eyes.
"""

from __future__ import annotations

from typing import Any

from bot.store import StoreInterface
from bot.tournaments.results import table_result
from bot.tournaments.spec import TournamentSpec
from bot.tournaments.tables import Table, TableResult
from games.base import Deal, Move
from games.registry import get_game
from games.seats import resignation_winners


async def game_result(
    store: StoreInterface, spec: TournamentSpec, number: int, table: Table, table_id: int
) -> TableResult | None:
    """The result of round ``number``'s ``table`` played as game table ``table_id``, or None
    while its game goes on. A game closed without an end (its channel deleted) is a draw, a
    resigned one the resigner's loss; an entrant whose seat was away at the end or handed to a
    computer is marked a stand-in."""
    stored = await store.get_table(table_id)
    if stored is None or stored.status in ("lobby", "playing"):
        return None
    game_class = get_game(stored.game)
    seats = await store.seats(table_id)
    game = None
    deals: list[dict[str, Any]] = []
    if stored.status != "cancelled":
        game = game_class.new(
            stored.options,
            seed=stored.seed,
            deals=[Deal.from_json(d) for d in await store.deals(table_id)],
            first_dealer=stored.first_dealer,
        )
        for move in await store.moves(table_id):
            for event in game.apply(move.seat, Move.from_json(move.move)):
                if event.kind == "hand_scored":
                    deals.append(dict(event.data))
    outcome = game.outcome() if game is not None and game.status == "finished" else None
    if outcome is not None:
        winners, score = list(outcome.winners), list(outcome.score)
    else:
        resigned = await store.resigned_seat(table_id)
        count = len(table.seats)
        winners = (
            list(resignation_winners(resigned, count, game_class.teams))
            if resigned is not None
            else []
        )
        score = [0] * count
    keep_deals = spec.duplicate and game_class.facts.hand_score is not None
    stand_ins = sorted({table.seats[s.seat].entrant for s in seats if s.away or s.user_id is None})
    return table_result(
        spec.game,
        number,
        table,
        winners=winners,
        score=score,
        deals=deals if keep_deals else (),
        stand_ins=stand_ins,
    )
