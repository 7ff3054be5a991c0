"""Shared fixtures: the fake Discord and the real bot running against it.

- ``fake_discord``: a started :class:`tests.fakediscord.FakeDiscord` on 127.0.0.1 (free port),
  with a token of its own.
- ``bot_env``: the environment (dict) that points the bot at the fake, with a tmp_path database.
- ``running_bot``: the real bot (``bot.app.create_bot``) started in-process on the same event loop,
  connected and ready (commands synced to the fake's default guild). Closed afterwards, and
  discord.py's two endpoint attributes are restored.
- ``bot_process``: a factory starting ``python -m bot`` as a subprocess against the fake; every
  child is killed when the test ends, however it ends, and dies with the test process.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import tests.examples  # noqa: F401  (loads the hypothesis profile: ci, or nightly)
from bot.card_art import emoji_names
from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord
from tests.postgres import PostgresServer, find_binaries
from tests.sqlite_template import migrated_database

REPO = Path(__file__).resolve().parent.parent
TEST_IDENTIFY_SECONDS = 0.5
PR_SET_PDEATHSIG = 1  # linux/prctl.h
# Looked up here, not in the forked child (where loading a library could deadlock).
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A fake Discord that only this test's bot can use: a token of its own.

    With one shared token, a stray bot (a ``python -m bot`` orphaned by an interrupted run on
    this shared machine, still reconnecting to a port the OS has since handed to a new fake)
    would identify, take over the session and answer this test's clicks from its own database.

    The application has its card emojis, as the bot's first start anywhere leaves them (53
    uploads, drawn and checked, that every test would otherwise pay for); a test marked
    ``new_application`` gets an application that has none yet.
    """
    # Identify pacing is enforced, on a test-sized interval (Discord's is 5 s): a bot restarted
    # by a test identifies again well after it.
    fake = FakeDiscord(
        token=f"{DEFAULT_TOKEN}-{secrets.token_hex(8)}", identify_interval=TEST_IDENTIFY_SECONDS
    )
    if request.node.get_closest_marker("new_application") is None:
        for name in emoji_names():
            fake.add_app_emoji(name)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
def bot_env(fake_discord: FakeDiscord, tmp_path: Path) -> dict[str, str]:
    # Computers think in threads here (no process to spawn per bot; a test may stand in for
    # choose_move); tests/bot/test_thinking.py and one end-to-end test use the process pool.
    return fake_discord.env(
        DATABASE_PATH=str(tmp_path / "cardtable.sqlite3"),
        LOG_LEVEL="WARNING",
        COMPUTER_PROCESSES="0",
    )


@contextlib.contextmanager
def restored_endpoints() -> Iterator[None]:
    import discord

    base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        yield
    finally:
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


async def start_bot(
    env: dict[str, str], timeout: float = 10.0, clock: Any = None, budget: Any = None
) -> Any:
    """Create and start the real bot in-process (on ``clock``, the wall clock by default, and
    with ``budget`` for its requests, its settings' own by default); return it once ready.

    A new SQLite database starts as a copy of the migrated one (tests/sqlite_template.py)."""
    from bot.app import create_bot
    from bot.config import Settings

    settings = Settings.from_env(env)
    if settings.database_url is None and not settings.database_path.exists():
        migrated_database(settings.database_path)
    bot = create_bot(settings, clock=clock, budget=budget)
    task = asyncio.create_task(bot.start(settings.discord_token.reveal()))
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # raises the start-up error
        await bot.close()
        raise TimeoutError("the bot did not become ready against the fake Discord")
    bot._fake_task = task  # type: ignore[attr-defined]
    return bot


async def stop_bot(bot: Any) -> None:
    await bot.close()
    task: asyncio.Task[None] | None = getattr(bot, "_fake_task", None)
    if task is not None:
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, 5)


@pytest.fixture
async def running_bot(fake_discord: FakeDiscord, bot_env: dict[str, str]) -> AsyncIterator[Any]:
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            yield bot
        finally:
            await stop_bot(bot)


def die_with_parent() -> None:
    """A ``preexec_fn``: the child gets SIGKILL when the process that started it dies.

    Fixture teardown kills children when a test fails and when pytest is interrupted with
    Ctrl-C; this covers the rest (pytest itself killed, or a timeout's SIGKILL), so no bot is
    left reconnecting to a later run's fake. Linux only; elsewhere it does nothing.
    """
    if _prctl is None:
        return
    parent = os.getppid()
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


_LIVE: set[BotProcess] = set()  # started and not yet reaped
# The fake Discord and the test databases speak no TLS, so a bot process started here needs
# no certificate store: aiohttp loads the system's at import, twice (about 70 ms of CPU, an
# eighth of a bot process's start).
NO_CERTIFICATES = {"SSL_CERT_FILE": os.devnull, "SSL_CERT_DIR": os.devnull}


@atexit.register
def _kill_leftovers() -> None:
    """At interpreter exit: kill any child a teardown did not reach."""
    for proc in list(_LIVE):
        proc.kill()


class BotProcess:
    """``python -m bot`` (or ``command``) as a real subprocess (output in ``log_path``)."""

    def __init__(
        self, env: dict[str, str], log_path: Path, command: Sequence[str] | None = None
    ) -> None:
        self.env = env
        self.log_path = log_path
        self.command = list(command or [sys.executable, "-m", "bot"])
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        full = {**os.environ, **NO_CERTIFICATES, **self.env, "PYTHONUNBUFFERED": "1"}
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                self.command,
                cwd=REPO,
                env=full,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
            )
        _LIVE.add(self)

    def kill(self) -> None:
        """SIGKILL (no clean shutdown) and reap; safe to call twice, never raises."""
        proc = self.proc
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            if proc.poll() is None:
                proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
        _LIVE.discard(self)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@contextlib.contextmanager
def bot_processes(
    env: dict[str, str], folder: Path, command: Sequence[str] | None = None
) -> Iterator[Callable[[], BotProcess]]:
    """A factory of bot processes; every one is killed when the block ends, however it ends
    (a failed assertion, Ctrl-C's ``KeyboardInterrupt``)."""
    started: list[BotProcess] = []

    def factory() -> BotProcess:
        proc = BotProcess(env, folder / f"bot-{len(started)}.log", command)
        started.append(proc)
        proc.start()
        return proc

    try:
        yield factory
    finally:
        for proc in started:
            proc.kill()


@pytest.fixture
def bot_process(bot_env: dict[str, str], tmp_path: Path) -> Iterator[Callable[[], BotProcess]]:
    with bot_processes(bot_env, tmp_path) as factory:
        yield factory


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """This test process's PostgreSQL server (tests/postgres.py); skipped, with the reason,
    where there is no server (and failed under CI, which must run these tests)."""
    binaries = find_binaries()
    if binaries is None:
        reason = (
            "no PostgreSQL server binaries (initdb, postgres) in /usr/lib/postgresql/*/bin or "
            "PG_BIN: install the postgresql package to run the PostgreSQL tests"
        )
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    server = PostgresServer(binaries)
    try:
        server.start()
        server.create_database()
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A database of this test's own (a schema), at the newest schema version, with no rows.

    Synchronous, so that the store tests' synchronous ``backend`` fixture can ask for it (only
    when the test runs on PostgreSQL)."""
    with postgres_server.schema(migrated=True) as url:
        yield url


@pytest.fixture
def postgres_empty_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A database of this test's own (a schema) with no table at all."""
    with postgres_server.schema(migrated=False) as url:
        yield url


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core. Many tests wait on a bot or a fake server more than they
    compute, so a second worker per core keeps the cores busy meanwhile."""
    return 2 * (os.cpu_count() or 1)
