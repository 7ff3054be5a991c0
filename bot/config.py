"""Settings, read once from the environment (and ``.env``) and validated before anything starts.

Every missing or malformed setting is reported at once, one line each naming the variable and the
fix, so a ``.env`` with five mistakes takes one round, not five. The token is kept in a
:class:`Secret` so that it never shows in a repr or a log line.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from bot.shards import IDENTIFY_SECONDS, Shards, read_shards

DEFAULT_DATABASE_PATH = "data/cardtable.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# Discord's global limit on a bot's requests a second, over all its processes (it raises it for
# large bots on request): each process keeps to its share (bot/request_budget.py).
DEFAULT_GLOBAL_RATE_LIMIT = 50


def default_processes() -> int:
    """Computer players' worker processes: one per core, at most four. They think at a lower
    priority than the bot (bot/thinking.py), so the bot's answers still come first."""
    return min(4, os.cpu_count() or 1)


class SettingsError(ValueError):
    """Settings are missing or malformed: one line per problem, naming the variable and the fix."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class _Problems:
    """Collects every settings problem instead of stopping at the first."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, line: str) -> None:
        self.lines.append(line)


class Secret:
    """A string that does not print itself."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class Settings:
    discord_token: Secret = field(repr=False)
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    # PostgreSQL instead of the SQLite file (``postgresql://user:password@host/database``): a
    # Secret, since the URL may hold a password. None: SQLite at ``database_path``.
    database_url: Secret | None = field(default=None, repr=False)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    # Publish the commands to every server whenever they change (off: DEV_GUILD_ID only).
    sync_global: bool = True
    turn_seconds: int = 60
    # Worker processes for computer decisions; 0 runs them in threads of the bot's process (what
    # settings built in code get, e.g. in tests; COMPUTER_PROCESSES defaults to one per core, at
    # most four: see default_processes).
    computer_processes: int = 0
    # For tests only: point discord.py at the in-repo fake Discord instead of discord.com.
    api_base: str | None = None
    gateway_url: str | None = None
    guild_ready_timeout: float | None = None
    # SHARD_COUNT and SHARD_IDS (bot/shards.py): the shards this process connects; None: one
    # unsharded process. identify_seconds is Discord's identify window (tests shorten it).
    shards: Shards | None = None
    identify_seconds: float = IDENTIFY_SECONDS
    global_rate_limit: int = DEFAULT_GLOBAL_RATE_LIMIT

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
        """Read and check every setting; raise one :class:`SettingsError` listing all problems."""
        problems = _Problems()
        token = environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            problems.add(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token "
                "(Discord Developer Portal → your application → Bot → Reset Token)."
            )
        elif any(ch.isspace() for ch in token) or token.count(".") < 2:
            problems.add(
                "DISCORD_TOKEN does not look like a bot token (three dot-separated parts, no "
                "spaces): copy it again from the Developer Portal's Bot page."
            )
        level = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            problems.add(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
            level = "INFO"
        dev_guild_id = _snowflake(environ, "DEV_GUILD_ID", problems)
        sync_global = _flag(environ, "SYNC_GLOBAL", True, problems)
        if not sync_global and dev_guild_id is None and "DEV_GUILD_ID" not in _named(problems):
            problems.add(
                "SYNC_GLOBAL is false and DEV_GUILD_ID is not set, so no server would get the "
                "commands: set DEV_GUILD_ID to your test server's ID, or remove SYNC_GLOBAL."
            )
        settings = cls(
            discord_token=Secret(token),
            database_path=Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH),
            database_url=_database_url(environ, problems),
            dev_guild_id=dev_guild_id,
            log_level=level,
            sync_global=sync_global,
            turn_seconds=_whole(environ, "TURN_SECONDS", 60, 10, 3600, problems),
            computer_processes=_whole(
                environ, "COMPUTER_PROCESSES", default_processes(), 0, 32, problems
            ),
            api_base=_url(environ, "DISCORD_API_BASE", ("http", "https"), problems),
            gateway_url=_url(environ, "DISCORD_GATEWAY_URL", ("ws", "wss"), problems),
            guild_ready_timeout=_seconds(environ, "DISCORD_GUILD_READY_TIMEOUT", problems),
            shards=read_shards(environ, problems.add),
            identify_seconds=_seconds(environ, "DISCORD_IDENTIFY_SECONDS", problems)
            or IDENTIFY_SECONDS,
            global_rate_limit=_whole(
                environ, "GLOBAL_RATE_LIMIT", DEFAULT_GLOBAL_RATE_LIMIT, 1, 100_000, problems
            ),
        )
        if problems.lines:
            raise SettingsError(problems.lines)
        return settings

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))


def _named(problems: _Problems) -> set[str]:
    """The variables already reported (the first word of each line)."""
    return {line.split(" ", 1)[0] for line in problems.lines}


def _snowflake(environ: Mapping[str, str], name: str, problems: _Problems) -> int | None:
    text = environ.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or not 15 <= len(text) <= 21:
        problems.add(
            f"{name} must be a server ID (a 17 to 20 digit number: enable Developer Mode, then "
            f"right-click the server → Copy Server ID), not {text!r}."
        )
        return None
    return int(text)


def _flag(environ: Mapping[str, str], name: str, default: bool, problems: _Problems) -> bool:
    text = environ.get(name, "").strip().lower()
    if not text:
        return default
    if text in ("0", "false", "no", "off"):
        return False
    if text in ("1", "true", "yes", "on"):
        return True
    problems.add(f"{name} must be true or false, not {text!r}.")
    return default


def _whole(
    environ: Mapping[str, str], name: str, default: int, low: int, high: int, problems: _Problems
) -> int:
    text = environ.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        problems.add(f"{name} must be a whole number from {low} to {high}, not {text!r}.")
        return default
    return int(text)


def _seconds(environ: Mapping[str, str], name: str, problems: _Problems) -> float | None:
    text = environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:  # also refuses nan
        problems.add(f"{name} must be a number of seconds, not {text!r}.")
        return None
    return value


def _database_url(environ: Mapping[str, str], problems: _Problems) -> Secret | None:
    """``DATABASE_URL``: a PostgreSQL URL naming a database, or unset (SQLite). A malformed one
    is reported without its text, which may hold a password."""
    text = environ.get("DATABASE_URL", "").strip()
    if not text:
        return None
    parsed = urlparse(text)
    if parsed.scheme not in ("postgresql", "postgres") or not parsed.path.strip("/"):
        problems.add(
            "DATABASE_URL must be a PostgreSQL URL naming a database, like "
            "postgresql://cardtable:PASSWORD@localhost:5432/cardtable (or leave it unset to "
            "use the SQLite file at DATABASE_PATH)."
        )
        return None
    return Secret(text)


def _url(
    environ: Mapping[str, str], name: str, schemes: tuple[str, ...], problems: _Problems
) -> str | None:
    text = environ.get(name, "").strip()
    if not text:
        return None
    parsed = urlparse(text)
    if parsed.scheme not in schemes or not parsed.netloc:
        problems.add(
            f"{name} must be a {' or '.join(schemes)} URL (it is for tests only: leave it unset "
            f"to use Discord), not {text!r}."
        )
        return None
    return text.rstrip("/")
