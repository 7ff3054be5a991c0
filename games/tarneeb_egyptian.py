"""Egyptian Tarneeb (``tarneeb_egyptian``): the open auction with strains, doubles and passes.

The game is described with Tarneeb in :mod:`games.tarneeb` (contract shared/rules/tarneeb.md,
Part A.2), which also holds the deal, play, scoring and views both games share. Here: a bid names
a number of tricks and a strain (``C D H S`` or ``NT``), a higher bid has more tricks or the same
number in a higher strain (``strain_order``), a seat may pass and bid again later or double the
opponents' bid, and four passes or doubles in a row end the auction.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Event, IllegalMove, Move, Option
from games.facts import GameFacts, team_points, three
from games.seats import next_seat, seat_ref, team_of
from games.tarneeb.engine import TarneebBase
from games.tarneeb.moves import DOUBLE, PASS, STRAIN_WORDS, bid_words
from games.tarneeb.options import COMMON_OPTIONS
from games.tarneeb.reasons import against, malformed

STRAIN_ORDERS = {"bridge": ("C", "D", "H", "S", "NT"), "masrawy": ("C", "S", "H", "D", "NT")}
EG_BID_MOVES: dict[tuple[int, str], Move] = {
    (v, s): Move.of("bid", value=v, suit=s)
    for v in range(7, 14)
    for s in ("C", "D", "H", "S", "NT")
}


@dataclass(init=False, eq=False, repr=False)
class EgyptianTarneeb(TarneebBase):
    name = "tarneeb_egyptian"
    facts = GameFacts(
        presets=three("target", (31, 41, 61), "points"),  # the rules' own three targets
        hand_score=team_points("points"),
        card_points=None,
        card_margin=None,
        search_steps={4: 2.0},
        search_worlds={},
        endgame_solver=True,
    )
    title = "Egyptian Tarneeb"
    egyptian = True
    OPTIONS = (
        COMMON_OPTIONS[0],
        Option(
            "kaboot_scoring",
            False,
            "13-trick values: all 13 on a lower bid scores 16, a bid of 13 made 26, failed "
            "-16 (the opponents double their tricks).",
        ),
        Option(
            "strain_order",
            "bridge",
            "bridge: C < D < H < S < NT; masrawy: C < S < H < D < NT.",
            choices=("bridge", "masrawy"),
        ),
        COMMON_OPTIONS[2],
        COMMON_OPTIONS[1],
    )
    summary_text = (
        "Four players, partners opposite; play goes counter-clockwise (to the right).\n"
        "Bid a number of tricks (7 to 13) and a trump suit or no trump; a bid must be higher in "
        "number, or equal with a higher suit (NT > spades > hearts > diamonds > clubs).\n"
        "You may pass and bid again later, or double the opponents' bid; four passes or doubles "
        "in a row end the auction.\n"
        "Follow suit if you can. Made: the declarers score their tricks, failed: they lose their "
        "bid (both doubled if doubled); the opponents score their tricks when it fails.\n"
        "First side to 41 wins."
    )

    def _strains(self) -> tuple[str, ...]:
        return STRAIN_ORDERS[self.options["strain_order"]]

    def _key(self, value: int, strain: str) -> int:
        return value * 5 + self._strains().index(strain)

    def _may_double(self, seat: int) -> str | None:
        """None if ``seat`` may double now, else the reason why not."""
        if self.high_bidder < 0:
            return "There is no bid to double."
        if self.high_bidder == seat:
            return "You cannot double your own bid."
        if team_of(self.high_bidder) == team_of(seat):
            return "You cannot double your partner's bid."
        if self.doubled:
            return "That bid is already doubled."
        return None

    def _auction_moves(self, seat: int) -> list[Move]:
        moves = [] if self._forced_to_bid() else [PASS]
        if self._may_double(seat) is None:
            moves.append(DOUBLE)
        strains = self._strains()
        for key in range(max(self.high + 1, 35), 70):
            moves.append(EG_BID_MOVES[(key // 5, strains[key % 5])])
        return moves

    def _is_legal_call(self, seat: int, move: Move) -> bool:
        action = move.action
        if action == "pass":
            return move == PASS and not self._forced_to_bid()
        if action == "double":
            return move == DOUBLE and self._may_double(seat) is None
        value = move.get("value")
        strain = move.get("suit")
        return (
            type(value) is int
            and type(strain) is str
            and EG_BID_MOVES.get((value, strain)) == move
            and self._key(value, strain) > self.high
        )

    def _call_refusal(self, seat: int, move: Move) -> IllegalMove:
        action = move.action
        if action == "pass":
            if move.fields:
                return malformed("A pass has no fields.")
            return against("Everyone else passed, so you must bid.", "must_bid")
        if action == "double":
            if move.fields:
                return malformed("A double has no fields.")
            reason = self._may_double(seat)
            return against(reason or "You may not double now.", "no_double")
        if action == "bid":
            value = move.get("value")
            strain = move.get("suit")
            if (
                type(value) is not int
                or not 7 <= value <= 13
                or len(move.fields) != 2
                or strain not in STRAIN_WORDS
            ):
                return malformed("Bid 7 to 13 tricks with a suit (C, D, H, S) or NT.")
            if self.high >= 69:
                return against(
                    "The highest bid is already 13 no trump; pass or double.", "bidding_closed"
                )
            high = bid_words(self.high // 5, self.high_strain)
            return against(f"Bid higher than {high}.", "bid_too_low", high=high)
        if action == "play":
            return against("The auction is not over yet.", "auction_not_over")
        if action == "trump":
            return against("In Egyptian Tarneeb the trump is part of the bid.", "trump_in_bid")
        return malformed("Bid, pass or double.")

    def _call(self, seat: int, move: Move) -> list[Event]:
        action = move.action
        if action == "bid":
            value = move.get("value")
            strain = str(move.get("suit"))
            self.high = self._key(value, strain)
            self.high_bidder = seat
            self.high_strain = strain
            self.doubled = False
            self.quiet = 0
            self.calls.append((seat, "bid", value, strain))
            events = [
                Event(
                    "bid",
                    f"{seat_ref(seat)} bids {bid_words(value, strain)}.",
                    {"seat": seat, "value": value, "suit": strain},
                )
            ]
        elif action == "double":
            self.doubled = True
            self.quiet += 1
            self.calls.append((seat, "double", 0, None))
            events = [
                Event(
                    "double",
                    f"{seat_ref(seat)} doubles {bid_words(self.high // 5, self.high_strain)}.",
                    {"seat": seat, "bidder": self.high_bidder},
                )
            ]
        else:
            self.quiet += 1
            self.calls.append((seat, "pass", 0, None))
            events = [Event("pass", f"{seat_ref(seat)} passes.", {"seat": seat})]
        if self.quiet >= 4:
            if self.high_bidder < 0:
                return events + self._throw_in()
            return events + self._won_auction(self.high_bidder, self.high // 5, self.high_strain)
        self.turn = next_seat(seat, 4)
        return events
