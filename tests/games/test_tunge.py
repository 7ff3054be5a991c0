"""Tunge: what may be played, its sequences, the reference a play must match, the end game's
repeat rule and the enumeration of legal plays (contract: shared/rules/tunge.md).

Turns, options, refusals and results are tested in ``test_tunge_turns.py``, random and computer
play, clones and views in ``test_tunge_properties.py``.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalMove, Move
from games.cards import make_deck
from games.tunge import Tunge, count_matches, longest_viable, sequence_error
from tests.examples import examples

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
