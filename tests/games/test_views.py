"""The typed views and the action constants: one contract for every game."""

from __future__ import annotations

import dataclasses
import json
import random
from enum import StrEnum

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from games.actions import Action
from games.registry import all_games
from games.views import TableView, plain

VARIANTS = [
    (name, options)
    for name in sorted(all_games())
    for options in ({"players": 2}, {"players": 4}, {"players": 6}, {"players": 3})
    if name in ("thunee", "tunge") or options == {"players": 4}
    if not (name == "thunee" and options == {"players": 3})
    if not (name == "tunge" and options == {"players": 6})
]


def options_for(name: str, options: dict[str, object]) -> dict[str, object]:
    """The variant's seats; a random Tarneeb game stopped at ten hands (random players play to
    the 30-hand limit, each hand's views like the last's)."""
    if name.startswith("tarneeb"):
        return {"hand_limit": 10}
    return options if name in ("thunee", "tunge") else {}


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_views_are_typed_frozen_and_json_ready(name: str, options: dict[str, object]) -> None:
    """Every view of random games is a frozen TableView with a phase enum; to_json is plain data
    and each attribute gives its part (the mapping bridge is gone); every listed move's action
    is an Action."""
    game = all_games()[name].new(options_for(name, options), seed=7)
    rng = random.Random(7)
    while game.status == "in_progress":
        for seat in (None, *range(game.players)):
            view = game.view(seat)
            assert isinstance(view, TableView) and isinstance(view.phase, StrEnum)
            assert (view.hand is None) == (seat is None)
            data = view.to_json()
            assert json.loads(json.dumps(data)) == data
            assert all(plain(getattr(view, key)) == value for key, value in data.items())
            assert not hasattr(view, "get") and not hasattr(view, "__getitem__")
            with pytest.raises(dataclasses.FrozenInstanceError):
                view.prompt = "changed"  # type: ignore[misc]
        seat = rng.choice(game.to_act())
        legal = game.legal_moves(seat)
        assert all(move.action in set(Action) for move in legal)
        game.apply(seat, rng.choice(legal))


TRICK_GAMES = ("thunee", "tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist")


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_the_seat_winning_the_trick_so_far_is_the_one_that_takes_it(name: str) -> None:
    """Before a trick's last card, ``winning`` names the seat the trick goes to unless that
    last card beats it; after every card it names a seat that played to the trick."""
    game_class = all_games()[name]
    checked = 0
    for seed in range(12):
        game = game_class.new({}, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress" and checked < 100:
            view = game.view(None)
            if not view.trick:
                assert view.winning is None
            else:
                assert view.winning in {seat for seat, _ in view.trick}
            seat = game.to_act()[0]
            move = rng.choice(game.legal_moves(seat))
            before = game.view(None)
            game.apply(seat, move)
            after = game.view(None)
            if before.trick and not after.trick and after.last_trick is not None:
                assert after.last_trick.winner in (before.winning, seat)
                last = after.last_trick.cards[-1]
                if after.last_trick.winner != before.winning:
                    assert last[0] == seat == after.last_trick.winner
                checked += 1
    assert checked > 20
