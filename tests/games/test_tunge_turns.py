"""Tunge's turns: drawing, passing, forced pick-ups, repetition, scoring, options and deals,
typed refusals and the events a deal and a match end with."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.base import (
    AgainstRules,
    Deal,
    DealError,
    IllegalMove,
    Malformed,
    Move,
    NotYourTurn,
    OptionError,
)
from games.cards import display
from games.levels import choose_move
from games.tunge import HAND_SIZE, Tunge, hand_value
from tests.games.test_tunge import DECK, play, position


# ------------------------------------------------------------------ turns
def test_refusal_messages() -> None:
    game = Tunge.new({"players": 3}, seed=4)
    seat = game.to_act()[0]
    hand = game.state.deal.hands[seat]
    with pytest.raises(IllegalMove, match="can still draw"):
        game.check(seat, Move.of("pass"))
    with pytest.raises(IllegalMove, match="single card can only be played after an ace"):
        game.check(seat, Move.of("play", card=hand[0]))
    with pytest.raises(IllegalMove, match="single card"):
        game.check(seat, play(hand[0]))
    with pytest.raises(IllegalMove, match="same card twice"):
        game.check(seat, play(hand[0], hand[0]))
    other = next(c for c in DECK if c not in hand)
    with pytest.raises(IllegalMove, match=f"do not hold {display(other)}"):
        game.check(seat, play(hand[0], other))
    with pytest.raises(IllegalMove, match="only play a sequence, draw or pass"):
        game.check(seat, Move.of("bid", value=3))
    with pytest.raises(IllegalMove, match="turn"):
        game.check((seat + 1) % 3, Move.of("draw"))


def test_pass_only_when_nothing_to_draw_and_no_play() -> None:
    others = [c for c in DECK if c not in ("2S", "4S")]
    game = position([["2S", "4S"], others[:25], others[25:]], turn=0)
    assert game.legal_moves(0) == [Move.of("pass")]
    with pytest.raises(IllegalMove, match="no card to draw"):
        game.check(0, Move.of("draw"))
    events = game.apply(0, Move.of("pass"))
    assert events[0].kind == "pass"
    assert game.state.deal.turn == 1
    assert Move.of("pass") not in game.legal_moves(1)
    with pytest.raises(IllegalMove, match="legal play, so you cannot pass"):
        game.check(1, Move.of("pass"))


def test_draw_from_pile_in_end_game_is_public() -> None:
    game = position([["2S", "4S"], ["9D", "KC"]], turn=0, rest="pile")
    top = game.state.deal.pile[-1]
    events = game.apply(0, Move.of("draw"))
    assert [e.to for e in events] == [None]
    assert events[0].data["card"] == top
    assert top in game.view(None).known_cards[0]
    assert top not in game.hidden_cards(1)


def test_draw_from_stock_is_private() -> None:
    game = Tunge.new({"players": 2}, seed=9)
    seat = game.to_act()[0]
    top = game.state.deal.stock[-1]
    events = game.apply(seat, Move.of("draw"))
    public = [e for e in events if e.to is None]
    private = [e for e in events if e.to is not None]
    assert all(top not in json.dumps(dict(e.data)) for e in public)
    assert private and private[0].to == frozenset({seat}) and private[0].data["card"] == top
    assert top in game.hidden_cards(None) and top not in game.hidden_cards(seat)


def test_forced_pickup_events_and_end_game_start() -> None:
    """A pick-up that empties the stock takes the rest from the pile and starts the end game."""
    hands = [["5C", "6C"], ["5D", "6D", "KS"]]
    game = position(
        hands, stock=["2H"], turn=1, last_play=("5S", "6S"), pile=["5S", "6S"], rest="pile"
    )
    assert game.reference().ranks == "56"
    events = game.apply(1, play("5D", "6D"))
    kinds = [e.kind for e in events]
    assert kinds == ["sequence_played", "forced_pickup", "forced_pickup", "end_game"]
    public, private = events[1], events[2]
    assert public.to is None and public.data["from_stock"] == 1
    assert public.data["from_pile"] == ["6D"]
    assert "2H" not in json.dumps(dict(public.data)) and "2♥" not in public.text
    assert private.to == frozenset({0}) and private.data["cards"] == ["2H"]
    assert sorted(game.state.deal.hands[0]) == sorted(["5C", "6C", "2H", "6D"])


def test_forced_pickup_ends_turn_option() -> None:
    hands = [["AS", "KD", "9C"], ["AH", "2D", "3S", "4H", "9D"]]
    game = position(hands, turn=0, forced_pickup_ends_turn=True)
    game.apply(0, play("AS", "KD"))
    game.apply(1, play("AH", "2D", "3S", "4H"))
    assert len(game.state.deal.hands[0]) == 2
    assert game.state.deal.turn == 1, "seat 0 picked up and lost his turn"
    normal = position(hands, turn=0)
    normal.apply(0, play("AS", "KD"))
    normal.apply(1, play("AH", "2D", "3S", "4H"))
    assert normal.state.deal.turn == 0


def test_winning_play_still_causes_pickup_before_scoring() -> None:
    hands = [["5C", "6C"], ["5D", "6D", "KS"]]
    game = position(hands, turn=0, last_play=("5S", "6S"))
    game.apply(0, play("5C", "6C"))
    assert game.status == "finished"
    result = game.summary()["deals"][0]["result"]
    assert result["winner"] == 0
    assert len(game.state.deal.hands[1]) == 5
    assert result["points"][0] == 0 and result["points"][1] == hand_value(game.state.deal.hands[1])
    assert game.outcome() is not None and game.outcome().winners == (0,)  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", range(6))
def test_third_repetition_blocks_the_deal(seed: int) -> None:
    """The hashed repetition rule agrees with exact positions (hands, pile, stock, turn)."""
    game = Tunge.new({"players": 2, "variant": "face_up_start"}, seed=seed)
    rng = random.Random(seed)
    seen: dict[Any, int] = {}

    def exact() -> Any:
        return (
            game.state.deal.turn,
            tuple(game.state.deal.pile),
            tuple(game.state.deal.stock),
            tuple(frozenset(hand) for hand in game.state.deal.hands),
        )

    seen[exact()] = 1
    worst = 1
    while game.status == "in_progress":
        assert worst < 3
        seat = game.state.deal.turn
        game.apply(seat, choose_move(game, seat, rng))
        key = exact()
        seen[key] = seen.get(key, 0) + 1
        worst = max(worst, seen[key])
    result = game.summary()["deals"][0]["result"]
    assert (result["blocked"] == "repetition") == (worst == 3 and result["winner"] is None)


def test_scoring_values() -> None:
    """T7: hands AS KD 7C 2H and TS JH QD are each worth 30."""
    assert hand_value(["AS", "KD", "7C", "2H"]) == 30
    assert hand_value(["TS", "JH", "QD"]) == 30


# ------------------------------------------------------------------ options and deals
def test_options() -> None:
    assert Tunge.validate_options({})["players"] == 4
    for bad in (
        {"players": 1},
        {"players": 5},
        {"variant": "odd"},
        {"turn_limit": 0},
        {"match_target": -1},
        {"pickup_count": "all"},
    ):
        with pytest.raises(OptionError, match=next(iter(bad))):
            Tunge.new(bad)
    with pytest.raises(OptionError, match="match_target"):
        Tunge.new({"scoring": False, "match_target": 100})
    for players, stock in ((2, 28), (3, 16), (4, 4)):
        game = Tunge.new({"players": players}, seed=1)
        assert len(game.state.deal.stock) == stock
        assert all(len(hand) == HAND_SIZE for hand in game.state.deal.hands)
        face_up = Tunge.new({"players": players, "variant": "face_up_start"}, seed=1)
        assert not face_up.state.deal.stock and face_up.state.deal.pile == list(
            face_up.deals[0].stock
        )


def test_bad_deals_are_refused() -> None:
    good = Tunge.new({"players": 2}, seed=3).deals[0]
    with pytest.raises(DealError):
        Tunge.new({"players": 3}, deals=[good])
    short = Deal((good.hands[0][:11], good.hands[1]), (good.hands[0][11], *good.stock))
    with pytest.raises(DealError):
        Tunge.new({"players": 2}, deals=[short])
    with pytest.raises(DealError):
        Tunge.new({"players": 2}, deals=[good], first_dealer=2)


def test_seeded_deals_follow_the_dealing_order() -> None:
    game = Tunge.new({"players": 3}, seed=11, first_dealer=1)
    deal = game.deals[0]
    assert game.state.deal.turn == 2
    assert len(deal.stock) == 16 and game.state.deal.stock[-1] == deal.stock[0]


def test_unseeded_match_waits_for_deals() -> None:
    game = Tunge.new({"players": 2, "match_target": 1000})
    assert game.status == "awaiting_deal"
    with pytest.raises(IllegalMove, match="not been dealt"):
        game.check(1, Move.of("draw"))
    game.add_deal(Tunge.new({"players": 2}, seed=5).deals[0])
    assert game.status == "in_progress" and game.to_act() == (1,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_match_to_a_target(players: int) -> None:
    game = Tunge.new({"players": players, "match_target": 60, "turn_limit": 150}, seed=players)
    rng = random.Random(players)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))
    summary = game.summary()
    totals = [0] * players
    for deal in summary["deals"]:
        totals = [t + p for t, p in zip(totals, deal["result"]["points"], strict=True)]
        assert deal["score_after"] == totals
    assert summary["score"] == totals and max(totals) >= 60
    assert all(max(d["score_after"]) < 60 for d in summary["deals"][:-1])
    outcome = game.outcome()
    assert outcome is not None
    assert set(outcome.winners) == {s for s in range(players) if totals[s] == min(totals)}
    dealers = [deal_index % players for deal_index in range(len(summary["deals"]))]
    assert dealers == [(0 + i) % players for i in range(len(summary["deals"]))]


def test_scoring_off() -> None:
    game = Tunge.new({"players": 2, "scoring": False, "turn_limit": 40}, seed=2)
    rng = random.Random(2)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    result = game.summary()["deals"][0]["result"]
    assert game.summary()["score"] == [0, 0]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == (() if result["winner"] is None else (result["winner"],))


# ------------------------------------------------------------------ the one check pattern
def test_refusals_are_typed_with_codes() -> None:
    game = Tunge.new({"players": 3}, seed=4)
    seat = game.to_act()[0]
    hand = game.state.deal.hands[seat]
    other = next(c for c in DECK if c not in hand)
    cases: list[tuple[int, Move, type[IllegalMove], str]] = [
        ((seat + 1) % 3, Move.of("draw"), NotYourTurn, "not_your_turn"),
        (seat, Move.of("bid", value=3), Malformed, "unknown_action"),
        (seat, Move.of("draw", x=1), Malformed, "no_details"),
        (seat, play(hand[0], hand[0]), Malformed, "card_twice"),
        (seat, play(hand[0], "ZZ"), Malformed, "not_a_card"),
        (seat, Move.of("play"), Malformed, "no_cards"),
        (seat, play(hand[0], other), AgainstRules, "card_not_held"),
        (seat, Move.of("play", card=hand[0]), AgainstRules, "single_card"),
        (seat, Move.of("pass"), AgainstRules, "can_draw"),
    ]
    for who, move, kind, code in cases:
        with pytest.raises(kind) as refusal:
            game.check(who, move)
        assert refusal.value.code == code, move
    with pytest.raises(NotYourTurn) as refusal:
        game.check((seat + 1) % 3, Move.of("draw"))
    assert refusal.value.params == {"seat": seat}


def test_grammar_and_restriction_refusals_carry_their_reason() -> None:
    hand = ["5S", "5D", "6H", "7D", "8S", "9C"]
    game = position([[], hand], pile=["QH", "JD", "JS", "7C", "8H", "9S"], turn=1, rest="pile")
    with pytest.raises(AgainstRules) as refusal:
        game.check(1, play("5S", "5D", "6H"))
    assert refusal.value.code == "mixed" and refusal.value.params == {}
    with pytest.raises(AgainstRules) as refusal:
        game.check(1, play("7D", "8S", "9C"))
    assert refusal.value.code == "repeats_sequence"
    assert refusal.value.params == {"reference": "7-8-9"}
    assert str(refusal.value) == "That repeats the last sequence 7-8-9."


def test_normalise_maps_any_suits_to_the_listed_play() -> None:
    game = position([["5S", "5H", "6D", "6C", "9H"], ["KD"]], turn=0)
    listed = game.normalise(0, play("5H", "6C"))
    assert listed == play("5S", "6D") and listed in game.legal_moves(0)
    assert game.normalise(0, play("6C", "5H")) == play("6D", "5S")
    assert game.normalise(0, play("5H", "9H")) == play("5H", "9H"), "illegal: unchanged"
    assert game.normalise(0, play("5H", "KD")) == play("5H", "KD"), "not held: unchanged"
    game.apply(0, play("5H", "6C"))
    assert game.state.deal.pile[-2:] == ["5H", "6C"], "the cards given are the cards played"
    assert sorted(game.state.deal.hands[0]) == ["5S", "6D", "9H"]


# ------------------------------------------------------------------ events, results
def test_history_marks_deal_results_and_game_over() -> None:
    game = Tunge.new({"players": 2, "match_target": 40, "turn_limit": 60}, seed=3)
    rng = random.Random(3)
    kinds: dict[str, set[bool]] = {}
    while game.status == "in_progress":
        seat = game.to_act()[0]
        for event in game.apply(seat, rng.choice(game.legal_moves(seat))):
            kinds.setdefault(event.kind, set()).add(event.history)
    expected = {"deal_won", "deal_blocked", "hand_scored", "game_over"}
    assert {"hand_scored", "game_over"} <= set(kinds)
    for kind, flags in kinds.items():
        assert flags == {kind in expected}, kind


def test_a_blocked_single_deal_has_no_winner() -> None:
    """D.1.10: a blocked deal has no winner, so neither has a one-deal game ending blocked."""
    game = Tunge.new({"players": 3, "turn_limit": 3}, seed=5)
    events = []
    while game.status == "in_progress":
        seat = game.to_act()[0]
        events = game.apply(seat, Move.of("draw"))
    assert next(e.kind for e in events if e.history) == "deal_blocked"
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == ()
    totals = game.summary()["score"]
    assert outcome.score == tuple(totals) and game.summary()["winner"] is None
    over = events[-1]
    assert over.kind == "game_over" and over.data["winners"] == []
    ranked = [seat for place in over.data["ranking"] for seat in place]
    assert [totals[seat] for seat in ranked] == sorted(totals)
    assert "without a winner" in over.text


def test_a_match_ending_in_a_blocked_deal_is_won_by_the_lowest_total() -> None:
    game = Tunge.new({"players": 2, "turn_limit": 2, "match_target": 1}, seed=5)
    while game.status == "in_progress":
        game.apply(game.to_act()[0], Move.of("draw"))
    totals = game.summary()["score"]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == tuple(s for s in range(2) if totals[s] == min(totals))
