"""Search for the hard computer level: simulated worlds built from a seat's knowledge alone.

The hard player (:mod:`games.search.hard`) is handed a :class:`games.players.Seen` like every
player, and never the table's game object; to look ahead it deals worlds of its own (games built
from a sample of the unseen cards, :mod:`games.search.worlds`) and plays them out with the
normal player (:mod:`games.search.playout`). This package may therefore use the engines, which
the player modules in :mod:`games.players` may not.
"""
