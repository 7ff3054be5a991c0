"""Computer players see only their seat: a Seen (own view, legal moves), never a game object."""

from __future__ import annotations

import ast
import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import games.players as players
from games.base import Game, Move, NotYourTurn
from games.levels import choose_move
from games.players import ENDGAME_CARDS, Seen, player_for
from games.registry import all_games
from games.views import TableView

GAMES = all_games()
PLAYER_GAMES = sorted(name for name, cls in GAMES.items() if cls.player_module)
PLAYERS_DIR = Path(players.__file__).parent
ALLOWED_IMPORTS = {"games.base", "games.cards", "games.players", "games.seats", "games.tricks"}
# The typed views and the move actions (no rules and no state in either).
ALLOWED_IMPORTS |= {"games.views", "games.actions"}
# A game's own vocabulary that holds no game state: Tunge's sequence grammar and card values.
ALLOWED_IMPORTS |= {"games.tunge.grammar", "games.tunge.scoring"}
# The hard level's search deals worlds of its own (it is handed only a Seen, like every player).
ALLOWED_IMPORTS |= {"games.search.hard"}
# Sibling modules of plain rules of play (the next-to-last trick solved, the shapes of mistakes
# reading Thunee's card order and points).
ALLOWED_IMPORTS |= {"games.players.endgame", "games.players.thunee"}


def walk(value: Any) -> Iterator[Any]:
    """Every object reachable from ``value`` through containers."""
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from walk(getattr(value, item.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from walk(key)
            yield from walk(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from walk(item)


def test_the_moved_players_are_registered() -> None:
    assert {"tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist"} <= set(PLAYER_GAMES)


@pytest.mark.parametrize("name", PLAYER_GAMES)
def test_a_player_is_handed_only_plain_data(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Spy on the player across whole games: every argument is a Seen of JSON data and moves."""
    calls = 0

    def spy(seen: Any, rng: Any) -> Move:
        nonlocal calls
        calls += 1
        assert type(seen) is Seen and type(rng) is random.Random
        assert all(type(move) is Move for move in seen.legal)
        assert isinstance(seen.view, TableView)
        json.dumps(seen.view.to_json())  # plain data only
        assert not any(isinstance(item, Game) for item in walk(seen.view))
        assert set(seen.view.hand or ()) <= set(game.view(seen.seat).hand or ())
        move = real(seen, rng)
        assert move in seen.legal
        return move

    real = player_for(GAMES[name].new(seed=17))
    monkeypatch.setattr(players, "player_for", lambda _game: spy)
    rng = random.Random(17)
    for seed in range(17, 57):  # whole games until the players have decided often enough
        game = GAMES[name].new(seed=seed)
        while game.status == "in_progress" and calls < 3000:
            seat = rng.choice(game.to_act())
            game.apply(seat, choose_move(game, seat, rng))
        if calls > 50:
            break
    assert calls > 50


@pytest.mark.parametrize("name", PLAYER_GAMES)
def test_the_players_decision_comes_from_the_seat_view_alone(name: str) -> None:
    """The game's computer move is exactly its player applied to the seat's Seen, nothing more
    (the view, and the deal's public history once the hand is down to its last cards)."""
    game = GAMES[name].new(seed=23)
    rng = random.Random(23)
    for _ in range(120):
        if game.status != "in_progress":
            break
        seat = rng.choice(game.to_act())
        view = game.view(seat)
        history = game.public_history(seat) if len(view.hand or ()) <= ENDGAME_CARDS else ()
        seen = Seen(seat, view, tuple(game.legal_moves(seat)), type(game), game.options, history)
        expected = player_for(game)(seen, random.Random(1))
        assert choose_move(game, seat, random.Random(1)) == expected
        game.apply(seat, rng.choice(game.legal_moves(seat)))


@pytest.mark.parametrize("path", sorted(PLAYERS_DIR.glob("*.py")), ids=lambda path: path.name)
def test_player_modules_import_no_engine(path: Path) -> None:
    """A player module cannot reach an engine: it imports only the shared vocabulary."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
            assert node.module in ALLOWED_IMPORTS, f"{path.name} imports {node.module}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert not alias.name.startswith("games."), f"{path.name} imports {alias.name}"


@pytest.mark.parametrize("name", PLAYER_GAMES)
def test_a_seat_with_nothing_to_decide_gets_no_move(name: str) -> None:
    game = GAMES[name].new(seed=2)
    idle = [seat for seat in range(game.players) if not game.legal_moves(seat)]
    for seat in idle:
        with pytest.raises(NotYourTurn):
            choose_move(game, seat, random.Random(0))
