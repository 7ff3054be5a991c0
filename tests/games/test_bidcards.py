"""The bid-card engines' kept legal lists (games.bidcards): kept until a change, never leaked."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.base import IllegalMove, Move
from games.registry import get_game

GAMES = [
    ("tuppi", {}),
    ("tuppi", {"rules": "federation", "sooli_exchange": True}),
    ("tuppi", {"bid_with": "token"}),
    ("norwegian_whist", {}),
]


def agrees_with_state(game: Any) -> None:
    """The kept lists match the state they were kept for (a stale list would not)."""
    if game.phase == "tricks":
        assert game.to_act() == (game.turn,)
    bidding = game.phase == "bids"
    uncommitted = {s for s in range(4) if game.commits[s] is None} if bidding else set()
    assert uncommitted <= set(game.to_act())
    for seat in range(4):
        for move in game.legal_moves(seat):
            assert (move.action == "bid") == (seat in uncommitted)
            if move.action in ("play", "give", "return"):
                assert move.get("card") in game.hands[seat]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_kept_legal_moves_follow_every_change(name: str, options: dict[str, object]) -> None:
    """A move equal to a listed one (a button's code) is accepted like the listed object; the
    lists handed out are copies; a clone's moves do not change what the original allows."""
    game = get_game(name).new(options, seed=11)
    rng = random.Random(11)
    for _ in range(400):
        if game.status != "in_progress":
            break
        acting = game.to_act()
        assert acting == tuple(s for s in range(4) if game.legal_moves(s))
        seat = rng.choice(acting)
        moves = game.legal_moves(seat)
        moves.append(Move.of("bogus"))  # a caller's change to its copy stays its own
        assert Move.of("bogus") not in game.legal_moves(seat)
        move = rng.choice(game.legal_moves(seat))
        twin = Move.from_code(move.code)
        assert twin is not move and game.is_legal(seat, twin)
        game.check(seat, twin)
        other = game.clone()
        other.apply(seat, move)
        assert game.legal_moves(seat) == moves[:-1]
        game.apply(seat, twin)
        assert game.to_act() == other.to_act()
        assert [game.legal_moves(s) for s in range(4)] == [other.legal_moves(s) for s in range(4)]
        agrees_with_state(game)
    assert game.status != "awaiting_deal"


def test_a_refused_move_changes_nothing_and_bad_seats_have_no_moves() -> None:
    game = get_game("tuppi").new(seed=3)
    before = [game.legal_moves(s) for s in range(4)]
    for seat in (-1, 4, 7):
        assert game.legal_moves(seat) == [] and not game.is_legal(seat, before[0][0])
        with pytest.raises(IllegalMove):
            game.apply(seat, before[0][0])
    with pytest.raises(IllegalMove):
        game.apply(0, Move.of("play", card="2S"))
    assert [game.legal_moves(s) for s in range(4)] == before
