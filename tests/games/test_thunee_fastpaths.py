"""Thunee's fast paths against plain readings: the deal plans, the shuffle, the status attribute,
the state's slots, the option-set cache, the tricks' seats, the calling's automatic passes.

The engine deals through cached itemgetter plans, draws the shuffle's keys by C calls, keeps
``status`` as an attribute beside ``phase``, keeps its state in slots, works out an option set
once, reads a trick's seats from a table and skips looking for automatic passes where none can
happen (all for speed); these tests pin each to the straightforward reading it replaced.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from games.base import OptionError, Status
from games.state import state_fields
from games.thunee import DECK, Thunee, deal_from_deck, packet_sizes, shuffled_deck
from games.thunee.auction import auction_table
from games.thunee.deck import SUIT_CARDS, deal_shuffled


def dealt_by_packets(
    deck: Sequence[str], dealer: int, players: int, first_packet: int | None
) -> tuple[tuple[str, ...], ...]:
    """§1.4 read plainly: packets in turn from ``dealer + 1`` (two players: a third, of six)."""
    pk1, pk2 = packet_sizes(players, first_packet or 2)
    second = players * pk1
    third = second + players * pk2
    hands: list[tuple[str, ...]] = [()] * players
    for i in range(players):
        cards = list(deck[i * pk1 : (i + 1) * pk1])
        cards += deck[second + i * pk2 : second + (i + 1) * pk2]
        if players == 2:
            cards += deck[third + i * 6 : third + (i + 1) * 6]
        hands[(dealer + 1 + i) % players] = tuple(cards)
    return tuple(hands)


@pytest.mark.parametrize(
    ("players", "first_packet"), [(2, None), (4, None), (4, 4), (6, None), (6, 2), (6, 3)]
)
def test_deal_plans_deal_the_packets(players: int, first_packet: int | None) -> None:
    rng = random.Random(players * 10 + (first_packet or 0))
    for dealer in range(players):
        deck = list(DECK)
        rng.shuffle(deck)
        deal = deal_from_deck(deck, dealer, players, first_packet)
        assert deal.hands == dealt_by_packets(deck, dealer, players, first_packet)
        assert deal.stock == ()


def test_shuffle_sorts_the_deck_by_random_keys() -> None:
    for seed in range(50):
        draw = random.Random(seed).random
        expected = sorted(DECK, key=lambda _card: draw())
        assert shuffled_deck(random.Random(seed)) == expected


@pytest.mark.parametrize(("players", "first_packet"), [(2, 4), (4, 4), (6, 2), (6, 3)])
def test_a_shuffled_deal_deals_the_shuffled_deck(players: int, first_packet: int) -> None:
    """deal_shuffled skips building the deck: it deals what dealing the shuffled deck deals."""
    for seed in range(20):
        for dealer in range(players):
            deck = shuffled_deck(random.Random(seed))
            expected = deal_from_deck(deck, dealer, players, first_packet)
            assert deal_shuffled(random.Random(seed), dealer, players, first_packet) == expected


def status_of(phase: str) -> Status:
    if phase == "over":
        return "finished"
    if phase == "awaiting_deal":
        return "awaiting_deal"
    return "in_progress"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_status_follows_the_phase(players: int) -> None:
    for seed in range(30):
        game = Thunee.new({"players": players}, seed=seed)
        rng = random.Random(seed)
        assert game.status == status_of(game.phase)
        while game.status == "in_progress":
            seat = rng.choice(game.to_act())
            game.apply(seat, rng.choice(game.legal_moves(seat)))
            assert game.status == status_of(game.phase)
        assert game.status == "finished"
        assert game.clone().status == "finished"


def test_status_waits_for_a_deal_and_goes_on_with_it() -> None:
    game = Thunee.new()
    assert game.status == "awaiting_deal"
    game.add_deal(deal_from_deck(DECK, 0))
    assert game.status == "in_progress"


def test_the_state_lives_in_slots_and_clones_copy_each_once() -> None:
    """The game's own attributes are ThuneeState's slots (its instance dict keeps only Game's
    few, under CPython's 30-name limit for inline attributes), and the layers above add none,
    so a clone lists every slot once and still copies it deeply."""
    fields = set(state_fields(Thunee))
    slots = [name for klass in Thunee.__mro__ for name in vars(klass).get("__slots__", ())]
    assert sorted(slots) == sorted(set(slots)), "a slot listed by two classes"
    game = Thunee.new({"players": 4}, seed=1)
    rng = random.Random(1)
    for _ in range(12):
        assert game.status == "in_progress"
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    assert set(vars(game)) <= {"options", "players", "deals", "first_dealer", "public_log"}
    assert set(slots) == fields - set(vars(game)) - {"public_log"}
    copy = game.clone()
    for name in slots:
        assert getattr(copy, name) == getattr(game, name), name
    copy.hands[0].append("XX")
    copy.points[0] += 1
    assert "XX" not in game.hands[0] and game.points != copy.points


def test_option_sets_are_worked_out_once_and_callers_get_copies() -> None:
    """``new`` takes the validated options and the table's constants from a cache per option
    set: they match a fresh reading, and ``validate_options`` still hands out a copy."""
    given = {"players": 6, "six_player_first_packet": 3, "challenge_mode": True}
    first = Thunee.new(given, seed=1)
    second = Thunee.new(dict(given), seed=2)
    assert second.options is first.options  # shared, read-only
    copy = Thunee.validate_options(given)
    assert copy == first.options and copy is not first.options
    copy["players"] = 2
    assert Thunee.new(given, seed=3).players == 6
    assert (first.players, first.pk1, first.pk2, first.hand_len) == (6, 3, 1, 4)
    assert (first.half_tricks, first.total_tricks, first.count_target) == (4, 4, 105)
    assert first._challenge and first._undercut and not first._single_step
    assert first._seats == frozenset(range(6)) and first.jodhi_close == 3
    two = Thunee.new({"players": 2, "two_player_target": 105})
    assert (two.total_tricks, two.count_target, two.jodhi_close) == (12, 105, 1)
    with pytest.raises(OptionError):
        Thunee.new({"players": True})  # equal to 1 and hashed alike, but not a number
    with pytest.raises(OptionError):
        Thunee.new({"players": [4]})  # unhashable: validated without the cache


@pytest.mark.parametrize(
    "options",
    [{"players": 2}, {"players": 4}, {"players": 6}, {"players": 4, "challenge_mode": True}],
)
def test_a_tricks_record_names_the_seats_that_played(options: dict[str, object]) -> None:
    """A finished trick's seats come from a table by leader (every seat plays, in turn): they
    are the seats whose cards the trick's ``card_played`` events showed."""
    for seed in range(15):
        game = Thunee.new(options, seed=seed)
        rng = random.Random(seed)
        played: list[tuple[int, str]] = []
        tricks: list[list[tuple[int, str]]] = []
        while game.status == "in_progress":
            seat = rng.choice(game.to_act())
            for event in game.apply(seat, rng.choice(game.legal_moves(seat))):
                if event.kind == "card_played":
                    played.append((event.data["seat"], event.data["card"]))
                elif event.kind == "trick_won":
                    tricks.append(played)
                    played = []
                elif event.kind == "new_deal":
                    played = []  # an annulled hand's unfinished trick
        records = [trick for hand in game.records for trick in hand.tricks]
        assert [list(zip(r.seats, r.cards, strict=True)) for r in records] == tricks
        assert [r.leader for r in records] == [trick[0][0] for trick in tricks]


@pytest.mark.parametrize("single_step", [False, True])
@pytest.mark.parametrize("blind_thunee", [False, True])
@pytest.mark.parametrize("blind_royals", [False, True])
def test_automatic_passes_are_skipped_only_where_none_can_happen(
    single_step: bool, blind_thunee: bool, blind_royals: bool
) -> None:
    """The calling skips its automatic passes when the holding team's entry has a choice: then
    every entry has one (each adds calls to the holding team's moves)."""
    table = auction_table(single_step, blind_thunee, blind_royals)
    if len(table[-1]) > 1:
        assert all(len(moves) > 1 for moves in table.values())
    else:
        assert not (blind_thunee or blind_royals)


def test_suit_cards_split_the_deck_by_suit() -> None:
    assert sorted(card for cards in SUIT_CARDS.values() for card in cards) == sorted(DECK)
    assert all(card[1] == suit for suit, cards in SUIT_CARDS.items() for card in cards)
