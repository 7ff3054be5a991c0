"""What both Tarneeb auctions share: the hooks each game's auction fills in, the dealer forced
to bid, the throw-in, the contract it ends with, and naming the trump suit.

Tarneeb's own auction is :mod:`games.tarneeb.bidding`; Egyptian Tarneeb's is
:mod:`games.tarneeb_egyptian`.
"""

from __future__ import annotations

from typing import Any

from games.base import Event, IllegalMove, Move
from games.cards import SUIT_NAMES, SUIT_SYMBOLS
from games.seats import next_seat, seat_ref, team_of
from games.tarneeb.moves import TEAM_NAMES, bid_words
from games.tarneeb.play import Play


class Auction(Play):
    """The auction's common steps; a game's subclass runs its own calls."""

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
