"""The table message's picture: the table drawn by :mod:`bot.pictures` as the embed's image.

Drawn from the public view only, off the event loop and out of the bot's process
(:class:`bot.pictures.painter.Painter`: a picture costs about 2-3 ms of CPU, ``python -m
bench.table_picture``), and only when what it shows changed: the key is the public view with
the seats' names, so a timer or a text line changing re-uses the picture already on the message
and uploads nothing.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot import i18n
from bot.i18n import _
from bot.pictures import Picture, Seating, draw_table
from bot.pictures.hand import draw_hand
from bot.pictures.painter import Painter
from bot.sessions import LiveTable
from cogs.render import engine
from games.base import Event
from games.views import TableView, TrickView

FILENAME = "table.png"
HAND_FILENAME = "hand.png"
IMAGE_URL = f"attachment://{FILENAME}"
# What a picture shows: the public view, the seats, whether the game is live. Compared as
# they are (views are frozen dataclasses): writing a view out as text cost more than drawing
# decisions did.
Key = tuple[TableView, Seating, bool]
Drawn = tuple[Key, Picture]
REDRAWS = 3  # a table that moved while its picture was drawn is drawn again, this often

log = logging.getLogger(__name__)


def seating(table: LiveTable, lang: str = i18n.ENGLISH) -> Seating:
    """The seats as the public sees them: names, who is away, teams, the table's title; the
    picture's words in ``lang`` (the server's)."""
    away = tuple(
        bool(table.seats[s].away) if s in table.seats else False for s in range(table.seat_count)
    )
    title = _(lang, "{game} · table #{table}", game=table.game_class.title, table=table.id)
    return Seating(tuple(table.names), away, table.game_class.teams, title, lang)


def showing(table: LiveTable, lang: str) -> tuple[TableView, Seating, bool] | None:
    """What the table's picture shows now (the public view, the seats, whether the game is
    live); ``None`` while there is no game to show (a lobby, a cancelled table)."""
    game = table.game
    if game is None or table.row.status in ("lobby", "cancelled"):
        return None
    view = table.view(None)
    seats = seating(table, lang)
    live = game.status == "in_progress" and table.row.status == "playing"
    return view, seats, live


def table_lines(view: TableView, seats: Seating) -> list[str]:
    """The engine's table lines (bids, contract, declarations) in the picture's language, for
    its alt text: beside the picture the message's text leaves them out."""
    return [engine(seats.lang, line, seats.names) for line in view.lines]


class TablePictures:
    """The latest picture drawn per table, and which one each table's message shows."""

    def __init__(self, painter: Painter | None = None) -> None:
        self.painter = painter or Painter(0)  # None: drawn in a thread (tests)
        self._drawn: dict[int, Drawn] = {}
        self._on_message: dict[int, Key] = {}  # table id → key of the picture its message has

    async def draw(self, table: LiveTable, lang: str = i18n.ENGLISH) -> Drawn | None:
        """The table's picture as the table is when this returns (drawn again only if what it
        shows changed, and again if a move came while it was drawn, so the text the caller
        builds next matches it); ``None`` while there is no game to show."""
        for _attempt in range(REDRAWS):
            shown = showing(table, lang)
            if shown is None:
                return None
            view, seats, live = shown
            key = (view, seats, live)
            drawn = self._drawn.get(table.id)
            if drawn is not None and drawn[0] == key:
                return drawn
            lines = table_lines(view, seats)
            try:
                picture = await self.painter.draw(draw_table, view, seats, live, lines)
            except Exception as error:  # a bug in drawing: the table's text still goes out
                log.error("table %s: its picture failed (%s)", table.id, type(error).__name__)
                return None
            self._drawn[table.id] = (key, picture)
        # The table kept moving while it was drawn: the latest picture, a move behind (the
        # move that came marked the table for another edit, which draws it again).
        return self._drawn.get(table.id)

    def attach(
        self, table_id: int, embed: discord.Embed, drawn: Drawn | None, new_message: bool = False
    ) -> list[discord.File] | None:
        """Point ``embed`` at the picture; the files the message must get (``None``: the
        message already has this picture; ``[]``: it has one no longer wanted)."""
        if drawn is None:
            return [] if table_id in self._on_message and not new_message else None
        embed.set_image(url=IMAGE_URL)
        if not new_message and self._on_message.get(table_id) == drawn[0]:
            return None
        picture = drawn[1]
        return [discord.File(io.BytesIO(picture.png), FILENAME, description=picture.alt)]

    def shown(self, table_id: int, drawn: Drawn | None) -> None:
        """The table's message now has ``drawn`` (Discord took the edit)."""
        if drawn is None:
            self._on_message.pop(table_id, None)
        else:
            self._on_message[table_id] = drawn[0]

    def forget(self, table_id: int) -> None:
        """A closed table's message changes no more."""
        self._drawn.pop(table_id, None)
        self._on_message.pop(table_id, None)


# --- the hand summary posted with a hand's result -------------------------------------------------
@dataclass(frozen=True)
class HandTricks:
    """A scored hand's tricks, to draw beside its result (all played face up: public)."""

    tricks: tuple[TrickView, ...]
    seating: Seating
    players: int
    heading: str
    computers: bool = False  # a computer holds a seat (or plays for one): it may be reported


def scored_hand(table: LiveTable, events: Sequence[Event]) -> HandTricks | None:
    """The tricks of the hand these events scored, for a trick game; else ``None``.

    Read from the game's replay summary (the tricks as played, in order), right when the hand
    is scored, before the next deal's moves."""
    game = table.game
    if game is None or not any(e.kind == "hand_scored" and e.public for e in events):
        return None
    deals = game.summary().get("deals") or []
    done = [deal for deal in deals if deal.get("result") is not None and deal.get("tricks")]
    if not done:  # not a trick game (Tunge), or a hand thrown in unplayed
        return None
    tricks = tuple(
        TrickView(
            int(t["leader"]),
            tuple(str(card) for card in t["cards"]),
            int(t["winner"]),
            tuple(int(s) for s in t["seats"]) if "seats" in t else None,
        )
        for t in done[-1]["tricks"]
    )
    seats = seating(table)
    heading = f"{seats.title} · hand {len(done)}: the tricks"
    computers = any(h.user_id is None for h in table.holders) or any(seats.away)
    return HandTricks(tricks, seats, table.view(None).players, heading, computers)


async def hand_file(hand: HandTricks, painter: Painter | None = None) -> discord.File | None:
    """The hand summary as a file to post, drawn off the event loop (by ``painter``; None: in
    a thread); ``None`` if drawing failed (the result is posted without it)."""
    try:
        picture = await (painter or Painter(0)).draw(
            draw_hand, hand.tricks, hand.seating, hand.players, hand.heading
        )
    except Exception as error:
        log.error("a hand summary failed (%s)", type(error).__name__)
        return None
    return discord.File(io.BytesIO(picture.png), HAND_FILENAME, description=picture.alt)
