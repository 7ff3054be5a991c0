"""A tournament's settings and entrants: what each game makes of them, and the refusals."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tournaments.spec import Entrant, Entry, Format, Layout, TournamentError, TournamentSpec
from tests.bot.tournaments.play import people


def swiss(game: str, entry: str, **extra: Any) -> TournamentSpec:
    return TournamentSpec.create(game=game, format="swiss", entry=entry, rounds=3, **extra)


@pytest.mark.parametrize(
    ("game", "entry", "layout"),
    [
        ("tarneeb", "pairs", Layout.SIDES),
        ("tarneeb", "individuals", Layout.PARTNERS),
        ("thunee", "pairs", Layout.SIDES),
        ("tuppi", "individuals", Layout.PARTNERS),
        ("norwegian_whist", "pairs", Layout.SIDES),
        ("tunge", "individuals", Layout.FREE),
    ],
)
def test_each_game_and_entry_has_its_layout(game: str, entry: str, layout: Layout) -> None:
    spec = swiss(game, entry)
    assert (spec.layout, spec.format, spec.entry) == (layout, Format.SWISS, Entry(entry))


def test_thunee_for_two_is_one_against_one() -> None:
    spec = swiss("thunee", "individuals", options={"players": 2})
    assert (spec.layout, spec.seats) == (Layout.SIDES, 2)


def test_duplicate_is_on_in_swiss_and_off_in_a_knockout_unless_set() -> None:
    assert swiss("tarneeb", "pairs").duplicate
    assert not swiss("tarneeb", "pairs", duplicate=False).duplicate
    knockout = TournamentSpec.create(game="thunee", format="knockout", entry="pairs")
    assert not knockout.duplicate and knockout.rounds is None


def test_tuppi_plays_its_tournament_rules_unless_told_otherwise() -> None:
    options = swiss("tuppi", "pairs").options
    assert (options["rules"], options["max_hands"], options["sooli"]) == ("tournament", 16, False)
    assert swiss("tuppi", "pairs", options={"rules": "home"}).options["rules"] == "home"
    assert swiss("tarneeb", "pairs").options["target"] == 41  # other games keep their own


@pytest.mark.parametrize(
    ("settings", "refusal"),
    [
        ({"game": "tunge", "format": "knockout", "entry": "pairs"}, "each plays for themself"),
        ({"game": "tunge", "format": "knockout", "entry": "individuals"}, "head-to-head"),
        ({"game": "tunge", "format": "swiss", "entry": "pairs", "rounds": 3}, "individuals"),
        ({"game": "tarneeb", "format": "knockout", "entry": "individuals"}, "fixed sides"),
        ({"game": "thunee", "format": "knockout", "entry": "pairs", "rounds": 3}, "follow from"),
        ({"game": "tarneeb", "format": "swiss", "entry": "pairs"}, "1 to 15 rounds"),
        ({"game": "tarneeb", "format": "swiss", "entry": "pairs", "rounds": 16}, "1 to 15"),
        ({"game": "tarneeb", "format": "swiss", "entry": "pairs", "rounds": 0}, "1 to 15"),
        ({"game": "chess", "format": "swiss", "entry": "pairs", "rounds": 3}, "no game"),
        ({"game": "tarneeb", "format": "league", "entry": "pairs", "rounds": 3}, "swiss or"),
        ({"game": "tarneeb", "format": "swiss", "entry": "teams", "rounds": 3}, "pairs or"),
        (
            {"game": "tarneeb", "format": "swiss", "entry": "pairs", "rounds": 3,
             "options": {"target": "lots"}},
            "Option target must be a whole number",
        ),
        (
            {"game": "thunee", "format": "swiss", "entry": "pairs", "rounds": 3,
             "options": {"players": 6}},
            "four players",
        ),
        (
            {"game": "thunee", "format": "swiss", "entry": "pairs", "rounds": 3,
             "options": {"players": 2}},
            "one against one",
        ),
        (
            {"game": "tunge", "format": "swiss", "entry": "individuals", "rounds": 3,
             "options": {"players": 4}},
            "seated by the tournament",
        ),
    ],
)  # fmt: skip
def test_meaningless_settings_are_refused_with_a_reason(
    settings: dict[str, Any], refusal: str
) -> None:
    with pytest.raises(TournamentError, match=refusal):
        TournamentSpec.create(**settings)


def test_entrants_are_checked_when_the_tournament_starts() -> None:
    pairs = swiss("tarneeb", "pairs")
    pairs.check_entrants(people(2, pairs=True))
    with pytest.raises(TournamentError, match="at least 2 pairs"):
        pairs.check_entrants(people(1, pairs=True))
    with pytest.raises(TournamentError, match="a pair of two"):
        pairs.check_entrants(people(3))
    twice = [Entrant(1, (7, 8)), Entrant(2, (9, 7))]
    with pytest.raises(TournamentError, match="entered twice"):
        pairs.check_entrants(twice)
    with pytest.raises(TournamentError, match="entered twice"):
        pairs.check_entrants([Entrant(1, (7, 7)), Entrant(2, (8, 9))])
    with pytest.raises(TournamentError, match="share a number"):
        pairs.check_entrants([Entrant(1, (7, 8)), Entrant(1, (9, 10))])
    with pytest.raises(TournamentError, match="at least 4 players"):
        swiss("tarneeb", "individuals").check_entrants(people(3))
    with pytest.raises(TournamentError, match="at least 3 players"):
        swiss("tunge", "individuals").check_entrants(people(2))
    swiss("tunge", "individuals").check_entrants(people(3))
