"""Tunge: tricky rules, refusals, options and properties (contract: shared/rules/tunge.md)."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import (
    AgainstRules,
    Deal,
    DealError,
    IllegalMove,
    Malformed,
    Move,
    NotYourTurn,
    OptionError,
)
from games.cards import display, make_deck
from games.levels import choose_move
from games.players import Seen
from games.tunge import (
    HAND_SIZE,
    Tunge,
    count_matches,
    hand_value,
    longest_viable,
    sequence_error,
)
from games.views import TungePhase, TungeView
from tests.examples import examples
from tests.games.probes import snapshot

DECK = make_deck()


def play(*cards: str) -> Move:
    return Move.of("play", cards=tuple(cards))


def ranks_of(move: Move) -> str:
    return "".join(card[0] for card in move.get("cards"))


def position(
    hands: list[list[str]],
    *,
    stock: list[str] | None = None,
    pile: list[str] | None = None,
    turn: int = 0,
    last_play: tuple[str, ...] = (),
    rest: str | int = "stock",
    **options: Any,
) -> Tunge:
    """A position: the listed cards in hands/stock/pile, every other card at the bottom of the
    stock (``rest="stock"``), the bottom of the pile (``"pile"``) or in a seat's hand."""
    placed = {c for h in hands for c in h} | set(stock or ()) | set(pile or ())
    others = [c for c in DECK if c not in placed]
    stock, pile, hands = list(stock or ()), list(pile or ()), [list(h) for h in hands]
    if rest == "stock":
        stock += others
    elif rest == "pile":
        pile = others + pile
    else:
        assert isinstance(rest, int)
        hands[rest] += others
    options.setdefault("players", len(hands))
    return Tunge.from_position(
        options, hands, stock=stock, pile=pile, turn=turn, last_play=last_play
    )


# ------------------------------------------------------------------ sequences (T1)
@pytest.mark.parametrize(
    "cards",
    [
        "5H 6S",
        "TD JC QH",
        "7S 6H 5D",
        "3S 2D",
        "5S 5D",
        "QS QH QD QC",
        "AS TD",
        "AH 3C",
        "AS AD 9H",
        "AC 2D 3S 4H",
        "AS 7C 7H 7D",
        "AH AC 5D 6S 7H 8C 9S",
        "AS AH",
        "AS AH AD",
        "AD QS KH",
        "AS AH AD AC",
        "AS AH AD AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        "AS AH 7D",
    ],
)
def test_legal_sequences(cards: str) -> None:
    assert sequence_error("".join(c[0] for c in cards.split())) is None


@pytest.mark.parametrize(
    ("ranks", "error"),
    [
        ("5", "A single card can only be played after an ace."),
        ("A", "A single card can only be played after an ace."),
        ("57", "Those cards are neither a run nor a group."),
        ("QKA", "An ace can only stand at the front of a sequence."),
        ("KA2", "An ace can only stand at the front of a sequence."),
        ("556", "A sequence is either a run or a group, not both."),
        ("566", "A sequence is either a run or a group, not both."),
        ("565", "A run must go straight up or straight down."),
        ("A5A", "An ace can only stand at the front of a sequence."),
        ("K2", "Those cards are neither a run nor a group."),
        ("A57", "Those cards are neither a run nor a group."),
    ],
)
def test_illegal_sequences(ranks: str, error: str) -> None:
    assert sequence_error(ranks) == error


# ------------------------------------------------------------------ reference (T3, T4)
@pytest.mark.parametrize(
    ("ref", "play_ranks", "pairs", "distinct"),
    [
        ("55", "55", 2, 1),
        ("AA7", "AAK", 2, 1),
        ("999", "A9", 1, 1),
        ("45", "23", 0, 0),
        ("56789", "89TJ", 2, 2),
        ("765", "A66", 1, 1),
        ("AK", "A234", 1, 1),
        ("", "55", 0, 0),
    ],
)
def test_match_counts(ref: str, play_ranks: str, pairs: int, distinct: int) -> None:
    assert count_matches(play_ranks, ref, False) == pairs
    assert count_matches(play_ranks, ref, True) == distinct


@pytest.mark.parametrize(
    ("pile", "lvs"),
    [
        ("9C 3S 4H 5D 5C", ("5", "5")),
        ("2H KS KD JC", ("(A)", "J")),
        ("QH JD JS 7C 8H 9S", ("7", "8", "9")),
        ("4S 5S 6D 7C", ("4", "5", "6", "7")),
        ("9H AS 5D 6C", ("A", "5", "6")),
        ("KD AH", ("(A)", "A")),
        ("3S 4H 5H KD KH KS", ("K", "K", "K")),
        ("5H 2C", ("(A)", "2")),
        ("2C TD TH JS QH", ("T", "J", "Q")),
        ("AS", ("(A)", "A")),
        ("7C", ("(A)", "7")),
        ("7C AS AH", ("A", "A")),
        ("AS AH 9D", ("A", "A", "9")),
        ("AD 3S AS AH 9D 8C", ("A", "A", "9", "8")),
        ("", ()),
    ],
)
def test_longest_viable_sequence(pile: str, lvs: tuple[str, ...]) -> None:
    assert longest_viable(pile.split()) == lvs


def test_longest_viable_matches_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        pile = rng.sample(DECK, rng.randint(1, 9))
        ranks = "".join(c[0] for c in pile)
        best = max(
            (j for j in range(2, len(pile) + 1) if sequence_error(ranks[-j:]) is None), default=None
        )
        expected = tuple(ranks[-best:]) if best else ("(A)", ranks[-1])
        assert longest_viable(pile) == expected, pile


def test_endgame_restriction_examples() -> None:
    """T4: LVS 7 8 9 refuses exact parts only (default), also containing ones (contains)."""
    hand = ["7D", "8S", "9C", "9H", "8D", "7S", "8C", "9D", "6H", "TH", "JH", "JC"]
    game = position([[], hand], pile=["QH", "JD", "JS", "7C", "8H", "9S"], turn=1, rest="pile")
    for cards in ("7D 8S 9C", "9H 8D 7S", "7D 8S", "8C 9D"):
        assert not game.is_legal(1, play(*cards.split())), cards
    for cards in ("6H 7D 8S", "7D 8S 9C TH", "JH JC", "9D 9H"):
        assert game.is_legal(1, play(*cards.split())), cards
    strict = position(
        [[], hand],
        pile=["QH", "JD", "JS", "7C", "8H", "9S"],
        turn=1,
        rest="pile",
        endgame_repeat_rule="contains",
    )
    for cards in ("6H 7D 8S", "7D 8S 9C TH"):
        with pytest.raises(IllegalMove, match="contains part of the last sequence 7-8-9"):
            strict.check(1, play(*cards.split()))
    assert strict.is_legal(1, play("JH", "JC"))
    assert strict.is_legal(1, play("9D", "9H"))


def test_normal_phase_has_no_repeat_restriction() -> None:
    game = position([["7D", "8S", "9C"], []], last_play=("7C", "8H", "9S"))
    assert game.is_legal(0, play("7D", "8S", "9C"))


# ------------------------------------------------------------------ turns
def test_refusal_messages() -> None:
    game = Tunge.new({"players": 3}, seed=4)
    seat = game.to_act()[0]
    hand = game.state.deal.hands[seat]
    with pytest.raises(IllegalMove, match="can still draw"):
        game.check(seat, Move.of("pass"))
    with pytest.raises(IllegalMove, match="single card can only be played after an ace"):
        game.check(seat, Move.of("play", card=hand[0]))
    with pytest.raises(IllegalMove, match="single card"):
        game.check(seat, play(hand[0]))
    with pytest.raises(IllegalMove, match="same card twice"):
        game.check(seat, play(hand[0], hand[0]))
    other = next(c for c in DECK if c not in hand)
    with pytest.raises(IllegalMove, match=f"do not hold {display(other)}"):
        game.check(seat, play(hand[0], other))
    with pytest.raises(IllegalMove, match="only play a sequence, draw or pass"):
        game.check(seat, Move.of("bid", value=3))
    with pytest.raises(IllegalMove, match="turn"):
        game.check((seat + 1) % 3, Move.of("draw"))


def test_pass_only_when_nothing_to_draw_and_no_play() -> None:
    others = [c for c in DECK if c not in ("2S", "4S")]
    game = position([["2S", "4S"], others[:25], others[25:]], turn=0)
    assert game.legal_moves(0) == [Move.of("pass")]
    with pytest.raises(IllegalMove, match="no card to draw"):
        game.check(0, Move.of("draw"))
    events = game.apply(0, Move.of("pass"))
    assert events[0].kind == "pass"
    assert game.state.deal.turn == 1
    assert Move.of("pass") not in game.legal_moves(1)
    with pytest.raises(IllegalMove, match="legal play, so you cannot pass"):
        game.check(1, Move.of("pass"))


def test_draw_from_pile_in_end_game_is_public() -> None:
    game = position([["2S", "4S"], ["9D", "KC"]], turn=0, rest="pile")
    top = game.state.deal.pile[-1]
    events = game.apply(0, Move.of("draw"))
    assert [e.to for e in events] == [None]
    assert events[0].data["card"] == top
    assert top in game.view(None).known_cards[0]
    assert top not in game.hidden_cards(1)


def test_draw_from_stock_is_private() -> None:
    game = Tunge.new({"players": 2}, seed=9)
    seat = game.to_act()[0]
    top = game.state.deal.stock[-1]
    events = game.apply(seat, Move.of("draw"))
    public = [e for e in events if e.to is None]
    private = [e for e in events if e.to is not None]
    assert all(top not in json.dumps(dict(e.data)) for e in public)
    assert private and private[0].to == frozenset({seat}) and private[0].data["card"] == top
    assert top in game.hidden_cards(None) and top not in game.hidden_cards(seat)


def test_forced_pickup_events_and_end_game_start() -> None:
    """A pick-up that empties the stock takes the rest from the pile and starts the end game."""
    hands = [["5C", "6C"], ["5D", "6D", "KS"]]
    game = position(
        hands, stock=["2H"], turn=1, last_play=("5S", "6S"), pile=["5S", "6S"], rest="pile"
    )
    assert game.reference().ranks == "56"
    events = game.apply(1, play("5D", "6D"))
    kinds = [e.kind for e in events]
    assert kinds == ["sequence_played", "forced_pickup", "forced_pickup", "end_game"]
    public, private = events[1], events[2]
    assert public.to is None and public.data["from_stock"] == 1
    assert public.data["from_pile"] == ["6D"]
    assert "2H" not in json.dumps(dict(public.data)) and "2♥" not in public.text
    assert private.to == frozenset({0}) and private.data["cards"] == ["2H"]
    assert sorted(game.state.deal.hands[0]) == sorted(["5C", "6C", "2H", "6D"])


def test_forced_pickup_ends_turn_option() -> None:
    hands = [["AS", "KD", "9C"], ["AH", "2D", "3S", "4H", "9D"]]
    game = position(hands, turn=0, forced_pickup_ends_turn=True)
    game.apply(0, play("AS", "KD"))
    game.apply(1, play("AH", "2D", "3S", "4H"))
    assert len(game.state.deal.hands[0]) == 2
    assert game.state.deal.turn == 1, "seat 0 picked up and lost his turn"
    normal = position(hands, turn=0)
    normal.apply(0, play("AS", "KD"))
    normal.apply(1, play("AH", "2D", "3S", "4H"))
    assert normal.state.deal.turn == 0


def test_winning_play_still_causes_pickup_before_scoring() -> None:
    hands = [["5C", "6C"], ["5D", "6D", "KS"]]
    game = position(hands, turn=0, last_play=("5S", "6S"))
    game.apply(0, play("5C", "6C"))
    assert game.status == "finished"
    result = game.summary()["deals"][0]["result"]
    assert result["winner"] == 0
    assert len(game.state.deal.hands[1]) == 5
    assert result["points"][0] == 0 and result["points"][1] == hand_value(game.state.deal.hands[1])
    assert game.outcome() is not None and game.outcome().winners == (0,)  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", range(6))
def test_third_repetition_blocks_the_deal(seed: int) -> None:
    """The hashed repetition rule agrees with exact positions (hands, pile, stock, turn)."""
    game = Tunge.new({"players": 2, "variant": "face_up_start"}, seed=seed)
    rng = random.Random(seed)
    seen: dict[Any, int] = {}

    def exact() -> Any:
        return (
            game.state.deal.turn,
            tuple(game.state.deal.pile),
            tuple(game.state.deal.stock),
            tuple(frozenset(hand) for hand in game.state.deal.hands),
        )

    seen[exact()] = 1
    worst = 1
    while game.status == "in_progress":
        assert worst < 3
        seat = game.state.deal.turn
        game.apply(seat, choose_move(game, seat, rng))
        key = exact()
        seen[key] = seen.get(key, 0) + 1
        worst = max(worst, seen[key])
    result = game.summary()["deals"][0]["result"]
    assert (result["blocked"] == "repetition") == (worst == 3 and result["winner"] is None)


def test_scoring_values() -> None:
    """T7: hands AS KD 7C 2H and TS JH QD are each worth 30."""
    assert hand_value(["AS", "KD", "7C", "2H"]) == 30
    assert hand_value(["TS", "JH", "QD"]) == 30


# ------------------------------------------------------------------ options and deals
def test_options() -> None:
    assert Tunge.validate_options({})["players"] == 4
    for bad in (
        {"players": 1},
        {"players": 5},
        {"variant": "odd"},
        {"turn_limit": 0},
        {"match_target": -1},
        {"pickup_count": "all"},
    ):
        with pytest.raises(OptionError, match=next(iter(bad))):
            Tunge.new(bad)
    with pytest.raises(OptionError, match="match_target"):
        Tunge.new({"scoring": False, "match_target": 100})
    for players, stock in ((2, 28), (3, 16), (4, 4)):
        game = Tunge.new({"players": players}, seed=1)
        assert len(game.state.deal.stock) == stock
        assert all(len(hand) == HAND_SIZE for hand in game.state.deal.hands)
        face_up = Tunge.new({"players": players, "variant": "face_up_start"}, seed=1)
        assert not face_up.state.deal.stock and face_up.state.deal.pile == list(
            face_up.deals[0].stock
        )


def test_bad_deals_are_refused() -> None:
    good = Tunge.new({"players": 2}, seed=3).deals[0]
    with pytest.raises(DealError):
        Tunge.new({"players": 3}, deals=[good])
    short = Deal((good.hands[0][:11], good.hands[1]), (good.hands[0][11], *good.stock))
    with pytest.raises(DealError):
        Tunge.new({"players": 2}, deals=[short])
    with pytest.raises(DealError):
        Tunge.new({"players": 2}, deals=[good], first_dealer=2)


def test_seeded_deals_follow_the_dealing_order() -> None:
    game = Tunge.new({"players": 3}, seed=11, first_dealer=1)
    deal = game.deals[0]
    assert game.state.deal.turn == 2
    assert len(deal.stock) == 16 and game.state.deal.stock[-1] == deal.stock[0]


def test_unseeded_match_waits_for_deals() -> None:
    game = Tunge.new({"players": 2, "match_target": 1000})
    assert game.status == "awaiting_deal"
    with pytest.raises(IllegalMove, match="not been dealt"):
        game.check(1, Move.of("draw"))
    game.add_deal(Tunge.new({"players": 2}, seed=5).deals[0])
    assert game.status == "in_progress" and game.to_act() == (1,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_match_to_a_target(players: int) -> None:
    game = Tunge.new({"players": players, "match_target": 60, "turn_limit": 150}, seed=players)
    rng = random.Random(players)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))
    summary = game.summary()
    totals = [0] * players
    for deal in summary["deals"]:
        totals = [t + p for t, p in zip(totals, deal["result"]["points"], strict=True)]
        assert deal["score_after"] == totals
    assert summary["score"] == totals and max(totals) >= 60
    assert all(max(d["score_after"]) < 60 for d in summary["deals"][:-1])
    outcome = game.outcome()
    assert outcome is not None
    assert set(outcome.winners) == {s for s in range(players) if totals[s] == min(totals)}
    dealers = [deal_index % players for deal_index in range(len(summary["deals"]))]
    assert dealers == [(0 + i) % players for i in range(len(summary["deals"]))]


def test_scoring_off() -> None:
    game = Tunge.new({"players": 2, "scoring": False, "turn_limit": 40}, seed=2)
    rng = random.Random(2)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    result = game.summary()["deals"][0]["result"]
    assert game.summary()["score"] == [0, 0]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == (() if result["winner"] is None else (result["winner"],))


# ------------------------------------------------------------------ enumeration
def brute_force_rank_sequences(game: Tunge, seat: int, longest: int) -> set[str]:
    found = set()
    hand = game.state.deal.hands[seat]
    for size in range(2, min(longest, len(hand)) + 1):
        for cards in itertools.permutations(hand, size):
            if game.is_legal(seat, play(*cards)):
                found.add("".join(c[0] for c in cards))
    return found


@settings(max_examples=examples(25), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(2, 6),
    end_game=st.booleans(),
    contains=st.booleans(),
)
def test_enumeration_equals_brute_force(
    seed: int, size: int, end_game: bool, contains: bool
) -> None:
    """legal_moves lists one play per legal rank sequence, and nothing else."""
    rng = random.Random(seed)
    cards = DECK[:]
    rng.shuffle(cards)
    hand, pile = cards[:size], cards[size : size + rng.randint(0, 4)]
    rest = cards[size + len(pile) :]
    options = {"players": 2, "endgame_repeat_rule": "contains" if contains else "exact"}
    if end_game:
        game = Tunge.from_position(options, [hand, rest], pile=pile, turn=0)
    else:
        game = Tunge.from_position(
            options,
            [hand, rest[:10]],
            stock=rest[10:],
            pile=pile,
            turn=0,
            last_play=tuple(pile[-2:]),
        )
    moves = [m for m in game.legal_moves(0) if m.action == "play"]
    listed = [ranks_of(m) for m in moves]
    assert len(listed) == len(set(listed)), "one play per rank sequence"
    assert set(listed) == brute_force_rank_sequences(game, 0, size)
    for move in moves:
        game.check(0, move)


def test_enumeration_of_a_big_hand_is_quick_and_sound() -> None:
    rng = random.Random(1)
    cards = DECK[:]
    rng.shuffle(cards)
    game = Tunge.from_position(
        {"players": 2},
        [cards[:34], cards[34:44]],
        stock=cards[44:50],
        pile=cards[50:],
        turn=0,
        last_play=tuple(cards[50:]),
    )
    moves = game.legal_moves(0)
    assert len(moves) > 100
    assert all(game.is_legal(0, move) for move in moves)
    # any other order or suits of a listed play is accepted too
    for move in moves[:50]:
        cards_ = list(move.get("cards"))
        same_rank = [
            c for c in game.state.deal.hands[0] if c not in cards_ and c[0] == cards_[-1][0]
        ]
        if same_rank:
            cards_[-1] = same_rank[0]
            assert game.is_legal(0, play(*cards_))


# ------------------------------------------------------------------ properties
OPTION_SETS = st.fixed_dictionaries(
    {
        "players": st.sampled_from([2, 3, 4]),
        "variant": st.sampled_from(["standard", "face_up_start"]),
        "pickup_count": st.sampled_from(["pairs", "distinct_ranks"]),
        "forced_pickup_ends_turn": st.booleans(),
        "endgame_repeat_rule": st.sampled_from(["exact", "contains"]),
        "turn_limit": st.sampled_from([60, 200, 500]),
    }
)


def random_non_sequence(game: Tunge, seat: int, rng: random.Random) -> Move | None:
    hand = game.state.deal.hands[seat]
    for _ in range(20):
        cards = rng.sample(hand, min(len(hand), rng.randint(1, 5)))
        if sequence_error("".join(c[0] for c in cards)) is not None:
            return play(*cards)
    return None


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_SETS, seed=st.integers(0, 2**32 - 1), ai=st.booleans())
def test_random_deals(options: dict[str, Any], seed: int, ai: bool) -> None:
    game = Tunge.new(options, seed=seed)
    rng = random.Random(seed)
    n = game.players
    steps = 0
    while game.status == "in_progress":
        steps += 1
        assert steps <= options["turn_limit"]
        seat = game.to_act()[0]
        # 52 cards at every step, the Zobrist hash is up to date
        cards = (
            [c for hand in game.state.deal.hands for c in hand]
            + game.state.deal.stock
            + game.state.deal.pile
        )
        assert sorted(cards) == sorted(DECK)
        assert game.state.deal.zobrist == game._rehash()
        legal = game.legal_moves(seat)
        assert legal
        for other in range(n):
            if other != seat:
                assert game.legal_moves(other) == []
        if steps % 7 == 0:
            before = snapshot(game)
            for move in legal:
                game.check(seat, move)
            bad = random_non_sequence(game, seat, rng)
            if bad is not None:
                with pytest.raises(IllegalMove):
                    game.apply(seat, bad)
            assert snapshot(game) == before
        for viewer in [None, *range(n)]:
            view = json.dumps(game.view(viewer).to_json(), ensure_ascii=False)
            for card in game.hidden_cards(viewer):
                assert f'"{card}"' not in view
            if viewer is not None:
                assert set(game.view(viewer).hand or ()) == set(game.state.deal.hands[viewer])
        stock_before = list(game.state.deal.stock)
        move = choose_move(game, seat, rng) if ai else rng.choice(legal)
        assert game.is_legal(seat, move)
        events = game.apply(seat, move)
        if move.action == "play" and game.summary()["deals"]:
            turn = game.summary()["deals"][-1]["turns"][-1]
            pickup = turn["pickup"]
            if pickup is not None:
                assert pickup["count"] <= len(move.get("cards"))
                assert (
                    pickup["from_stock"] == len(stock_before) - len(game.state.deal.stock)
                    or game.status != "in_progress"
                )
        if not any(e.kind == "new_deal" for e in events):
            for event in events:
                readers: list[int | None] = [None] if event.to is None else sorted(event.to)
                for reader in readers:
                    text = json.dumps({"t": event.text, "d": dict(event.data)}, ensure_ascii=False)
                    for card in game.hidden_cards(reader):
                        assert f'"{card}"' not in text and display(card) not in text
    assert game.status == "finished"
    result = game.summary()["deals"][0]["result"]
    assert result["turns"] <= options["turn_limit"]
    if result["winner"] is not None:
        assert result["hand_values"][result["winner"]] == 0
    else:
        assert result["blocked"] in ("turn_limit", "repetition", "all_passed")


def test_computer_player_sheds_high_cards() -> None:
    game = position([["2S", "3H", "KS", "KH", "9D"], ["4C", "7C"]], turn=0)
    move = choose_move(game, 0, random.Random(1))
    assert ranks_of(move) == "KK"
    winning = position([["2S", "3H"], ["4C", "7C"]], turn=0)
    assert ranks_of(choose_move(winning, 0, random.Random(1))) in ("23", "32")


def test_view_shapes() -> None:
    game = Tunge.new({"players": 3}, seed=8)
    public = game.view(None)
    assert isinstance(public, TungeView) and public.phase is TungePhase.TURNS
    assert public.hand is None and "hand" not in public.to_json()
    for key in (
        "game",
        "players",
        "dealer",
        "phase",
        "to_act",
        "prompt",
        "hand_sizes",
        "trick",
        "last_trick",
        "trump",
        "lines",
        "score",
        "score_label",
        "pile",
        "stock_size",
        "reference",
    ):
        assert key in public.to_json()
    mine = game.view(1)
    assert sorted(mine.hand or ()) == sorted(game.state.deal.hands[1])
    assert game.move_label(play("AS", "5H")) == "Play A♠ 5♥"
    assert game.move_label(Move.of("draw")) == "Draw"


# ------------------------------------------------------------------ the one check pattern
def test_refusals_are_typed_with_codes() -> None:
    game = Tunge.new({"players": 3}, seed=4)
    seat = game.to_act()[0]
    hand = game.state.deal.hands[seat]
    other = next(c for c in DECK if c not in hand)
    cases: list[tuple[int, Move, type[IllegalMove], str]] = [
        ((seat + 1) % 3, Move.of("draw"), NotYourTurn, "not_your_turn"),
        (seat, Move.of("bid", value=3), Malformed, "unknown_action"),
        (seat, Move.of("draw", x=1), Malformed, "no_details"),
        (seat, play(hand[0], hand[0]), Malformed, "card_twice"),
        (seat, play(hand[0], "ZZ"), Malformed, "not_a_card"),
        (seat, Move.of("play"), Malformed, "no_cards"),
        (seat, play(hand[0], other), AgainstRules, "card_not_held"),
        (seat, Move.of("play", card=hand[0]), AgainstRules, "single_card"),
        (seat, Move.of("pass"), AgainstRules, "can_draw"),
    ]
    for who, move, kind, code in cases:
        with pytest.raises(kind) as refusal:
            game.check(who, move)
        assert refusal.value.code == code, move
    with pytest.raises(NotYourTurn) as refusal:
        game.check((seat + 1) % 3, Move.of("draw"))
    assert refusal.value.params == {"seat": seat}


def test_grammar_and_restriction_refusals_carry_their_reason() -> None:
    hand = ["5S", "5D", "6H", "7D", "8S", "9C"]
    game = position([[], hand], pile=["QH", "JD", "JS", "7C", "8H", "9S"], turn=1, rest="pile")
    with pytest.raises(AgainstRules) as refusal:
        game.check(1, play("5S", "5D", "6H"))
    assert refusal.value.code == "mixed" and refusal.value.params == {}
    with pytest.raises(AgainstRules) as refusal:
        game.check(1, play("7D", "8S", "9C"))
    assert refusal.value.code == "repeats_sequence"
    assert refusal.value.params == {"reference": "7-8-9"}
    assert str(refusal.value) == "That repeats the last sequence 7-8-9."


def test_normalise_maps_any_suits_to_the_listed_play() -> None:
    game = position([["5S", "5H", "6D", "6C", "9H"], ["KD"]], turn=0)
    listed = game.normalise(0, play("5H", "6C"))
    assert listed == play("5S", "6D") and listed in game.legal_moves(0)
    assert game.normalise(0, play("6C", "5H")) == play("6D", "5S")
    assert game.normalise(0, play("5H", "9H")) == play("5H", "9H"), "illegal: unchanged"
    assert game.normalise(0, play("5H", "KD")) == play("5H", "KD"), "not held: unchanged"
    game.apply(0, play("5H", "6C"))
    assert game.state.deal.pile[-2:] == ["5H", "6C"], "the cards given are the cards played"
    assert sorted(game.state.deal.hands[0]) == ["5S", "6D", "9H"]


# ------------------------------------------------------------------ events, results
def test_history_marks_deal_results_and_game_over() -> None:
    game = Tunge.new({"players": 2, "match_target": 40, "turn_limit": 60}, seed=3)
    rng = random.Random(3)
    kinds: dict[str, set[bool]] = {}
    while game.status == "in_progress":
        seat = game.to_act()[0]
        for event in game.apply(seat, rng.choice(game.legal_moves(seat))):
            kinds.setdefault(event.kind, set()).add(event.history)
    expected = {"deal_won", "deal_blocked", "hand_scored", "game_over"}
    assert {"hand_scored", "game_over"} <= set(kinds)
    for kind, flags in kinds.items():
        assert flags == {kind in expected}, kind


def test_a_blocked_single_deal_has_no_winner() -> None:
    """D.1.10: a blocked deal has no winner, so neither has a one-deal game ending blocked."""
    game = Tunge.new({"players": 3, "turn_limit": 3}, seed=5)
    events = []
    while game.status == "in_progress":
        seat = game.to_act()[0]
        events = game.apply(seat, Move.of("draw"))
    assert next(e.kind for e in events if e.history) == "deal_blocked"
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == ()
    totals = game.summary()["score"]
    assert outcome.score == tuple(totals) and game.summary()["winner"] is None
    over = events[-1]
    assert over.kind == "game_over" and over.data["winners"] == []
    ranked = [seat for place in over.data["ranking"] for seat in place]
    assert [totals[seat] for seat in ranked] == sorted(totals)
    assert "without a winner" in over.text


def test_a_match_ending_in_a_blocked_deal_is_won_by_the_lowest_total() -> None:
    game = Tunge.new({"players": 2, "turn_limit": 2, "match_target": 1}, seed=5)
    while game.status == "in_progress":
        game.apply(game.to_act()[0], Move.of("draw"))
    totals = game.summary()["score"]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == tuple(s for s in range(2) if totals[s] == min(totals))


# ------------------------------------------------------------------ state
@pytest.mark.parametrize("players", [2, 3, 4])
def test_clone_is_independent_after_every_move(players: int) -> None:
    game = Tunge.new({"players": players, "variant": "face_up_start"}, seed=players)
    rng = random.Random(players)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        copy = game.clone()
        assert copy.state == game.state
        before = snapshot(game)
        move = rng.choice(copy.legal_moves(seat))
        copy.apply(seat, move)
        assert snapshot(game) == before, "a move on the clone changed the original"
        game.apply(seat, move)
        assert copy.state == game.state and snapshot(copy) == snapshot(game)


@pytest.mark.parametrize(
    ("players", "variant", "from_position"),
    [(2, "standard", False), (3, "face_up_start", False), (4, "standard", False), (3, "", True)],
)
def test_recorded_turns_count_the_stock_and_hands(
    players: int, variant: str, from_position: bool
) -> None:
    """A turn's stock_left and hand_sizes are counted from the deal's start when the turns are
    read (the engine records neither): they must be the stock and hands after that turn."""
    if from_position:
        game = position([["5S", "6S", "7S"], ["9H", "9D"], ["KC", "QC", "JC", "AS"]])
    else:
        game = Tunge.new({"players": players, "variant": variant}, seed=players)
    rng = random.Random(players)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_moves(seat)))
        if game.status != "in_progress":
            break
        deal = game.state.deal
        turn = game.state.records[-1].turns[-1]
        assert turn.stock_left == len(deal.stock)
        assert turn.hand_sizes == tuple(map(len, deal.hands))


def test_reads_never_change_the_state() -> None:
    game = Tunge.new({"players": 3}, seed=6)
    rng = random.Random(6)
    while game.status == "in_progress":
        seat = game.to_act()[0]
        before = game.state.clone()
        for viewer in [None, 0, 1, 2]:
            game.view(viewer)
            game.hidden_cards(viewer)
        for other in range(3):
            game.legal_moves(other)
        game.summary()
        game.reference()
        game.normalise(seat, play("2S", "3S"))
        assert game.state == before
        game.apply(seat, rng.choice(game.legal_moves(seat)))


# ------------------------------------------------------------------ computer player
def test_computer_player_sees_only_its_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    import games.players.tunge as player

    handed: list[object] = []
    real = player.choose

    def spy(seen: Seen, rng: random.Random) -> Move:
        handed.append(seen)
        return real(seen, rng)

    monkeypatch.setattr(player, "choose", spy)
    game = Tunge.new({"players": 3}, seed=2)
    seat = game.to_act()[0]
    move = choose_move(game, seat, random.Random(2))
    assert move in game.legal_moves(seat)
    (seen,) = handed
    assert isinstance(seen, Seen) and seen.seat == seat
    assert seen.view == game.view(seat) and list(seen.legal) == game.legal_moves(seat)
    hidden = game.hidden_cards(seat)
    assert not hidden & set(json.dumps(seen.view.to_json()).replace('"', " ").split())


@pytest.mark.parametrize(
    ("players", "turns", "score"),
    [(2, 18, [0, 24]), (3, 58, [19, 0, 28]), (4, 40, [0, 16, 15, 19])],
)
def test_computer_player_decides_as_before(players: int, turns: int, score: list[int]) -> None:
    """Self-play figures of the engine-embedded player it replaced: the same decisions."""
    game = Tunge.new({"players": players}, seed=players * 7)
    rng = random.Random(players)
    taken = 0
    while game.status == "in_progress":
        seat = game.to_act()[0]
        game.apply(seat, choose_move(game, seat, rng))
        taken += 1
    assert (taken, game.summary()["score"]) == (turns, score)
