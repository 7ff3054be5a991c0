"""Tunge's fast path for search: the rules of one deal on small integers, without re-validation.

The hard player plays thousands of simulated Tunge moves per decision; the engine validates
every move, builds events and transcript records, and lists plays as card tuples. Here a deal is
a few lists of ints, copied in a microsecond:

- a card is ``rank * 4 + suit`` (ranks 2..K are 0..11, the ace 12; suits S H D C 0..3); a hand
  is a 52-bit mask of its cards plus its *rank counts* packed 3 bits a rank, which is all the
  sequence grammar reads (suits never matter in Tunge);
- a play is its rank letters (``"A567"``); the canonical cards (per rank the lowest suits held,
  S H D C, as the engine lists them) leave the hand, so the card-level state stays the engine's;
- the plays of a hand are listed once per rank-count key and remembered (:func:`tails_of`).

The same rules as :mod:`games.tunge` (D.1.3-D.1.10 of the contract, every option but
``match_target``: a deal ends at its score); ``tests/games/test_tunge_fast.py`` plays many random
games through both and compares the legal plays and the whole position after every move.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

LETTERS = "23456789TJQKA"
ACE = 12
RANK_OF = {letter: index for index, letter in enumerate(LETTERS)}
SUITS = "SHDC"
CARD_NAMES = [LETTERS[card >> 2] + SUITS[card & 3] for card in range(52)]
CARD_INDEX = {name: index for index, name in enumerate(CARD_NAMES)}
VALUES = [r + 2 if r < 8 else 11 if r == ACE else 10 for r in range(13)]  # 2-9, T-K, A
#: per suit nibble (the suits held of one rank), the lowest suit held
LOW_SUIT = [(nibble & -nibble).bit_length() - 1 for nibble in range(16)]

# Zobrist keys of the repetition rule (D.1.10): a card in a seat's hand, a card at a pile depth.
_KEYS = random.Random(1515)
HAND_KEYS = [[_KEYS.getrandbits(64) for _ in range(4)] for _ in range(52)]
PILE_KEYS = [[_KEYS.getrandbits(64) for _ in range(53)] for _ in range(52)]
SEAT_KEYS = [[HAND_KEYS[card][seat] for card in range(52)] for seat in range(4)]
#: [seat][card][depth]: a card moving between a seat's hand and that depth of the pile
MOVED = [
    [[PILE_KEYS[card][depth] ^ SEAT_KEYS[seat][card] for depth in range(53)] for card in range(52)]
    for seat in range(4)
]
HAND_BITS = (1 << 52) - 1  # a hand's mask in random_playout's hands (its rank counts above)
#: a card joining a hand in random_playout: its bit, and one more of its rank above the mask
CARD_HELD = [1 << card | 1 << 3 * (card >> 2) + 52 for card in range(52)]


class Play:
    """One legal rank sequence: its letters, size, its normal-player base score (card points
    plus 3 a card), its ranks with their counts, and its sorted letters (the end-game
    restriction compares rank multisets). A class with slots, not a named tuple: the playout
    reads its fields every move, and a slot is read by a specialised instruction. One object
    per letters (:func:`play_of`)."""

    __slots__ = (
        "base",
        "counts",
        "deliveries",
        "held",
        "letters",
        "multiset",
        "packed",
        "ranks",
        "shifts",
        "size",
        "suits",
    )

    letters: str
    size: int
    base: int
    counts: tuple[tuple[int, int], ...]
    multiset: str
    ranks: tuple[int, ...]
    packed: int  # its rank counts, packed as a hand's
    shifts: tuple[int, ...]  # per card, its rank's place in a hand's mask (4 bits a rank)
    held: int  # its rank counts as random_playout holds them (above a hand's mask)
    suits: int  # the bits of its ranks in a hand's mask (every suit)
    deliveries: _Deliveries  # the hand's bits of its ranks -> its cards and what leaves the hand

    def __init__(self, letters: str) -> None:
        ranks = tuple(RANK_OF[letter] for letter in letters)
        self.letters = letters
        self.size = len(letters)
        self.base = sum(VALUES[r] for r in ranks) + 3 * len(ranks)
        self.counts = tuple((r, ranks.count(r)) for r in sorted(set(ranks)))
        self.multiset = "".join(sorted(letters))
        self.ranks = ranks
        self.packed = sum(1 << 3 * r for r in ranks)
        self.shifts = tuple(4 * r for r in ranks)
        self.held = self.packed << 52
        self.suits = sum(15 << 4 * r for r in set(ranks))
        self.deliveries = _Deliveries(self)

    def __repr__(self) -> str:
        return f"Play({self.letters!r})"


class _Deliveries(dict[int, tuple[tuple[int, ...], int]]):
    """One play's cards by the suits a hand holds of its ranks (the hand's mask under the
    play's ``suits``): the canonical cards in the play's order (per rank the lowest suits, as
    the engine lists them) and what leaves random_playout's hand (their bits and the play's
    rank counts). Made when first asked for; a play of many ranks has many suit patterns, so a
    full table starts again."""

    __slots__ = ("play",)

    def __init__(self, play: Play) -> None:
        super().__init__()
        self.play = play

    def __missing__(self, suits: int) -> tuple[tuple[int, ...], int]:
        if len(self) >= 1024:
            self.clear()
        mask = suits
        cards = []
        for shift in self.play.shifts:
            card = shift + LOW_SUIT[(mask >> shift) & 15]
            mask ^= 1 << card
            cards.append(card)
        found = self[suits] = (tuple(cards), suits - mask + self.play.held)
        return found


_PLAYS: dict[str, Play] = {}


def play_of(letters: str) -> Play:
    play = _PLAYS.get(letters)
    if play is None:
        play = _PLAYS[letters] = Play(letters)
    return play


def rank_counts(packed: int) -> list[int]:
    return [(packed >> 3 * r) & 7 for r in range(13)]


def _runs(low: int, high: int) -> list[str]:
    """The runs (each up, then down) inside the ranks ``low`` to ``high - 1``, all held."""
    letters = LETTERS[low:high]
    length = high - low
    runs: list[str] = []
    for i in range(length - 1):
        for j in range(i + 2, length + 1):
            runs.append(letters[i:j])
            runs.append(letters[i:j][::-1])
    return runs


# (aces in front, lowest rank, highest rank + 1) of a streak of number ranks held -> the plays
# of those aces before each run inside the streak
_STREAKS: dict[tuple[int, int, int], list[Play]] = {}
#: the plays of 1 to 4 aces before one number rank
SINGLES = [[play_of("A" * aces + LETTERS[r]) for r in range(12)] for aces in range(5)]

# (aces in front) << 12 | (mask of number ranks held) -> the plays of those aces before every
# run of the mask and before every single number rank (the parts of a hand's plays that only its
# mask decides); made when first asked for
_BY_MASK: dict[int, list[Play]] = {}


def _by_mask(aces: int, mask: int) -> list[Play]:
    key = aces << 12 | mask
    plays = _BY_MASK.get(key)
    if plays is None:
        plays = []
        rest = mask
        while rest:  # each streak of ranks held, lowest first
            low = (rest & -rest).bit_length() - 1
            above = rest >> low
            length = ((above + 1) & ~above).bit_length() - 1
            rest ^= ((1 << length) - 1) << low
            if length >= 2:
                streak = (aces, low, low + length)
                runs = _STREAKS.get(streak)
                if runs is None:
                    prefix = "A" * aces
                    runs = _STREAKS[streak] = [
                        play_of(prefix + run) for run in _runs(low, low + length)
                    ]
                plays += runs
        if aces:
            plays += [SINGLES[aces][r] for r in range(12) if mask >> r & 1]
        _BY_MASK[key] = plays
    return plays


HALF = (1 << 18) - 1  # the rank counts of six ranks, packed
# (upper half) << 18 | (six ranks' counts) -> the mask bits of the ranks held in that half and,
# per number of aces in front (0 to 4), the plays of those aces before each group of the half
_HALVES: dict[int, tuple[int, list[list[Play]]]] = {}


def _half(key: int) -> tuple[int, list[list[Play]]]:
    """A half of the number ranks (2-7, or 8-K): which are held and the groups they make (the
    groups of a hand are those of its two halves, low ranks first)."""
    found = _HALVES.get(key)
    if found is None:
        low = 6 if key >> 18 else 0
        mask = 0
        groups: list[str] = []
        for i in range(6):
            count = (key >> 3 * i) & 7
            if count:
                mask |= 1 << low + i
                groups += [LETTERS[low + i] * n for n in range(2, count + 1)]
        plays = [[play_of("A" * k + text) for text in groups] for k in range(5)]
        found = _HALVES[key] = (mask, plays)
    return found


#: the plays of the aces alone, by their number (two or more)
ACES_ALONE = {k: play_of("A" * k) for k in range(2, 5)}


def _tails(packed: int) -> list[Play]:
    """Every sequence of a hand of these rank counts (D.1.4): groups and runs, then behind 1,
    2, ... aces: those, single cards and (from two aces on) the aces alone."""
    key = packed & HALF
    low_mask, low = _HALVES.get(key) or _half(key)
    key = (packed >> 18) & HALF | 1 << 18
    high_mask, high = _HALVES.get(key) or _half(key)
    mask = low_mask | high_mask
    runs = _BY_MASK.get(mask)
    if runs is None:
        runs = _by_mask(0, mask)
    aces = packed >> 3 * ACE
    if not aces:
        return low[0] + high[0] + runs
    plays = low[0] + high[0]
    plays += runs
    for k in range(1, aces + 1):
        plays += low[k]
        plays += high[k]
        plays += _by_mask(k, mask)
        if k >= 2:
            plays.append(ACES_ALONE[k])
    return plays


# Entries a remembered table keeps before it starts again: about 40 MB at most for the hands'
# plays, the largest (a worker process plays on for as long as the bot runs).
_CACHE_LIMIT = 50_000


class _Tails(dict[int, list[Play]]):
    """Packed rank counts -> the hand's plays, made when first asked for: a subscript, so a hit
    costs no call (the playout reads it every move)."""

    __slots__ = ()

    def __missing__(self, packed: int) -> list[Play]:
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        plays = self[packed] = _tails(packed)
        return plays


_TAILS = _Tails()


def tails_of(packed: int) -> list[Play]:
    """The plays of a hand with these packed rank counts (remembered)."""
    return _TAILS[packed]


def lvs_start(pile: Sequence[int]) -> int:
    """Where the longest viable sequence of a non-empty pile (its cards, bottom first) begins
    (D.1.5): the top card's index when it stands behind a phantom ace."""
    n = len(pile)
    top = pile[-1] >> 2
    i = n - 1
    if top == ACE:
        while i > 0 and pile[i - 1] >> 2 == ACE:
            i -= 1
        return i
    if n >= 2:
        below = pile[n - 2] >> 2
        if below == ACE:
            i = n - 2
        elif below == top:
            i = n - 2
            while i > 0 and pile[i - 1] >> 2 == top:
                i -= 1
        else:
            step = top - below
            if step == 1 or step == -1:
                i = n - 2
                rank = below
                while i > 0:
                    deeper = pile[i - 1] >> 2
                    if deeper == ACE or rank - deeper != step:
                        break
                    rank = deeper
                    i -= 1
        if i < n - 1:
            while i > 0 and pile[i - 1] >> 2 == ACE:
                i -= 1
    return i


class Restriction(NamedTuple):
    """What the end game refuses after one LVS (D.1.7): the rank multisets of its contiguous
    parts, and (rule ``contains``) its adjacent rank pairs in either order."""

    parts: frozenset[str]
    pairs: frozenset[str]


_RESTRICTIONS: dict[tuple[str, bool], Restriction] = {}


def restriction(ranks: str, contains: bool) -> Restriction:
    key = (ranks, contains)
    rule = _RESTRICTIONS.get(key)
    if rule is None:
        n = len(ranks)
        parts = frozenset(
            "".join(sorted(ranks[i:j])) for i in range(n - 1) for j in range(i + 2, n + 1)
        )
        pairs = frozenset(
            pair for i in range(n - 1) for pair in (ranks[i : i + 2], ranks[i + 1] + ranks[i])
        )
        rule = Restriction(parts, pairs if contains else frozenset())
        if len(_RESTRICTIONS) >= _CACHE_LIMIT:
            _RESTRICTIONS.clear()
        _RESTRICTIONS[key] = rule
    return rule


def allowed(play: Play, rule: Restriction) -> bool:
    if play.multiset in rule.parts:
        return False
    pairs = rule.pairs
    if pairs:
        letters = play.letters
        return not any(letters[i : i + 2] in pairs for i in range(len(letters) - 1))
    return True


_MULTISETS: dict[int, frozenset[str]] = {}


def endgame_plays(packed: int, ranks: str, contains: bool) -> list[Play]:
    """The plays of a hand after an end-game reference: the hand's plays (the same list when
    the restriction refuses none of them, the usual case)."""
    plays = tails_of(packed)
    rule = restriction(ranks, contains)
    if not rule.pairs:
        held = _MULTISETS.get(packed)
        if held is None:
            if len(_MULTISETS) >= _CACHE_LIMIT:
                _MULTISETS.clear()
            held = _MULTISETS[packed] = frozenset(play.multiset for play in plays)
        if held.isdisjoint(rule.parts):
            return plays
    return [play for play in plays if allowed(play, rule)]


def matches(play: Play, ranks: str, distinct: bool) -> int:
    """Matched pairs (or shared ranks) between a play and a reference's rank letters (D.1.6)."""
    if not ranks:
        return 0
    total = 0
    for r, count in play.counts:
        theirs = ranks.count(LETTERS[r])
        if theirs:
            total += 1 if distinct else count if count < theirs else theirs
    return total


class _Verdicts(dict[str, int]):
    """One reference's verdicts on plays, made when first asked for: a play's letters -> its
    matches with the reference (D.1.6), or -1 when the end game refuses the play (D.1.7). One
    subscript gives the playout both answers."""

    __slots__ = ("distinct", "ranks", "rule")

    def __init__(self, ranks: str, rule: Restriction | None, distinct: bool) -> None:
        super().__init__()
        self.ranks = ranks
        self.rule = rule
        self.distinct = distinct

    def __missing__(self, letters: str) -> int:
        play = play_of(letters)
        rule = self.rule
        if rule is not None and not allowed(play, rule):
            found = -1
        else:
            found = matches(play, self.ranks, self.distinct)
        self[letters] = found
        return found


class _References(dict[str, _Verdicts]):
    """Reference letters -> their verdicts, for one pickup rule; in the end game (``end``) also
    for one repeat rule, else (the stock's reference, the last play) nothing is refused."""

    __slots__ = ("contains", "distinct", "end")

    def __init__(self, distinct: bool, contains: bool, end: bool) -> None:
        super().__init__()
        self.distinct = distinct
        self.contains = contains
        self.end = end

    def __missing__(self, ranks: str) -> _Verdicts:
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        rule = restriction(ranks, self.contains) if self.end else None
        verdicts = self[ranks] = _Verdicts(ranks, rule, self.distinct)
        return verdicts


#: a window's mark: the LVS may reach below the pile's top four cards (walk the pile)
DEEPER = _Verdicts("", None, False)


#: the pile's top four cards, the top first -> what they decide of the end game's reference
Windows = list[list[list[list[_Verdicts | None]]]]


def _windows() -> Windows:
    """Empty windows, nested lists 52 x 52 x 52 x 52 deep: the cards of one rank share each
    level's entry, so the table has a leaf per four ranks (28,561) and is read without arithmetic
    (four list subscripts, the fastest lookup the interpreter has)."""

    def by_card(per_rank: list[Any]) -> list[Any]:
        return [per_rank[card >> 2] for card in range(52)]

    thirds = [by_card([[None] * 52 for _ in range(13)]) for _ in range(169)]
    seconds = [by_card(thirds[i : i + 13]) for i in range(0, 169, 13)]
    return by_card(seconds)


class _Tables(NamedTuple):
    """A playout's remembered answers for one pickup rule and one repeat rule: the stock's
    references, the end game's, and the end game's by the pile's top four cards (its *window*):
    the verdicts of the LVS they decide, ``DEEPER`` when they do not (it may be longer),
    ``None`` when not yet worked out."""

    stock: _References
    end: _References
    windows: Windows


_TABLES: dict[tuple[bool, bool], _Tables] = {}


def _tables(distinct: bool, contains: bool) -> _Tables:
    tables = _TABLES.get((distinct, contains))
    if tables is None:
        tables = _TABLES[(distinct, contains)] = _Tables(
            _References(distinct, contains, False),
            _References(distinct, contains, True),
            _windows(),
        )
    return tables


def _window(tables: _Tables, window: list[int]) -> _Verdicts:
    """Work out (and remember) what a window (four cards, bottom first) decides: the window
    walked as a pile; an LVS that starts above its bottom card is the whole pile's too."""
    verdicts = tables.end[_lvs_ranks(window)] if lvs_start(window) else DEEPER
    bottom, third, second, top = window
    leaf = tables.windows[top][second][third]
    rank = bottom & ~3
    leaf[rank : rank + 4] = [verdicts] * 4  # the same for every suit of the bottom card
    return verdicts


class Rules(NamedTuple):
    players: int
    distinct: bool
    ends_turn: bool
    contains: bool
    scoring: bool
    turn_limit: int

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Rules:
        """From a Tunge table's options (missing keys take the contract's defaults)."""
        return cls(
            int(options.get("players", 4)),
            options.get("pickup_count", "pairs") == "distinct_ranks",
            bool(options.get("forced_pickup_ends_turn", False)),
            options.get("endgame_repeat_rule", "exact") == "contains",
            bool(options.get("scoring", True)),
            int(options.get("turn_limit", 500)),
        )


DRAW = "draw"
PASS = "pass"


class Deal:
    """One Tunge deal in progress, as small integers (see the module docstring).

    ``stock`` and ``pile`` hold card numbers, top card last; ``last`` is the letters of the
    last play (the reference while the stock has cards). ``points`` is set when the deal ends.
    """

    __slots__ = (
        "counts",
        "hands",
        "last",
        "passes",
        "pile",
        "points",
        "positions",
        "ref",
        "rules",
        "sizes",
        "stock",
        "turn",
        "turns",
        "winner",
        "zobrist",
    )

    rules: Rules
    hands: list[int]
    counts: list[int]
    sizes: list[int]
    stock: list[int]
    pile: list[int]
    turn: int
    last: str
    passes: int
    turns: int
    zobrist: int
    positions: list[dict[int, int]]  # per seat to act: zobrist -> times seen (D.1.10)
    ref: tuple[str, bool] | None  # the reference, until the position changes
    winner: int | None
    points: tuple[int, ...] | None

    @classmethod
    def start(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[str]],
        stock: Sequence[str] = (),
        pile: Sequence[str] = (),
        *,
        turn: int = 0,
        last: str = "",
        turns: int = 0,
        passes: int = 0,
    ) -> Deal:
        """A deal from card names: ``stock`` top card *last*, ``pile`` bottom first; ``last``
        the letters of the last play. Past positions are not known (the repetition count starts
        here)."""
        deal = object.__new__(cls)
        deal.rules = rules
        deal.hands, deal.counts, deal.sizes = [], [], []
        for hand in hands:
            mask = packed = 0
            for name in hand:
                card = CARD_INDEX[name]
                mask |= 1 << card
                packed += 1 << 3 * (card >> 2)
            deal.hands.append(mask)
            deal.counts.append(packed)
            deal.sizes.append(len(hand))
        deal.stock = [CARD_INDEX[name] for name in stock]
        deal.pile = [CARD_INDEX[name] for name in pile]
        deal.turn = turn
        deal.last = last
        deal.passes = passes
        deal.turns = turns
        zobrist = 0
        for seat, mask in enumerate(deal.hands):
            for card in range(52):
                if mask >> card & 1:
                    zobrist ^= HAND_KEYS[card][seat]
        for depth, card in enumerate(deal.pile):
            zobrist ^= PILE_KEYS[card][depth]
        deal.zobrist = zobrist
        deal.positions = [{} for _ in hands]
        deal.ref = None
        deal.winner = None
        deal.points = None
        deal._record()
        return deal

    def copy(self) -> Deal:
        other = object.__new__(Deal)
        other.rules = self.rules
        other.hands = self.hands[:]
        other.counts = self.counts[:]
        other.sizes = self.sizes[:]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.turn = self.turn
        other.last = self.last
        other.passes = self.passes
        other.turns = self.turns
        other.zobrist = self.zobrist
        other.positions = [seen.copy() for seen in self.positions]
        other.ref = self.ref
        other.winner = self.winner
        other.points = self.points
        return other

    # ------------------------------------------------------------------ reads
    @property
    def over(self) -> bool:
        return self.points is not None

    def reference(self) -> tuple[str, bool]:
        """The reference's rank letters (the phantom ace as ``A``) and whether it is the end
        game's LVS."""
        ref = self.ref
        if ref is not None:
            return ref
        if self.stock:
            ref = (self.last, False)
        else:
            ref = (_lvs_ranks(self.pile) if self.pile else "", True)
        self.ref = ref
        return ref

    def plays(self) -> list[Play]:
        """The legal plays of the seat to act."""
        packed = self.counts[self.turn]
        if self.stock:
            return tails_of(packed)
        tails = tails_of(packed)
        if not tails:
            return tails
        ranks, _ = self.reference()
        if not ranks:
            return tails
        return endgame_plays(packed, ranks, self.rules.contains)

    def can_draw(self) -> bool:
        return bool(self.stock or self.pile)

    def cards(self, seat: int) -> list[str]:
        """The card names of a hand."""
        mask = self.hands[seat]
        return [CARD_NAMES[card] for card in range(52) if mask >> card & 1]

    def play_cards(self, play: Play) -> tuple[str, ...]:
        """The canonical cards the seat to act would play for ``play`` (the engine's listing)."""
        mask = self.hands[self.turn]
        out = []
        for letter in play.letters:
            r = RANK_OF[letter]
            nibble = (mask >> 4 * r) & 15
            card = 4 * r + LOW_SUIT[nibble]
            mask ^= 1 << card
            out.append(CARD_NAMES[card])
        return tuple(out)

    # ------------------------------------------------------------------ moves
    def play(self, play: Play) -> None:
        """The seat to act plays ``play`` (assumed legal), then any forced pick-up is taken."""
        seat = self.turn
        ranks, _ = self.reference()
        rules = self.rules
        found = matches(play, ranks, rules.distinct) if ranks else 0
        mask = self.hands[seat]
        packed = self.counts[seat]
        pile = self.pile
        zobrist = self.zobrist
        for r in play.ranks:
            card = 4 * r + LOW_SUIT[(mask >> 4 * r) & 15]
            mask ^= 1 << card
            zobrist ^= HAND_KEYS[card][seat] ^ PILE_KEYS[card][len(pile)]
            pile.append(card)
        self.hands[seat] = mask
        self.counts[seat] = packed - play.packed
        self.ref = None
        self.sizes[seat] -= play.size
        self.zobrist = zobrist
        self.last = play.letters
        self.passes = 0
        n = rules.players
        after = (seat + 1) % n
        if found:
            self._pickup(after, found)
            if rules.ends_turn:
                after = (after + 1) % n
        self.turn = after
        self.turns += 1
        if not self.sizes[seat]:
            self._end(seat)
        elif self.turns >= rules.turn_limit or (not self.stock and self._record() >= 3):
            self._end(None)  # blocked (D.1.10; nobody has passed: a play was made)

    def draw(self) -> None:
        """The seat to act draws: the stock's top card, else the pile's."""
        seat = self.turn
        stock = self.stock
        if stock:
            card = stock.pop()
            zobrist = self.zobrist ^ HAND_KEYS[card][seat]
        else:
            pile = self.pile
            card = pile.pop()
            zobrist = self.zobrist ^ PILE_KEYS[card][len(pile)] ^ HAND_KEYS[card][seat]
        self.zobrist = zobrist
        self.ref = None  # the pile changed, or the stock may have run out
        self.hands[seat] |= 1 << card
        self.counts[seat] += 1 << 3 * (card >> 2)
        self.sizes[seat] += 1
        self.passes = 0
        rules = self.rules
        self.turn = (seat + 1) % rules.players
        self.turns += 1
        if self.turns >= rules.turn_limit or (not stock and self._record() >= 3):
            self._end(None)  # blocked (D.1.10; nobody has passed: a card was drawn)

    def pass_turn(self) -> None:
        self.passes += 1
        self.turn = (self.turn + 1) % self.rules.players
        self.turns += 1
        self._check()

    def _take(self, seat: int, card: int) -> None:
        self.hands[seat] |= 1 << card
        self.counts[seat] += 1 << 3 * (card >> 2)
        self.sizes[seat] += 1
        self.zobrist ^= HAND_KEYS[card][seat]

    def _pickup(self, taker: int, count: int) -> None:
        stock, pile = self.stock, self.pile
        self.ref = None
        for _ in range(count):
            if stock:
                card = stock.pop()
            elif pile:
                card = pile.pop()
                self.zobrist ^= PILE_KEYS[card][len(pile)]
            else:
                break  # the rest is forgiven
            self._take(taker, card)

    def _record(self) -> int:
        if self.stock:
            return 1
        seen = self.positions[self.turn]
        count = seen[self.zobrist] = seen.get(self.zobrist, 0) + 1
        return count

    def _check(self) -> None:
        """End a blocked deal (D.1.10): everyone passed, the turn limit, a third repetition."""
        if (
            self.passes >= self.rules.players
            or self.turns >= self.rules.turn_limit
            or (not self.stock and self._record() >= 3)
        ):
            self._end(None)

    def _end(self, winner: int | None) -> None:
        self.winner = winner
        points = (
            [hand_value(packed) for packed in self.counts]
            if self.rules.scoring
            else [0] * len(self.counts)
        )
        if winner is not None:
            points[winner] = 0
        self.points = tuple(points)


#: per three number ranks' packed counts (9 bits, the ranks 3k to 3k+2), their card points
_VALUE_PARTS = [
    [sum(VALUES[3 * k + j] * (bits >> 3 * j & 7) for j in range(3)) for bits in range(512)]
    for k in range(4)
]


def hand_value(packed: int) -> int:
    """The points of a hand of these packed rank counts (D.1.9): four table reads, no loop."""
    low, mid, high, top = _VALUE_PARTS
    return (
        low[packed & 511]
        + mid[packed >> 9 & 511]
        + high[packed >> 18 & 511]
        + top[packed >> 27 & 511]
        + VALUES[ACE] * (packed >> 36)
    )


def seat_value(points: Sequence[int], seat: int) -> float:
    """A finished deal's worth to ``seat`` (as :func:`games.players.outcome.seat_value`): the
    others' mean points minus its own."""
    others = [p for index, p in enumerate(points) if index != seat]
    return sum(others) / len(others) - points[seat]


#: the reference of a top card that stands alone on the pile: the phantom ace, then its rank
PHANTOM_REF = ["A" + LETTERS[r] for r in range(13)]
CARD_LETTER = [LETTERS[card >> 2] for card in range(52)]


def _lvs_ranks(pile: list[int]) -> str:
    """The end game's reference letters of a non-empty pile (as :meth:`Deal.reference`)."""
    start = lvs_start(pile)
    if start == len(pile) - 1:
        return PHANTOM_REF[pile[-1] >> 2]
    return "".join([CARD_LETTER[card] for card in pile[start:]])


def random_playout(deal: Deal, rng: random.Random) -> int:
    """Play uniformly random legal moves (a play, or the draw or pass) to the end of the deal;
    the number of moves. In the end game a refused play is drawn again (rejection sampling:
    still uniform over the legal moves), so the reference is found only when a play is made.

    The moves are :meth:`Deal.play`, :meth:`Deal.draw` and :meth:`Deal.pass_turn` written out
    on local variables (most of a playout's time was their attribute reads and calls), in two
    loops: while the stock has cards, then the end game (the stock never fills again). A hand
    is one int here, its mask with its rank counts above it (``packed << 52``), so a card
    joins it in one addition; the hands' sizes are counted at the end. The differential tests
    hold it to the same positions and the same random numbers."""
    if deal.points is not None:
        return 0
    players, distinct, ends_turn, contains, _, limit = deal.rules
    stock, pile, positions = deal.stock, deal.pile, deal.positions
    turn, turns, zobrist, last, passes = deal.turn, deal.turns, deal.zobrist, deal.last, deal.passes
    holds = [mask | packed << 52 for mask, packed in zip(deal.hands, deal.counts, strict=True)]
    random_ = rng.random
    tails_table = _TAILS
    tables = _tables(distinct, contains)
    stock_refs, end_refs, windows = tables
    seat_keys, moved, card_held = SEAT_KEYS, MOVED, CARD_HELD
    start = turns
    following = [*range(1, players), 0]  # the seat after each seat
    winner: int | None = None
    # The loops run over the moves' numbers up to the turn limit (at least one move is made, as
    # by the deal's own moves); the end game counts the position a move reached (D.1.10) at the
    # top of the next step, so a deal that reaches the limit does not count its last position.
    if stock:
        for move in range(turns + 1, max(limit, turns + 1) + 1):  # noqa: B007 (read after)
            seat = turn
            hand = holds[seat]
            tails = tails_table[hand >> 52]
            count = len(tails)
            index = int(random_() * (count + 1))
            turn = following[seat]
            passes = 0
            if index == count:  # the draw: the stock's top card
                card = stock.pop()
                zobrist ^= seat_keys[seat][card]
                holds[seat] = hand + card_held[card]
            else:
                play = tails[index]
                found = stock_refs[last][play.letters]
                cards, taken = play.deliveries[hand & play.suits]
                hand -= taken
                holds[seat] = hand
                keys = moved[seat]
                depth = len(pile)
                for card in cards:
                    zobrist ^= keys[card][depth]
                    depth += 1
                pile += cards
                last = play.letters
                if found:  # the forced pick-up: the stock's top cards, then the pile's
                    for _ in range(found):
                        if stock:
                            card = stock.pop()
                            zobrist ^= seat_keys[turn][card]
                        elif pile:
                            card = pile.pop()
                            zobrist ^= moved[turn][card][len(pile)]
                        else:
                            break  # the rest is forgiven
                        holds[turn] += card_held[card]
                    if ends_turn:
                        turn = following[turn]
                if not hand:
                    winner = seat
                    break
            if not stock:
                break
        turns = move
        end_game = winner is None and not stock and turns < limit
    else:
        positions[turn][zobrist] -= 1  # counted again at the end game's first step
        end_game = True
    if end_game:
        for move in range(turns + 1, max(limit, turns + 1) + 1):
            seen = positions[turn]  # a third repetition blocks the deal (D.1.10)
            if zobrist in seen:
                repeats = seen[zobrist] = seen[zobrist] + 1
                if repeats >= 3:
                    move -= 1  # this step's move is not made
                    break
            else:
                seen[zobrist] = 1
            seat = turn
            hand = holds[seat]
            tails = tails_table[hand >> 52]
            turn = following[seat]
            if not tails:
                if pile:  # the draw is the only move (one number drawn, as for any choice)
                    random_()
                    card = pile.pop()
                    zobrist ^= moved[seat][card][len(pile)]
                    holds[seat] = hand + card_held[card]
                    passes = 0
                else:  # the pass is the only move
                    passes += 1
                    if passes >= players:
                        break
                continue
            passes = 0
            count = len(tails)
            if pile:  # a play the reference refuses is drawn again
                choices = count + 1
                verdicts = None
                while True:
                    index = int(random_() * choices)
                    if index == count:
                        break
                    play = tails[index]
                    if verdicts is None:
                        try:
                            bottom, third, second, top = pile[-4:]
                        except ValueError:  # fewer than four cards: walk them
                            verdicts = end_refs[_lvs_ranks(pile)]
                        else:
                            verdicts = windows[top][second][third][bottom]
                            if verdicts is None:
                                verdicts = _window(tables, [bottom, third, second, top])
                            if verdicts is DEEPER:
                                verdicts = end_refs[_lvs_ranks(pile)]
                    found = verdicts[play.letters]
                    if found >= 0:
                        break
                if index == count:  # the draw: the pile's top card
                    card = pile.pop()
                    zobrist ^= moved[seat][card][len(pile)]
                    holds[seat] = hand + card_held[card]
                    continue
            else:  # no reference: every play, and no pick-up
                play = tails[int(random_() * count)]
                found = 0
            cards, taken = play.deliveries[hand & play.suits]
            hand -= taken
            holds[seat] = hand
            keys = moved[seat]
            depth = len(pile)
            for card in cards:
                zobrist ^= keys[card][depth]
                depth += 1
            pile += cards
            last = play.letters
            if found:  # the forced pick-up: the pile's top cards
                keys = moved[turn]
                for _ in range(found):
                    if not pile:
                        break  # the rest is forgiven
                    card = pile.pop()
                    zobrist ^= keys[card][len(pile)]
                    holds[turn] += card_held[card]
                if ends_turn:
                    turn = following[turn]
            if not hand:
                winner = seat
                break
        turns = move
    deal.turn, deal.turns, deal.zobrist, deal.last, deal.passes = turn, turns, zobrist, last, passes
    deal.hands = [hand & HAND_BITS for hand in holds]
    deal.counts = [hand >> 52 for hand in holds]
    deal.sizes = [hand.bit_count() for hand in deal.hands]
    deal.ref = None
    deal._end(winner)
    return turns - start  # a move each turn


NO_PLAYS: tuple[None, list[Play]] = (None, [])
# per (distinct, contains): (packed hand, reference letters, end game) -> (the play out, or the
# best-scoring plays of the normal player)
_NORMAL: dict[tuple[bool, bool], dict[tuple[int, str, bool], tuple[Play | None, list[Play]]]] = {}


def normal_plays(deal: Deal) -> tuple[Play | None, list[Play]]:
    """What :func:`games.players.tunge.choose` weighs for the seat to act: a play that empties
    the hand (first listed), else the plays of the best score (card points, plus 3 a card,
    minus 12 a match); no plays: draw or pass."""
    seat = deal.turn
    packed = deal.counts[seat]
    if not tails_of(packed):
        return NO_PLAYS
    ranks, end = deal.reference()
    rules = deal.rules
    memo = _NORMAL.get((rules.distinct, rules.contains))
    if memo is None:
        memo = _NORMAL[(rules.distinct, rules.contains)] = {}
    key = (packed, ranks, end)
    found = memo.get(key)
    if found is None:
        plays = deal.plays()
        size = deal.sizes[seat]
        out = next((play for play in plays if play.size == size), None)
        best: list[Play] = []
        top = -(10**9)
        if out is None:
            for play in plays:
                score = play.base - 12 * matches(play, ranks, rules.distinct)
                if score > top:
                    best, top = [play], score
                elif score == top:
                    best.append(play)
        found = (out, best)
        if len(memo) >= _CACHE_LIMIT:
            memo.clear()
        memo[key] = found
    return found


def normal_step(deal: Deal, rng: random.Random) -> None:
    """One move of the normal player for the seat to act."""
    out, best = normal_plays(deal)
    if out is not None:
        deal.play(out)
    elif best:
        deal.play(best[0] if len(best) == 1 else best[int(rng.random() * len(best))])
    elif deal.stock or deal.pile:
        deal.draw()
    else:
        deal.pass_turn()


def normal_playout(deal: Deal, rng: random.Random) -> int:
    """The normal player at every seat to the end of the deal; the number of moves."""
    moves = 0
    while deal.points is None:
        normal_step(deal, rng)
        moves += 1
    return moves
