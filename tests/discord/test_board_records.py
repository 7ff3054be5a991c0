"""What the board records of a table's message: the results it posted and a closed table's last
look, not every redraw of a live table (which is redrawn at every start anyway)."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from tests.discord.table_driver import (
    act,
    fill_with_computers,
    open_table,
    settle,
    show_hand,
    someone_to_act,
    start,
    wait_for_table,
)
from tests.discord.test_faults import play_out, results_of, tiny_against_computer
from tests.fakediscord import FakeDiscord


def table_edits(fake: FakeDiscord) -> int:
    """Edits of channel messages (table messages) the fake received."""
    return sum(
        1
        for r in fake.requests
        if r.method == "PATCH" and r.path.startswith("/channels/") and "/messages/" in r.path
    )


def recording(bot: Any) -> list[str]:
    """The boards the bot records ("status:moves"), in order."""
    recorded: list[str] = []
    set_announced = bot.store.set_announced

    async def record(table_id: int, results_through: int, board: str) -> None:
        recorded.append(board)
        await set_announced(table_id, results_through, board)

    bot.store.set_announced = record
    return recorded


async def test_a_live_table_is_not_recorded_at_each_redraw(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    recorded = recording(running_bot)
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    await settle(fake_discord)
    before, posts = table_edits(fake_discord), len(results_of(alice, table_id))
    table = running_bot.sessions.tables[table_id]
    rng = random.Random(3)
    for _ in range(6):  # some of alice's bids and cards, each shown with the computers' answers
        await fake_discord.wait_for(lambda: someone_to_act(running_bot, table, [alice]))
        edits = table_edits(fake_discord)
        await act(alice, await show_hand(alice, table_id), rng)
        await fake_discord.wait_for(lambda e=edits: table_edits(fake_discord) > e, timeout=10)
    await settle(fake_discord)
    playing = [board for board in recorded if board.startswith("playing:")]
    assert table_edits(fake_discord) - before >= 6
    assert len(playing) <= len(results_of(alice, table_id)) - posts, "recorded with results only"


async def test_a_closed_table_records_its_last_look(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    recorded = recording(running_bot)
    table_id = await tiny_against_computer(fake_discord, alice)
    await play_out(fake_discord, running_bot, table_id, alice, "records")
    await wait_for_table(alice, table_id, "Game over", timeout=10)
    await fake_discord.wait_for(lambda: results_of(alice, table_id), timeout=10)
    await settle(fake_discord)
    moves = len(await running_bot.store.moves(table_id))
    assert recorded[-1] == f"finished:{moves}"


async def test_a_table_edit_is_the_request_alone(
    fake_discord: FakeDiscord, running_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No Message is built of Discord's answer to a table edit (it is never read): the table's
    controls are dynamic items, dispatched by custom id without the view being filed."""
    alice = fake_discord.user("alice")
    table_id = await tiny_against_computer(fake_discord, alice)
    before = table_edits(fake_discord)
    edited: list[int] = []
    edit = discord.PartialMessage.edit

    async def counted(self: discord.PartialMessage, **kwargs: Any) -> Any:
        edited.append(self.id)
        return await edit(self, **kwargs)

    monkeypatch.setattr(discord.PartialMessage, "edit", counted)
    await play_out(fake_discord, running_bot, table_id, alice, "edits")
    final = await wait_for_table(alice, table_id, "Game over", timeout=10)
    assert table_edits(fake_discord) > before and edited == []
    assert [b.get("label") for b in final.buttons()] == ["Rematch"]
