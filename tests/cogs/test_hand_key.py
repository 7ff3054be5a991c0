"""A hand's key (what it shows) compares equal whichever load of ``cogs.play`` drew it.

discord.py loads an extension as a fresh module each time (a reload, or a second bot in one
process), while ``cogs.board`` keeps the ``cogs.play`` it first imported: the click's answer and
the board's refresh can then draw the same hand with two different ``HandParts`` classes.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import discord
import pytest

import cogs.play as play
from games.base import Move


def fresh_load() -> ModuleType:
    """``cogs.play`` loaded again, the way ``Bot.load_extension`` does it."""
    spec = importlib.util.find_spec("cogs.play")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cogs.play"] = module
    spec.loader.exec_module(module)
    return module


def key_from(module: ModuleType) -> object:
    embed = discord.Embed(title="Your hand · table #1", description="**Your move.**")
    parts = module.HandParts(
        1,
        ("AS", "7H"),
        (Move("bid", (("card", "7H"), ("value", "nullo"))),),
        ("Nullo (7♥)",),
        0,
        "",
        False,
        53,
        "en",
    )
    return module.shown_key(embed, parts)


def test_a_hand_drawn_by_a_reloaded_extension_has_the_same_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "cogs.play", play)  # put back after the test
    reloaded = fresh_load()
    assert reloaded.HandParts is not play.HandParts
    assert key_from(reloaded) == key_from(play), "same content: the refresh must not redraw it"


def test_a_hand_whose_content_differs_has_another_key() -> None:
    embed = discord.Embed(title="Your hand · table #1")
    parts = play.HandParts(1, ("AS",), (), (), 0, "", False, 53, "en")
    other = play.HandParts(1, ("AS",), (), (), 1, "", False, 53, "en")  # another options mark
    assert play.shown_key(embed, parts) != play.shown_key(embed, other)
    assert play.shown_key(embed, parts) != play.shown_key(embed, None)
