"""Trick lines built from the real engines' public events, no Discord."""

from __future__ import annotations

import random

import pytest

from bot.sessions import LiveTable
from bot.store import SeatRow, TableRow
from cogs.trick_lines import TrickLine, TrickLines
from games.cards import display
from games.registry import all_games, get_game
from games.views import LastTrick

TRICK_GAMES = ["norwegian_whist", "tarneeb", "tarneeb_egyptian", "thunee", "tuppi"]
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]


def live(game: str) -> LiveTable:
    options = get_game(game).validate_options({})
    row = TableRow(1, 1, 2, 3, 10, game, options, 5, 0, "playing", None, 0.0, 0.0)
    table = LiveTable(row, {})
    table.seats = {s: SeatRow(1, s, 10 + s, NAMES[s], False) for s in range(table.seat_count)}
    table.game = table.game_class.new(options, seed=11)
    return table


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_each_trick_gets_a_numbered_line_naming_the_winning_card(game: str) -> None:
    assert game in all_games()
    table = live(game)
    lines = TrickLines(bot=None)  # type: ignore[arg-type]  (the bot is only asked where to post)
    assert lines.lines(table, []) == []
    made: list[tuple[str, LastTrick]] = []
    rng = random.Random(game)
    for _ in range(2000):
        assert table.game is not None
        seat = table.game.to_act()[0]
        events = table.game.apply(seat, rng.choice(table.game.legal_moves(seat)))
        won = [e for e in events if e.kind == "trick_won"]
        out = lines.lines(table, events)
        assert len(out) == len(won) and all(isinstance(line, TrickLine) for line in out)
        if won and table.game.view(None).last_trick is not None:
            made.append((out[-1], table.game.view(None).last_trick))
        if len(made) >= 3:
            break
    assert len(made) == 3
    for number, (line, trick) in enumerate(made, start=1):
        winner = trick.winner
        card = dict((s, c) for s, c in trick.cards)[winner]
        assert line.startswith(f"Trick {number}: {NAMES[winner]} wins with {display(card)} (")
        assert "Team A " in line and " · Team B " in line, line
