"""Thunee's fast finish plays and scores a hand as the engine does with the normal player."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.players.outcome import seat_value
from games.registry import all_games
from games.search.playout import normal_move
from games.search.thunee_finish import can_finish, finish
from games.thunee import Thunee
from tests.examples import examples

THUNEE = all_games()["thunee"]


def engine_result(world: Any, rng: random.Random) -> tuple[dict[str, Any], int]:
    """The hand played out through the engine, the normal player (full views) at every seat."""
    plays = 0
    while True:
        acting = world.to_act()
        seat = acting[0] if len(acting) == 1 else rng.choice(acting)
        move = normal_move(world, seat, rng)
        plays += move.action == "play"
        for event in world.apply(seat, move):
            if event.kind in ("hand_scored", "hand_annulled"):
                result: dict[str, Any] = event.data["result"]
                return result, plays


def positions(options: dict[str, Any], seeds: range) -> list[Any]:
    """Worlds of ordinary hands where the finish may take over, at every card of the hand."""
    found = []
    for seed in seeds:
        game: Any = THUNEE.new(dict(options), seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress" and game.records[-1].result is None:
            if can_finish(game) and game.to_act() == (game.turn,):
                found.append(game.clone())
            acting = game.to_act()
            seat = acting[0] if len(acting) == 1 else rng.choice(acting)
            game.apply(seat, normal_move(game, seat, rng))
    return found


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4, "jodhi": False},
        {"players": 6, "jodhi": False},
        {"players": 2, "jodhi": False},
        {"players": 4, "jodhi": False, "last_trick": "bonus", "double_winner": "team"},
    ],
    ids=str,
)
def test_without_jodhi_the_finish_is_the_engine(options: dict[str, Any]) -> None:
    """From every card of many hands: the same balls, card points and cards played."""
    checked = declared = 0
    for world in positions(options, range(examples(4))):
        mine, plays = finish(world)
        theirs, engine_plays = engine_result(world.clone(), random.Random(0))
        assert (mine["balls"], mine["points"], mine["kind"]) == (
            theirs["balls"],
            theirs["points"],
            theirs["kind"],
        )
        assert plays == engine_plays
        checked += 1
        declared += mine["kind"] != "normal"
    assert checked > 100
    if options["players"] != 2:
        assert declared > 0  # some hands end with a Double


def test_with_jodhi_the_finish_scores_close_to_the_engine() -> None:
    """Claims come at once instead of in the table's order: the same card points, and the
    hand's value for a seat (balls and card-point margin) rarely differs."""
    worlds = positions({"players": 4}, range(examples(2)))
    differ = 0
    for world in worlds:
        mine, _ = finish(world)
        theirs, _ = engine_result(world.clone(), random.Random(0))
        assert mine["points"] == theirs["points"]
        differ += seat_value(Thunee, mine, 4, 0) != seat_value(Thunee, theirs, 4, 0)
    assert len(worlds) > 100
    assert differ < len(worlds) // 10


def test_the_finish_leaves_the_world_as_it_was() -> None:
    world = positions({"players": 4}, range(1))[0]
    before = (
        [list(hand) for hand in world.hands],
        list(world.trick),
        list(world.points),
        list(world.jodhi_tot),
    )
    finish(world)
    assert before == (world.hands, world.trick, world.points, world.jodhi_tot)
