"""The history page's text and components, as pure functions (cogs/history.py)."""

from __future__ import annotations

from dataclasses import replace

from bot.history import GameRecord, HistoryPage, SeatName
from cogs.history import (
    NO_GAMES,
    NO_MORE,
    ExportSelect,
    PageButton,
    export_label,
    history_embed,
    history_view,
    result_text,
)
from cogs.replay import ReplaySelect

WHEN = 1_795_478_608.0


def record(
    game: str,
    names: list[str],
    score: tuple[int, ...],
    winners: tuple[int, ...],
    abandoned: bool = False,
    table_id: int = 12,
) -> GameRecord:
    seats = tuple(SeatName(i, n, None) for i, n in enumerate(names))
    return GameRecord(table_id, game, WHEN, seats, score, winners, abandoned)


FOUR = ["Alice", "🤖 Ada", "Bob", "🤖 Turing"]


def test_result_lines() -> None:
    assert result_text(record("tarneeb", FOUR, (41, 23), (0, 2))) == (
        "🏆 Team A (Alice & Bob) · 41 to 23"
    )
    assert result_text(record("tarneeb", FOUR, (12, 45), (1, 3))) == (
        "🏆 Team B (🤖 Ada & 🤖 Turing) · 12 to 45"
    )
    assert result_text(record("thunee", FOUR, (3, 1), (), abandoned=True)) == ("abandoned · 3 to 1")
    assert result_text(record("tunge", ["Alice", "🤖 Ada", "Cy"], (0, 8, 29), (0,))) == (
        "🏆 Alice · Alice 0 · 🤖 Ada 8 · Cy 29"
    )
    assert result_text(record("tunge", ["A", "B"], (5, 5), ())).startswith("nobody won")


def test_a_resigned_game_names_who_left() -> None:
    resigned = replace(record("tarneeb", FOUR, (12, 4), (1, 3)), resigned=0)
    assert result_text(resigned) == "🏆 Team B (🤖 Ada & 🤖 Turing) · Alice resigned · 12 to 4"
    alone = replace(record("tunge", ["*Al*", "🤖 Ada", "Cy"], (3, 8, 9), (1, 2)), resigned=0)
    assert result_text(alone) == "🏆 🤖 Ada & Cy · \\*Al\\* resigned · \\*Al\\* 3 · 🤖 Ada 8 · Cy 9"


def test_a_seat_that_changed_hands_shows_its_holders_in_order() -> None:
    seats = (
        SeatName(0, "*Al*", 7),
        SeatName(1, "🤖 Ada", None),
        SeatName(2, "Bob", 8),
        SeatName(3, "🤖 Turing", None),
        SeatName(0, "🤖 Babbage", None),  # Al left after some moves
    )
    left = GameRecord(12, "tarneeb", WHEN, seats, (41, 23), (0, 2), False)
    assert left.seat_count == 4
    assert result_text(left) == "🏆 Team A (\\*Al\\* → 🤖 Babbage & Bob) · 41 to 23"
    assert (
        "\\*Al\\* → 🤖 Babbage, 🤖 Ada, Bob, 🤖 Turing"
        in history_embed(HistoryPage(0, (left,), False), None, None).description
    )
    assert export_label(left).endswith("*Al* → 🤖 Babbage, 🤖 Ada, Bob, 🤖 Turing")


def test_history_is_in_the_readers_language() -> None:
    resigned = replace(record("tarneeb", FOUR, (12, 4), (1, 3)), resigned=0)
    assert result_text(resigned, "no") == "🏆 Lag B (🤖 Ada & 🤖 Turing) · Alice ga opp · 12 mot 4"
    page = history_embed(HistoryPage(0, (resigned,), False), 42, None, "fi")
    assert page.title == "📜 Pelihistoria · kaikki pelit"
    assert page.description is not None and page.description.startswith("Pelaajan <@42> pelit")
    assert page.footer.text is not None and page.footer.text.startswith("Sivu 1 · ")


def test_names_cannot_format_or_mention() -> None:
    line = result_text(record("tarneeb", ["**x**", "@everyone", "c", "d"], (1, 0), (0, 2)))
    assert "**x**" not in line and "\\*\\*x\\*\\*" in line
    assert "@everyone" not in history_embed(
        HistoryPage(0, (record("tarneeb", ["a", "@everyone", "c", "d"], (1, 0), (1, 3)),), False),
        None,
        None,
    ).description.replace("@\u200beveryone", "")


def test_empty_pages_and_the_footer() -> None:
    assert history_embed(HistoryPage(0, (), False), None, None).description == NO_GAMES
    later = history_embed(HistoryPage(3, (), False), 42, "tarneeb")
    assert NO_MORE in str(later.description) and "<@42>" in str(later.description)
    assert later.footer.text == "Page 4"
    assert "Tarneeb" in str(later.title)


def test_components_fit_discord_and_carry_the_listing() -> None:
    page = HistoryPage(
        2,
        tuple(record("tarneeb", ["N" * 32] * 4, (1, 0), (0,), table_id=i) for i in range(10)),
        True,
    )
    view = history_view(page, 2**63 - 1, "tarneeb_egyptian")
    previous, following, menu, replays = view.children
    assert isinstance(previous, PageButton) and isinstance(following, PageButton)
    assert (previous.page, following.page) == (1, 3)
    assert previous.custom_id == f"ct:hp:1:{2**63 - 1}:tarneeb_egyptian"
    assert all(len(item.custom_id) <= 100 for item in (previous, following))
    assert isinstance(menu, ExportSelect)
    options = menu.item.options
    assert [o.value for o in options] == [str(i) for i in range(10)]
    assert all(len(o.label) <= 100 for o in options)
    assert isinstance(replays, ReplaySelect)
    assert [o.value for o in replays.item.options] == [str(i) for i in range(10)]
    assert export_label(page.games[0]).startswith("#0 · Tarneeb · 24 Nov 2026 · ")

    first = history_view(HistoryPage(0, (), False), None, None)
    assert [c.item.disabled for c in first.children] == [True, True]  # type: ignore[attr-defined]
    assert len(first.children) == 2, "no export or replay menu without games"


def test_the_menus_offer_the_games_in_the_readers_language() -> None:
    page = HistoryPage(0, (record("tarneeb", ["Aino"] * 4, (1, 0), (0,), table_id=3),), False)
    *_, menu, replays = history_view(page, None, None, "fi").children
    assert isinstance(menu, ExportSelect) and isinstance(replays, ReplaySelect)
    assert replays.item.placeholder == "Katso peli uudelleen tikki tikiltä"
    for select in (menu, replays):
        assert select.item.options[0].label.startswith("#3 · Tarneeb · 24 marras 2026 · ")
