"""Thunee's fast path agrees with the engine, card by card, over many random games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.levels import choose_move
from games.registry import all_games
from games.search.thunee_fast import (
    INDEX,
    NAMES,
    ThuneePlay,
    as_cards,
    from_world,
    mask_of,
    names_of,
    random_playout,
)

THUNEE = all_games()["thunee"]
TABLES: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 2},
    {"players": 6},
    {"players": 4, "undercut_restriction": False},
    {"players": 6, "six_player_first_packet": 3, "jodhi_cards": "dealt"},
    {"players": 2, "two_player_target": 105, "last_card_trump": "always"},
]


@pytest.mark.parametrize("options", TABLES, ids=lambda options: str(sorted(options.items())))
def test_the_fast_play_follows_the_engine_card_by_card(options: dict[str, Any]) -> None:
    """From every position of an ordinary hand's card play: the same legal cards, and after the
    same card the same hands, trick, turn, trick winners and card points; at the hand's end the
    card points the engine scores. Random moves in the card play (claims and declarations too, so
    the engine's other moves run between the cards)."""
    compared = hands = 0
    for seed in range(60):
        game: Any = THUNEE.new(dict(options), seed=seed)
        rng = random.Random(seed)
        fast: ThuneePlay | None = None
        while game.status == "in_progress" and compared < 6000:
            seat = rng.choice(game.to_act())
            legal = game.legal_moves(seat)
            if fast is None:
                fast = from_world(game)
            cards = {move.get("card") for move in legal if move.action == "play"}
            if fast is not None and seat == fast.turn:
                assert set(names_of(fast.legal())) == cards
            # the normal player calls (random calls are nearly all blind contracts), cards random
            move = rng.choice(legal) if game.phase == "play" else choose_move(game, seat, rng)
            events = game.apply(seat, move)
            if fast is None or move.action != "play":
                continue
            fast.play(INDEX[move.get("card")])
            compared += 1
            scored = [event for event in events if event.kind in ("hand_scored", "hand_annulled")]
            if scored:
                result = scored[0].data["result"]
                if fast.over:
                    assert result["points"] == fast.points
                    hands += 1
                fast = None  # a new hand starts fresh
                continue
            mine = as_cards(fast)
            assert mine["hands"] == [sorted(hand) for hand in game.hands]
            assert mine["trick"] == list(game.trick)
            assert mine["turn"] == game.turn
            assert mine["points"] == list(game.points)
            assert mine["winners"] == list(game.winners)
            assert mine["tricks_done"] == game.tricks_done
    assert compared > 1000
    assert hands > 20


def test_a_random_playout_plays_every_card() -> None:
    hands = [mask_of(NAMES[seat * 6 : seat * 6 + 6]) for seat in range(4)]
    state = ThuneePlay(hands, [], 0, trump=1)
    plays = random_playout(state.copy(), random.Random(1))
    assert plays == 24
    played = state.copy()
    random_playout(played, random.Random(2))
    assert sum(played.points) == 304  # every card point of the deck, and the original untouched
    assert state.points == [0, 0] and state.hands == hands
