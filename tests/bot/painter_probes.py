"""Drawings for tests/bot/test_painter.py, importable by a worker process (sent by name)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from bot.pictures.table import Picture


def where() -> Picture:
    """A picture that says which process drew it."""
    return Picture(str(os.getpid()).encode(), "where")


def dies_once(flag: str) -> Picture:
    """Kills its worker while ``flag`` exists (removing it first): the next try draws."""
    path = Path(flag)
    if path.exists():
        path.unlink()
        os._exit(1)
    return where()


def stuck_outside(pid: int) -> Picture:
    """Hangs in any process but ``pid`` (a worker that never answers)."""
    if os.getpid() != pid:
        time.sleep(600)
    return where()
