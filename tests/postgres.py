"""A real PostgreSQL server for the tests, started from the machine's server binaries.

One server per test process (per xdist worker): its own data folder in a temporary directory,
listening only on a unix socket in that folder (so no port is shared with anyone), ``fsync``
off. Each test gets a schema of its own in the server's one database (its URL sets
``search_path``): on this busy 2-core machine that takes 0.3 s where ``CREATE DATABASE ...
TEMPLATE`` of a migrated database took 1.4 s (a checkpoint each time). A migrated schema is made
by running every migration script in one round trip.

A migrated schema is made once and emptied after each test for the next one (its rows deleted,
its sequences and version rows as new): emptying costs the server a fifth of the CPU of making
one. It is only emptied when nothing else could have changed it: an event trigger notes every
DDL statement run in the database (a test that adds a trigger, a table, a column ...), and any
connection still open when the test ends (a bot not yet stopped) could write after the emptying;
either way the schema is dropped and the next test gets a new one.

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
        self._ready: list[str] = []  # migrated schemas emptied after their test, for the next

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
        """The test database, with the event trigger that notes DDL (see :data:`DDL_WATCH`)."""
        asyncio.run(_execute(self.url(), f"CREATE DATABASE {DATABASE}"))
        asyncio.run(_execute(self.url(DATABASE), DDL_WATCH))

    @contextlib.contextmanager
    def schema(self, migrated: bool) -> Iterator[str]:
        """A schema of the test database of this test's own (its URL), at the newest version
        or empty, with no rows; afterwards dropped, or emptied for the next test."""
        if migrated and self._ready:
            name = self._ready.pop()
        else:
            name = "t_" + uuid.uuid4().hex[:16]
            script = f"SET {QUIET} TO on; CREATE SCHEMA {name}"
            if migrated:
                script += f"; SET search_path TO {name};\n{_migrated_script()}"
            asyncio.run(_execute(self.url(DATABASE), script))
        try:
            yield self.url(DATABASE, name)
        finally:
            if migrated and asyncio.run(_emptied(self.url(DATABASE), name)):
                self._ready.append(name)
            else:
                asyncio.run(_execute(self.url(DATABASE), _DROP.format(name=name)))

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


QUIET = "tests.quiet"  # a setting under which the DDL watch notes nothing (making a schema)
# Every DDL statement (but those of a connection with QUIET on) leaves a row in ddl.seen: a
# schema in use while one was run is not emptied for another test but dropped. The watch lives
# in a schema of its own: a store that opens the database's public schema finds no stranger.
DDL_WATCH = f"""
CREATE SCHEMA ddl;
CREATE TABLE ddl.seen (at_schema TEXT);
CREATE FUNCTION ddl.note() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('{QUIET}', true), '') <> 'on' THEN
        INSERT INTO ddl.seen VALUES (current_schema());
    END IF;
END $$;
CREATE EVENT TRIGGER noted_ddl ON ddl_command_end EXECUTE FUNCTION ddl.note();
CREATE EVENT TRIGGER noted_drop ON sql_drop EXECUTE FUNCTION ddl.note();
"""
_DROP = f"SET {QUIET} TO on; SET lock_timeout TO '10s'; DROP SCHEMA {{name}} CASCADE"


async def _emptied(url: str, name: str) -> bool:
    """Empty the migrated schema ``name`` for the next test, as the migrations left it, unless
    a DDL statement ran since it was last emptied or another connection to the database is
    open (then False: it is left for dropping)."""
    connection = await asyncpg.connect(url)
    try:
        others = await connection.fetchval(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND backend_type = 'client backend'"
        )
        noted = await connection.fetchval("DELETE FROM ddl.seen RETURNING 1")
        if others or noted:
            return False
        tables = await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1", name
        )
        # As the replication role, no trigger runs: no foreign key orders the deletes.
        deletes = "".join(f"DELETE FROM {name}.{row[0]};" for row in tables)
        await connection.execute(
            f"SET session_replication_role TO replica; SET lock_timeout TO '10s';"
            f"BEGIN; {deletes}"
            f"SELECT setval(s.seqrelid, s.seqstart, false) FROM pg_sequence s"
            f" JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relnamespace = '{name}'::regnamespace;"
            f"SET LOCAL search_path TO {name}; {_version_rows()} COMMIT;"
        )
    except (asyncpg.PostgresError, OSError):
        return False
    finally:
        await connection.close()
    return True


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
    parts.append(_version_rows())
    return "\n".join(parts)


@functools.cache
def _version_rows() -> str:
    """The versions table's rows of a migrated schema, as inserts."""
    return "\n".join(
        f"INSERT INTO {VERSIONS_TABLE} VALUES ({m.version}, '{m.name}', 0);"
        for m in load_postgres_migrations()
    )
