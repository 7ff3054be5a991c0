"""Properties every registered game must have, checked over random seeds and random legal play.

A game module that registers itself is covered here without writing a line: legal moves are
accepted, moves of the right shape that are not legal are refused with the game unchanged, views
and events never show a card their reader may not know, a seeded game records deals that replay
to the same result, and every game ends.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from games.base import Event, Game, IllegalMove, Move
from games.cards import display, make_deck
from games.registry import all_games
from games.transcript import replay

GAMES = all_games()
MAX_MOVES = 20_000
PROBE_EVERY_MOVE = 300  # then every PROBE_STRIDE-th move: a snapshot costs the game's length
PROBE_STRIDE = 20
ALL_CARDS = make_deck()


def snapshot(game: Game) -> str:
    """Everything observable about a game, to prove a refused move changed nothing."""
    seats: list[int | None] = [None, *range(game.players)]
    return json.dumps(
        {
            "views": [game.view(seat) for seat in seats],
            "summary": game.summary(),
            "status": game.status,
            "to_act": game.to_act(),
        },
        sort_keys=True,
        default=str,
    )


def leaked(data: Any, hidden: set[str]) -> set[str]:
    """Hidden cards that appear in ``data`` (as a JSON card string or in people's notation)."""
    text = json.dumps(data, default=str, ensure_ascii=False)
    found = {card for card in hidden if f'"{card}"' in text or display(card) in text}
    # "10♥" must not match inside a longer token such as "110♥": re-check display hits.
    return {
        card
        for card in found
        if f'"{card}"' in text or re.search(rf"(?<![0-9A-Z]){re.escape(display(card))}", text)
    }


def candidate_moves(game: Game, seat: int) -> set[Move]:
    """Moves of the right shape: every seat's legal moves, and a play of each card."""
    moves = {move for other in range(game.players) for move in game.legal_moves(other)}
    moves.update(Move.of("play", card=card) for card in ALL_CARDS)
    moves.update({Move.of("pass"), Move.of("play", card="ZZ"), Move.of("nonsense")})
    return moves


def check_event_secrecy(
    game: Game, events: list[Event], move: Move, hidden_before: dict[int | None, set[str]]
) -> None:
    """No event shows its readers a card that stayed hidden from them through the move.

    A card hidden before and after the move (other than the move's own cards) must not appear;
    comparing with both states lets a move reveal cards (trump shown) and end a deal whose next
    deal hands the played cards out again.
    """
    played = {move.get("card")} | set(move.get("cards") or ())
    for event in events:
        readers: list[int | None] = [None] if event.to is None else sorted(event.to)
        for reader in readers:
            hidden = (hidden_before[reader] & game.hidden_cards(reader)) - played
            shown = leaked({"text": event.text, "data": dict(event.data)}, hidden)
            assert not shown, f"event {event.kind} shows {shown} to {reader}"


def play_random_game(game: Game, rng: random.Random, *, probe: bool) -> list[tuple[int, Move]]:
    moves: list[tuple[int, Move]] = []
    while game.status == "in_progress":
        assert len(moves) < MAX_MOVES, "the game did not end"
        acting = game.to_act()
        assert acting, "a game in progress must have a seat to act"
        seat = rng.choice(acting)
        legal = game.legal_moves(seat)
        assert legal, f"seat {seat} is to act but has no legal move"
        probing = probe and (len(moves) < PROBE_EVERY_MOVE or len(moves) % PROBE_STRIDE == 0)
        if probing:
            before = snapshot(game)
            for move in candidate_moves(game, seat):
                if move in legal:
                    game.check(seat, move)
                else:
                    with pytest.raises(IllegalMove) as refusal:
                        game.apply(seat, move)
                    assert str(refusal.value).strip(), "a refusal must say why"
            assert snapshot(game) == before, "a refused move changed the game"
            for viewer in [None, *range(game.players)]:
                shown = leaked(game.view(viewer), game.hidden_cards(viewer))
                assert not shown, f"the view of {viewer} shows hidden cards {shown}"
        move = rng.choice(legal)
        hidden_before = (
            {viewer: game.hidden_cards(viewer) for viewer in [None, *range(game.players)]}
            if probe
            else {}
        )
        events = game.apply(seat, move)
        if probe:
            check_event_secrecy(game, events, move, hidden_before)
        moves.append((seat, move))
    return moves


GAME_NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_play(name: str, seed: int) -> None:
    """Legal ⇔ accepted, refusals leave no trace, nothing leaks, and the game ends."""
    game = GAMES[name].new(seed=seed)
    play_random_game(game, random.Random(seed), probe=True)
    assert game.status == "finished"
    outcome = game.outcome()
    assert outcome is not None
    assert all(0 <= seat < game.players for seat in outcome.winners)


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_recorded_game_replays_identically(name: str, seed: int) -> None:
    """A seeded game's recorded deals and moves form a transcript that replays to the same end."""
    game_class = GAMES[name]
    game = game_class.new(seed=seed)
    moves = play_random_game(game, random.Random(seed), probe=False)
    transcript = {
        "format": 1,
        "game": name,
        "options": {},
        "first_dealer": game.first_dealer,
        "deals": [deal.to_json() for deal in game.deals],
        "moves": [{"seat": seat, **move.to_json()} for seat, move in moves],
    }
    output = replay(json.loads(json.dumps(transcript)))
    assert output["status"] == "finished"
    assert output["deals"] == json.loads(json.dumps(game.summary()["deals"]))
    assert output["score"] == json.loads(json.dumps(game.summary()["score"]))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_clone_is_independent(name: str) -> None:
    game = GAMES[name].new(seed=7)
    before = snapshot(game)
    copy = game.clone()
    seat = copy.to_act()[0]
    copy.apply(seat, copy.legal_moves(seat)[0])
    assert snapshot(game) == before
    assert snapshot(copy) != before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_options_are_validated(name: str) -> None:
    game_class = GAMES[name]
    defaults = game_class.validate_options({})
    assert set(defaults) == {option.name for option in game_class.OPTIONS}
    with pytest.raises(ValueError, match="no_such_option"):
        game_class.new({"no_such_option": 1})
    for option in game_class.OPTIONS:
        wrong: Any = "not a value" if not isinstance(option.default, str) else 12345
        with pytest.raises(ValueError, match=option.name):
            game_class.new({option.name: wrong})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_move_codes_round_trip(name: str) -> None:
    game = GAMES[name].new(seed=3)
    rng = random.Random(3)
    for _ in range(200):
        if game.status != "in_progress":
            break
        seat = game.to_act()[0]
        for move in game.legal_moves(seat):
            assert Move.from_code(move.code) == move
            assert len(move.code) <= 60, "a move code must fit a button id with room to spare"
            assert game.move_label(move).strip()
            assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move
        game.apply(seat, rng.choice(game.legal_moves(seat)))
