"""Hints: the hinted move is the normal player's move, and its reason is the branch
the player took (never the generic fallback), for many random positions of every game; a reason
names no card, so it cannot reveal one."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from typing import Any

import pytest

import tests.games.tiny_game  # noqa: F401  (registers the reference game: every game is covered)
from games.base import NotYourTurn
from games.levels import choose_move
from games.players import Seen, player_for
from games.players.hints import GENERIC, hint, hint_for
from games.registry import all_games

GAMES = all_games()
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("thunee", {"players": 2}),
    ("thunee", {"players": 4}),
    ("thunee", {"players": 6}),
    ("thunee", {"challenge_mode": True}),
    ("tunge", {"players": 2}),
    ("tunge", {"players": 4}),
    ("tuppi", {"sooli_exchange": True}),
    ("tarneeb", {"allow_no_trump": True}),
] + [(name, {}) for name in sorted(GAMES) if name not in ("thunee", "tunge")]
DECISIONS = 600
CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC♠♥♦♣]")


def variant_id(variant: tuple[str, dict[str, Any]]) -> str:
    name, options = variant
    return name + "".join(f"-{key}={value}" for key, value in options.items())


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hint_is_the_normal_players_move_with_its_reason(
    variant: tuple[str, dict[str, Any]], seed: int
) -> None:
    name, options = variant
    game = GAMES[name].new(options, seed=seed)
    player = player_for(game)
    order = random.Random(seed)
    reasons: dict[str, int] = defaultdict(int)
    for number in range(DECISIONS):
        if game.status != "in_progress":
            break
        seat = order.choice(game.to_act())
        seen = Seen(seat, game.view(seat), tuple(game.legal_moves(seat)))
        move, reason = hint(seen, game.player_module, random.Random(f"{seed}:{number}"))
        expected = player(seen, random.Random(f"{seed}:{number}"))
        assert move == expected, (name, number, seen.view.phase)
        assert reason != GENERIC, (name, number, seen.view.phase, move)
        assert reason and not CARD.search(reason), reason
        reasons[reason] += 1
        # Play on with a mix of normal and random moves, to reach varied positions.
        level = "easy" if order.random() < 0.5 else "normal"
        game.apply(seat, choose_move(game, seat, order, level))
    assert len(reasons) >= (1 if not game.player_module else 3), dict(reasons)


def test_hint_for_uses_the_seats_view_and_refuses_an_idle_seat() -> None:
    game = GAMES["tarneeb"].new(seed=4)
    seat = game.to_act()[0]
    move, reason = hint_for(game, seat, random.Random(0))
    assert move in game.legal_moves(seat) and reason
    idle = next(s for s in range(game.players) if not game.legal_moves(s))
    with pytest.raises(NotYourTurn):
        hint_for(game, idle, random.Random(0))


def test_a_player_that_changed_still_gets_its_own_move() -> None:
    """If an explanation falls behind its player, the player's move is hinted, generically."""
    game = GAMES["tarneeb"].new(seed=4)
    seat = game.to_act()[0]
    seen = Seen(seat, game.view(seat), tuple(game.legal_moves(seat)))
    assert hint(seen, "tests.games.test_hints", random.Random(0)) == (seen.legal[-1], GENERIC)


def choose(seen: Seen, rng: random.Random) -> Any:
    """A stand-in player (this module, named as a player module) the hints do not explain."""
    return seen.legal[-1]
