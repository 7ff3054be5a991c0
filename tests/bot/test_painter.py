"""Pictures drawn in a worker process: the same PNG, off the bot's process, never lost."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.pictures.painter as painter_module
from bench.picture import showcase
from bench.table_picture import POSITIONS, picture_at
from bot.pictures import fonts, sprites
from bot.pictures.hand import draw_hand
from bot.pictures.painter import Painter
from bot.pictures.table import Seating, draw_table
from cogs.table_picture import TablePictures, scored_hand, seating, showing, table_lines
from games.base import Event
from tests.bot import painter_probes


@pytest.fixture
async def painter() -> AsyncIterator[Painter]:
    painter = Painter(1)
    painter.warm()
    yield painter
    await painter.close()


async def test_a_table_is_drawn_in_a_worker_process_as_the_bot_would_draw_it(
    painter: Painter,
) -> None:
    drawn = await painter.draw(painter_probes.where)
    assert int(drawn.png) != os.getpid(), "drawn in the bot's own process"

    table, _ = showcase()
    pictures = TablePictures(painter)
    picture = await pictures.draw(table)
    shown = showing(table, "en")
    assert picture is not None and shown is not None
    view, seats, live = shown
    assert seats == seating(table)
    here = draw_table(view, seats, live, table_lines(view, seats))
    assert picture[1] == here, "the worker's picture differs from the one drawn in the bot"


async def test_a_worker_killed_while_drawing_is_replaced_and_the_picture_drawn(
    painter: Painter, tmp_path: Path
) -> None:
    flag = tmp_path / "die"
    flag.touch()
    drawn = await painter.draw(painter_probes.dies_once, str(flag))
    assert not flag.exists(), "the first worker never drew"
    assert int(drawn.png) != os.getpid(), "drawn again on the new worker, not in a thread"
    assert painter.replaced == 1
    assert int((await painter.draw(painter_probes.where)).png) != os.getpid()


async def test_a_stuck_worker_is_replaced_and_the_picture_drawn_in_a_thread(
    painter: Painter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(painter_module, "DRAW_SECONDS", 0.5)
    drawn = await painter.draw(painter_probes.stuck_outside, os.getpid())
    assert int(drawn.png) == os.getpid()
    assert painter.replaced == 1


async def test_no_processes_draws_in_a_thread() -> None:
    painter = Painter(0)
    assert int((await painter.draw(painter_probes.where)).png) == os.getpid()
    await painter.close()


async def test_a_drawing_error_is_raised_as_it_is(painter: Painter) -> None:
    with pytest.raises(TypeError):
        await painter.draw(painter_probes.where, "an argument too many")
    assert painter.replaced == 0


def test_a_new_worker_scales_every_card_before_its_first_picture() -> None:
    """The worker's start scales the cards, so that no picture waits for one being scaled."""
    painter_module.warm()
    scaled = sprites.card.cache_info().misses
    for position in POSITIONS:
        picture_at(position)
    table, _ = showcase()  # a Tarneeb game a hand or more in: its first hand's tricks
    hand = scored_hand(table, [Event("hand_scored", "scored", {})])
    assert hand is not None
    draw_hand(hand.tricks, hand.seating, hand.players, hand.heading)
    assert sprites.card.cache_info().misses == scaled


def test_the_worker_keeps_the_words_of_many_tables_drawn() -> None:
    """Each table has words of its own (its players' names, its title): with many tables at
    once, a picture draws none of its words again once every table was drawn."""
    table, _ = showcase()
    assert table.game is not None
    view = table.game.view(None)
    tables = 150  # about five words of their own each: more than 512 in all

    def seats(number: int) -> Seating:
        names = tuple(f"Player {number}-{seat}" for seat in range(view.players))
        return Seating(names, (), True, f"Tarneeb · table #{number}")

    for number in range(tables):
        draw_table(view, seats(number))
    drawn = fonts.label.cache_info().misses
    for number in range(tables):
        draw_table(view, seats(number))
    assert fonts.label.cache_info().misses == drawn, "a word was drawn again"
