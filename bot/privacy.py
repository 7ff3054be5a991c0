"""``/privacy forget``: what the bot keeps of a person is removed or made anonymous.

- Their results and ratings (what the leaderboard and stats count) are deleted, and so is
  their own language choice.
- Closed games (finished, abandoned, cancelled) keep their moves, since they are the other
  players' history too, but the person's identity goes: their seats become "Former player"
  without a user id (also in the record of who held which seat when), the moves they clicked
  lose their user id, and a table they hosted gets host 0 (no Discord account has that id).
- Open tables (a lobby, a game in play) are left exactly as they are: the game goes on, and when
  it ends it is recorded as any other. Forgetting covers what was recorded until then. Only
  their requests to sit in for a computer are withdrawn, wherever they are open.
- Open is what the database says, not what this process holds in memory: a table another bot
  process holds is left as that process knows it. A game (or tournament) that another process
  ends while the forget runs is open to all of the forget or closed to all of it, never
  anonymised in part (bot/store/privacy.py: PostgreSQL's row locks; SQLite's one write lock).

Everything is found by the person's user id, never by their name (another player's name may
contain it), and through an index: the one transaction, in every server at once (the person,
not a server, asks), holds the store's lock for milliseconds, not a scan of every move.
"""

from __future__ import annotations

from bot.store import StoreInterface
from bot.store.privacy import FORGOTTEN_HOST, FORMER_PLAYER
from bot.store.rows import Forgotten

__all__ = ["FORGOTTEN_HOST", "FORMER_PLAYER", "Forgotten", "forget_user"]


async def forget_user(store: StoreInterface, user_id: int) -> Forgotten:
    """Remove or anonymise everything recorded of ``user_id`` outside open tables."""
    return await store.forget_user(user_id)
