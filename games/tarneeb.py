"""Tarneeb (``tarneeb``) and Egyptian Tarneeb (``tarneeb_egyptian``): the rules engines.

This module holds what both games share (dealing, play, scoring, views) and the Tarneeb auction;
:mod:`games.tarneeb_egyptian` holds the Egyptian auction. The computer player is
:mod:`games.players.tarneeb`. Results (a scored hand, a throw-in, the end of the game) are events
with ``history=True``.

Contract: shared/rules/tarneeb.md (Part A). Four players in two partnerships, team A = seats 0
and 2, team B = seats 1 and 3. Seats are numbered in the order of play; the game goes
counter-clockwise, so seat ``s + 1`` sits on ``s``'s right. 52 cards, ace high, 13 each.

Terms
- *tarneeb*: the trump suit. *Declarer*: the winner of the auction; his bid is the *contract*
  (a number of tricks, 7..13), and he leads to trick 1.
- *Throw-in*: every player passed; nobody scores and the cards are dealt again.
- *Kaboot*: one side takes all 13 tricks.
- Egyptian: a bid carries a *strain* (``C D H S`` or ``NT`` = no trump) which becomes trump;
  a *double* marks the opponents' highest bid so the declaring side's score counts twice.

Transcript moves (the contract's Actions tables)
- ``tarneeb``: ``{"action": "bid", "value": 9}``, ``{"action": "pass"}``,
  ``{"action": "trump", "suit": "S"}`` (``"NT"`` with ``allow_no_trump``), ``{"action": "play",
  "card": "JS"}``.
- ``tarneeb_egyptian``: ``{"action": "bid", "value": 8, "suit": "D"}`` (suit ``C D H S NT``),
  ``{"action": "double"}``, ``{"action": "pass"}``, ``{"action": "play", "card": "JS"}``.

Rule choices where the contract is silent
- Under ``trump_declaration: first_lead`` with ``allow_no_trump`` the declarer calls no trump with
  the move ``{"action": "trump", "suit": "NT"}`` before his first lead; any other suit is refused
  (the lead names it).
- ``all_pass: dealer_forced_7`` (both games): when the first three calls of an auction are passes,
  the fourth caller (the dealer) may not pass. In the single-round auction he must bid; in the
  open auction his bid ends the auction since everyone else passed.
- In the open auction a bid of 13 ends the auction at once; in the single-round auction later
  players still call and the dealer may still equal 13 (contract A.1.3 rule 4).
- Egyptian ``strain_order``: ``bridge`` (C < D < H < S < NT, the seed) or ``masrawy`` (the
  Jawaker order C < S < H < D, with NT still the highest strain, since that source ranks suits
  only). Egyptian ``all_pass`` takes the same three values as Tarneeb's.
- Egyptian ``kaboot_scoring``: the 16/26/-16 values replace ``t``/``b`` and are then doubled for
  a doubled contract; the defenders' ``2 * o`` after a failed 13 is never doubled.
- Both teams at or over the target after a hand (only possible with ``defenders_always_score``):
  the higher total wins; an exact tie plays another hand. An instant win (``instant_win``) ends the
  game at once whatever the totals.
- The replay summary gives every deal (throw-ins included) as ``{"dealer", "tricks", "result",
  "score_after"}``; ``result`` is ``{"throw_in": true, "points": [0, 0]}`` for a throw-in, else
  ``{"throw_in": false, "declarer", "team", "contract", "trump", "doubled", "tricks": [A, B],
  "made", "kaboot", "instant_win", "points": [A, B]}``.

Engine options (not rules of the game; the contract does not name them)
- ``hand_limit`` (both games, default 30, 10..1000): a safeguard that guarantees every game ends.
  With failed contracts costing the bid, totals can drift downwards for ever (uniformly random
  bidding does exactly that), so after ``hand_limit`` deals, throw-ins included, the game ends
  with the first scored hand that leaves the totals unequal, and the higher total wins. Real
  games end long before (41 points take a handful of hands), so tables never need to change it.

Hidden information: each player sees only his own hand; bids, passes, doubles, the trump and every
played card are public. Under ``first_lead`` nobody (the declarer included, formally) has a trump
until the first card is led, so there is no hidden trump to keep. Bids are written in words
("8 diamonds") in every text so that no bid can be mistaken for a card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from games.base import (
    AgainstRules,
    Deal,
    DealError,
    Event,
    Game,
    IllegalMove,
    Malformed,
    Move,
    NotYourTurn,
    Option,
    Outcome,
    Status,
    deal_rng,
    shuffle,
)
from games.cards import SUIT_NAMES, SUIT_SYMBOLS, display, make_deck
from games.facts import GameFacts, team_points, three
from games.seats import next_seat, other_team, seat_ref, team_of
from games.tricks import (
    PLAY,
    HandRecord,
    TrickRecord,
    deal_round,
    is_legal_play,
    play_moves,
    play_problem,
    sort_hand,
    strength_table,
    trick_winner,
    winning_so_far,
)
from games.views import TARNEEB_PHASES, CallView, LastTrick, TarneebPhase, TarneebView

RANKS = "23456789TJQKA"
DECK: tuple[str, ...] = tuple(make_deck())
DECK_SET = frozenset(DECK)
RANK_VALUE: dict[str, int] = strength_table(RANKS)
SUIT_ORDER = "SHDC"

PLAY_MOVES: dict[str, Move] = PLAY
PASS = Move.of("pass")
DOUBLE = Move.of("double")
TRUMP_MOVES: dict[str, Move] = {s: Move.of("trump", suit=s) for s in ("S", "H", "D", "C", "NT")}
BID_MOVES: dict[int, Move] = {v: Move.of("bid", value=v) for v in range(7, 14)}
KNOWN_ACTIONS = frozenset({"play", "trump", "bid", "pass", "double"})

STRAIN_WORDS = {**SUIT_NAMES, "NT": "no trump"}
TEAM_NAMES = ("{s0} & {s2}", "{s1} & {s3}")

Call = tuple[int, str, int, str | None]
"""One call of the auction: (seat, action, value, strain)."""


def hand_points(
    contract: int, tricks: int, *, kaboot: bool, defenders_always: bool, multiplier: int = 1
) -> tuple[int, int, bool]:
    """(declaring side, defending side, made) for one hand (contract A.1.6 and A.2.2)."""
    other = 13 - tricks
    made = tricks >= contract
    if kaboot and contract == 13:
        declaring, defending = (26, 0) if made else (-16, 2 * other)
    elif kaboot and tricks == 13:
        declaring, defending = 16, 0
    elif made:
        declaring, defending = tricks, 0
    else:
        declaring, defending = -contract, other
    if made and defenders_always:
        defending = other
    return declaring * multiplier, defending, made


def bid_words(value: int, strain: str | None) -> str:
    return str(value) if strain is None else f"{value} {STRAIN_WORDS[strain]}"


def against(text: str, code: str, **params: Any) -> AgainstRules:
    return AgainstRules(text, code=code, params=params)


def malformed(text: str, **params: Any) -> Malformed:
    return Malformed(text, params=params)


@dataclass(init=False, eq=False, repr=False)
class _TarneebBase(Game):
    """Deal, play, scoring and views shared by both games; subclasses run their own auction.

    The state is the typed attributes below; :meth:`Game.clone` copies them by their types.
    """

    teams = True
    egyptian: ClassVar[bool] = False
    player_module = "games.players.tarneeb"

    seed: int | None
    dealer: int
    deal_no: int
    phase: str  # auction | trump | play | awaiting_deal | over
    hands: list[list[str]]
    turn: int
    calls: list[Call]
    high: int  # tarneeb: bid value; egyptian: level * 5 + strain index; 0 = none
    high_bidder: int
    high_strain: str | None
    doubled: bool
    passed: list[bool]
    quiet: int  # egyptian: consecutive passes/doubles
    declarer: int
    contract: int
    trump: str | None
    trick: list[tuple[int, str]]
    tricks: list[TrickRecord]
    team_tricks: list[int]
    score: list[int]
    records: list[HandRecord]
    winner: int | None
    played: set[str]

    # --- creation ---
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
        game.seed = seed
        for deal in deals:
            _validate_deal(deal)
        game.deals = list(deals)
        if first_dealer is None:
            first_dealer = 0 if seed is None else deal_rng(seed, -1).randrange(4)
        if type(first_dealer) is not int or not 0 <= first_dealer < 4:
            raise DealError("the first dealer must be a seat from 0 to 3")
        game.first_dealer = game.dealer = first_dealer
        game.deal_no = 0
        game.score = [0, 0]
        game.records = []
        game.winner = None
        game._start_deal()
        return game

    def _reset_hand(self) -> None:
        self.hands = [[], [], [], []]
        self.turn = self.dealer
        self.calls = []
        self.high = 0
        self.high_bidder = -1
        self.high_strain = None
        self.doubled = False
        self.passed = [False] * 4
        self.quiet = 0
        self.declarer = -1
        self.contract = 0
        self.trump = None
        self.trick = []
        self.tricks = []
        self.team_tricks = [0, 0]
        self.played = set()

    def _start_deal(self) -> list[Event]:
        """Deal the next hand from the recorded deals, a seeded shuffle, or wait for one."""
        self._reset_hand()
        if self.deal_no < len(self.deals):
            deal = self.deals[self.deal_no]
        elif self.seed is not None:
            cards = list(DECK)
            shuffle(deal_rng(self.seed, self.deal_no), cards)
            deal = deal_round(cards, 4, next_seat(self.dealer, 4))
            self.deals.append(deal)
        else:
            self.phase = "awaiting_deal"
            return []
        self.hands = [list(hand) for hand in deal.hands]
        self.phase = "auction"
        self.turn = next_seat(self.dealer, 4)
        self.records.append(HandRecord(dealer=self.dealer))
        return [
            Event(
                "new_deal",
                f"{seat_ref(self.dealer)} deals.",
                {"dealer": self.dealer, "deal": self.deal_no},
            )
        ]

    def add_deal(self, deal: Deal) -> list[Event]:
        if self.phase != "awaiting_deal":
            raise IllegalMove("This game is not waiting for a deal.")
        _validate_deal(deal)
        self.deals.append(deal)
        return self._start_deal()

    # --- whose turn, what is legal ---
    @property
    def status(self) -> Status:
        if self.winner is not None:
            return "finished"
        if self.phase == "awaiting_deal":
            return "awaiting_deal"
        return "in_progress"

    def to_act(self) -> tuple[int, ...]:
        if self.winner is not None or self.phase == "awaiting_deal":
            return ()
        return (self.turn,)

    def legal_moves(self, seat: int) -> list[Move]:
        if seat != self.turn or self.winner is not None:
            return []
        phase = self.phase
        if phase == "play":
            moves = play_moves(self.hands[seat], self.trick)
            if self._may_call_nt():
                moves.append(TRUMP_MOVES["NT"])
            return moves
        if phase == "auction":
            return self._auction_moves(seat)
        if phase == "trump":
            suits = ("S", "H", "D", "C", "NT") if self.options["allow_no_trump"] else "SHDC"
            return [TRUMP_MOVES[s] for s in suits]
        return []

    def _may_call_nt(self) -> bool:
        """First-lead trump with no trump allowed: the declarer may call NT before leading."""
        return (
            not self.egyptian
            and self.trump is None
            and not self.tricks
            and not self.trick
            and self.options["trump_declaration"] == "first_lead"
            and self.options["allow_no_trump"]
        )

    def is_legal(self, seat: int, move: Move) -> bool:
        if seat != self.turn or self.winner is not None:
            return False
        phase = self.phase
        if phase == "play" and move.action == "play":
            return is_legal_play(move, self.hands[seat], self.trick)
        if phase == "auction":
            return self._is_legal_call(seat, move)
        return move in self.legal_moves(seat)

    def _is_legal_call(self, seat: int, move: Move) -> bool:
        """Whether ``move`` is one of :meth:`_auction_moves` (an engine may test it directly)."""
        return move in self._auction_moves(seat)

    def not_your_turn(self, seat: int) -> IllegalMove:
        if self.winner is not None:
            return NotYourTurn("The game is over.", code="game_over")
        if self.phase == "awaiting_deal":
            return NotYourTurn("The next hand has not been dealt yet.", code="awaiting_deal")
        return NotYourTurn(f"It is {seat_ref(self.turn)}'s turn.", params={"turn": self.turn})

    def refusal(self, seat: int, move: Move) -> IllegalMove:
        action = move.action
        phase = self.phase
        if phase == "play":
            if action == "play":
                return self._play_refusal(seat, move)
            if action == "trump" and not self.egyptian:
                if self._may_call_nt():
                    return against(
                        "Lead a card to make its suit trump, or call no trump.",
                        "lead_or_no_trump",
                    )
                return against("Trump is already settled for this hand.", "trump_settled")
            if action in ("bid", "pass", "double"):
                return against("The auction is over; play a card.", "auction_over")
            return malformed("Play a card.")
        if phase == "trump":
            if action != "trump":
                text = f"{seat_ref(seat)} must name the trump suit first."
                if action in KNOWN_ACTIONS:
                    return against(text, "name_trump_first")
                return malformed(text)
            if TRUMP_MOVES.get(str(move.get("suit"))) != move:
                return malformed(self._suit_prompt())
            return against(self._suit_prompt(), "no_trump_not_allowed")
        return self._call_refusal(seat, move)

    def _play_refusal(self, seat: int, move: Move) -> IllegalMove:
        card = move.get("card")
        problem = play_problem(self.hands[seat], self.trick, card)
        if problem == "not_in_hand":
            return against("You do not have that card.", "not_in_hand", card=card)
        if problem == "must_follow":
            led = self.trick[0][1][1]
            return against(f"You must follow {SUIT_NAMES[led]}.", "must_follow", suit=led)
        return malformed("A play names one card and nothing else.")

    def _suit_prompt(self) -> str:
        if self.options["allow_no_trump"]:
            return "Name a trump suit (spades, hearts, diamonds or clubs) or no trump."
        return "Name a trump suit: spades, hearts, diamonds or clubs."

    def apply(self, seat: int, move: Move) -> list[Event]:
        self.check(seat, move)
        action = move.action
        if action == "play":
            return self._play(seat, move.get("card"))
        if action == "trump":
            return self._name_trump(seat, str(move.get("suit")))
        return self._call(seat, move)

    # --- auction hooks ---
    def _auction_moves(self, seat: int) -> list[Move]:
        raise NotImplementedError

    def _call_refusal(self, seat: int, move: Move) -> IllegalMove:
        raise NotImplementedError

    def _call(self, seat: int, move: Move) -> list[Event]:
        raise NotImplementedError

    def _forced_to_bid(self) -> bool:
        return (
            self.options["all_pass"] == "dealer_forced_7"
            and len(self.calls) == 3
            and all(call[1] == "pass" for call in self.calls)
        )

    def _throw_in(self) -> list[Event]:
        events = [
            Event(
                "throw_in",
                "Everybody passed: the hand is thrown in.",
                {"dealer": self.dealer},
                history=True,
            )
        ]
        self.records[-1].finish({"throw_in": True, "points": [0, 0]}, self.score)
        self.deal_no += 1
        if self.options["all_pass"] == "redeal_next_dealer":
            self.dealer = next_seat(self.dealer, 4)
        events.extend(self._start_deal())
        return events

    def _won_auction(self, seat: int, contract: int, strain: str | None) -> list[Event]:
        """The auction is over with ``seat`` as declarer."""
        self.declarer = seat
        self.contract = contract
        self.turn = seat
        team = team_of(seat)
        data: dict[str, Any] = {
            "declarer": seat,
            "team": team,
            "contract": contract,
            "doubled": self.doubled,
        }
        if self.egyptian:
            assert strain is not None
            self.trump = strain
            self.phase = "play"
            data["trump"] = strain
            extra = " doubled" if self.doubled else ""
            text = (
                f"{seat_ref(seat)} declares {bid_words(contract, strain)}{extra}: "
                f"{TEAM_NAMES[team]} need {contract} tricks."
            )
            return [Event("contract", text, data)]
        events = [
            Event(
                "contract",
                f"{seat_ref(seat)} wins the auction at {contract}: "
                f"{TEAM_NAMES[team]} need {contract} tricks.",
                data,
            )
        ]
        if self.options["trump_declaration"] == "first_lead":
            self.phase = "play"
            events.append(
                Event(
                    "trump_pending",
                    f"The suit {seat_ref(seat)} leads first will be trump.",
                    {"declarer": seat},
                )
            )
        else:
            self.phase = "trump"
        return events

    def _name_trump(self, seat: int, suit: str) -> list[Event]:
        self.trump = suit
        self.phase = "play"
        text = (
            "No trump this hand."
            if suit == "NT"
            else f"{seat_ref(seat)} names {SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]} as trump."
        )
        return [Event("trump", text, {"seat": seat, "trump": suit})]

    # --- play ---
    def _play(self, seat: int, card: str) -> list[Event]:
        self.hands[seat].remove(card)
        self.played.add(card)
        trick = self.trick
        trick.append((seat, card))
        events = [
            Event(
                "card_played",
                f"{seat_ref(seat)} plays {display(card)}.",
                {"seat": seat, "card": card},
            )
        ]
        if self.trump is None:
            self.trump = card[1]
            events.append(
                Event(
                    "trump",
                    f"{display(card)} is led: {SUIT_NAMES[card[1]]} "
                    f"{SUIT_SYMBOLS[card[1]]} are trump.",
                    {"seat": seat, "trump": card[1]},
                )
            )
        if len(trick) < 4:
            self.turn = next_seat(seat, 4)
            return events
        winner = trick_winner(trick, self.trump, RANK_VALUE)
        team = team_of(winner)
        self.team_tricks[team] += 1
        record = TrickRecord.of(trick, winner)
        self.tricks.append(record)
        self.records[-1].tricks.append(record)
        self.trick = []
        self.turn = winner
        declaring = team_of(self.declarer)
        defending = other_team(declaring)
        counts = self.team_tricks
        events.append(
            Event(
                "trick_won",
                f"{seat_ref(winner)} wins the trick. {TEAM_NAMES[declaring]} have "
                f"{counts[declaring]} of {self.contract}; {TEAM_NAMES[defending]} have "
                f"{counts[defending]}.",
                {
                    "winner": winner,
                    "team": team,
                    "cards": list(record.cards),
                    "tricks": list(counts),
                    "contract": self.contract,
                    "declaring_team": declaring,
                    "trick_number": len(self.tricks),
                },
            )
        )
        if len(self.tricks) == 13:
            events.extend(self._score_hand())
        return events

    def _score_hand(self) -> list[Event]:
        declaring = team_of(self.declarer)
        tricks = self.team_tricks[declaring]
        if self.egyptian:
            kaboot = bool(self.options["kaboot_scoring"])
            always = False
        else:
            kaboot = self.options["scoring"] == "kaboot"
            always = bool(self.options["defenders_always_score"])
        multiplier = 2 if self.doubled else 1
        mine, theirs, made = hand_points(
            self.contract, tricks, kaboot=kaboot, defenders_always=always, multiplier=multiplier
        )
        points = [0, 0]
        points[declaring] = mine
        points[other_team(declaring)] = theirs
        self.score[0] += points[0]
        self.score[1] += points[1]
        instant = False
        if not self.egyptian and tricks == 13:
            rule = self.options["instant_win"]
            instant = rule == "kaboot_any" or (rule == "kaboot_bid" and self.contract == 13)
        result = {
            "throw_in": False,
            "declarer": self.declarer,
            "team": declaring,
            "contract": self.contract,
            "trump": self.trump,
            "doubled": self.doubled,
            "tricks": list(self.team_tricks),
            "made": made,
            "kaboot": tricks == 13,
            "instant_win": instant,
            "points": points,
        }
        self.records[-1].finish(result, self.score)
        word = "make" if made else "fail"  # a pair: "{s0} & {s2} make"
        events = [
            Event(
                "hand_scored",
                f"{TEAM_NAMES[declaring]} {word} the contract of {self.contract} with {tricks} "
                f"trick{'' if tricks == 1 else 's'}: "
                f"{TEAM_NAMES[0]} {points[0]:+d}, {TEAM_NAMES[1]} {points[1]:+d}. "
                f"Score {self.score[0]} to {self.score[1]}.",
                {**result, "score": list(self.score)},
                history=True,
            )
        ]
        target = self.options["target"]
        if instant:
            self.winner = declaring
        elif self.score[0] != self.score[1] and (
            max(self.score) >= target or self.deal_no + 1 >= self.options["hand_limit"]
        ):
            self.winner = 0 if self.score[0] > self.score[1] else 1
        if self.winner is not None:
            self.phase = "over"
            how = " with a kaboot" if instant else ""
            events.append(
                Event(
                    "game_over",
                    f"{TEAM_NAMES[self.winner]} win the game{how}, "
                    f"{self.score[0]} to {self.score[1]}.",
                    {"winner": self.winner, "score": list(self.score), "instant_win": instant},
                    history=True,
                )
            )
            return events
        self.deal_no += 1
        self.dealer = next_seat(self.dealer, 4)
        events.extend(self._start_deal())
        return events

    # --- what people see ---
    def _call_line(self, call: Call) -> str:
        seat, action, value, strain = call
        if action == "bid":
            return f"{seat_ref(seat)} bids {bid_words(value, strain)}."
        if action == "double":
            return f"{seat_ref(seat)} doubles."
        return f"{seat_ref(seat)} passes."

    def _prompt(self) -> str:
        if self.winner is not None:
            return ""
        phase = self.phase
        who = seat_ref(self.turn)
        if phase == "auction":
            return f"{who} to bid or pass."
        if phase == "trump":
            return f"{who} to name the trump suit."
        if phase == "play":
            if self.trump is None:
                return f"{who} to lead: the suit led becomes trump."
            return f"{who} to {'lead' if not self.trick else 'play'}."
        return "Waiting for the next deal."

    def view(self, seat: int | None) -> TarneebView:
        """The common keys (see :meth:`Game.view`), the auction, and ``played``: every card played
        so far this hand (public; the computer player counts the masters with it)."""
        last = self.tricks[-1] if self.tricks else None
        lines = [self._call_line(call) for call in self.calls]
        if self.declarer >= 0:
            extra = " doubled" if self.doubled else ""
            strain = self.trump if self.egyptian else None
            lines.append(
                f"Contract: {seat_ref(self.declarer)} {bid_words(self.contract, strain)}{extra}."
            )
        if self.trump is not None:
            lines.append(
                "Trump: no trump."
                if self.trump == "NT"
                else f"Trump: {SUIT_NAMES[self.trump]} {SUIT_SYMBOLS[self.trump]}."
            )
        phase = TarneebPhase.OVER if self.winner is not None else TARNEEB_PHASES[self.phase]
        return TarneebView(
            game=self.name,
            players=4,
            dealer=self.dealer,
            phase=phase,
            to_act=self.to_act(),
            prompt=self._prompt(),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            trick=tuple(self.trick),
            last_trick=LastTrick.of(last),
            trump=self.trump,
            winning=winning_so_far(self.trick, self.trump, RANK_VALUE),
            lines=tuple(lines),
            score=tuple(self.score),
            score_label="points",
            target=self.options["target"],
            bids=tuple(CallView(s, a, v if a == "bid" else None, st) for s, a, v, st in self.calls),
            declarer=self.declarer if self.declarer >= 0 else None,
            contract=self.contract or None,
            doubled=self.doubled,
            team_tricks=tuple(self.team_tricks),
            deal_number=self.deal_no,
            played=tuple(sort_hand(self.played, SUIT_ORDER, RANK_VALUE)),
            hand=None
            if seat is None
            else tuple(sort_hand(self.hands[seat], SUIT_ORDER, RANK_VALUE)),
        )

    def hidden_cards(self, seat: int | None) -> set[str]:
        return {card for s, hand in enumerate(self.hands) if s != seat for card in hand}

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome((self.winner, self.winner + 2), tuple(self.score))

    def summary(self) -> dict[str, Any]:
        return {
            "deals": [record.to_json(4) for record in self.records],
            "score": list(self.score),
            "winner": self.winner,
        }

    def move_label(self, move: Move, seat: int | None = None) -> str:
        action = move.action
        if action == "play":
            return f"Play {display(move.get('card'))}"
        if action == "pass":
            return "Pass"
        if action == "double":
            return "Double"
        if action == "trump":
            suit = move.get("suit")
            return (
                "No trump"
                if suit == "NT"
                else f"{SUIT_NAMES[suit].capitalize()} {SUIT_SYMBOLS[suit]}"
            )
        if action == "bid":
            strain = move.get("suit")
            if strain is None:
                return f"Bid {move.get('value')}"
            return f"Bid {move.get('value')} {'NT' if strain == 'NT' else SUIT_SYMBOLS[strain]}"
        return action


def _validate_deal(deal: Deal) -> None:
    if len(deal.hands) != 4 or any(len(hand) != 13 for hand in deal.hands) or deal.stock:
        raise DealError("a Tarneeb deal is four hands of 13 cards and no stock")
    if {card for hand in deal.hands for card in hand} != DECK_SET:
        raise DealError("a Tarneeb deal uses each of the 52 cards once")


COMMON_OPTIONS = (
    Option("target", 41, "Points a team needs to win the game.", choices=(31, 41, 61)),
    Option(
        "hand_limit",
        30,
        "Engine safeguard: after this many deals (throw-ins included) the game ends with the "
        "first hand that leaves the totals unequal; the higher total wins.",
        minimum=10,
        maximum=1000,
    ),
    Option(
        "all_pass",
        "redeal_same_dealer",
        "When all four pass: the same dealer redeals, the next dealer deals, or the last "
        "player must bid.",
        choices=("redeal_same_dealer", "redeal_next_dealer", "dealer_forced_7"),
    ),
)


@dataclass(init=False, eq=False, repr=False)
class Tarneeb(_TarneebBase):
    name = "tarneeb"
    facts = GameFacts(
        presets=three("target", (31, 41, 61), "points"),  # the rules' own three targets
        hand_score=team_points("points"),
        card_points=None,
        card_margin=None,
        search_steps={4: 2.5},
        search_worlds={},
        endgame_solver=True,
    )
    title = "Tarneeb"
    OPTIONS = (
        Option(
            "auction",
            "single_round",
            "single_round: everyone calls once, the dealer last; open: bid until the others "
            "pass (a pass is final).",
            choices=("single_round", "open"),
        ),
        Option(
            "dealer_may_equal",
            True,
            "In the single-round auction the dealer may equal the highest bid to take it.",
        ),
        COMMON_OPTIONS[2],
        Option(
            "trump_declaration",
            "named",
            "named: the declarer names trump; first_lead: their first lead sets it.",
            choices=("named", "first_lead"),
        ),
        Option("allow_no_trump", False, "The declarer may choose no trump."),
        Option(
            "scoring",
            "plain",
            "plain: tricks or minus the bid; kaboot: 13-trick bonuses.",
            choices=("plain", "kaboot"),
        ),
        Option(
            "defenders_always_score",
            False,
            "The defenders score their tricks even when the contract is made.",
        ),
        Option(
            "instant_win",
            "none",
            "kaboot_bid: bidding and taking 13 wins at once; kaboot_any: taking all 13 as "
            "declarers wins at once.",
            choices=("none", "kaboot_bid", "kaboot_any"),
        ),
        COMMON_OPTIONS[0],
        COMMON_OPTIONS[1],
    )
    summary_text = (
        "Four players, partners opposite; play goes counter-clockwise (to the right).\n"
        "Bid 7 to 13 tricks, each bid higher than the last (the dealer, last to speak, may equal); "
        "the winner names trump and leads.\n"
        "Follow suit if you can; otherwise play anything. Highest trump, else highest card of the "
        "suit led, wins.\n"
        "Made: the declaring side scores its tricks. Failed: it loses its bid and the opponents "
        "score their tricks.\n"
        "First side to 41 wins."
    )

    def _open(self) -> bool:
        return bool(self.options["auction"] == "open")

    def _min_bid(self, seat: int) -> int:
        """The lowest bid ``seat`` may make now."""
        if self.high == 0:
            return 7
        if seat == self.dealer and not self._open() and self.options["dealer_may_equal"]:
            return self.high
        return self.high + 1

    def _auction_moves(self, seat: int) -> list[Move]:
        moves = [] if self._forced_to_bid() else [PASS]
        for value in range(self._min_bid(seat), 14):
            moves.append(BID_MOVES[value])
        return moves

    def _is_legal_call(self, seat: int, move: Move) -> bool:
        if move.action == "pass":
            return move == PASS and not self._forced_to_bid()
        value = move.get("value")
        return type(value) is int and BID_MOVES.get(value) == move and value >= self._min_bid(seat)

    def _call_refusal(self, seat: int, move: Move) -> IllegalMove:
        action = move.action
        if action == "pass":
            if move.fields:
                return malformed("A pass has no fields.")
            return against("Everyone else passed, so you must bid at least 7.", "must_bid")
        if action == "bid":
            value = move.get("value")
            if type(value) is not int or not 7 <= value <= 13 or len(move.fields) != 1:
                return malformed("Bid a whole number of tricks from 7 to 13.")
            lowest = self._min_bid(seat)
            if lowest > 13:
                return against(
                    "The highest bid is already 13, so you can only pass.", "bidding_closed"
                )
            if (
                value == self.high
                and not self._open()
                and seat != self.dealer
                and self.options["dealer_may_equal"]
            ):
                return against("Only the dealer may equal the highest bid.", "only_dealer_equals")
            return against(f"Bid at least {lowest}.", "bid_too_low", lowest=lowest)
        if action == "trump":
            return against("Trump is named after the auction.", "trump_after_auction")
        if action == "play":
            return against("The auction is not over yet.", "auction_not_over")
        return malformed("Bid or pass.")

    def _call(self, seat: int, move: Move) -> list[Event]:
        events: list[Event] = []
        if move.action == "bid":
            value = move.get("value")
            equal = value == self.high
            self.high = value
            self.high_bidder = seat
            self.calls.append((seat, "bid", value, None))
            verb = "equals" if equal else "bids"
            events.append(
                Event(
                    "bid",
                    f"{seat_ref(seat)} {verb} {value}.",
                    {"seat": seat, "value": value, "equal": equal},
                )
            )
        else:
            self.passed[seat] = True
            self.calls.append((seat, "pass", 0, None))
            events.append(Event("pass", f"{seat_ref(seat)} passes.", {"seat": seat}))
        if not self._open():
            if len(self.calls) < 4:
                self.turn = next_seat(seat, 4)
                return events
            if self.high_bidder < 0:
                return events + self._throw_in()
            return events + self._won_auction(self.high_bidder, self.high, None)
        # open auction
        passed = self.passed
        if all(passed):
            return events + self._throw_in()
        bidder = self.high_bidder
        if bidder >= 0 and (self.high == 13 or all(passed[s] for s in range(4) if s != bidder)):
            return events + self._won_auction(bidder, self.high, None)
        nxt = next_seat(seat, 4)
        while passed[nxt] or nxt == bidder:
            nxt = next_seat(nxt, 4)
        self.turn = nxt
        return events
