"""DDS (games.search.dds) agrees with our own solver, answers only its own question, and the hard
level values its cards with it where the budget says so.

- random endings (at most 12 cards, a trick maybe in progress, any trump or none): for every
  legal card, DDS's count and :func:`best_tricks` are the same;
- the same from the engines' own positions, through :func:`solvable`;
- hand-checked endings of the rules' worked examples (Tarneeb E1, Norwegian Whist N2);
- no answer for the low hands, a sooli hand or Thunee;
- the hard level: one DDS call per world, and the same move as with our solver where both apply.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.levels import choose_move
from games.players import Seen, seen_for
from games.registry import all_games
from games.search import dds, hard
from games.search.budget import Budget
from games.search.tricks import (
    TrickPlay,
    best_tricks,
    card_name,
    cards_of,
    from_world,
    mask_of,
)

GAMES = all_games()


def after(state: TrickPlay, card: int) -> TrickPlay:
    child = state.copy()
    child.play(card)
    return child


def assert_agree(state: TrickPlay) -> None:
    """DDS's count after each legal card is our solver's (DDS counts from the trick's start,
    ours the whole hand)."""
    team = state.turn % 2
    tricks = dds.card_tricks(state)
    legal = cards_of(state.legal())
    assert sorted(tricks) == legal
    for card in legal:
        assert state.won[team] + tricks[card] == best_tricks(after(state, card), team)


@st.composite
def endings(draw: st.DrawFn) -> TrickPlay:
    """A random ending: ``size`` cards a seat at the trick's lead (1 to 3), a trump suit or
    none, then 0 to 3 legal cards of the trick played."""
    deck = draw(st.permutations(range(52)))
    size = draw(st.integers(1, 3))
    hands = [sum(1 << card for card in deck[seat * size : (seat + 1) * size]) for seat in range(4)]
    leader = draw(st.integers(0, 3))
    order = [(leader + offset) % 4 for offset in range(4)]
    won = draw(st.integers(0, 13 - size))
    state = TrickPlay(hands, [], order, draw(st.integers(-1, 3)), [won, 13 - size - won])
    for _ in range(draw(st.integers(0, 3))):
        legal = cards_of(state.legal())
        state.play(legal[draw(st.integers(0, len(legal) - 1))])
    return state


@settings(max_examples=300, deadline=None)
@given(endings())
def test_dds_and_our_solver_agree_on_random_endings(state: TrickPlay) -> None:
    assert_agree(state)


def engine_positions(name: str, seed: int, options: dict[str, Any] | None = None) -> Any:
    """Every card-play position of a seeded hand of ``name`` with at most 12 cards left."""
    game = GAMES[name].new(options, seed=seed)
    rng = random.Random(seed)
    while game.status == "in_progress":
        state = from_world(game)
        if state is not None and sum(hand.bit_count() for hand in state.hands) <= 12:
            yield game
        seat = game.to_act()[0]
        events = game.apply(seat, rng.choice(game.legal_moves(seat)))
        if any(event.kind == "hand_scored" for event in events):
            return


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("tarneeb", {}),
        ("tarneeb", {"allow_no_trump": True, "trump_declaration": "first_lead"}),
        ("tarneeb_egyptian", {}),
        ("tuppi", {}),
        ("norwegian_whist", {}),
    ],
)
def test_dds_and_our_solver_agree_on_the_engines_positions(
    name: str, options: dict[str, Any]
) -> None:
    solved = 0
    for seed in range(40):
        for game in engine_positions(name, seed, options):
            state = dds.solvable(game)
            if state is None:
                assert getattr(game, "hand_type", None) in ("nolo", "nullo", "sooli")
                continue
            assert_agree(state)
            solved += 1
    assert solved > 50


def ending(hands: list[str], leader: int, trump: int, won: list[int]) -> TrickPlay:
    return TrickPlay(
        [mask_of(hand.split()) for hand in hands],
        [],
        [(leader + offset) % 4 for offset in range(4)],
        trump,
        won,
    )


def by_card(state: TrickPlay) -> dict[str, int]:
    team = state.turn % 2
    tricks = dds.card_tricks(state)
    return {card_name(card): state.won[team] + count for card, count in tricks.items()}


def test_tarneebs_worked_hand_ends_as_counted_by_hand() -> None:
    """Tarneeb E1 after trick 10 (clubs trump, seat 1 to lead, team B 6 tricks): AC or KC
    draws seat 0's two clubs and TC takes the last trick (9); TC first loses to QC (8)."""
    state = ending(["JC QC 4S", "AC KC TC", "4C 7H 8S", "3C 7C QH"], 1, 3, [4, 6])
    assert by_card(state) == {"AC": 9, "KC": 9, "TC": 8}
    assert_agree(state)


def test_norwegian_whists_worked_hand_ends_as_counted_by_hand() -> None:
    """Norwegian Whist N2 after trick 10 (no trump, seat 2 to lead, team A 7 tricks): 8C
    wins and TH then makes seat 3 lead diamonds into QD (9); TH at once loses two tricks to
    seat 3 (8); 8S gives seat 1 all three spade tricks (7)."""
    state = ending(["6D QD 8D", "4S 7S 9S", "TH 8S 8C", "JH JD TD"], 2, -1, [7, 3])
    assert by_card(state) == {"8C": 9, "TH": 8, "8S": 7}
    assert_agree(state)


def hand_of(name: str, options: dict[str, Any], wanted: str) -> Any:
    """A game of ``name`` in the card play of a ``wanted`` hand (seeds tried in turn)."""
    for seed in range(200):
        for game in engine_positions(name, seed, options):
            if getattr(game, "hand_type", None) == wanted:
                return game
            break
    pytest.fail(f"no {wanted} hand")


@pytest.mark.parametrize(
    ("name", "options", "hand"),
    [
        ("tuppi", {}, "nolo"),
        ("norwegian_whist", {}, "nullo"),
    ],
)
def test_no_answer_where_each_side_wants_fewer_tricks(
    name: str, options: dict[str, Any], hand: str
) -> None:
    game = hand_of(name, options, hand)
    assert from_world(game) is not None  # our solver models it; DDS's game it is not
    assert dds.solvable(game) is None
    seen = seen_for(game, game.to_act()[0], "hard")
    assert not hard.by_dds(seen, Budget(dds=52))
    assert hard.endgame_sign(seen, Budget()) == -1


def test_no_answer_for_a_sooli_hand_or_thunee() -> None:
    found = False
    for seed in range(300):
        game = GAMES["tuppi"].new(seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress" and game.phase != "tricks":  # type: ignore[attr-defined]
            seat = game.to_act()[0]
            legal = game.legal_moves(seat)
            sooli = [move for move in legal if move.action == "sooli"]
            game.apply(seat, sooli[0] if sooli else rng.choice(legal))
        if getattr(game, "hand_type", None) == "sooli":
            found = True
            assert dds.solvable(game) is None
            assert not hard.by_dds(seen_for(game, game.to_act()[0], "hard"), Budget(dds=52))
            break
    assert found
    thunee = GAMES["thunee"].new({"players": 4}, seed=1)
    while thunee.status == "in_progress" and thunee.phase != "play":  # type: ignore[attr-defined]
        seat = thunee.to_act()[0]
        thunee.apply(seat, choose_move(thunee, seat, random.Random(seat)))
    assert dds.solvable(thunee) is None


def test_calls_from_many_threads_get_their_own_answers() -> None:
    """DDS solves in one working memory per process: the lock keeps concurrent calls apart."""
    states = [after_cards(seed) for seed in range(8)]
    expected = [dds.card_tricks(state) for state in states]
    results: dict[int, list[dict[int, int]]] = {}

    def solve(index: int) -> None:
        results[index] = [dds.card_tricks(state) for state in states * 5]

    threads = [threading.Thread(target=solve, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found == expected * 5 for found in results.values())
    assert dds.cards_tricks(states) == expected


def after_cards(seed: int) -> TrickPlay:
    """A Tarneeb position with 24 cards left, seeded."""
    game = GAMES["tarneeb"].new(seed=seed)
    rng = random.Random(seed)
    while True:
        state = from_world(game)
        if state is not None and sum(hand.bit_count() for hand in state.hands) == 24:
            return state
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))


def hard_decisions(name: str, left: int, count: int) -> list[Seen]:
    """Card decisions with a choice at ``left`` cards or fewer in seeded hands of ``name``."""
    found = []
    for seed in range(40):
        for game in engine_positions(name, seed) if left <= 12 else deeper(name, seed, left):
            seat = game.to_act()[0]
            if len(game.legal_moves(seat)) > 1 and dds.solvable(game) is not None:
                found.append(seen_for(game, seat, "hard"))
                break
        if len(found) == count:
            break
    return found


def deeper(name: str, seed: int, left: int) -> Any:
    game = GAMES[name].new(seed=seed)
    rng = random.Random(seed)
    while game.status == "in_progress":
        state = from_world(game)
        if state is not None and sum(hand.bit_count() for hand in state.hands) <= left:
            yield game
            return
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))


@pytest.mark.parametrize("name", ["tarneeb", "norwegian_whist"])
def test_the_hard_level_asks_dds_once_per_world(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """From the switch point on, every world is one DDS call and no playout or own solve."""
    calls: list[TrickPlay] = []
    solve = dds.card_tricks

    def counted(state: TrickPlay) -> dict[int, int]:
        calls.append(state)
        return solve(state)

    def no_playout(*args: Any) -> Any:
        raise AssertionError("a playout or our solver where DDS should value the cards")

    monkeypatch.setattr(dds, "card_tricks", counted)
    monkeypatch.setattr(hard, "evaluate", no_playout)
    budget = Budget(worlds=6, min_worlds=6, dds=28)
    for seen in hard_decisions(name, 28, 3):
        calls.clear()
        assert hard.choose(seen, random.Random(1), budget) in seen.legal
        assert len(calls) == 6
    # above the switch point the playouts value the cards, as before
    monkeypatch.undo()
    for seen in hard_decisions(name, 28, 1):
        assert not hard.by_dds(seen, Budget(dds=24))


@pytest.mark.parametrize("name", ["tarneeb", "tuppi"])
def test_dds_and_our_solver_choose_the_same_card(name: str) -> None:
    """Where both solve exactly, the hard level's card is the same by either."""
    compared = 0
    for seen in hard_decisions(name, 12, 6):
        with_dds = hard.choose(seen, random.Random(3), Budget(worlds=8, dds=12))
        assert with_dds == hard.choose(seen, random.Random(3), Budget(worlds=8, dds=0))
        compared += 1
    assert compared >= 4
