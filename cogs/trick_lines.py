"""Trick lines: each trick's result as a short line in a table's own thread.

"Trick 3: Alice wins with A♠ (Team A 2 · Team B 1 tricks)". The line is built from the engines'
public events only: ``card_played`` (who played which card) and ``trick_won`` (the winner, and
the trick number and the teams' tricks or points when the game gives them). Nothing here decides
a rule: the winning card is the card the engine's winner played.

Lines are queued with the :class:`Board`'s results (so a hand's last trick comes before the
hand's result) and posted only where the server wanted them when the table opened (``/settings
server trick_lines``, on by default; a table keeps the setting it opened with) and only in a
thread the bot opened for the table: in a shared channel the table message keeps showing the
last trick, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.sessions import LiveTable, UserError
from cogs.card_faces import card_face
from cogs.render import TEAM_NAMES, shown_name
from games.base import Event

if TYPE_CHECKING:
    from bot.app import CardTableBot


class TrickLine(str):
    """A queued trick line: posted only where :meth:`TrickLines.allows` says so."""

    __slots__ = ()


def _tally(data: Mapping[str, Any]) -> str:
    """The teams' tricks (or card points) after this trick, as the engine gives them."""
    for key, unit in (("tricks", "tricks"), ("team_points", "points")):
        values = data.get(key)
        if isinstance(values, list) and len(values) == len(TEAM_NAMES):
            return " · ".join(f"Team {TEAM_NAMES[i]} {v}" for i, v in enumerate(values)) + (
                f" {unit}"
            )
    return ""


def _number(data: Mapping[str, Any]) -> int | None:
    for key in ("trick", "trick_number"):
        if isinstance(data.get(key), int):
            return int(data[key])
    tricks = data.get("tricks")
    if isinstance(tricks, list) and all(isinstance(t, int) for t in tricks):
        return sum(tricks)
    return None


class TrickLines:
    """Builds the trick lines of a table's moves, and says where they may be posted."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.plays: dict[int, dict[int, str]] = {}  # table → the current trick's seat → card
        self.own_threads: dict[int, bool] = {}  # channel → a thread the bot opened

    def lines(self, table: LiveTable, events: Sequence[Event]) -> list[TrickLine]:
        """The lines of one move's events (and note the cards played for later tricks)."""
        plays = self.plays.get(table.id)
        if plays is None:  # first look (after a restart): the cards of the trick under way
            plays = self.plays[table.id] = {}
            if table.game is not None and not any(e.kind == "trick_won" for e in events):
                trick = getattr(table.view(None), "trick", None) or ()
                plays.update({int(s): str(c) for s, c in trick})
        out = []
        for event in events:
            if not event.public:
                continue
            if event.kind == "card_played" and "seat" in event.data and "card" in event.data:
                plays[int(event.data["seat"])] = str(event.data["card"])
            elif event.kind == "trick_won" and isinstance(event.data.get("winner"), int):
                out.append(TrickLine(self._line(table, event.data, plays)))
                plays.clear()
        if table.row.status != "playing":
            self.plays.pop(table.id, None)
        return out

    @staticmethod
    def _line(table: LiveTable, data: Mapping[str, Any], plays: Mapping[int, str]) -> str:
        winner = int(data["winner"])
        names = table.names
        who = shown_name(names[winner]) if 0 <= winner < len(names) else f"seat {winner + 1}"
        number = _number(data)
        card = plays.get(winner)
        text = f"Trick {number}: " if number is not None else "Trick: "
        text += f"{who} wins" + (f" with {card_face(card)}" if card else "")
        tally = _tally(data)
        return f"{text} ({tally})" if tally else text

    async def allows(self, table: LiveTable, text: str) -> bool:
        """Whether a queued result may be posted: any result but a trick line, and a trick line
        only in the table's own thread of a table opened while the server wanted them."""
        if not isinstance(text, TrickLine):
            return True
        if not await self._own_thread(table.row.channel_id):
            return False
        if table.row.trick_lines is not None:  # the table's own, kept from when it opened
            return table.row.trick_lines
        try:  # an older table's: the server's current setting
            return (await self.bot.sessions.guild_settings(table.row.guild_id)).trick_lines
        except UserError:  # the database is down: skip the line, the table message shows it
            return False

    async def _own_thread(self, channel_id: int) -> bool:
        """Whether the channel is a thread the bot opened (for a table: it opens no other)."""
        known = self.own_threads.get(channel_id)
        if known is not None:
            return known
        channel: Any = self.bot.get_channel(channel_id)
        if channel is None:  # not cached (an archived thread): ask Discord once
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return False  # asked again at the next line
        me = self.bot.user
        own = isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me.id
        self.own_threads[channel_id] = own
        return own
