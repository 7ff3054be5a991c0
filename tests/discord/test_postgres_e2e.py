"""The real bot with ``DATABASE_URL``: a game kept in PostgreSQL survives SIGKILL and is played to
its end after the restart, with its result kept there (the SQLite version of this is
test_table_restart.py); tournaments are signed up for and played to their standings there."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.conftest import BotProcess, bot_processes, restored_endpoints, start_bot, stop_bot
from tests.discord import test_tournaments_e2e as tournaments
from tests.discord.table_driver import act, fill_with_computers, open_table, show_hand, start
from tests.discord.test_restart import wait_identified
from tests.fakediscord import FakeDiscord

CALM = ("play;", "pass")


@pytest.fixture
def postgres_bot(
    bot_env: dict[str, str], postgres_url: str, tmp_path: Path
) -> Iterator[Callable[[], BotProcess]]:
    with bot_processes({**bot_env, "DATABASE_URL": postgres_url}, tmp_path) as factory:
        yield factory


@pytest.fixture
async def postgres_running_bot(
    fake_discord: FakeDiscord, bot_env: dict[str, str], postgres_url: str
) -> AsyncIterator[Any]:
    """The real bot in this process, keeping its data in PostgreSQL."""
    with restored_endpoints():
        bot = await start_bot({**bot_env, "DATABASE_URL": postgres_url})
        try:
            yield bot
        finally:
            await stop_bot(bot)


async def one_value(url: str, sql: str, *params: object) -> object:
    db = await asyncpg.connect(url)
    try:
        return await db.fetchval(sql, *params)
    finally:
        await db.close()


async def test_a_game_in_postgresql_survives_sigkill_and_finishes(
    fake_discord: FakeDiscord,
    bot_env: dict[str, str],
    postgres_url: str,
    postgres_bot: Callable[[], BotProcess],
) -> None:
    first = postgres_bot()
    await wait_identified(fake_discord, 1, first)
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    rng = random.Random(3)
    played = 0
    while played < 3:
        if await act(alice, await show_hand(alice, table_id), rng, prefer=CALM) is not None:
            played += 1
        else:
            await asyncio.sleep(0.05)
    count = "SELECT COUNT(*) FROM moves WHERE table_id = $1"
    before = await one_value(postgres_url, count, table_id)
    first.kill()
    await fake_discord.wait_for(lambda: not fake_discord.connected, timeout=5)
    # every answered move was committed (the computers may have moved on before the kill)
    assert await one_value(postgres_url, count, table_id) >= before  # type: ignore[operator]

    second = postgres_bot()
    await wait_identified(fake_discord, 2, second)
    status = "SELECT status FROM game_tables WHERE id = $1"
    for _ in range(3000):
        if await one_value(postgres_url, status, table_id) == "finished":
            break
        if await act(alice, await show_hand(alice, table_id), rng, prefer=CALM) is None:
            await asyncio.sleep(0.02)
    assert await one_value(postgres_url, status, table_id) == "finished", second.output()
    assert await one_value(postgres_url, count, table_id) > before  # type: ignore[operator]
    assert await one_value(postgres_url, "SELECT COUNT(*) FROM results") == 1
    assert not Path(bot_env["DATABASE_PATH"]).exists(), "nothing went to SQLite"
    assert "Traceback" not in first.output() + second.output()


async def test_a_swiss_of_individuals_in_postgresql(
    fake_discord: FakeDiscord, postgres_running_bot: Any
) -> None:
    """Sign-up (a second click refused), two rounds with a stand-in, the standings: as on
    SQLite (test_tournaments_e2e.py, which plays a third round for the pairing's sake)."""
    await tournaments.test_an_eight_player_swiss_of_tarneeb_with_rotating_partners(
        fake_discord, postgres_running_bot, rounds=2
    )


async def test_a_knockout_of_pairs_in_postgresql(
    fake_discord: FakeDiscord, postgres_running_bot: Any
) -> None:
    """Pairs signed up by invitation, a bracket played to its winner: as on SQLite."""
    await tournaments.test_an_eight_pair_knockout_of_thunee(fake_discord, postgres_running_bot)
