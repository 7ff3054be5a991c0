"""The Tunge engine: deals, the turn flow (play, draw, pass), forced pick-ups, blocked deals.

The options (and :class:`~games.tunge.options.Rules`, as the engine reads them) are in
:mod:`games.tunge.options`, the sequence grammar in :mod:`games.tunge.grammar`, the refusal
reasons in :mod:`games.tunge.reasons`, scoring in :mod:`games.tunge.scoring` and what people see
in :mod:`games.tunge.view`; the rules and the choices the contract left open are in the package
docstring (:mod:`games.tunge`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from games.base import (
    Deal,
    DealError,
    Event,
    Game,
    IllegalMove,
    Move,
    Outcome,
    Status,
    deal_rng,
    shuffle,
)
from games.cards import display
from games.facts import GameFacts, Preset
from games.seats import next_seat, seat_ref
from games.tunge import reasons, view
from games.tunge.grammar import (
    DECK,
    FULL_DECK,
    Lvs,
    RankIndex,
    Reference,
    canonical_cards,
    count_matches,
    plays_of,
)
from games.tunge.options import OPTIONS, SUMMARY_TEXT, Rules, checked_options
from games.tunge.scoring import deal_points, game_winners, ranking
from games.tunge.state import DealRecord, DealResult, DealState, Pickup, TungeState, TurnRow
from games.views import TungeView

HAND_SIZE = 12
DRAW = Move("draw")
PASS = Move("pass")
SHOW = {card: display(card) for card in DECK}
SEAT = [seat_ref(seat) for seat in range(4)]
ONLY = [frozenset({seat}) for seat in range(4)]  # an event only this seat sees
# The events of draws and passes, made once and shared by every game (events are never
# changed: see Event): a draw's public event per seat, or per card and seat from the pile; the
# card drawn from the stock, told to the drawer, per card and seat.
STOCK_DRAWN = [
    Event(
        "card_drawn",
        f"{SEAT[seat]} draws a card from the stock.",
        {"seat": seat, "source": "stock"},
    )
    for seat in range(4)
]
YOU_DRAW = {
    card: [
        Event(
            "card_drawn",
            f"You draw {SHOW[card]}.",
            {"seat": seat, "source": "stock", "card": card},
            ONLY[seat],
        )
        for seat in range(4)
    ]
    for card in DECK
}
PILE_DRAWN = {
    card: [
        Event(
            "card_drawn",
            f"{SEAT[seat]} draws {SHOW[card]} from the pile.",
            {"seat": seat, "source": "pile", "card": card},
        )
        for seat in range(4)
    ]
    for card in DECK
}
PASSED = [
    Event("pass", f"{SEAT[seat]} cannot play and passes.", {"seat": seat}) for seat in range(4)
]
# The recorded turns (TurnRow) of draws and passes, made once: per seat, or per card and seat.
STOCK_DRAW_ROW: list[TurnRow] = [(seat, "draw", (), (), 0, None, "stock", "") for seat in range(4)]
PILE_DRAW_ROW: dict[str, list[TurnRow]] = {
    card: [(seat, "draw", (), (), 0, None, "pile", card) for seat in range(4)] for card in DECK
}
PASS_ROW: list[TurnRow] = [(seat, "pass", (), (), 0, None, "", "") for seat in range(4)]
END_GAME = Event(
    "end_game",
    "The stock is empty: the end game begins. Draws now come from the pile, and the last "
    "sequence may not be replayed.",
    {},
)

# Zobrist keys for the repetition rule: a card in a seat's hand, a card at a pile position.
_ZOBRIST = random.Random(20240611)
HAND_KEYS = {card: tuple(_ZOBRIST.getrandbits(64) for _ in range(4)) for card in DECK}
PILE_KEYS = {card: tuple(_ZOBRIST.getrandbits(64) for _ in range(52)) for card in DECK}
# A card moving between a seat's hand and a pile position (a play, a draw from the pile): both
# keys at once, per card, seat and position.
MOVE_KEYS = {
    card: tuple(tuple(HAND_KEYS[card][seat] ^ key for key in PILE_KEYS[card]) for seat in range(4))
    for card in DECK
}

_PLAY_MOVES_LIMIT = 200_000

# What a play's event says of its matches, by their number (a play has at most 13 cards).
MATCHES_TEXT = ["", " (1 match)", *(f" ({count} matches)" for count in range(2, 14))]

_BLOCKED_WHY = {
    "all_passed": "every player passed",
    "repetition": "the same position came up a third time",
}


class _PlayMoves(dict[tuple[str, ...], Move]):
    """One Move object per canonical play, made when first asked for: the legal lists of
    successive positions share them. Past ``_PLAY_MOVES_LIMIT`` moves, a new deal forgets them."""

    def __missing__(self, cards: tuple[str, ...]) -> Move:
        move = self[cards] = Move("play", (("cards", cards),))
        return move


_PLAY_MOVES = _PlayMoves()


def play_move(cards: tuple[str, ...]) -> Move:
    """The move that plays these cards (interned: legal lists are rebuilt every turn)."""
    return _PLAY_MOVES[cards]


def _play_of(moves: list[Move], cards: object) -> Move | None:
    """The listed play of exactly these cards, if any."""
    for candidate in moves:
        if candidate.action == "play" and candidate.fields[0][1] == cards:
            return candidate
    return None


# The moves of a position with no play: shared, as the legal lists are never changed in place.
ONLY_DRAW = [DRAW]
ONLY_PASS = [PASS]


def _empty_deal(turn: int, players: int) -> DealState:
    return DealState(
        [[] for _ in range(players)],
        [],
        [],
        turn,
        [set() for _ in range(players)],
        [RankIndex() for _ in range(players)],
        positions=[{} for _ in range(players)],
    )


def hand_score(result: Mapping[str, Any], players: int) -> list[float]:
    """Each seat's score of one deal: its points, negated (fewer points are better)."""
    return [-float(points) for points in result["points"]]


class Tunge(Game):
    name = "tunge"
    title = "Tunge"
    teams = False
    player_module = "games.players.tunge"
    facts = GameFacts(
        # one deal is a game by default, so it is the short one; the rules' example match
        # target is 100
        presets=(
            Preset("short", {"match_target": 0}, "one deal"),
            Preset("standard", {"match_target": 50}, "deals until a total reaches 50"),
            Preset("long", {"match_target": 100}, "deals until a total reaches 100"),
        ),
        hand_score=hand_score,
        card_points=None,
        card_margin=None,
        search_steps={2: 0.35, 3: 0.3, 4: 0.25},
        search_worlds={},
        endgame_solver=False,
    )
    OPTIONS = OPTIONS
    summary_text = SUMMARY_TEXT
    HAND_SIZE: ClassVar[int] = HAND_SIZE

    seed: int | None
    rules: Rules
    state: TungeState
    _legal: list[Move] | None  # the legal moves of the seat to act (never changed in place)
    # Game.status as a plain attribute, not a property (a play loop reads it after every move):
    # set where a deal starts (_start) and ends (_end_deal), copied by clone.
    status: Status = "awaiting_deal"

    # ------------------------------------------------------------------ creation
    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return checked_options(super().validate_options(options))

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
        game.rules = Rules.of(game.options)
        game.players = n = game.rules.players
        if first_dealer is None:
            first_dealer = 0
        if not 0 <= first_dealer < n:
            raise DealError(f"first_dealer must be a seat from 0 to {n - 1}")
        game.seed = seed
        game.deals = list(deals)
        for deal in game.deals:
            game._validate_deal(deal)
        game.first_dealer = first_dealer
        game.state = TungeState(
            first_dealer, 0, [0] * n, _empty_deal(next_seat(first_dealer, n), n)
        )
        game._legal = None
        game._next_deal()
        return game

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
        shuffle(deal_rng(self.seed, index), deck)
        n = self.players
        dealt = HAND_SIZE * n
        # cards go round one at a time from the dealer's left
        first = next_seat(self.state.dealer, n)
        hands = tuple(tuple(deck[(seat - first) % n : dealt : n]) for seat in range(n))
        return Deal(hands, tuple(deck[dealt:]))

    def _next_deal(self) -> list[Event]:
        """Start deal number ``deal_index`` if a deal is available (else await one)."""
        index = self.state.deal_index
        if index >= len(self.deals):
            if self.seed is None:
                return []  # an unseeded game waits for add_deal
            self.deals.append(self._shuffled_deal(index))
        return self._start(self.deals[index])

    def _start(self, deal: Deal) -> list[Event]:
        state = self.state
        if len(_PLAY_MOVES) >= _PLAY_MOVES_LIMIT:
            _PLAY_MOVES.clear()
        first = next_seat(state.dealer, self.players)
        if self.rules.face_up:
            stock, pile = [], list(deal.stock)  # the last undealt card ends on top
        else:
            stock, pile = list(reversed(deal.stock)), []
        state.deal = DealState(
            [list(hand) for hand in deal.hands],
            stock,
            pile,
            first,
            [set() for _ in range(self.players)],
            [RankIndex(hand) for hand in deal.hands],
            positions=[{} for _ in range(self.players)],
        )
        state.deal.zobrist = self._rehash()
        state.in_deal = True
        self.status = "in_progress"
        state.records.append(DealRecord(tuple(map(len, deal.hands)), len(stock)))
        self._changed()
        self._record_position()
        text = (
            f"Deal {state.deal_index + 1}: {seat_ref(state.dealer)} deals 12 cards each; "
            f"{seat_ref(first)} starts."
        )
        return [
            Event(
                "new_deal",
                text,
                {"deal": state.deal_index, "dealer": state.dealer, "first": first},
            )
        ]

    def _rehash(self) -> int:
        """The Zobrist hash of the hands and the pile, computed from scratch: 0 while the stock has
        cards (positions are counted only in the end game, so only the end game keeps the hash,
        from the move that empties the stock)."""
        deal = self.state.deal
        if deal.stock:
            return 0
        zobrist = 0
        for seat, hand in enumerate(deal.hands):
            for card in hand:
                zobrist ^= HAND_KEYS[card][seat]
        for index, card in enumerate(deal.pile):
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
        deal = DealState(
            [list(hand) for hand in hands],
            list(reversed(stock)),
            list(pile),
            turn,
            [set() for _ in range(game.players)],
            [RankIndex(hand) for hand in hands],
            last_play=tuple(last_play),
            positions=[{} for _ in range(game.players)],
        )
        game.state.deal = deal
        game.state.records[-1] = DealRecord(tuple(map(len, deal.hands)), len(deal.stock))
        deal.zobrist = game._rehash()
        game._changed()
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
        other.options = self.options
        other.rules = self.rules
        other.players = self.players
        other.seed = self.seed
        other.first_dealer = self.first_dealer
        other.deals = list(self.deals)
        other.state = self.state.clone()
        other.status = self.status
        other._legal = self._legal  # never changed, only replaced
        return other

    def _changed(self) -> None:
        """Forget the legal moves and derive the reference afresh (a new or rebuilt position)."""
        self._legal = None
        self._find_reference()

    def _find_reference(self) -> None:
        """Set the deal's reference from its last play or, in the end game, from its pile (and
        the stack of the pile's references: see :class:`DealState`)."""
        deal = self.state.deal
        contains = self.rules.contains
        if deal.stock:
            deal.refs = []
            deal.ref = Reference.of_ranks("".join(deal.last_play)[::2])
            return
        ref = Lvs.of((), contains)
        refs = [ref]
        for card in deal.pile:
            letter = card[0]
            ref = ref.after.get(letter) or ref.then(letter)
            refs.append(ref)
        deal.refs = refs
        deal.ref = ref

    # ------------------------------------------------------------------ reads
    def to_act(self) -> tuple[int, ...]:
        return (self.state.deal.turn,) if self.status == "in_progress" else ()

    def reference(self) -> Reference:
        """The reference sequence now (before the next play), with the cards it is made of (the
        moves read the deal's ``ref``, which knows the ranks alone)."""
        deal = self.state.deal
        if deal.stock:
            return Reference.normal(deal.last_play, self.rules.contains)
        return Reference.of_pile(deal.pile, self.rules.contains)

    def _legal_now(self) -> list[Move]:
        """The legal moves of the seat to act, the single source of truth for ``legal_moves``
        and ``is_legal``: found when the position is new, kept in ``_legal`` until it changes."""
        if self._legal is None:
            deal = self.state.deal
            plays = plays_of(deal.ranked[deal.turn], deal.ref)
            if plays:
                self._legal = [_PLAY_MOVES[cards] for cards in plays]
                if deal.stock or deal.pile:
                    self._legal.append(DRAW)
            else:
                self._legal = ONLY_DRAW if deal.stock or deal.pile else ONLY_PASS
        return self._legal

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        return list(self._legal_now())

    def normalise(self, seat: int, move: Move) -> Move:
        """A play as its listed form: the same ranks in the same order, with the canonical cards
        of the seat's hand (suits never matter). Other moves, and plays of cards the seat does not
        hold, are returned as they are."""
        if move.action != "play":
            return move
        fields = move.fields
        if len(fields) != 1 or fields[0][0] != "cards":
            return move
        cards = fields[0][1]
        legal = self._legal_now()
        listed = _play_of(legal, cards)
        if listed is not None:
            return listed
        if not isinstance(cards, tuple) or not all(isinstance(c, str) for c in cards):
            return move
        canonical = canonical_cards(self.state.deal.hands[seat], cards)
        if canonical is None:
            return move
        return _play_of(legal, canonical) or move

    def is_legal(self, seat: int, move: Move) -> bool:
        """Whether ``move`` is accepted: it is listed, or it plays held cards whose ranks, in the
        same order, a listed play has (any suits)."""
        if seat not in self.to_act():
            return False
        legal = self._legal_now()
        return move in legal or self.normalise(seat, move) in legal

    def not_your_turn(self, seat: int) -> IllegalMove:
        state = self.state
        return reasons.not_your_turn(state.finished, state.in_deal, state.deal.turn)

    def refusal(self, seat: int, move: Move) -> IllegalMove:
        deal = self.state.deal
        legal = self._legal_now()
        return reasons.refusal(
            move,
            deal.hands[seat],
            bool(deal.stock or deal.pile),
            any(listed.action == "play" for listed in legal),
            self.reference(),
        )

    # ------------------------------------------------------------------ moves
    def apply(self, seat: int, move: Move) -> list[Event]:
        self.check(seat, move)
        self._legal = None  # the position changes
        deal = self.state.deal
        action = move.action
        if action == "draw":
            events = self._draw(seat)
        else:
            was_end_game = not deal.stock
            events = (
                self._play(seat, move.fields[0][1])  # type: ignore[arg-type]
                if action == "play"
                else self._pass(seat)
            )
            if not was_end_game and not deal.stock:
                self._find_reference()
                deal.zobrist = self._rehash()
                events.append(END_GAME)
            if not deal.hands[seat]:
                events.append(
                    Event(
                        "deal_won",
                        f"{SEAT[seat]} has played out and wins the deal.",
                        {"seat": seat},
                        None,
                        True,
                    )
                )
                events.extend(self._end_deal(seat, None))
                return events
        if deal.passes >= self.players:
            reason = "all_passed"
        elif deal.turns_taken >= self.rules.turn_limit:
            reason = "turn_limit"
        elif self._record_position() < 3:
            return events
        else:
            reason = "repetition"
        why = _BLOCKED_WHY.get(reason) or f"{deal.turns_taken} turns were played"
        events.append(
            Event(
                "deal_blocked",
                f"The deal is blocked ({why}); nobody wins it.",
                {"reason": reason},
                None,
                True,
            )
        )
        events.extend(self._end_deal(None, reason))
        return events

    def _draw(self, seat: int) -> list[Event]:
        """Draw the stock's top card, or in the end game the pile's."""
        deal = self.state.deal
        if deal.stock:
            card = deal.stock.pop()
            events = [STOCK_DRAWN[seat], YOU_DRAW[card][seat]]
            row = STOCK_DRAW_ROW[seat]
            if not deal.stock:  # the end game begins: its reference, and the hash it keeps
                events.append(END_GAME)
                self._find_reference()
                deal.zobrist = self._rehash() ^ HAND_KEYS[card][seat]  # card not in hand yet
        else:
            card = deal.pile.pop()
            events = [PILE_DRAWN[card][seat]]
            row = PILE_DRAW_ROW[card][seat]
            deal.zobrist ^= MOVE_KEYS[card][seat][len(deal.pile)]
            deal.refs.pop()
            deal.ref = deal.refs[-1]
            deal.known[seat].add(card)
        deal.hands[seat].append(card)
        deal.ranked[seat].add(card)
        deal.passes = 0
        deal.turn = next_seat(seat, self.players)
        deal.turns_taken += 1
        self.state.records[-1].rows.append(row)
        return events

    def _play(self, seat: int, cards: tuple[str, ...]) -> list[Event]:
        state = self.state
        deal = state.deal
        rules = self.rules
        ref = deal.ref
        ranks = "".join(cards)[::2]  # the cards' rank letters
        matches = count_matches(ranks, ref.ranks, rules.distinct) if ref.ranks else 0
        hand = deal.hands[seat]
        for card in cards:
            hand.remove(card)
            deal.ranked[seat].remove(card)
        known = deal.known[seat]
        if known:
            known.difference_update(cards)
        pile = deal.pile
        if deal.stock:
            deal.ref = Reference.of_ranks(ranks)
        else:  # the end game: the reference of the pile after each card, and the Zobrist hash
            refs = deal.refs
            top = ref
            zobrist = deal.zobrist
            for height, card in enumerate(cards, len(pile)):
                zobrist ^= MOVE_KEYS[card][seat][height]
                letter = card[0]
                top = top.after.get(letter) or top.then(letter)  # type: ignore[union-attr]
                refs.append(top)
            deal.zobrist = zobrist
            deal.ref = top
        pile.extend(cards)
        deal.last_play = cards
        deal.last_play_seat = seat
        deal.last_matches = matches
        deal.passes = 0
        shown = " ".join(map(SHOW.__getitem__, cards))
        events = [
            Event(
                "sequence_played",
                f"{SEAT[seat]} plays {shown}{MATCHES_TEXT[matches]}.",
                {
                    "seat": seat,
                    "cards": list(cards),
                    "matches": matches,
                    "reference": list(ref.shown),
                },
            )
        ]
        after = next_seat(seat, self.players)
        pickup = None
        if matches:
            pickup = self._forced_pickup(after, matches, events)
            if rules.ends_turn:
                after = next_seat(after, self.players)
        deal.turn = after
        deal.turns_taken += 1
        state.records[-1].rows.append((seat, "play", cards, ref.shown, matches, pickup, "", ""))
        return events

    def _pass(self, seat: int) -> list[Event]:
        deal = self.state.deal
        deal.passes += 1
        deal.turn = next_seat(seat, self.players)
        deal.turns_taken += 1
        self.state.records[-1].rows.append(PASS_ROW[seat])
        return [PASSED[seat]]

    def _forced_pickup(self, taker: int, count: int, events: list[Event]) -> Pickup:
        deal = self.state.deal
        from_stock: list[str] = []
        from_pile: list[str] = []
        # A pick-up that empties the stock begins the end game: apply then finds the reference
        # and the Zobrist hash (kept only in the end game).
        end_game = not deal.stock
        for _ in range(count):
            if deal.stock:
                from_stock.append(deal.stock.pop())
            elif deal.pile:
                card = deal.pile.pop()
                if end_game:
                    deal.zobrist ^= PILE_KEYS[card][len(deal.pile)] ^ HAND_KEYS[card][taker]
                    deal.refs.pop()
                from_pile.append(card)
            else:
                break
        if from_pile and end_game:
            deal.ref = deal.refs[-1]
        rank = deal.ranked[taker].add
        for card in from_stock + from_pile:
            rank(card)
        forgiven = count - len(from_stock) - len(from_pile)
        deal.hands[taker].extend(from_stock)
        deal.hands[taker].extend(from_pile)
        deal.known[taker].update(from_pile)
        parts = []
        if from_stock:
            parts.append(f"{len(from_stock)} from the stock")
        if from_pile:
            parts.append(f"{' '.join(map(SHOW.__getitem__, from_pile))} from the pile")
        if forgiven:
            parts.append(f"{forgiven} forgiven (no cards left)")
        text = (
            f"{SEAT[taker]} must pick up {count} card{'s' if count != 1 else ''}: "
            f"{', '.join(parts)}."
        )
        pickup = Pickup(taker, count, len(from_stock), tuple(from_pile), forgiven)
        events.append(Event("forced_pickup", text, pickup.to_json(), None, False))
        if from_stock:
            events.append(
                Event(
                    "forced_pickup",
                    f"You pick up {' '.join(map(SHOW.__getitem__, from_stock))}.",
                    {"seat": taker, "cards": from_stock},
                    ONLY[taker],
                    False,
                )
            )
        return pickup

    def _record_position(self) -> int:
        """Count the current position (end game only); returns how often it has occurred.

        A position is every hand (as a set), the pile in order and the seat to act (the stock is
        empty, and no pick-up is ever owed between moves; it cannot repeat while the stock has
        cards: the stock only shrinks and the pile only grows). It is identified by a 64-bit
        Zobrist hash kept up to date move by move in the end game; a false repetition would need
        a collision.
        """
        deal = self.state.deal
        if deal.stock:
            return 1
        seen = deal.positions[deal.turn]
        count = seen[deal.zobrist] = seen.get(deal.zobrist, 0) + 1
        return count

    def _end_deal(self, winner: int | None, reason: str | None) -> list[Event]:
        state = self.state
        deal = state.deal
        rules = self.rules
        n = self.players
        values, points = deal_points(deal.hands, winner, rules.scoring)
        for seat in range(n):
            state.totals[seat] += points[seat]
        result = DealResult(
            winner,
            reason,
            deal.turns_taken,
            values,
            points,
            tuple(tuple(view.sort_cards(hand)) for hand in deal.hands),
        )
        record = state.records[-1]
        record.result = result
        record.score_after = tuple(state.totals)
        state.in_deal = False
        self.status = "awaiting_deal"
        self._changed()
        scored = ", ".join(f"{seat_ref(s)} {points[s]}" for s in range(n))
        events = [
            Event(
                "hand_scored",
                f"Points this deal: {scored}.",
                result.to_json(hands=False) | {"score": list(state.totals)},
                None,
                True,
            )
        ]
        target = rules.match_target
        if target and max(state.totals) < target:
            state.dealer = next_seat(state.dealer, n)
            state.deal_index += 1
            events.extend(self._next_deal())
            return events
        state.finished = True
        self.status = "finished"
        state.winners = game_winners(
            state.totals, winner, scoring=rules.scoring, match=bool(target)
        )
        data: dict[str, Any] = {"winners": list(state.winners), "score": list(state.totals)}
        if len(state.winners) == 1:
            text = f"{seat_ref(state.winners[0])} wins the game."
        elif state.winners:
            text = "The game is shared by " + ", ".join(seat_ref(s) for s in state.winners) + "."
        elif rules.scoring:
            places = ranking(state.totals)
            data["ranking"] = places
            ranked = ", ".join(f"{seat_ref(s)} {state.totals[s]}" for p in places for s in p)
            text = f"The game ends without a winner; by points: {ranked}."
        else:
            text = "The game ends without a winner."
        events.append(Event("game_over", text, data, None, True))
        return events

    # ------------------------------------------------------------------ what people see
    def view(self, seat: int | None) -> TungeView:
        return view.build_view(self, seat)

    def hidden_cards(self, seat: int | None) -> set[str]:
        return view.hidden_cards(self.state, seat)

    def move_label(self, move: Move, seat: int | None = None) -> str:
        return view.move_label(move)

    # ------------------------------------------------------------------ results
    def outcome(self) -> Outcome | None:
        state = self.state
        if not state.finished:
            return None
        return Outcome(state.winners, tuple(state.totals))

    def summary(self) -> dict[str, Any]:
        state = self.state
        winner = state.winners[0] if state.finished and len(state.winners) == 1 else None
        return {
            "deals": [record.to_json() for record in state.records],
            "score": list(state.totals),
            "winner": winner,
            "winners": list(state.winners) if state.finished else None,
        }
