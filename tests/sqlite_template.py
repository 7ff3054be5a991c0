"""A new test database is a copy of one migrated SQLite file, made once per test process.

Migrating a new file runs every migration in its own transaction: about 35 ms of CPU, paid by
hundreds of tests that start a bot or open a store. The copy is the same file the bot would make
(the real migrations, run once by :meth:`bot.store.Store.open` on a file of its own, in WAL mode,
checkpointed when it closed) and costs a fraction of a millisecond. Tests of a first start, of
migrations or of a missing file make their files themselves and never get a copy.
"""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
import threading
from pathlib import Path

from bot.store import Store

_lock = threading.Lock()
_template: Path | None = None


def _make(path: Path) -> None:
    async def migrate() -> None:
        store = await Store.open(path)
        await store.close()  # the last connection: SQLite checkpoints the WAL into the file

    # A thread of its own, so that its event loop never meets the test's.
    worker = threading.Thread(target=asyncio.run, args=(migrate(),))
    worker.start()
    worker.join()
    if not path.exists() or path.with_name(path.name + "-wal").exists():
        raise RuntimeError(f"the migrated template {path} was not made whole")


def template() -> Path:
    """This process's migrated database file (made on first use, removed at exit)."""
    global _template
    with _lock:
        if _template is None:
            folder = Path(tempfile.mkdtemp(prefix="cardtable-template-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            path = folder / "migrated.sqlite3"
            _make(path)
            _template = path
        return _template


def migrated_database(path: Path) -> Path:
    """``path`` as a new database at the newest schema with no rows (its folder made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template(), path)
    return path
