"""Tuppi: tricky rules, option presets, refusals, and properties over random play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import Deal, Event, IllegalMove, Move, OptionError
from games.cards import make_deck
from games.levels import choose_move
from games.registry import get_game
from tests.examples import examples
from tests.games.probes import leaked, probe_moves, views_hide_hidden_cards

Tuppi = get_game("tuppi")
DECK = sorted(make_deck())


def cards(text: str) -> list[str]:
    return text.split()


MAX_MOVES = 20_000

U6_DECK = cards(
    "KS 3D 3S 3C 3H 9D 8D 7C 4S 7D 8S 4H 9H 9S AH 5H 2H JD 5C AC 6S 6H 8H KC 2C "
    "5S 6C 2S TH 4D 9C QC 7S JC AS 6D 8C KH AD QS JS 5D QH TD 4C QD TC 2D TS JH 7H KD"
)


def deal_from_deck(deck: list[str], dealer: int) -> Deal:
    hands: list[list[str]] = [[], [], [], []]
    for i, card in enumerate(deck):
        hands[(dealer + 1 + i) % 4].append(card)
    return Deal(tuple(tuple(hand) for hand in hands))


def bid(value: str, card: str | None = None) -> Move:
    return Move.of("bid", value=value) if card is None else Move.of("bid", value=value, card=card)


# ---------------------------------------------------------------- options
def test_presets_and_explicit_overrides() -> None:
    home = Tuppi.validate_options({})
    assert home["rami_defender_points"] == 6 and home["nolo_points"] == 1
    assert home["sooli"] and not home["sooli_exchange"] and home["max_hands"] == 0
    fed = Tuppi.validate_options({"rules": "federation"})
    assert (fed["rami_defender_points"], fed["nolo_points"], fed["bid_card_ranks"]) == (
        8,
        4,
        "federation",
    )
    assert fed["sooli_exchange"] and fed["sooli_soloist_last"]
    tour = Tuppi.validate_options({"rules": "tournament"})
    assert (tour["sooli"], tour["bid_with"], tour["max_hands"]) == (False, "token", 16)
    assert Tuppi.validate_options({"rules": "tournament", "max_hands": 8})["max_hands"] == 8
    assert Tuppi.validate_options({"rules": "federation", "nolo_points": 1})["nolo_points"] == 1


@pytest.mark.parametrize(
    "options",
    [{"rules": "club"}, {"bid_with": "chips"}, {"target": 0}, {"sooli": "yes"}, {"max_hands": -1}],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match=next(iter(options))):
        Tuppi.new(options)


def test_unseeded_game_without_deals_waits() -> None:
    game = Tuppi.new()
    assert game.status == "awaiting_deal" and game.to_act() == ()
    with pytest.raises(IllegalMove):
        game.check(0, bid("rami"))


# ---------------------------------------------------------------- U6: exchange and ace low
def u6_game() -> Any:
    game = Tuppi.new({"rules": "federation"}, deals=[deal_from_deck(U6_DECK, 0)], first_dealer=0)
    game.apply(1, bid("nolo", "4C"))
    game.apply(2, bid("rami", "9D"))
    game.apply(3, bid("nolo", "5C"))
    events = game.apply(0, bid("nolo", "7C"))
    assert [e.data["seat"] for e in events if e.kind == "bid_revealed"] == [1, 2]
    assert game.to_act() == (3,)
    return game


def test_u6_exchange_is_private_and_soloist_hand() -> None:
    game = u6_game()
    game.apply(3, Move.of("sooli"))
    assert game.to_act() == (1,)
    events = game.apply(1, Move.of("give", card="2H"))
    for event in events:
        if "2H" in json.dumps(event.data) or "2♥" in event.text:
            assert event.to == frozenset({1, 3})
    assert "2H" not in game.hidden_cards(1) and "2H" in game.hidden_cards(0)
    game.apply(3, Move.of("return", card="QH"))
    assert sorted(game.view(3).hand or ()) == sorted(
        cards("AS 8S 3S AH 8H 7H 2H AD 8D TC 9C 6C 5C")
    )
    assert "QH" not in game.hidden_cards(3) and "QH" in game.hidden_cards(2)
    assert game.to_act() == (0,)  # S+1 leads; the soloist plays last to every trick


def test_sooli_refusals_and_order() -> None:
    game = u6_game()
    with pytest.raises(IllegalMove, match="answers about sooli"):
        game.check(1, Move.of("sooli"))
    game.apply(3, Move.of("pass"))
    assert game.to_act() == (1,)  # R+3
    game.apply(1, Move.of("pass"))
    assert game.to_act() == (1,) and game.phase == "tricks"  # R+3 leads the rami hand


def test_ace_low_in_sooli_and_high_otherwise() -> None:
    game = u6_game()
    game.apply(3, Move.of("sooli"))
    game.apply(1, Move.of("give", card="2H"))
    game.apply(3, Move.of("return", card="QH"))
    assert game.strength["AS"] < game.strength["2S"]
    plain = Tuppi.new(deals=[deal_from_deck(U6_DECK, 0)], first_dealer=0)
    assert plain.strength["AS"] > plain.strength["KS"]


def test_stop_when_decided_ends_a_hand_that_resets() -> None:
    game = Tuppi.new({"stop_when_decided": True}, seed=11)
    game.score = [10, 0]  # A is nousussa
    rng = random.Random(2)
    while game.status == "in_progress" and len(game.records) == 1:
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    result = game.records[0].result
    assert result is not None
    if result["scoring_team"] == 1:
        assert result["reset"] and game.score == [0, 0]
        assert result["stopped_early"] == (len(game.records[0].tricks) < 13)


# ---------------------------------------------------------------- properties
OPTION_SETS = st.fixed_dictionaries(
    {},
    optional={
        "rules": st.sampled_from(["home", "federation", "tournament"]),
        "sooli": st.booleans(),
        "sooli_exchange": st.booleans(),
        "sooli_soloist_last": st.booleans(),
        "bid_with": st.sampled_from(["hand_card", "token"]),
        "bid_card_ranks": st.sampled_from(["seed", "federation"]),
        "rami_defender_points": st.sampled_from([6, 8]),
        "nolo_points": st.sampled_from([1, 4]),
        "target": st.integers(10, 60),
        "max_hands": st.sampled_from([0, 4, 16]),
        "stop_when_decided": st.booleans(),
    },
)


def unrevealed_bids(game: Any) -> dict[int, str]:
    """Committed bid cards the reveal has not reached (while the hand is on)."""
    if game.phase == "between" or game.phase == "over":
        return {}
    shown = {seat for seat, _, _ in game.revealed}
    return {
        seat: commit[1]
        for seat, commit in enumerate(game.commits)
        if commit is not None
        and commit[1] is not None
        and seat not in shown
        and commit[1] in game.hands[seat]
    }


def check_secrecy(
    game: Any, events: list[Event], secret: dict[int, tuple[str, str | None]]
) -> None:
    """No public event, no other seat's view and no summary ever shows a secret commitment."""
    for seat, card in unrevealed_bids(game).items():
        for reader in [None, *range(4)]:
            if reader == seat:
                continue
            assert card in game.hidden_cards(reader)
            view = game.view(reader)
            assert view.own_bid is None or reader is not None
    for event in events:
        if event.kind in ("bid_committed",):
            assert set(event.data) == {"seat"} and event.to is None
        if event.kind == "bid_chosen":
            assert event.to == frozenset({event.data["seat"]})
        if event.to is None and event.kind == "bid_revealed":
            assert event.data["seat"] not in secret


def secret_for(
    game: Any,
    reader: int | None,
    hands_before: int,
    hidden_before: dict[int | None, set[str]],
    own: set[str],
    move: Move,
) -> set[str]:
    """The cards an event of the move just made must not show ``reader``.

    Within a hand: the cards hidden from the reader now. When the move ended the hand (the next
    one is dealt inside the same apply), the finished hand's secrets: the cards hidden before the
    move, less the mover's own cards (the card played, or an exposed hand).
    """
    if len(game.records) == hands_before:
        return set(game.hidden_cards(reader))
    return hidden_before[reader] - own - {move.get("card")}


def play(game: Any, rng: random.Random, probe: bool) -> None:
    moves = 0
    while game.status == "in_progress":
        assert moves < MAX_MOVES
        moves += 1
        seat = rng.choice(game.to_act())
        legal = game.legal_moves(seat)
        if game.phase in ("bids", "sooli", "exchange", "tricks"):
            held = [c for hand in game.hands for c in hand]
            assert sorted(held + game.played) == DECK, "52 cards conserved"
        if probe:
            wrong = [Move.of("play", card=c) for c in rng.sample(DECK, 6)]
            wrong += [bid("rami", c) for c in rng.sample(DECK, 4)] + [
                bid("nolo"),
                Move.of("sooli"),
                Move.of("pass"),
                Move.of("give", card="2C"),
            ]
            probe_moves(game, seat, wrong)
            views_hide_hidden_cards(game)
        commits_before = list(game.commits)
        dealer_before = game.dealer
        before_hands = len(game.records)
        score_before = list(game.score)
        hidden_before = {reader: game.hidden_cards(reader) for reader in [None, *range(4)]}
        own = set(game.hands[seat])
        move = rng.choice(legal)
        events = game.apply(seat, move)
        secret_now = {s: c for s, c in enumerate(game.commits) if c is not None}
        for seat_done, _, _ in game.revealed:
            secret_now.pop(seat_done, None)
        if probe:
            check_secrecy(game, events, secret_now)
            for event in events:
                readers = [None] if event.to is None else sorted(event.to)
                for reader in readers:
                    assert not leaked(
                        {"t": event.text, "d": dict(event.data)},
                        secret_for(game, reader, before_hands, hidden_before, own, move),
                    )
        scored = [e for e in events if e.kind == "hand_scored"]
        if scored:
            result = scored[0].data["result"]
            team = result["scoring_team"]
            assert result["points"] >= 1
            assert game.score[0] == 0 or game.score[1] == 0, "at most one team has points"
            if score_before[1 - team] > 0:
                assert game.score == [0, 0]
            else:
                assert game.score[team] == score_before[team] + result["points"]
                assert game.score[1 - team] == score_before[1 - team]
            # the summary names exactly the revealed prefix: D+1, D+2, ... up to the first rami
            order = [(dealer_before + i) % 4 for i in (1, 2, 3, 4)]
            values = [commits_before[s][0] for s in order]  # type: ignore[index]
            cut = values.index("rami") + 1 if "rami" in values else 4
            assert [(i["seat"], i["value"], i["card"]) for i in result["revealed"]] == [
                (s, *commits_before[s]) for s in order[:cut]
            ]  # type: ignore[misc]
            dealt = 0 if game.status == "finished" else 1
            assert len(game.records) == before_hands + dealt, "the next hand is dealt at once"


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=OPTION_SETS)
def test_random_play_with_options(seed: int, options: dict[str, Any]) -> None:
    game = Tuppi.new(options, seed=seed)
    play(game, random.Random(seed), probe=False)
    assert game.status == "finished"
    if game.options["max_hands"]:
        assert game.hands_played <= game.options["max_hands"]
    outcome = game.outcome()
    assert outcome is not None
    assert game.score[0] == 0 or game.score[1] == 0


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=OPTION_SETS)
def test_probed_play_keeps_secrets(seed: int, options: dict[str, Any]) -> None:
    options = {**options, "target": 12}
    game = Tuppi.new(options, seed=seed)
    play(game, random.Random(seed), probe=True)


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_bid_commit_events_never_name_the_card(seed: int) -> None:
    game = Tuppi.new(seed=seed)
    rng = random.Random(seed)
    commits: dict[int, tuple[str, str | None]] = {}
    public: list[Event] = []
    while game.phase == "bids":
        seat = rng.choice(game.to_act())
        move = rng.choice(game.legal_moves(seat))
        commits[seat] = (move.get("value"), move.get("card"))
        public += [e for e in game.apply(seat, move) if e.to is None]
    shown = {e.data["seat"] for e in public if e.kind == "bid_revealed"}
    hidden_cards = {card for seat, (_, card) in commits.items() if seat not in shown and card}
    text = json.dumps([[e.text, dict(e.data)] for e in public]) + json.dumps(game.summary())
    text += json.dumps(game.view(None).to_json())
    for card in hidden_cards:
        assert card not in text
    for seat in range(4):
        others = {c for s, (_, c) in commits.items() if s != seat and s not in shown and c}
        assert others <= game.hidden_cards(seat)


def test_computer_player_bids_by_strength() -> None:
    strong = cards("AS KS QS AH KH QH AD KD 3D AC KC 4C 5H")
    rest = [c for c in make_deck() if c not in strong]
    game = Tuppi.new(
        deals=[Deal((tuple(strong), tuple(rest[:13]), tuple(rest[13:26]), tuple(rest[26:])))],
        first_dealer=3,
    )
    assert choose_move(game, 0, random.Random(0)).get("value") == "rami"
    weak = cards("2S 3S 4S 5S 2H 3H 4H 6H 2D 3D 4D 2C 3C")
    rest = [c for c in make_deck() if c not in weak]
    game = Tuppi.new(
        deals=[Deal((tuple(weak), tuple(rest[:13]), tuple(rest[13:26]), tuple(rest[26:])))],
        first_dealer=3,
    )
    assert choose_move(game, 0, random.Random(0)).get("value") == "nolo"


def test_computer_players_finish_games() -> None:
    """Every rule set, played by computers to its end (eight hands at most: a game to 52 points
    is some fifteen hands of the same decisions)."""
    for seed in range(3):
        for options in ({}, {"rules": "federation"}, {"rules": "tournament"}):
            game = Tuppi.new({**options, "max_hands": 8}, seed=seed)
            rng = random.Random(seed)
            while game.status == "in_progress":
                seat = rng.choice(game.to_act())
                game.apply(seat, choose_move(game, seat, rng))
            assert game.outcome() is not None
