"""The cycle collector is settled once start-up is done, in the bot's own process only."""

from __future__ import annotations

import subprocess
import sys

from bot import collector
from tests.conftest import REPO

SETTLED = """
import gc
from bot import collector
young = len(gc.get_objects())
collector.settle()
print(gc.get_freeze_count() >= young // 2, gc.get_threshold()[0], len(gc.get_objects()) < 100)
"""


def test_settling_freezes_what_start_up_built_and_widens_the_youngest_generation() -> None:
    # In a process of its own: a frozen object is never collected, and this test process runs
    # many bots one after another.
    out = subprocess.run(
        [sys.executable, "-c", SETTLED], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.split()
    assert out == ["True", str(collector.YOUNGEST), "True"]
