"""The Thunee engine: creation, dealing, the legal moves of every seat, and applying a move.

The rules are layered, one concept per module, each layer a class built on the one below:
:mod:`state` (typed attributes), :mod:`scoring`, :mod:`claims` (Jodhi, Double, Khanaak,
challenges), :mod:`play` (legal cards and tricks), :mod:`auction` (redeal, calls, trump, the
Thunee window), :mod:`reasons` (why a move is refused), :mod:`view`, and this engine on top.

Dealing: a hand is dealt when the previous one ends, inside the ``apply`` that ends it (a seeded
game shuffles it into ``self.deals`` right then; an unseeded one past its deals waits in
``awaiting_deal``). Reads (``to_act``, ``legal_moves``, ``view``, ``summary``) never change the
game. ``waiting_for()`` gives the seat whose turn it is (Jodhi claims and challenges are optional
moves of other seats; in challenge mode every seat may challenge while cards are played).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from games.base import Deal, DealError, Event, IllegalMove, Move, NotYourTurn, deal_rng
from games.facts import GameFacts, team_points, teams_score, three
from games.seats import next_seat, other_team, team_of, team_seats
from games.thunee.auction import auction_table
from games.thunee.deck import (
    DECK_SET,
    SEAT_REFS,
    card_points,
    deal_shuffled,
    packet_sizes,
)
from games.thunee.moves import (
    CHALLENGE,
    DECLINE,
    DEMAND,
    DOUBLE,
    KHANAAK,
    LAST_CARD,
    MURIAL,
    PLAY,
    TRUMP,
)
from games.thunee.options import OPTIONS, SUMMARY_TEXT
from games.thunee.view import View
from games.tricks import HandRecord

NO_MOVES: list[Move] = []

# A table's constants, in the order ``new`` sets them: players, seats, pk1, pk2, hand_len,
# half_tricks, total_tricks, count_target, _challenge, _undercut, _single_step, _auction_table,
# jodhi_close.
_Table = tuple[
    int,
    frozenset[int],
    int,
    int,
    int,
    int,
    int,
    int,
    bool,
    bool,
    bool,
    Mapping[int, list[Move]],
    int,
]


def _table_constants(opts: Mapping[str, Any]) -> _Table:
    """What a table of these (validated) options keeps as attributes (see ThuneeState)."""
    n: int = opts["players"]
    pk1, pk2 = packet_sizes(n, opts["six_player_first_packet"])
    single_step = bool(opts["call_single_step"])
    return (
        n,
        frozenset(range(n)),
        pk1,
        pk2,
        24 // n,
        pk1 + pk2,
        12 if n == 2 else pk1 + pk2,
        opts["two_player_target"] if n == 2 else 105,
        bool(opts["challenge_mode"]),
        bool(opts["undercut_restriction"]),
        single_step,
        auction_table(single_step, bool(opts["blind_thunee"]), bool(opts["blind_royals"])),
        1 if n == 2 or opts["jodhi_window"] == "before_next_lead" else 3,
    )


# A new hand's event and table line by (dealer, hand number, trumpman), built on first use and
# shared by every game (events are read-only): one per hand, and a 2-player game is short.
NEW_DEALS: dict[tuple[int, int, int], tuple[Event, str]] = {}


def hand_card_points(result: Mapping[str, Any], players: int) -> list[float] | None:
    """The hand's card points, only for an ordinary contract (a Thunee, Royals or blind call
    ends or turns the hand, so its card points say nothing about the play)."""
    if result.get("contract") != "normal":
        return None
    return teams_score(result["points"], players)


class Thunee(View):
    """Thunee (Thuni) for 4 (default), 2 or 6 players; see the package docstring."""

    name = "thunee"
    title = "Thunee"
    teams = True
    summary_text = SUMMARY_TEXT
    OPTIONS = OPTIONS
    player_module = "games.players.thunee"
    facts = GameFacts(
        # 6 / 12 / 18 balls: half and one and a half times the standard 12
        presets=three("balls_to_win", (6, 12, 18), "balls"),
        hand_score=team_points("balls"),
        card_points=hand_card_points,
        card_margin=60,
        search_steps={2: 2.0, 4: 2.0, 6: 2.0},
        search_worlds={2: 60, 4: 60, 6: 60},  # ordinary hands play out on the fast path
        endgame_solver=False,
    )

    # Per option set given: the validated options and the table's constants, worked out once
    # (a 2-player game is about 24 moves, so ``new`` weighs). The options are shared by the
    # set's games (``Game.options`` is read-only), never by ``validate_options``'s callers.
    _tables: ClassVar[dict[tuple[tuple[str, type, Any], ...], tuple[dict[str, Any], _Table]]] = {}

    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return dict(cls._table(options)[0])

    @classmethod
    def _table(cls, options: Mapping[str, Any] | None) -> tuple[dict[str, Any], _Table]:
        """The validated options and :func:`_table_constants`, cached per option set."""
        given = options or {}
        try:  # names are unique, so the types and values are never compared
            key = tuple(sorted(zip(given, map(type, given.values()), given.values(), strict=True)))
            table = cls._tables.get(key)
        except TypeError:  # an unhashable value: a bad option, which validation explains
            opts = super().validate_options(options)
            return opts, _table_constants(opts)
        if table is None:
            opts = super().validate_options(options)
            table = (opts, _table_constants(opts))
            if len(cls._tables) < 256:
                cls._tables[key] = table
        return table

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
        game.options, table = cls._table(options)
        (
            n,
            game._seats,
            game.pk1,
            game.pk2,
            game.hand_len,
            game.half_tricks,
            game.total_tricks,
            game.count_target,
            game._challenge,
            game._undercut,
            game._single_step,
            game._auction_table,
            game.jodhi_close,
        ) = table
        game.players = n
        game.seed = seed
        for deal in deals:
            game._validate_deal(deal)
        game.deals = list(deals)
        if first_dealer is None:
            first_dealer = game._draw_first_dealer(seed) if seed is not None else 0
        if type(first_dealer) is not int or not 0 <= first_dealer < n:
            raise DealError(f"first_dealer must be a seat from 0 to {n - 1}")
        game.first_dealer = first_dealer
        game.dealer = first_dealer
        game.balls = [0, 0]
        game.khanaak_called = False
        game.winner_team = None
        game.records = []
        game.deal_no = 0
        game.cur = None
        game._acting = ()
        game._start_hand([])
        return game

    def _draw_first_dealer(self, seed: int) -> int:
        draw = deal_rng(seed, -1).random
        n = self.players
        mode = self.options["first_dealer"]
        if mode == "random":
            return int(draw() * n)
        shuffler = int(draw() * n)
        # Dealing face up from a uniformly shuffled deck, the wanted jacks lie at uniformly
        # random distinct positions (drawn without replacement: draw k picks an index into the
        # 24 - k positions left); the first one deals. The lowest position drawn is the lowest
        # index drawn (an index below every position taken so far is that position itself, and
        # one at or above the lowest taken cannot lower it), so no list of positions is built.
        first = int(draw() * 24)
        for left in (23, 22, 21) if mode == "any_jack" else (23,):
            index = int(draw() * left)
            if index < first:
                first = index
        return (shuffler + 1 + first) % n

    def _validate_deal(self, deal: Deal) -> None:
        n = self.players
        if len(deal.hands) != n:
            raise DealError(f"a {n}-player Thunee deal needs {n} hands")
        for hand in deal.hands:
            if len(hand) != self.hand_len:
                raise DealError(f"each hand of a {n}-player Thunee deal has {self.hand_len} cards")
        if deal.stock:
            raise DealError("a Thunee deal has no stock")
        if {c for hand in deal.hands for c in hand} != DECK_SET:
            raise DealError("a Thunee deal uses the 24 cards J 9 A 10 K Q of each suit")

    def add_deal(self, deal: Deal) -> list[Event]:
        if self.phase != "awaiting_deal":
            raise NotYourTurn("This game is not waiting for a deal.", code="not_awaiting_deal")
        self._validate_deal(deal)
        self.deals.append(deal)
        self._legal = None
        events: list[Event] = []
        self._start_hand(events)
        return events

    def _reset_hand(self) -> None:
        n = self.players
        self.phase = self.status = "awaiting_deal"  # hands: _start_hand deals them
        self.received = 0
        self.trumpman = next_seat(self.dealer, n)
        self.trumper = None
        self.call = 0
        self.high_seat = None
        self.calls = []
        self.atturn = 0
        self.passes = 0
        self.trump = None
        self.trump_card = None
        self.trump_down = False
        self.trump_unseen = False
        self.last_card = False
        self.revealed = None
        self.contract = "normal"
        self.caller = None
        self.set_aside = []
        self.turn = 0
        self.trick = []
        self.tricks_done = 0
        self.winners = []
        self.team_won = [0, 0]
        self.points = [0, 0]
        self.claims = []
        self.jodhi_tot = [0, 0]
        self.claimed = set()
        self.jodhi_team = None
        self.pending = []
        self.declaration = None
        self.declarer = None
        self.illegal = set()
        self.lines = []
        self.last_trick = None
        self._legal = None

    def _start_hand(self, events: list[Event]) -> None:
        """Deal the next hand now: at creation, and inside the ``apply`` that ends a hand (so
        reads never deal). A seeded game shuffles it; an unseeded one past its deals waits."""
        self._reset_hand()
        if self.deal_no >= len(self.deals):
            if self.seed is None:
                self.cur = None
                self.hands = [[] for _ in range(self.players)]
                return
            rng = deal_rng(self.seed, self.deal_no)
            self.deals.append(deal_shuffled(rng, self.dealer, self.players, self.pk1))
        deal = self.deals[self.deal_no]
        self.status = "in_progress"
        self.deal_no += 1
        self.cur = deal
        self.hands = [list(hand[: self.pk1]) for hand in deal.hands]
        self.received = self.pk1
        self.records.append(HandRecord())
        key = (self.dealer, len(self.records), self.trumpman)
        shared = NEW_DEALS.get(key)
        if shared is None:
            dealer, number, t0 = key
            shared = NEW_DEALS[key] = (
                Event(
                    "new_deal",
                    f"{SEAT_REFS[dealer]} deals hand {number}.",
                    {"dealer": dealer, "hand": number, "trumpman": t0},
                ),
                f"{SEAT_REFS[dealer]} deals; {SEAT_REFS[t0]} is trumpman.",
            )
        events.append(shared[0])
        self.lines.append(shared[1])
        first = self.hands[self.trumpman]
        if self.options["trumpman_weak_redeal"] and card_points(first) <= 10:
            self.phase = "redeal"
            return
        self._begin_auction(events)

    def to_act(self) -> tuple[int, ...]:
        self._legal_all()
        return self._acting

    def _legal_all(self) -> Sequence[Sequence[Move]]:
        """Every seat's legal moves now, the single source of truth for ``to_act``,
        ``legal_moves`` and ``is_legal``: worked out after a change (with the seats that have
        one, in ``_acting``) and kept until the next."""
        if self._legal is None:
            self._legal = self._find_legal()
            self._acting = tuple(seat for seat, moves in enumerate(self._legal) if moves)
        return self._legal

    def _find_legal(self) -> list[list[Move]]:
        n = self.players
        res: list[list[Move]] = [NO_MOVES] * n  # the shared empty list: never mutated
        phase = self.phase
        if phase == "play":
            t = self.turn
            challenge = self._challenge
            # Any card may lead; challenge mode accepts any card held.
            cards = self.hands[t] if challenge or not self.trick else self._strict_cards(t)
            moves = [PLAY[card] for card in cards]
            if (
                self.tricks_done == self.total_tricks - 1
                and n != 2
                and self.contract == "normal"
                and self.declaration is None
            ):
                if self._declaration_ok(t, "double") is None:
                    moves.append(DOUBLE)
                if self._declaration_ok(t, "khanaak") is None:
                    moves.append(KHANAAK)
            res[t] = moves
            if self.jodhi_team is not None:
                for s in team_seats(self.jodhi_team, n):
                    res[s] = res[s] + self._jodhi_moves(s)
            if challenge:
                for s in range(n):
                    res[s] = res[s] + [CHALLENGE[o] for o in team_seats(other_team(team_of(s)), n)]
                for index in self.pending:
                    claim = self.claims[index]
                    if claim.cancelled or claim.murial:
                        continue
                    target = claim.seat
                    for s in team_seats(other_team(team_of(target)), n):
                        res[s] = [*res[s], MURIAL[target, claim.suit]]
        elif phase == "auction":
            res[self.atturn] = self._auction_moves(self.atturn)
        elif phase == "window":
            res[self.atturn] = self._window_moves(self.atturn)
        elif phase == "trump":
            tr = self.trumper
            assert tr is not None
            moves = [TRUMP[card] for card in self.hands[tr]]
            if self._last_card_allowed(tr):
                moves.append(LAST_CARD)
            res[tr] = moves
        elif phase == "redeal":
            res[self.trumpman] = [DEMAND, DECLINE]
        return res

    def waiting_for(self) -> tuple[int, ...]:
        """The seat the game waits on; Jodhi claims and challenges are optional for others."""
        acting = self.to_act()
        phase = self.phase
        if phase == "play":
            return (self.turn,) if self.turn in acting else acting
        return acting

    def legal_moves(self, seat: int) -> list[Move]:
        if not self._is_seat(seat):
            return []
        return list(self._legal_all()[seat])

    def _is_seat(self, seat: int) -> bool:
        return type(seat) is int and seat in self._seats

    def is_legal(self, seat: int, move: Move) -> bool:
        """The one legality check (``check`` and so ``apply`` ask it): one of the seat's legal
        moves now."""
        return self._is_seat(seat) and move in self._legal_all()[seat]

    def out_of_turn(self, seat: int, move: Move) -> IllegalMove:
        """A seat that is not to act is told the rule's reason where the contract names one (a
        Jodhi outside its team's window, a call after the calling) and whose turn it is
        otherwise: the explainer decides, as its texts are pinned by the contract's examples."""
        return self.refusal(seat, move)

    def apply(self, seat: int, move: Move) -> list[Event]:
        self.check(seat, move)
        self._legal = None
        events: list[Event] = []
        action = move.action
        # A legal move equals one of the constants of games.thunee.moves, so its fields (sorted by
        # name) are known and read by position.
        if action == "play":
            self._do_play(seat, move.fields[0][1], events)  # type: ignore[arg-type]
        elif action == "pass":
            self._do_pass(seat, events)
        elif action == "call":
            self._do_call(seat, move.fields[0][1], events)  # type: ignore[arg-type]
        elif action == "jodhi":
            self._do_jodhi(seat, move.get("suit"), events)
        elif action == "trump" or action == "last_card":
            self._do_trump(seat, move.get("card"), events)
        elif action == "thunee" or action == "royals":
            self._do_thunee(seat, action, events)
        elif action == "blind":
            self._do_blind(seat, move.fields[0][1], events)  # type: ignore[arg-type]
        elif action == "double" or action == "khanaak":
            self._do_declare(seat, action, events)
        elif action == "demand_redeal" or action == "decline_redeal":
            self._do_redeal(seat, action == "demand_redeal", events)
        elif action == "challenge":
            self._do_challenge(seat, move.get("target"), events)
        elif action == "murial":
            self._do_murial(seat, move.get("target"), move.get("suit"), events)
        return events
