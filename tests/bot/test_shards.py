"""Shards: SHARD_COUNT and SHARD_IDS, the launcher's split, identify slots, and tables that
belong to one process: restored only by the process whose shards own their guild; a move
number two processes both try to store is kept once, the other refused as out of date (processes
sharing one SQLite file, or one PostgreSQL database)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.config import Secret, Settings, SettingsError
from bot.launcher import LaunchError, how_it_ended, plan
from bot.sessions import LiveTable, SessionManager, UserError
from bot.shards import (
    SLOT_OPEN,
    SLOT_WINDOWS,
    Shards,
    identify_wait,
    owns_guild,
    publishes,
    shard_of,
    share,
)
from bot.startup import check_database
from bot.store import Store
from tests.bot.backends import BOTH, Backend
from tests.bot.conftest import Recorder

STORE_BACKENDS = BOTH

TOKEN = "MTAw.fake.token"
ON_ZERO, ON_ONE = 5, (1 << 22) | 5  # guild ids on shard 0 and shard 1 of 2
HOST, GUEST = 101, 202
Process = Callable[[Shards | None], Awaitable[SessionManager]]


def read(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": TOKEN, **env})


def problems(**env: str) -> list[str]:
    with pytest.raises(SettingsError) as caught:
        read(**env)
    return caught.value.problems


def test_unset_means_one_unsharded_process() -> None:
    settings = read()
    assert settings.shards is None
    assert owns_guild(None, ON_ONE) and publishes(None)


def test_shard_count_alone_runs_every_shard_here() -> None:
    assert read(SHARD_COUNT="3").shards == Shards(3, (0, 1, 2))


def test_shard_ids_pick_some_of_them() -> None:
    shards = read(SHARD_COUNT="4", SHARD_IDS=" 3, 1 ").shards
    assert shards == Shards(4, (1, 3))
    assert shards is not None and not shards.first and not publishes(shards)
    assert shards.describe() == "shards 1, 3 of 4"
    assert [shards.owns(g) for g in (ON_ZERO, ON_ONE, None)] == [False, True, False]


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS is set but SHARD_COUNT is not"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number from 1"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number from 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "numbered 0 to 1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, "separated by commas"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,-2"}, "separated by commas"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,1"}, "names a shard twice"),
    ],
)
def test_bad_shard_settings_are_one_clear_line(env: dict[str, str], says: str) -> None:
    found = problems(**env)
    assert len(found) == 1 and says in found[0], found


def test_the_launcher_deals_shards_round_robin() -> None:
    assert [share(k, 3, 7) for k in range(3)] == [(0, 3, 6), (1, 4), (2, 5)]
    dealt = sorted(i for k in range(4) for i in share(k, 4, 10))
    assert dealt == list(range(10)), "every shard once"


@pytest.mark.parametrize(("count", "concurrency"), [(1, 1), (2, 1), (5, 1), (8, 2), (7, 16)])
def test_one_bucket_never_identifies_twice_within_a_window(count: int, concurrency: int) -> None:
    window = 5.0
    rounds = -(-count // concurrency)
    cycle = rounds * window * SLOT_WINDOWS
    rng = random.Random(count * 100 + concurrency)
    moments: dict[int, list[float]] = {}
    for shard in range(count):
        for _ in range(200):
            now = rng.uniform(0, 10_000)
            wait = identify_wait(now, shard, count, concurrency, window)
            assert 0 <= wait <= cycle
            moments.setdefault(shard, []).append((now + wait) % cycle)
    for a in range(count):
        for b in range(a + 1, count):
            if a % concurrency != b % concurrency:
                continue  # other buckets identify at the same time freely
            gap = min(min(abs(x - y), cycle - abs(x - y)) for x in moments[a] for y in moments[b])
            assert gap > window, (a, b, gap)
    assert identify_wait(0.0, 0, 1, 1, window) == 0.0, "a single shard never waits at its slot"
    assert max(identify_wait(t / 10, 0, 1, 1, window) for t in range(70)) <= window * (
        SLOT_WINDOWS - SLOT_OPEN
    )


# --- tables belong to the process of their guild's shard -----------------------------------------


def settings(db: Path, shards: Shards | None) -> Settings:
    return Settings(discord_token=Secret("x.y.z"), database_path=db, shards=shards)


@pytest.fixture
async def processes(backend: Backend) -> AsyncIterator[Process]:
    """``process(shards)``: a session manager on its own connection to one database (an SQLite
    file, a PostgreSQL database), as a bot process of its own would have."""
    made: list[SessionManager] = []

    async def start(shards: Shards | None) -> SessionManager:
        store = await backend.open()
        sessions = SessionManager(store, settings(backend.path, shards), clock=ManualClock())
        sessions.presenter = Recorder()
        made.append(sessions)
        return sessions

    yield start
    for sessions in made:
        await sessions.shutdown()
        await sessions.store.close()


async def playing(sessions: SessionManager, guild: int) -> LiveTable:
    table = await sessions.create_table(
        guild_id=guild, channel_id=guild + 1, host_id=HOST, host_name="Host", game="tiny"
    )
    await sessions.join(table.id, GUEST, "Guest")
    await sessions.start(table.id, HOST)
    return table


async def test_a_process_restores_only_the_tables_of_its_shards(processes: Process) -> None:
    assert shard_of(ON_ZERO, 2) == 0 and shard_of(ON_ONE, 2) == 1
    first = await processes(None)
    near = await playing(first, ON_ZERO)
    far = await playing(first, ON_ONE)
    lobby = await first.create_table(
        guild_id=ON_ONE, channel_id=9, host_id=303, host_name="Third", game="tiny"
    )
    zero = await processes(Shards(2, (0,)))
    one = await processes(Shards(2, (1,)))
    await zero.restore()
    await one.restore()
    assert set(zero.tables) == {near.id}
    assert set(one.tables) == {far.id, lobby.id}
    assert [t.id for t in zero.in_play()] == [near.id], "its timers and computers only"


async def test_a_move_number_stored_by_another_process_is_refused_and_changes_nothing(
    processes: Process,
) -> None:
    one = await processes(None)
    table = await playing(one, ON_ZERO)
    other = await processes(None)  # a second process holding the same table (shards moved)
    await other.restore()
    theirs = other.tables[table.id]
    assert table.game is not None and theirs.game is not None
    seat = table.game.to_act()[0]
    user = table.seats[seat].user_id or 0
    move = table.game.legal_moves(seat)[0]
    await one.submit(table.id, user, 0, move)
    stored = await one.store.moves(table.id)
    with pytest.raises(UserError, match="out of date"):
        await other.submit(table.id, user, 0, theirs.game.legal_moves(seat)[0])
    assert await one.store.moves(table.id) == stored, "nothing written"
    assert theirs.moves == 1, "the refusing process took the table as stored"
    assert theirs.game is not None and table.game is not None
    assert theirs.game.to_act() == table.game.to_act()
    # ... so the next move goes through it.
    nxt = theirs.game.to_act()[0]
    await other.submit(table.id, theirs.seats[nxt].user_id or 0, 1, theirs.game.legal_moves(nxt)[0])
    assert len(await one.store.moves(table.id)) == 2


async def test_processes_starting_together_on_a_new_database_migrate_it_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "new.sqlite3"
    for _ in range(5):  # the race is the operating system's to schedule: give it chances
        path.unlink(missing_ok=True)
        stores = await asyncio.gather(*(Store.open(path) for _ in range(3)))
        versions = {await store.schema_version() for store in stores}
        for store in stores:
            await store.close()
        assert len(versions) == 1 and versions != {0}


def test_one_process_s_start_up_check_leaves_the_new_file_another_has_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on a new file: the second opens it while the first's start-up check still
    holds it; the check must not delete it, or the second writes to a removed file (SQLite: "disk
    I/O error", and the launcher stops every process)."""
    path = tmp_path / "new.sqlite3"
    connect = sqlite3.connect
    beside: list[sqlite3.Connection] = []

    def checking(database: Path, timeout: float) -> sqlite3.Connection:
        connection = connect(database, timeout=timeout)
        beside.append(connect(path, timeout=5))  # the other process, opening the same new file
        return connection

    monkeypatch.setattr(sqlite3, "connect", checking)
    check_database(path)
    monkeypatch.undo()
    (other,) = beside
    try:
        other.execute("PRAGMA journal_mode=WAL")
        other.execute("CREATE TABLE written (x)")
    finally:
        other.close()
    with sqlite3.connect(path) as again:
        assert again.execute("SELECT name FROM sqlite_master").fetchall() == [("written",)]


# --- the launcher's split ------------------------------------------------------------------------


def test_the_launcher_gives_each_process_its_share() -> None:
    assert plan(read(), 2) == [Shards(2, (0,)), Shards(2, (1,))], "SHARD_COUNT = N when unset"
    assert plan(read(SHARD_COUNT="5"), 2) == [Shards(5, (0, 2, 4)), Shards(5, (1, 3))]
    # One machine of several: its SHARD_IDS shared among its processes.
    machine = read(SHARD_COUNT="8", SHARD_IDS="1,3,5,7")
    assert plan(machine, 2) == [Shards(8, (1, 5)), Shards(8, (3, 7))]


@pytest.mark.parametrize(("env", "processes"), [({}, 0), ({"SHARD_COUNT": "2"}, 3)])
def test_the_launcher_refuses_a_split_it_cannot_make(env: dict[str, str], processes: int) -> None:
    with pytest.raises(LaunchError):
        plan(read(**env), processes)


def test_the_launcher_says_how_a_process_ended() -> None:
    assert how_it_ended(-9) == "was killed by SIGKILL"
    assert how_it_ended(1) == "stopped by itself (exit code 1)"
