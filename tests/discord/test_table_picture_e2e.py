"""The table message carries a picture of the table: whole games through the fake Discord."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest

from tests.discord.table_driver import (
    act,
    fill_with_computers,
    open_table,
    play_humans_to_the_end,
    show_hand,
    start,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, Message

PNG = b"\x89PNG\r\n\x1a\n"
MOVE = re.compile(r"Move (\d+)")


def versions(message: Message) -> list[dict[str, Any]]:
    """Every version the table message had, oldest first (the fake keeps the earlier ones)."""
    return [*message.history, message.payload()]


def move_of(version: dict[str, Any]) -> int | None:
    for embed in version.get("embeds") or []:
        found = MOVE.search(str((embed.get("footer") or {}).get("text", "")))
        if found:
            return int(found.group(1))
    return None


def picture_of(fake: FakeDiscord, version: dict[str, Any]) -> tuple[str, bytes] | None:
    """The attachment a version's embed shows as its image: (id, bytes)."""
    urls = [str((e.get("image") or {}).get("url", "")) for e in version.get("embeds") or []]
    for attachment in version.get("attachments") or []:
        if attachment["url"] in urls:
            return str(attachment["id"]), fake.attachment_bytes(attachment)
    return None


async def board_at(fake: FakeDiscord, user: Any, table_id: int, moves: int) -> dict[str, Any]:
    """The table message once it shows the table after ``moves`` moves (or later)."""

    def shown() -> dict[str, Any] | None:
        version = table_message(user, table_id).payload()
        move = move_of(version)
        return version if move is not None and move >= moves else None

    found: dict[str, Any] = await fake.wait_for(shown)
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "options"),
    # Tunge's pictures are checked by the golden images and the secrecy property: a random
    # Tunge deal against a computer can end in a few plays or run past any move budget.
    [("tarneeb", "target=31 hand_limit=10")],
)
async def test_a_whole_game_shows_the_table_drawn_and_redrawn_as_it_changes(
    fake_discord: FakeDiscord, running_bot: Any, game: str, options: str
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, game, options)
    await fill_with_computers(fake_discord, alice, table_id)
    lobby = table_message(alice, table_id)
    assert picture_of(fake_discord, lobby.payload()) is None, "a lobby has no picture"
    await start(fake_discord, alice, table_id)
    rng = random.Random(table_id)
    table = running_bot.sessions.find(table_id)
    for _ in range(6):  # a few moves, each waited for on the board: a card played redraws it
        shown = await board_at(fake_discord, alice, table_id, table.moves)
        before = picture_of(fake_discord, shown)
        await act(alice, await show_hand(alice, table_id), rng)
        assert table.moves > move_of(shown)  # type: ignore[operator]
        after = picture_of(fake_discord, await board_at(fake_discord, alice, table_id, table.moves))
        assert before is not None and after is not None and before[1] != after[1]
    await play_humans_to_the_end(fake_discord, running_bot, table_id, [alice])
    final = await wait_for_table(alice, table_id, "Rematch", button=True)
    await fake_discord.quiet()

    playing = [v for v in versions(final) if move_of(v) is not None]
    assert len(playing) >= 6, "the table message was edited as the game went"
    shown = [(move_of(v), picture_of(fake_discord, v)) for v in playing]
    assert all(picture is not None for _, picture in shown), "every board shows the table"
    for (move, picture), (next_move, next_picture) in itertools.pairwise(shown):
        assert picture is not None and next_picture is not None
        if next_move != move:  # a move was made (a card played): the picture is redrawn
            assert next_picture[0] != picture[0] and next_picture[1] != picture[1], move
    pictures = {picture[1] for _, picture in shown if picture is not None}
    assert all(p.startswith(PNG) and len(p) < 40_000 for p in pictures)
    assert len(pictures) >= len({move for move, _ in shown}) - 1
    alt = [
        a.get("description", "")
        for v in playing
        for a in v.get("attachments") or []
        if a["filename"] == "table.png"
    ]
    assert alt and all("table #" in text for text in alt), "each picture has its alt text"

    # Each hand's result of a trick game is posted with its tricks drawn; Tunge has no tricks.
    posts = [
        m
        for m in alice.visible_messages()
        if not m.is_ephemeral and m.id != final.id and f"Table #{table_id}" in m.content
    ]
    hands = [m for m in posts if any(a["filename"] == "hand.png" for a in m.attachments)]
    if game == "tunge":
        assert hands == []
    else:
        assert hands, [m.content for m in posts]
        for message in hands:
            (attachment,) = message.attachments
            assert fake_discord.attachment_bytes(attachment).startswith(PNG)
            assert "trick 1:" in attachment.get("description", "")
    assert fake_discord.unknown_routes == [] and fake_discord.errors == []


async def test_an_edit_that_changes_no_picture_uploads_none(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice = fake_discord.user("alice")
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    message = await wait_for_table(alice, table_id, "Show my hand", button=True)
    await fake_discord.quiet()
    before = picture_of(fake_discord, table_message(alice, table_id).payload())
    assert before is not None and before[1].startswith(PNG)
    table = running_bot.sessions.find(table_id)
    board = running_bot.get_cog("Tables").board
    edits = len(message.history)
    await board.render(table)  # nothing changed: the same picture stays, nothing is uploaded
    message = table_message(alice, table_id)
    assert len(message.history) == edits + 1
    assert picture_of(fake_discord, message.payload()) == before
    uploads = [r for r in fake_discord.requests if r.method == "PATCH"]
    assert uploads and "__files__" not in (uploads[-1].body or {})
