"""The hard level's inference from the bidding (games/search/inference.py).

- worlds drawn against the bidding deal the other seats hands that repeat their calls (with the
  normal player at every seat), far more often than the plain sampler's;
- they still deal the seat its own cards, keep the shown cards and the voids, and replay;
- the same seed draws the same worlds;
- the hard decision with the inference is the same whatever the other seats hold.
"""

from __future__ import annotations

import random

import pytest

from games.base import Deal, Game
from games.levels import choose_move
from games.players import tarneeb as tarneeb_player
from games.registry import all_games
from games.search import hard
from games.search.inference import MODELS, Bidding, bidding
from games.search.worlds import Knowledge, world
from tests.games.test_search import seen_of, twin_of

GAMES = all_games()
TARNEEBS = ["tarneeb", "tarneeb_egyptian"]


def positions(name: str, seeds: range, in_play: bool) -> list[tuple[Game, int]]:
    """Games played by the normal player up to a decision after the auction (``in_play``:
    a few tricks into the card play) or still in it."""
    found: list[tuple[Game, int]] = []
    for seed in seeds:
        game = GAMES[name].new(seed=seed)
        rng = random.Random(seed)
        stop = 4 + seed % 9 if in_play else 1 + seed % 4
        plays = calls = 0
        while game.status == "in_progress":
            seat = game.to_act()[0]
            playing = game.view(seat).phase in ("tricks", "play")
            if (in_play and playing and plays >= stop) or (
                not in_play and not playing and calls >= stop
            ):
                found.append((game, seat))
                break
            plays += playing
            calls += not playing
            game.apply(seat, choose_move(game, seat, rng))
    return found


def repeats_the_calls(sample: Game, model: Bidding) -> bool:
    """Every other seat of ``sample``, played by the normal player, calls as it did."""
    for seat, calls in model.calls.items():
        strength = tarneeb_player.strength(sample.deals[-1].hands[seat])
        for call in calls:
            if tarneeb_player.call(seat, call.view, call.legal, strength) != call.move:
                return False
    return True


@pytest.mark.parametrize("name", TARNEEBS)
def test_worlds_repeat_the_other_seats_calls(name: str) -> None:
    inferred = plain = total = 0
    for game, seat in positions(name, range(24), in_play=True):
        seen = seen_of(game, seat)
        knowledge = Knowledge.of(seen)
        model = bidding(seen, knowledge)
        assert model is not None
        for draw in range(5):
            knowledge.bidding = None
            before = world(seen, knowledge, random.Random(draw))
            knowledge.bidding = model
            after = world(seen, knowledge, random.Random(draw))
            assert after is not None  # the draws keep the seat's cards, shown cards and voids
            assert sorted(after.view(seat).hand or ()) == sorted(seen.view.hand or ())
            assert set(after.legal_moves(seat)) == set(seen.legal)
            total += 1
            inferred += repeats_the_calls(after, model)
            plain += before is not None and repeats_the_calls(before, model)
    assert total >= 100
    assert inferred >= 0.9 * total
    assert plain <= 0.5 * inferred


@pytest.mark.parametrize("name", TARNEEBS)
def test_the_same_seed_draws_the_same_worlds(name: str) -> None:
    for game, seat in positions(name, range(6), in_play=True):
        seen = seen_of(game, seat)
        decks: list[list[Deal | None]] = []
        for _ in range(2):
            knowledge = Knowledge.of(seen)
            knowledge.bidding = bidding(seen, knowledge)
            rng = random.Random(5)
            decks.append([knowledge.sample(rng) for _ in range(6)])
        assert decks[0] == decks[1]


def test_only_the_modelled_games_infer() -> None:
    assert set(MODELS) <= {"games.players.tarneeb"}
    game, seat = positions("tarneeb_egyptian", range(1), in_play=True)[0]
    seen = seen_of(game, seat)
    other = GAMES["tuppi"].new(seed=1)
    assert bidding(seen_of(other, other.to_act()[0]), Knowledge.of(seen)) is None


@pytest.mark.parametrize(("name", "in_play"), [(n, p) for n in TARNEEBS for p in (False, True)])
def test_the_inferring_decision_does_not_depend_on_other_seats_cards(
    name: str, in_play: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables with the same view and history for the seat, but other cards elsewhere."""
    monkeypatch.setattr(hard, "DEFAULT_BUDGET", hard.Budget(worlds=3, steps=0, min_worlds=3))
    checked = 0
    for game, seat in positions(name, range(8), in_play):
        twin = twin_of(game, seat)
        if twin is None:
            continue
        assert twin.view(seat) == game.view(seat)
        assert twin.public_history(seat) == game.public_history(seat)
        assert any(twin.view(other) != game.view(other) for other in range(4))
        first = choose_move(game, seat, random.Random(99), "hard")
        assert choose_move(twin, seat, random.Random(99), "hard") == first
        assert first in game.legal_moves(seat)
        checked += 1
    assert checked >= 4
