"""End to end: the host picks the computer players' level in the lobby; the level
shows in the lobby, survives a restart, and is what the computers decide at; a crafted level is
refused and changes nothing."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

import bot.sessions.turns as session_module
import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from games.base import Game, Move
from tests.bot.faults import until
from tests.conftest import restored_endpoints, start_bot, stop_bot
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
    table_messages,
    wait_for_table,
)
from tests.fakediscord import ClientRefused, FakeDiscord

LEVEL_SELECT = "Computer players' level (host)"
REFUSED = "Choose one of the levels offered."


class Spy:
    """Stands in for ``games.levels.choose_move`` in the session manager: records each
    decision's seat and level (from the executor's thread), then decides as it would."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str]] = []
        self._lock = threading.Lock()
        self._real = session_module.choose_move

    def __call__(self, game: Game, seat: int, rng: random.Random, level: str = "normal") -> Move:
        with self._lock:
            self.calls.append((seat, level))
        return self._real(game, seat, rng, level)


def stored_level(path: Path | str, table_id: int) -> str:
    with sqlite3.connect(path) as db:
        row = db.execute(
            "SELECT computer_level FROM game_tables WHERE id = ?", (table_id,)
        ).fetchone()
    return str(row[0])


def level_shown(text: str, level: str) -> bool:
    return f"Computer players: **{level}**" in text


async def test_the_host_picks_easy_and_the_computers_play_easy(
    fake_discord: FakeDiscord, running_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy()
    monkeypatch.setattr(session_module, "choose_move", spy)
    database = running_bot.settings.database_path
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    lobby = table_message(alice, table_id)
    assert level_shown(lobby.text(), "normal"), lobby.text()
    await fill_with_computers(fake_discord, alice, table_id)

    lobby = table_message(bob, table_id)
    refused = ok(await bob.select(lobby, LEVEL_SELECT, ["easy"]))
    assert refused.ephemeral and "Only the host" in refused.text
    with pytest.raises(ClientRefused):  # the select offers only the levels that are built
        await alice.select(lobby, LEVEL_SELECT, ["nightmare"])
    for crafted in (["expert"], ["nightmare"], ["easy", "normal"], []):
        answer = ok(await alice.crafted_component(lobby, f"ct:lv:{table_id}", crafted))
        assert answer.ephemeral and REFUSED in answer.text, (crafted, answer)
    assert stored_level(database, table_id) == "normal"

    ok(await alice.select(table_message(alice, table_id), LEVEL_SELECT, ["easy"]))
    lobby = await wait_for_table(alice, table_id, "Computer players: **easy**")
    assert stored_level(database, table_id) == "easy"
    picked = [
        o["value"]
        for c in lobby.iter_components()
        if c.get("placeholder") == LEVEL_SELECT
        for o in c.get("options", [])
        if o.get("default")
    ]
    assert picked == ["easy"], "the select shows the table's level"

    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.find(table_id)
    seat = table.seat_of(alice.id)
    rng = random.Random(15)
    while len(spy.calls) < 6 and running_bot.sessions.find(table_id) is not None:
        await until(
            lambda: (
                len(spy.calls) >= 6
                or running_bot.sessions.find(table_id) is None
                or seat in table.game.to_act()
            ),
            "alice's turn or six computer decisions",
        )
        if len(spy.calls) < 6 and seat in table.game.to_act():
            await act(alice, await show_hand(alice, table_id), rng, prefer=("pass", "play;"))
    assert len(spy.calls) >= 6, "the computers made a few moves"
    assert {level for _, level in spy.calls} == {"easy"}
    assert seat not in {s for s, _ in spy.calls}, "only the computer seats were decided for"


async def test_a_level_at_creation_and_a_crafted_one(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    before = len(table_messages(alice))
    crafted = ok(await alice.crafted_slash("table new", {"level": "expert"}, game="tiny"))
    assert crafted.ephemeral and "no computer level" in crafted.text
    nonsense = ok(await alice.crafted_slash("table new", {"level": "x" * 300}, game="tiny"))
    assert nonsense.ephemeral and "no computer level" in nonsense.text
    await fake_discord.quiet()
    assert len(table_messages(alice)) == before
    assert await running_bot.sessions.open_table_count() == 0

    result = ok(await alice.slash("table new", game="tiny", level="easy"))
    assert result.ephemeral
    await fake_discord.quiet()
    (lobby,) = table_messages(alice)
    assert level_shown(lobby.text(), "easy"), lobby.text()


async def test_the_level_and_its_select_survive_a_restart(
    fake_discord: FakeDiscord, bot_env: dict[str, str]
) -> None:
    database = bot_env["DATABASE_PATH"]
    alice = fake_discord.user("alice")
    with restored_endpoints():
        bot = await start_bot(bot_env)
        try:
            table_id = await open_table(fake_discord, alice, "tiny")
            ok(await alice.select(table_message(alice, table_id), LEVEL_SELECT, ["easy"]))
            await wait_for_table(alice, table_id, "Computer players: **easy**")
        finally:
            await stop_bot(bot)
        old_lobby = table_message(alice, table_id)

        bot = await start_bot(bot_env)
        try:
            assert bot.sessions.find(table_id).row.computer_level == "easy"
            ok(await alice.select(old_lobby, LEVEL_SELECT, ["normal"]))  # the old message
            await wait_for_table(alice, table_id, "Computer players: **normal**")
            assert stored_level(database, table_id) == "normal"
        finally:
            await stop_bot(bot)
