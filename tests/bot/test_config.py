"""Settings: validated once, one clear line per problem, and the token never printed."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings, SettingsError, default_processes

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789"
ROOT = Path(__file__).resolve().parents[2]


def test_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert settings.database_path == Path("data/cardtable.sqlite3")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO" and settings.log_level_number == logging.INFO
    assert settings.api_base is None and settings.gateway_url is None
    assert settings.sync_global is True and settings.turn_seconds == 60


def test_all_settings() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_PATH": "/tmp/x.sqlite3",
            "DEV_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
            "SYNC_GLOBAL": "no",
            "TURN_SECONDS": "90",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gw",
            "DISCORD_GUILD_READY_TIMEOUT": "0.1",
            "COMPUTER_PROCESSES": "3",
        }
    )
    assert settings.computer_processes == 3
    assert settings.dev_guild_id == 123456789012345678
    assert settings.log_level == "DEBUG" and settings.sync_global is False
    assert settings.turn_seconds == 90 and settings.guild_ready_timeout == 0.1
    assert settings.api_base == "http://127.0.0.1:9/api/v10"


@pytest.mark.parametrize(
    "env,name",
    [
        ({}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "not a token"}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": TOKEN, "SYNC_GLOBAL": "maybe"}, "SYNC_GLOBAL"),
        ({"DISCORD_TOKEN": TOKEN, "SYNC_GLOBAL": "false"}, "SYNC_GLOBAL"),
        ({"DISCORD_TOKEN": TOKEN, "TURN_SECONDS": "5"}, "TURN_SECONDS"),
        ({"DISCORD_TOKEN": TOKEN, "COMPUTER_PROCESSES": "many"}, "COMPUTER_PROCESSES"),
        ({"DISCORD_TOKEN": TOKEN, "COMPUTER_PROCESSES": "99"}, "COMPUTER_PROCESSES"),
        ({"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": "discord.com"}, "DISCORD_API_BASE"),
        ({"DISCORD_TOKEN": TOKEN, "DISCORD_GATEWAY_URL": "http://x"}, "DISCORD_GATEWAY_URL"),
    ],
)
def test_bad_settings_name_the_variable(env: dict[str, str], name: str) -> None:
    with pytest.raises(SettingsError) as error:
        Settings.from_env(env)
    assert str(error.value).startswith(name)
    assert "\n" not in str(error.value)


def test_computer_processes_default_to_the_cores_but_one() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert settings.computer_processes == default_processes() >= 1
    assert (
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "COMPUTER_PROCESSES": "0"}).computer_processes
        == 0
    )


def test_database_url_chooses_postgresql_and_is_never_shown() -> None:
    url = "postgresql://cardtable:hunter2secret@db.example:5432/cardtable"
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": f" {url} "})
    assert settings.database_url is not None and settings.database_url.reveal() == url
    assert "hunter2secret" not in repr(settings)
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).database_url is None  # SQLite
    for bad in ("mysql://u:hunter2secret@h/db", "postgresql://u:hunter2secret@h/", "cardtable"):
        with pytest.raises(SettingsError) as error:
            Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": bad})
        assert error.value.problems[0].startswith("DATABASE_URL must be a PostgreSQL URL")
        assert "hunter2secret" not in str(error.value)


def test_token_is_never_shown() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)
    assert TOKEN not in repr(settings.discord_token) and TOKEN not in f"{settings.discord_token}"
    assert settings.discord_token.reveal() == TOKEN


def test_start_without_token_explains_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Traceback" not in result.stderr


def test_every_problem_is_reported_at_once() -> None:
    env = {
        "DISCORD_TOKEN": "not a token",
        "DEV_GUILD_ID": "my server",
        "LOG_LEVEL": "LOUD",
        "SYNC_GLOBAL": "maybe",
        "TURN_SECONDS": "5",
        "DISCORD_API_BASE": "discord.com",
    }
    with pytest.raises(SettingsError) as error:
        Settings.from_env(env)
    named = [problem.split(" ", 1)[0] for problem in error.value.problems]
    assert named == [
        "DISCORD_TOKEN",
        "LOG_LEVEL",
        "DEV_GUILD_ID",
        "SYNC_GLOBAL",
        "TURN_SECONDS",
        "DISCORD_API_BASE",
    ]


def test_start_with_five_mistakes_lists_all_five(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_"))}
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=not-a-token\nDEV_GUILD_ID=my server\nLOG_LEVEL=LOUD\n"
        "SYNC_GLOBAL=maybe\nTURN_SECONDS=5\n"
    )
    for name in ("LOG_LEVEL", "SYNC_GLOBAL", "TURN_SECONDS", "DATABASE_PATH"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines[0] == "cannot start: 5 settings need fixing (in .env):"
    assert [line.split(" ", 4)[3] for line in lines[1:]] == [
        "DISCORD_TOKEN",
        "LOG_LEVEL",
        "DEV_GUILD_ID",
        "SYNC_GLOBAL",
        "TURN_SECONDS",
    ]
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert not (tmp_path / "data").exists()  # nothing was created


def test_env_example_with_a_token_is_valid() -> None:
    """Step 3 of the README: copy .env.example, paste the token, and nothing else is needed."""
    from dotenv import dotenv_values

    values = {k: v or "" for k, v in dotenv_values(ROOT / ".env.example").items()}
    assert values.get("DISCORD_TOKEN") == ""
    settings = Settings.from_env({**values, "DISCORD_TOKEN": TOKEN})
    assert settings.sync_global and settings.dev_guild_id is None
