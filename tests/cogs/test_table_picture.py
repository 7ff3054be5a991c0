"""The table message's picture: drawn in a worker thread, again only when the table changed."""

from __future__ import annotations

import dataclasses
import random
import threading
from typing import Any

import discord
import pytest

import bot.pictures as pictures_module
import bot.pictures.table as pictures_table
import cogs.table_picture as table_picture
from bench.picture import showcase
from bot.pictures import picture_key
from cogs.table_picture import IMAGE_URL, TablePictures, scored_hand
from games.base import Event
from games.levels import choose_move


@pytest.fixture
def drawn_in(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads each picture was drawn in."""
    threads: list[str] = []
    real = table_picture.draw_table

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(table_picture, "draw_table", spy)
    return threads


async def test_a_picture_is_drawn_off_the_loop_and_only_when_the_table_changed(
    drawn_in: list[str],
) -> None:
    table, seat = showcase()
    pictures = TablePictures()
    first = await pictures.draw(table)
    assert first is not None and drawn_in and drawn_in[0] != threading.current_thread().name
    assert await pictures.draw(table) is first and len(drawn_in) == 1, "unchanged: not redrawn"

    embed = discord.Embed(title="table")
    files = pictures.attach(table.id, embed, first)
    assert embed.image.url == IMAGE_URL and files is not None and len(files) == 1
    pictures.shown(table.id, first)
    again = discord.Embed(title="table")
    assert pictures.attach(table.id, again, first) is None, "the message has it: no upload"
    assert again.image.url == IMAGE_URL
    assert pictures.attach(table.id, discord.Embed(), first, new_message=True), "a new post"

    assert table.game is not None
    table.game.apply(seat, choose_move(table.game, seat, random.Random(1)))
    moved = await pictures.draw(table)
    assert moved is not None and moved[0] != first[0] and moved[1].png != first[1].png
    assert len(drawn_in) == 2
    assert pictures.attach(table.id, discord.Embed(), moved), "changed: uploaded"

    table.row = dataclasses.replace(table.row, status="cancelled")
    assert await pictures.draw(table) is None
    assert pictures.attach(table.id, discord.Embed(), None) == [], "the old picture is dropped"


async def test_a_failed_drawing_leaves_the_text_to_go_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("a bug")

    monkeypatch.setattr(table_picture, "draw_table", broken)
    table, _ = showcase()
    assert await TablePictures().draw(table) is None


def test_only_a_scored_trick_hand_has_a_summary() -> None:
    table, seat = showcase()  # a Tarneeb game a hand or more in
    assert table.game is not None
    scored = Event("hand_scored", "scored", {})
    hand = scored_hand(table, [scored])
    assert hand is not None and len(hand.tricks) == 13
    assert hand.heading.endswith("the tricks") and hand.players == 4
    assert scored_hand(table, [Event("card_played", "x", {})]) is None
    secret = Event("hand_scored", "scored", {}, to=frozenset({seat}))
    assert scored_hand(table, [secret]) is None, "only a public result"


async def test_what_a_table_shows_is_compared_as_it_is_never_written_out(
    monkeypatch: pytest.MonkeyPatch, drawn_in: list[str]
) -> None:
    """A table is looked at twice an edit and more often than it moves: the views are compared
    (frozen dataclasses), not written out as text, and a picture is drawn only when what it
    shows changed (a move, another language)."""
    written: list[str] = []

    def spy(*args: Any, **kwargs: Any) -> str:
        written.append(picture_key(*args, **kwargs))
        return written[-1]

    for module in (pictures_module, pictures_table, table_picture):
        monkeypatch.setattr(module, "picture_key", spy, raising=False)
    table, seat = showcase()
    pictures = TablePictures()
    first = await pictures.draw(table)
    again = await pictures.draw(table)
    assert first is not None and first is again and len(drawn_in) == 1
    assert table.game is not None
    table.game.apply(seat, choose_move(table.game, seat, random.Random(1)))
    moved = await pictures.draw(table)
    assert moved is not None and moved[0] != first[0] and len(drawn_in) == 2
    assert await pictures.draw(table, "ar") is not moved and len(drawn_in) == 3, "another language"
    assert written == []
