"""``python -m bot`` runs on uvloop's event loop where it is installed."""

from __future__ import annotations

import asyncio

import pytest

from bot.__main__ import run

uvloop = pytest.importorskip("uvloop")


def test_the_bot_runs_on_uvloop() -> None:
    async def on_uvloop() -> int:
        return int(isinstance(asyncio.get_running_loop(), uvloop.Loop))

    assert run(on_uvloop()) == 1
