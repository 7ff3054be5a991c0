"""Thunee (Thuni): the South African trick-taking game, for 4 (default), 2 or 6 players.

Contract: ``shared/rules/thunee.md``. Terms: a *hand* is one deal with its tricks and scoring; a
*ball* is one game point. The dealer ``D`` deals counter-clockwise (seat ``D+1`` first) a first
packet (4 cards; 2 or 3 with six players) and, after trump is set, a second packet. ``D+1`` is the
*trumpman*; the *trumper* ``T`` is the trumpman or the highest caller. The trumper's opponents
are the *counting team*: they need 105 (two players: ``two_player_target``) by
``points + last trick ±10 + call + own Jodhi − opponents' Jodhi``. Ranking J 9 A 10 K Q (Royals:
reversed), points 30 20 11 10 3 2 (304 in the deck).

Transcript actions (contract §1.24): ``demand_redeal``, ``decline_redeal``, ``call`` (``value``),
``pass``, ``blind`` (``contract``: ``thunee``/``royals``), ``trump`` (``card``), ``last_card``,
``thunee``, ``royals``, ``play`` (``card``), ``jodhi`` (``suit``), ``double``, ``khanaak``,
``challenge`` (``target``) and ``murial`` (``target``, ``suit``). Automatic steps (dealing, the
reveal, a pass that is a seat's only legal action, annulments, scoring) are never moves.

Replay ``result`` per deal: ``kind`` (normal, thunee, royals, blind_thunee, blind_royals, double,
khanaak, annulled, challenge), ``counting_team``, ``call``, ``points`` and ``jodhi`` per team,
``total`` and ``target`` (normal hands, with or without a declaration), ``balls`` per team, plus
``contract``, ``trumper``, ``trump``, ``caller``, ``game_target`` (the ball target the hand was
judged against) and, where they apply, ``success``, ``partner_catch``, ``declarer``, ``backside``,
``reason`` (annulments: ``weak_hand`` or ``no_trump``), ``challenger``/``accused``/``proven``.

Events (``to=None`` public, else private): ``new_deal``, ``redeal_demanded``/``redeal_declined``,
``call``, ``pass`` (``auto`` when the engine passes for a seat), ``auction_over``, ``blind``,
``trump_set`` (public, no suit) with ``trump_set_private`` (the trumper: card and suit) or
``trump_card_seen`` (last card, when visible to him), ``thunee``/``royals``, ``trump_cancelled``,
``trump_revealed``, ``card_played``, ``trick_won`` (points, trick number, team points), ``jodhi``
(claimant and value), ``double``/``khanaak``, ``target_raised``, ``blind_pickup`` (+ private
``cards_dealt``), ``second_half``, ``challenge``, ``murial``, ``hand_annulled``, ``hand_scored``
(the result; its text gives the counting total against its target), ``balls_awarded``,
``game_over``.

Dealing between hands: the apply that ends a hand records the next deal (a seeded game shuffles
it into ``self.deals`` right then) and announces it with ``new_deal``, but the cards reach the
hands at the first query that needs the new hand (``to_act``, ``legal_moves``, ``check``,
``apply``, ``view``, ``summary``). So ``hidden_cards`` read right after that apply still describes
the finished hand, and the events naming its last cards are not mistaken for leaks (the same cards
are dealt again in the new hand). ``status`` never deals. ``waiting_for()`` gives the seat whose
turn it is (Jodhi claims and challenges are optional moves of other seats).

Rule choices where the contract is silent:
- Auction: a blind call is open to every seat on its turn, so with blind contracts enabled
  (the default) nobody is ever auto-passed in the auction; with them off, a seat of the holding
  team (or a seat facing a standing 104) passes automatically.
- The revealed trump card (normal hand, after the first card) is public: it is no longer a
  hidden card even while it sits in the trumper's hand. After a Thunee/Royals call a face-down
  trump card simply goes back to the trumper's hand (a last-card trump is then seen by him).
- Thunee, Royals and blind contracts follow ``thunee_must_win`` (caller or team) alike; a blind
  caller picks up his set-aside cards after as many tricks as his first packet had cards.
- A blind contract has no trumper (``trumper`` is ``None``); ``call`` still reports the
  standing call. Card points of the tricks played are reported for every kind of hand
  (for information: they do not count in Thunee, Royals, blind or challenge hands).
- After a Khanaak the target is ``balls_to_win + 1``. Corner house (one short of the target in
  force) only restricts Double.
- Two players: the no-trump annulment is checked only when the second half is dealt (the
  counting player held no trump among all twelve cards), per §3.2.8.
- Challenge mode: a false Jodhi claim is accepted and counts 20 (40 in trump) until an opponent
  answers it with Murial before the next card; a Murial against a valid claim costs nothing and
  the claim stands. A revoke or illegal undercut is accepted and recorded in hidden state that no
  view or event ever shows. A challenge hand reports ``total`` and ``target`` as ``None``. Every
  seat may challenge at any time during play, so in challenge mode every seat is in ``to_act``
  while cards are played; the computer player challenges only a revoke it can prove from the
  public tricks (the bot should run computer players only for the seat whose ``turn`` it is).
- Refused moves never change the game; challenge mode never accepts a card out of turn or a card
  not held.

Computer player (``choose_move``): demands a weak-hand redeal, calls the next step (up to 40)
only with a strong first packet and otherwise passes, never calls blind, lays the lowest card of
its longest (then strongest) suit as trump, calls Thunee only holding nothing but top cards,
claims every Jodhi it can, declares Double/Khanaak only with a card that surely wins the last
trick, leads a card that is the highest left in its suit (else its cheapest), wins a trick with
the cheapest winning card, and throws its cheapest card when the partner is winning or it cannot
win. It uses only what its seat may know.

Hidden information (§1.20): a seat sees its own hand, every call, pass, played card, completed
trick, Jodhi claim (claimant and value; the suit only with ``jodhi_reveal_suit``) and declaration.
The face-down trump card is known only to the trumper (and to nobody for a last-card trump unless
``last_card_visible_to_trumper``); the undealt cards and a blind caller's set-aside cards are known
to nobody. ``hidden_cards`` returns exactly those, and no view or event names them.
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
    Option,
    Outcome,
    Status,
    deal_rng,
)
from games.cards import SUIT_NAMES, SUIT_SYMBOLS, display
from games.registry import register
from games.seats import seat_ref as _seat_ref

SEAT_REFS = tuple(_seat_ref(s) for s in range(6))


def seat_ref(seat: int) -> str:
    """``{s2}``: a seat placeholder the bot fills with the player's name."""
    return SEAT_REFS[seat]


RANK_ORDER = "J9ATKQ"  # high to low in a normal hand
SUIT_ORDER = "SHDC"
DECK: tuple[str, ...] = tuple(r + s for s in SUIT_ORDER for r in RANK_ORDER)
DECK_SET = frozenset(DECK)
RANK_POINTS = {"J": 30, "9": 20, "A": 11, "T": 10, "K": 3, "Q": 2}
POINTS: dict[str, int] = {c: RANK_POINTS[c[0]] for c in DECK}
NORMAL_STRENGTH: dict[str, int] = {c: 6 - RANK_ORDER.index(c[0]) for c in DECK}
ROYAL_STRENGTH: dict[str, int] = {c: 1 + RANK_ORDER.index(c[0]) for c in DECK}
SORT_KEY: dict[str, tuple[int, int]] = {
    c: (SUIT_ORDER.index(c[1]), RANK_ORDER.index(c[0])) for c in DECK
}
BLACK_JACKS = frozenset({"JS", "JC"})
ALL_JACKS = frozenset({"JS", "JH", "JD", "JC"})
CALL_AMOUNTS = (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 104)

DISPLAY: dict[str, str] = {c: display(c) for c in DECK}
NO_MOVES: list[Move] = []
PLAY_TEXT = {(seat, c): f"{{s{seat}}} plays {DISPLAY[c]}." for seat in range(6) for c in DECK}
PLAY = {c: Move.of("play", card=c) for c in DECK}
TRUMP = {c: Move.of("trump", card=c) for c in DECK}
CALL = {v: Move.of("call", value=v) for v in CALL_AMOUNTS}
PASS = Move.of("pass")
BLIND_THUNEE = Move.of("blind", contract="thunee")
BLIND_ROYALS = Move.of("blind", contract="royals")
LAST_CARD = Move.of("last_card")
THUNEE = Move.of("thunee")
ROYALS = Move.of("royals")
DEMAND = Move.of("demand_redeal")
DECLINE = Move.of("decline_redeal")
DOUBLE = Move.of("double")
KHANAAK = Move.of("khanaak")
JODHI = {s: Move.of("jodhi", suit=s) for s in SUIT_ORDER}
CHALLENGE = {t: Move.of("challenge", target=t) for t in range(6)}
MURIAL = {(t, s): Move.of("murial", target=t, suit=s) for t in range(6) for s in SUIT_ORDER}
KNOWN_ACTIONS = frozenset(
    {
        "demand_redeal",
        "decline_redeal",
        "call",
        "pass",
        "blind",
        "trump",
        "last_card",
        "thunee",
        "royals",
        "play",
        "jodhi",
        "double",
        "khanaak",
        "challenge",
        "murial",
    }
)
CONTRACT_NAMES = {
    "normal": "normal",
    "thunee": "Thunee",
    "royals": "Royals",
    "blind_thunee": "Blind Thunee",
    "blind_royals": "Blind Royals",
}
PHASE_WORDS = {
    "awaiting_deal": "waiting for the deal",
    "redeal": "weak-hand redeal",
    "auction": "calling",
    "trump": "setting trump",
    "window": "Thunee window",
    "play": "playing",
    "over": "game over",
    "between": "between hands",
}


def _call_moves(high: int, single_step: bool) -> tuple[Move, ...]:
    if high >= 104:
        return ()
    if high == 100:
        return (CALL[104],)
    if single_step:
        return (CALL[high + 10],)
    return tuple(CALL[v] for v in range(high + 10, 101, 10))


CALL_MOVES = {
    (high, single): _call_moves(high, single)
    for high in (0, *CALL_AMOUNTS)
    for single in (False, True)
}


def shuffled_deck(rng: random.Random) -> list[str]:
    """A uniformly shuffled deck: the cards sorted by independent uniform random keys."""
    draw = rng.random
    return sorted(DECK, key=lambda _card: draw())


def card_points(cards: Sequence[str]) -> int:
    return sum(POINTS[c] for c in cards)


def packet_sizes(players: int, six_player_first_packet: int = 2) -> tuple[int, int]:
    """First and second packet sizes per seat."""
    if players == 6:
        return six_player_first_packet, 4 - six_player_first_packet
    return 4, 2


def deal_from_deck(
    deck: Sequence[str], dealer: int, players: int = 4, first_packet: int | None = None
) -> Deal:
    """Deal a shuffled deck (top first) as §1.4 (§3.2, §3.3): packets from ``dealer + 1``."""
    pk1, pk2 = packet_sizes(players, first_packet or 2)
    deck = list(deck)
    second = players * pk1
    third = second + players * pk2
    hands: list[tuple[str, ...]] = [()] * players
    for i in range(players):
        cards = deck[i * pk1 : (i + 1) * pk1] + deck[second + i * pk2 : second + (i + 1) * pk2]
        if players == 2:
            cards += deck[third + i * 6 : third + (i + 1) * 6]
        hands[(dealer + 1 + i) % players] = tuple(cards)
    return Deal(tuple(hands), ())


def first_dealer_by_jacks(
    deck: Sequence[str], shuffler: int, players: int, any_jack: bool = False
) -> int:
    """§1.3: deal face up from the shuffler's right until a black jack (or any jack) appears."""
    wanted = ALL_JACKS if any_jack else BLACK_JACKS
    seat = shuffler
    for card in deck:
        seat = (seat + 1) % players
        if card in wanted:
            return seat
    return shuffler  # unreachable with a full deck


@register
class Thunee(Game):
    name = "thunee"
    title = "Thunee"
    teams = True
    summary_text = (
        "Two teams of two (or 1 v 1, 3 v 3). 24 cards: J 9 A 10 K Q, worth 30 20 11 10 3 2.\n"
        "The trumper lays a trump card face down after calling; his opponents must count 105 "
        "points (plus ±10 for the last trick, plus any call, plus or minus Jodhi).\n"
        "Follow suit; you may not undercut a trump unless you hold only trumps.\n"
        "Thunee/Royals: win every trick alone for 4 balls (Blind: 8). Double and Khanaak on the "
        "last trick.\n"
        "First team to 12 balls wins (13 once a Khanaak has been called)."
    )
    OPTIONS = (
        Option("players", 4, "Number of players.", choices=(4, 2, 6)),
        Option(
            "last_trick",
            "transfer",
            "Last trick: ±10 transfer or +10 bonus.",
            choices=("transfer", "bonus"),
        ),
        Option("balls_to_win", 12, "Balls needed to win the game.", minimum=1, maximum=100),
        Option("khanaak_raises_target", True, "A Khanaak raises the target by one ball."),
        Option(
            "two_to_clear",
            "off",
            "The winner must also lead by two balls.",
            choices=("off", "always", "after_khanaak"),
        ),
        Option("call_single_step", False, "Calls go up one step (10) at a time."),
        Option(
            "last_card_trump",
            "four_suits",
            "When the trumper may choose 'last card'.",
            choices=("four_suits", "always", "never"),
        ),
        Option("last_card_visible_to_trumper", False, "The trumper may see a last-card trump."),
        Option("trumpman_weak_redeal", True, "The trumpman may redeal a first packet worth ≤ 10."),
        Option("no_trump_annul", True, "Annul a hand when the counting side holds no trump."),
        Option("undercut_restriction", True, "No undercutting unless holding only trumps."),
        Option("royals", True, "Royals (reversed ranking) may be called."),
        Option("blind_thunee", True, "Blind Thunee may be called in the auction."),
        Option("blind_royals", True, "Blind Royals may be called in the auction."),
        Option("blind_balls", 8, "Balls for a blind contract.", minimum=1, maximum=100),
        Option(
            "thunee_caller",
            "anyone",
            "Who may call Thunee or Royals.",
            choices=("anyone", "trumper_only"),
        ),
        Option(
            "thunee_must_win",
            "caller",
            "Who must win every trick in a Thunee.",
            choices=("caller", "team"),
        ),
        Option(
            "partner_catch_extra",
            4,
            "Extra balls when a partner catches a Thunee.",
            minimum=0,
            maximum=100,
        ),
        Option("jodhi", True, "Jodhi (K+Q) claims are used."),
        Option(
            "jodhi_timing",
            "team_first_or_third",
            "Which tricks open a Jodhi window.",
            choices=("team_first_or_third", "hand_tricks_1_and_3", "any_won_trick"),
        ),
        Option(
            "jodhi_window",
            "before_third_card_of_next_trick",
            "When a Jodhi window closes.",
            choices=("before_third_card_of_next_trick", "before_next_lead"),
        ),
        Option(
            "jodhi_cards",
            "in_hand",
            "Jodhi cards must be in hand, or merely dealt.",
            choices=("in_hand", "dealt"),
        ),
        Option("jodhi_reveal_suit", False, "A Jodhi claim announces its suit."),
        Option("double", True, "Double may be declared on the last trick."),
        Option(
            "double_winner",
            "declarer",
            "Who must win the last trick for a Double.",
            choices=("declarer", "team"),
        ),
        Option(
            "corner_house_scope",
            "own_team",
            "Which team's corner house forbids Double.",
            choices=("own_team", "either_team", "off"),
        ),
        Option("khanaak", True, "Khanaak may be declared on the last trick."),
        Option(
            "khanaak_winner",
            "team",
            "Who must win the last trick for a Khanaak.",
            choices=("team", "declarer"),
        ),
        Option("khanaak_requires_lost_trick", False, "Khanaak needs a lost trick first."),
        Option(
            "khanaak_formula",
            "strict",
            "Khanaak test: strict or simple.",
            choices=("strict", "simple"),
        ),
        Option("backside_requires_call", True, "Backside Double/Khanaak needs a call."),
        Option(
            "dealer_rotation",
            "stay_while_behind",
            "When the deal passes on.",
            choices=("stay_while_behind", "every_hand"),
        ),
        Option(
            "first_dealer",
            "black_jack",
            "How the first dealer is found.",
            choices=("black_jack", "any_jack", "random"),
        ),
        Option("challenge_mode", False, "Accept revokes; an opponent's challenge settles them."),
        Option(
            "two_player_target", 125, "Counting target in the two-player game.", choices=(125, 105)
        ),
        Option("six_player_first_packet", 2, "First packet size with six players.", choices=(2, 3)),
    )

    # --- constants per table ---
    seed: int | None
    pk1: int
    pk2: int
    hand_len: int
    half_tricks: int
    total_tricks: int
    count_target: int
    jodhi_close: int
    # --- game state ---
    balls: list[int]
    khanaak_called: bool
    dealer: int
    winner_team: int | None
    records: list[dict[str, Any]]
    deal_no: int
    phase: str
    cur: Deal | None
    hands: list[list[str]]
    received: int
    trumpman: int
    trumper: int | None
    call: int
    high_seat: int | None
    calls: list[tuple[int, int]]
    atturn: int
    passes: int
    trump: str | None
    trump_card: str | None
    trump_down: bool
    trump_unseen: bool
    last_card: bool
    revealed: str | None
    contract: str
    caller: int | None
    set_aside: list[str]
    turn: int
    trick: list[tuple[int, str]]
    tricks_done: int
    winners: list[int]
    team_won: list[int]
    points: list[int]
    claims: list[dict[str, Any]]
    jodhi_tot: list[int]
    claimed: set[tuple[int, str]]
    jodhi_team: int | None
    pending: list[int]
    declaration: str | None
    declarer: int | None
    illegal: set[int]
    lines: list[str]
    last_trick: dict[str, Any] | None
    _legal: list[list[Move]] | None
    _queued: list[Event]
    _acting: tuple[int, ...] | None
    _challenge: bool
    _undercut: bool
    _single_step: bool
    _blind_moves: tuple[Move, ...]

    # ------------------------------------------------------------------ creation
    _option_cache: ClassVar[dict[tuple[tuple[str, str, Any], ...], dict[str, Any]]] = {}

    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        try:
            key = tuple(sorted((k, type(v).__name__, v) for k, v in (options or {}).items()))
            hash(key)
        except TypeError:
            return super().validate_options(options)
        cached = cls._option_cache.get(key)
        if cached is None:
            cached = super().validate_options(options)
            if len(cls._option_cache) < 256:
                cls._option_cache[key] = cached
        return dict(cached)

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
        opts = game.options
        n = opts["players"]
        game.players = n
        game.seed = seed
        game.pk1, game.pk2 = packet_sizes(n, opts["six_player_first_packet"])
        game.hand_len = 24 // n
        game.half_tricks = game.pk1 + game.pk2
        game.total_tricks = 12 if n == 2 else game.half_tricks
        game.count_target = opts["two_player_target"] if n == 2 else 105
        game._challenge = bool(opts["challenge_mode"])
        game._undercut = bool(opts["undercut_restriction"])
        game._single_step = bool(opts["call_single_step"])
        game._blind_moves = tuple(
            move
            for move, on in (
                (BLIND_THUNEE, opts["blind_thunee"]),
                (BLIND_ROYALS, opts["blind_royals"]),
            )
            if on
        )
        game.jodhi_close = 1 if n == 2 or opts["jodhi_window"] == "before_next_lead" else 3
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
        game._queued = []
        game._acting = None
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
        # random distinct positions (drawn here without replacement); the first one deals.
        positions = list(range(24))
        first = 24
        for _ in range(4 if mode == "any_jack" else 2):
            first = min(first, positions.pop(int(draw() * len(positions))))
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
        self._materialize()
        if self.phase != "awaiting_deal":
            raise IllegalMove("This game is not waiting for a deal.")
        self._validate_deal(deal)
        self.deals.append(deal)
        self._legal = None
        events: list[Event] = []
        self._start_hand(events)
        return events

    def _schedule_next_hand(self, events: list[Event]) -> None:
        """End of a hand: record the next deal and announce it; the cards are dealt lazily.

        The apply that ends a hand must not put new cards into hands: its events name the last
        cards of the finished hand, and ``hidden_cards`` right after that apply still describes
        the finished hand. The first query that needs the new hand (``to_act``, ``legal_moves``,
        ``check``, ``apply``, ``view``, ``summary``) deals it; nothing observable differs.
        """
        if self.deal_no >= len(self.deals) and self.seed is not None:
            deck = shuffled_deck(deal_rng(self.seed, self.deal_no))
            self.deals.append(deal_from_deck(deck, self.dealer, self.players, self.pk1))
        self.phase = "between"
        self.jodhi_team = None
        self.pending = []
        self._legal = None
        if self.deal_no < len(self.deals):
            hand = len(self.records) + 1
            events.append(
                Event(
                    "new_deal",
                    f"{seat_ref(self.dealer)} deals hand {hand}.",
                    {
                        "dealer": self.dealer,
                        "hand": hand,
                        "trumpman": (self.dealer + 1) % self.players,
                    },
                )
            )

    def _materialize(self) -> None:
        if self.phase == "between":
            self._start_hand(self._queued, announce=False)
            self._legal = None

    def clone(self) -> Self:
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        d["balls"] = self.balls[:]
        d["deals"] = self.deals[:]
        records = self.records[:]
        if records:
            last = dict(records[-1])
            last["tricks"] = last["tricks"][:]
            records[-1] = last
        d["records"] = records
        d["hands"] = [h[:] for h in self.hands]
        d["calls"] = self.calls[:]
        d["set_aside"] = self.set_aside[:]
        d["trick"] = self.trick[:]
        d["winners"] = self.winners[:]
        d["team_won"] = self.team_won[:]
        d["points"] = self.points[:]
        d["claims"] = [dict(c) for c in self.claims]
        d["jodhi_tot"] = self.jodhi_tot[:]
        d["claimed"] = set(self.claimed)
        d["pending"] = self.pending[:]
        d["illegal"] = set(self.illegal)
        d["lines"] = self.lines[:]
        d["_queued"] = self._queued[:]
        d["options"] = dict(self.options)
        new.__dict__.update(d)
        return new

    # ------------------------------------------------------------------ hand set-up
    def _reset_hand(self) -> None:
        n = self.players
        self.phase = "awaiting_deal"
        self.hands = [[] for _ in range(n)]
        self.received = 0
        self.trumpman = (self.dealer + 1) % n
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

    def _start_hand(self, events: list[Event], announce: bool = True) -> None:
        self._reset_hand()
        if self.deal_no >= len(self.deals):
            if self.seed is None:
                self.cur = None
                return
            deck = shuffled_deck(deal_rng(self.seed, self.deal_no))
            self.deals.append(deal_from_deck(deck, self.dealer, self.players, self.pk1))
        deal = self.deals[self.deal_no]
        self.deal_no += 1
        self.cur = deal
        pk1 = self.pk1
        self.hands = [list(h[:pk1]) for h in deal.hands]
        self.received = pk1
        self.records.append({"tricks": [], "result": None, "score_after": None})
        dealer = self.dealer
        if announce:
            events.append(
                Event(
                    "new_deal",
                    f"{seat_ref(dealer)} deals hand {len(self.records)}.",
                    {"dealer": dealer, "hand": len(self.records), "trumpman": self.trumpman},
                )
            )
        self.lines.append(f"{seat_ref(dealer)} deals; {seat_ref(self.trumpman)} is trumpman.")
        t0 = self.trumpman
        if self.options["trumpman_weak_redeal"] and card_points(self.hands[t0]) <= 10:
            self.phase = "redeal"
            return
        self._begin_auction(events)

    # ------------------------------------------------------------------ auction
    def _begin_auction(self, events: list[Event]) -> None:
        self.phase = "auction"
        self.atturn = (self.dealer + 2) % self.players
        self.passes = 0
        self._auction_auto(events)

    def _holding_team(self) -> int:
        return (self.high_seat if self.high_seat is not None else self.trumpman) % 2

    def _auction_moves(self, seat: int) -> list[Move]:
        if seat % 2 != self._holding_team():
            return [PASS, *CALL_MOVES[self.call, self._single_step], *self._blind_moves]
        return [PASS, *self._blind_moves]

    def _auction_auto(self, events: list[Event]) -> None:
        while self.phase == "auction" and len(self._auction_moves(self.atturn)) == 1:
            seat = self.atturn
            events.append(Event("pass", f"{seat_ref(seat)} passes.", {"seat": seat, "auto": True}))
            self.passes += 1
            self._auction_next(events)

    def _auction_next(self, events: list[Event]) -> None:
        n = self.players
        if (self.high_seat is not None and self.passes >= n - 1) or self.passes >= n:
            self._end_auction(events)
            return
        self.atturn = (self.atturn + 1) % n

    def _end_auction(self, events: list[Event]) -> None:
        t = self.high_seat if self.high_seat is not None else self.trumpman
        self.trumper = t
        self.phase = "trump"
        if self.high_seat is None:
            text = f"No call: {seat_ref(t)} sets trump."
        else:
            text = f"{seat_ref(t)} wins the calling at {self.call} and sets trump."
        events.append(Event("auction_over", text, {"trumper": t, "call": self.call}))
        self.lines.append(text)

    # ------------------------------------------------------------------ trump, second packet
    def _last_card_allowed(self, seat: int) -> bool:
        mode = self.options["last_card_trump"]
        if mode == "never":
            return False
        if mode == "always":
            return True
        first = self.hands[seat]
        return len({c[1] for c in first}) == len(first)

    def _deal_second(self, events: list[Event], blind_caller: int | None = None) -> None:
        assert self.cur is not None
        lo, hi = self.pk1, self.pk1 + self.pk2
        for s in range(self.players):
            cards = list(self.cur.hands[s][lo:hi])
            if s == blind_caller:
                self.set_aside = cards
                continue
            if self.last_card and s == self.trumper:
                cards = cards[:-1]
            self.hands[s].extend(cards)
        self.received = hi
        if self.last_card and not self.trump_unseen and self.trumper is not None:
            assert self.trump_card is not None
            events.append(
                Event(
                    "trump_card_seen",
                    f"Your last card, {display(self.trump_card)}, is the trump card.",
                    {"card": self.trump_card},
                    frozenset({self.trumper}),
                )
            )

    def _begin_window(self, events: list[Event]) -> None:
        assert self.trumper is not None
        self.phase = "window"
        self.atturn = self.trumper
        self.passes = 0
        self._window_auto(events)

    def _six_of_a_suit(self, seat: int) -> bool:
        cards = self.hands[seat]
        if seat == self.trumper and self.trump_down and self.trump_card is not None:
            cards = [*cards, self.trump_card]
        return len(cards) == 6 and len({c[1] for c in cards}) == 1

    def _window_moves(self, seat: int) -> list[Move]:
        moves = [PASS]
        if (
            self.options["thunee_caller"] == "anyone" or seat == self.trumper
        ) and not self._six_of_a_suit(seat):
            moves.append(THUNEE)
            if self.options["royals"]:
                moves.append(ROYALS)
        return moves

    def _window_auto(self, events: list[Event]) -> None:
        while self.phase == "window" and len(self._window_moves(self.atturn)) == 1:
            seat = self.atturn
            events.append(Event("pass", f"{seat_ref(seat)} passes.", {"seat": seat, "auto": True}))
            self._window_pass(events)

    def _window_pass(self, events: list[Event]) -> None:
        self.passes += 1
        if self.passes >= self.players:
            self._end_window(events)
        else:
            self.atturn = (self.atturn + 1) % self.players

    def _end_window(self, events: list[Event]) -> None:
        assert self.trumper is not None
        counting = (self.trumper + 1) % 2
        if self.players != 2 and self.options["no_trump_annul"]:
            trump = self.trump
            if not any(
                c[1] == trump for s in range(counting, self.players, 2) for c in self.hands[s]
            ):
                self._annul("no_trump", events, counting)
                return
        self.phase = "play"
        self.turn = (self.trumper + 1) % self.players

    # ------------------------------------------------------------------ play
    def _strength(self) -> dict[str, int]:
        return ROYAL_STRENGTH if self.contract.endswith("royals") else NORMAL_STRENGTH

    def _strict_cards(self, seat: int) -> list[str]:
        """The cards the rules allow ``seat`` to play now (ignoring challenge mode)."""
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            return hand
        led = trick[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:
            return follow
        trump = self.trump
        if trump is None or led == trump or not self._undercut:
            return hand
        strength = self._strength()
        best = 0
        for _, c in trick:
            if c[1] == trump and strength[c] > best:
                best = strength[c]
        if not best:
            return hand
        allowed = [c for c in hand if c[1] != trump or strength[c] > best]
        if len(allowed) == len(hand) or all(c[1] == trump for c in hand):
            return hand
        return allowed

    def _trick_winner(self, trick: Sequence[tuple[int, str]]) -> int:
        strength = self._strength()
        trump = self.trump
        best_seat, best_card = trick[0]
        for seat, card in trick[1:]:
            suit = card[1]
            bsuit = best_card[1]
            if suit == bsuit:
                if strength[card] > strength[best_card]:
                    best_seat, best_card = seat, card
            elif suit == trump and bsuit != trump:
                best_seat, best_card = seat, card
        return best_seat

    def _jodhi_cards(self, seat: int) -> Sequence[str]:
        if self.options["jodhi_cards"] == "dealt" and self.cur is not None:
            return self.cur.hands[seat][: self.received]
        return self.hands[seat]

    def _jodhi_value(self, seat: int, suit: str) -> tuple[int, bool]:
        cards = self._jodhi_cards(seat)
        valid = "K" + suit in cards and "Q" + suit in cards
        value = 40 if suit == self.trump else 20
        if valid and "J" + suit in cards:
            value += 10
        return value, valid

    def _jodhi_moves(self, seat: int) -> list[Move]:
        moves = []
        challenge = self.options["challenge_mode"]
        cards = self._jodhi_cards(seat)
        for suit in SUIT_ORDER:
            if (seat, suit) in self.claimed:
                continue
            if challenge or ("K" + suit in cards and "Q" + suit in cards):
                moves.append(JODHI[suit])
        return moves

    def _target(self) -> int:
        bonus = 1 if self.khanaak_called and self.options["khanaak_raises_target"] else 0
        return int(self.options["balls_to_win"]) + bonus

    def _corner_blocks_double(self, team: int) -> bool:
        scope = self.options["corner_house_scope"]
        corner = self._target() - 1
        if scope == "own_team":
            return self.balls[team] == corner
        if scope == "either_team":
            return corner in self.balls
        return False

    def _declaration_ok(self, seat: int, kind: str) -> str | None:
        """None if ``seat`` may declare ``kind`` now, else the reason."""
        word = "Double" if kind == "double" else "Khanaak"
        if self.players == 2:
            return f"{word} is not used in the two-player game."
        if not self.options[kind]:
            return f"{word} is not played at this table."
        if self.phase != "play" or self.contract != "normal":
            return f"{word} may only be declared in the last trick of a normal hand."
        if self.tricks_done != self.total_tricks - 1 or seat != self.turn:
            return f"Declare {word} on your own turn in the last trick, before you play."
        if self.declaration is not None:
            return "Only one Double or Khanaak may be declared in a hand."
        team = seat % 2
        if kind == "double":
            if any(w % 2 != team for w in self.winners):
                return "Only a team that won every trick so far may Double."
            if self._corner_blocks_double(team):
                if (
                    self.options["corner_house_scope"] == "either_team"
                    and self.balls[team] != self._target() - 1
                ):
                    return "A team is at corner house, so nobody may Double."
                return "Your team is at corner house and may not Double."
            return None
        if not any(c["seat"] % 2 == team and not c["cancelled"] for c in self.claims):
            return "Khanaak needs a Jodhi claimed by your team in this hand."
        if self.options["khanaak_requires_lost_trick"] and all(w % 2 == team for w in self.winners):
            return "Khanaak needs your team to have lost one of the earlier tricks."
        return None

    def _legal_all(self) -> list[list[Move]]:
        if self._legal is not None:
            return self._legal
        if self.phase == "between":
            self._materialize()
        n = self.players
        res: list[list[Move]] = [NO_MOVES] * n  # shared empty list: never mutated
        phase = self.phase
        if phase == "play":
            t = self.turn
            challenge = self._challenge
            moves = [PLAY[c] for c in (self.hands[t] if challenge else self._strict_cards(t))]
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
            self._legal = res
            self._acting = (t,) if moves else ()
            if self.jodhi_team is None and not challenge:
                return res
            if self.jodhi_team is not None:
                for s in range(self.jodhi_team, n, 2):
                    claims = self._jodhi_moves(s)
                    if claims:
                        res[s] = res[s] + claims
            if challenge:
                for s in range(n):
                    res[s] = res[s] + [CHALLENGE[o] for o in range((s + 1) % 2, n, 2)]
                for index in self.pending:
                    claim = self.claims[index]
                    if claim["cancelled"] or claim["murial"]:
                        continue
                    target = claim["seat"]
                    for s in range((target + 1) % 2, n, 2):
                        res[s] = [*res[s], MURIAL[target, claim["suit"]]]
        elif phase == "auction":
            res[self.atturn] = self._auction_moves(self.atturn)
            self._legal = res
            self._acting = (self.atturn,)
            return res
        elif phase == "window":
            res[self.atturn] = self._window_moves(self.atturn)
        elif phase == "trump":
            tr = self.trumper
            assert tr is not None
            moves = [TRUMP[c] for c in self.hands[tr]]
            if self._last_card_allowed(tr):
                moves.append(LAST_CARD)
            res[tr] = moves
        elif phase == "redeal":
            res[self.trumpman] = [DEMAND, DECLINE]
        self._legal = res
        self._acting = None
        return res

    # ------------------------------------------------------------------ interface
    @property
    def status(self) -> Status:
        phase = self.phase
        if phase == "over":
            return "finished"
        if phase == "awaiting_deal" or (phase == "between" and self.deal_no >= len(self.deals)):
            return "awaiting_deal"
        return "in_progress"

    def to_act(self) -> tuple[int, ...]:
        if self._legal is None:
            self._legal_all()
        acting = self._acting
        if acting is None:
            legal = self._legal_all()
            acting = self._acting = tuple(s for s in range(self.players) if legal[s])
        return acting

    def waiting_for(self) -> tuple[int, ...]:
        """The seat the game waits on; Jodhi claims and challenges are optional for others."""
        acting = self.to_act()
        phase = self.phase
        if phase == "play":
            return (self.turn,) if self.turn in acting else acting
        return acting

    def legal_moves(self, seat: int) -> list[Move]:
        if type(seat) is not int or not 0 <= seat < self.players:
            return []
        legal = self._legal if self._legal is not None else self._legal_all()
        return list(legal[seat])

    def check(self, seat: int, move: Move) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalMove("There is no such seat at this table.")
        legal = (self._legal if self._legal is not None else self._legal_all())[seat]
        for candidate in legal:
            if candidate is move:
                return
        if move in legal:
            return
        raise IllegalMove(self._why(seat, move))

    def apply(self, seat: int, move: Move) -> list[Event]:
        self.check(seat, move)
        self._legal = None
        events: list[Event] = self._queued
        self._queued = []
        action = move.action
        if action == "play":
            self._do_play(seat, move.get("card"), events)
        elif action == "pass":
            self._do_pass(seat, events)
        elif action == "call":
            self._do_call(seat, move.get("value"), events)
        elif action == "jodhi":
            self._do_jodhi(seat, move.get("suit"), events)
        elif action == "trump" or action == "last_card":
            self._do_trump(seat, move.get("card"), events)
        elif action == "thunee" or action == "royals":
            self._do_thunee(seat, action, events)
        elif action == "blind":
            self._do_blind(seat, move.get("contract"), events)
        elif action == "double" or action == "khanaak":
            self._do_declare(seat, action, events)
        elif action == "demand_redeal" or action == "decline_redeal":
            self._do_redeal(seat, action == "demand_redeal", events)
        elif action == "challenge":
            self._do_challenge(seat, move.get("target"), events)
        elif action == "murial":
            self._do_murial(seat, move.get("target"), move.get("suit"), events)
        self._legal = None
        return events

    # ------------------------------------------------------------------ refusal reasons
    def _why(self, seat: int, move: Move) -> str:
        phase = self.phase
        if phase == "over":
            return "The game is over."
        if phase == "awaiting_deal":
            return "The next hand has not been dealt yet."
        action = move.action
        if action not in KNOWN_ACTIONS:
            return "That is not a Thunee move."
        reason = getattr(self, "_why_" + action)(seat, move)
        return str(reason or "That move is not allowed now.")

    def _not_your_turn(self, seat: int, whose: int, what: str) -> str | None:
        if seat != whose:
            return f"It is {seat_ref(whose)}'s turn to {what}."
        return None

    def _why_play(self, seat: int, move: Move) -> str | None:
        if self.phase != "play":
            return "Cards are played once the calling and trump are settled."
        card = move.get("card")
        if turn := self._not_your_turn(seat, self.turn, "play"):
            return turn
        if card not in self.hands[seat]:
            if card in self.set_aside and seat == self.caller:
                return "You have not picked up that card yet."
            return "You don't hold that card."
        if self.trick:
            led = self.trick[0][1][1]
            if card[1] != led and any(c[1] == led for c in self.hands[seat]):
                return f"You must follow {SUIT_NAMES[led]}."
            return "You may not trump lower than the trump already in this trick."
        return None

    def _why_pass(self, seat: int, move: Move) -> str | None:
        if self.phase == "auction":
            return self._not_your_turn(seat, self.atturn, "call")
        if self.phase == "window":
            return self._not_your_turn(seat, self.atturn, "call or pass")
        return "There is nothing to pass on now."

    def _why_call(self, seat: int, move: Move) -> str | None:
        if self.phase == "redeal":
            return "The trumpman must first decide about a redeal."
        if self.phase != "auction":
            return "The calling is over."
        if turn := self._not_your_turn(seat, self.atturn, "call"):
            return turn
        value = move.get("value")
        if type(value) is not int or value not in CALL:
            return "A call is 10, 20, … up to 100, or 104 over a call of 100."
        if seat % 2 == self._holding_team():
            if self.high_seat is None:
                return "Only the dealer's team may open the calling."
            if self.high_seat == seat:
                return "You already hold the highest call."
            return "Nobody may raise their own partner's call."
        if value <= self.call:
            return f"Your call must be higher than {self.call}."
        if value == 104:
            return "104 may only be called over a call of 100."
        if self.call == 100:
            return "Over 100 the only call is 104."
        if self.options["call_single_step"]:
            return f"Calls go up one step at a time: the next call is {self.call + 10}."
        return None

    def _why_blind(self, seat: int, move: Move) -> str | None:
        if self.phase != "auction":
            return "A blind call can only be made during the calling."
        if turn := self._not_your_turn(seat, self.atturn, "call"):
            return turn
        contract = move.get("contract")
        if contract not in ("thunee", "royals"):
            return "A blind call is either thunee or royals."
        word = "Blind Thunee" if contract == "thunee" else "Blind Royals"
        if not self.options["blind_" + contract]:
            return f"{word} is not played at this table."
        return None

    def _why_trump(self, seat: int, move: Move) -> str | None:
        if self.phase in ("redeal", "auction"):
            return "Trump is set after the calling."
        if self.phase != "trump":
            return "Trump has already been set."
        assert self.trumper is not None
        if seat != self.trumper:
            return f"Only {seat_ref(self.trumper)} sets trump."
        if move.action == "last_card":
            if self.options["last_card_trump"] == "never":
                return "Last card is not allowed at this table."
            return "Last card needs your first cards to be all of different suits."
        return "Choose one of your first-packet cards as the trump card."

    _why_last_card = _why_trump

    def _why_thunee(self, seat: int, move: Move) -> str | None:
        word = "Thunee" if move.action == "thunee" else "Royals"
        if move.action == "royals" and not self.options["royals"]:
            return "Royals is not played at this table."
        if self.phase != "window":
            return f"{word} is called after the deal, before the first card is led."
        if turn := self._not_your_turn(seat, self.atturn, "call or pass"):
            return turn
        if self.options["thunee_caller"] != "anyone" and seat != self.trumper:
            return f"Only the trumper may call {word} at this table."
        if self._six_of_a_suit(seat):
            return f"You hold six cards of one suit, so you may not call {word}."
        return None

    _why_royals = _why_thunee

    def _why_jodhi(self, seat: int, move: Move) -> str | None:
        suit = move.get("suit")
        if suit not in JODHI:
            return "Name a suit for Jodhi: S, H, D or C."
        if not self.options["jodhi"]:
            return "Jodhi is not played at this table."
        if self.phase != "play":
            return "Jodhi may only be claimed while the cards are played."
        if self.contract != "normal":
            return "Jodhi is not used in Thunee, Royals or blind hands."
        if self.jodhi_team is None or seat % 2 != self.jodhi_team:
            timing = self.options["jodhi_timing"]
            if timing == "team_first_or_third":
                return "Your team may claim Jodhi only right after its first or third trick."
            if timing == "hand_tricks_1_and_3":
                return "Your team may claim Jodhi only right after winning trick 1 or 3."
            return "Your team may claim Jodhi only right after winning a trick."
        if (seat, suit) in self.claimed:
            return "You have already claimed Jodhi in that suit."
        if self.options["jodhi_cards"] == "dealt":
            return "Jodhi needs the king and queen of that suit dealt to you."
        return "Jodhi needs the king and queen of that suit in your hand."

    def _why_double(self, seat: int, move: Move) -> str | None:
        return self._declaration_ok(seat, move.action)

    _why_khanaak = _why_double

    def _why_demand_redeal(self, seat: int, move: Move) -> str | None:
        if self.phase != "redeal":
            return (
                "A redeal may only be demanded before the calling, by a trumpman whose "
                "first packet is worth 10 points or less."
            )
        if seat != self.trumpman:
            return f"Only the trumpman, {seat_ref(self.trumpman)}, decides about a redeal."
        return None

    _why_decline_redeal = _why_demand_redeal

    def _why_challenge(self, seat: int, move: Move) -> str | None:
        if not self.options["challenge_mode"]:
            return "Challenges are only allowed in challenge mode."
        if self.phase != "play":
            return "A challenge can only be made while the cards are played."
        target = move.get("target")
        if type(target) is not int or not 0 <= target < self.players:
            return "Name the seat you challenge."
        if target % 2 == seat % 2:
            return "You may only challenge an opponent."
        return None

    def _why_murial(self, seat: int, move: Move) -> str | None:
        if not self.options["challenge_mode"]:
            return "Murial is only used in challenge mode."
        target = move.get("target")
        suit = move.get("suit")
        if type(target) is not int or not 0 <= target < self.players:
            return "Name the seat whose Jodhi you answer."
        if target % 2 == seat % 2:
            return "You may only answer an opponent's Jodhi."
        for index in self.pending:
            claim = self.claims[index]
            if claim["seat"] == target and claim["suit"] == suit:
                return "That Jodhi claim has already been answered."
        return "Murial answers a Jodhi claim before the next card is played."

    # ------------------------------------------------------------------ actions
    def _do_redeal(self, seat: int, demand: bool, events: list[Event]) -> None:
        if demand:
            text = f"{seat_ref(seat)} demands a redeal (weak hand)."
            events.append(Event("redeal_demanded", text, {"seat": seat}))
            self._annul("weak_hand", events, None)
            return
        text = f"{seat_ref(seat)} declines the redeal."
        events.append(Event("redeal_declined", text, {"seat": seat}))
        self.lines.append(text)
        self._begin_auction(events)

    def _do_pass(self, seat: int, events: list[Event]) -> None:
        events.append(Event("pass", f"{seat_ref(seat)} passes.", {"seat": seat, "auto": False}))
        if self.phase == "auction":
            self.passes += 1
            self._auction_next(events)
            self._auction_auto(events)
        else:
            self._window_pass(events)
            self._window_auto(events)

    def _do_call(self, seat: int, value: int, events: list[Event]) -> None:
        self.call = value
        self.high_seat = seat
        self.calls.append((seat, value))
        self.passes = 0
        text = f"{seat_ref(seat)} calls {value}."
        events.append(Event("call", text, {"seat": seat, "value": value}))
        self.lines.append(text)
        self._auction_next(events)
        self._auction_auto(events)

    def _do_blind(self, seat: int, contract: str, events: list[Event]) -> None:
        self.contract = "blind_" + contract
        self.caller = seat
        word = CONTRACT_NAMES[self.contract]
        text = f"{seat_ref(seat)} calls {word}!"
        events.append(Event("blind", text, {"seat": seat, "contract": self.contract}))
        self.lines.append(text)
        self._deal_second(events, blind_caller=seat)
        self.phase = "play"
        self.turn = seat

    def _do_trump(self, seat: int, card: str | None, events: list[Event]) -> None:
        assert self.cur is not None
        if card is None:
            self.last_card = True
            card = self.cur.hands[seat][self.pk1 + self.pk2 - 1]
            self.trump_unseen = not self.options["last_card_visible_to_trumper"]
            text = f"{seat_ref(seat)} calls last card: his last card will be the trump card."
            events.append(Event("trump_set", text, {"seat": seat, "last_card": True}))
        else:
            self.hands[seat].remove(card)
            text = f"{seat_ref(seat)} lays the trump card face down."
            events.append(Event("trump_set", text, {"seat": seat, "last_card": False}))
            events.append(
                Event(
                    "trump_set_private",
                    f"You set {display(card)} face down: {SUIT_NAMES[card[1]]} are trump.",
                    {"card": card, "suit": card[1]},
                    frozenset({seat}),
                )
            )
        self.lines.append(text)
        self.trump_card = card
        self.trump = card[1]
        self.trump_down = True
        self._deal_second(events)
        self._begin_window(events)

    def _do_thunee(self, seat: int, action: str, events: list[Event]) -> None:
        self.contract = action
        self.caller = seat
        word = CONTRACT_NAMES[action]
        text = f"{seat_ref(seat)} calls {word}!"
        events.append(Event(action, text, {"seat": seat, "contract": action}))
        self.lines.append(text)
        t = self.trumper
        if self.trump_down and self.trump_card is not None and t is not None:
            card = self.trump_card
            self.hands[t].append(card)
            events.append(
                Event(
                    "trump_cancelled",
                    f"The trump is cancelled; the trump card goes back to "
                    f"{seat_ref(t)}'s hand unseen.",
                    {"seat": t},
                )
            )
            if self.trump_unseen:
                events.append(
                    Event(
                        "cards_dealt",
                        f"You pick up {display(card)}.",
                        {"cards": [card]},
                        frozenset({t}),
                    )
                )
        self.trump_card = None
        self.trump_down = False
        self.trump_unseen = False
        self.trump = None
        self.phase = "play"
        self.turn = seat

    def _do_jodhi(self, seat: int, suit: str, events: list[Event]) -> None:
        value, valid = self._jodhi_value(seat, suit)
        team = seat % 2
        self.claims.append(
            {
                "seat": seat,
                "suit": suit,
                "value": value,
                "valid": valid,
                "cancelled": False,
                "murial": False,
            }
        )
        self.claimed.add((seat, suit))
        self.jodhi_tot[team] += value
        if self.options["challenge_mode"]:
            self.pending.append(len(self.claims) - 1)
        shown = " in trump" if value >= 40 else ""
        if self.options["jodhi_reveal_suit"]:
            shown = f" in {SUIT_NAMES[suit]}"
        text = f"{seat_ref(seat)} claims Jodhi {value}{shown}."
        data: dict[str, Any] = {"seat": seat, "value": value, "team": team}
        if self.options["jodhi_reveal_suit"]:
            data["suit"] = suit
        events.append(Event("jodhi", text, data))
        self.lines.append(text)

    def _do_declare(self, seat: int, kind: str, events: list[Event]) -> None:
        self.declaration = kind
        self.declarer = seat
        word = "Double" if kind == "double" else "Khanaak"
        text = f"{seat_ref(seat)} declares {word}!"
        events.append(Event(kind, text, {"seat": seat}))
        self.lines.append(text)
        if kind == "khanaak" and not self.khanaak_called:
            self.khanaak_called = True
            if self.options["khanaak_raises_target"]:
                events.append(
                    Event(
                        "target_raised",
                        f"The game is now played to {self._target()} balls.",
                        {"target": self._target()},
                    )
                )

    def _do_challenge(self, seat: int, target: int, events: list[Event]) -> None:
        guilty = target in self.illegal
        team = seat % 2 if guilty else target % 2
        text = f"{seat_ref(seat)} challenges {seat_ref(target)}: " + (
            "an illegal play is proven." if guilty else "no illegal play was made."
        )
        events.append(Event("challenge", text, {"seat": seat, "target": target, "proven": guilty}))
        result = self._base_result("challenge")
        result.update({"challenger": seat, "accused": target, "proven": guilty})
        self._award(team, 4, result, events)

    def _do_murial(self, seat: int, target: int, suit: str, events: list[Event]) -> None:
        for index in self.pending:
            claim = self.claims[index]
            if claim["seat"] == target and claim["suit"] == suit and not claim["murial"]:
                claim["murial"] = True
                if not claim["valid"]:
                    claim["cancelled"] = True
                    self.jodhi_tot[target % 2] -= claim["value"]
                    text = (
                        f"{seat_ref(seat)} calls Murial: {seat_ref(target)}'s Jodhi is cancelled."
                    )
                else:
                    text = f"{seat_ref(seat)} calls Murial, but {seat_ref(target)}'s Jodhi stands."
                events.append(
                    Event(
                        "murial",
                        text,
                        {"seat": seat, "target": target, "cancelled": claim["cancelled"]},
                    )
                )
                self.lines.append(text)
                return

    def _do_play(self, seat: int, card: str, events: list[Event]) -> None:
        if self._challenge and card not in self._strict_cards(seat):
            self.illegal.add(seat)
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        events.append(Event("card_played", PLAY_TEXT[seat, card], {"seat": seat, "card": card}))
        if self.pending:
            self.pending = []
        if len(trick) == 1 and self.tricks_done == 0:
            if self.contract == "normal":
                if self.trump_down and self.trump_card is not None and self.trumper is not None:
                    tc = self.trump_card
                    self.hands[self.trumper].append(tc)
                    self.revealed = tc
                    self.trump_down = False
                    self.trump_unseen = False
                    text = f"The trump card is {display(tc)}: {SUIT_NAMES[tc[1]]} are trump."
                    events.append(
                        Event(
                            "trump_revealed",
                            text,
                            {"card": tc, "suit": tc[1], "seat": self.trumper},
                        )
                    )
                    self.lines.append(text)
            else:
                self.trump = card[1]
                text = f"{SUIT_NAMES[card[1]].capitalize()} are trump."
                events.append(
                    Event("trump_revealed", text, {"suit": card[1], "card": None, "seat": seat})
                )
                self.lines.append(text)
                if self.options["no_trump_annul"]:
                    suit = card[1]
                    caller_team = seat % 2
                    if not any(
                        c[1] == suit
                        for s in range((caller_team + 1) % 2, self.players, 2)
                        for c in self.hands[s]
                    ):
                        self._annul("no_trump", events, None)
                        return
        if self.jodhi_team is not None and len(trick) >= self.jodhi_close:
            self.jodhi_team = None
        if len(trick) == self.players:
            self._finish_trick(events)
        else:
            self.turn = (seat + 1) % self.players

    def _finish_trick(self, events: list[Event]) -> None:
        trick = self.trick
        winner = self._trick_winner(trick)
        cards = [c for _, c in trick]
        pts = card_points(cards)
        team = winner % 2
        self.points[team] += pts
        self.tricks_done += 1
        self.winners.append(winner)
        self.team_won[team] += 1
        self.records[-1]["tricks"].append({"leader": trick[0][0], "cards": cards, "winner": winner})
        self.last_trick = {"cards": [[s, c] for s, c in trick], "winner": winner, "points": pts}
        self.trick = []
        self.turn = winner
        events.append(
            Event(
                "trick_won",
                f"{seat_ref(winner)} wins trick {self.tricks_done} ({pts} points).",
                {
                    "winner": winner,
                    "points": pts,
                    "trick": self.tricks_done,
                    "team_points": list(self.points),
                },
            )
        )
        if self.contract != "normal":
            caller = self.caller
            assert caller is not None
            if self.options["thunee_must_win"] == "caller":
                failed = winner != caller
            else:
                failed = team != caller % 2
            if failed:
                self._score_contract(False, team == caller % 2, events)
            elif self.tricks_done == self.half_tricks:
                self._score_contract(True, False, events)
            elif (
                self.contract.startswith("blind")
                and self.tricks_done == self.pk1
                and self.set_aside
            ):
                picked = self.set_aside
                self.hands[caller].extend(picked)
                self.set_aside = []
                events.append(
                    Event(
                        "blind_pickup",
                        f"{seat_ref(caller)} picks up his other cards.",
                        {"seat": caller},
                    )
                )
                events.append(
                    Event(
                        "cards_dealt",
                        "You pick up " + " ".join(display(c) for c in picked) + ".",
                        {"cards": list(picked)},
                        frozenset({caller}),
                    )
                )
            return
        if self.tricks_done == self.total_tricks:
            self._score_normal(events)
            return
        if self.players == 2 and self.tricks_done == 6:
            self._second_half(events)
            return
        half_index = (
            self.tricks_done if self.tricks_done <= 6 or self.players != 2 else self.tricks_done - 6
        )
        if self.options["jodhi"] and half_index < self.half_tricks:
            timing = self.options["jodhi_timing"]
            if timing == "team_first_or_third":
                opens = self.team_won[team] in (1, 3)
            elif timing == "hand_tricks_1_and_3":
                opens = half_index in (1, 3)
            else:
                opens = True
            self.jodhi_team = team if opens else None

    def _second_half(self, events: list[Event]) -> None:
        assert self.cur is not None and self.trumper is not None
        for s in (self.trumpman, self.dealer):
            cards = list(self.cur.hands[s][6:12])
            self.hands[s].extend(cards)
            events.append(
                Event(
                    "cards_dealt",
                    "Second half: you receive " + " ".join(display(c) for c in cards) + ".",
                    {"cards": cards},
                    frozenset({s}),
                )
            )
        self.received = 12
        self.team_won = [0, 0]
        self.jodhi_team = None
        events.append(Event("second_half", "The second half is dealt.", {}))
        counting = (self.trumper + 1) % 2
        if self.options["no_trump_annul"] and not any(
            c[1] == self.trump for c in self.cur.hands[counting]
        ):
            self._annul("no_trump", events, counting)

    # ------------------------------------------------------------------ scoring
    def _base_result(self, kind: str) -> dict[str, Any]:
        normal = self.contract == "normal" and self.trumper is not None
        return {
            "kind": kind,
            "contract": self.contract,
            "counting_team": (self.trumper + 1) % 2
            if normal and self.trumper is not None
            else None,
            "trumper": self.trumper if self.contract == "normal" else None,
            "trump": self.trump,
            "call": self.call,
            "caller": self.caller,
            "points": list(self.points),
            "jodhi": list(self.jodhi_tot),
            "total": None,
            "target": None,
            "balls": [0, 0],
            "game_target": self._target(),
        }

    def _annul(self, reason: str, events: list[Event], counting: int | None) -> None:
        result = self._base_result("annulled")
        result["counting_team"] = counting
        result["reason"] = reason
        self.records[-1]["result"] = result
        self.records[-1]["score_after"] = list(self.balls)
        why = (
            "the trumpman's weak hand"
            if reason == "weak_hand"
            else "the counting side holds no trump"
        )
        events.append(
            Event(
                "hand_annulled",
                f"The hand is annulled ({why}); {seat_ref(self.dealer)} deals again.",
                {"result": result},
            )
        )
        self._schedule_next_hand(events)

    def _score_contract(self, success: bool, partner_catch: bool, events: list[Event]) -> None:
        caller = self.caller
        assert caller is not None
        blind = self.contract.startswith("blind")
        base = int(self.options["blind_balls"]) if blind else 4
        result = self._base_result(self.contract)
        result.update({"success": success, "partner_catch": partner_catch})
        if success:
            self._award(caller % 2, base, result, events)
        else:
            extra = int(self.options["partner_catch_extra"]) if partner_catch else 0
            self._award((caller + 1) % 2, base + extra, result, events)

    def _score_normal(self, events: list[Event]) -> None:
        assert self.trumper is not None
        counting = (self.trumper + 1) % 2
        trumping = self.trumper % 2
        last = self.winners[-1]
        if last % 2 == counting:
            bonus = 10
        else:
            bonus = -10 if self.options["last_trick"] == "transfer" else 0
        total = (
            self.points[counting]
            + bonus
            + self.call
            + self.jodhi_tot[counting]
            - self.jodhi_tot[trumping]
        )
        target = self.count_target
        kind = self.declaration or "normal"
        result = self._base_result(kind)
        result.update({"total": total, "target": target})
        if self.declaration is not None and self.declarer is not None:
            declarer = self.declarer
            team = declarer % 2
            other = (team + 1) % 2
            backside = team == counting and (
                self.call > 0 or not self.options["backside_requires_call"]
            )
            result.update({"declarer": declarer, "backside": backside})
            if self.declaration == "double":
                if self.options["double_winner"] == "declarer":
                    won = last == declarer
                else:
                    won = last % 2 == team
                result["success"] = won
                if won:
                    self._award(team, 4 if backside else 2, result, events)
                else:
                    self._award(other, 4, result, events)
                return
            won = last % 2 == team if self.options["khanaak_winner"] == "team" else last == declarer
            against = self.points[other]
            if self.options["khanaak_formula"] == "strict":
                against += self.jodhi_tot[other]
            success = won and self.jodhi_tot[team] + 10 > against
            result["success"] = success
            if success:
                self._award(team, 6 if backside else 3, result, events)
            else:
                self._award(other, 4, result, events)
            return
        if total >= target:
            self._award(counting, 2 if self.call else 1, result, events)
        else:
            self._award(trumping, 1, result, events)

    def _award(self, team: int, balls: int, result: dict[str, Any], events: list[Event]) -> None:
        self.balls[team] += balls
        result["balls"] = [balls if t == team else 0 for t in (0, 1)]
        self.records[-1]["result"] = result
        self.records[-1]["score_after"] = list(self.balls)
        self.jodhi_team = None
        self.pending = []
        if result["total"] is not None:
            text = (
                f"Hand over: the counting team made {result['total']} against {result['target']}."
            )
        else:
            text = f"Hand over ({CONTRACT_NAMES.get(result['kind'], result['kind'])})."
        events.append(Event("hand_scored", text, {"result": result}))
        team_name = "Team A" if team == 0 else "Team B"
        if self.players == 2:
            team_name = seat_ref(team)
        events.append(
            Event(
                "balls_awarded",
                f"{team_name} scores {balls} ball{'s' if balls != 1 else ''} "
                f"({self.balls[0]}–{self.balls[1]}).",
                {"team": team, "balls": balls, "score": list(self.balls)},
            )
        )
        target = self._target()
        clear = self.options["two_to_clear"]
        need_two = clear == "always" or (clear == "after_khanaak" and self.khanaak_called)
        lead = self.balls[team] - self.balls[(team + 1) % 2]
        if self.balls[team] >= target and (not need_two or lead >= 2):
            self.winner_team = team
            self.phase = "over"
            self.trick = []
            events.append(
                Event(
                    "game_over",
                    f"{team_name} wins the game {self.balls[0]}–{self.balls[1]}.",
                    {"winner": team, "score": list(self.balls)},
                )
            )
            return
        dealer_team = self.dealer % 2
        if (
            self.options["dealer_rotation"] == "every_hand"
            or self.balls[dealer_team] >= self.balls[(dealer_team + 1) % 2]
        ):
            self.dealer = (self.dealer + 1) % self.players
        self._schedule_next_hand(events)

    # ------------------------------------------------------------------ what people see
    def _known_trump(self, seat: int | None) -> str | None:
        """The trump suit as ``seat`` knows it (``None``: the public)."""
        if self.trump is None:
            return None
        if self.contract != "normal" or self.revealed is not None:
            return self.trump
        if seat is not None and seat == self.trumper and self.trump_down and not self.trump_unseen:
            return self.trump
        return None

    def _prompt(self) -> str:
        phase = self.phase
        if phase == "redeal":
            return f"{seat_ref(self.trumpman)} may demand a redeal (weak first packet)."
        if phase == "auction":
            return f"{seat_ref(self.atturn)} to call or pass."
        if phase == "trump":
            assert self.trumper is not None
            return f"{seat_ref(self.trumper)} to set trump."
        if phase == "window":
            return f"{seat_ref(self.atturn)} may call Thunee or pass."
        if phase == "play":
            text = f"{seat_ref(self.turn)} to play."
            if self.jodhi_team is not None:
                text += " Jodhi window open."
            return text
        if phase == "over":
            return "The game is over."
        return "Waiting for the next deal."

    def view(self, seat: int | None) -> dict[str, Any]:
        self._materialize()
        n = self.players
        phase = self.phase
        current_turn = {
            "auction": self.atturn,
            "window": self.atturn,
            "play": self.turn,
            "trump": self.trumper,
            "redeal": self.trumpman,
        }.get(phase)
        trump_card = self.revealed
        if (
            trump_card is None
            and seat is not None
            and seat == self.trumper
            and self.trump_down
            and not self.trump_unseen
        ):
            trump_card = self.trump_card
        data: dict[str, Any] = {
            "game": self.name,
            "players": n,
            "dealer": self.dealer,
            "phase": PHASE_WORDS.get(phase, phase),
            "to_act": list(self.to_act()),
            "turn": current_turn,
            "prompt": self._prompt(),
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "last_trick": self.last_trick,
            "trump": self._known_trump(seat),
            "trump_card": trump_card,
            "trump_face_down": self.trump_down,
            "lines": list(self.lines[-12:]),
            "score": list(self.balls),
            "score_label": "balls",
            "target": self._target(),
            "hand_number": len(self.records),
            "trumpman": self.trumpman,
            "trumper": self.trumper,
            "call": self.call,
            "caller": self.caller if self.caller is not None else self.high_seat,
            "contract": self.contract,
            "counting_team": (
                (self.trumper + 1) % 2
                if self.trumper is not None and self.contract == "normal"
                else None
            ),
            "counting_target": self.count_target,
            "tricks_won": [sum(1 for w in self.winners if w % 2 == t) for t in (0, 1)],
            "card_points": list(self.points),
            "jodhi": list(self.jodhi_tot),
            "jodhi_claims": [
                {
                    "seat": c["seat"],
                    "value": c["value"],
                    "cancelled": c["cancelled"],
                    **({"suit": c["suit"]} if self.options["jodhi_reveal_suit"] else {}),
                }
                for c in self.claims
            ],
            "jodhi_window": self.jodhi_team,
            "declaration": (
                {"kind": self.declaration, "seat": self.declarer} if self.declaration else None
            ),
            "set_aside": len(self.set_aside),
        }
        if seat is not None and 0 <= seat < n:
            data["hand"] = sorted(self.hands[seat], key=SORT_KEY.__getitem__)
        return data

    def hidden_cards(self, seat: int | None) -> set[str]:
        hidden: set[str] = set()
        for s in range(self.players):
            if s != seat:
                hidden.update(self.hands[s])
        if self.cur is not None:
            for hand in self.cur.hands:
                hidden.update(hand[self.received :])
        hidden.update(self.set_aside)
        if (
            self.trump_down
            and self.trump_card is not None
            and (seat is None or seat != self.trumper or self.trump_unseen)
        ):
            hidden.add(self.trump_card)
        if self.revealed is not None:
            hidden.discard(self.revealed)
        return hidden

    def move_label(self, move: Move) -> str:
        action = move.action
        if action == "play":
            return f"Play {display(move.get('card'))}"
        if action == "call":
            return f"Call {move.get('value')}"
        if action == "pass":
            return "Pass"
        if action == "blind":
            return "Blind Royals" if move.get("contract") == "royals" else "Blind Thunee"
        if action == "trump":
            return f"Trump {display(move.get('card'))}"
        if action == "last_card":
            return "Last card"
        if action == "thunee":
            return "Thunee"
        if action == "royals":
            return "Royals"
        if action == "jodhi":
            suit = move.get("suit")
            if suit not in SUIT_SYMBOLS:
                return "Jodhi"
            # K and Q of a suit are in one hand at most, so the claimant is known: show the
            # value the claim would score (the label is for the claimant's own button).
            claimants = [s for s in range(self.players) if move in self.legal_moves(s)]
            if len(claimants) == 1:
                value, valid = self._jodhi_value(claimants[0], suit)
                if valid:
                    return f"Jodhi {SUIT_SYMBOLS[suit]} ({value})"
            return f"Jodhi {SUIT_SYMBOLS[suit]}"
        if action == "double":
            return "Double"
        if action == "khanaak":
            return "Khanaak"
        if action == "demand_redeal":
            return "Redeal"
        if action == "decline_redeal":
            return "Play on"
        if action == "challenge":
            return f"Challenge {seat_ref(int(move.get('target', 0)))}"
        if action == "murial":
            return f"Murial {seat_ref(int(move.get('target', 0)))}"
        return action

    def jodhi_label(self, seat: int, suit: str) -> str:
        """A label with the value the claim would score, for the claimant's own buttons."""
        value, _ = self._jodhi_value(seat, suit)
        return f"Jodhi {SUIT_SYMBOLS[suit]} ({value})"

    # ------------------------------------------------------------------ results
    def outcome(self) -> Outcome | None:
        if self.winner_team is None:
            return None
        return Outcome(tuple(range(self.winner_team, self.players, 2)), tuple(self.balls))

    def summary(self) -> dict[str, Any]:
        self._materialize()
        return {
            "deals": [
                {
                    "tricks": list(r["tricks"]),
                    "result": r["result"],
                    "score_after": r["score_after"],
                }
                for r in self.records
            ],
            "score": list(self.balls),
            "winner": self.winner_team,
        }

    # ------------------------------------------------------------------ computer player
    def choose_move(self, seat: int, rng: random.Random) -> Move:
        legal = self.legal_moves(seat)
        if not legal:
            raise IllegalMove("This seat has nothing to do now.")
        if len(legal) == 1:
            return legal[0]
        phase = self.phase
        if phase == "redeal":
            return DEMAND
        if phase == "auction":
            return self._choose_call(seat, legal)
        if phase == "trump":
            return self._choose_trump(seat, legal)
        if phase == "window":
            return THUNEE if THUNEE in legal and self._thunee_worthy(seat) else PASS
        # play: claims first, then declarations, then a card
        jodhi = [m for m in legal if m.action == "jodhi"]
        if jodhi and not self.options["challenge_mode"]:
            return max(jodhi, key=lambda m: self._jodhi_value(seat, m.get("suit"))[0])
        if jodhi:
            valid = [m for m in jodhi if self._jodhi_value(seat, m.get("suit"))[1]]
            if valid:
                return valid[0]
        if self.options["challenge_mode"]:
            proven = self._proven_revoke(seat)
            if proven is not None and CHALLENGE[proven] in legal:
                return CHALLENGE[proven]
        plays = [m.get("card") for m in legal if m.action == "play"]
        if not plays:
            return legal[0]
        if (
            len(plays) == 1
            and (DOUBLE in legal or KHANAAK in legal)
            and self._sure_winner(seat, plays[0])
        ):
            if KHANAAK in legal and self._khanaak_would_hold(seat):
                return KHANAAK
            if DOUBLE in legal:
                return DOUBLE
        return PLAY[self._choose_card(seat, plays)]

    def _choose_call(self, seat: int, legal: list[Move]) -> Move:
        hand = self.hands[seat]
        best = 0
        for suit in SUIT_ORDER:
            in_suit = [c for c in hand if c[1] == suit]
            score = card_points(in_suit) + 12 * len(in_suit)
            best = max(best, score)
        strength = best + sum(POINTS[c] for c in hand if c[0] == "J")
        calls = [m for m in legal if m.action == "call"]
        if calls and strength >= 95 and self.call < 40:
            return min(calls, key=lambda m: int(m.get("value")))
        return PASS

    def _choose_trump(self, seat: int, legal: list[Move]) -> Move:
        hand = self.hands[seat]
        best_suit = max(
            SUIT_ORDER,
            key=lambda s: (
                sum(1 for c in hand if c[1] == s),
                sum(POINTS[c] for c in hand if c[1] == s),
            ),
        )
        cards = [c for c in hand if c[1] == best_suit]
        if not cards:
            return legal[0]
        return TRUMP[min(cards, key=NORMAL_STRENGTH.__getitem__)]

    def _thunee_worthy(self, seat: int) -> bool:
        hand = self.hands[seat]
        if len(hand) < 4:
            return False
        for c in hand:
            suit = c[1]
            higher = RANK_ORDER[: RANK_ORDER.index(c[0])]
            if any(r + suit not in hand for r in higher):
                return False
        return True

    def _played_cards(self) -> set[str]:
        played = (
            {c for t in self.records[-1]["tricks"] for c in t["cards"]} if self.records else set()
        )
        played.update(c for _, c in self.trick)
        return played

    def _public_trump(self, seat: int) -> str | None:
        return self._known_trump(seat)

    def _sure_winner(self, seat: int, card: str) -> bool:
        """Whether ``card`` wins the last trick for sure (only public cards and own hand)."""
        trump = self._public_trump(seat)
        strength = self._strength()
        known = self._played_cards() | set(self.hands[seat])
        outstanding = [c for c in DECK if c not in known]
        if self.trick:
            current = self._trick_winner([*self.trick, (seat, card)])
            if current != seat:
                return False
        led = self.trick[0][1][1] if self.trick else card[1]
        if card[1] != led and card[1] != trump:
            return False
        for other in outstanding:
            if other[1] == card[1] and strength[other] > strength[card]:
                return False
            if trump is not None and card[1] != trump and other[1] == trump:
                return False
        return True

    def _khanaak_would_hold(self, seat: int) -> bool:
        team = seat % 2
        other = (team + 1) % 2
        against = self.points[other]
        if self.options["khanaak_formula"] == "strict":
            against += self.jodhi_tot[other]
        return self.jodhi_tot[team] + 10 > against

    def _proven_revoke(self, seat: int) -> int | None:
        if not self.records:
            return None
        void: set[tuple[int, str]] = set()
        tricks = [t["cards"] for t in self.records[-1]["tricks"]]
        leaders = [t["leader"] for t in self.records[-1]["tricks"]]
        sequences = [
            [((leader + i) % self.players, c) for i, c in enumerate(cards)]
            for leader, cards in zip(leaders, tricks, strict=True)
        ]
        sequences.append(list(self.trick))
        for trick in sequences:
            if not trick:
                continue
            led = trick[0][1][1]
            for s, c in trick:
                if (s, c[1]) in void and s % 2 != seat % 2:
                    return s
                if c[1] != led:
                    void.add((s, led))
        return None

    def _choose_card(self, seat: int, cards: list[str]) -> str:
        strength = self._strength()
        trump = self._public_trump(seat)
        if len(cards) == 1:
            return cards[0]
        if self.contract != "normal" and self.caller == seat:
            return max(cards, key=lambda c: (strength[c], c[1] == trump))
        if not self.trick:
            played = self._played_cards() | set(self.hands[seat])
            tops = [
                c
                for c in cards
                if c[1] != trump
                and all(o in played for o in DECK if o[1] == c[1] and strength[o] > strength[c])
            ]
            if tops:
                return max(tops, key=POINTS.__getitem__)
            plain = [c for c in cards if c[1] != trump] or cards
            return min(plain, key=lambda c: (POINTS[c], strength[c]))
        winner = self._trick_winner(self.trick)
        partner_winning = winner % 2 == seat % 2
        if self.contract != "normal" and self.caller is not None and self.caller % 2 == seat % 2:
            partner_winning = True  # never catch a partner's Thunee
        cheap = min(cards, key=lambda c: (c[1] == trump, POINTS[c], strength[c]))
        if partner_winning:
            return cheap
        winning = [c for c in cards if self._trick_winner([*self.trick, (seat, c)]) == seat]
        if winning:
            return min(winning, key=lambda c: (c[1] == trump, strength[c]))
        return cheap
