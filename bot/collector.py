"""Python's cycle collector, set for a long-running bot whose start-up objects live for ever.

By start-up's end the process holds a few hundred thousand objects (discord.py, the games, the
cogs, the restored tables) that never become garbage, and every full collection walked them
all again. :func:`settle` moves them out of the collector's sight (``gc.freeze``) and lets the
youngest generation grow larger before it is collected: a click's short-lived objects mostly
die by reference count before a collection sees them, so fewer survive into the older
generations whose collections cost the most. Cycles are still collected, just less often.
"""

from __future__ import annotations

import gc

# Objects allocated (net of those freed) before the youngest generation is collected (Python's
# default: 700). The two older generations keep Python's own ratios.
YOUNGEST = 20_000


def settle() -> None:
    """Once start-up is done: collect what start-up left, then freeze the survivors."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNGEST, middle, oldest)
