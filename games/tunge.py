"""Tunge: a shedding game for two to four players (contract: shared/rules/tunge.md, Part D).

Terms
-----
- **sequence** (a *play*): 2+ cards ``[A]*k + tail``. With no leading ace the tail is a **run**
  (2+ consecutive number ranks 2..K, strictly up or strictly down, suits free, no ace, no
  wrap) or a **group** (2+ cards of one number rank). After one ace or more the tail may also be a
  single card; two aces or more may stand alone (a group of aces).
- **stock**: the face-down draw pile (``52 - 12n`` cards). **pile**: the face-up discard pile.
- **reference**: the sequence a play is compared with. While the stock has cards it is the most
  recently played sequence; once the stock is empty (the **end game**) it is the **LVS**, the
  longest viable sequence at the top of the pile, or ``(A) x`` (a **phantom ace** before the top
  card) when the top two cards are no sequence.
- **matches**: matched pairs between a play and the reference (per rank, the smaller count,
  summed; option ``pickup_count: distinct_ranks`` counts shared ranks instead). The next seat then
  makes a **forced pick-up** of that many cards, from the stock, then from the pile top; the rest
  is forgiven.
- **blocked** deal: ended by the engine (third repetition of a position, the turn limit, or every
  seat passing in succession) without a winner.

Actions (transcript moves)
--------------------------
``{"action": "play", "cards": ["AS", "6C", "7S"]}`` (order matters: the last card ends on top),
``{"action": "draw"}``, ``{"action": "pass"}``. Forced pick-ups, dealing and scoring are
mechanical.

Legal moves and the canonical order
-----------------------------------
Suits never matter in Tunge, so every legal play has many equivalents (the same ranks in the same
order with other cards of those ranks). :meth:`Tunge.legal_moves` lists exactly one play per
legal *rank sequence*: for each rank it uses the hand's first cards of that rank in suit order
S, H, D, C, and lists the cards of one rank in that suit order. :meth:`Tunge.check` (and
:meth:`Tunge.is_legal`) accept every legal play, in any order and with any suits.

Choices where the contract is silent
------------------------------------
- ``players`` defaults to 4 (the bot sets it to the number seated, 2-4).
- ``match_target`` 0 means "none": each deal is a game. It needs ``scoring`` on.
- The forced pick-up is taken immediately after the play that causes it (that is the start of the
  next seat's turn; nothing can happen in between). With ``forced_pickup_ends_turn`` the taker's
  turn then ends and the seat after him acts; that skipped turn is not a move and does not count
  toward the turn limit.
- A turn is one move (play, draw or pass); the turn limit counts moves in the deal.
- A position (for the third-repetition rule) is recorded after every move while the stock is
  empty (it cannot repeat while the stock has cards: the stock only shrinks and the pile only
  grows); it is every hand as a set, the stock, the pile in order and the seat to act.
- A single-deal game (no ``match_target``) that ends blocked is won by the lowest score (shared
  on a tie); with ``scoring: false`` a blocked deal has no winner. A match ends after the deal in
  which a total reaches the target; the lowest total wins, ties share (``summary()["winner"]`` is
  then ``None`` and ``summary()["winners"]`` lists them).
- Hands in views and results are sorted aces first, then 2..K, suits S H D C within a rank
  (suits never matter, so a by-rank sort is what players want).

Hidden information
------------------
Hands and the stock are hidden. A card drawn or picked up from the stock is told only to the taker
(a private event; the public event gives the count). Cards taken from the pile were face up: they
are named publicly, and stay known (``known_cards`` in the view) until played again. When the
game is finished every hand is shown; the stock stays hidden.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from games.base import (
    Deal,
    DealError,
    Event,
    Game,
    IllegalMove,
    Move,
    Option,
    OptionError,
    Outcome,
    Status,
    deal_rng,
)
from games.cards import display, make_deck
from games.registry import register
from games.seats import next_seat, seat_ref

HAND_SIZE = 12
DECK = make_deck()
FULL_DECK = frozenset(DECK)
ACE = 12
#: rank letter -> index: 2..K are 0..11, the ace is 12
RANK_INDEX = {r: i for i, r in enumerate("23456789TJQKA")}
RANK_LETTERS = "23456789TJQKA"
SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
CARD_VALUES = {
    card: (11 if card[0] == "A" else 10 if card[0] in "TJQK" else int(card[0])) for card in DECK
}
# ``T`` is a ten: face value 10 (handled by the "TJQK" branch above).
#: display order: aces first, then 2..K; suits S H D C within a rank
SORT_KEY = {card: (((RANK_INDEX[card[0]] + 1) % 13) * 4 + SUIT_INDEX[card[1]]) for card in DECK}
#: canonical order for legal_moves: by rank (aces last), suits S H D C within a rank
CANON_KEY = {card: RANK_INDEX[card[0]] * 4 + SUIT_INDEX[card[1]] for card in DECK}

PHANTOM = "(A)"
DRAW = Move("draw")
PASS = Move("pass")
SHOW = {card: display(card) for card in DECK}
SEAT = [seat_ref(seat) for seat in range(4)]

# Zobrist keys for the repetition rule: a card in a seat's hand, a card at a pile position.
_ZOBRIST = random.Random(20240611)
HAND_KEYS = {card: tuple(_ZOBRIST.getrandbits(64) for _ in range(4)) for card in DECK}
PILE_KEYS = {card: tuple(_ZOBRIST.getrandbits(64) for _ in range(52)) for card in DECK}

SINGLE_CARD = "A single card can only be played after an ace."
ACE_FRONT = "An ace can only stand at the front of a sequence."
NOT_SEQUENCE = "Those cards are neither a run nor a group."
MIXED = "A sequence is either a run or a group, not both."
ZIGZAG = "A run must go straight up or straight down."


def hand_value(cards: Sequence[str]) -> int:
    """Points for cards left in a hand: 2-10 face value, J Q K 10, A 11."""
    return sum(CARD_VALUES[card] for card in cards)


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=SORT_KEY.__getitem__)


def rank_word(letter: str) -> str:
    return "10" if letter == "T" else letter


def sequence_error(ranks: str) -> str | None:
    """Why a list of ranks (letters, in play order) is not a sequence, or None if it is one."""
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
    top = pile[-1][0]
    i = n - 1  # index of the deepest card taken so far
    if top == "A":
        while i > 0 and pile[i - 1][0] == "A":
            i -= 1
        if i == n - 1:
            return (PHANTOM, "A")
        return tuple("A" * (n - i))
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
            return tuple(card[0] for card in pile[i:])
    return (PHANTOM, top)


def ref_ranks(reference: Sequence[str]) -> str:
    """Rank letters of a reference, the phantom ace counted as an ace."""
    return "".join("A" if r == PHANTOM else r for r in reference)


def count_matches(play: str, reference: str, distinct: bool) -> int:
    """Matched pairs (or shared ranks) between two rank strings."""
    if not reference:
        return 0
    if distinct:
        return len(set(play) & set(reference))
    return sum(min(play.count(r), reference.count(r)) for r in set(play) if r in reference)


def describe(reference: Sequence[str]) -> str:
    return "-".join(rank_word("A" if r == PHANTOM else r) for r in reference)


@functools.lru_cache(maxsize=4096)
def _forbidden_parts(reference: str) -> frozenset[str]:
    """Sorted rank multisets of every contiguous part (2+ cards) of an LVS."""
    parts = set()
    n = len(reference)
    for i in range(n - 1):
        for j in range(i + 2, n + 1):
            parts.add("".join(sorted(reference[i:j])))
    return frozenset(parts)


@functools.lru_cache(maxsize=4096)
def _adjacent_pairs(reference: str) -> frozenset[str]:
    pairs = set()
    for i in range(len(reference) - 1):
        pairs.add(reference[i : i + 2])
        pairs.add(reference[i + 1] + reference[i])
    return frozenset(pairs)


class _Reference:
    """The current reference and what it forbids (computed once per position)."""

    __slots__ = ("cards", "end_game", "forbidden", "pairs", "ranks", "shown")

    def __init__(
        self, shown: tuple[str, ...], cards: tuple[str, ...], end_game: bool, contains: bool
    ) -> None:
        self.shown = shown  # rank letters, "(A)" for the phantom ace
        self.cards = cards  # the real cards on the pile it is made of
        self.ranks = "A" + shown[1] if shown and shown[0] == PHANTOM else "".join(shown)
        self.end_game = end_game
        self.forbidden: frozenset[str] = frozenset()
        self.pairs: frozenset[str] = frozenset()
        if end_game and self.ranks:
            self.forbidden = _forbidden_parts(self.ranks)
            if contains:
                self.pairs = _adjacent_pairs(self.ranks)

    def refusal(self, play: str) -> str | None:
        """Why the end-game restriction refuses a play (rank string), or None."""
        if not self.forbidden:
            return None
        if "".join(sorted(play)) in self.forbidden:
            if len(play) == len(self.ranks):
                return f"That repeats the last sequence {describe(self.shown)}."
            return f"That repeats part of the last sequence {describe(self.shown)}."
        if self.pairs:
            for i in range(len(play) - 1):
                if play[i : i + 2] in self.pairs:
                    return f"That contains part of the last sequence {describe(self.shown)}."
        return None


@register
class Tunge(Game):
    name = "tunge"
    title = "Tunge"
    teams = False
    OPTIONS = (
        Option("players", 4, "Number of players (2-4).", minimum=2, maximum=4),
        Option(
            "variant",
            "standard",
            "standard, or face_up_start: the undealt cards start face up as the discard pile.",
            choices=("standard", "face_up_start"),
        ),
        Option(
            "pickup_count",
            "pairs",
            "Forced pick-up: matched pairs, or shared ranks.",
            choices=("pairs", "distinct_ranks"),
        ),
        Option("forced_pickup_ends_turn", False, "A forced pick-up ends the taker's turn."),
        Option(
            "endgame_repeat_rule",
            "exact",
            "End game: refuse plays made of exactly a part "
            "of the last sequence (exact), or containing one (contains).",
            choices=("exact", "contains"),
        ),
        Option("scoring", True, "Score the cards left in hand (lower is better)."),
        Option(
            "match_target", 0, "Play deals until a total reaches this (0: one deal).", minimum=0
        ),
        Option("turn_limit", 500, "Turns after which a deal is blocked.", minimum=1),
    )
    summary_text = (
        "Shed all your cards. On your turn play a sequence, or draw one card.\n"
        "A sequence is a run (any suits, 2-K, no wrap) or a group of one rank; aces go in front, "
        "and after an ace a single card is allowed.\n"
        "Every rank your play shares with the last sequence makes the next player pick up a card.\n"
        "When the stock is empty you draw from the discard pile, and may not replay the last "
        "sequence.\n"
        "Out first wins; the others score their cards (courts 10, aces 11); lower is better."
    )

    seed: int | None
    dealer: int
    deal_index: int
    hands: list[list[str]]
    known: list[set[str]]
    stock: list[str]  # top card LAST
    pile: list[str]  # top card last
    last_play: tuple[str, ...]
    last_play_seat: int | None
    last_matches: int
    turn: int
    turns_taken: int
    passes: int
    positions: dict[tuple[int, int], int]
    zobrist: int  # hash of every hand and of the pile in order (see _record_position)
    totals: list[int]
    records: list[dict[str, Any]]  # per-deal summary entries
    turn_log: list[dict[str, Any]]
    in_deal: bool
    finished: bool
    winners: tuple[int, ...]
    _ref: _Reference | None
    _distinct: bool
    _contains: bool
    _ends_turn: bool
    _turn_limit: int
    _legal: tuple[int, list[Move]] | None

    # ------------------------------------------------------------------ creation
    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        values = super().validate_options(options)
        if values["match_target"] and not values["scoring"]:
            raise OptionError("option match_target needs scoring to be on")
        return values

    @classmethod
    def new(
        cls,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        deals: Sequence[Deal] = (),
        first_dealer: int | None = None,
    ) -> Self:
        game = cls()
        game.options = cls.validate_options(options)
        game.players = int(game.options["players"])
        game._distinct = game.options["pickup_count"] == "distinct_ranks"
        game._contains = game.options["endgame_repeat_rule"] == "contains"
        game._ends_turn = bool(game.options["forced_pickup_ends_turn"])
        game._turn_limit = int(game.options["turn_limit"])
        if first_dealer is None:
            first_dealer = 0
        if not 0 <= first_dealer < game.players:
            raise DealError(f"first_dealer must be a seat from 0 to {game.players - 1}")
        game.seed = seed
        game.deals = list(deals)
        for deal in game.deals:
            game._validate_deal(deal)
        game.first_dealer = game.dealer = first_dealer
        game.deal_index = 0
        game.totals = [0] * game.players
        game.records = []
        game.finished = False
        game.winners = ()
        game._clear_deal()
        game._next_deal()
        return game

    def _clear_deal(self) -> None:
        n = self.players
        self.hands = [[] for _ in range(n)]
        self.known = [set() for _ in range(n)]
        self.stock = []
        self.pile = []
        self.last_play = ()
        self.last_play_seat = None
        self.last_matches = 0
        self.turn = next_seat(self.dealer, n)
        self.turns_taken = 0
        self.passes = 0
        self.positions = {}
        self.zobrist = 0
        self.turn_log = []
        self.in_deal = False
        self._ref = None
        self._legal = None

    def _validate_deal(self, deal: Deal) -> None:
        n = self.players
        if len(deal.hands) != n:
            raise DealError(f"a Tunge deal for {n} players needs {n} hands")
        if any(len(hand) != HAND_SIZE for hand in deal.hands):
            raise DealError("each Tunge hand has 12 cards")
        if len(deal.stock) != 52 - HAND_SIZE * n:
            raise DealError(f"the Tunge stock for {n} players has {52 - HAND_SIZE * n} cards")
        cards = [card for hand in deal.hands for card in hand] + list(deal.stock)
        if len(set(cards)) != 52 or set(cards) != FULL_DECK:
            raise DealError("a Tunge deal uses each of the 52 cards once")

    def _shuffled_deal(self, index: int) -> Deal:
        assert self.seed is not None
        deck = DECK[:]
        deal_rng(self.seed, index).shuffle(deck)
        n = self.players
        hands = [[] for _ in range(n)]  # type: list[list[str]]
        for i in range(HAND_SIZE * n):
            hands[(self.dealer + 1 + i) % n].append(deck[i])
        return Deal(tuple(tuple(hand) for hand in hands), tuple(deck[HAND_SIZE * n :]))

    def _next_deal(self) -> list[Event]:
        """Start deal number ``self.deal_index`` if a deal is available (else await one)."""
        if self.deal_index >= len(self.deals):
            if self.seed is None:
                return []
            self.deals.append(self._shuffled_deal(self.deal_index))
        return self._start(self.deals[self.deal_index])

    def _start(self, deal: Deal) -> list[Event]:
        self._clear_deal()
        self.in_deal = True
        self.hands = [list(hand) for hand in deal.hands]
        if self.options["variant"] == "face_up_start":
            self.pile = list(deal.stock)  # the last undealt card ends on top
            self.stock = []
        else:
            self.stock = list(reversed(deal.stock))
        self.zobrist = self._rehash()
        self.records.append(
            {"tricks": [], "turns": self.turn_log, "result": None, "score_after": None}
        )
        self._record_position()
        text = (
            f"Deal {self.deal_index + 1}: {seat_ref(self.dealer)} deals 12 cards each; "
            f"{seat_ref(self.turn)} starts."
        )
        return [
            Event(
                "new_deal",
                text,
                {"deal": self.deal_index, "dealer": self.dealer, "first": self.turn},
            )
        ]

    def _rehash(self) -> int:
        """The Zobrist hash of the hands and the pile, computed from scratch."""
        zobrist = 0
        for seat, hand in enumerate(self.hands):
            for card in hand:
                zobrist ^= HAND_KEYS[card][seat]
        for index, card in enumerate(self.pile):
            zobrist ^= PILE_KEYS[card][index]
        return zobrist

    @classmethod
    def from_position(
        cls,
        options: Mapping[str, Any] | None,
        hands: Sequence[Sequence[str]],
        *,
        stock: Sequence[str] = (),
        pile: Sequence[str] = (),
        turn: int = 0,
        last_play: Sequence[str] = (),
    ) -> Self:
        """A game in the middle of a deal (tests and benchmarks only: it has no transcript).

        ``stock`` is top first, ``pile`` bottom first; ``last_play`` is the normal-phase
        reference. The 52 cards must all be placed.
        """
        game = cls.new(options, seed=0)
        cards = [c for hand in hands for c in hand] + list(stock) + list(pile)
        if len(cards) != 52 or set(cards) != FULL_DECK or len(hands) != game.players:
            raise DealError("a position places each of the 52 cards once")
        game.hands = [list(hand) for hand in hands]
        game.stock = list(reversed(stock))
        game.pile = list(pile)
        game.turn = turn
        game.last_play = tuple(last_play)
        game.last_play_seat = None
        game.positions = {}
        game.zobrist = game._rehash()
        game._ref = None
        game._legal = None
        game._record_position()
        return game

    def add_deal(self, deal: Deal) -> list[Event]:
        if self.status != "awaiting_deal":
            raise IllegalMove("This game is not waiting for a deal.")
        self._validate_deal(deal)
        self.deals.append(deal)
        return self._next_deal()

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.deals = list(self.deals)
        other.hands = [list(hand) for hand in self.hands]
        other.known = [set(cards) for cards in self.known]
        other.stock = list(self.stock)
        other.pile = list(self.pile)
        other.positions = dict(self.positions)
        other.totals = list(self.totals)
        other.turn_log = list(self.turn_log)  # turn records are never changed once logged
        other.records = [dict(record) for record in self.records]
        if self.records and self.records[-1]["turns"] is self.turn_log:
            other.records[-1]["turns"] = other.turn_log
        other._legal = None
        return other

    # ------------------------------------------------------------------ state
    @property
    def status(self) -> Status:
        if self.finished:
            return "finished"
        return "in_progress" if self.in_deal else "awaiting_deal"

    def to_act(self) -> tuple[int, ...]:
        return (self.turn,) if self.in_deal and not self.finished else ()

    @property
    def end_game(self) -> bool:
        return not self.stock

    def reference(self) -> _Reference:
        """The reference sequence now (before the next play)."""
        if self._ref is None:
            contains = self._contains
            if self.stock:
                ranks = tuple(card[0] for card in self.last_play)
                self._ref = _Reference(ranks, self.last_play, False, contains)
            else:
                shown = longest_viable(self.pile)
                real = len([r for r in shown if r != PHANTOM])
                cards = tuple(self.pile[len(self.pile) - real :]) if real else ()
                self._ref = _Reference(shown, cards, True, contains)
        return self._ref

    # ------------------------------------------------------------------ legal plays
    def _plays(self, seat: int) -> list[tuple[str, ...]]:
        """One play per legal rank sequence (canonical cards), end-game restriction applied."""
        # the hand grouped by rank (ascending, aces last), each group in suit order
        groups: list[tuple[int, list[str]]] = []
        last = -1
        for card in sorted(self.hands[seat], key=CANON_KEY.__getitem__):
            index = RANK_INDEX[card[0]]
            if index != last:
                groups.append((index, [card]))
                last = index
            else:
                groups[-1][1].append(card)
        aces: list[str] = []
        if groups and groups[-1][0] == ACE:
            aces = groups.pop()[1]
        # tails as (cards, rank letters)
        tails: list[tuple[tuple[str, ...], str]] = []
        for _, cards in groups:
            if len(cards) > 1:
                letter = cards[0][0]
                for size in range(2, len(cards) + 1):
                    tails.append((tuple(cards[:size]), letter * size))
        count = len(groups)
        g = 0
        while g < count:
            start = g
            while g + 1 < count and groups[g + 1][0] == groups[g][0] + 1:
                g += 1
            g += 1
            length = g - start
            if length < 2:
                continue
            firsts = tuple(cards[0] for _, cards in groups[start:g])
            low = groups[start][0]
            letters = RANK_LETTERS[low : low + length]
            for i in range(length - 1):
                for j in range(i + 2, length + 1):
                    run = firsts[i:j]
                    ranks = letters[i:j]
                    tails.append((run, ranks))
                    tails.append((run[::-1], ranks[::-1]))
        ref = self.reference()
        bad = ref.pairs  # endgame_repeat_rule contains: no adjacent pair of the LVS, either way
        singles = [((cards[0],), cards[0][0]) for _, cards in groups] if aces else []
        if bad:
            tails = [
                (cards, ranks)
                for cards, ranks in tails
                if not any(ranks[i : i + 2] in bad for i in range(len(ranks) - 1))
            ]
        plays = tails
        if aces:
            plays = tails[:]
            for k in range(1, len(aces) + 1):
                if k >= 2 and "AA" in bad:
                    break
                prefix = tuple(aces[:k])
                pre = "A" * k
                if bad:
                    plays.extend(
                        [
                            (prefix + cards, pre + ranks)
                            for cards, ranks in tails
                            if "A" + ranks[0] not in bad
                        ]
                    )
                    plays.extend(
                        [
                            (prefix + cards, pre + ranks)
                            for cards, ranks in singles
                            if "A" + ranks not in bad
                        ]
                    )
                else:
                    plays.extend([(prefix + cards, pre + ranks) for cards, ranks in tails])
                    plays.extend([(prefix + cards, pre + ranks) for cards, ranks in singles])
                if k >= 2:
                    plays.append((prefix, pre))
        if not ref.forbidden:
            return [cards for cards, _ in plays]
        # the exact rule: only a play no longer than the LVS can equal a part of it
        refusal = ref.refusal
        longest = len(ref.ranks)
        return [cards for cards, ranks in plays if len(ranks) > longest or refusal(ranks) is None]

    def legal_moves(self, seat: int) -> list[Move]:
        if seat != self.turn or not self.in_deal or self.finished:
            return []
        if self._legal is not None and self._legal[0] == seat:
            return list(self._legal[1])
        moves = [Move("play", (("cards", play),)) for play in self._plays(seat)]
        if self.stock or self.pile:
            moves.append(DRAW)
        elif not moves:
            moves.append(PASS)
        self._legal = (seat, moves)
        return list(moves)

    def is_legal(self, seat: int, move: Move) -> bool:
        """Whether ``move`` is accepted (any order, any suits), unlike ``move in legal_moves``."""
        try:
            self.check(seat, move)
        except IllegalMove:
            return False
        return True

    def check(self, seat: int, move: Move) -> None:
        if self.finished:
            raise IllegalMove("The game is over.")
        if not self.in_deal:
            raise IllegalMove("The cards have not been dealt yet.")
        if seat != self.turn:
            raise IllegalMove(f"It is {seat_ref(self.turn)}'s turn.")
        action = move.action
        if action == "play":
            self._check_play(seat, move)
        elif action == "draw":
            if move.fields:
                raise IllegalMove("A draw takes no details.")
            if not (self.stock or self.pile):
                raise IllegalMove("There is no card to draw.")
        elif action == "pass":
            if move.fields:
                raise IllegalMove("A pass takes no details.")
            if self.stock or self.pile:
                raise IllegalMove("You can still draw, so you cannot pass.")
            if self._plays(seat):
                raise IllegalMove("You have a legal play, so you cannot pass.")
        else:
            raise IllegalMove("In Tunge you can only play a sequence, draw or pass.")

    def _check_play(self, seat: int, move: Move) -> None:
        names = [key for key, _ in move.fields]
        if names == ["card"]:
            raise IllegalMove(SINGLE_CARD)
        if names != ["cards"]:
            raise IllegalMove("Choose the cards to play.")
        cards = move.get("cards")
        if not isinstance(cards, tuple) or not all(isinstance(c, str) for c in cards):
            raise IllegalMove("Choose the cards to play.")
        if len(cards) < 2:
            raise IllegalMove(SINGLE_CARD)
        if len(set(cards)) != len(cards):
            raise IllegalMove("You listed the same card twice.")
        hand = self.hands[seat]
        for card in cards:
            if card not in hand:
                if card not in FULL_DECK:
                    raise IllegalMove(f"{card} is not a card.")
                raise IllegalMove(f"You do not hold {display(card)}.")
        ranks = "".join(card[0] for card in cards)
        error = sequence_error(ranks)
        if error is not None:
            raise IllegalMove(error)
        error = self.reference().refusal(ranks)
        if error is not None:
            raise IllegalMove(error)

    # ------------------------------------------------------------------ moves
    def apply(self, seat: int, move: Move) -> list[Event]:
        self.check(seat, move)
        n = self.players
        events: list[Event] = []
        was_end_game = not self.stock
        record: dict[str, Any] = {"seat": seat, "action": move.action}
        self._legal = None
        if move.action == "play":
            cards = tuple(move.get("cards"))
            ref = self.reference()
            ranks = "".join(card[0] for card in cards)
            matches = count_matches(ranks, ref.ranks, self._distinct) if ref.ranks else 0
            hand = self.hands[seat]
            zobrist = self.zobrist
            depth = len(self.pile)
            for index, card in enumerate(cards):
                hand.remove(card)
                zobrist ^= HAND_KEYS[card][seat] ^ PILE_KEYS[card][depth + index]
            self.zobrist = zobrist
            if self.known[seat]:
                self.known[seat].difference_update(cards)
            self.pile.extend(cards)
            self.last_play = cards
            self.last_play_seat = seat
            self.last_matches = matches
            self.passes = 0
            self._ref = None
            record.update(
                {
                    "cards": list(cards),
                    "reference": list(ref.shown) or None,
                    "matches": matches,
                    "pickup": None,
                }
            )
            shown = " ".join([SHOW[card] for card in cards])
            suffix = "" if not matches else (f" ({matches} match{'es' if matches != 1 else ''})")
            events.append(
                Event(
                    "sequence_played",
                    f"{SEAT[seat]} plays {shown}{suffix}.",
                    {
                        "seat": seat,
                        "cards": list(cards),
                        "matches": matches,
                        "reference": list(ref.shown),
                    },
                )
            )
            after = next_seat(seat, n)
            if matches:
                record["pickup"] = self._forced_pickup(after, matches, events)
            if matches and self._ends_turn:
                after = next_seat(after, n)
            self.turn = after
        elif move.action == "draw":
            if self.stock:
                card = self.stock.pop()
                record["from"] = "stock"
                events.append(
                    Event(
                        "card_drawn",
                        f"{SEAT[seat]} draws a card from the stock.",
                        {"seat": seat, "source": "stock"},
                    )
                )
                events.append(
                    Event(
                        "card_drawn",
                        f"You draw {SHOW[card]}.",
                        {"seat": seat, "source": "stock", "card": card},
                        frozenset({seat}),
                    )
                )
            else:
                card = self.pile.pop()
                self.zobrist ^= PILE_KEYS[card][len(self.pile)]
                self.known[seat].add(card)
                record.update({"from": "pile", "card": card})
                events.append(
                    Event(
                        "card_drawn",
                        f"{SEAT[seat]} draws {SHOW[card]} from the pile.",
                        {"seat": seat, "source": "pile", "card": card},
                    )
                )
            self.hands[seat].append(card)
            self.zobrist ^= HAND_KEYS[card][seat]
            self.passes = 0
            self._ref = None
            self.turn = next_seat(seat, n)
        else:  # pass
            self.passes += 1
            events.append(Event("pass", f"{SEAT[seat]} cannot play and passes.", {"seat": seat}))
            self.turn = next_seat(seat, n)
        self.turns_taken += 1
        record["stock_left"] = len(self.stock)
        record["hand_sizes"] = [len(hand) for hand in self.hands]
        self.turn_log.append(record)
        if not was_end_game and not self.stock:
            events.append(
                Event(
                    "end_game",
                    "The stock is empty: the end game begins. Draws "
                    "now come from the pile, and the last sequence may not be "
                    "replayed.",
                    {},
                )
            )
        if not self.hands[seat]:
            events.append(
                Event("deal_won", f"{SEAT[seat]} has played out and wins the deal.", {"seat": seat})
            )
            events.extend(self._end_deal(seat, None))
            return events
        reason = None
        if self.passes >= n:
            reason = "all_passed"
        elif self.turns_taken >= self._turn_limit:
            reason = "turn_limit"
        elif self._record_position() >= 3:
            reason = "repetition"
        if reason is not None:
            why = {
                "all_passed": "every player passed",
                "turn_limit": f"{self.turns_taken} turns were played",
                "repetition": "the same position came up a third time",
            }[reason]
            events.append(
                Event(
                    "deal_blocked",
                    f"The deal is blocked ({why}); nobody wins it.",
                    {"reason": reason},
                )
            )
            events.extend(self._end_deal(None, reason))
        return events

    def _forced_pickup(self, taker: int, count: int, events: list[Event]) -> dict[str, Any]:
        from_stock: list[str] = []
        from_pile: list[str] = []
        for _ in range(count):
            if self.stock:
                from_stock.append(self.stock.pop())
            elif self.pile:
                card = self.pile.pop()
                self.zobrist ^= PILE_KEYS[card][len(self.pile)]
                from_pile.append(card)
            else:
                break
        for card in from_stock + from_pile:
            self.zobrist ^= HAND_KEYS[card][taker]
        forgiven = count - len(from_stock) - len(from_pile)
        self.hands[taker].extend(from_stock)
        self.hands[taker].extend(from_pile)
        self.known[taker].update(from_pile)
        self._ref = None
        parts = []
        if from_stock:
            parts.append(f"{len(from_stock)} from the stock")
        if from_pile:
            parts.append(f"{' '.join(display(c) for c in from_pile)} from the pile")
        if forgiven:
            parts.append(f"{forgiven} forgiven (no cards left)")
        text = (
            f"{seat_ref(taker)} must pick up {count} card{'s' if count != 1 else ''}: "
            f"{', '.join(parts)}."
        )
        events.append(
            Event(
                "forced_pickup",
                text,
                {
                    "seat": taker,
                    "count": count,
                    "from_stock": len(from_stock),
                    "from_pile": from_pile,
                    "forgiven": forgiven,
                },
            )
        )
        if from_stock:
            events.append(
                Event(
                    "forced_pickup",
                    f"You pick up {' '.join(display(c) for c in from_stock)}.",
                    {"seat": taker, "cards": from_stock},
                    frozenset({taker}),
                )
            )
        return {
            "seat": taker,
            "count": count,
            "from_stock": len(from_stock),
            "from_pile": from_pile,
            "forgiven": forgiven,
        }

    def _record_position(self) -> int:
        """Count the current position (end game only); returns how often it has occurred.

        A position is every hand (as a set), the pile in order and the seat to act (the stock is
        empty, and no pick-up is ever owed between moves). It is identified by a 64-bit Zobrist
        hash kept up to date move by move; a false repetition would need a hash collision.
        """
        if self.stock:
            return 1
        key = (self.turn, self.zobrist)
        count = self.positions.get(key, 0) + 1
        self.positions[key] = count
        return count

    def _end_deal(self, winner: int | None, reason: str | None) -> list[Event]:
        n = self.players
        values = [hand_value(hand) for hand in self.hands]
        scoring = self.options["scoring"]
        points = list(values) if scoring else [0] * n
        if winner is not None:
            points[winner] = 0
        for seat in range(n):
            self.totals[seat] += points[seat]
        result = {
            "winner": winner,
            "blocked": reason,
            "turns": self.turns_taken,
            "hand_values": values,
            "points": points,
            "hands": [sort_cards(hand) for hand in self.hands],
        }
        self.records[-1]["result"] = result
        self.records[-1]["score_after"] = list(self.totals)
        self.in_deal = False
        self._legal = None
        scored = ", ".join(f"{seat_ref(s)} {points[s]}" for s in range(n))
        events = [
            Event(
                "hand_scored",
                f"Points this deal: {scored}.",
                {key: value for key, value in result.items() if key != "hands"}
                | {"score": list(self.totals)},
            )
        ]
        target = self.options["match_target"]
        if target and max(self.totals) < target:
            self.dealer = next_seat(self.dealer, n)
            self.deal_index += 1
            events.extend(self._next_deal())
            return events
        self.finished = True
        if scoring:
            low = min(self.totals)
            self.winners = tuple(s for s in range(n) if self.totals[s] == low)
        else:
            self.winners = (winner,) if winner is not None else ()
        if len(self.winners) == 1:
            text = f"{seat_ref(self.winners[0])} wins the game."
        elif self.winners:
            text = "The game is shared by " + ", ".join(seat_ref(s) for s in self.winners) + "."
        else:
            text = "The game ends without a winner."
        events.append(
            Event("game_over", text, {"winners": list(self.winners), "score": list(self.totals)})
        )
        return events

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        acting = self.to_act()
        if self.finished:
            phase, prompt = "finished", ""
        elif not self.in_deal:
            phase, prompt = "awaiting_deal", "Waiting for the next deal."
        else:
            phase = "end game" if not self.stock else "turns"
            prompt = f"{seat_ref(self.turn)} to play a sequence or draw a card"
            if not (self.stock or self.pile):
                prompt = f"{seat_ref(self.turn)} to play a sequence or pass"
        ref = self.reference() if self.in_deal else None
        lines: list[str] = []
        if ref is not None and ref.shown:
            what = "Longest viable sequence" if ref.end_game else "Last sequence"
            lines.append(f"{what}: {describe(ref.shown)}")
        if self.last_play and self.last_play_seat is not None and self.in_deal:
            lines.append(
                f"{seat_ref(self.last_play_seat)} played "
                f"{' '.join(display(c) for c in self.last_play)} "
                f"({self.last_matches} match{'es' if self.last_matches != 1 else ''})"
            )
        data: dict[str, Any] = {
            "game": self.name,
            "players": self.players,
            "dealer": self.dealer,
            "phase": phase,
            "to_act": list(acting),
            "prompt": prompt,
            "hand_sizes": [len(hand) for hand in self.hands],
            "trick": [],
            "last_trick": None,
            "trump": None,
            "lines": lines,
            "score": list(self.totals),
            "score_label": "points (lower is better)",
            "pile": list(self.pile),
            "stock_size": len(self.stock),
            "end_game": self.in_deal and not self.stock,
            "reference": None
            if ref is None or not ref.shown
            else {
                "ranks": list(ref.shown),
                "cards": list(ref.cards),
                "phantom_ace": ref.shown[0] == PHANTOM,
                "end_game": ref.end_game,
            },
            "known_cards": [sort_cards(cards) for cards in self.known],
            "turns_taken": self.turns_taken,
            "turn_limit": self.options["turn_limit"],
            "deal_number": self.deal_index + 1,
            "last_deal": None,
        }
        if self.records and self.records[-1]["result"] is not None:
            result = self.records[-1]["result"]
            data["last_deal"] = {key: value for key, value in result.items() if key != "hands"}
        if self.finished:
            data["final_hands"] = [sort_cards(hand) for hand in self.hands]
            data["winners"] = list(self.winners)
        if seat is not None:
            data["hand"] = sort_cards(self.hands[seat])
            data["hand_value"] = hand_value(self.hands[seat])
        return data

    def hidden_cards(self, seat: int | None) -> set[str]:
        hidden = set(self.stock)
        if self.finished:
            return hidden
        for other, hand in enumerate(self.hands):
            if other != seat:
                hidden.update(card for card in hand if card not in self.known[other])
        return hidden

    def move_label(self, move: Move) -> str:
        if move.action == "play":
            cards = move.get("cards") or ()
            return "Play " + " ".join(display(card) for card in cards)
        return {"draw": "Draw", "pass": "Pass"}.get(move.action, move.action.title())

    # ------------------------------------------------------------------ results
    def outcome(self) -> Outcome | None:
        if not self.finished:
            return None
        return Outcome(self.winners, tuple(self.totals))

    def summary(self) -> dict[str, Any]:
        winner = self.winners[0] if self.finished and len(self.winners) == 1 else None
        deals = []
        for record in self.records:
            entry = dict(record)
            entry["turns"] = [dict(turn) for turn in record["turns"]]
            deals.append(entry)
        return {
            "deals": deals,
            "score": list(self.totals),
            "winner": winner,
            "winners": list(self.winners) if self.finished else None,
        }

    # ------------------------------------------------------------------ computer player
    def choose_move(self, seat: int, rng: random.Random) -> Move:
        """Shed the most points (aces and courts first) while causing few matches."""
        if seat not in self.to_act():
            raise IllegalMove(f"It is {seat_ref(self.turn)}'s turn.")
        plays = self._plays(seat)
        if not plays:
            return Move("draw") if (self.stock or self.pile) else Move("pass")
        size = len(self.hands[seat])
        ref = self.reference().ranks
        distinct = self.options["pickup_count"] == "distinct_ranks"
        best: tuple[str, ...] = plays[0]
        best_score = -1e9
        for play in plays:
            if len(play) == size:
                return Move("play", (("cards", play),))
            ranks = "".join(card[0] for card in play)
            score = (
                sum(CARD_VALUES[card] for card in play)
                + 3 * len(play)
                - 12 * count_matches(ranks, ref, distinct)
                + rng.random()
            )
            if score > best_score:
                best, best_score = play, score
        return Move("play", (("cards", best),))
