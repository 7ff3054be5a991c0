"""Tunge's sequence grammar: what a play is, the reference it is compared with, and every play.

Pure functions of rank letters and cards, apart from the engine's turn flow. Suits never matter
in Tunge, so everything here works on *rank strings* (``"A567"``, the cards' rank letters in play
order) and maps them back to cards only at the end.

- :func:`sequence_fault` says why a rank string is no sequence (D.1.4), as a reason code.
- :func:`longest_viable` finds the end game's reference at the top of the pile (D.1.5).
- :class:`Reference` is the reference of one position and its end-game restriction (D.1.7).
- :func:`enumerate_plays` lists one play per legal rank sequence of a hand (the canonical cards:
  for each rank, the hand's first cards of that rank in suit order S, H, D, C); :func:`plays_of`
  does it from a :class:`RankIndex`, the hand by rank that the engine keeps up to date.
- :func:`canonical_cards` maps any play of held cards to that canonical form.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, compress
from operator import itemgetter, not_
from typing import NamedTuple

from games.cards import make_deck

DECK = make_deck()
FULL_DECK = frozenset(DECK)
ACE = 12
RANK_LETTERS = "23456789TJQKA"
#: rank letter -> index: 2..K are 0..11, the ace is 12
RANK_INDEX = {r: i for i, r in enumerate(RANK_LETTERS)}
SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
PHANTOM = "(A)"

# Reason codes of the grammar (texts in games.tunge.reasons).
SINGLE_CARD = "single_card"
ACE_FRONT = "ace_front"
NOT_SEQUENCE = "not_sequence"
MIXED = "mixed"
ZIGZAG = "zigzag"
REPEATS_ALL = "repeats_sequence"
REPEATS_PART = "repeats_part"
CONTAINS_PART = "contains_part"


def sequence_fault(ranks: str) -> str | None:
    """Why a rank string (letters in play order) is no sequence, as a reason code; None if it is.

    The order of the tests decides which reason a player hears for a play with several faults.
    """
    n = len(ranks)
    if n < 2:
        return SINGLE_CARD
    k = 0
    while k < n and ranks[k] == "A":
        k += 1
    tail = ranks[k:]
    if not tail:
        return None  # k >= 2: a group of aces
    if "A" in tail:
        return ACE_FRONT
    if len(tail) == 1:
        return None  # k >= 1 here, since n >= 2
    first = RANK_INDEX[tail[0]]
    step = RANK_INDEX[tail[1]] - first
    if step == 0:
        if all(r == tail[0] for r in tail):
            return None
        return MIXED
    if step not in (1, -1):
        return NOT_SEQUENCE
    for i, letter in enumerate(tail):
        expected = first + step * i
        got = RANK_INDEX[letter]
        if got != expected:
            if got == RANK_INDEX[tail[i - 1]]:
                return MIXED
            if got == expected - 2 * step:
                return ZIGZAG
            return NOT_SEQUENCE
    return None


def longest_viable(pile: Sequence[str]) -> tuple[str, ...]:
    """The LVS of a pile (bottom first) as rank letters, deeper card first; ``(A)`` is the
    phantom ace. Empty when the pile is empty."""
    n = len(pile)
    if n == 0:
        return ()
    start = lvs_start(pile)
    if start == n - 1:
        return (PHANTOM, pile[-1][0])
    return tuple([card[0] for card in pile[start:]])


def lvs_start(pile: Sequence[str]) -> int:
    """Where the LVS of a non-empty pile begins: the index of its deepest card, the top card's
    (``len(pile) - 1``) when it is that card behind a phantom ace.

    It reads only the LVS and the card below it, so piles with the same LVS cards have the same
    reference (:meth:`Reference.of_pile` remembers them so).
    """
    n = len(pile)
    top = pile[-1][0]
    i = n - 1  # index of the deepest card taken so far
    if top == "A":
        while i > 0 and pile[i - 1][0] == "A":
            i -= 1
        return i
    if n >= 2:
        below = pile[n - 2][0]
        if below == "A":
            i = n - 2
        elif below == top:
            i = n - 2
            while i > 0 and pile[i - 1][0] == top:
                i -= 1
        else:
            step = RANK_INDEX[top] - RANK_INDEX[below]  # top minus the card below
            if step in (1, -1):
                i = n - 2
                while i > 0:
                    deeper = pile[i - 1][0]
                    if deeper == "A" or RANK_INDEX[pile[i][0]] - RANK_INDEX[deeper] != step:
                        break
                    i -= 1
        if i < n - 1:
            while i > 0 and pile[i - 1][0] == "A":
                i -= 1
    return i


@functools.lru_cache(maxsize=65_536)
def count_matches(play: str, reference: str, distinct: bool) -> int:
    """Matched pairs (or, with ``distinct``, shared ranks) between two rank strings (D.1.6).

    Remembered: the same short rank strings meet again and again, and a lookup in C costs a
    fraction of the count."""
    if not reference:
        return 0
    if distinct:
        return len(set(play).intersection(reference))
    matches = 0
    for letter in set(play):
        if letter in reference:
            mine = play.count(letter)
            theirs = reference.count(letter)
            matches += mine if mine < theirs else theirs
    return matches


def rank_word(letter: str) -> str:
    return "10" if letter == "T" else letter


def describe(reference: Iterable[str]) -> str:
    """A reference for people: ``7-8-9``, the phantom ace shown as ``A``."""
    return "-".join(rank_word("A" if r == PHANTOM else r) for r in reference)


class Restriction(NamedTuple):
    """What the end-game rule (D.1.7) refuses, for one reference's ranks and rule.

    ``parts`` are the rank multisets (sorted letters) of every contiguous part (2+ cards) of the
    LVS; ``plays`` the rank strings of every sequence with such a multiset (aces first, then the
    rest ascending or descending: the only orders a sequence can have), so a legal play is
    checked with one set lookup; ``pairs`` (rule ``contains``) the LVS's adjacent rank pairs in
    either order.
    """

    parts: frozenset[str]
    plays: frozenset[str]
    pairs: frozenset[str]


NO_RESTRICTION = Restriction(frozenset(), frozenset(), frozenset())


@functools.lru_cache(maxsize=4096)
def restriction(ranks: str, contains: bool) -> Restriction:
    """The end-game restriction of an LVS (its rank letters, the phantom ace as ``A``)."""
    parts = set()
    plays = set()
    n = len(ranks)
    for i in range(n - 1):
        for j in range(i + 2, n + 1):
            part = ranks[i:j]
            parts.add("".join(sorted(part)))
            aces = "A" * part.count("A")
            rest = sorted((r for r in part if r != "A"), key=RANK_INDEX.__getitem__)
            plays.add(aces + "".join(rest))
            plays.add(aces + "".join(reversed(rest)))
    pairs = set()
    if contains:
        for i in range(n - 1):
            pairs.add(ranks[i : i + 2])
            pairs.add(ranks[i + 1] + ranks[i])
    return Restriction(frozenset(parts), frozenset(plays), frozenset(pairs))


class Reference:
    """The reference of one position (D.1.5) and what it forbids in the end game (D.1.7).

    ``shown`` is the rank letters with ``(A)`` for a phantom ace, ``cards`` the real pile cards it
    is made of, ``ranks`` the letters it matches with (the phantom ace counted as an ace).
    Immutable once made.
    """

    __slots__ = ("cards", "end_game", "ranks", "restriction", "shown")

    def __init__(
        self, shown: tuple[str, ...], cards: tuple[str, ...], end_game: bool, contains: bool
    ) -> None:
        self.shown = shown
        self.cards = cards
        self.end_game = end_game
        if shown and shown[0] == PHANTOM:
            self.ranks = "A" + shown[1]
        else:
            self.ranks = "".join(shown)
        self.restriction = (
            restriction(self.ranks, contains) if end_game and self.ranks else NO_RESTRICTION
        )

    @classmethod
    def normal(cls, last_play: tuple[str, ...], contains: bool) -> Reference:
        """While the stock has cards: the last sequence played (none before the first play)."""
        key = (last_play, contains)
        ref = _NORMAL_REFS.get(key)
        if ref is None:
            ref = cls(tuple([card[0] for card in last_play]), last_play, False, contains)
            _remember(_NORMAL_REFS, key, ref)
        return ref

    @classmethod
    def of_ranks(cls, ranks: str) -> Reference:
        """While the stock has cards, as the moves read it: the last sequence's rank letters
        (its cards, which :meth:`normal` keeps for people, never matter to the rules).

        Remembered by the ranks, which repeat far more often than the cards (they are few: a
        sequence's rank string has at most 16 letters, in the orders the grammar allows)."""
        ref = RANK_REFS.get(ranks)
        if ref is None:
            ref = RANK_REFS[ranks] = cls(tuple(ranks), (), False, False)
        return ref

    @classmethod
    def of_pile(cls, pile: Sequence[str], contains: bool) -> Reference:
        """Once the stock is empty: the longest viable sequence at the top of the pile.

        Remembered by the LVS's cards, which decide it (one card: behind a phantom ace).
        """
        cards = tuple(pile[lvs_start(pile) :]) if pile else ()
        key = (cards, contains)
        ref = _PILE_REFS.get(key)
        if ref is None:
            if len(cards) == 1:
                shown: tuple[str, ...] = (PHANTOM, cards[0][0])
            else:
                shown = tuple([card[0] for card in cards])
            ref = cls(shown, cards, True, contains)
            _remember(_PILE_REFS, key, ref)
        return ref

    def fault(self, play: str) -> str | None:
        """Why the end-game restriction refuses a play (rank string), as a reason code."""
        rule = self.restriction
        if not rule.parts:
            return None
        if "".join(sorted(play)) in rule.parts:
            return REPEATS_ALL if len(play) == len(self.ranks) else REPEATS_PART
        pairs = rule.pairs
        if pairs:
            for i in range(len(play) - 1):
                if play[i : i + 2] in pairs:
                    return CONTAINS_PART
        return None


#: The references already made (they are immutable): by the last play, by the LVS's cards.
_NORMAL_REFS: dict[tuple[tuple[str, ...], bool], Reference] = {}
#: The normal phase's references as the moves read them, by their rank letters (of_ranks).
RANK_REFS: dict[str, Reference] = {}
_PILE_REFS: dict[tuple[tuple[str, ...], bool], Reference] = {}
_CACHE_LIMIT = 20_000


def _remember(
    cache: dict[tuple[tuple[str, ...], bool], Reference],
    key: tuple[tuple[str, ...], bool],
    ref: Reference,
) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = ref


#: The reference before the first play of a deal with cards in the stock.
NO_REFERENCE = Reference.normal((), False)


class Lvs:
    """The end-game reference as the rules read it: :class:`Reference`'s ``shown``, ``ranks``
    and ``restriction`` for an LVS known by its rank letters alone (``letters``, deeper first).

    The engine keeps one per height of the pile and finds the next with :meth:`then` when a card
    is played; suits never matter to the rules, so few of them exist and each remembers its
    successors. Immutable once made, apart from that memory (``after``).
    """

    __slots__ = ("after", "contains", "letters", "ranks", "restriction", "shown")

    def __init__(self, letters: tuple[str, ...], contains: bool) -> None:
        self.letters = letters
        self.contains = contains
        if len(letters) == 1:
            self.shown: tuple[str, ...] = (PHANTOM, letters[0])
            self.ranks = "A" + letters[0]
        else:
            self.shown = letters
            self.ranks = "".join(letters)
        self.restriction = restriction(self.ranks, contains) if letters else NO_RESTRICTION
        self.after: dict[str, Lvs] = {}

    @classmethod
    def of(cls, letters: tuple[str, ...], contains: bool) -> Lvs:
        """The one Lvs of these letters (they are few: see the class)."""
        key = (letters, contains)
        lvs = _LVS.get(key)
        if lvs is None:
            lvs = _LVS[key] = cls(letters, contains)
        return lvs

    def then(self, letter: str) -> Lvs:
        """The reference once a card of rank ``letter`` is put on a pile whose reference this is.

        The new LVS is a top part of this one's letters and ``letter`` (it grows by the card,
        starts again at the card below it, or is the card behind a phantom ace)."""
        lvs = self.after.get(letter)
        if lvs is None:
            letters = (*self.letters, letter)
            lvs = self.after[letter] = Lvs.of(letters[lvs_start(letters) :], self.contains)
        return lvs


_LVS: dict[tuple[tuple[str, ...], bool], Lvs] = {}


CARD_RANK = {card: RANK_INDEX[card[0]] for card in DECK}
RANK_BIT = {card: 1 << rank for card, rank in CARD_RANK.items()}
ACE_BIT = 1 << ACE
SUIT_OF = {card: SUIT_INDEX[card[1]] for card in DECK}.__getitem__
_first = itemgetter(0)  # a list's first item


def _segments(mask: int) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
    """The runs of 2+ consecutive number ranks in a rank mask: (lowest, length, the rank strings
    of its plays in listing order: every part of 2+ cards, up then down)."""
    out = []
    r = 0
    while r < 12:
        if mask >> r & 1:
            low = r
            while r < 12 and mask >> r & 1:
                r += 1
            if r - low >= 2:
                out.append(_run(low, r - low))
        else:
            r += 1
    return tuple(out)


@functools.cache  # 66 runs make up the 4,096 masks' segments: each is spelled out once
def _run(low: int, length: int) -> tuple[int, int, tuple[str, ...]]:
    """A run's (lowest, length, the rank strings of its plays, up then down)."""
    letters = RANK_LETTERS[low : low + length]
    ranks = []
    for i, j in _parts(length):
        ranks += [letters[i:j], letters[i:j][::-1]]
    return low, length, tuple(ranks)


def _parts(length: int) -> list[tuple[int, int]]:
    """The (start, end) of every part of 2+ cards of a run, in listing order."""
    return [(i, j) for i in range(length - 1) for j in range(i + 2, length + 1)]


def _run_slices(length: int) -> tuple[slice, ...]:
    """Per part of a run of ``length`` cards, the slices that take it up, then down."""
    out: list[slice] = []
    for i, j in _parts(length):
        out += [slice(i, j), slice(j - 1, i - 1 if i else None, -1)]
    return tuple(out)


#: per mask of number ranks held (bit i: rank index i), its maximal runs
SEGMENTS = [_segments(mask) for mask in range(4096)]
#: per mask of ranks held (aces too), whether a hand with one card of each makes no play (no ace,
#: no run): the usual end-game hand
NO_PLAY = [mask < ACE_BIT and not SEGMENTS[mask] for mask in range(1 << 13)]
#: per mask of number ranks, the rank indexes it holds, ascending
BITS = [tuple(r for r in range(12) if mask >> r & 1) for mask in range(4096)]
#: per mask of number ranks, their letters (the single cards a play behind aces may end with)
LETTERS = [tuple(RANK_LETTERS[r] for r in bits) for bits in BITS]
#: per run length, the slices of its cards that make its plays (SEGMENTS gives their ranks)
RUN_SLICES = [_run_slices(length) for length in range(14)]
#: per number of cards of a rank, the slices that make its groups (2, 3, ... cards)
GROUP_SLICES = [tuple(slice(0, n) for n in range(2, size + 1)) for size in range(5)]
#: per rank index and number of its cards, the groups' rank strings
GROUP_RANKS = [
    [tuple(letter * n for n in range(2, size + 1)) for size in range(5)] for letter in RANK_LETTERS
]
ACES = ["A" * k for k in range(5)]


class RankIndex:
    """A hand's cards by rank, kept up to date card by card: what :func:`plays_of` reads.

    ``by[r]`` holds the hand's cards of rank index ``r`` in suit order (S, H, D, C), ``mask`` has
    bit ``r`` for a rank held and ``multi`` for one held twice or more. The engine keeps one per
    seat beside the hand, so that listing a position's plays does not first sort the hand out
    again (most positions of a deal list the plays of a hand that changed by one card).
    """

    __slots__ = ("by", "mask", "multi")

    def __init__(self, hand: Iterable[str] = ()) -> None:
        by: list[list[str]] = [[] for _ in range(13)]
        mask = multi = 0
        # add's work without a call per card: in suit order, each rank's cards come out sorted
        for card in sorted(hand, key=SUIT_OF):
            cards = by[CARD_RANK[card]]
            if cards:
                multi |= RANK_BIT[card]
            else:
                mask |= RANK_BIT[card]
            cards.append(card)
        self.by = by
        self.mask = mask
        self.multi = multi

    def add(self, card: str) -> None:
        cards = self.by[CARD_RANK[card]]
        cards.append(card)
        if len(cards) == 1:
            self.mask |= RANK_BIT[card]
        else:
            self.multi |= RANK_BIT[card]
            cards.sort(key=SUIT_OF)

    def remove(self, card: str) -> None:
        cards = self.by[CARD_RANK[card]]
        cards.remove(card)
        if not cards:
            self.mask &= ~RANK_BIT[card]
        elif len(cards) == 1:
            self.multi &= ~RANK_BIT[card]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RankIndex):
            return NotImplemented
        return (self.by, self.mask, self.multi) == (other.by, other.mask, other.multi)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"RankIndex({[card for cards in self.by for card in cards]!r})"

    def copy(self) -> RankIndex:
        other = _new_index(RankIndex)
        other.by = [cards.copy() for cards in self.by]
        other.mask = self.mask
        other.multi = self.multi
        return other


_new_index = object.__new__


def enumerate_plays(
    hand: Sequence[str], reference: Callable[[], Reference]
) -> list[tuple[str, ...]]:
    """One play per legal rank sequence of ``hand`` (its canonical cards), the end-game
    restriction applied: :func:`plays_of` for a hand without an index."""
    return plays_of(RankIndex(hand), reference())


def plays_of(index: RankIndex, reference: Reference | Lvs) -> list[tuple[str, ...]]:
    """One play per legal rank sequence (its canonical cards), the end-game restriction applied.

    The listing order: groups, then runs (each up, then down), then the same behind one ace, two
    aces, ...; behind aces also single cards and, from two aces on, the aces alone.

    The plays are cut from the hand's cards by precomputed slices and ace prefixes mapped in C;
    their rank strings, which only the end game's restriction reads, come from tables and are
    joined only when a restriction needs them.
    """
    mask = index.mask
    multi = index.multi
    numbers = mask & 4095
    if not multi and NO_PLAY[mask]:
        return []  # no group, no run, no ace
    by = index.by
    rule = reference.restriction
    refused = rule.plays
    bad = rule.pairs  # only with plays refused too (an LVS of 2+ ranks), so ranks are made
    tails: list[tuple[str, ...]] = []  # groups, then runs
    ranks: list[str] = []  # their rank strings, made only for a restriction to read
    for r in BITS[multi & 4095]:
        cards = by[r]
        size = len(cards)
        tails += map(tuple(cards).__getitem__, GROUP_SLICES[size])
        if refused:
            ranks += GROUP_RANKS[r][size]
    for low, length, run_ranks in SEGMENTS[numbers]:
        firsts = tuple(map(_first, by[low : low + length]))
        tails += map(firsts.__getitem__, RUN_SLICES[length])
        if refused:
            ranks += run_ranks
    aces = by[12]
    if not tails and not aces:
        return []
    if bad:
        keep = [not any(r[i : i + 2] in bad for i in range(len(r) - 1)) for r in ranks]
        tails = list(compress(tails, keep))
        ranks = list(compress(ranks, keep))
    if aces:
        plays = tails.copy()
        played = ranks.copy()
        # (card,) per number rank held: zip of one iterable makes 1-tuples, in C
        singles: list[tuple[str, ...]] = list(zip(map(_first, map(by.__getitem__, BITS[numbers]))))
        single_ranks = LETTERS[numbers]
        for k in range(1, len(aces) + 1):
            if k >= 2 and "AA" in bad:
                break
            prefix = tuple(aces[:k])
            pre = ACES[k]
            if bad:
                behind = zip(chain(tails, singles), chain(ranks, single_ranks), strict=True)
                for play, letters in behind:
                    if "A" + letters[0] not in bad:
                        plays.append(prefix + play)
                        played.append(pre + letters)
            else:
                plays += map(prefix.__add__, tails)
                plays += map(prefix.__add__, singles)
                if refused:
                    played += map(pre.__add__, ranks)
                    played += map(pre.__add__, single_ranks)
            if k >= 2:
                plays.append(prefix)
                played.append(pre)
    else:
        plays, played = tails, ranks
    if not refused:
        return plays
    return list(compress(plays, map(not_, map(refused.__contains__, played))))


def canonical_cards(hand: Iterable[str], cards: Sequence[str]) -> tuple[str, ...] | None:
    """The canonical play with the ranks of ``cards`` in the same order (None unless every card
    is held and listed once). Suits never matter, so it is the same play for the rules."""
    if len(set(cards)) != len(cards):
        return None
    held = set(hand)
    if not held.issuperset(cards):
        return None
    by = RankIndex(held).by  # per rank, the cards held in suit order
    taken = [0] * 13  # per rank, how many of its cards the play has taken so far
    out = []
    for card in cards:
        rank = CARD_RANK[card]
        out.append(by[rank][taken[rank]])
        taken[rank] += 1
    return tuple(out)
