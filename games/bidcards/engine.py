"""The engine Tuppi and Norwegian Whist share (:class:`BidCardGame`): dealing, the secret bid
cards and their reveal, thirteen no-trump tricks, the views and the hidden cards. The rules and
the hidden-information promises are in the package docstring (:mod:`games.bidcards`); the
subclasses supply the words, the cards that may carry a bid, the reveal order and the scoring.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from games.base import (
    Deal,
    DealError,
    Event,
    Game,
    IllegalMove,
    Move,
    NotYourTurn,
    Outcome,
    Status,
    deal_rng,
    shuffle,
)
from games.bidcards.words import (
    BID_COMMITTED,
    CARD_PLAYED,
    SEATS,
    TRICK_WON_TEXT,
    against,
    article,
    colour_of,
    malformed,
    team_title,
)
from games.cards import SUIT_NAMES, display, make_deck
from games.seats import next_seat, seat_ref, seats_from, team_of, team_seats
from games.tricks import (
    PLAY,
    HandRecord,
    TrickRecord,
    deal_round,
    play_moves,
    play_problem,
    sort_hand,
    strength_table,
    trick_winner,
    winning_so_far,
)
from games.views import BID_PHASES, BidCardsView, BidView, LastTrick, OwnBid

DECK = make_deck()
DECK_SET = frozenset(DECK)
NORMAL_ORDER = "23456789TJQKA"
NORMAL_STRENGTH = strength_table(NORMAL_ORDER)
PLAY_MOVES = PLAY
PASS_MOVE = Move.of("pass")
NO_MOVES: list[Move] = []  # shared by every seat without a move: never changed
ORDERS = tuple(tuple(seats_from(leader, 4)) for leader in SEATS)  # from a leader
# (game name, options) -> the bid table of BidCardGame._find_bid_table
_BID_TABLES: dict[tuple[str, tuple[tuple[str, Any], ...]], dict[str, tuple[Move, bool]]] = {}


@dataclass(init=False, eq=False, repr=False)
class BidCardGame(Game):
    """The shared engine. Subclasses set the class constants and override the hooks.

    The state is the typed attributes below; :meth:`Game.clone` copies them by their types.
    """

    teams = True
    player_module = "games.players.bidcards"
    HIGH: ClassVar[str] = "high"
    LOW: ClassVar[str] = "low"
    BID_WORD: ClassVar[str] = "bid card"

    # --- state (set in new) ---
    seed: int | None
    dealer: int
    deal_index: int
    hands_played: int
    phase: str  # bids, sooli, exchange, tricks, between, over
    hands: list[list[str]]
    commits: list[tuple[str, str | None] | None]
    revealed: list[tuple[int, str, str | None]]
    declarer: int | None
    hand_type: str | None
    trick: list[tuple[int, str]]
    order: Sequence[int]
    turn: int
    won: list[int]
    seat_won: list[int]
    records: list[HandRecord]
    score: list[int]
    winner: int | None
    public_known: set[str]
    known: list[set[str]]
    played: list[str]
    strength: Mapping[str, int]  # card -> rank within its suit (aces low in sooli)
    last_trick: TrickRecord | None
    # --- per option set: card -> (the bid it carries, whether that bid is HIGH); shared ---
    _bid_table: Mapping[str, tuple[Move, bool]]
    # --- per hand: each seat's moves in the bids before and after it commits (its hand does
    # not change while bids are taken), so a bid recomputes no seat's choices ---
    _bid_choices: Sequence[tuple[Sequence[Move], Sequence[Move]]]
    # --- the legal moves per seat and the seats that have one, kept until the next change (a
    # play loop asks to_act, legal_moves and check in turn); shared by clones ---
    _legal: Sequence[Sequence[Move]] | None
    _acting: tuple[int, ...]
    # --- Game.status as a plain attribute, not a property (a play loop reads it after every
    # move); set where the phase enters or leaves "between" and "over". The class default hides
    # Game's property; kw_only lets the subclasses' fields without a default follow it ---
    status: Status = field(default="awaiting_deal", kw_only=True)

    # ------------------------------------------------------------------ creation
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
        game.players = 4
        for deal in deals:
            cls._validate_deal(deal)
        if first_dealer is None:
            first_dealer = deal_rng(seed, -1).randrange(4) if seed is not None else 0
        if not 0 <= first_dealer < 4:
            raise DealError("the first dealer must be a seat from 0 to 3")
        game.seed = seed
        game.deals = list(deals)
        game.first_dealer = first_dealer
        game.dealer = first_dealer
        game.deal_index = 0
        game.hands_played = 0
        game.phase = "between"
        game.hands = [[], [], [], []]
        game.commits = [None, None, None, None]
        game.revealed = []
        game.declarer = None
        game.hand_type = None
        game.trick = []
        game.order = ()
        game.turn = 0
        game.won = [0, 0]
        game.seat_won = [0, 0, 0, 0]
        game.records = []
        game.score = [0, 0]
        game.winner = None
        game.public_known = set()
        game.known = [set(), set(), set(), set()]
        game.played = []
        game.strength = NORMAL_STRENGTH
        game.last_trick = None
        game._bid_table = game._find_bid_table()
        game._bid_choices = ()
        game._legal = None
        game._acting = ()
        game.status = "in_progress" if game._deal_available() else "awaiting_deal"
        game._init_extra()
        game._ensure_dealt()
        return game

    def _init_extra(self) -> None:
        """Subclass state; called once by :meth:`new`."""

    @classmethod
    def _validate_deal(cls, deal: Deal) -> None:
        if (
            len(deal.hands) != 4
            or any(len(hand) != 13 for hand in deal.hands)
            or deal.stock
            or {card for hand in deal.hands for card in hand} != DECK_SET
        ):
            raise DealError(
                f"a {cls.title} deal is 13 cards to each of four seats from one 52-card deck"
            )

    # ------------------------------------------------------------------ dealing
    def _deal_available(self) -> bool:
        return self.deal_index < len(self.deals) or self.seed is not None

    def _ensure_dealt(self) -> None:
        """Deal the next hand if one is available (called by ``new`` and by the ``apply`` or
        ``add_deal`` that makes one due)."""
        if self.phase != "between" or not self._deal_available():
            return
        if self.deal_index < len(self.deals):
            deal = self.deals[self.deal_index]
        else:
            assert self.seed is not None
            deck = DECK[:]
            shuffle(deal_rng(self.seed, self.deal_index), deck)
            deal = deal_round(deck, 4, next_seat(self.dealer, 4))
            self.deals.append(deal)
        self.deal_index += 1
        self._start_deal(deal)

    def _start_deal(self, deal: Deal) -> None:
        self.hands = [list(hand) for hand in deal.hands]
        self.commits = [None, None, None, None]
        self.revealed = []
        self.declarer = None
        self.hand_type = None
        self.trick = []
        self.order = ()
        self.won = [0, 0]
        self.seat_won = [0, 0, 0, 0]
        self.public_known = set()
        self.known = [set(), set(), set(), set()]
        self.played = []
        self.strength = NORMAL_STRENGTH
        self.last_trick = None
        self.phase = "bids"
        self.status = "in_progress"
        self.records.append(HandRecord())
        self._start_extra()
        self._bid_choices = tuple(
            (self._bid_moves(seat), self._committed_moves(seat)) for seat in SEATS
        )

    def _start_extra(self) -> None:
        """Reset the subclass's per-hand state."""

    def add_deal(self, deal: Deal) -> list[Event]:
        if self.status != "awaiting_deal":
            raise IllegalMove("This game is not waiting for a deal.")
        self._validate_deal(deal)
        self.deals.append(deal)
        self._legal = None
        self._ensure_dealt()
        return [Event("new_deal", f"{seat_ref(self.dealer)} has dealt.", {"dealer": self.dealer})]

    # ------------------------------------------------------------------ whose turn, what is legal
    def to_act(self) -> tuple[int, ...]:
        self._legal_all()
        return self._acting

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in SEATS:
            return []
        return list(self._legal_all()[seat])

    def _legal_all(self) -> Sequence[Sequence[Move]]:
        """Every seat's legal moves now, the single source of truth for ``to_act``,
        ``legal_moves`` and ``is_legal``: worked out after a change (with the seats that have
        one, in ``_acting``) and kept until ``apply`` or ``add_deal`` changes the game."""
        if self._legal is None:
            self._legal = self._find_legal()
            self._acting = tuple(seat for seat in SEATS if self._legal[seat])
        return self._legal

    def _find_legal(self) -> list[Sequence[Move]]:
        phase = self.phase
        if phase == "tricks":
            legal: list[Sequence[Move]] = [NO_MOVES, NO_MOVES, NO_MOVES, NO_MOVES]
            legal[self.turn] = play_moves(self.hands[self.turn], self.trick)
            return legal
        if phase == "bids":
            return [
                before if commit is None else after
                for commit, (before, after) in zip(self.commits, self._bid_choices, strict=True)
            ]
        return [self._other_moves(seat) for seat in SEATS]

    def _other_moves(self, seat: int) -> list[Move]:
        """The moves outside the bids and the tricks (Tuppi's sooli window and exchange)."""
        return []

    # --- bids (the subclass defines what cards may carry which value) ---
    def _value_of_card(self, card: str) -> str:
        raise NotImplementedError

    def _card_allowed(self, card: str) -> bool:
        return True

    def _bid_with_token(self) -> bool:
        return False

    def _bid_moves(self, seat: int) -> list[Move]:
        """The bids ``seat`` may commit this hand (called when the hand is dealt)."""
        if self._bid_with_token():
            return [self._bid_move(self.HIGH, None), self._bid_move(self.LOW, None)]
        moves: list[Move] = []
        have_high = have_low = False
        table = self._bid_table
        for card in self.hands[seat]:
            entry = table.get(card)
            if entry is not None:
                moves.append(entry[0])
                if entry[1]:
                    have_high = True
                else:
                    have_low = True
        if not have_high:
            moves.append(self._bid_move(self.HIGH, None))
        if not have_low:
            moves.append(self._bid_move(self.LOW, None))
        return moves

    def _committed_moves(self, seat: int) -> list[Move]:
        """The moves ``seat`` still has in the bids once it has committed (called when the hand
        is dealt)."""
        return NO_MOVES

    def _find_bid_table(self) -> Mapping[str, tuple[Move, bool]]:
        """Card -> (the bid it carries, whether that bid is HIGH) for the cards that may carry
        one under this game's options: built once per option set (the bids look it up per card
        instead of asking the hooks)."""
        key = (self.name, tuple(sorted(self.options.items())))
        table = _BID_TABLES.get(key)
        if table is None:
            table = {}
            for card in DECK:
                if self._card_allowed(card):
                    value = self._value_of_card(card)
                    table[card] = (self._bid_move(value, card), value == self.HIGH)
            _BID_TABLES[key] = table
        return table

    _bid_cache: ClassVar[dict[tuple[str, str | None], Move]] = {}

    @classmethod
    def _bid_move(cls, value: str, card: str | None) -> Move:
        key = (value, card)
        move = cls._bid_cache.get(key)
        if move is None:
            move = (
                Move.of("bid", value=value)
                if card is None
                else Move.of("bid", value=value, card=card)
            )
            cls._bid_cache[key] = move
        return move

    def _colour_word(self, value: str) -> str:
        """The colour that carries ``value``."""
        for card in ("2S", "2H"):
            if self._value_of_card(card) == value:
                return colour_of(card)
        raise AssertionError(value)

    def _bid_refusal(self, seat: int, move: Move) -> IllegalMove:
        """Why a bid the legal moves do not contain is refused."""
        if self.phase != "bids":
            return against("Bids are not being taken now.", "no_bids_now")
        if self.commits[seat] is not None:
            return NotYourTurn("You have already committed your bid.", code="already_committed")
        value = move.get("value")
        card = move.get("card")
        if value not in (self.HIGH, self.LOW):
            return malformed(f"A bid is {self.HIGH} or {self.LOW}.")
        if any(key not in ("value", "card") for key, _ in move.fields):
            return malformed("A bid takes only a value and a card.")
        if self._bid_with_token():
            return against("Bids are made with tokens here, not with a card.", "token_bids")
        if card is not None:
            if card not in self.hands[seat]:
                return against("That card is not in your hand.", "not_in_hand", card=card)
            if not self._card_allowed(card):
                return against(
                    f"{article(card).capitalize()} cannot be a bid card.", "not_a_bid_card"
                )
            meaning = self._value_of_card(card)
            return against(
                f"A {colour_of(card)} card means {meaning}.", "colour_means", value=meaning
            )
        colour = self._colour_word(value)
        return against(
            self._verbal_refusal(colour, value), "must_bid_with_card", colour=colour, value=value
        )

    def _verbal_refusal(self, colour: str, value: str) -> str:
        return f"You have a {colour} card, so you cannot bid {value} verbally."

    def _commit(self, seat: int, move: Move, events: list[Event]) -> None:
        value: str = move.get("value")
        card: str | None = move.get("card")
        self.commits[seat] = (value, card)
        events.append(BID_COMMITTED[seat])
        events.append(
            Event(
                "bid_chosen",
                f"You bid {value} {self._bid_how(card)}.",
                {"seat": seat, "value": value, "card": card},
                frozenset({seat}),
            )
        )
        if None not in self.commits:
            self._reveal(events)

    def _bid_how(self, card: str | None) -> str:
        if card is not None:
            return f"with {display(card)}"
        if self._bid_with_token():
            return "with a token"
        return "verbally"

    def _reveal_order(self) -> list[int]:
        raise NotImplementedError

    def _reveal(self, events: list[Event]) -> None:
        for seat in self._reveal_order():
            commit = self.commits[seat]
            assert commit is not None
            value, card = commit
            self.revealed.append((seat, value, card))
            if card is not None:
                self.public_known.add(card)
            events.append(
                Event(
                    "bid_revealed",
                    f"{seat_ref(seat)} shows {value} {self._bid_how(card)}.",
                    {"seat": seat, "value": value, "card": card},
                )
            )
            if value == self.HIGH:
                self.declarer = seat
                self.hand_type = self.HIGH
                break
        else:
            self.hand_type = self.LOW
        self._after_reveal(events)

    def _after_reveal(self, events: list[Event]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ tricks
    def _start_tricks(self, leader: int, events: list[Event]) -> None:
        self.phase = "tricks"
        self.order = self._trick_order(leader)
        self.turn = leader
        events.append(Event("lead", f"{seat_ref(leader)} leads.", {"leader": leader}))

    def _trick_order(self, leader: int) -> Sequence[int]:
        return ORDERS[leader]

    def _play_refusal(self, seat: int, move: Move) -> IllegalMove:
        """Why a play the legal moves do not contain is refused."""
        if self.phase != "tricks":
            if self.phase == "bids":
                return against("Bids are still being made.", "bids_first")
            return against("No cards are being played now.", "no_play_now")
        if len(move.fields) != 1 or move.fields[0][0] != "card":
            return malformed("A play names one card.")
        if seat != self.turn:
            return self._turn_refusal()
        card = move.fields[0][1]
        problem = play_problem(self.hands[seat], self.trick, str(card))
        if problem == "must_follow":
            led = self.trick[0][1][1]
            return against(f"You must follow {SUIT_NAMES[led]}.", "must_follow", suit=led)
        return against("That card is not in your hand.", "not_in_hand", card=card)

    def _play(self, seat: int, card: str, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.played.append(card)
        trick = self.trick
        trick.append((seat, card))
        events.append(CARD_PLAYED[seat][card])
        if len(trick) < len(self.order):
            self.turn = self.order[len(trick)]
            return
        winner = trick_winner(trick, None, self.strength)
        self.won[team_of(winner)] += 1
        self.seat_won[winner] += 1
        record = TrickRecord.of(trick, winner)
        self.records[-1].tricks.append(record)
        self.last_trick = record
        self.trick = []
        events.append(
            Event(
                "trick_won",
                TRICK_WON_TEXT[winner],
                {
                    "winner": winner,
                    "leader": record.leader,
                    "cards": list(record.cards),
                    "tricks": list(self.won),
                },
            )
        )
        if self._hand_over():
            self._end_hand(events)
        else:
            self.order = self._trick_order(winner)
            self.turn = winner

    def _hand_over(self) -> bool:
        return len(self.records[-1].tricks) == 13

    # ------------------------------------------------------------------ end of a hand
    def _score_hand(self, events: list[Event]) -> dict[str, Any]:
        """Update ``self.score`` and return the hand's result (the summary's ``result``)."""
        raise NotImplementedError

    def _game_winner(self) -> tuple[bool, int | None]:
        """(game over?, winning team or None for a draw)."""
        raise NotImplementedError

    def _game_over_text(self, winner: int | None) -> str:
        """The game's last words: who won (a game that decides otherwise than by the score
        says how)."""
        return "The game is a draw." if winner is None else f"{team_title(winner)} wins the game."

    def _end_hand(self, events: list[Event]) -> None:
        result = self._score_hand(events)
        self.hands_played += 1
        self.records[-1].finish(result, self.score)
        events.append(
            Event(
                "hand_scored",
                self._result_text(result),
                {"result": result, "score": list(self.score)},
                history=True,
            )
        )
        self._close_hand()
        over, winner = self._game_winner()
        if over:
            self.phase = "over"
            self.status = "finished"
            self.winner = winner
            events.append(
                Event(
                    "game_over",
                    self._game_over_text(winner),
                    {"winner": winner, "score": list(self.score)},
                    history=True,
                )
            )
            return
        self.dealer = next_seat(self.dealer, 4)
        events.append(
            Event(
                "new_deal", f"{seat_ref(self.dealer)} deals the next hand.", {"dealer": self.dealer}
            )
        )
        self._ensure_dealt()

    def _close_hand(self) -> None:
        """The cards are collected: nothing of the finished hand stays in anyone's hand."""
        self.phase = "between"
        self.status = "in_progress" if self._deal_available() else "awaiting_deal"
        self.hands = [[], [], [], []]
        self.trick = []
        self.public_known = set()
        self.known = [set(), set(), set(), set()]

    def _result_text(self, result: dict[str, Any]) -> str:
        return "The hand is scored."

    # ------------------------------------------------------------------ check / apply
    def is_legal(self, seat: int, move: Move) -> bool:
        """The one legality check (``check`` and so ``apply`` ask it): one of the seat's legal
        moves now."""
        return seat in SEATS and move in self._legal_all()[seat]

    def not_your_turn(self, seat: int) -> IllegalMove:
        """The refusal for a seat that has nothing to decide now, in this phase's words."""
        phase = self.phase
        if phase == "over":
            return NotYourTurn("The game is over.", code="game_over")
        if phase == "between":
            return NotYourTurn("The next hand has not been dealt yet.", code="awaiting_deal")
        if not 0 <= seat < 4:
            return NotYourTurn("There is no such seat.", code="no_such_seat")
        if phase == "bids":
            return NotYourTurn("You have already committed your bid.", code="already_committed")
        return self._turn_refusal()

    def _turn_refusal(self) -> IllegalMove:
        """Whose turn it is, for a seat that is not to act outside the bids."""
        return NotYourTurn(
            f"It is {seat_ref(self.turn)}'s turn to play.", params={"turn": self.turn}
        )

    def out_of_turn(self, seat: int, move: Move) -> IllegalMove:
        """Out of turn, the move's own reason comes first (as the contract's examples give it:
        sooli refused at a tournament table whoever asks); the refusal functions below check
        the turn where it matters."""
        if self.phase in ("over", "between") or not 0 <= seat < 4:
            return self.not_your_turn(seat)
        return self.refusal(seat, move)

    def refusal(self, seat: int, move: Move) -> IllegalMove:
        """The reason, by the move's action (seat may be out of turn: see :meth:`out_of_turn`)."""
        action = move.action
        if action == "play":
            return self._play_refusal(seat, move)
        if action == "bid":
            return self._bid_refusal(seat, move)
        return self._other_refusal(seat, move)

    def _other_refusal(self, seat: int, move: Move) -> IllegalMove:
        return malformed(f"That is not a move in {self.title}.")

    def apply(self, seat: int, move: Move) -> list[Event]:
        self.check(seat, move)
        self._legal = None
        events: list[Event] = []
        action = move.action
        if action == "play":
            self._play(seat, move.fields[0][1], events)  # type: ignore[arg-type]
        elif action == "bid":
            self._commit(seat, move, events)
        else:
            self._apply_other(seat, move, events)
        return events

    def _apply_other(self, seat: int, move: Move, events: list[Event]) -> None:
        raise AssertionError(move)

    # ------------------------------------------------------------------ what people see
    def secret_move(self, seat: int, mover: int, move: Move) -> bool:
        """A bid stays secret until the reveal shows it, and for ever if the reveal stops before
        it: its value, not only its card (a verbal bid or a token names none, and a bid card
        played later does not tell what it bid)."""
        return move.action == "bid" and all(shown[0] != mover for shown in self.revealed)

    def hidden_cards(self, seat: int | None) -> set[str]:
        hidden: set[str] = set()
        for other, hand in enumerate(self.hands):
            if other != seat:
                hidden.update(hand)
        hidden -= self.public_known
        if seat is not None:
            hidden -= self.known[seat]
        return hidden

    def _sorted(self, cards: Sequence[str]) -> list[str]:
        """Cards for display: spades, hearts, clubs, diamonds (colours alternate), high first."""
        return sort_hand(cards, "SHCD", self.strength)

    def _prompt(self) -> str:
        if self.phase == "bids":
            return (
                f"Commit a bid: a {self._colour_word(self.HIGH)} card for {self.HIGH}, "
                f"a {self._colour_word(self.LOW)} card for {self.LOW}."
            )
        if self.phase == "tricks":
            return f"{seat_ref(self.turn)} to play."
        if self.phase == "over":
            return "The game is over."
        return "Waiting for the next deal."

    def _lines(self, seat: int | None) -> list[str]:
        lines: list[str] = []
        if self.phase == "bids":
            done = [seat_ref(s) for s in range(4) if self.commits[s] is not None]
            if done:
                lines.append("Committed: " + ", ".join(done) + ".")
        if self.revealed:
            lines.append(
                "Revealed: "
                + ", ".join(
                    f"{seat_ref(s)} {v} ({display(c) if c else self._bid_how(None)})"
                    for s, v, c in self.revealed
                )
                + "."
            )
        if self.hand_type is not None:
            lines.append(self._hand_line())
        if self.phase == "tricks":
            lines.append(f"Tricks: A {self.won[0]}, B {self.won[1]}.")
        return lines

    def _hand_line(self) -> str:
        if self.declarer is None:
            return f"The hand is {self.hand_type}."
        return f"The hand is {self.hand_type}, by {seat_ref(self.declarer)}."

    VIEW: ClassVar[type[BidCardsView]] = BidCardsView  # the family member's view class

    def view(self, seat: int | None) -> BidCardsView:
        own_bid = None
        if seat is not None and self.phase != "between":
            commit = self.commits[seat]
            if commit is not None:
                own_bid = OwnBid(commit[0], commit[1])
        fields: dict[str, Any] = {
            "game": self.name,
            "players": 4,
            "dealer": self.dealer,
            "phase": BID_PHASES[self.phase],
            "to_act": self.to_act(),
            "prompt": self._prompt(),
            "hand_sizes": tuple(len(hand) for hand in self.hands),
            "trick": tuple(self.trick),
            "last_trick": LastTrick.of(self.last_trick),
            "trump": None,
            "winning": winning_so_far(self.trick, None, self.strength),
            "lines": tuple(self._lines(seat)),
            "score": tuple(self.score),
            "score_label": "points",
            "committed": tuple(commit is not None for commit in self.commits),
            "own_bid": own_bid,
            "revealed": tuple(BidView(s, v, c) for s, v, c in self.revealed),
            "hand_type": self.hand_type,
            "declarer": self.declarer,
            "tricks_won": tuple(self.won),
            "hand_number": len(self.records),
            "hand": None if seat is None else tuple(self._sorted(self.hands[seat])),
        }
        fields.update(self._view_extra(seat))
        return self.VIEW(**fields)

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        """The subclass's fields of its view (and any common field it words otherwise)."""
        return {}

    def move_label(self, move: Move, seat: int | None = None) -> str:
        action = move.action
        if action == "play":
            return f"Play {display(move.get('card'))}"
        if action == "bid":
            value = str(move.get("value")).capitalize()
            card = move.get("card")
            if card is not None:
                return f"{value} ({display(card)})"
            return f"{value} ({'token' if self._bid_with_token() else 'verbal'})"
        return action.capitalize()

    # ------------------------------------------------------------------ results
    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        winners = () if self.winner is None else tuple(team_seats(self.winner, 4))
        return Outcome(winners, tuple(self.score))

    def summary(self) -> dict[str, Any]:
        deals = [record.to_json(4) for record in self.records]
        if self.phase == "between":
            deals.append({"tricks": [], "result": None, "score_after": None})
        return {
            "deals": deals,
            "score": list(self.score),
            "winner": self.winner if self.phase == "over" else None,
        }
