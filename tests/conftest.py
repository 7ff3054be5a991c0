"""Shared fixtures: the fake Discord and the real bot running against it.

- ``fake_discord``: a started :class:`tests.fakediscord.FakeDiscord` on 127.0.0.1 (free port).
- ``bot_env``: the environment (dict) that points the bot at the fake, with a tmp_path database.
- ``running_bot``: the real bot (``bot.app.create_bot``) started in-process on the same event loop,
  connected and ready (commands synced to the fake's default guild). Closed afterwards, and
  discord.py's two endpoint attributes are restored.
- ``bot_process``: a factory starting ``python -m bot`` as a subprocess against the fake.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
def bot_env(fake_discord: FakeDiscord, tmp_path: Path) -> dict[str, str]:
    return fake_discord.env(DATABASE_PATH=str(tmp_path / "cardtable.sqlite3"), LOG_LEVEL="WARNING")


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


async def start_bot(env: dict[str, str], timeout: float = 10.0) -> Any:
    """Create and start the real bot in-process; return it once ready."""
    from bot.app import create_bot
    from bot.config import Settings

    settings = Settings.from_env(env)
    bot = create_bot(settings)
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


class BotProcess:
    """``python -m bot`` as a real subprocess (output in ``log_path``)."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.env = env
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        full = {**os.environ, **self.env, "PYTHONUNBUFFERED": "1"}
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=REPO,
                env=full,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # SIGKILL: no clean shutdown
            self.proc.wait(5)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@pytest.fixture
def bot_process(bot_env: dict[str, str], tmp_path: Path) -> Iterator[Callable[[], BotProcess]]:
    started: list[BotProcess] = []

    def factory() -> BotProcess:
        proc = BotProcess(bot_env, tmp_path / f"bot-{len(started)}.log")
        proc.start()
        started.append(proc)
        return proc

    yield factory
    for proc in started:
        proc.kill()
