"""Computer levels: every level plays only legal moves, from the seat's view, reproducibly."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.players as players
import tests.games.tiny_game  # noqa: F401  (registers the reference game: every game is covered)
from games.base import Game, Move
from games.levels import UnknownLevel, choose_move
from games.players import AVAILABLE_LEVELS, Seen, player_for
from games.registry import all_games
from games.search import hard
from tests.examples import examples

GAMES = all_games()
# Every registered game at every table size it offers (the bench measures the same ones).
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    (name, {"players": size})
    for name, sizes in (("thunee", (2, 4, 6)), ("tunge", (2, 3, 4)))
    for size in sizes
] + [(name, {}) for name in sorted(GAMES) if name not in ("thunee", "tunge")]
DECISIONS = 1500  # per game: long games (Tuppi) are cut short, the rest play to the end
TINY = hard.Budget(worlds=2, steps=0, min_worlds=1, candidates=3, attempts=4)


@pytest.fixture(autouse=True)
def tiny_hard_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard level thinks as little as it can here: the rules, not its strength, are tested."""
    monkeypatch.setattr(hard, "DEFAULT_BUDGET", TINY)


def variant_id(variant: tuple[str, dict[str, Any]]) -> str:
    name, options = variant
    return name + "".join(f"-{value}" for value in options.values())


def play(
    name: str, options: dict[str, Any], levels: tuple[str, ...], seed: int
) -> list[tuple[int, Move]]:
    """A game whose every decision is a computer's at ``levels[seat % len(levels)]``; each move
    must be legal when chosen (``apply`` checks it again)."""
    game = GAMES[name].new(options, seed=seed)
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(game.players)]
    order = random.Random(seed)
    decisions: list[tuple[int, Move]] = []
    limit = DECISIONS if "hard" not in levels else 300
    while game.status == "in_progress" and len(decisions) < limit:
        seat = order.choice(game.to_act())
        move = choose_move(game, seat, rngs[seat], levels[seat % len(levels)])
        assert move in game.legal_moves(seat), (name, seat, move)
        game.apply(seat, move)
        decisions.append((seat, move))
    return decisions


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    levels=st.sampled_from([("easy",), ("easy", "normal"), ("hard", "easy"), ("normal", "hard")]),
)
def test_no_level_ever_chooses_an_illegal_move(
    variant: tuple[str, dict[str, Any]], seed: int, levels: tuple[str, ...]
) -> None:
    name, options = variant
    assert play(name, options, levels, seed)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_a_fixed_seed_gives_the_same_decisions(variant: tuple[str, dict[str, Any]]) -> None:
    name, options = variant
    first = play(name, options, ("easy", "normal", "hard"), 5)
    assert play(name, options, ("easy", "normal", "hard"), 5) == first


@pytest.mark.parametrize("name", sorted(GAMES))
def test_normal_is_what_the_game_plays_and_easy_departs_from_it(name: str) -> None:
    game = GAMES[name].new(seed=3)
    order = random.Random(3)
    departures = 0
    for _ in range(400):
        if game.status != "in_progress":
            break
        seat = order.choice(game.to_act())
        normal = choose_move(game, seat, random.Random(1))
        assert choose_move(game, seat, random.Random(1), "normal") == normal
        if len(game.legal_moves(seat)) > 1:
            departures += choose_move(game, seat, random.Random(order.random()), "easy") != normal
        game.apply(seat, normal)
    assert departures > 0


@pytest.mark.parametrize("level", AVAILABLE_LEVELS)
def test_every_level_is_handed_only_the_seats_seen(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Levels wrap the family's player (hard: the search), which receives a Seen: never a game
    object, and nothing but plain data and moves in it."""
    seen_by_player: list[Any] = []
    real = player_for(GAMES["tarneeb"].new(seed=1))
    real_hard = hard.choose

    def spy(seen: Any, rng: random.Random) -> Move:
        seen_by_player.append(seen)
        return real(seen, rng)

    def hard_spy(seen: Any, rng: random.Random) -> Move:
        seen_by_player.append(seen)
        return real_hard(seen, rng)

    monkeypatch.setattr(players, "player_for", lambda _game: spy)
    monkeypatch.setattr(hard, "choose", hard_spy)
    game = GAMES["tarneeb"].new(seed=1)
    rng = random.Random(0)
    for _ in range(60):
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng, level))
    assert seen_by_player
    assert all(type(seen) is Seen for seen in seen_by_player)
    assert not any(isinstance(seen.view, Game) for seen in seen_by_player)
    for seen in seen_by_player:
        json.dumps(seen.view.to_json())
        json.dumps(dict(seen.options))
        assert all(move is None or type(move) is Move for _seat, move in seen.history)
    if level == "hard":
        assert any(seen.history for seen in seen_by_player)


def test_an_unknown_level_is_refused() -> None:
    game = GAMES["tarneeb"].new(seed=1)
    seat = game.to_act()[0]
    with pytest.raises(UnknownLevel, match="unknown level"):
        choose_move(game, seat, random.Random(0), "expert")
