"""Machine instructions per random action of an engine, counted by valgrind: a speed figure that
does not move with the machine's load.

``python -m bench.instructions [GAME ...] [--games N] [--warm W]``: for each game (default Tunge
and Thunee), plays ``W`` warm-up games and then ``N`` counted games at each table size that
:mod:`bench.random_games` times, the same random moves through the checked interface, under
``valgrind --tool=callgrind``; a second run plays only the warm-up, and the difference divided by
the counted actions is the figure printed.

Why: on this shared 2-core machine the same code measured from 30,000 to 53,000 Tunge actions per
CPU second in one day, so a change worth 5% cannot be seen in ``make bench``. Instructions are
not time (memory stalls and the processor's speed are left out), but they are exact: the child
runs with a fixed hash seed, without address-space randomisation where ``setarch`` exists, and
after the project is compiled, so a run repeats to within a few instructions per action. Compare
two versions of the code with them, and quote ``make bench`` on an idle machine for the time.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Without address-space randomisation (and with a fixed hash seed) two runs of the same code
# count the same instructions: dicts keyed by object address otherwise probe differently.
NO_ASLR = ["setarch", "-R"] if shutil.which("setarch") else []

# The workload, run in a child under valgrind: the warm-up seeds, then the counted ones.
WORKLOAD = """
import sys
from bench.random_games import VARIANTS, WARM_UP_SEEDS, play_one
from games.registry import all_games
name, warm, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game_class = all_games()[name]
sizes = VARIANTS.get(name, [{}])
for options in sizes:
    for seed in range(warm):
        play_one(game_class, options, WARM_UP_SEEDS + seed)
actions = 0
for options in sizes:
    for seed in range(games):
        actions += play_one(game_class, options, seed)
print("actions", actions)
"""


def instructions(name: str, warm: int, games: int) -> tuple[int, int]:
    """(instructions, actions) of ``games`` counted games per table size after the warm-up."""

    def run(counted: int) -> tuple[int, int]:
        done = subprocess.run(
            [
                *NO_ASLR,
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                "-c",
                WORKLOAD,
                name,
                str(warm),
                str(counted),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        collected = re.search(r"Collected : (\d+)", done.stderr)
        played = re.search(r"actions (\d+)", done.stdout)
        if collected is None or played is None:
            raise RuntimeError(f"valgrind printed no count:\n{done.stderr[-2000:]}")
        return int(collected.group(1)), int(played.group(1))

    # Compiled first: a run that writes .pyc files (after an edit) counts the compiling too.
    for package in ("games", "bench"):
        compileall.compile_dir(ROOT / package, quiet=1)
    base, _ = run(0)
    total, actions = run(games)
    return total - base, actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*", default=["tunge", "thunee"])
    parser.add_argument("--games", dest="count", type=int, default=30, help="counted, per size")
    parser.add_argument("--warm", type=int, default=60, help="warm-up games per table size")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    for name in args.games:
        total, actions = instructions(name, args.warm, args.count)
        print(f"{name:20} {total / actions:10.0f} instructions per action ({actions} actions)")


if __name__ == "__main__":
    main()
