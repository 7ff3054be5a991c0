"""The shared fixtures leave nothing behind: a fake takes only its own bot, and a bot process (or
a test's PostgreSQL server) started by a test dies when the test ends, fails, is interrupted, or
its runner is killed."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.conftest import REPO, bot_processes
from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord
from tests.postgres import DATABASE, PostgresServer

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]


def gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie that nobody reaped yet counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


async def until_gone(pid: int, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not gone(pid):
        assert loop.time() < deadline, f"process {pid} is still running"
        await asyncio.sleep(0.02)


async def test_every_fake_has_a_token_of_its_own(fake_discord: FakeDiscord) -> None:
    """A stray bot from another run (it knows only the default token) cannot log in here."""
    assert fake_discord.token.startswith(DEFAULT_TOKEN) and fake_discord.token != DEFAULT_TOKEN
    assert fake_discord.env()["DISCORD_TOKEN"] == fake_discord.token
    other = FakeDiscord(token=f"{DEFAULT_TOKEN}-x")
    assert other.token != fake_discord.token


@pytest.mark.parametrize("ending", [AssertionError("the test failed"), KeyboardInterrupt()])
def test_children_are_killed_however_the_test_ends(tmp_path: Path, ending: BaseException) -> None:
    """``bot_process`` kills its children when the test fails or is interrupted."""
    with pytest.raises(type(ending)), bot_processes({}, tmp_path, SLEEPER) as factory:
        children = [factory(), factory()]
        raise ending
    for child in children:
        assert child.proc is not None and child.proc.poll() is not None
        assert gone(child.proc.pid)


async def test_a_child_dies_with_the_test_process(tmp_path: Path) -> None:
    """Even with no teardown at all (the runner killed with SIGKILL), no child is left."""
    runner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from tests.conftest import BotProcess;"
            f"p = BotProcess({{}}, Path({str(tmp_path / 'child.log')!r}), {SLEEPER!r});"
            "p.start(); print(p.proc.pid, flush=True); time.sleep(120)",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert runner.stdout is not None
        line = await asyncio.get_running_loop().run_in_executor(None, runner.stdout.readline)
        child = int(line)
        assert not gone(child)
        runner.send_signal(signal.SIGKILL)
        runner.wait(5)
        await until_gone(child)
    finally:
        runner.kill()
        runner.wait(5)


async def test_a_postgresql_server_dies_with_the_test_process(
    postgres_server: PostgresServer,
) -> None:
    """A test process killed with SIGKILL leaves no PostgreSQL server running behind it."""
    runner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time; from pathlib import Path; from tests.postgres import PostgresServer;"
            f"s = PostgresServer(Path({str(postgres_server.binaries)!r})); s.start();"
            "print(s.process.pid, s.folder, flush=True); time.sleep(120)",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    line = b""
    try:
        assert runner.stdout is not None
        line = await asyncio.get_running_loop().run_in_executor(None, runner.stdout.readline)
        pid, folder = line.split()
        server = int(pid)
        assert not gone(server)
        runner.send_signal(signal.SIGKILL)
        runner.wait(5)
        await until_gone(server, timeout=30)
    finally:
        runner.kill()
        if line:
            shutil.rmtree(folder, ignore_errors=True)  # what the killed runner left


async def _rows(url: str, *statements: str) -> list[list[tuple[object, ...]]]:
    """Each statement's rows, on one connection to ``url``."""
    connection = await asyncpg.connect(url)
    try:
        return [[tuple(row) for row in await connection.fetch(sql)] for sql in statements]
    finally:
        await connection.close()


TABLE_ROW = (
    "INSERT INTO game_tables (guild_id, channel_id, host_id, game, options, seed, created_at,"
    " updated_at) VALUES (1, 2, 3, 'tarneeb', '{}', 4, 0, 0) RETURNING id"
)


def test_a_migrated_schema_comes_back_empty_for_the_next_test(
    postgres_server: PostgresServer,
) -> None:
    """The schema a test wrote to is handed to the next one as new: no rows, ids from 1, the
    version rows as the migrations left them."""
    with postgres_server.schema(migrated=True) as first:
        fresh = asyncio.run(_rows(first, "SELECT * FROM schema_migrations ORDER BY version"))[0]
        asyncio.run(_rows(first, TABLE_ROW, TABLE_ROW, "DELETE FROM schema_migrations"))
    with postgres_server.schema(migrated=True) as second:
        assert second == first  # emptied, not made anew
        ids, versions = asyncio.run(
            _rows(second, TABLE_ROW, "SELECT * FROM schema_migrations ORDER BY version")
        )
        assert ids == [(1,)] and versions == fresh


@pytest.mark.parametrize(
    "change",
    [
        "CREATE INDEX game_tables_seed ON game_tables (seed)",
        "ALTER TABLE game_tables ADD COLUMN extra INTEGER",
        "DROP INDEX game_tables_channel",
    ],
)
def test_a_schema_changed_by_ddl_is_dropped_not_handed_on(
    postgres_server: PostgresServer, change: str
) -> None:
    """A test that changed its schema (a trigger, an index, a column ...) leaves it behind: the
    next test gets a new one, and the changed one is gone."""
    with postgres_server.schema(migrated=True) as first:
        asyncio.run(_rows(first, change))
    with postgres_server.schema(migrated=True) as second:
        assert second != first
        assert asyncio.run(_rows(second, TABLE_ROW)) == [[(1,)]]
    assert not schema_exists(postgres_server, first)


def schema_exists(server: PostgresServer, url: str) -> bool:
    name = url.rsplit("search_path=", 1)[1]
    found = f"SELECT 1 FROM pg_namespace WHERE nspname = '{name}'"
    return bool(asyncio.run(_rows(server.url(DATABASE), found))[0])


def test_a_schema_with_a_connection_still_open_is_dropped_not_handed_on(
    postgres_server: PostgresServer,
) -> None:
    """A connection left open (a bot not yet stopped) could write after the emptying."""

    async def left_open(url: str) -> asyncpg.Connection:
        return await asyncpg.connect(url)

    loop = asyncio.new_event_loop()
    try:
        with postgres_server.schema(migrated=True) as first:
            connection = loop.run_until_complete(left_open(first))
        loop.run_until_complete(connection.close())
        assert not schema_exists(postgres_server, first)
        with postgres_server.schema(migrated=True) as second:
            assert second != first
    finally:
        loop.close()
