"""Thunee: dealing, legal cards, options, typed refusals, clones and the game-flow options.

The contract's worked examples are golden transcripts under ``transcripts/thunee``; the examples
that are not a single hand (E12 legal-card tables, E14 first dealer and six-player deal order) are
checked here, the E9 corner-house test and the E11 boundary in ``test_thunee_calls.py``. The
calls (auction, trump, Jodhi, Double, Khanaak, challenges) are tested there, random and computer
play in ``test_thunee_random.py``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.base import AgainstRules, Deal, IllegalMove, Malformed, Move, NotYourTurn, OptionError
from games.levels import choose_move
from games.players import Seen
from games.players.thunee import choose
from games.state import untyped_attributes
from games.thunee import DECK, Thunee, deal_from_deck, first_dealer_by_jacks
from tests.games.probes import snapshot

GOLDEN = Path(__file__).parent / "transcripts" / "thunee"


def card(token: str) -> str:
    return "T" + token[2:] if token.startswith("10") else token


def cards(text: str) -> list[str]:
    return [card(token) for token in text.split()]


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def game_from(name: str, upto: int | None = None, options: dict[str, Any] | None = None) -> Thunee:
    """The game of a golden transcript after its first ``upto`` moves."""
    transcript = load(name)["transcript"]
    opts = dict(transcript["options"])
    opts.update(options or {})
    game = Thunee.new(
        opts,
        deals=[Deal.from_json(d) for d in transcript["deals"]],
        first_dealer=transcript["first_dealer"],
    )
    for raw in transcript["moves"][:upto]:
        game.apply(raw["seat"], Move.from_json(raw))
    return game


def refusal(game: Thunee, seat: int, move: Move) -> str:
    before = snapshot(game)
    with pytest.raises(IllegalMove) as error:
        game.apply(seat, move)
    assert snapshot(game) == before
    return str(error.value)


# ---------------------------------------------------------------- dealing (E1, E14, E16)
def test_deck_order_deals_packets_from_the_dealers_right() -> None:
    deck = cards("QH JH 9S KD 10D 9H AC KS JC QC 10S 9C AS KC AH 10C QS JS 9D 10H JD AD QD KH")
    deal = deal_from_deck(deck, dealer=0)
    assert [list(h) for h in deal.hands] == [
        cards("AS KC AH 10C QD KH"),
        cards("QH JH 9S KD QS JS"),
        cards("10D 9H AC KS 9D 10H"),
        cards("JC QC 10S 9C JD AD"),
    ]


def test_two_player_deck_order() -> None:
    deck = cards("AC QH JD 10C JC KS 9C 9D QS 9S 10S AH 9H KH QD JH QC JS AS KD 10H KC 10D AD")
    deal = deal_from_deck(deck, dealer=0, players=2)
    assert list(deal.hands[1]) == cards("AC QH JD 10C QS 9S 9H KH QD JH QC JS")
    assert list(deal.hands[0]) == cards("JC KS 9C 9D 10S AH AS KD 10H KC 10D AD")


def test_black_jack_first_dealer() -> None:
    deck = cards("9D JH AC QS JC") + [c for c in DECK if c not in cards("9D JH AC QS JC")]
    assert first_dealer_by_jacks(deck, shuffler=0, players=4) == 1
    assert first_dealer_by_jacks(deck, shuffler=0, players=4, any_jack=True) == 2
    game = Thunee.new(deals=[deal_from_deck(DECK, 1)], first_dealer=1)
    assert game.view(None).dealer == 1
    assert game.trumpman == 2


def test_seeded_game_draws_its_first_dealer() -> None:
    dealers = {Thunee.new(seed=seed).first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert Thunee.new(seed=5).first_dealer == Thunee.new(seed=5).first_dealer


def test_six_player_deal_order_and_roles() -> None:
    deck = list(DECK)
    deal = deal_from_deck(deck, dealer=0, players=6)
    for i, seat in enumerate([1, 2, 3, 4, 5, 0]):
        assert list(deal.hands[seat]) == deck[2 * i : 2 * i + 2] + deck[12 + 2 * i : 14 + 2 * i]
    game = Thunee.new({"players": 6}, deals=[deal], first_dealer=0)
    assert game.trumpman == 1
    assert game.total_tricks == 4
    deal3 = deal_from_deck(deck, dealer=0, players=6, first_packet=3)
    assert list(deal3.hands[1]) == [*deck[0:3], deck[18]]


def test_malformed_deals_are_refused() -> None:
    good = deal_from_deck(DECK, 0)
    with pytest.raises(ValueError, match="24 cards"):
        Thunee.new(deals=[Deal((*good.hands[:3], ("2C", *good.hands[3][1:])))])
    with pytest.raises(ValueError, match="6 cards"):
        Thunee.new(deals=[Deal(tuple(h[:5] for h in good.hands))])
    with pytest.raises(ValueError, match="hands"):
        Thunee.new({"players": 2}, deals=[good])
    with pytest.raises(ValueError, match="first_dealer"):
        Thunee.new(deals=[good], first_dealer=4)


def test_unseeded_game_waits_for_a_deal() -> None:
    game = Thunee.new()
    assert game.status == "awaiting_deal"
    assert game.to_act() == ()
    assert "not been dealt" in refusal(game, 2, Move.of("pass"))
    events = game.add_deal(deal_from_deck(DECK, 0))
    assert events[0].kind == "new_deal"
    assert game.status == "in_progress"


# ---------------------------------------------------------------- E12: legal cards
def position(hand: list[str], undercut: bool = True) -> Thunee:
    """Trump spades, hearts led: the trick is AH (seat 0), 9S (seat 1); seat 2 to play."""
    game = Thunee.new(
        {"undercut_restriction": undercut}, deals=[deal_from_deck(DECK, 3)], first_dealer=3
    )
    game.phase = "play"
    game.contract = "normal"
    game.trump = "S"
    game.trick = [(0, "AH"), (1, "9S")]
    game.turn = 2
    game.hands[2] = hand
    game._legal = None
    return game


@pytest.mark.parametrize(
    ("hand", "on", "off"),
    [
        ("QS KC", "KC", "QS KC"),
        ("QS JS", "QS JS", "QS JS"),
        ("QS JS KC", "JS KC", "QS JS KC"),
        ("QS KH", "KH", "KH"),
        ("10S AS QS", "10S AS QS", "10S AS QS"),
    ],
)
def test_undercut_limit(hand: str, on: str, off: str) -> None:
    for undercut, expected in ((True, on), (False, off)):
        game = position(cards(hand), undercut)
        legal = {m.get("card") for m in game.legal_moves(2)}
        assert legal == set(cards(expected))
    game = position(cards("QS KC"))
    assert (
        refusal(game, 2, Move.of("play", card="QS"))
        == "You may not trump lower than the trump already in this trick."
    )
    game = position(cards("QS KH"))
    assert refusal(game, 2, Move.of("play", card="QS")) == "You must follow hearts."


def test_trick_winners() -> None:
    game = position(["KC"])
    game.trump = "H"
    assert game._trick_winner([(0, "AS"), (1, "TS"), (2, "KS"), (3, "9S")]) == 3
    assert game._trick_winner([(0, "QS"), (1, "JH"), (2, "KS"), (3, "AS")]) == 1
    game.contract = "royals"
    assert game._trick_winner([(0, "QS"), (1, "JS"), (2, "KS"), (3, "AS")]) == 0


# ---------------------------------------------------------------- options
def test_options_defaults_and_validation() -> None:
    defaults = Thunee.validate_options(None)
    assert defaults["players"] == 4 and defaults["last_trick"] == "transfer"
    assert defaults["balls_to_win"] == 12 and defaults["challenge_mode"] is False
    assert len(defaults) == 36
    for bad, name in (
        ({"players": 3}, "players"),
        ({"last_trick": "double"}, "last_trick"),
        ({"jodhi": 1}, "jodhi"),
        ({"balls_to_win": 0}, "balls_to_win"),
        ({"two_player_target": 110}, "two_player_target"),
    ):
        with pytest.raises(OptionError, match=name):
            Thunee.new(bad)
    assert Thunee.seat_count({"players": 6}) == 6
    assert Thunee.validate_options({"jodhi": True})["jodhi"] is True


def test_unknown_moves_and_labels() -> None:
    game = game_from("e04_trumping_jodhi", 13)
    assert refusal(game, 0, Move.of("fly")) == "That is not a Thunee move."
    assert refusal(game, 1, Move.of("jodhi", suit="X")) == "Name a suit for Jodhi: S, H, D or C."
    assert game.move_label(Move.of("play", card="TH")) == "Play 10♥"
    assert game.move_label(Move.of("call", value=30)) == "Call 30"
    assert game.jodhi_label(1, "S") == "Jodhi ♠ (40)"
    assert game.move_label(Move.of("jodhi", suit="S")) == "Jodhi ♠ (40)"
    assert game.move_label(Move.of("jodhi", suit="S"), seat=1) == "Jodhi ♠ (40)"
    # the seat's own label shows the value even when the claimant cannot be guessed
    challenge = game_from("e04_trumping_jodhi", 13, {"challenge_mode": True})
    assert challenge.move_label(Move.of("jodhi", suit="S"), seat=1) == "Jodhi ♠ (40)"
    assert challenge.move_label(Move.of("jodhi", suit="H"), seat=1) == "Jodhi ♥"


def test_refusals_are_typed() -> None:
    game = game_from("e03_call_and_lose", 0)
    with pytest.raises(NotYourTurn) as turn:
        game.check(3, Move.of("pass"))
    assert turn.value.code == "not_your_turn" and turn.value.params == {"seat": 2, "to": "call"}
    with pytest.raises(Malformed) as malformed:
        game.check(2, Move.of("fly"))
    assert malformed.value.code == "unknown_action"
    with pytest.raises(Malformed):
        game.check(2, Move.of("call", value=25))
    with pytest.raises(AgainstRules) as rule:
        game.check(3, Move.of("thunee"))
    assert rule.value.code == "thunee_window" and rule.value.params == {"what": "Thunee"}
    game = game_from("e01_follow_suit_refused", 10)
    with pytest.raises(AgainstRules) as follow:
        game.check(game.view(None).turn, Move.of("play", card=game.hands[1][0]))
    assert follow.value.code in ("must_follow", "card_not_held")
    finished = game_from("e01_exactly_105", 33, {"balls_to_win": 1})
    with pytest.raises(NotYourTurn) as over:
        finished.check(0, Move.of("pass"))
    assert over.value.code == "game_over" and str(over.value) == "The game is over."


@pytest.mark.parametrize("players", [2, 4, 6])
def test_clone_is_independent_after_every_move(players: int) -> None:
    """The generic clone copies every mutable part: a move on the copy never shows on the game."""
    game = Thunee.new({"players": players, "challenge_mode": players == 4}, seed=players)
    rng = random.Random(players)
    assert untyped_attributes(game) == set()
    while game.status == "in_progress":
        seat = rng.choice(game.to_act())
        move = rng.choice(game.legal_moves(seat))
        before = snapshot(game)
        copy = game.clone()
        assert snapshot(copy) == before
        copy.apply(seat, move)
        assert snapshot(game) == before
        game.apply(seat, move)
        assert snapshot(game) == snapshot(copy)
    assert untyped_attributes(game) == set()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_computer_player_sees_only_its_seat(players: int) -> None:
    """The player is handed the seat's view and legal moves, never the game, and decides alike."""
    game = Thunee.new({"players": players}, seed=11)
    rng = random.Random(11)
    while game.status == "in_progress":
        seat = game.waiting_for()[0]
        seen = Seen(seat, game.view(seat), tuple(game.legal_moves(seat)))
        fields = (getattr(seen.view, item.name) for item in dataclasses.fields(seen.view))
        assert not any(isinstance(value, Thunee) for value in fields)
        expected = choose(seen, random.Random(0))
        assert choose_move(game, seat, random.Random(0)) == expected
        game.apply(seat, choose_move(game, seat, rng))


def test_clone_is_deep() -> None:
    game = game_from("e04_trumping_jodhi", 13)
    copy = game.clone()
    copy.apply(1, Move.of("jodhi", suit="S"))
    copy.apply(3, Move.of("play", card="JH"))
    assert game.jodhi_tot == [0, 0] and game.trick == []
    assert snapshot(game) == snapshot(game_from("e04_trumping_jodhi", 13))


# ---------------------------------------------------------------- game flow options
def test_two_to_clear() -> None:
    game = game_from("e01_exactly_105", 4, {"two_to_clear": "always"})
    game.balls = [11, 11]
    for raw in load("e01_exactly_105")["transcript"]["moves"][4:33]:
        game.apply(raw["seat"], Move.from_json(raw))
    assert game.summary()["score"] == [12, 11]
    assert game.status == "in_progress"
    game = game_from("e01_exactly_105", 4)
    game.balls = [11, 11]
    for raw in load("e01_exactly_105")["transcript"]["moves"][4:33]:
        game.apply(raw["seat"], Move.from_json(raw))
    assert game.status == "finished"
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0, 2) and outcome.score == (12, 11)


def test_dealer_rotation_every_hand() -> None:
    game = game_from("e02_transfer", 33, {"dealer_rotation": "every_hand"})
    assert game.view(None).dealer == 1  # B won, yet the deal passes on
    game = game_from("e02_transfer", 33)
    assert game.view(None).dealer == 0  # A is behind: the same dealer


def test_hand_end_events() -> None:
    game = game_from("e01_exactly_105", 32)
    events = game.apply(0, Move.of("play", card="AH"))
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["card_played", "trick_won", "hand_scored"]
    assert "balls_awarded" in kinds and "new_deal" in kinds
    scored = events[kinds.index("hand_scored")]
    assert "105 against 105" in scored.text and scored.public
    assert events[1].data["points"] == 53
    # the apply that ends a hand deals the next one: reads find it dealt and change nothing
    assert game.status == "in_progress" and game.records[-1].tricks == []
    assert len(game.records) == 2 and game.received == game.pk1
    before = snapshot(game)
    assert snapshot(game) == before
    # hand and game results go to the channel history; card plays and tricks do not
    history = {e.kind for e in events if e.history}
    assert history == {"hand_scored", "balls_awarded"}
    assert all(e.public for e in events if e.history)


def test_history_marks_annulments_and_game_end() -> None:
    game = game_from("e13_weak_hand_redeal", 0)
    events = game.apply(1, Move.of("demand_redeal"))
    assert [e.kind for e in events if e.history] == ["hand_annulled"]
    game = game_from("e01_exactly_105", 32, {"balls_to_win": 1})
    events = game.apply(0, Move.of("play", card="AH"))
    assert [e.kind for e in events if e.history] == ["hand_scored", "balls_awarded", "game_over"]


def test_two_player_thunee_covers_the_first_half() -> None:
    game = game_from("e16_two_players", 3)  # trump AC laid by seat 1
    game.apply(1, Move.of("thunee"))
    game.apply(1, Move.of("play", card="9S"))
    game.apply(0, Move.of("play", card="TS"))
    game.apply(1, Move.of("play", card="QS"))
    game.apply(0, Move.of("play", card="KS"))
    result = game.summary()["deals"][0]["result"]
    assert result["kind"] == "thunee" and result["balls"] == [4, 0]
    assert result["partner_catch"] is False


def test_computer_player_choices() -> None:
    rng = random.Random(1)
    game = game_from("e04_trumping_jodhi", 13)
    assert choose_move(game, 1, rng) == Move.of("jodhi", suit="S")
    game = game_from("e01_exactly_105", 4)
    assert choose_move(game, 1, rng).action == "trump"
    game = game_from("e13_weak_hand_redeal", 0)
    assert choose_move(game, 1, rng) == Move.of("demand_redeal")
    game = game_from("e08_double", 29)
    assert choose_move(game, 1, rng) == Move.of("double")
