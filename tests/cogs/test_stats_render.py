"""The leaderboard's lines and the result's rating line, without Discord."""

from __future__ import annotations

import random

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.ratings import LadderPage, LadderRow
from bot.sessions import LiveTable
from bot.store import SeatRow, TableRow
from cogs.render import event_message, table_embed
from cogs.stats import ladder_embed, ladder_line, ladder_view
from games.registry import get_game


def row(rank: int, wins: int, user_id: int | None = 5, change: float | None = None) -> LadderRow:
    return LadderRow(
        rank, str(user_id), user_id, None if user_id else "hard", 3.25, 4, wins, change
    )


def test_medals_only_for_a_top_three_with_a_win() -> None:
    assert ladder_line(row(1, 2), False).startswith("🥇 <@5> · **3.2** · 4 games · 2 wins (50%)")
    assert ladder_line(row(2, 0), False).startswith("`2.` <@5>")
    assert ladder_line(row(4, 3), False).startswith("`4.`")
    assert "🤖 computer (hard)" in ladder_line(row(1, 1, None), False)
    assert ladder_line(row(1, 1, change=1.25), True).endswith("+1.2 this month")


def test_a_ladder_of_one_page_has_no_buttons_and_an_empty_one_says_so() -> None:
    assert ladder_view("tiny", "all", False, 0, 10) is None
    view = ladder_view("tiny", "month", True, 1, 25)
    assert view is not None
    ids = [getattr(item, "custom_id", None) for item in view.children]
    assert ids == ["ct:lb:tiny:month:1:0:p", "ct:lb:tiny:month:1:2:n"]
    empty = ladder_embed("tiny", "month", 0, LadderPage([], 0))
    assert empty.description == "No rated games this month yet."


def test_the_ladder_and_the_stats_speak_the_servers_language() -> None:
    """Both are public answers: in the server's language, the numbers as they are."""
    from bot.player_stats import PlayerStats
    from cogs.stats import stats_embed

    assert ladder_line(row(1, 2), False, "fi").startswith("🥇 <@5> · **3.2** · 4 peliä · 2 voittoa")
    page = ladder_embed("tiny", "month", 0, LadderPage([row(1, 1)], 1), "no")
    assert page.title == "🏆 Tiny · denne måneden"
    assert page.footer.text == "Side 1 av 1 · 1 spiller · etter rangering vunnet denne måneden"
    stats = PlayerStats(5, "tiny", [], [], None, [], [], rating=None, rated_games=0)
    arabic = stats_embed(stats, "Rami", None, False, "ar").to_dict()
    assert arabic["title"] == "📊 Rami · كل الألعاب"
    assert "غير مصنّف بعد" in str(arabic["fields"]), arabic


def test_the_result_says_whether_the_game_was_rated() -> None:
    table_row = TableRow(7, 1, 2, 3, 10, "tiny", {}, 1, 0, "finished", None, 0, 0)
    seats = {0: SeatRow(7, 0, 10, "Alice", False), 1: SeatRow(7, 1, 11, "Bob", False)}
    table = LiveTable(table_row, seats)
    game = get_game("tiny").new(seed=4)
    rng = random.Random(1)
    events = []
    while game.status != "finished":
        seat = game.to_act()[0]
        events = game.apply(seat, rng.choice(game.legal_moves(seat)))
    table.game = game
    table.result_note = "Not rated: the table allowed hints."
    assert "Not rated: the table allowed hints." in (table_embed(table).description or "")
    assert "Not rated: the table allowed hints." in event_message(table, events)
