"""How a table ended, read off its message as a person sees it (the benches' people, whose
servers speak English).

A table's message says it ended in its description's headline, as cogs/board.py and
cogs/render.py word it (tests/bench/test_table_ends.py brings a table to each end through the
session layer and reads what the board draws):

- ``over``: the game was played to its end ("Game over: 🏆 ... wins the game", "Game over:
  nobody wins", "Game over.");
- ``abandoned``: the game stopped without a result: closed by a manager or its host, everyone
  left an unrated game, every person stayed away past the time allowed, its channel was
  deleted ("This game was abandoned. Not rated.", or why, then "Not rated."), or the rules
  abandoned it ("Game abandoned.");
- ``resigned``: the last person left a rated game, or stayed away from it: a loss for their side
  ("Alice left: the game counts as a loss for Team A (...). Rated.");
- ``cancelled``: a lobby closed before its game began: by its host, when everyone left, after a
  while without activity, or with its channel ("This table was cancelled.", "This table was
  closed ...").
"""

from __future__ import annotations

import re

from bot.sessions.state import CHANNEL_DELETED_NOTE
from cogs.board import CANCELLED as LOBBY_CANCELLED
from cogs.render import ABANDONED as GAME_ABANDONED

OVER, ABANDONED, RESIGNED, CANCELLED = "over", "abandoned", "resigned", "cancelled"
ENDS = (OVER, ABANDONED, RESIGNED, CANCELLED)

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_RESIGNED = re.compile(r".+ left: the game counts as a loss for .+\.")
_NOT_RATED = " Not rated."  # after why a game was abandoned
_LOBBY_CLOSED = "This table was closed"  # ... everyone left / after N minutes without activity


def table_end(description: str | None) -> str | None:
    """How the table whose message's description this is ended (one of :data:`ENDS`), or None
    while it has not."""
    line = (description or "").split("\n", 1)[0].strip()
    bold = _BOLD.match(line)
    headline = bold[1] if bold else line
    if headline.startswith("Game over"):
        return OVER
    if _RESIGNED.match(headline):
        return RESIGNED
    if headline.startswith(("Game abandoned.", GAME_ABANDONED)) or headline.endswith(_NOT_RATED):
        return ABANDONED
    if headline in (LOBBY_CANCELLED, CHANNEL_DELETED_NOTE) or headline.startswith(_LOBBY_CLOSED):
        return CANCELLED
    return None
