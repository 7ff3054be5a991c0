"""The shared trick vocabulary: follow suit, the trick's winner, records in the summary's shape."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from games.base import Move
from games.cards import make_deck
from games.tricks import (
    PLAY,
    HandRecord,
    TrickRecord,
    deal_round,
    is_legal_play,
    led_suit,
    play_moves,
    play_problem,
    playable,
    sort_hand,
    strength_table,
    trick_winner,
    winning_so_far,
)

ACE_HIGH = strength_table("23456789TJQKA")
ACE_LOW = strength_table("A23456789TJQK")
DECK = make_deck()


def test_strength_table_orders_ranks_within_each_suit() -> None:
    assert ACE_HIGH["AS"] > ACE_HIGH["KS"] > ACE_HIGH["2S"]
    assert ACE_LOW["AS"] < ACE_LOW["2S"]
    assert len(ACE_HIGH) == 52


def test_following_suit() -> None:
    hand = ["AS", "2H", "KH", "3C"]
    assert playable(hand, []) is hand
    assert list(playable(hand, [(1, "5H")])) == ["2H", "KH"]
    assert playable(hand, [(1, "5D")]) is hand
    assert led_suit([(1, "5D"), (2, "AS")]) == "D"
    assert led_suit([]) is None


def test_play_problems_name_the_rule() -> None:
    hand = ["AS", "2H"]
    assert play_problem(hand, [], "KD") == "not_in_hand"
    assert play_problem(hand, [(0, "5H")], "AS") == "must_follow"
    assert play_problem(hand, [(0, "5H")], "2H") is None
    assert play_problem(hand, [(0, "5D")], "AS") is None


def test_trick_winner_trump_beats_the_suit_led() -> None:
    trick = [(0, "TH"), (1, "AH"), (2, "2S"), (3, "KD")]
    assert trick_winner(trick, None, ACE_HIGH) == 1
    assert trick_winner(trick, "NT", ACE_HIGH) == 1
    assert trick_winner(trick, "S", ACE_HIGH) == 2
    assert trick_winner(trick, "D", ACE_HIGH) == 3
    assert trick_winner(trick, None, ACE_LOW) == 0
    assert trick_winner([(2, "2S"), (3, "3S")], "S", ACE_HIGH) == 3


def test_who_wins_so_far_is_told_only_as_far_as_the_viewer_knows_the_trump() -> None:
    assert winning_so_far([], "S", ACE_HIGH) is None, "no trick, no winner"
    followed = [(0, "TH"), (1, "AH")]
    off_suit = [(0, "TH"), (1, "AH"), (2, "2S")]
    assert winning_so_far(off_suit, "S", ACE_HIGH) == 2
    assert winning_so_far(followed, "S", ACE_HIGH, trump_known=False) == 1
    assert winning_so_far(off_suit, "S", ACE_HIGH, trump_known=False) is None, (
        "the 2♠ wins only if spades are trump, which this viewer does not know"
    )


@given(st.randoms(use_true_random=False), st.sampled_from([None, "NT", "S", "H", "D", "C"]))
def test_trick_winner_agrees_with_a_plain_reading(rng: random.Random, trump: str | None) -> None:
    """The winner is the strongest trump if any was played, else the strongest card led."""
    cards = rng.sample(DECK, 4)
    trick = list(zip([3, 0, 1, 2], cards, strict=True))
    trumps = [(s, c) for s, c in trick if c[1] == trump]
    pool = trumps or [(s, c) for s, c in trick if c[1] == cards[0][1]]
    expected = max(pool, key=lambda play: ACE_HIGH[play[1]])[0]
    assert trick_winner(trick, trump, ACE_HIGH) == expected


def test_deal_round_starts_left_of_the_dealer() -> None:
    deal = deal_round(DECK, 4, first=1)
    assert deal.hands[1][:2] == (DECK[0], DECK[4])
    assert deal.hands[0][0] == DECK[3]
    assert sorted(card for hand in deal.hands for card in hand) == sorted(DECK)
    assert deal.stock == ()


def test_sort_hand_and_play_moves() -> None:
    assert sort_hand(["2S", "AH", "AS"], "SHDC", ACE_HIGH) == ["AS", "2S", "AH"]
    assert PLAY["JS"].get("card") == "JS"


@given(
    hand=st.lists(st.sampled_from(DECK), unique=True, max_size=13),
    suit_order=st.permutations("SHDC").map("".join),
    order=st.sampled_from(["23456789TJQKA", "A23456789TJQK", "789TJQKA", "TAQ9KJ"]),
    fresh=st.booleans(),
)
def test_a_sorted_hand_goes_by_suit_then_strongest_first(
    hand: list[str], suit_order: str, order: str, fresh: bool
) -> None:
    """The same order as comparing the cards one by one, for the games' tables and for tables
    made on the fly (the places are kept per table)."""
    shared = {"23456789TJQKA": ACE_HIGH, "A23456789TJQK": ACE_LOW}
    strength = shared[order] if order in shared and not fresh else strength_table(order)
    hand = [card for card in hand if card in strength]
    expected = sorted(hand, key=lambda card: (suit_order.index(card[1]), -strength[card]))
    assert sort_hand(hand, suit_order, strength) == expected


def test_records_give_the_summary_shape() -> None:
    full = TrickRecord.of([(1, "2S"), (2, "AS"), (3, "KS"), (0, "QS")], winner=2)
    short = TrickRecord.of([(1, "2S"), (2, "AS"), (0, "QS")], winner=2, points=11)
    assert full.to_json(4) == {"leader": 1, "cards": ["2S", "AS", "KS", "QS"], "winner": 2}
    assert short.to_json(4)["seats"] == [1, 2, 0]
    assert short.last_trick() == {
        "cards": [[1, "2S"], [2, "AS"], [0, "QS"]],
        "winner": 2,
        "points": 11,
    }
    assert full.plays[0] == (1, "2S")
    record = HandRecord(dealer=3)
    record.tricks.append(full)
    assert record.to_json(4) == {
        "dealer": 3,
        "tricks": [full.to_json(4)],
        "result": None,
        "score_after": None,
    }
    record.finish({"points": (1, 2), "nested": [{"a": (1,)}]}, [5, 6])
    data = HandRecord(tricks=[], result=record.result).to_json(4)
    assert list(data) == ["tricks", "result", "score_after"]
    assert data["result"] == {"points": [1, 2], "nested": [{"a": [1]}]}
    assert record.to_json(4)["score_after"] == [5, 6]


def test_is_legal_play_agrees_with_play_moves() -> None:
    rng = random.Random(5)
    for _ in range(200):
        cards = rng.sample(DECK, 9)
        hand, led = cards[:6], cards[6:7]
        trick = [(1, led[0])] if rng.random() < 0.7 else []
        legal = play_moves(hand, trick)
        assert [move.get("card") for move in legal] == list(playable(hand, trick))
        for card in DECK:
            assert is_legal_play(PLAY[card], hand, trick) == (PLAY[card] in legal)
    assert not is_legal_play(Move.of("play", card="AS", extra=1), ["AS"], [])
    assert not is_legal_play(Move.of("play", card=7), ["AS"], [])
    assert not is_legal_play(Move.of("pass"), ["AS"], [])
