"""Thunee's calls: the auction, trump and its hidden card, Jodhi, Double, Khanaak and
challenge mode (refusals, events and who sees what)."""

from __future__ import annotations

import json

import pytest

from games.base import Deal, Move
from games.thunee import Thunee
from tests.games.test_thunee import cards, game_from, load, refusal


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
