"""Tunge by random and computer play: random deals keep every rule, reads change nothing, a
clone is independent, and the computer player sees only its seat."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalMove, Move
from games.cards import display
from games.levels import choose_move
from games.players import Seen
from games.tunge import Tunge, sequence_error
from games.views import TungePhase, TungeView
from tests.examples import examples
from tests.games.probes import snapshot
from tests.games.test_tunge import DECK, play, position, ranks_of

# ------------------------------------------------------------------ properties
OPTION_SETS = st.fixed_dictionaries(
    {
        "players": st.sampled_from([2, 3, 4]),
        "variant": st.sampled_from(["standard", "face_up_start"]),
        "pickup_count": st.sampled_from(["pairs", "distinct_ranks"]),
        "forced_pickup_ends_turn": st.booleans(),
        "endgame_repeat_rule": st.sampled_from(["exact", "contains"]),
        "turn_limit": st.sampled_from([60, 200, 500]),
    }
)


def random_non_sequence(game: Tunge, seat: int, rng: random.Random) -> Move | None:
    hand = game.state.deal.hands[seat]
    for _ in range(20):
        cards = rng.sample(hand, min(len(hand), rng.randint(1, 5)))
        if sequence_error("".join(c[0] for c in cards)) is not None:
            return play(*cards)
    return None


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_SETS, seed=st.integers(0, 2**32 - 1), ai=st.booleans())
def test_random_deals(options: dict[str, Any], seed: int, ai: bool) -> None:
    game = Tunge.new(options, seed=seed)
    rng = random.Random(seed)
    n = game.players
    steps = 0
    while game.status == "in_progress":
        steps += 1
        assert steps <= options["turn_limit"]
        seat = game.to_act()[0]
        # 52 cards at every step, the Zobrist hash is up to date
        cards = (
            [c for hand in game.state.deal.hands for c in hand]
            + game.state.deal.stock
            + game.state.deal.pile
        )
        assert sorted(cards) == sorted(DECK)
        assert game.state.deal.zobrist == game._rehash()
        legal = game.legal_moves(seat)
        assert legal
        for other in range(n):
            if other != seat:
                assert game.legal_moves(other) == []
        if steps % 7 == 0:
            before = snapshot(game)
            for move in legal:
                game.check(seat, move)
            bad = random_non_sequence(game, seat, rng)
            if bad is not None:
                with pytest.raises(IllegalMove):
                    game.apply(seat, bad)
            assert snapshot(game) == before
        for viewer in [None, *range(n)]:
            view = json.dumps(game.view(viewer).to_json(), ensure_ascii=False)
            for card in game.hidden_cards(viewer):
                assert f'"{card}"' not in view
            if viewer is not None:
                assert set(game.view(viewer).hand or ()) == set(game.state.deal.hands[viewer])
        stock_before = list(game.state.deal.stock)
        move = choose_move(game, seat, rng) if ai else rng.choice(legal)
        assert game.is_legal(seat, move)
        events = game.apply(seat, move)
        if move.action == "play" and game.summary()["deals"]:
            turn = game.summary()["deals"][-1]["turns"][-1]
            pickup = turn["pickup"]
            if pickup is not None:
                assert pickup["count"] <= len(move.get("cards"))
                assert (
                    pickup["from_stock"] == len(stock_before) - len(game.state.deal.stock)
                    or game.status != "in_progress"
                )
        if not any(e.kind == "new_deal" for e in events):
            for event in events:
                readers: list[int | None] = [None] if event.to is None else sorted(event.to)
                for reader in readers:
                    text = json.dumps({"t": event.text, "d": dict(event.data)}, ensure_ascii=False)
                    for card in game.hidden_cards(reader):
                        assert f'"{card}"' not in text and display(card) not in text
    assert game.status == "finished"
    result = game.summary()["deals"][0]["result"]
    assert result["turns"] <= options["turn_limit"]
    if result["winner"] is not None:
        assert result["hand_values"][result["winner"]] == 0
    else:
        assert result["blocked"] in ("turn_limit", "repetition", "all_passed")


def test_computer_player_sheds_high_cards() -> None:
    game = position([["2S", "3H", "KS", "KH", "9D"], ["4C", "7C"]], turn=0)
    move = choose_move(game, 0, random.Random(1))
    assert ranks_of(move) == "KK"
    winning = position([["2S", "3H"], ["4C", "7C"]], turn=0)
    assert ranks_of(choose_move(winning, 0, random.Random(1))) in ("23", "32")


def test_view_shapes() -> None:
    game = Tunge.new({"players": 3}, seed=8)
    public = game.view(None)
    assert isinstance(public, TungeView) and public.phase is TungePhase.TURNS
    assert public.hand is None and "hand" not in public.to_json()
    for key in (
        "game",
        "players",
        "dealer",
        "phase",
        "to_act",
        "prompt",
        "hand_sizes",
        "trick",
        "last_trick",
        "trump",
        "lines",
        "score",
        "score_label",
        "pile",
        "stock_size",
        "reference",
    ):
        assert key in public.to_json()
    mine = game.view(1)
    assert sorted(mine.hand or ()) == sorted(game.state.deal.hands[1])
    assert game.move_label(play("AS", "5H")) == "Play A♠ 5♥"
    assert game.move_label(Move.of("draw")) == "Draw"


# ------------------------------------------------------------------ state
@pytest.mark.parametrize("players", [2, 3, 4])
def test_clone_is_independent_after_every_move(players: int) -> None:
    game = Tunge.new({"players": players, "variant": "face_up_start"}, seed=players)
    rng = random.Random(players)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        copy = game.clone()
        assert copy.state == game.state
        before = snapshot(game)
        move = rng.choice(copy.legal_moves(seat))
        copy.apply(seat, move)
        assert snapshot(game) == before, "a move on the clone changed the original"
        game.apply(seat, move)
        assert copy.state == game.state and snapshot(copy) == snapshot(game)


@pytest.mark.parametrize(
    ("players", "variant", "from_position"),
    [(2, "standard", False), (3, "face_up_start", False), (4, "standard", False), (3, "", True)],
)
def test_recorded_turns_count_the_stock_and_hands(
    players: int, variant: str, from_position: bool
) -> None:
    """A turn's stock_left and hand_sizes are counted from the deal's start when the turns are
    read (the engine records neither): they must be the stock and hands after that turn."""
    if from_position:
        game = position([["5S", "6S", "7S"], ["9H", "9D"], ["KC", "QC", "JC", "AS"]])
    else:
        game = Tunge.new({"players": players, "variant": variant}, seed=players)
    rng = random.Random(players)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_moves(seat)))
        if game.status != "in_progress":
            break
        deal = game.state.deal
        turn = game.state.records[-1].turns[-1]
        assert turn.stock_left == len(deal.stock)
        assert turn.hand_sizes == tuple(map(len, deal.hands))


def test_reads_never_change_the_state() -> None:
    game = Tunge.new({"players": 3}, seed=6)
    rng = random.Random(6)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        before = game.state.clone()
        for viewer in [None, 0, 1, 2]:
            game.view(viewer)
            game.hidden_cards(viewer)
        for other in range(3):
            game.legal_moves(other)
        game.summary()
        game.reference()
        game.normalise(seat, play("2S", "3S"))
        assert game.state == before
        game.apply(seat, rng.choice(game.legal_moves(seat)))


# ------------------------------------------------------------------ computer player
def test_computer_player_sees_only_its_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    import games.players.tunge as player

    handed: list[object] = []
    real = player.choose

    def spy(seen: Seen, rng: random.Random) -> Move:
        handed.append(seen)
        return real(seen, rng)

    monkeypatch.setattr(player, "choose", spy)
    game = Tunge.new({"players": 3}, seed=2)
    seat = game.to_act()[0]
    move = choose_move(game, seat, random.Random(2))
    assert move in game.legal_moves(seat)
    (seen,) = handed
    assert isinstance(seen, Seen) and seen.seat == seat
    assert seen.view == game.view(seat) and list(seen.legal) == game.legal_moves(seat)
    hidden = game.hidden_cards(seat)
    assert not hidden & set(json.dumps(seen.view.to_json()).replace('"', " ").split())


@pytest.mark.parametrize(
    ("players", "turns", "score"),
    [(2, 18, [0, 24]), (3, 58, [19, 0, 28]), (4, 40, [0, 16, 15, 19])],
)
def test_computer_player_decides_as_before(players: int, turns: int, score: list[int]) -> None:
    """Self-play figures of the engine-embedded player it replaced: the same decisions."""
    game = Tunge.new({"players": players}, seed=players * 7)
    rng = random.Random(players)
    taken = 0
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))
        taken += 1
    assert (taken, game.summary()["score"]) == (turns, score)
