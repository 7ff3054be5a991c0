"""A Jodhi claim's suit is secret unless announced (rules/thunee.md, option jodhi_reveal_suit):
the others' public history, which the hard player searches on, must not name it, and the
search must still build worlds in which the claim was made."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.base import Game, Move
from games.levels import choose_move
from games.registry import all_games
from games.search.worlds import Knowledge, world
from tests.games.test_search import seen_of


def after_a_claim(options: dict[str, Any], seeds: range) -> Iterator[tuple[Game, int]]:
    """Positions of 4-player Thunee games played by normal players just after a Jodhi claim (the
    first one a seat may make), with the claimer."""
    for seed in seeds:
        game = all_games()["thunee"].new({"players": 4, **options}, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = rng.choice(game.to_act())
            legal = game.legal_moves(seat)
            claims = [m for m in legal if m.action == "jodhi"]
            move = claims[0] if claims else choose_move(game, seat, rng)
            game.apply(seat, move)
            if claims and game.status == "in_progress":
                yield game, seat


def test_the_others_see_a_claim_without_its_suit() -> None:
    checked = 0
    for game, claimer in after_a_claim({}, range(40)):
        for seat in range(game.players):
            claims = [m for s, m in game.public_history(seat) if s == claimer and m is not None]
            claims = [m for m in claims if m.action == "jodhi"]
            assert claims, "the claim is public"
            if seat == claimer:
                assert all(m.get("suit") for m in claims)  # its own claim, in full
            else:
                assert all(m == Move("jodhi") for m in claims)
        checked += 1
        if checked >= 10:
            break
    assert checked >= 10


def test_an_announced_claim_keeps_its_suit() -> None:
    game, claimer = next(after_a_claim({"jodhi_reveal_suit": True}, range(40)))
    other = (claimer + 1) % game.players
    claims = [m for s, m in game.public_history(other) if s == claimer and m is not None]
    assert any(m.action == "jodhi" and m.get("suit") for m in claims)


def test_worlds_are_built_with_a_claim_whose_suit_is_secret() -> None:
    """As the search does: samples until one fits (the claimer must hold some K+Q)."""
    built = tried = 0
    for index, (game, claimer) in enumerate(after_a_claim({}, range(60))):
        seat = next(iter(game.to_act()), None)
        if seat is None or seat == claimer or not game.legal_moves(seat):
            continue
        seen = seen_of(game, seat)
        knowledge = Knowledge.of(seen)
        tried += 1
        rng = random.Random(index)
        for _ in range(50):
            sample = world(seen, knowledge, rng)
            if sample is not None:
                break
        if sample is not None:
            built += 1
            assert sorted(sample.view(seat).hand or ()) == sorted(seen.view.hand or ())
            claims = [m for s, m in sample.public_history(claimer) if s == claimer]
            assert any(m is not None and m.action == "jodhi" and m.get("suit") for m in claims)
        if tried >= 20:
            break
    assert tried >= 10 and built >= tried * 3 // 4
