"""End to end through the process pool: the real bot with COMPUTER_PROCESSES=1 plays
a game against a computer whose every decision is made in a worker process; the bot answers the
player's clicks meanwhile, and stopping the bot stops the worker."""

from __future__ import annotations

import random
from typing import Any

import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from tests.bot.faults import until
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import act, fill_with_computers, open_table, show_hand, start
from tests.fakediscord import FakeDiscord


async def test_a_game_against_a_computer_thinking_in_a_worker_process(
    fake_discord: FakeDiscord, bot_env: dict[str, Any]
) -> None:
    alice = fake_discord.user("alice")
    with restored_endpoints():
        bot = await start_bot({**bot_env, "COMPUTER_PROCESSES": "1"})
        try:
            thinker = bot.sessions.thinker
            assert thinker.in_processes
            thinker.quick = frozenset()  # the normal level too goes to the worker here
            table_id = await open_table(fake_discord, alice, "tiny")
            await fill_with_computers(fake_discord, alice, table_id)
            await start(fake_discord, alice, table_id)
            table = bot.sessions.find(table_id)
            seat = table.seat_of(alice.id)
            rng = random.Random(4)
            while bot.sessions.find(table_id) is not None:
                await until(
                    lambda: bot.sessions.find(table_id) is None or seat in table.waiting_for(),
                    "alice's turn or the end",
                    timeout=30,
                )
                if bot.sessions.find(table_id) is not None:
                    await act(alice, await show_hand(alice, table_id), rng)
            row = await bot.sessions.store.get_table(table_id)
            assert row is not None and row.status == "finished"
            pool = thinker._pool
            assert pool is not None and thinker.replaced == 0
            assert thinker.decided >= 3  # the computer's three cards, at least
            workers = list(pool._processes.values())
            assert workers, "the computer's decisions were made in a worker process"
        finally:
            await stop_bot(bot)
    for worker in workers:
        worker.join(10)
        assert not worker.is_alive()
