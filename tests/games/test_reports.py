"""Reported positions: built by the rules from the seat's own view, never more, and read back
as the very decision the computer faced; the blunder suite runs the exported fixtures."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from bench import blunders
from games.base import Game, Move
from games.levels import choose_move
from games.players import seen_for
from games.registry import get_game
from games.reports import hand_plays, position, seen_of

TRICK_GAMES = ("tarneeb", "tarneeb_egyptian", "tuppi", "norwegian_whist", "thunee")
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def played_hand(name: str, seed: int) -> tuple[Game, list[tuple[int, Move]]]:
    """A new game of ``name`` and the moves of its first hand, by computers at the easy level
    (random enough to reach many kinds of position)."""
    rules = get_game(name)
    game = rules.new({}, seed=seed)
    moves: list[tuple[int, Move]] = []
    rng = random.Random(seed)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        move = choose_move(game, seat, rng, "easy")
        moves.append((seat, move))
        if any(e.kind == "hand_scored" for e in game.apply(seat, move)):
            break
    fresh = rules.new({}, deals=game.deals, first_dealer=game.first_dealer)
    return fresh, moves


@pytest.mark.parametrize("name", TRICK_GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_report_holds_only_what_the_seat_saw_and_reads_back_as_its_decision(
    name: str, seed: int
) -> None:
    game, moves = played_hand(name, seed)
    plays = hand_plays(game.clone(), moves, len(moves))
    assert plays and {p.hand for p in plays} == {1}
    for play in plays:
        report = position(game.clone(), moves, play)
        then = game.clone()
        for seat, move in moves[: play.before]:
            then.apply(seat, move)
        hidden = set(CARD.findall(json.dumps(report))) & then.hidden_cards(play.seat)
        assert not hidden, (play, hidden)
        seen, played = seen_of(json.loads(json.dumps(report)))
        assert seen == seen_for(then, play.seat, "hard")
        assert played == moves[play.before][1] and played.get("card") == play.card


def test_the_tricks_are_numbered_within_their_hand() -> None:
    game, moves = played_hand("tarneeb", 3)
    plays = hand_plays(game.clone(), moves, len(moves))
    assert [p.trick for p in plays] == [n for n in range(1, 14) for _ in range(4)]


def test_a_report_of_another_format_is_refused() -> None:
    game, moves = played_hand("thunee", 1)
    report: dict[str, Any] = position(game.clone(), moves, hand_plays(game, moves, len(moves))[0])
    with pytest.raises(ValueError, match="format"):
        seen_of({**report, "format": 99})
    with pytest.raises(ValueError, match="view type"):
        seen_of({**report, "view_type": "Seen"})


def test_the_blunder_suite_runs_the_reported_positions() -> None:
    found = blunders.reported()
    assert found, "the committed example is there"
    for report in found:
        assert report.played in report.seen.legal
        for level in ("easy", "normal"):
            move = blunders.decide(report.seen, level, random.Random(0))
            assert move in report.seen.legal
    results = blunders.run_reports(blunders.REPORTS, ["normal"], worlds=8)
    # A reported position is kept so that a level that blunders there is seen to: none does.
    assert sum(results["normal"].mistakes.values()) == 0
