"""A game survives SIGKILL: the bot process is killed in the middle of a trick and started
again; the table continues from its last committed move, old buttons still work (a stale one
answers with the fresh hand), and the game finishes."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from games.base import Deal, Game, Move
from games.registry import GAMES, get_game
from tests.conftest import BotProcess
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    open_table,
    show_hand,
    start,
    wait_for_table,
)
from tests.discord.test_restart import wait_identified
from tests.fakediscord import FakeDiscord

CALM = ("play;", "pass")  # no Thunee or blind calls: they can end a game in two hands
REAL_GAMES = [game.name for game in GAMES]


def stored_moves(path: Path, table_id: int) -> int:
    with sqlite3.connect(path) as db:
        return int(
            db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()[0]
        )


def rebuild(path: Path, table_id: int) -> Game:
    """The game as the database has it, replayed through the rules (as a restart does)."""
    with sqlite3.connect(path) as db:
        game, options, seed, first_dealer = db.execute(
            "SELECT game, options, seed, first_dealer FROM game_tables WHERE id = ?", (table_id,)
        ).fetchone()
        deals = [
            Deal.from_json(json.loads(row[0]))
            for row in db.execute(
                "SELECT deal FROM deals WHERE table_id = ? ORDER BY deal_index", (table_id,)
            )
        ]
        moves = db.execute(
            "SELECT seat, move FROM moves WHERE table_id = ? ORDER BY seq", (table_id,)
        ).fetchall()
    state = get_game(game).new(
        json.loads(options), seed=seed, deals=deals, first_dealer=first_dealer
    )
    for seat, move in moves:
        state.apply(seat, Move.from_json(json.loads(move)))
    return state


def table_status(path: Path, table_id: int) -> str:
    with sqlite3.connect(path) as db:
        return str(
            db.execute("SELECT status FROM game_tables WHERE id = ?", (table_id,)).fetchone()[0]
        )


@pytest.mark.skipif(not REAL_GAMES, reason="no game registered yet")
async def test_game_survives_sigkill(
    fake_discord: FakeDiscord, bot_env: dict[str, str], bot_process: Callable[[], BotProcess]
) -> None:
    database = Path(bot_env["DATABASE_PATH"])
    game = "thunee" if "thunee" in REAL_GAMES else REAL_GAMES[0]  # the flagship game
    first = bot_process()
    await wait_identified(fake_discord, 1, first)
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, game)
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    rng = random.Random(1)
    alice_seat = 0  # the host sits first
    played_by_alice = 0
    mid_trick = False
    for _ in range(400):  # play a few moves, then stop at alice's turn inside a trick
        hand = await show_hand(alice, table_id)
        state = rebuild(database, table_id)
        waits_for_alice = state.waiting_for() == (alice_seat,)  # nothing moves until she does
        if played_by_alice >= 2 and state.view(None).trick and waits_for_alice:
            mid_trick = True
            break
        if await act(alice, hand, rng, prefer=CALM) is not None:
            played_by_alice += 1
        else:
            await asyncio.sleep(0.05)
    assert mid_trick, first.output()
    old_hand = await show_hand(alice, table_id)
    before = stored_moves(database, table_id)
    first.kill()
    await fake_discord.wait_for(lambda: not fake_discord.connected, timeout=5)
    assert stored_moves(database, table_id) == before, "every answered move was committed"
    trick_at_kill = rebuild(database, table_id).view(None).trick
    assert trick_at_kill, "the bot was killed in the middle of a trick"

    second = bot_process()
    await wait_identified(fake_discord, 2, second)
    await wait_for_table(alice, table_id, "Show my hand")
    # A button posted before the kill still answers (with the move, or with a fresh hand).
    await act(alice, old_hand, rng)
    for _ in range(3000):
        if table_status(database, table_id) == "finished":
            break
        if await act(alice, await show_hand(alice, table_id), rng) is None:
            await asyncio.sleep(0.02)
    assert table_status(database, table_id) == "finished", second.output()
    await wait_for_table(alice, table_id, "Game over", timeout=5)
    assert stored_moves(database, table_id) > before
    assert rebuild(database, table_id).status == "finished"
    assert "Traceback" not in second.output()
