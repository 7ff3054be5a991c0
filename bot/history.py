"""A server's game history and a game's transcript, read from the store.

The history lists the closed games of one server (finished or abandoned: those with a result),
newest first, a page at a time. Every query takes the server's id and filters by it, so a game of
another server is never listed, and never exported whatever table number a crafted click names.

Who asks matters too (a :class:`Viewer`): a game is listed and exported only to those who can
view the channel it was played in (a thread table: the thread's channel), and to its players.
The cog decides which channels a member can view, with Discord's permissions; the store's queries
apply that list.

An export is the stored game as the transcript of ``shared/spec/transcripts.md``: the table's
options, first dealer, every deal it shuffled and every move, in order. It shows every hand, so
it is given only once the game is over (:func:`export_refusal`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store import OPEN_STATUSES, SeatName, StoreInterface
from games.base import Deal, Move
from games.transcript import Transcript

PAGE_SIZE = 10
MAX_PAGE = 1000  # a crafted page number beyond this is refused, not sent to SQLite
MAX_ID = 2**63 - 1  # SQLite's integers: a larger crafted id would overflow


@dataclass(frozen=True)
class Viewer:
    """Who asks for the history, and the ids of the channels (threads included) they can view."""

    user_id: int
    channels: frozenset[int]

    def channels_json(self) -> str:
        return json.dumps(sorted(self.channels))


class HistoryRefusal(Exception):
    """An export (or page) that is refused; the message is safe to show the user."""


@dataclass(frozen=True)
class GameRecord:
    """One closed game as the history shows it."""

    table_id: int
    game: str
    finished_at: float
    seats: tuple[SeatName, ...]  # by seat, everyone who held it, in the order they held it
    score: tuple[int, ...]
    winners: tuple[int, ...]
    abandoned: bool
    resigned: int | None = None  # the seat whose last person left: the game is its loss
    tournament: tuple[int, int] | None = None  # (tournament, round) of a tournament's game

    @property
    def seat_count(self) -> int:
        return len({s.seat for s in self.seats})

    def names_of(self, seat: int) -> tuple[str, ...]:
        """Who held the seat, in order: one name, or more when it changed hands mid-game."""
        names: list[str] = []
        for holder in self.seats:
            if holder.seat == seat and (not names or names[-1] != holder.name):
                names.append(holder.name)
        return tuple(names) or (f"seat {seat + 1}",)

    def name_of(self, seat: int) -> str:
        """The seat's holders as one name: ``Ada → 🤖 Bob`` when Ada left mid-game."""
        return " → ".join(self.names_of(seat))


@dataclass(frozen=True)
class HistoryPage:
    page: int  # from 0
    games: tuple[GameRecord, ...]
    more: bool  # a next page exists


@dataclass(frozen=True)
class Export:
    """A game's transcript, ready to attach as a file."""

    table_id: int
    game: str
    transcript: dict[str, Any]
    names: tuple[str, ...] = ()  # who sat where (for a replay's picture)

    @property
    def filename(self) -> str:
        return f"table-{self.table_id}-{self.game}.json"

    def data(self) -> bytes:
        return (json.dumps(self.transcript, indent=1) + "\n").encode("utf-8")


def check_page(page: int) -> int:
    if not 0 <= page <= MAX_PAGE:
        raise HistoryRefusal(f"Pages go from 1 to {MAX_PAGE + 1}.")
    return page


async def history_page(
    store: StoreInterface,
    guild_id: int,
    page: int = 0,
    *,
    user_id: int | None = None,
    game: str | None = None,
    viewer: Viewer | None = None,
) -> HistoryPage:
    """Page ``page`` (from 0) of the server's closed games, the newest table first; only those
    where ``user_id`` sat, only of ``game``, and only those ``viewer`` may see, when given.

    Ordered by table number, not by finishing time: the results' indexes on the server end with
    the table number (the rowid), so that order is free (a long game finished late shows among
    the tables opened near its own). Newer games only ever come first, so pages are stable.
    """
    check_page(page)
    if user_id is not None and not 0 < user_id <= MAX_ID:
        return HistoryPage(page, (), False)
    rows = await store.closed_games(
        guild_id,
        user_id=user_id,
        game=game,
        limit=PAGE_SIZE + 1,
        offset=page * PAGE_SIZE,
        viewer=None if viewer is None else (viewer.channels_json(), viewer.user_id),
    )
    more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    seats = await store.seat_names([row.table_id for row in rows])
    rounds = await store.round_tables_of([row.table_id for row in rows])
    games = []
    for row in rows:
        outcome = row.outcome
        games.append(
            GameRecord(
                table_id=row.table_id,
                game=row.game,
                finished_at=row.finished_at,
                seats=tuple(seats.get(row.table_id, ())),
                score=tuple(int(v) for v in outcome.get("score") or ()),
                winners=tuple(int(s) for s in outcome.get("winners") or ()),
                abandoned=bool(outcome.get("abandoned")),
                resigned=outcome.get("resigned"),
                tournament=rounds.get(row.table_id),
            )
        )
    return HistoryPage(page, tuple(games), more)


def export_refusal(status: str, started: bool) -> str | None:
    """Why a table's transcript may not be exported now, or None when it may.

    A transcript holds every hand. Once the game is over anyone of the server may have it; while
    it is played nobody may, its players included: the deals would show each of them the other
    seats' hidden cards (and a partner's), so the game could no longer be played fairly.
    """
    if status in OPEN_STATUSES:
        return (
            "This game is still being played: its transcript shows every hand, so it can be "
            "exported once the game is over."
        )
    if not started:
        return "That table never started a game, so there is nothing to export."
    return None


async def export(
    store: StoreInterface, guild_id: int, table_id: int, viewer: Viewer | None = None
) -> Export:
    """The transcript of a game of this server that ``viewer`` (when given) may see;
    :class:`HistoryRefusal` when it is refused."""
    table = await store.get_table(table_id) if 0 < table_id <= MAX_ID else None
    # Another server's table, or one the viewer may not see, is answered as a missing one.
    if table is None or table.guild_id != guild_id or not await _may_see(store, table_id, viewer):
        raise HistoryRefusal(f"There is no game #{table_id} in this server's history.")
    refusal = export_refusal(table.status, table.first_dealer is not None)
    if refusal is not None:
        raise HistoryRefusal(refusal)
    assert table.first_dealer is not None
    transcript = Transcript(
        game=table.game,
        options=dict(table.options),
        first_dealer=table.first_dealer,
        deals=[Deal.from_json(deal) for deal in await store.deals(table.id)],
        moves=[(move.seat, Move.from_json(move.move)) for move in await store.moves(table.id)],
    )
    seats = (await store.seat_names([table.id])).get(table.id, [])
    by_seat = {seat.seat: seat.name for seat in seats}  # who held each seat last
    names = tuple(by_seat.get(s, f"Seat {s + 1}") for s in range(max(by_seat, default=-1) + 1))
    return Export(table.id, table.game, transcript.to_json(), names)


async def _may_see(store: StoreInterface, table_id: int, viewer: Viewer | None) -> bool:
    return viewer is None or await store.may_see(table_id, viewer.channels_json(), viewer.user_id)
