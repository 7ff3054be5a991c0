"""Thunee by random and computer play: every option mix finishes, cards are conserved, hidden
cards stay hidden, refusals change nothing and a recorded game replays the same."""

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
from games.thunee import DECK, POINTS, Thunee
from tests.examples import examples
from tests.games.probes import snapshot

# ---------------------------------------------------------------- random play properties
OPTION_STRATEGY = st.fixed_dictionaries(
    {},
    optional={
        option.name: (
            st.sampled_from(option.choices)
            if option.choices is not None
            else st.booleans()
            if isinstance(option.default, bool)
            else st.integers(1, 9)
        )
        for option in Thunee.OPTIONS
        if option.name != "players"
    },
)


def locations(game: Thunee) -> list[str]:
    """Every card of the current deal, wherever it is now."""
    assert game.cur is not None
    found = [c for hand in game.hands for c in hand]
    found += [c for _, c in game.trick]
    found += [c for t in game.records[-1].tricks for c in t.cards] if game.records else []
    found += list(game.set_aside)
    if game.trump_down and game.trump_card is not None:
        found.append(game.trump_card)
    found += [c for hand in game.cur.hands for c in hand[game.received :]]
    return found


def check_state(game: Thunee) -> None:
    if game.cur is not None and game.records and game.phase != "awaiting_deal":
        where = locations(game)
        assert len(where) == 24 and set(where) == set(DECK), "cards not conserved"
    for seat in range(game.players):
        hidden = game.hidden_cards(seat)
        assert not hidden & set(game.hands[seat]) - {game.revealed}
        for other in range(game.players):
            if other != seat:
                assert set(game.hands[other]) - {game.revealed} <= hidden
        if game.trump_down and game.trump_card is not None:
            seen = seat == game.trumper and not game.trump_unseen
            assert (game.trump_card in hidden) is not seen
    public = game.hidden_cards(None)
    assert {c for h in game.hands for c in h} - {game.revealed} <= public
    for viewer in (None, *range(game.players)):
        text = json.dumps(game.view(viewer).to_json(), ensure_ascii=False)
        for c in game.hidden_cards(viewer):
            assert f'"{c}"' not in text and display(c) not in text.replace("1" + display(c), "")


def check_results(game: Thunee) -> None:
    for deal in game.summary()["deals"]:
        result = deal["result"]
        if result is None:
            continue
        balls = result["balls"]
        if result["kind"] == "annulled":
            assert balls == [0, 0]
        else:
            assert sorted(balls)[0] == 0 and max(balls) > 0
        if result["kind"] in ("normal", "double", "khanaak"):
            assert len(deal["tricks"]) == game.total_tricks
            assert sum(result["points"]) == 304
            assert sum(POINTS[c] for t in deal["tricks"] for c in t["cards"]) == 304


WILD = frozenset({"blind", "thunee", "royals", "challenge", "demand_redeal"})


def play(
    game: Thunee, rng: random.Random, *, probe: bool, computer: bool = False, tame: bool = False
) -> int:
    """Random (or computer) play to the end; ``tame`` avoids contracts that end hands early."""
    actions = 0
    while game.status == "in_progress":
        acting = game.to_act()
        assert acting
        seat = rng.choice(acting)
        legal = game.legal_moves(seat)
        if probe:
            before = snapshot(game)
            candidates = {m for s in range(game.players) for m in game.legal_moves(s)}
            candidates |= {Move.of("play", card=c) for c in DECK}
            candidates |= {
                Move.of("pass"),
                Move.of("thunee"),
                Move.of("double"),
                Move.of("jodhi", suit="H"),
                Move.of("call", value=50),
            }
            for move in candidates:
                if move in legal:
                    game.check(seat, move)
                else:
                    with pytest.raises(IllegalMove) as error:
                        game.apply(seat, move)
                    assert str(error.value).strip()
            assert snapshot(game) == before
            check_state(game)
        pool = [m for m in legal if m.action not in WILD] if tame else legal
        move = choose_move(game, seat, rng) if computer else rng.choice(pool or legal)
        assert move in legal
        game.apply(seat, move)
        actions += 1
        assert actions < 5000
    check_results(game)
    return actions


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 4, 6]),
    options=OPTION_STRATEGY,
    tame=st.booleans(),
)
def test_random_play_with_random_options(
    seed: int, players: int, options: dict[str, Any], tame: bool
) -> None:
    options = {**options, "players": players}
    if "balls_to_win" in options:
        options["balls_to_win"] = min(options["balls_to_win"], 4 if tame else 6)
    elif tame:
        options["balls_to_win"] = 3
    game = Thunee.new(options, seed=seed)
    play(game, random.Random(seed), probe=True, tame=tame)
    assert game.status == "finished"
    outcome = game.outcome()
    assert outcome is not None
    assert max(outcome.score) >= game.options["balls_to_win"]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4, 6]), options=OPTION_STRATEGY)
def test_computer_players_finish_games(seed: int, players: int, options: dict[str, Any]) -> None:
    options = {**options, "players": players, "balls_to_win": 4}
    game = Thunee.new(options, seed=seed)
    play(game, random.Random(seed), probe=False, computer=True)
    assert game.status == "finished"


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4, 6]))
def test_replay_of_a_recorded_game(seed: int, players: int) -> None:
    from games.transcript import replay

    game = Thunee.new({"players": players}, seed=seed)
    rng = random.Random(seed)
    moves = []
    while game.status == "in_progress":
        seat = rng.choice(game.to_act())
        move = (
            choose_move(game, seat, rng)
            if rng.random() < 0.7
            else rng.choice(game.legal_moves(seat))
        )
        game.apply(seat, move)
        moves.append({"seat": seat, **move.to_json()})
    transcript = {
        "format": 1,
        "game": "thunee",
        "options": {"players": players},
        "first_dealer": game.first_dealer,
        "deals": [d.to_json() for d in game.deals],
        "moves": moves,
    }
    output = replay(json.loads(json.dumps(transcript)))
    assert output["status"] == "finished"
    assert output["deals"] == json.loads(json.dumps(game.summary()["deals"]))
