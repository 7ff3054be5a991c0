"""The low hands (Tuppi's nolo, Norwegian Whist's nullo) solved as what they are.

There each side plays to take the fewest tricks, so the seat's side minimises its tricks and the
other side forces the most on it. That is not the high game negated: in the high game the other
side *keeps* tricks from the seat's side, which in a low hand would be helping it.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bench import hard_today
from games.base import Deal, Move
from games.players import seen_for
from games.players.endgame import _solve, endgame_card
from games.registry import all_games
from games.search import confirm, hard
from games.search.budget import Budget
from games.search.tricks import (
    TrickPlay,
    best_tricks,
    card_index,
    card_name,
    cards_of,
    mask_of,
)


def minimax(state: TrickPlay, team: int, fewest: bool) -> int:
    """Plain minimax without pruning or memory: ``team``'s tricks at the end of the hand,
    ``team`` minimising them (``fewest``) or maximising them, the other side the opposite."""
    legal = cards_of(state.legal())
    if not legal:
        return state.won[team]
    values = []
    for card in legal:
        child = state.copy()
        child.play(card)
        values.append(minimax(child, team, fewest))
    mine = state.turn % 2 == team
    return min(values) if mine == fewest else max(values)


def after(state: TrickPlay, card: str) -> TrickPlay:
    child = state.copy()
    child.play(card_index(card))
    return child


def forced_ending() -> TrickPlay:
    """No trump, seat 0 to lead, two cards each. Led, JS takes a trick whatever seat 0's side
    does: seat 3 ducks with 4S (in a high hand it would cover with AS, and the seat's side
    takes nothing). 3H is safe: seat 1 must win it or, playing AH, let seat 2 drop KH."""
    hands = ["JS 3H", "5H AH", "2H KH", "4S AS"]
    return TrickPlay([mask_of(hand.split()) for hand in hands], [], [0, 1, 2, 3], -1, [0, 0])


def test_a_trick_the_opponents_force_on_the_seat_counts() -> None:
    state = forced_ending()
    low = {card: best_tricks(after(state, card), 0, fewest=True) for card in ("JS", "3H")}
    high = {card: best_tricks(after(state, card), 0) for card in ("JS", "3H")}
    assert low == {"JS": 1, "3H": 0}
    # the negated high count calls JS the safe card: the other way round
    assert high == {"JS": 0, "3H": 1}
    assert min(low, key=low.__getitem__) == "3H" != min(high, key=high.__getitem__)


def test_the_normal_players_count_forces_the_trick_too() -> None:
    hands = {0: ("JS", "3H"), 1: ("5H", "AH"), 2: ("2H", "KH"), 3: ("4S", "AS")}

    def count(card: str, fewest: bool) -> int:
        rest = {**hands, 0: tuple(other for other in hands[0] if other != card)}
        return _solve(rest, ((0, card),), 1, 0, None, fewest)

    assert {card: count(card, True) for card in hands[0]} == {"JS": 1, "3H": 0}
    assert {card: count(card, False) for card in hands[0]} == {"JS": 0, "3H": 1}


def nullo_at_the_forced_ending() -> Any:
    """A Norwegian Whist nullo hand played to :func:`forced_ending`: seat 0 leads (and wins)
    every trick, all following suit but the eleventh, on which seats 1 and 2 show they have
    no spade left. Seat 0 then knows seat 3 holds 4S and AS, and the hearts lie between seats
    1 and 2 (six ways)."""
    hands: list[list[str]] = [["JS", "3H"], ["5H", "AH"], ["2H", "KH"], ["4S", "AS"]]
    tricks = [["3S", "5S", "6S", "7S"], ["8S", "9S", "TS", "QS"]]
    tricks += [["4H", "6H", "7H", "8H"], ["9H", "TH", "JH", "QH"]]
    tricks += [
        [rank + suit for rank in ranks] for suit in "DC" for ranks in ("2345", "6789", "TJQK")
    ]
    plays = [[trick[3], *trick[:3]] for trick in tricks]  # seat 0 plays the highest
    plays.append(["KS", "AD", "AC", "2S"])
    for trick in plays:
        for seat, card in enumerate(trick):
            hands[seat].append(card)
    game = all_games()["norwegian_whist"].new(
        deals=[Deal(tuple(tuple(hand) for hand in hands))], first_dealer=3
    )
    for seat in range(4):
        game.apply(seat, next(m for m in game.legal_moves(seat) if m.get("value") == "nullo"))
    for trick in plays:
        for seat, card in enumerate(trick):
            game.apply(seat, Move.of("play", card=card))
    assert game.hand_type == "nullo" and game.hands[0] == ["JS", "3H"]
    return game


JS, THREE = Move.of("play", card="JS"), Move.of("play", card="3H")


def test_the_normal_player_leads_the_card_no_trick_can_be_forced_on() -> None:
    seen = seen_for(nullo_at_the_forced_ending(), 0, "normal")
    assert endgame_card(seen, JS) == THREE
    assert endgame_card(seen, THREE) == THREE


def test_the_hard_player_and_the_verdict_count_the_forced_trick() -> None:
    seen = seen_for(nullo_at_the_forced_ending(), 0, "hard")
    assert hard.endgame_sign(seen, Budget()) == -1
    assert hard.choose(seen, random.Random(1), Budget(worlds=12, min_worlds=12)) == THREE
    found = confirm.verdict(seen, JS, THREE, False, random.Random(2), worlds=12)
    assert found.mistake and found.gain > 0
    assert not confirm.verdict(seen, THREE, JS, False, random.Random(2), worlds=12).mistake


@st.composite
def low_endings(draw: st.DrawFn) -> TrickPlay:
    """A small no-trump ending (one to three cards a hand, two or three suits so that seats
    must follow and discard), maybe a trick under way, any seat to lead."""
    size = draw(st.integers(1, 3))
    suits = draw(st.integers(2, 3))
    deck = draw(st.permutations([suit * 13 + rank for suit in range(suits) for rank in range(13)]))
    hands = [sum(1 << card for card in deck[seat * size : (seat + 1) * size]) for seat in range(4)]
    leader = draw(st.integers(0, 3))
    won = [draw(st.integers(0, 4)), draw(st.integers(0, 4))]
    state = TrickPlay(hands, [], [(leader + offset) % 4 for offset in range(4)], -1, won)
    for _ in range(draw(st.integers(0, 3))):
        state.play(draw(st.sampled_from(cards_of(state.legal()))))
    return state


@settings(max_examples=80, deadline=None)
@given(low_endings(), st.integers(0, 1))
def test_the_solver_agrees_with_plain_minimax_in_low_hands(state: TrickPlay, team: int) -> None:
    assert best_tricks(state.copy(), team, fewest=True) == minimax(state, team, fewest=True)
    assert best_tricks(state.copy(), team) == minimax(state, team, fewest=False)


@settings(max_examples=60, deadline=None)
@given(low_endings(), st.integers(0, 1))
def test_the_normal_players_count_agrees_with_plain_minimax(state: TrickPlay, team: int) -> None:
    hands = {
        seat: tuple(card_name(card) for card in cards_of(hand))
        for seat, hand in enumerate(state.hands)
    }
    trick = tuple((seat, card_name(card)) for seat, card in state.trick)
    for fewest in (True, False):
        counted = _solve(hands, trick, state.turn, team, None, fewest)
        assert state.won[team] + counted == minimax(state, team, fewest)


def test_the_by_tricks_baselines_count_as_before() -> None:
    """bench's baselines value the endgame as before: the forced trick is not seen."""
    game = nullo_at_the_forced_ending()
    for level in (hard_today.NORMAL_BY_TRICKS, hard_today.HARD_BY_TRICKS):
        assert hard_today.choose_move(game.clone(), 0, random.Random(1), level) == JS
    for level in ("normal", "hard"):  # and the functions swapped in are given back
        assert hard_today.choose_move(game.clone(), 0, random.Random(1), level) == THREE
