"""The duplicate-deal match runner: the swap cancels the cards, and small matches run end to end."""

from __future__ import annotations

from typing import Any

import pytest

from bench.match import SCORERS, a_seats, main, match, win_share
from games.players import LEVELS
from games.registry import GAMES, all_games
from games.search import hard

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("thunee", {"players": 2}),
    ("thunee", {}),
    ("thunee", {"players": 6}),
    ("tunge", {"players": 2}),
    ("tunge", {"players": 3}),
    ("tunge", {}),
] + [(name, {}) for name in sorted(SCORERS) if name not in ("thunee", "tunge")]


def test_every_game_has_a_hand_score() -> None:
    offered = {game.name for game in GAMES}
    assert set(SCORERS) == offered


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: v[0] + "".join(f"-{x}" for x in v[1].values())
)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_level_against_itself_is_exactly_even(variant: tuple[str, Any], level: str) -> None:
    """Both plays of a deal are the same game with the sides' names swapped: every difference is
    0 and each side wins half of the full games."""
    name, options = variant
    result = match(name, level, level, 3, options=options, games=1, seed=4)
    assert result.differences == [0.0, 0.0, 0.0]
    assert all(difference == 0 for difference in result.point_differences)
    assert result.games == 2 and result.wins == 1.0
    assert result.p_value == 1.0
    assert result.times[level]


def test_a_fixed_seed_gives_the_same_match() -> None:
    first = match("tarneeb", "normal", "easy", 6, games=2, seed=9)
    again = match("tarneeb", "normal", "easy", 6, games=2, seed=9)
    other = match("tarneeb", "normal", "easy", 6, games=2, seed=10)
    assert (first.differences, first.wins) == (again.differences, again.wins)
    assert first.differences != other.differences


def test_the_sides_take_the_teams_or_rotate_through_the_seats() -> None:
    games = all_games()
    assert a_seats(games["tarneeb"], 4, 7) == {0, 2}
    assert a_seats(games["thunee"], 6, 1) == {0, 2, 4}
    assert [a_seats(games["tunge"], 3, index) for index in range(4)] == [{0}, {1}, {2}, {0}]


def test_a_win_counts_whole_for_one_side_and_half_when_shared() -> None:
    side = frozenset({0, 2})
    assert win_share((0, 2), side) == 1.0
    assert win_share((1, 3), side) == 0.0
    assert win_share((), side) == 0.5
    assert win_share((0, 1), side) == 0.5


def test_the_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    main(["thunee", "--a", "normal", "--b", "easy", "--deals", "4", "--games", "1", "--seed", "2"])
    out = capsys.readouterr().out
    assert "thunee: normal vs easy, 4 duplicate deals" in out
    assert "mean score difference per deal (normal - easy)" in out
    assert "card points per deal" in out
    assert "normal wins" in out and "of 2 full games" in out
    assert "normal decisions: median" in out and "easy decisions: median" in out


def test_the_command_refuses_a_level_that_does_not_exist() -> None:
    with pytest.raises(SystemExit):
        main(["tarneeb", "--a", "expert", "--deals", "1"])


@pytest.mark.parametrize("name", ["tuppi", "tunge"])
def test_swapping_the_levels_negates_every_difference(name: str) -> None:
    """Naming b first plays the very same games with the roles swapped."""
    forward = match(name, "normal", "easy", 4, games=1, seed=3)
    backward = match(name, "easy", "normal", 4, games=1, seed=3)
    assert backward.differences == [-difference for difference in forward.differences]
    assert backward.wins == forward.games - forward.wins


def test_the_hard_level_plays_its_old_self_on_duplicate_deals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hard-today`` is a level of the bench only; against the hard level it plays the same
    deals with the seats turned, and the report gives the paired p-value."""
    monkeypatch.setattr(hard, "DEFAULT_BUDGET", hard.Budget(worlds=2, steps=0, min_worlds=2))
    assert "hard-today" not in LEVELS
    same = match("thunee", "hard-today", "hard-today", 2, options={"players": 2}, games=0)
    assert same.differences == [0.0, 0.0]
    main(["thunee", "--players", "2", "--a", "hard", "--b", "hard-today", "--deals", "2"])
    out = capsys.readouterr().out
    assert "hard vs hard-today, 2 duplicate deals" in out and "paired p = " in out
