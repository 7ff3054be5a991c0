"""The engine both Tarneeb games share: creation, dealing, whose turn it is, the legal moves,
applying a move, the outcome and the replay summary.

The rules are layered, one concept per module, each layer a class built on the one below:
:mod:`~games.tarneeb.state` (typed attributes), :mod:`~games.tarneeb.scoring`,
:mod:`~games.tarneeb.play`, :mod:`~games.tarneeb.auction`, :mod:`~games.tarneeb.reasons`,
:mod:`~games.tarneeb.view`, and this engine on top. Each game adds its own auction:
:mod:`~games.tarneeb.bidding` (Tarneeb) and :mod:`games.tarneeb_egyptian`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from games.base import Deal, DealError, Event, IllegalMove, Move, Outcome, Status, deal_rng, shuffle
from games.seats import next_seat, seat_ref, team_seats
from games.tarneeb.deck import DECK, validate_deal
from games.tarneeb.moves import TRUMP_MOVES
from games.tarneeb.view import View
from games.tricks import HandRecord, deal_round, is_legal_play, play_moves


@dataclass(init=False, eq=False, repr=False)
class TarneebBase(View):
    """Deal, play, scoring and views shared by both games; subclasses run their own auction.

    The state is the typed attributes of :class:`~games.tarneeb.state.TarneebState`;
    :meth:`Game.clone` copies them by their types.
    """

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
            validate_deal(deal)
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
        validate_deal(deal)
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

    def apply(self, seat: int, move: Move) -> list[Event]:
        self.check(seat, move)
        action = move.action
        if action == "play":
            return self._play(seat, move.get("card"))
        if action == "trump":
            return self._name_trump(seat, str(move.get("suit")))
        return self._call(seat, move)

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(tuple(team_seats(self.winner, 4)), tuple(self.score))

    def summary(self) -> dict[str, Any]:
        return {
            "deals": [record.to_json(4) for record in self.records],
            "score": list(self.score),
            "winner": self.winner,
        }
