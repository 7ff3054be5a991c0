"""Tunge's hard level (games/search/tunge_hard.py): its worlds agree with what the seat knows
and nothing else, its candidates are legal, and its decisions come from the seat's view alone."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.levels import choose_move
from games.players import Seen
from games.registry import all_games
from games.search import hard, tunge_hard
from games.search.tunge_fast import CARD_NAMES
from tests.games.test_tunge_fast import legal_of

TUNGE = all_games()["tunge"]


def positions(players: int, seeds: range, options: dict[str, Any] | None = None) -> Any:
    """(game, seat to act) along random games that mostly play (so they reach the end game)."""
    for seed in seeds:
        game = TUNGE.new({"players": players, **(options or {})}, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = game.to_act()[0]
            yield game, seat
            legal = game.legal_moves(seat)
            plays = [move for move in legal if move.action == "play"]
            game.apply(seat, rng.choice(plays if plays and rng.random() < 0.7 else legal))


def seen_of(game: Any, seat: int) -> Seen:
    return Seen(
        seat,
        game.view(seat),
        tuple(game.legal_moves(seat)),
        type(game),
        game.options,
        game.public_history(seat),
    )


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (4, {}), (4, {"variant": "face_up_start"}), (3, {"scoring": False})],
)
def test_worlds_keep_what_the_seat_knows_and_shuffle_the_rest(
    players: int, options: dict[str, Any]
) -> None:
    checked = 0
    for index, (game, seat) in enumerate(positions(players, range(10), options)):
        if index % 5:
            continue
        seen = seen_of(game, seat)
        world = tunge_hard.sample(seen, random.Random(index))
        assert world is not None
        view = seen.view
        assert sorted(world.cards(seat)) == sorted(view.hand)
        assert [CARD_NAMES[card] for card in world.pile] == list(view.pile)
        assert len(world.stock) == view.stock_size
        assert tuple(world.sizes) == tuple(view.hand_sizes)
        for other, known in enumerate(view.known_cards):
            assert set(known) <= set(world.cards(other))
        assert world.turn == seat and world.turns == view.turns_taken
        assert legal_of(world) == set(seen.legal)
        checked += 1
    assert checked > 25


def test_the_unseen_cards_are_spread_over_every_unseen_place() -> None:
    """Over many samples of one position, every unseen card turns up in every other hand and
    in the stock, and never in the seat's own hand."""
    game = TUNGE.new({"players": 3}, seed=11)
    seat = game.to_act()[0]
    seen = seen_of(game, seat)
    places: dict[str, Counter[str]] = {}
    rng = random.Random(3)
    for _ in range(300):
        world = tunge_hard.sample(seen, rng)
        assert world is not None
        for other in range(3):
            for card in world.cards(other):
                places.setdefault(card, Counter())[f"hand{other}"] += 1
        for card in world.stock:
            places.setdefault(CARD_NAMES[card], Counter())["stock"] += 1
    unseen = set(CARD_NAMES) - set(seen.view.hand)
    for card in unseen:
        assert f"hand{seat}" not in places[card]
        assert set(places[card]) == {f"hand{(seat + 1) % 3}", f"hand{(seat + 2) % 3}", "stock"}


def test_candidates_are_legal_and_start_with_the_normal_move() -> None:
    from games.players.tunge import choose as normal

    for index, (game, seat) in enumerate(positions(4, range(3))):
        if index % 3:
            continue
        seen = seen_of(game, seat)
        move = normal(seen, random.Random(index))
        moves = tunge_hard.candidates(seen, move, 5)
        assert moves[0] == move
        assert len(set(moves)) == len(moves) <= max(5, 2)
        assert set(moves) <= set(seen.legal)


def test_the_hard_decision_depends_only_on_the_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same view and history with the other seats' unseen cards exchanged: the same move."""
    monkeypatch.setattr(hard, "DEFAULT_BUDGET", hard.Budget(worlds=4, steps=0, min_worlds=4))
    checked = 0
    for seed in range(6):
        game = TUNGE.new({"players": 3}, seed=seed)
        rng = random.Random(seed)
        for _ in range(4 + seed):
            if game.status != "in_progress":
                break
            seat = game.to_act()[0]
            game.apply(seat, choose_move(game, seat, rng))
        if game.status != "in_progress":
            continue
        seat = game.to_act()[0]
        hands = game.deals[0].hands
        others = [other for other in range(3) if other != seat]
        twin_hands = list(hands)
        # untouched cards of the two other seats swapped, as dealt (neither played them yet)
        shown = {card for _, move in game.public_log for card in move.get("cards") or ()}
        first = [c for c in hands[others[0]] if c not in shown]
        second = [c for c in hands[others[1]] if c not in shown]
        trade = dict(zip(first[:2], second[:2], strict=True)) | dict(
            zip(second[:2], first[:2], strict=True)
        )
        twin_hands = [tuple(trade.get(c, c) for c in hand) for hand in hands]
        from games.base import Deal

        twin = TUNGE.new(
            {"players": 3},
            deals=[Deal(tuple(twin_hands), game.deals[0].stock)],
            first_dealer=game.first_dealer,
        )
        for mover, move in game.public_log:
            twin.apply(mover, move)
        if twin.view(seat) != game.view(seat):
            continue  # a traded card was drawn back: not the same view
        assert any(twin.view(o) != game.view(o) for o in others)
        assert choose_move(twin, seat, random.Random(5), "hard") == choose_move(
            game, seat, random.Random(5), "hard"
        )
        checked += 1
    assert checked >= 3
