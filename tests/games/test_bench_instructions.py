"""The instruction-count bench's workload stays in step with bench.random_games (valgrind itself
is not needed: the workload runs as a plain child process)."""

from __future__ import annotations

import subprocess
import sys

from bench.instructions import WORKLOAD
from bench.random_games import VARIANTS, play_one
from games.registry import all_games


def test_the_workload_plays_the_counted_games_of_every_table_size() -> None:
    done = subprocess.run(
        [sys.executable, "-c", WORKLOAD, "tunge", "1", "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    tunge = all_games()["tunge"]
    expected = sum(
        play_one(tunge, options, seed) for options in VARIANTS["tunge"] for seed in (0, 1)
    )
    assert done.stdout.split() == ["actions", str(expected)]
