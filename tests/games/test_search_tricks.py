"""The fast trick play agrees with the engines, card by card, over many random games."""

from __future__ import annotations

import random

import pytest

from games.levels import choose_move
from games.registry import all_games
from games.search.tricks import (
    TrickPlay,
    as_cards,
    best_tricks,
    card_index,
    card_name,
    cards_of,
    from_world,
    random_playout,
)

GAMES = all_games()
TRICK_GAMES = ["tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist"]


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_the_fast_play_follows_the_engine_card_by_card(name: str) -> None:
    """From every position of the card play: the same legal cards, and after the same card the
    same hands, trick, turn and tricks won (until the hand ends)."""
    compared = 0
    for seed in range(40):
        game = GAMES[name].new(seed=seed)
        rng = random.Random(seed)
        fast: TrickPlay | None = None
        while game.status == "in_progress" and compared < 20_000:
            seat = rng.choice(game.to_act())
            legal = game.legal_moves(seat)
            if fast is None:
                fast = from_world(game)
            if fast is not None:
                assert fast.turn == seat
                assert {card_name(c) for c in cards_of(fast.legal())} == {
                    move.get("card") for move in legal
                }
            move = rng.choice(legal)
            events = game.apply(seat, move)
            if fast is None:
                continue
            fast.play(card_index(move.get("card")))
            compared += 1
            if any(event.kind in ("hand_scored", "new_deal") for event in events):
                fast = None  # the hand is over (or stopped early): a new one starts fresh
                continue
            mine = as_cards(fast)
            assert mine["hands"] == [sorted(hand) for hand in game.hands]  # type: ignore[attr-defined]
            assert mine["trick"] == list(game.trick)  # type: ignore[attr-defined]
            assert mine["turn"] == game.to_act()[0]
            won = game.team_tricks if name.startswith("tarneeb") else game.won  # type: ignore[attr-defined]
            assert mine["won"] == list(won)
    assert compared > 2000


def test_a_random_playout_plays_every_card() -> None:
    game = GAMES["tarneeb"].new(seed=1)
    while (state := from_world(game)) is None:
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, random.Random(0)))
    assert random_playout(state, random.Random(2)) == 52
    assert sum(state.won) == 13 and state.over


def brute_force(state: TrickPlay, team: int) -> int:
    """Minimax without pruning or memory, for a few cards."""
    legal = cards_of(state.legal())
    if not legal:
        return state.won[team]
    values = []
    for card in legal:
        child = state.copy()
        child.play(card)
        values.append(brute_force(child, team))
    return max(values) if state.turn % 2 == team else min(values)


def test_the_solver_agrees_with_plain_minimax_on_small_endings() -> None:
    rng = random.Random(5)
    deck = list(range(52))
    for _ in range(40):
        rng.shuffle(deck)
        size = rng.choice([1, 2, 3])
        hands = [
            sum(1 << card for card in deck[seat * size : (seat + 1) * size]) for seat in range(4)
        ]
        leader = rng.randrange(4)
        order = [(leader + offset) % 4 for offset in range(4)]
        state = TrickPlay(hands, [], order, rng.choice([-1, 0, 1, 2, 3]), [0, 0])
        for team in (0, 1):
            assert best_tricks(state.copy(), team) == brute_force(state.copy(), team)


def test_card_indexes_order_ranks_within_a_suit() -> None:
    assert [card_name(card_index(c)) for c in ("2S", "AS", "TD")] == ["2S", "AS", "TD"]
    assert all(card_index("A" + s) > card_index("K" + s) for s in "SHDC")
    assert len({card_index(r + s) for r in "23456789TJQKA" for s in "SHDC"}) == 52
