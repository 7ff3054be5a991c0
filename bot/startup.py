"""Start and stop the bot the way an admin expects: check first, then one line per outcome.

- The database is opened and checked before logging in to Discord: a bad ``DATABASE_PATH`` (or
  another program's database) ends with ``cannot start: DATABASE_PATH ...`` and exit code 2,
  never a traceback or a hang; so does a ``DATABASE_URL`` whose server cannot be reached.
- Discord unreachable: one warning line per attempt, retried with a growing delay.
- One Ctrl-C or SIGTERM: stop the timers and computer turns, send pending table edits, disconnect,
  close the database, one line. A second one stops at once (every move is already committed).
- Logging: only what an admin can act on (bot.console: the lines, the exit codes, the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
from pathlib import Path

import aiohttp
import discord

from bot.app import CardTableBot, create_bot
from bot.config import Settings
from bot.console import (
    EXIT_CANNOT_START,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    describe_network_error,
    say,
)
from bot.store import ForeignDatabase, StoreInterface
from bot.store import open_store as open_chosen_store

log = logging.getLogger("bot")

RETRY_FIRST_SECONDS = 2.0
RETRY_MAX_SECONDS = 60.0
STOPPED_LINE = "stopped: table updates sent, database closed, disconnected from Discord"


class StartupError(Exception):
    """The bot cannot start; the message is one line naming the setting and the fix."""


# --- the database -------------------------------------------------------------------------------
def check_database(path: Path) -> None:
    """Check that ``path`` is (or can become) a writable SQLite database; raise StartupError.

    Plain sqlite3 and no event loop: this runs before anything else, and closes what it opened.
    """
    where = f"DATABASE_PATH {str(path)!r}"
    if path.is_dir():
        raise StartupError(
            f"{where} is a folder: name a file inside it, e.g. {str(path / 'cardtable.sqlite3')!r}."
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StartupError(
            f"{where}: cannot create its folder {str(path.parent)!r} ({error.strerror or error}): "
            "choose a path in a folder the bot may write to."
        ) from None
    existed = path.exists()
    try:
        connection = sqlite3.connect(path, timeout=5)
    except sqlite3.Error as error:
        raise StartupError(f"{where} cannot be opened ({error}): check the path.") from None
    try:
        connection.execute("PRAGMA schema_version").fetchone()  # reads the header
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("CREATE TABLE startup_write_check (x)")
        connection.execute("ROLLBACK")
    except sqlite3.DatabaseError as error:
        connection.close()
        # Only a refused start removes the empty file it made: a usable one may already be open
        # in another process starting beside this one (shards), which deleting it would break.
        if not existed and path.exists() and path.stat().st_size == 0:
            path.unlink()
        raise StartupError(_database_problem(where, str(error))) from None
    connection.close()


def _database_problem(where: str, reason: str) -> str:
    if "not a database" in reason:
        return f"{where} is not an SQLite database: point it at the bot's database or a new file."
    if "readonly" in reason or "read-only" in reason:
        return f"{where} is read-only: give the bot write access to it (and to its folder)."
    if "locked" in reason:
        return f"{where} is in use by another program: is the bot already running?"
    return f"{where} cannot be used ({reason})."


async def open_store(settings: Settings) -> StoreInterface:
    """The store the settings choose, checked; a StartupError naming the setting and the fix."""
    if settings.database_url is not None:
        return await _open_postgres(settings)
    path = settings.database_path
    check_database(path)
    try:
        return await open_chosen_store(settings)
    except ForeignDatabase as error:
        raise StartupError(f"DATABASE_PATH {str(path)!r} {error}.") from None
    except (sqlite3.Error, RuntimeError, OSError) as error:
        raise StartupError(f"DATABASE_PATH {str(path)!r}: {error}") from None


async def _open_postgres(settings: Settings) -> StoreInterface:
    """PostgreSQL at DATABASE_URL; its refusals named without the URL (it may hold a password)."""
    import asyncpg

    try:
        return await open_chosen_store(settings)
    except ForeignDatabase as error:
        raise StartupError(f"DATABASE_URL {error}.") from None
    except (OSError, TimeoutError) as error:
        raise StartupError(
            f"DATABASE_URL: cannot reach the PostgreSQL server ({describe_network_error(error)}):"
            " is it running, and are the host and port right?"
        ) from None
    except (asyncpg.PostgresError, asyncpg.InterfaceError, RuntimeError) as error:
        raise StartupError(f"DATABASE_URL: {str(error).splitlines()[0]}") from None


# --- running ------------------------------------------------------------------------------------
async def connect(bot: CardTableBot, token: str) -> None:
    """Log in (retrying while Discord cannot be reached), then stay connected."""
    delay = RETRY_FIRST_SECONDS
    while True:
        try:
            await bot.login(token)
            break
        except (
            TimeoutError,
            OSError,
            aiohttp.ClientError,
            discord.DiscordServerError,
            discord.GatewayNotFound,
        ) as error:
            log.warning(
                "cannot reach Discord (%s); retrying in %.0f s",
                describe_network_error(error),
                delay,
            )
            await bot.http.close()
            bot.http.connector = discord.utils.MISSING  # the closed session took it along
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_SECONDS)
    await bot.connect()


class _Signals:
    """First Ctrl-C or SIGTERM: ask for a clean stop. Second: stop at once.

    The handlers stay until the loop closes (which removes them); a Ctrl-C after that is caught
    as KeyboardInterrupt by ``python -m bot``.
    """

    def __init__(self, stop: asyncio.Event) -> None:
        self.stop = stop
        self.installed: list[signal.Signals] = []

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
                loop.add_signal_handler(sig, self._received)
                self.installed.append(sig)

    def _received(self) -> None:
        if self.stop.is_set():
            say("stopped at once: every move was already saved; table messages may lag")
            os._exit(EXIT_INTERRUPTED)
        self.stop.set()


async def serve(settings: Settings) -> int:
    """Run the bot until it is stopped; the exit code."""
    try:
        store = await open_store(settings)
    except StartupError as error:
        say(f"cannot start: {error}")
        return EXIT_CANNOT_START
    bot = create_bot(settings, store)
    bot.settle_collector = True
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = _Signals(stop)
    signals.install(loop)
    runner = asyncio.create_task(connect(bot, settings.discord_token.reveal()))
    stopper = asyncio.create_task(stop.wait())
    code = EXIT_OK
    try:
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner.done():
            code = _ended(runner)
    finally:
        stopper.cancel()
        await bot.close()
        runner.cancel()
        with contextlib.suppress(BaseException):
            await runner
        await bot.close_store()
    if code == EXIT_OK:
        say(STOPPED_LINE)
    return code


def _ended(runner: asyncio.Task[None]) -> int:
    """Why the connection ended by itself (the admin did not stop it)."""
    error = runner.exception()
    if error is None:
        return EXIT_OK
    if isinstance(error, discord.LoginFailure):
        say(
            "cannot start: Discord refused DISCORD_TOKEN: copy the token again from the "
            "Developer Portal's Bot page (Reset Token)."
        )
        return EXIT_CANNOT_START
    if isinstance(error, discord.PrivilegedIntentsRequired):
        say("cannot start: Discord refused the bot's intents (it needs no privileged ones).")
        return EXIT_CANNOT_START
    log.error("stopped: %s", error, exc_info=error)
    return EXIT_FAILED
