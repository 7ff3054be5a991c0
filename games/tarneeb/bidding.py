"""Tarneeb's own auction and the :class:`Tarneeb` game: bids of 7 to 13 tricks, either one call
each with the dealer last (``single_round``, the dealer may equal) or an open auction in which a
pass is final (contract A.1.3). Egyptian Tarneeb's auction is :mod:`games.tarneeb_egyptian`.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Event, IllegalMove, Move
from games.facts import GameFacts, team_points, three
from games.seats import next_seat, seat_ref
from games.tarneeb.engine import TarneebBase
from games.tarneeb.moves import BID_MOVES, PASS
from games.tarneeb.options import SUMMARY_TEXT, TARNEEB_OPTIONS
from games.tarneeb.reasons import against, malformed


@dataclass(init=False, eq=False, repr=False)
class Tarneeb(TarneebBase):
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
    OPTIONS = TARNEEB_OPTIONS
    summary_text = SUMMARY_TEXT

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
