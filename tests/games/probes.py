"""What the rules properties probe with: a game's observable snapshot, leaked cards, move shapes,
and the probes themselves (:func:`probe_moves`, :func:`views_hide_hidden_cards`).

Shared by the per-game property tests, so that "a refused move changed nothing" and "nothing
leaks" mean the same everywhere.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from typing import Any

import pytest

from games.base import AgainstRules, Game, IllegalMove, Malformed, Move, NotYourTurn
from games.cards import display, make_deck
from games.state import state_fields
from games.views import plain

ALL_CARDS = make_deck()


def state_of(game: Game) -> dict[str, Any]:
    """Every typed state attribute of an independent copy of ``game`` (less private caches,
    ``_name``, which the legal moves in :func:`snapshot` cover), compared by value.

    The copy (``clone``) keeps the values as they are now, so comparing a later ``state_of``
    with it proves nothing changed in between, however deep; unlike the replay summary it costs
    nothing per past deal.
    """
    copy = game.clone()
    return {name: getattr(copy, name) for name in _public_fields(type(game))}


@functools.cache
def _public_fields(kind: type[Game]) -> tuple[str, ...]:
    return tuple(name for name in state_fields(kind) if not name.startswith("_"))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game (every seat's view, whose turn, the legal moves, what
    each seat may not see, the state itself), to prove a refused move changed nothing.

    The views are compared as they are, values all the way down (frozen dataclasses of tuples),
    not written out as JSON first: a probe takes two snapshots, and a match is probed often."""
    seats: list[int | None] = [None, *range(game.players)]
    return (
        tuple(game.view(seat) for seat in seats),
        game.status,
        tuple(game.to_act()),
        tuple(tuple(move.code for move in game.legal_moves(seat)) for seat in range(game.players)),
        tuple(frozenset(game.hidden_cards(seat)) for seat in seats),
        state_of(game),
    )


def leaked(data: Any, hidden: set[str] | frozenset[str]) -> set[str]:
    """Hidden cards that appear in ``data`` (as a JSON card string or in people's notation)."""
    text = json.dumps(plain(data), ensure_ascii=False)
    found: set[str] = set()
    for card in hidden:
        quoted, shown, token = _marks(card)
        # "10♥" must not match inside a longer token such as "110♥": re-check display hits.
        if quoted in text or (shown in text and token.search(text)):
            found.add(card)
    return found


@functools.cache
def _marks(card: str) -> tuple[str, str, re.Pattern[str]]:
    """How ``card`` shows in a view's JSON: quoted, in people's notation, and that notation as a
    whole token (made once per card: every probe looks for every hidden card)."""
    shown = display(card)
    return f'"{card}"', shown, re.compile(rf"(?<![0-9A-Z]){re.escape(shown)}")


def candidate_moves(game: Game, seat: int) -> set[Move]:
    """Moves of the right shape: every seat's legal moves, and a play of each card."""
    moves = {move for other in range(game.players) for move in game.legal_moves(other)}
    moves.update(Move.of("play", card=card) for card in ALL_CARDS)
    moves.update({Move.of("pass"), Move.of("play", card="ZZ"), Move.of("nonsense")})
    return moves


def probe_moves(
    game: Game, seat: int, moves: Iterable[Move], *, others: Iterable[int] = ()
) -> None:
    """Try each move for ``seat``: a legal one passes :meth:`Game.check`, any other is refused
    with a typed reason that says why, and so is each move for every seat of ``others``; then
    prove that nothing of the game changed."""
    before = snapshot(game)
    legal = game.legal_moves(seat)
    others = tuple(others)
    for move in moves:
        if move in legal:
            game.check(seat, move)
        else:
            refused(game, seat, move)
        for other in others:
            refused(game, other, move)
    assert snapshot(game) == before, "a refused move changed the game"


def refused(game: Game, seat: int, move: Move) -> None:
    """``apply`` refuses the move with a typed refusal that says why."""
    try:
        game.apply(seat, move)
    except IllegalMove as refusal:
        check_refusal(refusal)
    else:
        pytest.fail(f"{move} was accepted from seat {seat}")


def check_refusal(refusal: IllegalMove) -> None:
    """A refusal says why, with a typed reason (caught by a plain ``try``, not
    ``pytest.raises``: the probes refuse tens of thousands of moves, and the context manager
    cost about as much as the refused ``apply`` itself)."""
    assert str(refusal).strip(), "a refusal must say why"
    assert isinstance(refusal, AgainstRules | Malformed | NotYourTurn)


def views_hide_hidden_cards(game: Game) -> None:
    """No view (every seat's and the public one) shows a card hidden from its reader."""
    for viewer in [None, *range(game.players)]:
        shown = leaked(game.view(viewer), game.hidden_cards(viewer))
        assert not shown, f"the view of {viewer} shows hidden cards {shown}"
