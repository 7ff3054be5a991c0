"""The pieces the load benches share (bench/fleet.py): where tables sit, how CPU is summed over
processes that come and go, and the run's database on either backend."""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from bench.fleet import (
    BENCH_POSTGRES,
    Fleet,
    Place,
    World,
    cpu_used,
    numbered,
    open_database,
    shard_env,
    spread,
    tree_cpu_seconds,
)
from bot.shards import shard_of
from tests.fakediscord import FakeDiscord
from tests.postgres import find_binaries


def test_tables_are_dealt_over_every_shard_from_the_first_ones() -> None:
    places = spread(tables=4, shards=2, per_channel=4, channels_per_guild=5)
    assert [p.shard for p in places] == [0, 1, 0, 1]  # 4 tables, 2 processes: both have some
    assert set(places) == {Place(0, 0, 0), Place(1, 0, 0)}


def test_a_channel_holds_per_channel_tables_and_a_server_its_channels() -> None:
    places = spread(tables=200, shards=3, per_channel=4, channels_per_guild=5)
    assert Counter(p.shard for p in places) == {0: 67, 1: 67, 2: 66}
    assert max(Counter(places).values()) == 4  # tables to a channel
    servers = {(p.shard, p.guild) for p in places}
    channels = Counter((p.shard, p.guild) for p in set(places))
    assert max(channels.values()) == 5 and len(servers) == sum(1 for _ in servers)
    assert spread(tables=5, shards=1, per_channel=2, channels_per_guild=2) == [
        Place(0, 0, 0),
        Place(0, 0, 0),
        Place(0, 0, 1),
        Place(0, 0, 1),
        Place(0, 1, 0),
    ]


def test_each_place_is_a_server_on_its_shard() -> None:
    fake = FakeDiscord()
    world = World(fake, 3, "tables")
    places = spread(tables=30, shards=3, per_channel=2, channels_per_guild=2)
    for place in places:
        channel = world.channel(place)
        assert shard_of(channel.guild_id, 3) == place.shard
        member = world.person(f"p{place}", place)
        assert member.id in fake.guilds[channel.guild_id].members
    assert world.channel(places[0]) is world.channel(places[0])
    assert len({world.channel(p).id for p in places}) == len(set(places))


def test_cpu_counts_processes_that_came_and_went_once_each() -> None:
    start = {10: 5.0, 11: 2.0}  # two processes running when the measure starts
    seen = {10: 7.5, 11: 2.25, 12: 1.0}  # 11 last seen before it was killed, 12 its restart
    assert cpu_used(start, seen) == pytest.approx(2.5 + 0.25 + 1.0)
    assert cpu_used({}, {}) == 0.0


def test_a_server_is_its_process_and_its_children() -> None:
    child = subprocess.Popen(["sleep", "30"])
    try:
        found = tree_cpu_seconds(os.getpid())
        assert {os.getpid(), child.pid} <= set(found)
        assert all(seconds >= 0 for seconds in found.values())
    finally:
        child.kill()
        child.wait()


def test_process_k_serves_shard_k_and_one_process_is_unsharded(tmp_path: Path) -> None:
    assert shard_env(0, 1) == {}
    assert shard_env(1, 2)["SHARD_COUNT"] == "2" and shard_env(1, 2)["SHARD_IDS"] == "1"
    fleet = Fleet({"A": "1"}, 2, tmp_path / "bot.log")
    assert [b.log.name for b in fleet.bots] == ["bot-0.log", "bot-1.log"]
    assert [b.env["SHARD_IDS"] for b in fleet.bots] == ["0", "1"]
    assert Fleet({}, 1, tmp_path / "bot.log").bots[0].log == tmp_path / "bot.log"


def test_placeholders_are_numbered_for_postgresql() -> None:
    assert numbered("SELECT a FROM t WHERE b = ? AND c = ?") == (
        "SELECT a FROM t WHERE b = $1 AND c = $2"
    )
    assert numbered("SELECT 1") == "SELECT 1"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_the_run_database_answers_the_same_sql_on_both(backend: str, tmp_path: Path) -> None:
    if backend == "postgres" and find_binaries() is None:
        pytest.skip("no PostgreSQL server binaries")
    async with open_database(backend, tmp_path) as database:
        assert set(database.env) == {"DATABASE_PATH" if backend == "sqlite" else "DATABASE_URL"}
        await database.rows("CREATE TABLE moves (table_id INTEGER, move TEXT)")
        for table_id, move in ((1, "a"), (1, "b"), (2, "c")):
            await database.rows("INSERT INTO moves VALUES (?, ?)", table_id, move)
        assert await database.rows(
            "SELECT move FROM moves WHERE table_id = ? ORDER BY move", 1
        ) == [
            ("a",),
            ("b",),
        ]
        assert await database.value("SELECT COUNT(*) FROM moves") == 3
        assert await database.size() > 0
        servers = database.server_cpu_seconds()  # the postmaster and its helpers, or none
        assert len(servers) > 1 if backend == "postgres" else servers == {}
        if backend == "postgres":  # flushed to disk as a real server's writes are
            for name in ("fsync", "full_page_writes", "synchronous_commit"):
                assert await database.value(f"SHOW {name}") == BENCH_POSTGRES[name]
