"""Computer decisions in a worker process: deterministic for a seed and equal to the
in-process choice; the event loop answers other tables while a slow decision runs; a hung
decision falls back to the first legal move, its worker is replaced, and the table goes on."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import tests.bot.slow_levels as slow
import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.config import Secret, Settings
from bot.sessions import LiveTable, SessionManager
from bot.store import Store
from bot.thinking import WORKER_NICENESS, Thinker, register_level
from games.base import Game, Move
from games.levels import choose_move
from games.players import Seen
from games.registry import all_games
from tests.bot.faults import until

HOST, GUEST, OTHER, FRIEND = 101, 202, 303, 404
WORKER_IMPORTS = ("tests.bot.slow_levels",)


def positions(name: str, count: int, seed: int) -> list[tuple[Game, int]]:
    """``count`` positions of a random game of ``name`` (every few moves), with the seat to act."""
    rng = random.Random(seed)
    game = all_games()[name].new({}, seed=seed)
    found: list[tuple[Game, int]] = []
    while game.status == "in_progress" and len(found) < count:
        seat = game.waiting_for()[0]
        if rng.random() < 0.3:
            found.append((game.clone(), seat))
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    return found


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities here")
async def test_workers_think_at_a_lower_priority_than_the_bot() -> None:
    """A search must not take the CPU from the bot's answers to clicks."""
    thinker = Thinker(1)
    try:
        niceness = await asyncio.wrap_future(thinker._current().submit(os.nice, 0))
        assert niceness == min(19, os.nice(0) + WORKER_NICENESS) > os.nice(0)
    finally:
        await thinker.close()


async def test_pool_decisions_equal_the_in_process_choice_for_every_game() -> None:
    thinker = Thinker(1, quick=frozenset())  # every level in the worker
    try:
        checked = 0
        for name in sorted(all_games()):
            for index, (game, seat) in enumerate(positions(name, 6, 11)):
                for level in ("easy", "normal"):
                    seed = f"{index}:{level}:{name}"
                    here = choose_move(game.clone(), seat, random.Random(seed), level)
                    there = await thinker.choose(game.clone(), seat, seed, level, 60.0)
                    again = await thinker.choose(game.clone(), seat, seed, level, 60.0)
                    assert there == here == again, (name, index, level)
                    checked += 1
        assert checked >= 2 * len(all_games())
        assert thinker.replaced == 0
    finally:
        await thinker.close()


async def test_a_crashed_player_is_raised_and_the_next_decision_works() -> None:
    """A player that raises inside the worker: the error comes back (the session manager then
    plays the first legal move); the pool is not broken by it."""
    thinker = Thinker(1, quick=frozenset())
    try:
        game, seat = positions("tiny", 1, 3)[0]
        with pytest.raises(Exception, match="level"):
            await thinker.choose(game.clone(), seat, "s", "no-such-level", 60.0)
        move = await thinker.choose(game.clone(), seat, "s", "normal", 60.0)
        assert move in game.legal_moves(seat)
        assert thinker.replaced == 0
    finally:
        await thinker.close()


async def test_waiting_for_a_busy_worker_does_not_count_against_the_budget(
    markers: tuple[Path, Path],
) -> None:
    """One worker, two decisions: the second waits in line for longer than its budget while the
    first thinks, and still gets its full budget once the worker is free."""
    started, release = markers
    thinker = Thinker(1, WORKER_IMPORTS, quick=frozenset())
    try:
        game, seat = positions("tiny", 1, 3)[0]
        slow = asyncio.create_task(thinker.choose(game.clone(), seat, "a", "spin", 60.0))
        await until(started.exists, "the first decision under way", timeout=60)
        queued = asyncio.create_task(thinker.choose(game.clone(), seat, "b", "normal", 1.0))
        await asyncio.sleep(1.5)  # longer than the second decision's budget
        assert not queued.done()
        release.touch()
        assert await slow in game.legal_moves(seat)
        assert await queued == choose_move(game.clone(), seat, random.Random("b"), "normal")
        assert thinker.replaced == 0
    finally:
        await thinker.close()


async def test_a_quick_level_never_waits_behind_another_tables_search(
    markers: tuple[Path, Path],
) -> None:
    """The only worker is busy with a search: a normal decision is made meanwhile, in a thread."""
    started, release = markers
    thinker = Thinker(1, WORKER_IMPORTS)
    try:
        game, seat = positions("tiny", 1, 3)[0]
        slow = asyncio.create_task(thinker.choose(game.clone(), seat, "a", "spin", 60.0))
        await until(started.exists, "the search under way", timeout=60)
        quick = await thinker.choose(game.clone(), seat, "b", "normal", 60.0)
        assert quick == choose_move(game.clone(), seat, random.Random("b"), "normal")
        assert not slow.done()
        release.touch()
        assert await slow in game.legal_moves(seat)
        assert thinker.decided == 1  # only the search went to the worker
    finally:
        await thinker.close()


# --- through the session manager ----------------------------------------------------------------
@pytest.fixture
def markers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The slow levels' files (set before any worker spawns: it inherits the environment)."""
    started, release = tmp_path / "started", tmp_path / "release"
    monkeypatch.setenv(slow.STARTED, str(started))
    monkeypatch.setenv(slow.RELEASE, str(release))
    return started, release


@pytest.fixture
async def pooled(db_path: Path) -> AsyncIterator[SessionManager]:
    """A session manager whose computers think in one worker process."""
    settings = Settings(
        discord_token=Secret("x.y.z"), database_path=db_path, turn_seconds=60, computer_processes=1
    )
    store = await Store.open(db_path)
    sessions = SessionManager(store, settings)
    sessions.thinker = Thinker(1, WORKER_IMPORTS)
    yield sessions
    await sessions.shutdown()
    await store.close()


async def tiny_table(sessions: SessionManager, host: int, guest: int | None) -> LiveTable:
    """A started tiny game: ``host`` at seat 0, and ``guest`` or a computer at seat 1."""
    table = await sessions.create_table(
        guild_id=1, channel_id=2, host_id=host, host_name=f"p{host}", game="tiny"
    )
    if guest is None:
        await sessions.add_computer(table.id, host)
    else:
        await sessions.join(table.id, guest, f"p{guest}")
    return table


def at_level(table: LiveTable, level: str) -> None:
    """A test-only level for the table's computer seats (the database accepts only the real
    ones, and the row is reloaded as the game starts)."""
    table.level_of = lambda seat: level  # type: ignore[method-assign]


async def first_legal(sessions: SessionManager, table: LiveTable, user: int) -> Move:
    seat = table.seat_of(user)
    assert seat is not None and table.game is not None
    await until(lambda: seat in table.waiting_for(), f"seat {seat}'s turn")
    move = table.game.legal_moves(seat)[0]
    await sessions.submit(table.id, user, table.moves, move)
    return move


async def test_another_table_is_answered_while_a_computer_thinks(
    pooled: SessionManager, markers: tuple[Path, Path]
) -> None:
    started, release = markers
    pooled.computer_budget = 60.0
    slow_table = await tiny_table(pooled, HOST, None)
    at_level(slow_table, "spin")
    busy = await tiny_table(pooled, OTHER, FRIEND)
    await pooled.start(busy.id, OTHER)
    await pooled.start(slow_table.id, HOST)
    computer = 1
    if computer not in slow_table.waiting_for():  # the host leads: play, then the computer thinks
        await first_legal(pooled, slow_table, HOST)
    await until(started.exists, "the slow decision under way", timeout=60)
    thinking_at = slow_table.moves

    # Two humans play a trick at the other table while the computer's decision runs.
    began = time.monotonic()
    for _ in range(2):
        user = OTHER if 0 in busy.waiting_for() else FRIEND
        await first_legal(pooled, busy, user)
    answered = time.monotonic() - began
    assert busy.moves == 2
    assert slow_table.moves == thinking_at  # still thinking: the loop was never held up
    assert answered < 2.0, answered

    release.touch()
    await until(lambda: slow_table.moves > thinking_at, "the slow decision committed", timeout=60)
    assert pooled.thinker.replaced == 0


async def test_a_hung_decision_falls_back_and_the_table_goes_on(
    pooled: SessionManager, markers: tuple[Path, Path]
) -> None:
    started, _ = markers
    pooled.computer_budget = 1.0
    pooled.thinker.warm()
    table = await tiny_table(pooled, HOST, None)
    at_level(table, "hang")
    await pooled.start(table.id, HOST)
    assert table.game is not None
    while table.id in pooled.tables:
        await until(
            lambda: table.id not in pooled.tables or 0 in table.waiting_for(),
            "the host's turn or the end",
            timeout=60,
        )
        if table.id in pooled.tables:
            await first_legal(pooled, table, HOST)
    assert started.exists()  # the hang happened, and the game still reached its end
    assert pooled.thinker.replaced == 1
    row = await pooled.store.get_table(table.id)
    assert row is not None and row.status == "finished"
    moves = await pooled.store.moves(table.id)
    assert len(moves) == 6  # three tricks of two cards: every computer turn was played


async def test_shutdown_stops_the_worker_processes(pooled: SessionManager) -> None:
    pooled.thinker.warm()
    pool = pooled.thinker._pool
    assert pool is not None
    await until(lambda: len(getattr(pool, "_processes", {}) or {}) == 1, "the worker started")
    processes = list(pool._processes.values())  # type: ignore[union-attr]
    await pooled.shutdown()
    await asyncio.sleep(0)
    for process in processes:
        process.join(60)  # a killed worker exits at once, but a busy machine runs it late
        assert not process.is_alive()


def broken(seen: Seen, rng: random.Random) -> Move:
    raise RuntimeError("a bug in a computer player")


async def test_a_level_that_fails_is_replaced_by_the_normal_move(db_path: Path) -> None:
    """A computer whose level fails plays what the normal level chooses, not a fixed card."""
    register_level("broken", broken)
    store = await Store.open(db_path)
    settings = Settings(discord_token=Secret("x.y.z"), database_path=db_path, turn_seconds=60)
    sessions = SessionManager(store, settings)  # decisions in threads: the level is registered
    decided: list[tuple[str, Move]] = []
    choose = sessions.thinker.choose

    async def recording(*args: Any) -> Move:
        move = await choose(*args)
        decided.append((args[3], move))
        return move

    sessions.thinker.choose = recording  # type: ignore[method-assign]
    try:
        table = await tiny_table(sessions, HOST, None)
        at_level(table, "broken")
        await sessions.start(table.id, HOST)
        while table.id in sessions.tables:
            await until(
                lambda: table.id not in sessions.tables or 0 in table.waiting_for(),
                "the host's turn or the end",
            )
            if table.id in sessions.tables:
                await first_legal(sessions, table, HOST)
        computer = [row.move for row in await store.moves(table.id) if row.seat == 1]
        assert len(computer) == 3
        assert [level for level, _ in decided] == ["normal"] * 3
        assert [move.to_json() for _, move in decided] == computer
    finally:
        await sessions.shutdown()
        await store.close()
