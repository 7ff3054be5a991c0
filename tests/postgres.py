"""A real PostgreSQL server for the tests, started from the machine's server binaries.

One server per test process (per xdist worker): its own data folder in a temporary directory,
listening only on a unix socket in that folder (so no port is shared with anyone), ``fsync``
off. Each test gets a schema of its own in the server's one database (its URL sets
``search_path``), dropped afterwards: on this busy 2-core machine that takes 0.3 s where
``CREATE DATABASE ... TEMPLATE`` of a migrated database took 1.4 s (a checkpoint each time).
A migrated schema is made by running every migration script in one round trip.

PostgreSQL refuses to run as root: when the tests run as root, ``initdb`` and ``postgres`` run
as the unprivileged user ``nobody`` (``os.setuid`` in the child), and the data folder is theirs.
The server dies with the test process (``PR_SET_PDEATHSIG``), however that ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from urllib.parse import quote

import asyncpg

from bot.store.postgres.base import VERSIONS_DDL, VERSIONS_TABLE, load_postgres_migrations

BIN_DIRS = tuple(f"/usr/lib/postgresql/{version}/bin" for version in (15, 16, 17))
UNPRIVILEGED = "nobody"
DATABASE = "bot_tests"  # the one database of a test server; a schema in it per test
READY_LINE = "database system is ready to accept connections"
PR_SET_PDEATHSIG = 1
# Fast and small, for tests: nothing is flushed to disk (a test server never outlives a crash).
TEST_SETTINGS = {
    "listen_addresses": "",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "100",
    "shared_buffers": "16MB",
    "logging_collector": "off",
}
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``postgres`` (``PG_BIN`` first), or None."""
    candidates = [os.environ.get("PG_BIN", ""), *BIN_DIRS]
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _as_user(uid: int | None, gid: int | None) -> Callable[[], None]:
    """A ``preexec_fn``: become ``uid`` (when given), then die with the parent (SIGQUIT is the
    server's immediate shutdown). The death signal is set after ``setuid``, which clears it."""

    def become() -> None:
        if uid is not None and gid is not None:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
        if _prctl is not None:
            _prctl(PR_SET_PDEATHSIG, signal.SIGQUIT, 0, 0, 0)

    return become


class PostgresServer:
    """A throwaway PostgreSQL server: :meth:`start`, :meth:`url` per database, :meth:`stop`."""

    def __init__(self, binaries: Path, settings: Mapping[str, str] | None = None) -> None:
        self.binaries = binaries
        # The server's settings (``-c``): the tests' (:data:`TEST_SETTINGS`), with ``settings``
        # over them (a benchmark wants its writes flushed as a real server does).
        self.settings = {**TEST_SETTINGS, **(settings or {})}
        # As root the folder goes to /tmp, which the unprivileged user can reach whatever
        # TMPDIR names (a folder under /root would stop it at the door).
        root = os.geteuid() == 0 and Path("/tmp").is_dir()
        self.folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-", dir="/tmp" if root else None))
        self.data = self.folder / "data"
        self.process: subprocess.Popen[str] | None = None
        self._log: list[str] = []
        uid = gid = None
        if os.geteuid() == 0:
            user = pwd.getpwnam(UNPRIVILEGED)
            uid, gid = user.pw_uid, user.pw_gid
            os.chown(self.folder, uid, gid)
        self._become = _as_user(uid, gid)

    def start(self) -> None:
        """Create the data folder (the first time) and start the server on it."""
        if not (self.data / "PG_VERSION").exists():
            self._initdb()
        self._run()

    def _initdb(self) -> None:
        initdb = subprocess.run(
            [
                str(self.binaries / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "--encoding=UTF8",
                "--locale=C",
            ],
            preexec_fn=self._become,
            capture_output=True,
            text=True,
            check=False,
        )
        if initdb.returncode != 0:
            raise RuntimeError(f"initdb failed: {initdb.stderr.strip() or initdb.stdout.strip()}")

    def _run(self) -> None:
        options = [
            part for key, value in self.settings.items() for part in ("-c", f"{key}={value}")
        ]
        self.process = subprocess.Popen(
            [
                str(self.binaries / "postgres"),
                "-D",
                str(self.data),
                "-k",
                str(self.folder),
                *options,
            ],
            preexec_fn=self._become,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._wait_ready()

    def _wait_ready(self) -> None:
        """Read the server's log until it says it is ready (or the server exits); then keep
        draining it in a thread so that a full pipe never blocks the server."""
        assert self.process is not None and self.process.stderr is not None
        stream = self.process.stderr
        for line in stream:
            self._log.append(line.rstrip())
            if READY_LINE in line:
                threading.Thread(target=self._drain, args=(stream,), daemon=True).start()
                return
        self.process.wait()
        raise RuntimeError("postgres did not start:\n" + "\n".join(self._log[-20:]))

    def _drain(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self._log[:] = [*self._log[-50:], str(line).rstrip()]

    def url(self, database: str = "postgres", schema: str | None = None) -> str:
        """The connection URL of one database (and schema) of this server, over its socket."""
        url = f"postgresql://postgres@/{database}?host={quote(str(self.folder), safe='')}"
        return url if schema is None else f"{url}&search_path={schema}"

    def create_database(self) -> None:
        asyncio.run(_execute(self.url(), f"CREATE DATABASE {DATABASE}"))

    @contextlib.contextmanager
    def schema(self, migrated: bool) -> Iterator[str]:
        """A new schema of the test database (its URL), at the newest version or empty;
        dropped afterwards."""
        name = "t_" + uuid.uuid4().hex[:16]
        script = f"CREATE SCHEMA {name}"
        if migrated:
            script += f"; SET search_path TO {name};\n{_migrated_script()}"
        asyncio.run(_execute(self.url(DATABASE), script))
        try:
            yield self.url(DATABASE, name)
        finally:
            asyncio.run(_execute(self.url(DATABASE), f"DROP SCHEMA {name} CASCADE"))

    def stop(self, keep: bool = False) -> None:
        """Stop the server (fast: its sessions end); its data folder is removed unless
        ``keep`` (then :meth:`start` runs it again on the same data)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown: end sessions, no checkpoint
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not keep:
            shutil.rmtree(self.folder, ignore_errors=True)


async def _execute(url: str, script: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(script)
    finally:
        await connection.close()


@functools.cache
def _migrated_script() -> str:
    """Every migration and its version row, as one script (what the store's migrate does one
    transaction at a time: tests/bot/test_store_postgres.py runs that way)."""
    migrations = load_postgres_migrations()
    parts = [migration.sql for migration in migrations]
    parts.append(f"{VERSIONS_DDL};")
    parts.extend(
        f"INSERT INTO {VERSIONS_TABLE} VALUES ({m.version}, '{m.name}', 0);" for m in migrations
    )
    return "\n".join(parts)
