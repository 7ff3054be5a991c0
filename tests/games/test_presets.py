"""Match length presets: every game has three, each valid for its engine, none changing the
seats; and the rematch seat order changes partnerships."""

from __future__ import annotations

import pytest

from games.presets import LENGTHS, current_preset, preset, presets_for, with_preset
from games.registry import all_games
from games.seats import rematch_order, team_of

REAL_GAMES = sorted(name for name in all_games() if name != "tiny")


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_game_has_three_valid_lengths(game: str) -> None:
    game_class = all_games()[game]
    assert [p.length for p in presets_for(game)] == list(LENGTHS)
    defaults = game_class.validate_options({})
    for length in LENGTHS:
        options = game_class.validate_options(with_preset(game, defaults, length))
        assert game_class.seat_count(options) == game_class.seat_count(defaults)
        assert current_preset(game, options) == preset(game, length)
        game_class.new(options, seed=1)  # the engine takes them


@pytest.mark.parametrize(
    ("game", "length", "values"),
    [
        ("tarneeb", "short", {"target": 31}),
        ("tarneeb", "long", {"target": 61}),
        ("thunee", "short", {"balls_to_win": 6}),
        ("thunee", "standard", {"balls_to_win": 12}),
        ("tuppi", "short", {"max_hands": 16, "target": 52}),
        ("tuppi", "standard", {"max_hands": 0, "target": 52}),
    ],
)
def test_the_issues_examples(game: str, length: str, values: dict[str, int]) -> None:
    assert dict(preset(game, length).options) == values


@pytest.mark.parametrize("game", ["tarneeb", "thunee", "tuppi", "norwegian_whist"])
def test_the_rules_default_is_standard(game: str) -> None:
    options = all_games()[game].validate_options({})
    chosen = current_preset(game, options)
    assert chosen is not None and chosen.length == "standard"


def test_custom_options_match_no_preset() -> None:
    options = all_games()["tarneeb"].validate_options({})
    assert current_preset("tarneeb", {**options, "target": 99}) is None
    assert presets_for("tiny") == ()
    with pytest.raises(KeyError):
        preset("tarneeb", "endless")


def _partnerships(order: list[int], players: int) -> set[frozenset[int]]:
    return {frozenset(order[s] for s in range(players) if team_of(s) == t) for t in (0, 1)}


@pytest.mark.parametrize("players", [4, 6])
def test_rematch_changes_every_partnership(players: int) -> None:
    order = rematch_order(players, teams=True)
    assert sorted(order) == list(range(players))
    before = _partnerships(list(range(players)), players)
    assert _partnerships(order, players).isdisjoint(before)


def test_four_players_visit_all_three_pairings() -> None:
    seating = [0, 1, 2, 3]
    seen = []
    for _ in range(3):
        seen.append(frozenset(_partnerships(seating, 4)))
        seating = [seating[old] for old in rematch_order(4, teams=True)]
    assert len(set(seen)) == 3 and seating == [0, 1, 2, 3]


def test_without_teams_everyone_moves_one_seat_on() -> None:
    assert rematch_order(2, teams=True) == [1, 0]
    assert rematch_order(3, teams=False) == [2, 0, 1]
