"""What an admin reads from ``python -m bot``: one line per outcome, the exit codes, the log.

Light on purpose (the standard library alone): the launcher of ``--processes N``, which only
starts and watches the bot processes, and a start refused for its settings load nothing of the
bot itself (discord.py, the store, the games: most of a start's CPU). Libraries that log
payloads at DEBUG (aiosqlite logs every statement with its values: deals, bid cards) are capped
at INFO.
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CANNOT_START = 2
EXIT_INTERRUPTED = 130


def say(line: str) -> None:
    """A line the admin must see whatever LOG_LEVEL says (start refusals, the stop line)."""
    print(line, file=sys.stderr, flush=True)


class _OneLineReconnect(logging.Filter):
    """discord.py logs each gateway reconnect with a full traceback; keep the one fact."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage().startswith("Attempting a reconnect"):
            error = record.exc_info[1]
            record.msg = "lost the connection to Discord (%s); reconnecting in %.1f s"
            record.args = (describe_network_error(error), *(record.args or (0.0,)))[:2]
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def configure_logging(settings: Settings) -> None:
    level = settings.log_level_number
    # With shards, each line says whose it is (several processes may share one output).
    where = f" [{settings.shards.describe()}]" if settings.shards is not None else ""
    logging.basicConfig(
        level=level,
        format=f"%(asctime)s %(levelname)s{where} %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # discord.py's INFO lines (login, shard and session ids) are only worth it when debugging.
    logging.getLogger("discord").setLevel(
        logging.INFO if level <= logging.DEBUG else max(level, logging.WARNING)
    )
    # aiosqlite's DEBUG lines carry every statement's parameters: hands, deals, bid cards.
    logging.getLogger("aiosqlite").setLevel(max(level, logging.INFO))
    logging.getLogger("discord.client").addFilter(_OneLineReconnect())


def describe_network_error(error: BaseException | None) -> str:
    """A short reason for a failed connection, without the stack."""
    import aiohttp  # loaded already wherever a connection failed (the bot, not its launcher)

    if isinstance(error, aiohttp.ClientConnectorError):
        return f"{error.host}:{error.port}: {error.os_error.strerror or error.os_error}"
    if isinstance(error, TimeoutError):
        return "timed out"
    if error is None:
        return "unknown error"
    text = str(error) or type(error).__name__
    return text.splitlines()[0]
