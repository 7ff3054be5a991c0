"""``python -m bot`` as an admin runs it: each start-up or stop path ends in one clear line.

Every case is a real subprocess against the in-repo fake Discord (or no Discord at all: a closed
loopback port). Waits are for a line of output or a state of the fake, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import COGS
from tests.conftest import REPO, die_with_parent
from tests.discord import table_driver as drive
from tests.fakediscord import FakeDiscord

START_SECONDS = 60.0  # generous: two cores shared by several test runs


class Bot:
    """``python -m bot`` with its output (stdout and stderr merged) collected line by line."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._new_line = asyncio.Event()

    async def start(self) -> Bot:
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_"))}
        keep = {
            k: v for k, v in keep.items() if k not in ("DATABASE_PATH", "DATABASE_URL", "LOG_LEVEL")
        }
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=REPO,
            env={**keep, **self.env, "PYTHONUNBUFFERED": "1"},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            preexec_fn=die_with_parent,
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))
            self._new_line.set()
        self._new_line.set()

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    async def wait_line(self, text: str, timeout: float = START_SECONDS) -> str:
        """The first output line containing ``text`` (waits for it)."""

        async def seek() -> str:
            while True:
                for line in self.lines:
                    if text in line:
                        return line
                if self._reader is not None and self._reader.done():
                    raise AssertionError(f"the bot ended without {text!r}:\n{self.output}")
                self._new_line.clear()
                await self._new_line.wait()

        try:
            return await asyncio.wait_for(seek(), timeout)
        except TimeoutError:
            raise AssertionError(f"no line with {text!r} in:\n{self.output}") from None

    async def exit_code(self, timeout: float = START_SECONDS) -> int:
        assert self.proc is not None and self._reader is not None
        try:
            code = await asyncio.wait_for(self.proc.wait(), timeout)
            await asyncio.wait_for(self._reader, timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not exit:\n{self.output}") from None
        return code

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        if self._reader is not None:
            await self._reader


@pytest.fixture
async def run_bot() -> AsyncIterator[Callable[[dict[str, str]], asyncio.Future[Bot]]]:
    started: list[Bot] = []

    def factory(env: dict[str, str]) -> asyncio.Future[Bot]:
        bot = Bot(env)
        started.append(bot)
        return asyncio.ensure_future(bot.start())

    try:
        yield factory
    finally:
        for bot in started:
            await bot.stop()


def assert_clean(bot: Bot) -> None:
    assert "Traceback" not in bot.output, bot.output
    assert "Unclosed" not in bot.output, bot.output


async def connected(fake: FakeDiscord, bot: Bot, count: int = 1) -> None:
    try:
        await fake.wait_for(lambda: fake.identify_count >= count and fake.connected, START_SECONDS)
    except TimeoutError:
        raise AssertionError(f"the bot did not connect:\n{bot.output}") from None
    await bot.wait_line("connected as")


def closed_port() -> int:
    """A loopback port nobody listens on: Discord "unreachable" without any network."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def command_syncs(fake: FakeDiscord, *, guild: bool) -> int:
    return sum(
        1
        for r in fake.requests
        if r.method == "PUT" and r.path.endswith("/commands") and ("/guilds/" in r.path) == guild
    )


# --- the database is checked before Discord ---
def not_a_database(tmp_path: Path) -> Path:
    path = tmp_path / "notes.sqlite3"
    path.write_text("shopping list: eggs, milk\n" * 50)
    return path


def read_only_database(tmp_path: Path) -> Path:
    """A real SQLite file that SQLite itself treats as read-only (file format write version 3);
    a chmod would not do as root."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    data = bytearray(path.read_bytes())
    data[18] = 3
    path.write_bytes(bytes(data))
    return path


def another_programs_database(tmp_path: Path) -> Path:
    path = tmp_path / "accounts.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        db.execute("INSERT INTO invoices (total) VALUES (12.5)")
    db.close()
    return path


def a_folder(tmp_path: Path) -> Path:
    return tmp_path


def under_a_file(tmp_path: Path) -> Path:
    (tmp_path / "plain-file").write_text("x")
    return tmp_path / "plain-file" / "cardtable.sqlite3"


@pytest.mark.parametrize(
    "make_path,reason",
    [
        (a_folder, "is a folder"),
        (under_a_file, "cannot create its folder"),
        (not_a_database, "is not an SQLite database"),
        (read_only_database, "is read-only"),
        (another_programs_database, "holds another program's tables (invoices)"),
    ],
)
async def test_bad_database_path_one_line_before_connecting(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    tmp_path: Path,
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
    make_path: Callable[[Path], Path],
    reason: str,
) -> None:
    path = make_path(tmp_path)
    bot = await run_bot({**bot_env, "DATABASE_PATH": str(path)})
    assert await bot.exit_code() == 2
    assert bot.lines and bot.lines[0].startswith("cannot start: DATABASE_PATH"), bot.output
    assert reason in bot.lines[0]
    assert len(bot.lines) == 1, bot.output
    assert_clean(bot)
    assert fake_discord.requests == [] and fake_discord.identify_count == 0


async def test_an_unreachable_database_url_one_line_without_its_password(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    tmp_path: Path,
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    url = f"postgresql://cardtable:hunter2secret@/cardtable?host={tmp_path}"  # no server there
    bot = await run_bot({**bot_env, "DATABASE_URL": url})
    assert await bot.exit_code() == 2
    assert bot.lines and bot.lines[0].startswith(
        "cannot start: DATABASE_URL: cannot reach the PostgreSQL server"
    ), bot.output
    assert len(bot.lines) == 1 and "hunter2secret" not in bot.output, bot.output
    assert_clean(bot)
    assert fake_discord.requests == [] and fake_discord.identify_count == 0


async def test_database_url_runs_the_bot_on_postgresql(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    postgres_url: str,
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    """With DATABASE_URL the bot keeps its data in PostgreSQL: no SQLite file is made, and what
    one start stored (the commands' fingerprint) the next start finds."""
    import asyncpg

    env = {**bot_env, "DATABASE_URL": postgres_url, "DEV_GUILD_ID": "", "LOG_LEVEL": "INFO"}
    for count, said in ((1, "synced"), (2, "unchanged since the last sync")):
        bot = await run_bot(env)
        await connected(fake_discord, bot, count=count)
        assert said in await bot.wait_line("commands:")
        bot.signal(signal.SIGTERM)
        assert await bot.exit_code() == 0
        assert_clean(bot)
    assert command_syncs(fake_discord, guild=False) == 1
    assert not Path(bot_env["DATABASE_PATH"]).exists()
    db = await asyncpg.connect(postgres_url)
    try:
        assert await db.fetchval("SELECT COUNT(*) FROM command_syncs WHERE scope = 0") == 1
    finally:
        await db.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
async def test_read_only_file_mode(
    bot_env: dict[str, str],
    tmp_path: Path,
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "cardtable.sqlite3"
    sqlite3.connect(path).close()
    path.chmod(0o444)
    folder.chmod(0o555)
    try:
        bot = await run_bot({**bot_env, "DATABASE_PATH": str(path)})
        assert await bot.exit_code() == 2
        assert bot.lines[0].startswith("cannot start: DATABASE_PATH"), bot.output
        assert_clean(bot)
    finally:
        folder.chmod(0o755)


# --- Discord says no, or cannot be reached ---
async def test_refused_token_one_line(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    bad = "MTAwMDAwMDAwMDAwMDAwMDAx.other.token-that-the-fake-refuses"
    bot = await run_bot({**bot_env, "DISCORD_TOKEN": bad})
    assert await bot.exit_code() == 2
    assert bot.lines == [
        "cannot start: Discord refused DISCORD_TOKEN: copy the token again from the "
        "Developer Portal's Bot page (Reset Token)."
    ]
    assert_clean(bot)
    assert bad not in bot.output


async def test_discord_unreachable_retries_in_one_line_each(
    bot_env: dict[str, str], run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]]
) -> None:
    port = closed_port()
    env = {
        **bot_env,
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway",
    }
    bot = await run_bot(env)
    line = await bot.wait_line("cannot reach Discord")
    assert f"127.0.0.1:{port}" in line and "retrying in" in line
    bot.signal(signal.SIGTERM)
    assert await bot.exit_code() == 0
    assert bot.lines[-1].startswith("stopped:")
    assert all("cannot reach Discord" in line for line in bot.lines[:-1]), bot.output
    assert_clean(bot)


# --- a quiet start, command sync ---
async def test_first_start_syncs_globally_once_not_again_on_restart(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    """A fresh clone with only the token: the commands appear, and a restart does not resync."""
    env = {**bot_env, "DEV_GUILD_ID": "", "LOG_LEVEL": "INFO"}  # "": not even from a .env
    first = await run_bot(env)
    await connected(fake_discord, first)
    line = await first.wait_line("commands:")
    assert "synced" in line and "globally" in line and "up to an hour" in line
    assert {"table", "ping"} <= set(fake_discord.global_commands)
    assert command_syncs(fake_discord, guild=False) == 1
    assert command_syncs(fake_discord, guild=True) == 0
    # A quiet start: the voice libraries the bot never uses are not mentioned.
    assert not any(word in first.output for word in ("PyNaCl", "davey", "voice")), first.output
    # ...and discord.py's INFO chatter (login, shard and session ids) stays out of it.
    ours = (" INFO bot.", " INFO cogs.", " WARNING ")
    assert all(any(part in line for part in ours) for line in first.lines), first.output
    first.signal(signal.SIGTERM)
    assert await first.exit_code() == 0

    second = await run_bot(env)
    await connected(fake_discord, second, count=2)
    assert "unchanged since the last sync to every server, not synced" in await second.wait_line(
        "commands:"
    )
    assert command_syncs(fake_discord, guild=False) == 1
    second.signal(signal.SIGTERM)
    assert await second.exit_code() == 0
    assert_clean(first)
    assert_clean(second)

    # A new version whose commands differ from the published ones: published again, once.
    with sqlite3.connect(env["DATABASE_PATH"]) as db:
        db.execute("UPDATE command_syncs SET fingerprint = 'an older command set'")
    db.close()
    third = await run_bot(env)
    await connected(fake_discord, third, count=3)
    assert "synced" in await third.wait_line("commands:")
    assert command_syncs(fake_discord, guild=False) == 2
    third.signal(signal.SIGTERM)
    assert await third.exit_code() == 0


async def test_fingerprint_follows_the_command_payloads() -> None:
    import discord
    from discord import app_commands

    from bot.app import command_fingerprint

    def tree_with(description: str) -> app_commands.CommandTree[Any]:
        tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
            discord.Client(intents=discord.Intents.none())
        )

        @tree.command(name="ping", description=description)
        async def ping(interaction: Any) -> None: ...

        return tree

    first = await command_fingerprint(tree_with("a"), None)
    assert first == await command_fingerprint(tree_with("a"), None)
    assert first != await command_fingerprint(tree_with("b"), None)

    class Finnish(app_commands.Translator):
        def __init__(self, word: str) -> None:
            self.word = word

        async def translate(self, string: Any, locale: Any, context: Any) -> str | None:
            return self.word if locale is discord.Locale.finnish else None

    translated = {}
    for word in ("herätys", "pingi"):
        tree = tree_with("a")
        await tree.set_translator(Finnish(word))
        translated[word] = await command_fingerprint(tree, None)
    assert first != translated["herätys"] != translated["pingi"], "a new translation is synced"


async def test_the_catalogues_payloads_are_worked_out_once_and_as_discord_py_does() -> None:
    import discord
    from discord import app_commands

    from bot.app import command_payloads
    from bot.command_translator import CatalogueTranslator

    async def tree_with_ping() -> app_commands.CommandTree[Any]:
        tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
            discord.Client(intents=discord.Intents.none())
        )

        @tree.command(name="ping", description="Check that the card table bot is awake.")
        async def ping(interaction: Any) -> None: ...

        await tree.set_translator(CatalogueTranslator())
        return tree

    tree = await tree_with_ping()
    translator = tree.translator
    assert translator is not None
    expected = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    assert expected[0].get("description_localizations"), "the catalogue translates it"
    first = await command_payloads(tree, None)
    again = await command_payloads(await tree_with_ping(), None)  # another bot in this process
    assert first == again == expected
    assert again[0] is first[0], "translated once"


async def test_dev_guild_gets_the_commands_at_once(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    bot = await run_bot({**bot_env, "LOG_LEVEL": "INFO"})
    await connected(fake_discord, bot)
    line = await bot.wait_line("commands:")
    guild = fake_discord.default_guild.id
    assert f"server {guild}" in line and "at once" in line and "globally" in line
    assert "ping" in fake_discord.guild_commands[guild]
    assert command_syncs(fake_discord, guild=True) == 1
    bot.signal(signal.SIGTERM)
    assert await bot.exit_code() == 0


# --- stopping ---
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
async def test_one_signal_stops_cleanly_in_one_line(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
    sig: signal.Signals,
) -> None:
    """Mid-game: one Ctrl-C (or SIGTERM) ends the process at once, the database closed."""
    bot = await run_bot({**bot_env, "LOG_LEVEL": "WARNING"})
    await fake_discord.wait_for(lambda: fake_discord.connected, START_SECONDS)
    alice = fake_discord.user("alice")
    table_id = await drive.open_table(fake_discord, alice, "tarneeb")
    await drive.fill_with_computers(fake_discord, alice, table_id)
    await drive.start(fake_discord, alice, table_id)
    bot.signal(sig)
    assert await bot.exit_code() == 0
    assert bot.lines == [
        "stopped: table updates sent, database closed, disconnected from Discord"
    ], bot.output
    await fake_discord.wait_for(lambda: not fake_discord.connected, START_SECONDS)
    database = Path(bot_env["DATABASE_PATH"])
    # SQLite removes the write-ahead log when the last connection closes cleanly.
    assert database.exists() and not Path(f"{database}-wal").exists()
    with sqlite3.connect(database) as db:
        (status,) = db.execute(
            "SELECT status FROM game_tables WHERE id = ?", (table_id,)
        ).fetchone()
    assert status == "playing"


def shown_move(fake: FakeDiscord, table_id: int) -> int:
    """The move number the public table message shows (its footer)."""
    text = drive.table_message(fake.user("alice"), table_id).text()
    match = re.search(r"-- Move (\d+)", text)
    assert match, text
    return int(match.group(1))


async def test_stop_sends_the_pending_table_edit(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    """A move answered just before SIGTERM: its table-message edit (coalesced, so still pending)
    goes out before the bot disconnects."""
    bot = await run_bot(bot_env)
    await fake_discord.wait_for(lambda: fake_discord.connected, START_SECONDS)
    alice = fake_discord.user("alice")
    table_id = await drive.open_table(fake_discord, alice, "tarneeb")
    await drive.fill_with_computers(fake_discord, alice, table_id)
    await drive.start(fake_discord, alice, table_id)
    hand = await drive.show_hand(alice, table_id)
    await drive.settle(fake_discord)
    before = shown_move(fake_discord, table_id)
    assert await drive.act(alice, hand, random.Random(3)) is not None
    bot.signal(signal.SIGTERM)
    assert await bot.exit_code() == 0
    assert shown_move(fake_discord, table_id) > before, bot.output
    assert_clean(bot)


async def test_dev_guild_the_bot_is_not_in_says_so_and_runs_on(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    bot = await run_bot({**bot_env, "DEV_GUILD_ID": "123456789012345678"})
    line = await bot.wait_line("could not sync the commands to server 123456789012345678")
    assert "invited with the applications.commands scope" in line
    await fake_discord.wait_for(lambda: fake_discord.connected, START_SECONDS)
    assert "ping" in fake_discord.global_commands  # the global sync still happened
    bot.signal(signal.SIGTERM)
    assert await bot.exit_code() == 0
    assert_clean(bot)


# --- no card in the log, even at DEBUG ---
async def test_debug_log_shows_no_card(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    run_bot: Callable[[dict[str, str]], asyncio.Future[Bot]],
) -> None:
    bot = await run_bot({**bot_env, "LOG_LEVEL": "DEBUG"})
    await fake_discord.wait_for(lambda: fake_discord.connected, START_SECONDS)
    await bot.wait_line("connected as")
    alice = fake_discord.user("alice")
    table_id = await drive.open_table(fake_discord, alice, "tarneeb")
    await drive.fill_with_computers(fake_discord, alice, table_id)
    await drive.start(fake_discord, alice, table_id)
    rng = random.Random(7)
    moves = 0
    for _ in range(8):  # alice's bid and a few cards; the computers play in between
        hand = await drive.show_hand(alice, table_id)
        if await drive.act(alice, hand, rng) is not None:
            moves += 1
        await drive.settle(fake_discord)
    assert moves >= 2
    bot.signal(signal.SIGTERM)
    assert await bot.exit_code() == 0
    assert "DEBUG" in bot.output  # the level took effect
    with sqlite3.connect(bot_env["DATABASE_PATH"]) as db:
        deals = [json.loads(row[0]) for row in db.execute("SELECT deal FROM deals")]
        played = [json.loads(row[0]) for row in db.execute("SELECT move FROM moves")]
    assert deals and played
    cards = {card for deal in deals for hand in deal["hands"] for card in hand}
    assert '"hands"' not in bot.output
    leaked = {card for card in cards if f"'{card}'" in bot.output or f'"{card}"' in bot.output}
    assert leaked == set(), bot.output
    assert_clean(bot)


# --- make play ---
async def test_play_shows_why_the_bot_did_not_start() -> None:
    """``make play`` with a bad setting prints the bot's own reason, not a deleted log's path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_"))}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fakediscord",
        "play",
        cwd=REPO,
        env={**env, "LOG_LEVEL": "LOUD"},
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), START_SECONDS)
    text = out.decode()
    assert proc.returncode == 1
    assert "cannot start: LOG_LEVEL must be one of" in text
    assert "bot.log" not in text and "Traceback" not in text


# --- what a start loads ---
LAZY = ("games.search",)  # loaded where first needed, never by a start
THE_BOT = ("discord", "aiohttp", "bot.app", "bot.store", "bot.startup", "games")


def test_a_start_loads_neither_the_search_nor_the_phrases() -> None:
    """The bot and every cog it loads import without what only a hard decision needs, and
    without compiling the games' phrases for other languages: every start (a restart too)
    would pay for them, and the bot's process may never use them (its computers think in
    worker processes; a server read in English translates nothing). ``python -m bot`` itself
    loads none of the bot until it serves: the launcher of ``--processes`` only starts and
    watches the bot processes, and a start refused for its settings ends at once."""
    code = (
        "import importlib, sys, bot.__main__\n"
        "launcher = ','.join(sys.modules)\n"
        "import bot.app\n"
        "for name in bot.app.COGS: importlib.import_module(name)\n"
        "from cogs.engine_words import _phrases\n"
        "print(launcher, _phrases.cache_info().currsize, ' '.join(sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    launcher, compiled, *loaded = done.stdout.split()
    assert not [name for name in launcher.split(",") if name.startswith(THE_BOT)], launcher
    assert set(COGS) <= set(loaded)
    assert not [name for name in loaded if name.startswith(LAZY)], done.stdout
    assert compiled == "0", "phrases compiled at start"
