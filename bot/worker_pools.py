"""What the bot's worker processes share (the computer players', the pictures'): each starts
at a lower priority than the bot and ends with it, and a pool is stopped at once, hung or not."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def spawn_pool(
    processes: int, prepare: Callable[..., None], *arguments: Any
) -> ProcessPoolExecutor:
    """A pool of ``processes`` fresh interpreters (spawned: a fork would copy the bot's event
    loop and connections), each running ``prepare(*arguments)`` first (it calls
    :func:`start_worker`)."""
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=prepare,
        initargs=arguments,
    )


def start_worker(niceness: int) -> None:
    """A new worker's first step: run below the bot (its answers to clicks come first) and end
    with it (a killed bot leaves no idle worker behind)."""
    if hasattr(os, "nice"):  # not on Windows
        with contextlib.suppress(OSError):
            os.nice(niceness)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns when the parent process is gone
    os._exit(0)


def kill(pool: ProcessPoolExecutor) -> None:
    """End the pool's processes at once: a hung worker cannot be asked to stop."""
    processes = dict(getattr(pool, "_processes", None) or {})  # no public way before 3.14
    for process in processes.values():
        with contextlib.suppress(Exception):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


async def stop(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's processes and wait until its manager thread has reaped them all."""
    # The first shutdown, in kill(), forgets the manager thread: take it before.
    manager = getattr(pool, "_executor_manager_thread", None)
    kill(pool)
    await asyncio.get_running_loop().run_in_executor(None, _join, pool, manager)


def _join(pool: ProcessPoolExecutor, manager: threading.Thread | None) -> None:
    with contextlib.suppress(Exception):
        pool.shutdown(wait=True, cancel_futures=True)
    if manager is not None:
        manager.join()
