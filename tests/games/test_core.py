"""The rules core: card notation, seats, moves, options, replay, and the purity of games/."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from games.base import Move, Option, OptionError, fill_names, validate_options
from games.cards import CardError, display, make_deck, parse_card
from games.seats import (
    next_seat,
    partners,
    resignation_winners,
    seat_ref,
    seats_from,
    seats_to_return_to,
    team_of,
    team_seats,
)
from games.transcript import replay

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"
FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "asyncio", "logging", "bot", "cogs", "aiohttp"}


@pytest.mark.parametrize(
    "token,card",
    [
        ("TH", "TH"),
        ("10H", "TH"),
        ("th", "TH"),
        ("10♥", "TH"),
        ("T♥", "TH"),
        (" js ", "JS"),
        ("A♠", "AS"),
        ("2c", "2C"),
        ("Q♦", "QD"),
        ("10♥️", "TH"),
    ],
)
def test_forgiving_input_canonical_output(token: str, card: str) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize("token", ["", "1H", "HT", "11H", "TX", "10", "♥", "JOKER", "T H"])
def test_bad_cards_name_the_token(token: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(token)


@given(st.sampled_from(make_deck()))
def test_notation_round_trips(card: str) -> None:
    assert parse_card(card) == card
    assert parse_card(display(card)) == card
    assert parse_card(card.lower()) == card


def test_display_uses_ten_and_symbols() -> None:
    assert display("TH") == "10♥"
    assert display("JS") == "J♠"


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_seat_arithmetic(players: int) -> None:
    for seat in range(players):
        assert next_seat(seat, players) == (seat + 1) % players
        assert next_seat(seat, players, players) == seat
        assert sorted(seats_from(seat, players)) == list(range(players))
        assert seats_from(seat, players)[0] == seat
        if players % 2 == 0:
            assert all(team_of(p) == team_of(seat) for p in partners(seat, players))
            assert seat not in partners(seat, players)
            assert len(partners(seat, players)) == players // 2 - 1
    if players % 2 == 0:
        assert sorted(team_seats(0, players) + team_seats(1, players)) == list(range(players))


def test_a_former_player_returns_only_to_her_own_side() -> None:
    # Four seats in teams: her old seat while it is offered, else a partner's, never an opponent's.
    assert seats_to_return_to(4, True, [1], [0, 1, 2]) == [1]
    assert seats_to_return_to(4, True, [1], [0, 2, 3]) == [3]
    assert seats_to_return_to(4, True, [1], [0, 2]) == []
    assert seats_to_return_to(6, True, [0], [1, 2, 3, 4]) == [2, 4]
    # Without teams only her old seat; a newcomer may take any seat offered.
    assert seats_to_return_to(4, False, [2], [0, 1, 3]) == []
    assert seats_to_return_to(4, False, [2], [1, 2]) == [2]
    assert seats_to_return_to(4, True, [], [3, 0]) == [0, 3]


def test_a_resigning_seat_loses_to_everyone_not_on_its_team() -> None:
    # Partnerships: the other team, at every table size (two seats: the other seat).
    assert resignation_winners(2, 4, teams=True) == [1, 3]
    assert resignation_winners(1, 4, teams=True) == [0, 2]
    assert resignation_winners(3, 6, teams=True) == [0, 2, 4]
    assert resignation_winners(0, 2, teams=True) == [1]
    # Each for themselves (Tunge): every other seat wins.
    assert resignation_winners(1, 4, teams=False) == [0, 2, 3]
    assert resignation_winners(0, 3, teams=False) == [1, 2]


def test_seat_placeholders() -> None:
    assert fill_names(f"{seat_ref(2)} calls 30.", ["a", "b", "Carol"]) == "Carol calls 30."
    assert fill_names(f"{seat_ref(1)} passes.") == "seat 1 passes."


@given(
    st.sampled_from(["play", "bid", "call", "jodhi"]),
    st.dictionaries(
        st.sampled_from(["card", "value", "suit", "target", "cards"]),
        st.one_of(st.integers(-5, 200), st.sampled_from(["H", "NT", "grand"]), st.booleans()),
        max_size=3,
    ),
)
def test_move_codes_and_json_round_trip(action: str, fields: dict[str, object]) -> None:
    fields = {k: v for k, v in fields.items() if k not in ("card", "cards")}
    move = Move.of(action, **fields)  # type: ignore[arg-type]
    assert Move.from_code(move.code) == move
    assert Move.from_json(move.to_json()) == move


def test_move_with_cards() -> None:
    move = Move.from_json({"seat": 1, "action": "play", "cards": ["10h", "JH", "q♥"]})
    assert move.get("cards") == ("TH", "JH", "QH")
    assert Move.from_code(move.code) == move


def test_options_validation_names_the_option() -> None:
    spec = [
        Option("players", 4, "seats", choices=(2, 4, 6)),
        Option("fast", False, "speed"),
        Option("target", 12, "balls", minimum=1, maximum=99),
    ]
    assert validate_options(spec, {"players": 6}) == {"players": 6, "fast": False, "target": 12}
    for bad, name in [
        ({"players": 5}, "players"),
        ({"fast": 1}, "fast"),
        ({"target": 0}, "target"),
        ({"colour": "red"}, "colour"),
        ({"players": True}, "players"),
    ]:
        with pytest.raises(OptionError, match=name):
            validate_options(spec, bad)


def test_a_whole_number_option_must_declare_its_range() -> None:
    with pytest.raises(ValueError, match="turns needs choices or a minimum and a maximum"):
        Option("turns", 500, "turns", minimum=1)
    assert Option("turns", 500, "turns", minimum=1, maximum=9999).maximum == 9999
    assert Option("size", 2, "size", choices=(2, 3)).choices == (2, 3)


def test_games_package_is_pure() -> None:
    """games/ imports no discord, database, event loop or logging."""
    offenders = []
    for path in GAMES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


TINY = {
    "format": 1,
    "game": "tiny",
    "options": {},
    "first_dealer": 0,
    "deals": [{"hands": [["9S", "TS", "AH"], ["AS", "9H", "TH"]], "stock": []}],
    "moves": [
        {"seat": 1, "action": "play", "card": "AS"},
        {"seat": 0, "action": "play", "card": "9S"},
        {"seat": 1, "action": "play", "card": "9H"},
        {"seat": 0, "action": "play", "card": "AH"},
        {"seat": 0, "action": "play", "card": "TS"},
        {"seat": 1, "action": "play", "card": "TH"},
    ],
}


def test_replay_finishes_a_game() -> None:
    out = replay(TINY)
    assert out["status"] == "finished"
    assert [t["winner"] for t in out["deals"][0]["tricks"]] == [1, 0, 0]
    assert out["score"] == [2, 1] and out["winner"] == 0
    assert "rejected" not in out


def test_replay_stops_at_the_first_illegal_move() -> None:
    bad = json.loads(json.dumps(TINY))
    bad["moves"][1]["card"] = "AH"  # seat 0 holds spades: must follow
    out = replay(bad)
    assert out["status"] == "rejected"
    assert out["rejected"] == {
        "index": 1,
        "move": bad["moves"][1],
        "error": "You must follow spades.",
    }
    assert out["deals"][0]["tricks"] == []


@pytest.mark.parametrize(
    "change,error",
    [
        ({"format": 2}, "format"),
        ({"game": "chess"}, "unknown game"),
        ({"options": {"players": 3}}, "players"),
        ({"options": {"speed": 1}}, "speed"),
        ({"deals": [{"hands": [["XX"]]}]}, "bad card"),
        ({"deals": [{"hands": [["9S", "9S", "AH"], ["AS", "9H", "TH"]]}]}, "twice"),
    ],
)
def test_bad_headers_are_rejected_without_index(change: dict[str, object], error: str) -> None:
    out = replay({**TINY, **change})
    assert out["status"] == "rejected"
    assert out["rejected"]["index"] is None
    assert error in out["rejected"]["error"]


def test_replay_waits_for_a_deal() -> None:
    out = replay({**TINY, "deals": [], "moves": []})
    assert out["status"] == "awaiting_deal"


def test_replay_command_line_reads_file_and_stdin(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY))
    code = "import sys, tests.games.tiny_game; from games.__main__ import main; sys.exit(main())"
    by_file = subprocess.run(
        [sys.executable, "-c", code, "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    by_stdin = subprocess.run(
        [sys.executable, "-c", code, "replay", "-"],
        input=path.read_text(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(by_file.stdout) == replay(TINY)
    assert by_file.stdout == by_stdin.stdout
    missing = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(tmp_path / "no.json")],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and "cannot read transcript" in missing.stderr
