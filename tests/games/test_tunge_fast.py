"""The Tunge fast path (games/search/tunge_fast.py) against the engine's public interface: over
many random games, with every option that changes the deal, the same legal plays (as cards), the
same position after every move (every hand, the pile, the stock's size, the seat to act, the
reference) and the same end (winner and points)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.base import Move
from games.registry import all_games
from games.search import tunge_fast
from games.search.tunge_fast import Deal, Rules, normal_plays
from games.tunge.grammar import PHANTOM

TUNGE = all_games()["tunge"]
OPTIONS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 3, "pickup_count": "distinct_ranks"},
    {"players": 4, "forced_pickup_ends_turn": True},
    {"players": 2, "endgame_repeat_rule": "contains"},
    {"players": 4, "variant": "face_up_start"},
    {"players": 3, "variant": "face_up_start", "endgame_repeat_rule": "contains"},
    {"players": 2, "turn_limit": 60, "scoring": False},
]


def fast_deal(game: Any) -> Deal:
    """The fast path's deal of a freshly dealt engine game (read from its first deal)."""
    deal = game.deals[0]
    rules = Rules.of(game.options)
    first = (game.first_dealer + 1) % game.players
    if game.options["variant"] == "face_up_start":
        return Deal.start(rules, deal.hands, (), deal.stock, turn=first)
    return Deal.start(rules, deal.hands, tuple(reversed(deal.stock)), turn=first)


def assert_same_position(game: Any, deal: Deal) -> None:
    public = game.view(None)
    assert list(public.pile) == [tunge_fast.CARD_NAMES[card] for card in deal.pile]
    assert public.stock_size == len(deal.stock)
    assert tuple(public.hand_sizes) == tuple(deal.sizes)
    for seat in range(game.players):
        assert sorted(game.view(seat).hand) == sorted(deal.cards(seat))
    if public.reference is None:
        assert deal.reference()[0] == ""
    else:
        shown = "".join("A" if r == PHANTOM else r for r in public.reference.ranks)
        assert deal.reference() == (shown, public.reference.end_game)


def legal_of(deal: Deal) -> set[Move]:
    moves = {Move.of("play", cards=deal.play_cards(play)) for play in deal.plays()}
    if deal.can_draw():
        moves.add(Move("draw"))
    elif not moves:
        moves.add(Move("pass"))
    return moves


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
@pytest.mark.parametrize("seed", range(6))
def test_random_games_match_the_engine(options: dict[str, Any], seed: int) -> None:
    game = TUNGE.new(options, seed=seed)
    deal = fast_deal(game)
    rng = random.Random(seed)
    moves = 0
    while game.status == "in_progress":
        seat = game.to_act()[0]
        assert deal.turn == seat
        legal = game.legal_moves(seat)
        assert set(legal) == legal_of(deal), moves
        # mostly plays (the deal moves on), sometimes a draw
        plays = [move for move in legal if move.action == "play"]
        move = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
        events = game.apply(seat, move)
        if move.action == "play":
            letters = "".join(card[0] for card in move.get("cards"))
            deal.play(tunge_fast.play_of(letters))
        elif move.action == "draw":
            deal.draw()
        else:
            deal.pass_turn()
        moves += 1
        scored = [event for event in events if event.kind == "hand_scored"]
        if scored:
            assert deal.over
            assert tuple(scored[0].data["points"]) == deal.points
            assert scored[0].data["winner"] == deal.winner
            assert scored[0].data["blocked"] is None or deal.winner is None
            break
        assert not deal.over
        assert_same_position(game, deal)
    assert deal.over


def test_a_copy_is_independent() -> None:
    game = TUNGE.new({"players": 3}, seed=4)
    deal = fast_deal(game)
    copy = deal.copy()
    tunge_fast.random_playout(copy, random.Random(1))
    assert copy.over and not deal.over
    assert deal.sizes == [12, 12, 12] and len(deal.stock) == 16


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fast_normal_player_is_the_normal_player(players: int) -> None:
    """normal_plays names the move the normal player makes (ties: one of the tied plays)."""
    from games.players import Seen
    from games.players.tunge import choose

    for seed in range(4):
        game = TUNGE.new({"players": players}, seed=seed)
        deal = fast_deal(game)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = game.to_act()[0]
            seen = Seen(seat, game.view(seat), tuple(game.legal_moves(seat)))
            move = choose(seen, rng)
            out, best = normal_plays(deal)
            if move.action != "play":
                assert out is None and not best
            else:
                letters = "".join(card[0] for card in move.get("cards"))
                if out is not None:
                    assert len(letters) == out.size
                else:
                    assert letters in {play.letters for play in best}
            game.apply(seat, move)
            if move.action == "play":
                deal.play(tunge_fast.play_of("".join(card[0] for card in move.get("cards"))))
            elif move.action == "draw":
                deal.draw()
            else:
                deal.pass_turn()
        assert deal.over
