"""Every registered game declares its own facts (games/facts.py), and the family modules that
explain a game's moves know its player: adding a game cannot leave one of them out silently."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil

import pytest

import games
from games.base import Game
from games.facts import GameFacts
from games.players.hints import EXPLAINERS
from games.registry import GAMES as OFFERED
from games.registry import all_games
from games.tarneeb import Tarneeb

GAMES = all_games()


def missing_facts(rules: type[Game]) -> list[str]:
    """What the game fails to declare in its own class body."""
    facts = vars(rules).get("facts")
    if not isinstance(facts, GameFacts):
        return [f"{rules.__name__} declares no GameFacts of its own"]
    return []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_its_own_facts(name: str) -> None:
    assert missing_facts(GAMES[name]) == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_with_a_computer_player_has_its_hints(name: str) -> None:
    module = GAMES[name].player_module
    assert not module or module in EXPLAINERS, f"{name}: no hint explainer for {module}"


def test_the_check_sees_a_game_without_facts() -> None:
    class Newcomer(Tarneeb):  # inherits Tarneeb's facts, but declares none of its own
        name = "newcomer"

    assert missing_facts(Newcomer) != []


def test_a_fact_cannot_be_left_out() -> None:
    """Every field is required: a declaration without one does not even build."""
    assert all(
        field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        for field in dataclasses.fields(GameFacts)
    )
    with pytest.raises(TypeError):
        GameFacts(presets=())  # type: ignore[call-arg]


@pytest.mark.parametrize("name", sorted(game.name for game in OFFERED))
def test_every_game_has_three_lengths_and_a_hand_score(name: str) -> None:
    """The bot's own games (not the tests' tiny one) offer the lobby's three lengths, and a
    hand score, without which the hard level would play the normal move."""
    facts = GAMES[name].facts
    assert [preset.length for preset in facts.presets] == ["short", "standard", "long"]
    assert facts.hand_score is not None


def test_every_game_class_of_games_is_listed_in_the_registry() -> None:
    """A game is registered in one place, the registry's list: a game module whose class is
    not listed there would be offered nowhere."""
    found = set()
    for module in pkgutil.walk_packages(games.__path__, "games."):
        for _, cls in inspect.getmembers(importlib.import_module(module.name), inspect.isclass):
            if issubclass(cls, Game) and not inspect.isabstract(cls) and "name" in vars(cls):
                found.add(cls)
    assert found and found == set(OFFERED)
