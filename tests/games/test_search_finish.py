"""The fast finish of a Tarneeb hand scores exactly what the engine scores."""

from __future__ import annotations

import random

import pytest

from games.registry import all_games
from games.search.finish import can_finish, finish
from games.search.playout import normal_move

GAMES = all_games()


KEYS = {
    "tarneeb": ("points",),
    "tarneeb_egyptian": ("points",),
    "tuppi": ("scoring_team", "points"),
    "norwegian_whist": ("changes",),
}


@pytest.mark.parametrize("name", sorted(KEYS))
def test_the_fast_finish_scores_what_the_engine_scores(name: str) -> None:
    """From many positions of the card play, the normal player finishing the hand in the engine
    and in the fast path: the same points for both teams."""
    compared = 0
    for seed in range(30):
        game = GAMES[name].new(seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress" and compared < 400:
            seat = rng.choice(game.to_act())
            if can_finish(game) and rng.random() < 0.3:
                result, plays = finish(game)
                engine = game.clone()
                cards = 0
                while True:
                    mover = engine.to_act()[0]
                    events = engine.apply(mover, normal_move(engine, mover, rng))
                    cards += 1
                    scored = [e for e in events if e.kind == "hand_scored"]
                    if scored:
                        break
                assert plays == cards
                engine_result = scored[0].data.get("result", scored[0].data)
                for key in KEYS[name]:
                    assert result[key] == engine_result[key], key
                compared += 1
            game.apply(seat, rng.choice(game.legal_moves(seat)))
    assert compared > 100
