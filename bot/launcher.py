"""``python -m bot --processes N``: N bot processes on one machine, each with its share of shards.

The shards are SHARD_COUNT (N when unset) numbered 0 to SHARD_COUNT - 1, or the SHARD_IDS this
machine runs; process k gets the k-th, (k+N)-th, ... of them (bot.shards.share). Each process
is a plain ``python -m bot`` with SHARD_COUNT and SHARD_IDS set, so it behaves exactly as one
started by hand.

- A process that dies (a crash, a kill) is started again after a pause that grows while it keeps
  dying (1 s, 2 s, 5 s ... a minute), one warning line each time; the others go on untouched.
- A process that cannot start (exit code 2: a setting or the database) stops them all: starting
  it again would not help.
- One SIGTERM or Ctrl-C: each process gets SIGTERM and stops cleanly (tables saved, edits sent);
  a second one kills them at once (every move is already committed).
- The processes die with the launcher, even when it is killed (Linux).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
from dataclasses import dataclass

from bot.config import Settings
from bot.console import EXIT_CANNOT_START, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, say
from bot.shards import Shards

log = logging.getLogger("bot.launcher")

RESTART_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
STEADY_SECONDS = 120.0  # a process that ran this long counts its next death as the first
STOP_SECONDS = 30.0  # how long a clean stop may take before the process is killed
PR_SET_PDEATHSIG = 1  # linux/prctl.h
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


class LaunchError(Exception):
    """The launcher cannot split the shards as asked; one line naming the fix."""


def plan(settings: Settings, processes: int) -> list[Shards]:
    """Each process's shards: the machine's shards dealt round robin."""
    if processes < 1:
        raise LaunchError("--processes must be 1 or more.")
    shards = settings.shards or Shards(processes, tuple(range(processes)))
    if processes > len(shards.ids):
        raise LaunchError(
            f"--processes {processes} is more than the {len(shards.ids)} shards to share "
            "(SHARD_COUNT, or SHARD_IDS): use fewer processes or more shards."
        )
    return [Shards(shards.count, shards.ids[k::processes]) for k in range(processes)]


def _die_with_parent() -> None:
    """In the child before it runs: get SIGKILL when the launcher dies (Linux only)."""
    if _prctl is not None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def how_it_ended(code: int) -> str:
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-code).name}"
        return f"was killed by signal {-code}"
    return f"stopped by itself (exit code {code})"


@dataclass
class Child:
    """One bot process and the shards it owns."""

    number: int
    shards: Shards
    proc: asyncio.subprocess.Process | None = None

    @property
    def name(self) -> str:
        return f"process {self.number} ({self.shards.describe()})"

    async def start(self) -> None:
        env = {
            **os.environ,
            "SHARD_COUNT": str(self.shards.count),
            "SHARD_IDS": ",".join(str(i) for i in self.shards.ids),
        }
        # Its own session: a Ctrl-C at the terminal reaches the launcher only, which then asks
        # each process once (a second signal would make a process stop at once).
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        log.info("%s started (pid %d)", self.name, self.proc.pid)

    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def signal(self, sig: signal.Signals) -> None:
        if self.proc is not None and self.running():
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)


class Launcher:
    """Keeps every child running until asked to stop."""

    def __init__(self, shares: list[Shards]) -> None:
        self.children = [Child(k, shards) for k, shards in enumerate(shares)]
        self.stop = asyncio.Event()
        self.code = EXIT_OK

    async def keep(self, child: Child) -> None:
        """Run ``child`` until the launcher stops; start it again each time it dies."""
        loop = asyncio.get_running_loop()
        failures = 0
        while not self.stop.is_set():
            started = loop.time()
            try:
                await child.start()
            except OSError as error:
                say(f"cannot start {child.name}: {error}")
                self.code = EXIT_FAILED
                self.stop.set()
                return
            assert child.proc is not None
            if self.stop.is_set():  # asked to stop while it was starting
                child.signal(signal.SIGTERM)
            code = await child.proc.wait()
            if self.stop.is_set():
                return
            if code == EXIT_CANNOT_START:
                say(f"cannot start {child.name} (see above): stopping every process")
                self.code = EXIT_CANNOT_START
                self.stop.set()
                return
            failures = 1 if loop.time() - started >= STEADY_SECONDS else failures + 1
            pause = RESTART_SECONDS[min(failures, len(RESTART_SECONDS)) - 1]
            log.warning("%s %s; starting it again in %.0f s", child.name, how_it_ended(code), pause)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), pause)

    def _signalled(self) -> None:
        if self.stop.is_set():
            say("stopped at once: every move was already saved; table messages may lag")
            for child in self.children:
                child.signal(signal.SIGKILL)
            os._exit(EXIT_INTERRUPTED)
        self.stop.set()

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
                loop.add_signal_handler(sig, self._signalled)
        keepers = [asyncio.create_task(self.keep(child)) for child in self.children]
        await self.stop.wait()
        for child in self.children:
            child.signal(signal.SIGTERM)
        _, late = await asyncio.wait(keepers, timeout=STOP_SECONDS)
        for child in self.children:
            child.signal(signal.SIGKILL)
        if late:
            log.warning("%d processes did not stop within %.0f s: killed", len(late), STOP_SECONDS)
            await asyncio.gather(*late, return_exceptions=True)
        if self.code == EXIT_OK:
            say(f"stopped: all {len(self.children)} processes")
        return self.code


async def launch(settings: Settings, processes: int) -> int:
    """Run ``processes`` bot processes until stopped; the exit code."""
    try:
        shares = plan(settings, processes)
    except LaunchError as error:
        say(f"cannot start: {error}")
        return EXIT_CANNOT_START
    launcher = Launcher(shares)
    log.info(
        "starting %d processes for %s",
        len(shares),
        Shards(shares[0].count, tuple(sorted(i for s in shares for i in s.ids))).describe(),
    )
    return await launcher.run()
