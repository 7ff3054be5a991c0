"""The lobby's fill and length buttons without Discord: they fit the five rows for every game
and seat count (with a button's room to spare), the chosen length is not offered again, and the
embed names it and any rematch waits."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.sessions import LiveTable
from bot.store import SeatRow, TableRow
from cogs.lobby import FillButton, LengthButton, LevelSelect, describe_lobby, lobby_view
from cogs.render import lobby_embed
from games.registry import get_game

CASES = [
    ("thunee", {"players": 6}),
    ("thunee", {"players": 2}),
    ("tarneeb", {}),
    ("tarneeb_egyptian", {}),
    ("tuppi", {}),
    ("norwegian_whist", {}),
    ("tunge", {"players": 3}),
    ("tiny", {}),
]


def lobby(game: str, options: dict[str, Any], seats: dict[int, SeatRow]) -> LiveTable:
    row = TableRow(
        id=7,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=10,
        game=game,
        options=get_game(game).validate_options(options),
        seed=1,
        first_dealer=None,
        status="lobby",
        turn_deadline=None,
        created_at=0,
        updated_at=0,
    )
    return LiveTable(row, seats)


@pytest.mark.parametrize(("game", "options"), CASES)
def test_the_lobby_fits_five_rows_with_fill_and_lengths(game: str, options: dict[str, Any]) -> None:
    table = lobby(game, options, {0: SeatRow(7, 0, 10, "Alice", False)})
    view = lobby_view(table)
    rows = view.to_components()
    assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
    spare = sum(5 - len(row["components"]) for row in rows if row["components"][0]["type"] == 2)
    assert spare + 5 * (5 - len(rows)) >= 1, "room for one more lobby button"
    assert sum(isinstance(item, FillButton) for item in view.children) == 1
    lengths = [item for item in view.children if isinstance(item, LengthButton)]
    offered = {item.length for item in lengths}
    assert offered == (
        set() if game == "tiny" else {"short", "standard", "long"} - {_default_length(game)}
    )


def _default_length(game: str) -> str:
    return "short" if game == "tunge" else "standard"  # one Tunge deal is the short game


def test_a_full_lobby_offers_no_fill_and_names_who_must_confirm() -> None:
    seats = {
        0: SeatRow(7, 0, 10, "Alice", False),
        1: SeatRow(7, 1, 11, "Bob", False, confirmed=False),
        2: SeatRow(7, 2, None, "🤖 Ada", False),
        3: SeatRow(7, 3, 12, "Carol", False),
    }
    table = lobby("tarneeb", {"target": 61}, seats)
    assert not [item for item in lobby_view(table).children if isinstance(item, FillButton)]
    embed = describe_lobby(lobby_embed(table), table)
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Length"] == "**Long**: first to 61 points"
    assert fields["Rematch: waiting for"].startswith("Bob: press **Join**")


def test_a_lobby_without_computers_offers_none_and_an_unrated_one_says_so() -> None:
    table = lobby("tarneeb", {}, {0: SeatRow(7, 0, 10, "Alice", False)})
    table.row = replace(table.row, computers=False, rated=False)
    view = lobby_view(table)
    labels = [getattr(item, "label", None) for item in _items(view)]
    assert "Add computer player" not in labels and "Fill with computers" not in labels
    assert not [item for item in view.children if isinstance(item, FillButton | LevelSelect)]
    assert "Join" in labels and "Sit at seat 2 (team B)" in labels
    embed = lobby_embed(table)
    fields = {f.name: f.value for f in embed.fields}
    assert "add computer players" not in (embed.description or "")
    assert fields["Computer players"].startswith("Not at this server's tables")
    assert fields["Ratings"].startswith("Unrated")

    allowed = lobby("tarneeb", {}, {0: SeatRow(7, 0, 10, "Alice", False)})
    labels = [getattr(item, "label", None) for item in _items(lobby_view(allowed))]
    assert "Add computer player" in labels and "Fill with computers" in labels
    assert "Ratings" not in {f.name for f in lobby_embed(allowed).fields}, "rated: nothing said"


def _items(view: discord.ui.View) -> list[Any]:
    """The view's components as Discord gets them (a dynamic item's inner button)."""
    return [getattr(item, "item", item) for item in view.children]
