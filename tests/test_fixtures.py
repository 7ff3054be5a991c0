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

import pytest

from tests.conftest import REPO, bot_processes
from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord
from tests.postgres import PostgresServer

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
