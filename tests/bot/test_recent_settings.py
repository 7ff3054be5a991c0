"""Settings read on nearly every click are read from the database once in a while, not each time:
what this process writes it reads back at once, what another process sharing the database writes
it sees within :data:`bot.store.recent.SECONDS`, and a forgotten person's are dropped at once.
Real SQLite and a real PostgreSQL server."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.store.recent import SECONDS, Recent
from tests.bot.backends import BOTH, Backend

STORE_BACKENDS = BOTH

GUILD, ALICE = 1, 101


class Ticks:
    """A clock for the recent values, moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def counted(store: Any) -> list[str]:
    """The store's reads, from now on (their SQL)."""
    reads: list[str] = []
    real = store._all

    async def reading(sql: str, params: Any = ()) -> Any:
        reads.append(sql)
        return await real(sql, params)

    store._all = reading
    return reads


def on_ticks(store: Any, ticks: Ticks) -> None:
    for recent in (store.recent_guilds, store.recent_languages, store.recent_pings):
        recent.clock = ticks


async def test_a_setting_read_again_soon_is_not_read_again(backend: Backend) -> None:
    store = await backend.open()
    try:
        reads = counted(store)
        for _ in range(3):
            assert await store.user_language(ALICE) is None
            assert (await store.guild_settings(GUILD, 60)).turn_seconds == 60
            assert await store.turn_ping_wanted(GUILD, ALICE) is False
        assert len(reads) == 3, "each read once"
    finally:
        await store.close()


async def test_what_this_store_writes_it_reads_back_at_once(backend: Backend) -> None:
    store = await backend.open()
    try:
        assert await store.user_language(ALICE) is None
        settings = await store.guild_settings(GUILD, 60)
        assert await store.turn_ping_wanted(GUILD, ALICE) is False
        await store.set_user_language(ALICE, "fi")
        await store.save_guild_settings(replace(settings, language="ar", turn_seconds=30))
        await store.set_turn_ping_wanted(GUILD, ALICE, True)
        reads = counted(store)
        assert await store.user_language(ALICE) == "fi"
        assert (await store.guild_settings(GUILD, 60)).language == "ar"
        assert await store.turn_ping_wanted(GUILD, ALICE) is True
        assert reads == []
    finally:
        await store.close()


async def test_another_process_s_change_is_seen_within_the_window(backend: Backend) -> None:
    here, there = await backend.open(), await backend.open()
    ticks = Ticks()
    on_ticks(here, ticks)
    try:
        assert await here.user_language(ALICE) is None
        assert (await here.guild_settings(GUILD, 60)).language is None
        await there.set_user_language(ALICE, "no")
        await there.save_guild_settings(replace(await there.guild_settings(GUILD, 60), rated=False))
        ticks.now += SECONDS - 1
        assert await here.user_language(ALICE) is None, "trusted for the window"
        ticks.now += 1
        assert await here.user_language(ALICE) == "no"
        assert (await here.guild_settings(GUILD, 60)).rated is False
    finally:
        await here.close()
        await there.close()


async def test_a_forgotten_person_s_settings_are_not_kept(backend: Backend) -> None:
    store = await backend.open()
    try:
        await store.set_user_language(ALICE, "fi")
        await store.set_turn_ping_wanted(GUILD, ALICE, True)
        await store.forget_user(ALICE)
        assert await store.user_language(ALICE) is None
        assert await store.turn_ping_wanted(GUILD, ALICE) is False
    finally:
        await store.close()


def test_the_oldest_value_goes_first_when_full() -> None:
    recent: Recent[int, str] = Recent(size=2)
    recent.put(1, "a")
    recent.put(2, "b")
    recent.put(1, "a again")  # read again: now the newest
    recent.put(3, "c")
    assert recent.get(2) == (False, None)
    assert recent.get(1) == (True, "a again") and recent.get(3) == (True, "c")
