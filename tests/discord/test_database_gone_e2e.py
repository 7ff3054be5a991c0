"""The database's folder taken away while the bot runs: a move is answered as paused (never as
saved into a file a restart would not find), the log has one ERROR line, and the table goes on
once the folder is back."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game in this process)
from tests.discord.table_driver import (
    fill_with_computers,
    move_controls,
    ok,
    open_table,
    show_hand,
    start,
)
from tests.fakediscord import FakeDiscord


@pytest.fixture
def bot_env(bot_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """The database in a folder of its own, which the test moves away and back."""
    return {**bot_env, "DATABASE_PATH": str(tmp_path / "data" / "cardtable.sqlite3")}


async def test_a_move_is_paused_while_the_database_folder_is_gone(
    fake_discord: FakeDiscord,
    running_bot: Any,
    bot_env: dict[str, str],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tiny")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.tables[table_id]
    await fake_discord.wait_for(lambda: table.seat_of(alice.id) in table.game.to_act())
    before = table.moves
    hand = await show_hand(alice, table_id)
    buttons, _ = move_controls(hand)
    folder = tmp_path / "data"
    folder.rename(tmp_path / "elsewhere")
    for _ in range(2):
        refused = ok(await alice.click(hand, custom_id=buttons[0]["custom_id"]))
        assert refused.ephemeral and "paused" in refused.text and "not saved" in refused.text
    assert table.moves == before
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "DATABASE_PATH" in errors[0], errors

    (tmp_path / "elsewhere").rename(folder)
    ok(await alice.click(hand, custom_id=buttons[0]["custom_id"]))
    assert table.moves >= before + 1
    with sqlite3.connect(bot_env["DATABASE_PATH"]) as db:  # what a restart would find
        (stored,) = db.execute(
            "SELECT count(*) FROM moves WHERE table_id = ?", (table_id,)
        ).fetchone()
    db.close()
    assert stored >= before + 1
