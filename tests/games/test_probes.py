"""The shared probes catch what they promise: a refusal that changes the game, a refusal that
does not say why, a legal move refused, a view that shows a hidden card."""

from __future__ import annotations

import pytest

from games.base import Event, IllegalMove, Move
from games.views import TableView
from tests.games.probes import probe_moves, views_hide_hidden_cards
from tests.games.tiny_game import TinyGame

NOT_HELD = Move.of("play", card="ZZ")


class Careless(TinyGame):
    """Changes the dealer before the check refuses the move."""

    def apply(self, seat: int, move: Move) -> list[Event]:
        self.dealer = 1 - self.dealer
        return super().apply(seat, move)


class Mute(TinyGame):
    """Refuses without saying why."""

    def refusal(self, seat: int, move: Move) -> IllegalMove:
        return IllegalMove(" ")


class Open(TinyGame):
    """Shows seat 0's hand to everybody."""

    def view(self, seat: int | None) -> TableView:
        return super().view(0)


def test_a_fair_game_passes_the_probes() -> None:
    game = TinyGame.new(seed=1)
    seat = game.to_act()[0]
    probe_moves(game, seat, [*game.legal_moves(seat), NOT_HELD], others=[1 - seat])
    views_hide_hidden_cards(game)


def test_a_refusal_that_changes_the_game_is_caught() -> None:
    game = Careless.new(seed=1)
    with pytest.raises(AssertionError, match="changed the game"):
        probe_moves(game, game.to_act()[0], [NOT_HELD])


def test_a_refusal_without_a_reason_is_caught() -> None:
    game = Mute.new(seed=1)
    with pytest.raises(AssertionError, match="must say why"):
        probe_moves(game, game.to_act()[0], [NOT_HELD])


def test_a_legal_move_for_another_seat_is_caught() -> None:
    game = TinyGame.new(seed=1)
    seat = game.to_act()[0]
    with pytest.raises(pytest.fail.Exception):
        probe_moves(game, seat, game.legal_moves(seat), others=[seat])


def test_a_view_showing_a_hidden_card_is_caught() -> None:
    game = Open.new(seed=1)
    with pytest.raises(AssertionError, match="shows hidden cards"):
        views_hide_hidden_cards(game)
