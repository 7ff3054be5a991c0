"""``python -m bot --processes 2`` against the fake Discord, on one SQLite file: two people in
two servers on different shards each play at a table; one process is killed with SIGKILL in the
middle of its game; the launcher starts it again, its table goes on (old buttons work), and the
other server's table never noticed. SIGTERM then stops everything."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import TEST_IDENTIFY_SECONDS, BotProcess, bot_processes
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    move_controls,
    ok,
    show_hand,
    start,
    table_id_of,
    table_message,
    table_messages,
)
from tests.discord.test_table_restart import CALM, stored_moves
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.model import Channel, Message

STARTED = re.compile(r"process (\d) \(shard (\d) of 2\) started \(pid (\d+)\)")


def pids(launcher: BotProcess) -> dict[int, list[int]]:
    """Each process number's pids, in the order the launcher started them."""
    found: dict[int, list[int]] = {}
    for number, _, pid in STARTED.findall(launcher.output()):
        found.setdefault(int(number), []).append(int(pid))
    return found


def exited(launcher: BotProcess) -> bool:
    return launcher.proc is not None and launcher.proc.poll() is not None


async def both_connected(fake: FakeDiscord, launcher: BotProcess) -> None:
    """Both shards connected and the commands published; fails as soon as the launcher has
    exited (a launcher that cannot start would otherwise cost the whole wait)."""
    try:
        await fake.wait_for(lambda: fake.connected_shards == {0, 1} or exited(launcher), 60)
        # Process 0 published the commands.
        await fake.wait_for(lambda: fake.global_commands or exited(launcher), 30)
        if not exited(launcher):
            await fake.quiet(idle=0.3, timeout=30)
    except TimeoutError:
        pass
    else:
        if not exited(launcher):
            return
    raise AssertionError(f"the processes did not connect:\n{launcher.output()}")


async def open_table_in(fake: FakeDiscord, host: FakeUser, channel: Channel) -> int:
    before = {m.id for m in table_messages(host)}
    result = ok(await host.slash("table new", channel=channel, game="thunee"))
    await fake.wait_for(lambda: any(m.id not in before for m in table_messages(host)), 10)
    assert result.ephemeral
    (new,) = [m for m in table_messages(host) if m.id not in before]
    return table_id_of(new)


async def play(user: FakeUser, table_id: int, moves: int, rng: random.Random) -> Message:
    """Make ``moves`` moves (the computers answer in between); the hand once it is the user's
    turn again (so nothing moves at the table until they do)."""
    played = 0
    for _ in range(400):
        hand = await show_hand(user, table_id)
        if played >= moves and any(move_controls(hand)):
            return hand
        if await act(user, hand, rng, prefer=CALM) is not None:
            played += 1
        else:
            await asyncio.sleep(0.05)
    raise AssertionError(f"{user.name} could not make {moves} moves")


async def test_two_processes_one_killed_restarted_the_other_untouched(
    fake_discord: FakeDiscord, bot_env: dict[str, str], tmp_path: Path
) -> None:
    fake = fake_discord
    north, south = fake.add_guild("North", shard=(0, 2)), fake.add_guild("South", shard=(1, 2))
    north_tables = fake.add_channel("tables", north)
    south_tables = fake.add_channel("tables", south)
    alice = FakeUser(fake, fake.add_member("alice", north).user)
    bob = FakeUser(fake, fake.add_member("bob", south).user)
    database = Path(bot_env["DATABASE_PATH"])
    env = {
        **bot_env,
        "LOG_LEVEL": "INFO",
        "DISCORD_IDENTIFY_SECONDS": str(TEST_IDENTIFY_SECONDS),
    }
    command = [sys.executable, "-m", "bot", "--processes", "2"]
    with bot_processes(env, tmp_path, command) as start_launcher:
        launcher = start_launcher()
        await both_connected(fake, launcher)
        first = pids(launcher)
        assert sorted(first) == [0, 1] and all(len(p) == 1 for p in first.values())

        rng = random.Random(7)
        tables: dict[str, int] = {}
        for user, channel in ((alice, north_tables), (bob, south_tables)):
            table_id = await open_table_in(fake, user, channel)
            await fill_with_computers(fake, user, table_id)
            await start(fake, user, table_id)
            tables[user.name] = table_id
        await play(alice, tables["alice"], 2, rng)
        old_hand = await play(bob, tables["bob"], 2, rng)
        bob_moves = stored_moves(database, tables["bob"])
        north_session, south_session = fake.shard_sessions[0], fake.shard_sessions[1]
        board = table_message(bob, tables["bob"])
        edits = len(board.history)

        os.kill(first[1][0], signal.SIGKILL)  # the process of shard 1: bob's server
        # Meanwhile the other server plays on, answered in time as ever.
        await play(alice, tables["alice"], 1, rng)
        await fake.wait_for(
            lambda: fake.shard_sessions[1] is not south_session and 1 in fake.connected_shards,
            30,
        )
        # The restarted process restored bob's table and redrew its message.
        await fake.wait_for(lambda: len(board.history) > edits, 15)
        assert stored_moves(database, tables["bob"]) >= bob_moves, "every answered move kept"
        await act(bob, old_hand, rng, prefer=CALM)  # a button from before the kill still works
        await play(bob, tables["bob"], 2, rng)
        assert stored_moves(database, tables["bob"]) > bob_moves
        await play(alice, tables["alice"], 1, rng)

        assert fake.shard_sessions[0] is north_session, "shard 0 never reconnected"
        again = pids(launcher)
        assert again[0] == first[0] and len(again[1]) == 2, launcher.output()
        assert "process 1 (shard 1 of 2) was killed by SIGKILL" in launcher.output()
        assert fake.errors == [] and fake.unknown_routes == []

        assert launcher.proc is not None
        launcher.proc.send_signal(signal.SIGTERM)
        code = await asyncio.get_running_loop().run_in_executor(None, launcher.proc.wait, 60)
        assert code == 0, launcher.output()
        assert "stopped: all 2 processes" in launcher.output()
        for pid in (first[0][0], again[1][1]):
            assert not Path(f"/proc/{pid}").exists() or _zombie(pid), f"process {pid} still runs"
        assert "Traceback" not in launcher.output(), launcher.output()


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True


async def test_a_launcher_that_exits_fails_the_wait_at_once(
    fake_discord: FakeDiscord, bot_env: dict[str, str], tmp_path: Path
) -> None:
    """The connection wait gives up when the launcher has exited, not a minute later."""
    command = [sys.executable, "-c", "print('cannot start: DISCORD_TOKEN is not set')"]
    with bot_processes(bot_env, tmp_path, command) as start_launcher:
        launcher = start_launcher()
        began = time.monotonic()
        with pytest.raises(AssertionError, match="the processes did not connect:\ncannot start"):
            await both_connected(fake_discord, launcher)
        assert time.monotonic() - began < 30, "waited as if the launcher still ran"
