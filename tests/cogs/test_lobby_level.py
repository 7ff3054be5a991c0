"""The lobby's computer level without Discord: the embed names it, the select offers only the
levels that are built, with the table's own picked, and fits the lobby's five rows."""

from __future__ import annotations

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.sessions import LiveTable
from bot.store import SeatRow, TableRow
from cogs.lobby import LevelSelect, lobby_view
from cogs.render import LEVEL_TEXT, lobby_embed
from games.players import AVAILABLE_LEVELS, LEVELS


def lobby(level: str, game: str = "tiny", players: int = 2) -> LiveTable:
    row = TableRow(
        id=7,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=10,
        game=game,
        options={"players": players},
        seed=1,
        first_dealer=None,
        status="lobby",
        turn_deadline=None,
        created_at=0,
        updated_at=0,
        computer_level=level,
    )
    seats = {0: SeatRow(7, 0, 10, "Alice", False), 1: SeatRow(7, 1, None, "🤖 Ada", False)}
    return LiveTable(row, seats)


def test_every_level_is_described() -> None:
    assert set(LEVEL_TEXT) == set(LEVELS)


@pytest.mark.parametrize("level", AVAILABLE_LEVELS)
def test_the_lobby_names_and_offers_the_level(level: str) -> None:
    table = lobby(level)
    fields = {f["name"]: f["value"] for f in lobby_embed(table).to_dict()["fields"]}
    assert fields["Computer players"].startswith(f"**{level}**")
    selects = [item for item in lobby_view(table).children if isinstance(item, LevelSelect)]
    assert len(selects) == 1
    options = selects[0].item.options
    assert [o.value for o in options] == list(AVAILABLE_LEVELS)
    assert [o.value for o in options if o.default] == [level]
    assert selects[0].custom_id == "ct:lv:7"


def test_the_level_select_fits_the_biggest_lobby() -> None:
    """Six seats (Thunee) take two rows of seat buttons; remove and level selects still fit."""
    rows = lobby_view(lobby("normal", "thunee", 6)).to_components()
    assert len(rows) <= 5, "Discord takes at most five rows"
    assert all(len(row["components"]) <= 5 for row in rows)
    assert rows[-1]["components"][0]["custom_id"] == "ct:lv:7"
