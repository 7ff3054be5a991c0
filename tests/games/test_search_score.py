"""The hard player's exact endgame compares cards by the hand's score, not by its tricks.

Each world's trick count is scored as the hand is (a contract made or set is a step of many
points), and only then averaged over the worlds: where a card takes fewer tricks on average but
makes the contract more often, the score prefers it.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from games.base import Deal, Move
from games.players import seen_for
from games.registry import all_games
from games.search import dds, hard
from games.search.budget import Budget
from games.search.tricks import best_tricks, card_index
from tests.games.test_search_low import nullo_at_the_forced_ending

GAMES = all_games()
WINNERS = [1, 3, 1, 3, 1, 3, 2, 0, 2, 0, 0]  # of tricks 1-11: team 0 five, seat 0 the last
LEFT = {"S": "23456789TJQKA".replace("7", ""), "H": "234678JQ", "D": "2346789TJQKA"}
LEFT["C"] = "23456789TJKA"  # the cards of tricks 1-11 by suit: all but the ending's


def contract_ending(ending: list[str]) -> Any:
    """A Tarneeb hand, hearts trump, seat 0 declarer at 7, after eleven tricks (each of one
    suit, so no seat has shown a void), with ``ending`` the four hands' last two cards: seat 0
    has five tricks and leads, and needs both tricks left to make its contract."""
    hands = [ending_hand.split() for ending_hand in ending]
    suits = "SSSHHDDDCCC"
    counts = {suit: 0 for suit in "SHDC"}
    plays = []
    leader = 0  # the declarer leads the first trick
    for suit, winner in zip(suits, WINNERS, strict=True):
        start = 4 * counts[suit]
        counts[suit] += 1
        cards = [rank + suit for rank in LEFT[suit][start : start + 4]]
        others = iter(cards[:3])
        held = {seat: cards[3] if seat == winner else next(others) for seat in range(4)}
        plays.append([(seat, held[seat]) for seat in ((leader + k) % 4 for k in range(4))])
        for seat in range(4):
            hands[seat].append(held[seat])
        leader = winner
    game = GAMES["tarneeb"].new(deals=[Deal(tuple(tuple(hand) for hand in hands))], first_dealer=3)
    for seat, move in [
        (0, Move.of("bid", value=7)),
        (1, Move.of("pass")),
        (2, Move.of("pass")),
        (3, Move.of("pass")),
        (0, Move.of("trump", suit="H")),
    ]:
        game.apply(seat, move)
    for trick in plays:
        for seat, card in trick:
            game.apply(seat, Move.of("play", card=card))
    return game


# Seat 0 holds 5D and 9H. Where partner holds AH (MADE), 9H draws it and partner's 5H takes
# the last trick: the contract made; 5D gives up a ruff and one trick. Where seat 1 holds AH
# (SET), 9H loses both tricks; 5D still takes one. By tricks 5D is better (6 against 5.5 on
# average over MADE once and SET three times), but one trick short is set either way, and
# by score 9H is: +7 once against -15 three times, where 5D is -14 every time.
MADE = ["5D 9H", "KH QC", "5H AH", "7S TH"]
SET = ["5D 9H", "AH QC", "7S KH", "5H TH"]
FIVE, NINE = Move.of("play", card="5D"), Move.of("play", card="9H")


def tricks_by_card(game: Any) -> dict[str, int]:
    state = dds.solvable(game)
    assert state is not None
    found = {}
    for card in ("5D", "9H"):
        child = state.copy()
        child.play(card_index(card))
        found[card] = best_tricks(child, 0)
    return found


def test_the_endings_take_the_tricks_described() -> None:
    assert tricks_by_card(contract_ending(MADE)) == {"5D": 6, "9H": 7}
    assert tricks_by_card(contract_ending(SET)) == {"5D": 6, "9H": 5}


@pytest.mark.parametrize("solver", ["dds", "ours"])
def test_the_card_that_can_make_the_contract_beats_the_one_with_more_tricks(
    solver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    worlds = [contract_ending(MADE), *(contract_ending(SET) for _ in range(3))]
    cycle = itertools.cycle(worlds)

    def dealt(*args: Any) -> Any:
        return next(cycle).clone()

    monkeypatch.setattr(hard, "world", dealt)
    monkeypatch.setattr(hard, "repaired_world", dealt)
    seen = seen_for(worlds[0], 0, "hard")
    budget = Budget(worlds=16, min_worlds=16, dds=8 if solver == "dds" else 0)
    assert hard.by_dds(seen, budget) == (solver == "dds")
    values = {
        move: [
            hard.evaluate(world.clone(), seen, move, random.Random(0), budget)[0]
            for world in worlds
        ]
        for move in (FIVE, NINE)
    }
    assert values == {FIVE: [-14.0] * 4, NINE: [7.0, -15.0, -15.0, -15.0]}
    assert hard.choose(seen, random.Random(1), budget) == NINE


def test_dds_values_are_the_hands_score() -> None:
    made, lost = contract_ending(MADE), contract_ending(SET)
    seen = seen_for(made, 0, "hard")
    assert hard.dds_values(made, seen, [FIVE, NINE]) == {FIVE: -14.0, NINE: 7.0}
    assert hard.dds_values(lost, seen, [FIVE, NINE]) == {FIVE: -14.0, NINE: -15.0}


def test_a_low_hands_seventh_trick_is_a_step() -> None:
    """Norwegian Whist's nullo (pagat): the side with more tricks loses one point per trick
    over six, so from six tricks to seven the seat's value falls by two, elsewhere by one."""
    game = nullo_at_the_forced_ending()
    assert [hard.solved_value(game, 0, taken) for taken in (5, 6, 7, 8)] == [2.0, 1.0, -1.0, -2.0]
