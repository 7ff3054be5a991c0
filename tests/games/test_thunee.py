"""Thunee: tricky rules, refusals, options, events, hidden information and random-play properties.

The contract's worked examples are golden transcripts under ``transcripts/thunee``; the examples
that are not a single hand (E12 legal-card tables, E14 first dealer and six-player deal order, the
E9 corner-house test and the E11 boundary) are checked here.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import AgainstRules, Deal, IllegalMove, Malformed, Move, NotYourTurn, OptionError
from games.cards import display
from games.levels import choose_move
from games.players import Seen
from games.players.thunee import choose
from games.state import untyped_attributes
from games.thunee import (
    DECK,
    POINTS,
    Thunee,
    deal_from_deck,
    first_dealer_by_jacks,
)
from tests.examples import examples
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


# ---------------------------------------------------------------- auction
def test_auction_rules_and_messages() -> None:
    game = game_from("e03_call_and_lose", 0)
    assert refusal(game, 3, Move.of("pass")) == "It is {s2}'s turn to call."
    assert (
        refusal(game, 2, Move.of("call", value=25))
        == "A call is 10, 20, … up to 100, or 104 over a call of 100."
    )
    game.apply(2, Move.of("call", value=100))
    assert Move.of("call", value=104) in game.legal_moves(3)
    assert refusal(game, 3, Move.of("call", value=100)) == "Your call must be higher than 100."
    game.apply(3, Move.of("call", value=104))
    assert refusal(game, 0, Move.of("call", value=104)) == "Your call must be higher than 104."
    assert refusal(game, 1, Move.of("call", value=104)) == "It is {s0}'s turn to call."
    game.apply(0, Move.of("pass"))
    game.apply(1, Move.of("pass"))
    game.apply(2, Move.of("pass"))
    assert game.phase == "trump"
    assert game.trumper == 3
    assert game.call == 104


def test_single_step_calls() -> None:
    game = game_from("e03_call_and_lose", 0, {"call_single_step": True})
    calls = [m.get("value") for m in game.legal_moves(2) if m.action == "call"]
    assert calls == [10]
    assert (
        refusal(game, 2, Move.of("call", value=40))
        == "Calls go up one step at a time: the next call is 10."
    )


def test_holding_team_is_skipped_without_blind_calls() -> None:
    game = game_from("e03_call_and_lose", 0, {"blind_thunee": False, "blind_royals": False})
    # seat 2 passes; seat 3 (the trumpman's team, no call yet) passes automatically
    events = game.apply(2, Move.of("pass"))
    assert [e.data.get("auto") for e in events if e.kind == "pass"] == [False, True]
    assert game.to_act() == (0,)


def test_blind_call_sets_cards_aside() -> None:
    game = game_from("e03_call_and_lose", 0)
    game.apply(2, Move.of("blind", contract="thunee"))
    aside = cards("10D 9C")
    assert game.contract == "blind_thunee"
    assert game.to_act() == (2,)
    for seat in (None, 0, 1, 2, 3):
        assert set(aside) <= game.hidden_cards(seat)
    assert list(game.view(2).hand or ()) == sorted(
        cards("QS 10H 10S AS"), key=lambda c: ("SHDC".index(c[1]), "J9ATKQ".index(c[0]))
    )
    assert refusal(game, 2, Move.of("play", card="TD")) == "You have not picked up that card yet."


# ---------------------------------------------------------------- trump and hidden information
def test_trump_card_is_secret_until_revealed() -> None:
    game = game_from("e01_exactly_105", 4)
    events = game.apply(1, Move.of("trump", card="QH"))
    public = [e for e in events if e.public]
    assert any(e.kind == "trump_set" for e in public)
    assert all(
        "QH" not in json.dumps(dict(e.data)) and "Q♥" not in e.text and "hearts" not in e.text
        for e in public
    )
    private = [e for e in events if e.kind == "trump_set_private"]
    assert private and private[0].to == frozenset({1}) and private[0].data["card"] == "QH"
    for seat in (None, 0, 2, 3):
        assert "QH" in game.hidden_cards(seat)
        assert game.view(seat).trump is None
    assert "QH" not in game.hidden_cards(1)
    assert game.view(1).trump == "H"
    for seat in (1, 2, 3, 0):
        game.apply(seat, Move.of("pass"))
    events = game.apply(2, Move.of("play", card="9D"))
    revealed = [e for e in events if e.kind == "trump_revealed"]
    assert revealed and revealed[0].public and revealed[0].data["card"] == "QH"
    assert "QH" not in game.hidden_cards(None)
    assert game.view(None).trump == "H"


@pytest.mark.parametrize("visible", [False, True])
def test_last_card_trump(visible: bool) -> None:
    game = game_from("e02_transfer", 4, {"last_card_visible_to_trumper": visible})
    assert Move.of("last_card") in game.legal_moves(1)
    game.apply(1, Move.of("last_card"))
    assert game.trump_card == "KC"
    assert "KC" not in game.hands[1]
    assert ("KC" in game.hidden_cards(1)) is not visible
    assert (game.view(1).trump == "C") is visible
    for seat in (None, 0, 2, 3):
        assert "KC" in game.hidden_cards(seat)
    assert len(game.view(1).hand or ()) == 5


def test_last_card_needs_four_suits() -> None:
    game = game_from("e01_exactly_105", 4)
    assert Move.of("last_card") not in game.legal_moves(1)
    assert (
        refusal(game, 1, Move.of("last_card"))
        == "Last card needs your first cards to be all of different suits."
    )
    assert (
        refusal(game, 1, Move.of("trump", card="QS"))
        == "Choose one of your first-packet cards as the trump card."
    )
    assert refusal(game, 2, Move.of("trump", card="9D")) == "Only {s1} sets trump."
    game = game_from("e01_exactly_105", 4, {"last_card_trump": "always"})
    assert Move.of("last_card") in game.legal_moves(1)


def test_thunee_refused_with_six_cards_of_a_suit() -> None:
    transcript = load("e13_no_trump_annulled")["transcript"]
    game = game_from("e13_no_trump_annulled", 6)  # seat 1 passed the window; seat 2 skipped
    assert game.to_act() == (3,)
    game = Thunee.new(deals=[Deal.from_json(transcript["deals"][0])])
    for raw in transcript["moves"][:5]:
        game.apply(raw["seat"], Move.from_json(raw))
    game.atturn = 2  # look at seat 2's position directly
    game._legal = None
    assert (
        refusal(game, 2, Move.of("thunee"))
        == "You hold six cards of one suit, so you may not call Thunee."
    )


def test_thunee_returns_the_trump_card_unrevealed() -> None:
    game = game_from("e05_thunee_caught", 7)
    events = game.apply(3, Move.of("thunee"))
    assert "9S" in game.hands[1]
    assert all("9S" not in json.dumps(dict(e.data)) for e in events if e.public)
    assert "9S" in game.hidden_cards(None)
    assert game.view(None).trump is None
    assert game.to_act() == (3,)
    game.apply(3, Move.of("play", card="JH"))
    assert game.view(None).trump == "H"


# ---------------------------------------------------------------- Jodhi, Double, Khanaak
def test_jodhi_value_and_window() -> None:
    game = game_from("e04_trumping_jodhi", 13)  # trick 1 complete
    assert Move.of("jodhi", suit="S") in game.legal_moves(1)
    assert 1 in game.to_act() and 3 in game.to_act()  # the claimant and the leader
    assert game.waiting_for() == (3,)
    events = game.apply(1, Move.of("jodhi", suit="S"))
    assert events[0].kind == "jodhi" and events[0].data["value"] == 40
    assert "suit" not in events[0].data
    assert (
        refusal(game, 1, Move.of("jodhi", suit="S"))
        == "You have already claimed Jodhi in that suit."
    )
    assert (
        refusal(game, 0, Move.of("jodhi", suit="H"))
        == "Your team may claim Jodhi only right after its first or third trick."
    )


def test_jodhi_before_next_lead_window() -> None:
    game = game_from("e04_trumping_jodhi", 13, {"jodhi_window": "before_next_lead"})
    game.apply(3, Move.of("play", card="JH"))
    assert Move.of("jodhi", suit="S") not in game.legal_moves(1)


def test_jodhi_dealt_cards_option() -> None:
    game = game_from("e04_queen_already_played", 25, {"jodhi_cards": "dealt"})
    assert Move.of("jodhi", suit="S") in game.legal_moves(1)


def test_corner_house_refuses_double() -> None:
    game = game_from("e09_double_fails", 29)  # trick 6, seat 0 to declare
    assert Move.of("double") in game.legal_moves(0)
    game.balls = [11, 5]
    game._legal = None
    assert Move.of("double") not in game.legal_moves(0)
    assert refusal(game, 0, Move.of("double")) == "Your team is at corner house and may not Double."
    game.options["corner_house_scope"] = "off"
    game._legal = None
    assert Move.of("double") in game.legal_moves(0)
    game.options["corner_house_scope"] = "either_team"
    game.balls = [5, 11]
    game._legal = None
    assert refusal(game, 0, Move.of("double")) == "A team is at corner house, so nobody may Double."


def test_double_only_on_own_turn_in_last_trick() -> None:
    game = game_from("e08_double", 12)
    assert (
        refusal(game, 2, Move.of("double"))
        == "Declare Double on your own turn in the last trick, before you play."
    )
    game = game_from("e09_double_fails", 29)
    game.apply(0, Move.of("double"))
    assert refusal(game, 0, Move.of("khanaak")) in (
        "Only one Double or Khanaak may be declared in a hand.",
    )


def test_khanaak_boundary() -> None:
    game = game_from("e11_khanaak", 31)  # Khanaak declared, trick 6 not played
    game.points = [60, 184]  # A with 60 card points: 50 + 10 > 60 is false
    for raw in load("e11_khanaak")["transcript"]["moves"][31:]:
        game.apply(raw["seat"], Move.from_json(raw))
    result = game.summary()["deals"][0]["result"]
    assert result["kind"] == "khanaak" and result["success"] is False
    assert result["balls"] == [4, 0]


def test_khanaak_raises_target_at_declaration() -> None:
    game = game_from("e11_khanaak", 30)
    assert game.view(None).target == 12
    events = game.apply(1, Move.of("khanaak"))
    assert any(e.kind == "target_raised" for e in events)
    assert game.view(None).target == 13


def test_khanaak_requires_lost_trick_option() -> None:
    game = game_from("e11_khanaak", 30, {"khanaak_requires_lost_trick": True})
    assert Move.of("khanaak") in game.legal_moves(1)  # B lost trick 3


# ---------------------------------------------------------------- challenge mode
def test_default_game_refuses_a_revoke() -> None:
    game = game_from("e01_exactly_105", 10)
    assert refusal(game, 3, Move.of("play", card="JC")) == "You must follow diamonds."
    assert (
        refusal(game, 0, Move.of("challenge", target=3))
        == "Challenges are only allowed in challenge mode."
    )


def test_challenge_mode_revoke_and_challenge() -> None:
    game = game_from("e01_exactly_105", 10, {"challenge_mode": True})
    assert refusal(game, 3, Move.of("play", card="QS")) == "You don't hold that card."
    assert refusal(game, 0, Move.of("play", card="QD")) == "It is {s3}'s turn to play."
    game.apply(3, Move.of("play", card="JC"))  # a revoke: seat 3 holds JD
    assert all("illegal" not in json.dumps(game.view(s).to_json()) for s in (None, 0, 1, 2, 3))
    assert refusal(game, 2, Move.of("challenge", target=0)) == "You may only challenge an opponent."
    events = game.apply(0, Move.of("challenge", target=3))
    result = game.summary()["deals"][0]["result"]
    assert result["kind"] == "challenge" and result["proven"] is True
    assert result["balls"] == [4, 0]
    assert any(e.kind == "hand_scored" for e in events)


def test_false_challenge_costs_the_challenger() -> None:
    game = game_from("e01_exactly_105", 10, {"challenge_mode": True})
    game.apply(1, Move.of("challenge", target=2))
    result = game.summary()["deals"][0]["result"]
    assert result["proven"] is False and result["balls"] == [4, 0]


def test_murial_cancels_a_false_jodhi() -> None:
    game = game_from("e04_trumping_jodhi", 13, {"challenge_mode": True})
    assert Move.of("jodhi", suit="H") in game.legal_moves(1)  # a false claim is accepted
    game.apply(1, Move.of("jodhi", suit="H"))
    assert game.jodhi_tot == [0, 20]
    assert Move.of("murial", target=1, suit="H") in game.legal_moves(0)
    game.apply(0, Move.of("murial", target=1, suit="H"))
    assert game.jodhi_tot == [0, 0]
    game.apply(1, Move.of("jodhi", suit="S"))
    game.apply(2, Move.of("murial", target=1, suit="S"))  # a valid claim stands
    assert game.jodhi_tot == [0, 40]
    game.apply(3, Move.of("play", card="JH"))
    assert not [m for m in game.legal_moves(0) if m.action == "murial"]


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


# ---------------------------------------------------------------- random play properties
OPTION_STRATEGY = st.fixed_dictionaries(
    {},
    optional={
        option.name: (
            st.sampled_from(option.choices)
            if option.choices is not None
            else st.booleans()
            if isinstance(option.default, bool)
            else st.integers(1, 9)
        )
        for option in Thunee.OPTIONS
        if option.name != "players"
    },
)


def locations(game: Thunee) -> list[str]:
    """Every card of the current deal, wherever it is now."""
    assert game.cur is not None
    found = [c for hand in game.hands for c in hand]
    found += [c for _, c in game.trick]
    found += [c for t in game.records[-1].tricks for c in t.cards] if game.records else []
    found += list(game.set_aside)
    if game.trump_down and game.trump_card is not None:
        found.append(game.trump_card)
    found += [c for hand in game.cur.hands for c in hand[game.received :]]
    return found


def check_state(game: Thunee) -> None:
    if game.cur is not None and game.records and game.phase != "awaiting_deal":
        where = locations(game)
        assert len(where) == 24 and set(where) == set(DECK), "cards not conserved"
    for seat in range(game.players):
        hidden = game.hidden_cards(seat)
        assert not hidden & set(game.hands[seat]) - {game.revealed}
        for other in range(game.players):
            if other != seat:
                assert set(game.hands[other]) - {game.revealed} <= hidden
        if game.trump_down and game.trump_card is not None:
            seen = seat == game.trumper and not game.trump_unseen
            assert (game.trump_card in hidden) is not seen
    public = game.hidden_cards(None)
    assert {c for h in game.hands for c in h} - {game.revealed} <= public
    for viewer in (None, *range(game.players)):
        text = json.dumps(game.view(viewer).to_json(), ensure_ascii=False)
        for c in game.hidden_cards(viewer):
            assert f'"{c}"' not in text and display(c) not in text.replace("1" + display(c), "")


def check_results(game: Thunee) -> None:
    for deal in game.summary()["deals"]:
        result = deal["result"]
        if result is None:
            continue
        balls = result["balls"]
        if result["kind"] == "annulled":
            assert balls == [0, 0]
        else:
            assert sorted(balls)[0] == 0 and max(balls) > 0
        if result["kind"] in ("normal", "double", "khanaak"):
            assert len(deal["tricks"]) == game.total_tricks
            assert sum(result["points"]) == 304
            assert sum(POINTS[c] for t in deal["tricks"] for c in t["cards"]) == 304


WILD = frozenset({"blind", "thunee", "royals", "challenge", "demand_redeal"})


def play(
    game: Thunee, rng: random.Random, *, probe: bool, computer: bool = False, tame: bool = False
) -> int:
    """Random (or computer) play to the end; ``tame`` avoids contracts that end hands early."""
    actions = 0
    while game.status == "in_progress":
        acting = game.to_act()
        assert acting
        seat = rng.choice(acting)
        legal = game.legal_moves(seat)
        if probe:
            before = snapshot(game)
            candidates = {m for s in range(game.players) for m in game.legal_moves(s)}
            candidates |= {Move.of("play", card=c) for c in DECK}
            candidates |= {
                Move.of("pass"),
                Move.of("thunee"),
                Move.of("double"),
                Move.of("jodhi", suit="H"),
                Move.of("call", value=50),
            }
            for move in candidates:
                if move in legal:
                    game.check(seat, move)
                else:
                    with pytest.raises(IllegalMove) as error:
                        game.apply(seat, move)
                    assert str(error.value).strip()
            assert snapshot(game) == before
            check_state(game)
        pool = [m for m in legal if m.action not in WILD] if tame else legal
        move = choose_move(game, seat, rng) if computer else rng.choice(pool or legal)
        assert move in legal
        game.apply(seat, move)
        actions += 1
        assert actions < 5000
    check_results(game)
    return actions


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 4, 6]),
    options=OPTION_STRATEGY,
    tame=st.booleans(),
)
def test_random_play_with_random_options(
    seed: int, players: int, options: dict[str, Any], tame: bool
) -> None:
    options = {**options, "players": players}
    if "balls_to_win" in options:
        options["balls_to_win"] = min(options["balls_to_win"], 4 if tame else 6)
    elif tame:
        options["balls_to_win"] = 3
    game = Thunee.new(options, seed=seed)
    play(game, random.Random(seed), probe=True, tame=tame)
    assert game.status == "finished"
    outcome = game.outcome()
    assert outcome is not None
    assert max(outcome.score) >= game.options["balls_to_win"]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4, 6]), options=OPTION_STRATEGY)
def test_computer_players_finish_games(seed: int, players: int, options: dict[str, Any]) -> None:
    options = {**options, "players": players, "balls_to_win": 4}
    game = Thunee.new(options, seed=seed)
    play(game, random.Random(seed), probe=False, computer=True)
    assert game.status == "finished"


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4, 6]))
def test_replay_of_a_recorded_game(seed: int, players: int) -> None:
    from games.transcript import replay

    game = Thunee.new({"players": players}, seed=seed)
    rng = random.Random(seed)
    moves = []
    while game.status == "in_progress":
        seat = rng.choice(game.to_act())
        move = (
            choose_move(game, seat, rng)
            if rng.random() < 0.7
            else rng.choice(game.legal_moves(seat))
        )
        game.apply(seat, move)
        moves.append({"seat": seat, **move.to_json()})
    transcript = {
        "format": 1,
        "game": "thunee",
        "options": {"players": players},
        "first_dealer": game.first_dealer,
        "deals": [d.to_json() for d in game.deals],
        "moves": moves,
    }
    output = replay(json.loads(json.dumps(transcript)))
    assert output["status"] == "finished"
    assert output["deals"] == json.loads(json.dumps(game.summary()["deals"]))


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
