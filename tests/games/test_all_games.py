"""Properties every registered game must have, checked over random seeds and random legal play.

A game module that registers itself is covered here without writing a line: legal moves are
accepted, moves of the right shape that are not legal are refused with the game unchanged, views
and events never show a card their reader may not know, a seeded game records deals that replay
to the same result, and every game ends.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from games.base import Event, Game, IllegalMove, Malformed, Move, NotYourTurn
from games.presets import preset, presets_for
from games.registry import all_games
from games.state import untyped_attributes
from games.transcript import replay
from tests.examples import examples
from tests.games.probes import candidate_moves, check_refusal, leaked, snapshot

GAMES = all_games()
MAX_MOVES = 20_000
PROBE_EVERY_MOVE = 150  # then every PROBE_STRIDE-th move
PROBE_STRIDE = 40


def deal_count(game: Game) -> int:
    return len(game.deals)


def check_event_secrecy(
    game: Game,
    events: list[Event],
    move: Move,
    hidden_before: dict[int | None, frozenset[str]],
    *,
    new_deal: bool = False,
    own_cards: frozenset[str] = frozenset(),
) -> None:
    """No event shows its readers a card that stayed hidden from them through the move.

    A card hidden before and after the move (other than the move's own cards) must not appear;
    comparing with both states lets a move reveal cards (trump shown) and end a deal whose next
    deal hands the played cards out again. A move that ends a deal (``new_deal``: the next one is
    dealt inside the same apply) is checked against the finished deal alone: the cards hidden
    before it, less the mover's own hand (``own_cards``), which such a move may show (an exposed
    hand); the new deal's cards are a different deal.
    """
    played = {move.get("card")} | set(move.get("cards") or ())
    hidden_after: dict[int | None, set[str]] = {}
    for event in events:
        readers: list[int | None] = [None] if event.to is None else sorted(event.to)
        for reader in readers:
            if new_deal:
                hidden = hidden_before[reader] - played - own_cards
            else:
                if reader not in hidden_after:
                    hidden_after[reader] = game.hidden_cards(reader)
                hidden = (hidden_before[reader] & hidden_after[reader]) - played
            shown = leaked({"text": event.text, "data": dict(event.data)}, hidden)
            assert not shown, f"event {event.kind} shows {shown} to {reader}"


def own_hand(game: Game, seat: int) -> frozenset[str]:
    return frozenset(game.view(seat).hand or ())


def play_random_game(game: Game, rng: random.Random, *, probe: bool) -> list[tuple[int, Move]]:
    moves: list[tuple[int, Move]] = []
    viewers: list[int | None] = [None, *range(game.players)]
    while game.status == "in_progress":
        assert len(moves) < MAX_MOVES, "the game did not end"
        acting = game.to_act()
        assert acting, "a game in progress must have a seat to act"
        seat = rng.choice(acting)
        legal = game.legal_moves(seat)
        assert legal, f"seat {seat} is to act but has no legal move"
        probing = probe and (len(moves) < PROBE_EVERY_MOVE or len(moves) % PROBE_STRIDE == 0)
        hidden: dict[int | None, frozenset[str]] = {}
        own = frozenset[str]()
        if probing:
            before = snapshot(game)
            for move in candidate_moves(game, seat):
                if move in legal:
                    game.check(seat, move)
                else:
                    try:
                        game.apply(seat, move)
                    except IllegalMove as refusal:
                        check_refusal(refusal)
                        assert refusal.code and isinstance(refusal.params, dict)
                    else:
                        pytest.fail(f"{move} was accepted from seat {seat}")
            assert snapshot(game) == before, "a refused move changed the game"
            # The snapshot holds this position's views and hidden cards: read them there.
            views, hidden = before[0], dict(zip(viewers, before[4], strict=True))
            for viewer, view in zip(viewers, views, strict=True):
                shown = leaked(view, hidden[viewer])
                assert not shown, f"the view of {viewer} shows hidden cards {shown}"
            own = frozenset(views[seat + 1].hand or ())
        elif probe:
            hidden = {viewer: frozenset(game.hidden_cards(viewer)) for viewer in viewers}
            own = own_hand(game, seat)
        move = rng.choice(legal)
        deals_before = deal_count(game) if probe else 0
        events = game.apply(seat, move)
        if probe:
            new_deal = deal_count(game) != deals_before
            check_event_secrecy(game, events, move, hidden, new_deal=new_deal, own_cards=own)
        moves.append((seat, move))
    return moves


GAME_NAMES = sorted(GAMES)


def short_options(name: str) -> dict[str, Any]:
    """The game's short match length, where it has presets."""
    return dict(preset(name, "short").options) if presets_for(name) else {}


# Random players rarely reach a target: they play to the games' hand limits, 30 hands of
# Tarneeb, 16 of a short Tuppi. The properties are per move, so the probed matches stop sooner
# (each one still ends, by its limit or its target); full-length matches replay below.
BOUNDS: dict[str, dict[str, Any]] = {
    "tarneeb": {"hand_limit": 10},
    "tarneeb_egyptian": {"hand_limit": 10},
    "tuppi": {"max_hands": 6},
}


def probed_options(name: str) -> dict[str, Any]:
    """The short match length, bounded to a few hands where the game has a hand limit."""
    return {**short_options(name), **BOUNDS.get(name, {})}


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_play(name: str, seed: int) -> None:
    """Legal ⇔ accepted, refusals leave no trace, nothing leaks, and the game ends (a match of
    the game's short length: the properties are per move, not per match)."""
    game = GAMES[name].new(probed_options(name), seed=seed)
    play_random_game(game, random.Random(seed), probe=True)
    assert game.status == "finished"
    outcome = game.outcome()
    assert outcome is not None
    assert all(0 <= seat < game.players for seat in outcome.winners)


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=examples(10), deadline=None)
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
@pytest.mark.parametrize("seed", range(7, 7 + examples(1)))
def test_clone_is_independent_after_every_move(name: str, seed: int) -> None:
    """After every move of a random game, a clone and its original go their own ways.

    The clone plays on for a few moves (as the bot's copy does) while the original must not
    change; then the original moves on and the clone must not change either.
    """
    game = GAMES[name].new(seed=seed)
    rng = random.Random(seed)
    count = 0
    while game.status == "in_progress" and count < 400:
        copy = game.clone()
        assert type(copy) is type(game)
        if type(game).clone is Game.clone:  # the generic clone copies typed attributes only
            assert not untyped_attributes(game), "every attribute of the state needs a type"
        before = snapshot(game)
        assert snapshot(copy) == before
        probe = copy
        for _ in range(3):
            if probe.status != "in_progress":
                break
            acting = rng.choice(probe.to_act())
            probe.apply(acting, rng.choice(probe.legal_moves(acting)))
        assert snapshot(game) == before, f"a move on the clone changed the original (move {count})"
        # A new clone of the game, still as it was (``before``): after the original's move it
        # must still be that, which also proves the clone was the game to begin with.
        copy = game.clone()
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_moves(seat)))
        assert snapshot(copy) == before, f"a move on the original changed the clone (move {count})"
        count += 1


def public_state(game: Game) -> dict[str, Any]:
    """The game's attributes, less private caches (``_name``), compared by value."""
    return {key: value for key, value in vars(game).items() if not key.startswith("_")}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_reads_never_change_the_game(name: str) -> None:
    """``to_act``, ``legal_moves``, ``view``, ``hidden_cards``, ``status`` and ``summary`` are
    reads: asking them in any order between moves leaves the game as it was."""
    game = GAMES[name].new(seed=5)
    rng = random.Random(5)
    for _ in range(300):
        if game.status != "in_progress":
            break
        copy = game.clone()
        state = public_state(game)
        for viewer in [*range(game.players), None]:
            game.to_act()
            game.legal_moves(viewer or 0)
            game.hidden_cards(viewer)
            game.view(viewer)
        game.summary()
        assert public_state(game) == state, "a read changed the game"
        seat = rng.choice(game.to_act())
        move = rng.choice(game.legal_moves(seat))
        assert game.apply(seat, move) == copy.apply(seat, move)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_refusal_is_typed(name: str) -> None:
    """Out of turn, against the rules or malformed: each refusal says which, with a code."""
    game = GAMES[name].new(seed=4)
    seat = game.to_act()[0]
    others = [other for other in range(game.players) if other not in game.to_act()]
    if others:
        with pytest.raises(NotYourTurn):
            game.apply(others[0], game.legal_moves(seat)[0])
    with pytest.raises(Malformed):
        game.apply(seat, Move.of("no_such_action"))
    finished = GAMES[name].new(seed=4)
    rng = random.Random(4)
    while finished.status == "in_progress":
        acting = rng.choice(finished.to_act())
        finished.apply(acting, rng.choice(finished.legal_moves(acting)))
    with pytest.raises(NotYourTurn) as over:
        finished.apply(0, Move.of("pass"))
    assert over.value.code == "game_over"


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
def test_every_whole_number_option_has_a_range(name: str) -> None:
    """A typed value far beyond what the game means (a 1,500-digit turn limit) is refused."""
    for option in GAMES[name].OPTIONS:
        if type(option.default) is not int:
            continue
        if option.choices is not None:
            past = max(int(choice) for choice in option.choices) + 1
        else:
            assert option.minimum is not None and option.maximum is not None, option.name
            past = option.maximum + 1
        with pytest.raises(ValueError, match=option.name):
            GAMES[name].validate_options({option.name: past})


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


@pytest.mark.parametrize("name", GAME_NAMES)
def test_is_legal_agrees_with_the_legal_moves(name: str) -> None:
    """An engine's direct legality test (its fast path) says exactly what the move lists say,
    for every seat, to act or not."""
    game = GAMES[name].new(seed=9)
    rng = random.Random(9)
    for step in range(400):
        if game.status != "in_progress":
            break
        if step % 3 == 0:
            for seat in range(game.players):
                legal = game.legal_moves(seat)
                for move in candidate_moves(game, seat):
                    try:
                        move = game.normalise(seat, move)
                    except IllegalMove:
                        continue
                    assert game.is_legal(seat, move) == (move in legal), (seat, move)
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_moves(seat)))
