"""What a start costs before the bot connects: the CPU of importing the bot and its cogs.

``python -m bench.startup [--runs N]`` imports ``bot.__main__`` and every cog the bot loads
(:data:`bot.app.COGS`) in ``N`` fresh interpreters, one after the other, and prints the median
CPU (user + system) of one, beside an interpreter that imports nothing, and the modules that
cost most (their own import time, the median over the runs, from ``python -X importtime``).
Every start pays this (a restart after a crash, each process of ``--processes``, each test
that runs ``python -m bot``); what only a drawing, a hard decision or a translation needs is
imported where it is first needed instead.

The certificate store is not loaded (``SSL_CERT_FILE`` is the null device, as in the tests):
aiohttp loads it at import, twice, and its cost depends on the machine's store, not the bot.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START = (
    "import importlib, bot.__main__, bot.app\n"
    "for name in bot.app.COGS: importlib.import_module(name)\n"
)
NOTHING = "pass\n"
LINE = re.compile(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)")


def cpu_of(code: str, env: dict[str, str], profile: bool = False) -> tuple[float, str]:
    """The CPU seconds of one interpreter running ``code`` (and its ``-X importtime`` report)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    flags = ["-X", "importtime"] if profile else []
    done = subprocess.run(
        [sys.executable, *flags, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return used, done.stderr


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__)
    parser.add_argument("--runs", type=int, default=10, help="interpreters of each kind")
    parser.add_argument("--top", type=int, default=12, help="modules listed")
    args = parser.parse_args(argv)
    env = {**os.environ, "SSL_CERT_FILE": os.devnull, "SSL_CERT_DIR": os.devnull}
    # Once first, writing the bytecode (as an installed bot and `make test` have it) even where
    # PYTHONDONTWRITEBYTECODE is set: otherwise every run would compile every module.
    cpu_of(START, {key: value for key, value in env.items() if key != "PYTHONDONTWRITEBYTECODE"})
    start: list[float] = []
    empty: list[float] = []
    own: dict[str, list[int]] = defaultdict(list)
    for _ in range(args.runs):  # alternated, so a change in the machine's load hits both
        start.append(cpu_of(START, env)[0])
        empty.append(cpu_of(NOTHING, env)[0])
        for found in LINE.finditer(cpu_of(START, env, profile=True)[1]):
            own[found.group(2)].append(int(found.group(1)))
    median = statistics.median(start) * 1000
    print(f"a start's imports: {median:.0f} ms of CPU (median of {args.runs})")
    print(f"an empty interpreter: {statistics.median(empty) * 1000:.0f} ms of CPU")
    print("costliest modules (own import time, median):")
    costs = {name: statistics.median(times) for name, times in own.items()}
    for name, cost in sorted(costs.items(), key=lambda item: -item[1])[: args.top]:
        print(f"  {cost / 1000:6.1f} ms  {name}")


if __name__ == "__main__":
    main()
