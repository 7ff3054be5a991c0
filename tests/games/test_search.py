"""The hard level's search: its worlds agree with the seat's knowledge, and nothing else.

- the light views of the playouts give the normal player's own decisions;
- the public history hides what the seat could not see (face-down bid cards, a trump card);
- a world deals the seat its own cards and replays the history;
- the hard decision is the same whatever the other seats hold, for the same view and history.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.base import Deal, Game, Move
from games.levels import choose_move
from games.players import Seen, player_for
from games.registry import all_games
from games.search import hard
from games.search.playout import LIGHT, light_view
from games.search.worlds import Knowledge, repaired_world, world

GAMES = all_games()


def random_games(name: str, seeds: range, options: dict[str, Any] | None = None) -> Any:
    """Every position (game, seat to act) of random games of ``name``."""
    for seed in seeds:
        game = GAMES[name].new(options, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = rng.choice(game.to_act())
            yield game, seat
            game.apply(seat, rng.choice(game.legal_moves(seat)))


@pytest.mark.parametrize(
    "name", sorted(name for name, rules in GAMES.items() if rules.player_module in LIGHT)
)
def test_the_light_view_gives_the_normal_players_own_card_play(name: str) -> None:
    compared = 0
    seeds = range(250) if name == "thunee" else range(12)  # random Thunee games end fast
    for game, seat in random_games(name, seeds):
        light = light_view(game, seat)
        if light is None:
            continue
        legal = game.legal_moves(seat)
        full = player_for(game)(Seen(seat, game.view(seat), tuple(legal)), random.Random(0))
        assert LIGHT[game.player_module][1](seat, light, legal) == full
        compared += 1
    assert compared > 1000


def test_other_seats_bid_cards_are_hidden_until_revealed() -> None:
    game = GAMES["tuppi"].new(seed=4)
    rng = random.Random(4)
    bids_hidden = bids_shown = 0
    while game.status == "in_progress" and not (bids_hidden and bids_shown):
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))
        for viewer in range(4):
            for mover, move in game.public_history(viewer):
                if mover == viewer or move is None:
                    bids_hidden += move is None
                    continue
                if move.action == "bid" and move.get("card"):
                    assert move.get("card") not in game.hidden_cards(viewer)
                    bids_shown += 1
    assert bids_hidden and bids_shown


def test_a_thunee_trump_card_is_hidden_from_the_others() -> None:
    for game, _seat in random_games("thunee", range(30), {"players": 4}):
        log = getattr(game, "public_log", [])
        trumps = [(mover, move) for mover, move in log if move.action == "trump"]
        if not trumps:
            continue
        mover, move = trumps[0]
        assert (mover, move) in game.public_history(mover)
        blind = [
            viewer
            for viewer in range(4)
            if viewer != mover and move.get("card") in game.hidden_cards(viewer)
        ]
        for viewer in blind:
            assert (mover, None) in game.public_history(viewer)
            assert (mover, move) not in game.public_history(viewer)
        if blind:
            return
    pytest.fail("no hidden trump card seen")


def seen_of(game: Game, seat: int) -> Seen:
    legal = tuple(game.legal_moves(seat))
    return Seen(seat, game.view(seat), legal, type(game), game.options, game.public_history(seat))


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("tarneeb", {}),
        ("tarneeb_egyptian", {}),
        ("tuppi", {}),
        ("norwegian_whist", {}),
        ("thunee", {"players": 2}),
        ("thunee", {"players": 4}),
        ("thunee", {"players": 6}),
    ],
)
def test_worlds_agree_with_the_seats_knowledge(name: str, options: dict[str, Any]) -> None:
    built = 0
    for index, (game, seat) in enumerate(random_games(name, range(10), options)):
        if index % 5:
            continue
        seen = seen_of(game, seat)
        knowledge = Knowledge.of(seen)
        sample = world(seen, knowledge, random.Random(index))
        if sample is None:
            continue
        built += 1
        assert sorted(sample.view(seat).hand or ()) == sorted(seen.view.hand or ())
        assert set(sample.legal_moves(seat)) == set(seen.legal)
        assert sample.view(None).trick == seen.view.trick
        for other in range(sample.players):
            held = sample.view(other).hand or ()
            assert not any(card[-1] in knowledge.voids[other] for card in held)
    assert built > 15


def swapped(deal: Deal, hands: list[list[str]], seat: int) -> Deal | None:
    """``deal`` with two still-held cards of one suit swapped between two other seats."""
    others = [other for other in range(len(hands)) if other != seat]
    for first in others:
        for second in others:
            if first >= second:
                continue
            for card in hands[first]:
                match = [c for c in hands[second] if c[-1] == card[-1]]
                if match:
                    trade = {card: match[0], match[0]: card}
                    return Deal(
                        tuple(tuple(trade.get(c, c) for c in hand) for hand in deal.hands),
                        deal.stock,
                    )
    return None


def twin_of(game: Game, seat: int) -> Game | None:
    """The same deal with two other seats' hidden cards swapped, replayed to the same point
    (``None`` when no swap keeps the seat's knowledge): a 4-seat game."""
    hands = [list(game.hands[other]) for other in range(4)]  # type: ignore[attr-defined]
    deal = swapped(game.deals[-1], hands, seat)
    if deal is None:
        return None
    twin = GAMES[game.name].new(deals=[deal], first_dealer=game.view(None).dealer)
    for mover, move in getattr(game, "public_log", []):
        twin.apply(mover, move)
    return twin


@pytest.mark.parametrize("name", ["tarneeb", "norwegian_whist"])
def test_the_hard_decision_does_not_depend_on_other_seats_cards(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables with the same view and history for the seat, but other cards elsewhere."""
    monkeypatch.setattr(hard, "DEFAULT_BUDGET", hard.Budget(worlds=3, steps=0, min_worlds=3))
    checked = 0
    for seed in range(6):
        game = GAMES[name].new(seed=seed)
        rng = random.Random(seed)
        target = 12 + seed * 3  # somewhere in the card play
        while game.status == "in_progress" and len(getattr(game, "public_log", [])) < target:
            seat = game.to_act()[0]
            game.apply(seat, choose_move(game, seat, rng))
        if game.status != "in_progress" or len(getattr(game, "public_log", [])) < target:
            continue
        seat = game.to_act()[0]
        twin = twin_of(game, seat)
        if twin is None:
            continue
        assert twin.view(seat) == game.view(seat)
        assert twin.public_history(seat) == game.public_history(seat)
        assert twin.hidden_cards(seat) == game.hidden_cards(seat)
        assert any(twin.view(other) != game.view(other) for other in range(4))
        first = choose_move(game, seat, random.Random(99), "hard")
        assert choose_move(twin, seat, random.Random(99), "hard") == first
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_repaired_tunge_worlds_agree_with_the_seats_knowledge(players: int) -> None:
    """Tunge's cards change hands (draws, pick-ups): its worlds are found by repair."""
    built = 0
    for index, (game, seat) in enumerate(random_games("tunge", range(3), {"players": players})):
        if index % 7 or index > 400:
            continue
        seen = seen_of(game, seat)
        sample = repaired_world(seen, random.Random(index))
        if sample is None:
            continue
        built += 1
        assert sorted(sample.view(seat).hand or ()) == sorted(seen.view.hand or ())
        assert set(sample.legal_moves(seat)) == set(seen.legal)
        assert sample.view(None).pile == seen.view.pile
    assert built > 10


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_public_log_is_the_current_deals_and_clones_keep_their_own(name: str) -> None:
    game = GAMES[name].new(seed=8)
    rng = random.Random(8)
    moves: list[tuple[int, Any]] = []
    deals = 0
    while game.status == "in_progress" and deals < 2:
        seat = rng.choice(game.to_act())
        move = rng.choice(game.legal_moves(seat))
        twin = game.clone()
        events = game.apply(seat, move)
        assert list(twin.public_log) == moves  # the clone did not see the move
        moves.append((seat, move))
        if any(event.kind == "new_deal" for event in events):
            moves, deals = [], deals + 1
        assert list(game.public_log) == moves
        history = game.public_history(seat)
        assert [mover for mover, _ in history] == [mover for mover, _ in moves]
        for (mover, seen), (_, made) in zip(history, moves, strict=True):
            assert seen == made or (seen is None and mover != seat)  # only others' are hidden


def test_a_move_must_beat_the_normal_move_clearly() -> None:
    normal, other = Move.of("play", card="2S"), Move.of("play", card="AS")
    noisy = {normal: [0.0, 5.0, 0.0, 5.0], other: [4.0, 0.5, 4.0, 2.0]}  # better mean, by luck
    assert hard.preferred(noisy, normal, 1.0) == normal
    clear = {normal: [0.0, 5.0, 0.0, 5.0], other: [1.0, 6.0, 1.0, 6.5]}  # better in every world
    assert hard.preferred(clear, normal, 1.0) == other
    assert hard.preferred(noisy, normal, 0.0) == other  # without the prior: the best mean
