"""Reporting a computer's play at a trick of a finished hand (the "Report this hand" button).

The button on a hand's result names the table and how many moves the game had when the hand
was scored; everything else is read again from the database at each click, so a click after a
restart works and one on a game no longer kept is answered plainly. Only a person who held a
seat of the game may report, and only a card a computer chose (a computer seat's, or a
stand-in's for a person who ran out of time or was away: kept as a computer's move), never a
person's own card, even once that person is forgotten and their moves carry no user id. The
report is the position the computer decided from, built by the rules (:mod:`games.reports`):
the seat's view and public history then, never the deal. One report per player per trick: the
database keeps the promise.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_
from bot.store import StoreInterface
from games.base import Deal, Game, Move
from games.registry import get_game
from games.reports import Play, hand_plays, position


class ReportRefusal(Exception):
    """A report refused; the message is a catalogue text for the user (no hidden card)."""


GONE = N_("This game is no longer kept, so its hands cannot be reported.")
NOT_SEATED = N_("Only the players at this table can report its hands.")
NO_COMPUTER = N_("No computer played a card in this hand.")
NOT_OFFERED = N_("Choose one of the cards offered.")
REPORTED = N_("You have already reported that trick of this hand.")


@dataclass(frozen=True, slots=True)
class HandForReport:
    """A scored hand of a game, read again from the database: the computers' plays in it."""

    table_id: int
    game: str
    options: dict[str, Any]
    first_dealer: int
    deals: tuple[dict[str, Any], ...]
    moves: tuple[tuple[int, Move], ...]
    upto: int
    plays: tuple[Play, ...]
    names: tuple[str, ...]

    def new_game(self) -> Game:
        return get_game(self.game).new(
            self.options,
            deals=[Deal.from_json(deal) for deal in self.deals],
            first_dealer=self.first_dealer,
        )

    def tricks(self) -> dict[int, list[Play]]:
        """Trick number → the computers' plays in it, in the order played."""
        found: dict[int, list[Play]] = {}
        for play in self.plays:
            found.setdefault(play.trick, []).append(play)
        return found

    def play(self, before: int) -> Play:
        for play in self.plays:
            if play.before == before:
                return play
        raise ReportRefusal(NOT_OFFERED)


async def hand_for_report(
    store: StoreInterface, guild_id: int, table_id: int, upto: int, user_id: int
) -> HandForReport:
    """The hand scored after ``upto`` moves of table ``table_id``, for ``user_id`` to report;
    :class:`ReportRefusal` when the game is gone, the user held no seat of it, or no computer
    played a card in it."""
    table = await store.get_table(table_id)
    holders = await store.seat_holders(table_id) if table is not None else []
    stored = await store.moves(table_id) if table is not None else []
    deals = tuple(await store.deals(table_id)) if table is not None else ()
    if table is None or table.guild_id != guild_id or table.first_dealer is None:
        raise ReportRefusal(GONE)
    if not any(holder.user_id == user_id for holder in holders):
        raise ReportRefusal(NOT_SEATED)
    if upto < 1 or len(stored) < upto:
        raise ReportRefusal(GONE)
    moves = tuple((row.seat, Move.from_json(row.move)) for row in stored)
    by_computer = {index for index, row in enumerate(stored) if row.by_computer}
    names: dict[int, str] = {}
    for holder in sorted(holders, key=lambda h: h.after_move):
        names[holder.seat] = holder.name
    hand = HandForReport(
        table_id,
        table.game,
        dict(table.options),
        table.first_dealer,
        deals,
        moves,
        upto,
        (),
        tuple(names.get(seat, f"Seat {seat + 1}") for seat in range(max(names, default=-1) + 1)),
    )
    plays = [p for p in hand_plays(hand.new_game(), moves, upto) if p.before in by_computer]
    if not plays:
        raise ReportRefusal(NO_COMPUTER)
    return dataclasses.replace(hand, plays=tuple(plays))


async def report_play(
    store: StoreInterface, hand: HandForReport, before: int, user_id: int
) -> Play:
    """Keep ``user_id``'s report of the computer's play after ``before`` moves; the play.
    :class:`ReportRefusal` when it is no computer's play of the hand, or was reported already."""
    play = hand.play(before)
    if await store.hand_reported(hand.table_id, play.hand, play.trick, user_id):
        raise ReportRefusal(REPORTED)
    seen = position(hand.new_game(), hand.moves, play)
    seen["table_id"] = hand.table_id
    added = await store.add_hand_report(
        hand.table_id, play.hand, play.trick, user_id, play.seat, seen
    )
    if not added:
        raise ReportRefusal(REPORTED)
    return play
