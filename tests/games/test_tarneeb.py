"""Tarneeb and Egyptian Tarneeb: tricky rules, refusals, options, properties (contract Part A)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Deal, DealError, IllegalMove, Move, OptionError, deal_rng
from games.cards import make_deck
from games.levels import choose_move
from games.seats import next_seat
from games.tarneeb import RANK_VALUE, Tarneeb, hand_points
from games.tarneeb.engine import TarneebBase
from games.tarneeb_egyptian import EgyptianTarneeb
from games.transcript import replay
from games.tricks import trick_winner
from tests.examples import examples
from tests.games.probes import probe_moves, snapshot, views_hide_hidden_cards

ALL = set(make_deck())
P = Move.of("pass")
D = Move.of("double")


def bid(value: int, suit: str | None = None) -> Move:
    return Move.of("bid", value=value) if suit is None else Move.of("bid", value=value, suit=suit)


def play(card: str) -> Move:
    return Move.of("play", card=card)


def trump(suit: str) -> Move:
    return Move.of("trump", suit=suit)


def refusal(game: TarneebBase, seat: int, move: Move) -> str:
    before = snapshot(game)
    with pytest.raises(IllegalMove) as error:
        game.apply(seat, move)
    assert snapshot(game) == before
    return str(error.value)


# --- scoring (E2, E6) ------------------------------------------------------------------------

E2 = [  # b, t, kaboot, plain, kaboot + defenders_always_score
    (8, 8, (8, 0), (8, 0), (8, 5)),
    (8, 11, (11, 0), (11, 0), (11, 2)),
    (8, 7, (-8, 6), (-8, 6), (-8, 6)),
    (9, 6, (-9, 7), (-9, 7), (-9, 7)),
    (10, 13, (16, 0), (13, 0), (16, 0)),
    (13, 13, (26, 0), (13, 0), (26, 0)),
    (13, 12, (-16, 2), (-13, 1), (-16, 2)),
    (7, 0, (-7, 13), (-7, 13), (-7, 13)),
]


@pytest.mark.parametrize(("b", "t", "kaboot", "plain", "both"), E2)
def test_e2_scoring_table(b: int, t: int, kaboot: Any, plain: Any, both: Any) -> None:
    assert hand_points(b, t, kaboot=True, defenders_always=False)[:2] == kaboot
    assert hand_points(b, t, kaboot=False, defenders_always=False)[:2] == plain
    assert hand_points(b, t, kaboot=True, defenders_always=True)[:2] == both


def test_e6_doubled_scoring() -> None:
    assert hand_points(8, 9, kaboot=False, defenders_always=False, multiplier=2)[:2] == (18, 0)
    assert hand_points(8, 7, kaboot=False, defenders_always=False, multiplier=2)[:2] == (-16, 6)
    assert hand_points(8, 7, kaboot=False, defenders_always=False)[:2] == (-8, 6)
    assert hand_points(7, 13, kaboot=False, defenders_always=False)[:2] == (13, 0)
    # kaboot_scoring: the 2·o of a failed 13 is not doubled
    assert hand_points(13, 10, kaboot=True, defenders_always=False, multiplier=2)[:2] == (-32, 6)


# --- E5: legal cards and trick winners --------------------------------------------------------


@pytest.mark.parametrize(
    ("trump_suit", "trick", "winner"),
    [
        ("S", [(2, "KH"), (3, "AH"), (0, "2S"), (1, "QH")], 0),
        ("S", [(2, "KH"), (3, "AH"), (0, "2S"), (1, "3S")], 1),
        ("S", [(2, "KH"), (3, "AD"), (0, "2H"), (1, "QH")], 2),
        ("NT", [(2, "KH"), (3, "AS"), (0, "2H"), (1, "QH")], 2),
    ],
)
def test_e5_trick_winners(trump_suit: str, trick: list[tuple[int, str]], winner: int) -> None:
    assert trick_winner(trick, trump_suit, RANK_VALUE) == winner


def midhand(hand3: list[str], trump_suit: str = "S") -> Tarneeb:
    """A game in its play phase where seat 3 holds ``hand3`` and seat 2 has led KH."""
    game = Tarneeb.new(seed=1, first_dealer=1)
    for seat, move in [(2, bid(7)), (3, P), (0, P), (1, P), (2, trump(trump_suit))]:
        game.apply(seat, move)
    game.hands[3] = list(hand3)
    game.hands[2].append("KH") if "KH" not in game.hands[2] else None
    for seat in (0, 1):
        if "KH" in game.hands[seat]:
            game.hands[seat].remove("KH")
    game.apply(2, play("KH"))
    return game


def test_e5_must_follow_with_a_small_heart() -> None:
    game = midhand(["AS", "5S", "KD", "2H"])
    assert game.legal_moves(3) == [play("2H")]
    assert refusal(game, 3, play("AS")) == "You must follow hearts."


def test_e5_void_may_discard_instead_of_trumping() -> None:
    game = midhand(["AS", "5S", "KD"])
    assert set(game.legal_moves(3)) == {play("AS"), play("5S"), play("KD")}
    game.apply(3, play("KD"))


# --- auctions ------------------------------------------------------------------------------


def test_single_round_refusals() -> None:
    game = Tarneeb.new(seed=5, first_dealer=3)
    assert refusal(game, 1, bid(7)) == "It is {s0}'s turn."
    assert refusal(game, 0, bid(6)) == "Bid a whole number of tricks from 7 to 13."
    assert refusal(game, 0, bid(14)) == "Bid a whole number of tricks from 7 to 13."
    assert refusal(game, 0, play(game.hands[0][0])) == "The auction is not over yet."
    assert refusal(game, 0, trump("S")) == "Trump is named after the auction."
    game.apply(0, bid(13))
    assert refusal(game, 1, bid(13)) == "The highest bid is already 13, so you can only pass."
    assert game.legal_moves(1) == [P]
    game.apply(1, P)
    game.apply(2, P)
    assert game.legal_moves(3) == [P, bid(13)]  # the dealer may equal 13
    game.apply(3, P)
    assert game.declarer == 0 and game.phase == "trump"
    assert refusal(game, 0, play(game.hands[0][0])) == "{s0} must name the trump suit first."
    assert refusal(game, 0, trump("NT")).startswith("Name a trump suit")
    assert refusal(game, 0, Move.of("trump")).startswith("Name a trump suit")


def test_open_auction_turn_skips_passed_and_high_bidder() -> None:
    game = Tarneeb.new({"auction": "open"}, seed=2, first_dealer=0)
    for seat, move in [(1, bid(7)), (2, bid(8)), (3, P), (0, P)]:
        game.apply(seat, move)
    assert game.to_act() == (1,)
    game.apply(1, bid(9))
    assert game.to_act() == (2,)
    assert refusal(game, 3, bid(10)) == "It is {s2}'s turn."


def test_dealer_forced_open_auction() -> None:
    game = Tarneeb.new({"auction": "open", "all_pass": "dealer_forced_7"}, seed=2, first_dealer=0)
    for seat in (1, 2, 3):
        game.apply(seat, P)
    assert P not in game.legal_moves(0)
    game.apply(0, bid(7))
    assert game.declarer == 0 and game.phase == "trump"


def test_egyptian_auction_rules() -> None:
    game = EgyptianTarneeb.new(seed=4, first_dealer=0)
    assert refusal(game, 1, D) == "There is no bid to double."
    assert refusal(game, 1, bid(7)) == "Bid 7 to 13 tricks with a suit (C, D, H, S) or NT."
    assert refusal(game, 1, bid(7, "X")) == "Bid 7 to 13 tricks with a suit (C, D, H, S) or NT."
    game.apply(1, bid(7, "H"))
    assert refusal(game, 2, bid(7, "D")) == "Bid higher than 7 hearts."
    game.apply(2, P)
    assert refusal(game, 3, D) == "You cannot double your partner's bid."
    game.apply(3, P)
    game.apply(0, D)
    game.apply(1, bid(8, "H"))  # the bidder raises his own bid; the double lapses
    assert not game.doubled
    game.apply(2, D)
    assert refusal(game, 0, P) == "It is {s3}'s turn."
    game.apply(3, P)
    assert refusal(game, 0, D) == "That bid is already doubled."
    game.apply(0, P)
    assert refusal(game, 1, D) == "You cannot double your own bid."
    game.apply(1, P)
    assert game.phase == "play" and game.declarer == 1 and game.doubled and game.trump == "H"
    assert game.to_act() == (1,)


def test_egyptian_masrawy_strain_order() -> None:
    game = EgyptianTarneeb.new({"strain_order": "masrawy"}, seed=4, first_dealer=0)
    game.apply(1, bid(7, "H"))
    game.apply(2, bid(7, "D"))  # diamonds outrank hearts in this order
    assert refusal(game, 3, bid(7, "S")) == "Bid higher than 7 diamonds."
    game.apply(3, bid(7, "NT"))


def test_egyptian_auction_ends_and_13nt_tops() -> None:
    game = EgyptianTarneeb.new(seed=9, first_dealer=0)
    game.apply(1, bid(13, "NT"))
    assert game.legal_moves(2) == [P, D]
    assert refusal(game, 2, bid(13, "NT")).startswith("The highest bid is already 13 no trump")


# --- trump by first lead ---------------------------------------------------------------------


def test_first_lead_with_no_trump_option() -> None:
    options = {"trump_declaration": "first_lead", "allow_no_trump": True}
    game = Tarneeb.new(options, seed=3, first_dealer=1)
    for seat, move in [(2, bid(8)), (3, P), (0, P), (1, P)]:
        game.apply(seat, move)
    assert game.phase == "play" and game.trump is None
    assert trump("NT") in game.legal_moves(2)
    assert refusal(game, 2, trump("S")) == "Lead a card to make its suit trump, or call no trump."
    card = game.hands[2][0]
    clone = game.clone()
    clone.apply(2, play(card))
    assert clone.trump == card[1]
    assert refusal(clone, 3, trump("NT")) == "Trump is already settled for this hand."
    game.apply(2, trump("NT"))
    assert game.trump == "NT" and game.to_act() == (2,)
    assert trump("NT") not in game.legal_moves(2)


def test_first_lead_without_no_trump_has_no_trump_move() -> None:
    game = Tarneeb.new({"trump_declaration": "first_lead"}, seed=3, first_dealer=1)
    for seat, move in [(2, bid(8)), (3, P), (0, P), (1, P)]:
        game.apply(seat, move)
    assert all(move.action == "play" for move in game.legal_moves(2))
    assert refusal(game, 2, trump("NT")) == "Trump is already settled for this hand."


# --- deals, options, creation -----------------------------------------------------------------


def test_options_validated() -> None:
    with pytest.raises(OptionError, match="auction"):
        Tarneeb.new({"auction": "closed"})
    with pytest.raises(OptionError, match="target"):
        Tarneeb.new({"target": 50})
    with pytest.raises(OptionError, match="strain_order"):
        EgyptianTarneeb.new({"strain_order": "bridge2"})
    with pytest.raises(OptionError, match="scoring"):
        EgyptianTarneeb.new({"scoring": "kaboot"})
    with pytest.raises(OptionError, match="hand_limit"):
        Tarneeb.new({"hand_limit": 2})
    assert Tarneeb.validate_options({})["auction"] == "single_round"
    assert EgyptianTarneeb.validate_options({})["kaboot_scoring"] is False


def test_bad_deals_refused() -> None:
    good = Tarneeb.new(seed=1).deals[0]
    with pytest.raises(DealError):
        Tarneeb.new(deals=[Deal(good.hands[:3])])
    swapped = ((*good.hands[0][:12], good.hands[1][0]), *good.hands[1:])
    with pytest.raises(DealError):
        Tarneeb.new(deals=[Deal(swapped)])


def test_awaiting_deal_and_add_deal() -> None:
    game = Tarneeb.new(first_dealer=2)
    assert game.status == "awaiting_deal" and game.to_act() == ()
    assert refusal(game, 3, P) == "The next hand has not been dealt yet."
    deal = Tarneeb.new(seed=8).deals[0]
    game.add_deal(deal)
    assert game.status == "in_progress" and game.to_act() == (3,)
    with pytest.raises(IllegalMove):
        game.add_deal(deal)


def test_seeded_first_dealer_and_dealing_order() -> None:
    game = Tarneeb.new(seed=11)
    assert game.first_dealer == deal_rng(11, -1).randrange(4)
    cards = list(make_deck())
    deal_rng(11, 0).shuffle(cards)
    first = (game.first_dealer + 1) % 4
    assert game.deals[0].hands[first][0] == cards[0]
    assert game.deals[0].hands[(first + 1) % 4][0] == cards[1]


def test_hand_limit_ends_a_drifting_game() -> None:
    game = Tarneeb.new({"hand_limit": 10}, seed=21)
    rng = random.Random(21)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    assert game.status == "finished"
    assert len(game.records) <= 40
    outcome = game.outcome()
    assert outcome is not None and game.score[outcome.winners[0] % 2] > min(game.score)


# --- properties -------------------------------------------------------------------------------

TARNEEB_OPTIONS = st.fixed_dictionaries(
    {
        "auction": st.sampled_from(["single_round", "open"]),
        "dealer_may_equal": st.booleans(),
        "all_pass": st.sampled_from(
            ["redeal_same_dealer", "redeal_next_dealer", "dealer_forced_7"]
        ),
        "trump_declaration": st.sampled_from(["named", "first_lead"]),
        "allow_no_trump": st.booleans(),
        "scoring": st.sampled_from(["plain", "kaboot"]),
        "defenders_always_score": st.booleans(),
        "instant_win": st.sampled_from(["none", "kaboot_bid", "kaboot_any"]),
        "target": st.sampled_from([31, 41, 61]),
        "hand_limit": st.integers(10, 14),
    }
)
EGYPTIAN_OPTIONS = st.fixed_dictionaries(
    {
        "target": st.sampled_from([31, 41, 61]),
        "kaboot_scoring": st.booleans(),
        "strain_order": st.sampled_from(["bridge", "masrawy"]),
        "all_pass": st.sampled_from(
            ["redeal_same_dealer", "redeal_next_dealer", "dealer_forced_7"]
        ),
        "hand_limit": st.integers(10, 14),
    }
)


def check_invariants(game: TarneebBase) -> None:
    in_hands = [card for hand in game.hands for card in hand]
    on_table = [card for _, card in game.trick]
    taken = [card for trick in game.tricks for card in trick.cards]
    everything = in_hands + on_table + taken
    if game.phase in ("auction", "trump", "play"):
        assert len(everything) == 52 and set(everything) == ALL
        assert len(game.tricks) * 4 + len(on_table) + sum(map(len, game.hands)) == 52
        assert sum(game.team_tricks) == len(game.tricks)
    views_hide_hidden_cards(game)
    for seat in range(4):
        hidden = game.hidden_cards(seat)
        assert hidden == {c for s, h in enumerate(game.hands) if s != seat for c in h}
        assert set(game.view(seat).hand or ()) == set(game.hands[seat])


def bid_key(game: TarneebBase, call: tuple[int, str, int, str | None]) -> int:
    if isinstance(game, EgyptianTarneeb):
        assert call[3] is not None
        return game._key(call[2], call[3])
    return call[2]


def run_property_game(game: TarneebBase, seed: int) -> None:
    rng = random.Random(seed)
    steps = 0
    while game.status == "in_progress":
        steps += 1
        assert steps < 5000
        seat = game.to_act()[0]
        legal = game.legal_moves(seat)
        assert legal
        for other in range(4):
            if other != seat:
                assert game.legal_moves(other) == []
        if rng.random() < 0.15:
            check_invariants(game)
            probes = [
                P,
                D,
                bid(7),
                bid(13),
                bid(9, "S"),
                trump("H"),
                trump("NT"),
                *(play(card) for card in rng.sample(sorted(ALL), 6)),
            ]
            probe_moves(game, seat, probes, others=[next_seat(seat, 4)])
        move = choose_move(game, seat, rng) if rng.random() < 0.3 else rng.choice(legal)
        assert move in legal
        deal_before = game.deal_no
        calls_before = len(game.calls)
        score_before = list(game.score)
        game.apply(seat, move)
        if game.deal_no == deal_before and len(game.calls) > calls_before:
            bids = [c for c in game.calls if c[1] == "bid"]
            keys = [bid_key(game, c) for c in bids]
            equal_ok = (
                isinstance(game, Tarneeb)
                and game.options["auction"] == "single_round"
                and game.options["dealer_may_equal"]
            )
            for i in range(1, len(keys)):
                if equal_ok and bids[i][0] == game.dealer and i == len(keys) - 1:
                    assert keys[i] >= keys[i - 1]
                else:
                    assert keys[i] > keys[i - 1]
            assert all(7 <= c[2] <= 13 for c in bids)
        if len(game.records) > deal_before + 1 or game.status == "finished":
            record = game.records[deal_before]
            result = record.result
            if result is not None and not result["throw_in"]:
                assert sum(result["tricks"]) == 13 and len(record.tricks) == 13
                plain = (
                    isinstance(game, EgyptianTarneeb) or not game.options["defenders_always_score"]
                )
                if plain:
                    rises = [game.score[t] > score_before[t] for t in (0, 1)]
                    assert sum(rises) <= 1
    assert game.status == "finished"
    outcome = game.outcome()
    assert outcome is not None and game.winner is not None
    assert outcome.winners == (game.winner, game.winner + 2)
    last = game.records[-1].result or {}
    kaboot = last.get("tricks") is not None and max(last["tricks"]) == 13
    instant = game.options.get("instant_win", "none") != "none" and kaboot
    # An instant kaboot win stands "whatever the score" (rules/tarneeb.md C.3); else the leader.
    assert instant or game.score[game.winner] > game.score[1 - game.winner]


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=TARNEEB_OPTIONS)
def test_tarneeb_random_games(seed: int, options: dict[str, Any]) -> None:
    run_property_game(Tarneeb.new(options, seed=seed), seed)


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=EGYPTIAN_OPTIONS)
def test_egyptian_random_games(seed: int, options: dict[str, Any]) -> None:
    run_property_game(EgyptianTarneeb.new(options, seed=seed), seed)


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=st.one_of(TARNEEB_OPTIONS, EGYPTIAN_OPTIONS))
def test_random_option_games_replay(seed: int, options: dict[str, Any]) -> None:
    cls: type[TarneebBase] = EgyptianTarneeb if "strain_order" in options else Tarneeb
    game = cls.new(options, seed=seed)
    rng = random.Random(seed)
    moves = []
    while game.status == "in_progress":
        seat = game.to_act()[0]
        move = rng.choice(game.legal_moves(seat))
        game.apply(seat, move)
        moves.append({"seat": seat, **move.to_json()})
    transcript = {
        "format": 1,
        "game": cls.name,
        "options": options,
        "first_dealer": game.first_dealer,
        "deals": [deal.to_json() for deal in game.deals],
        "moves": moves,
    }
    output = replay(json.loads(json.dumps(transcript)))
    assert output["status"] == "finished"
    assert output["deals"] == json.loads(json.dumps(game.summary()["deals"]))
    assert output["winner"] == game.winner


@pytest.mark.parametrize("cls", [Tarneeb, EgyptianTarneeb])
def test_computer_players_make_most_contracts(cls: type[TarneebBase]) -> None:
    made = total = 0
    for seed in range(20):
        game = cls.new(seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = game.to_act()[0]
            move = choose_move(game, seat, rng)
            assert move in game.legal_moves(seat)
            game.apply(seat, move)
        for record in game.records:
            result = record.result
            if result and not result["throw_in"]:
                total += 1
                made += result["made"]
    assert total and made / total > 0.6


def test_events_name_trick_counts_and_scores() -> None:
    game = Tarneeb.new(seed=6)
    rng = random.Random(6)
    kinds: set[str] = set()
    while game.status == "in_progress" and "hand_scored" not in kinds:
        seat = game.to_act()[0]
        for event in game.apply(seat, choose_move(game, seat, rng)):
            kinds.add(event.kind)
            if event.kind == "trick_won":
                assert set(event.data) >= {"winner", "tricks", "contract", "declaring_team"}
            if event.kind == "hand_scored":
                assert set(event.data) >= {"points", "made", "tricks", "score"}
            assert event.to is None
    assert {
        "bid",
        "contract",
        "trump",
        "card_played",
        "trick_won",
        "hand_scored",
        "new_deal",
    } <= kinds


@pytest.mark.parametrize("cls", [Tarneeb, EgyptianTarneeb])
@pytest.mark.parametrize("all_pass", ["redeal_same_dealer", "dealer_forced_7"])
def test_direct_legality_agrees_with_the_move_lists(cls: type[TarneebBase], all_pass: str) -> None:
    """``is_legal`` (the fast path ``check`` uses) agrees with ``legal_moves`` on every call."""
    calls = [Move.of("pass"), Move.of("double"), Move.of("bid", value=7, extra=1)]
    calls += [Move.of("bid", value=v) for v in range(6, 15)]
    calls += [Move.of("bid", value=v, suit=s) for v in range(6, 15) for s in "CDHSX"]
    calls += [Move.of("bid", value=v, suit="NT") for v in range(6, 15)]
    calls += [Move.of("trump", suit=s) for s in ("S", "H", "D", "C", "NT")]
    for seed in range(6):
        game = cls.new({"all_pass": all_pass}, seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress" and len(game.records) < 4:
            for seat in range(4):
                legal = game.legal_moves(seat)
                for move in calls:
                    assert game.is_legal(seat, move) == (move in legal), (seat, move)
            seat = game.to_act()[0]
            game.apply(seat, rng.choice(game.legal_moves(seat)))
