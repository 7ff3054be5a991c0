"""Norwegian (Minnesota) Whist: colours, reveal order, one-colour hands, scoring, properties."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import Deal, Event, IllegalMove, Move, OptionError
from games.cards import make_deck
from games.levels import choose_move
from games.registry import get_game
from tests.examples import examples
from tests.games.probes import leaked, probe_moves, views_hide_hidden_cards
from tests.games.test_tuppi import secret_for

Whist = get_game("norwegian_whist")
DECK = sorted(make_deck())


def cards(text: str) -> list[str]:
    return text.split()


RED = cards("AH KH QH JH TH 9H 8H AD KD QD JD TD 9D")


def one_colour_game(options: dict[str, Any] | None = None) -> Any:
    rest = [c for c in make_deck() if c not in RED]
    random.Random(1).shuffle(rest)
    deal = Deal((tuple(RED), tuple(rest[:13]), tuple(rest[13:26]), tuple(rest[26:])))
    return Whist.new(options, deals=[deal], first_dealer=2)


def test_defaults() -> None:
    assert Whist.validate_options({}) == {
        "grand_colour": "black",
        "reveal_from": "dealer_right",
        "scoring": "pagat",
        "target": 13,
        "one_colour_redeal": True,
    }
    with pytest.raises(OptionError, match="scoring"):
        Whist.new({"scoring": "parlett"})


def test_one_colour_hand_may_expose_after_committing() -> None:
    game = one_colour_game()
    assert Move.of("expose") in game.legal_moves(0)
    assert Move.of("expose") not in game.legal_moves(1)
    game.apply(0, Move.of("bid", value="grand"))  # verbal: no black card
    assert 0 in game.to_act()  # may still expose
    events = game.apply(0, Move.of("expose"))
    assert [e.kind for e in events] == ["hand_exposed", "new_deal"]
    assert game.status == "awaiting_deal" and game.dealer == 2
    assert game.summary()["deals"][0]["result"] == {
        "hand": "annulled",
        "exposed_by": 0,
        "points": 0,
    }
    # the committed bid (verbal grand) never appears
    assert "grand" not in json.dumps([e.text for e in events] + [game.summary()])


def test_one_colour_refusals() -> None:
    game = one_colour_game()
    with pytest.raises(IllegalMove, match="Only a hand of one colour"):
        game.check(1, Move.of("expose"))
    with pytest.raises(IllegalMove, match="cannot bid grand verbally"):
        game.check(1, Move.of("bid", value="grand"))
    off = one_colour_game({"one_colour_redeal": False})
    assert off.to_act() == (0, 1, 2, 3)
    assert Move.of("expose") not in off.legal_moves(0)
    assert choose_move(off, 0, random.Random(0)).action == "bid"


def test_computer_exposes_a_one_colour_hand() -> None:
    assert choose_move(one_colour_game(), 0, random.Random(0)) == Move.of("expose")


OPTION_SETS = st.fixed_dictionaries(
    {},
    optional={
        "grand_colour": st.sampled_from(["black", "red"]),
        "reveal_from": st.sampled_from(["dealer_right", "dealer_left"]),
        "scoring": st.sampled_from(["pagat", "wikipedia"]),
        "target": st.integers(3, 20),
        "one_colour_redeal": st.booleans(),
    },
)


def check_reveals(game: Any, seat: int, commits: list[Any], events: list[Event]) -> None:
    """Bids are shown only by the move that completes them, each as it was committed, lows
    first, stopping at the first grand: a bid the rules keep secret is never shown."""
    shown = [event.data for event in events if event.kind == "bid_revealed"]
    assert all(event.to is None for event in events if event.kind == "bid_revealed")
    if not shown:
        return
    assert commits.count(None) == 1 and commits[seat] is None, "shown before all four bid"
    committed = [*commits[:seat], game.commits[seat], *commits[seat + 1 :]]
    assert all((data["value"], data["card"]) == committed[data["seat"]] for data in shown)
    assert len({data["seat"] for data in shown}) == len(shown)
    values = [data["value"] for data in shown]
    assert all(value == game.LOW for value in values[:-1])
    assert values[-1] == game.HIGH or len(shown) == 4


def play(game: Any, rng: random.Random, probe: bool) -> None:
    moves = 0
    while game.status == "in_progress":
        assert moves < 20_000
        moves += 1
        seat = rng.choice(game.to_act())
        legal = game.legal_moves(seat)
        if game.phase in ("bids", "tricks"):
            held = [c for hand in game.hands for c in hand]
            assert sorted(held + game.played) == DECK
        if probe:
            wrong = [Move.of("play", card=c) for c in rng.sample(DECK, 6)]
            wrong += [Move.of("bid", value="grand", card=c) for c in rng.sample(DECK, 4)]
            wrong += [Move.of("bid", value="nullo"), Move.of("expose"), Move.of("pass")]
            probe_moves(game, seat, wrong)
            views_hide_hidden_cards(game)
        commits = list(game.commits)
        score_before = list(game.score)
        hands_before = len(game.records)
        hidden_before = {reader: game.hidden_cards(reader) for reader in [None, *range(4)]}
        own = set(game.hands[seat])
        move = rng.choice(legal)
        events = game.apply(seat, move)
        check_reveals(game, seat, commits, events)
        for event in events:
            if probe:
                for reader in [None] if event.to is None else sorted(event.to):
                    assert not leaked(
                        {"t": event.text, "d": dict(event.data)},
                        secret_for(game, reader, hands_before, hidden_before, own, move),
                    )
        for event in events:
            if event.kind == "hand_scored":
                result = event.data["result"]
                changed = [i for i in range(2) if game.score[i] != score_before[i]]
                assert changed == [result["team"]]
                limit = 7 if game.options["scoring"] == "pagat" else 14
                assert 1 <= abs(result["points"]) <= limit


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=OPTION_SETS)
def test_random_play_with_options(seed: int, options: dict[str, Any]) -> None:
    game = Whist.new(options, seed=seed)
    play(game, random.Random(seed), probe=False)
    assert game.status == "finished"
    assert max(game.score) >= game.options["target"]


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=OPTION_SETS)
def test_probed_play(seed: int, options: dict[str, Any]) -> None:
    game = Whist.new({**options, "target": 4}, seed=seed)
    play(game, random.Random(seed), probe=True)


def test_computer_players_finish_games() -> None:
    for seed in range(4):
        game = Whist.new({"scoring": "wikipedia"} if seed % 2 else {}, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = rng.choice(game.to_act())
            game.apply(seat, choose_move(game, seat, rng))
        assert game.outcome() is not None
