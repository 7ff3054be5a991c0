"""Test-only computer levels, registered with :func:`bot.thinking.register_level` on import (a
worker process imports this module when its :class:`~bot.thinking.Thinker` names it).

- ``spin``: writes the file ``$THINK_TEST_STARTED``, then keeps a core busy until the file
  ``$THINK_TEST_RELEASE`` exists (at most a minute), then plays a random legal move: a slow,
  CPU-bound decision the test ends when it likes.
- ``hang``: the first decision (the one that finds no ``$THINK_TEST_STARTED`` yet) writes that
  file and never returns; every later one plays a random legal move.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from bot.thinking import register_level
from games.base import Move
from games.players import Seen

STARTED = "THINK_TEST_STARTED"
RELEASE = "THINK_TEST_RELEASE"


def spin(seen: Seen, rng: random.Random) -> Move:
    Path(os.environ[STARTED]).touch()
    release = Path(os.environ[RELEASE])
    until = time.monotonic() + 60
    while not release.exists() and time.monotonic() < until:
        sum(i * i for i in range(20_000))  # busy, holding the GIL most of the time
    return rng.choice(seen.legal)


def hang(seen: Seen, rng: random.Random) -> Move:
    started = Path(os.environ[STARTED])
    if not started.exists():
        started.touch()
        while True:
            time.sleep(3600)
    return rng.choice(seen.legal)


register_level("spin", spin)
register_level("hang", hang)
