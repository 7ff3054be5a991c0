"""Thunee's auction and calls: the weak-hand redeal, calling, trump, the Thunee window.

After the first packet the trumpman ``D+1`` may demand a redeal of a first packet worth 10 or
less. The calling starts at ``D+2``: 10, 20, … 100, then only 104; nobody raises his own
partner, and only the dealer's team may open. A blind call (Blind Thunee/Royals) is open to every
seat on its turn, so with blind contracts enabled (the default) nobody is ever auto-passed in the
auction; with them off, a seat of the holding team (or a seat facing a standing 104) passes
automatically. The trumper lays a first-packet card face down as trump (or calls "last card"),
the second packet is dealt, and from the trumper round every seat may call Thunee or Royals.
After a Thunee/Royals call a face-down trump card simply goes back to the trumper's hand (a
last-card trump is then seen by him).
"""

from __future__ import annotations

from games.base import Event, Move
from games.cards import SUIT_NAMES, display
from games.seats import next_seat, other_team, team_of, team_seats
from games.thunee.deck import DECK, DISPLAY, SEAT_REFS, SUIT_CARDS, SUIT_OF, seat_ref
from games.thunee.moves import (
    BLIND_ROYALS,
    BLIND_THUNEE,
    CALL_AMOUNTS,
    CALL_MOVES,
    CONTRACT_NAMES,
    PASS,
    ROYALS,
    THUNEE,
)
from games.thunee.play import Play

# The auction's events, built once and shared by every game (events are read-only): most
# random moves are calls and passes, and a new Event costs more than the rest of the move.
PASSED: dict[tuple[int, bool], Event] = {
    (seat, auto): Event("pass", f"{SEAT_REFS[seat]} passes.", {"seat": seat, "auto": auto})
    for seat in range(6)
    for auto in (False, True)
}
CALLED: dict[tuple[int, int], Event] = {
    (seat, value): Event(
        "call", f"{SEAT_REFS[seat]} calls {value}.", {"seat": seat, "value": value}
    )
    for seat in range(6)
    for value in CALL_AMOUNTS
}
BLIND_CALLED: dict[tuple[int, str], Event] = {
    (seat, contract): Event(
        "blind",
        f"{SEAT_REFS[seat]} calls {CONTRACT_NAMES[contract]}!",
        {"seat": seat, "contract": contract},
    )
    for seat in range(6)
    for contract in ("blind_thunee", "blind_royals")
}

AUCTION_OVER: dict[tuple[int, int, bool], Event] = {
    (seat, call, called): Event(
        "auction_over",
        f"{SEAT_REFS[seat]} wins the calling at {call} and sets trump."
        if called
        else f"No call: {SEAT_REFS[seat]} sets trump.",
        {"trumper": seat, "call": call},
    )
    for seat in range(6)
    for call in (0, *CALL_AMOUNTS)
    for called in (False, True)
}
TRUMP_SET: dict[tuple[int, bool], Event] = {
    (seat, last): Event(
        "trump_set",
        f"{SEAT_REFS[seat]} calls last card: their last card will be the trump card."
        if last
        else f"{SEAT_REFS[seat]} lays the trump card face down.",
        {"seat": seat, "last_card": last},
    )
    for seat in range(6)
    for last in (False, True)
}
TRUMP_SET_PRIVATE: dict[tuple[int, str], Event] = {
    (seat, card): Event(
        "trump_set_private",
        f"You set {DISPLAY[card]} face down: {SUIT_NAMES[card[1]]} are trump.",
        {"card": card, "suit": card[1]},
        frozenset({seat}),
    )
    for seat in range(6)
    for card in DECK
}
CONTRACT_CALLED: dict[tuple[int, str], Event] = {
    (seat, action): Event(
        action,
        f"{SEAT_REFS[seat]} calls {CONTRACT_NAMES[action]}!",
        {"seat": seat, "contract": action},
    )
    for seat in range(6)
    for action in ("thunee", "royals")
}
TRUMP_CANCELLED: tuple[Event, ...] = tuple(
    Event(
        "trump_cancelled",
        f"The trump is cancelled; the trump card goes back to {SEAT_REFS[seat]}'s hand unseen.",
        {"seat": seat},
    )
    for seat in range(6)
)

_AUCTION_TABLES: dict[tuple[bool, bool, bool], dict[int, list[Move]]] = {}


def auction_table(
    single_step: bool, blind_thunee: bool, blind_royals: bool
) -> dict[int, list[Move]]:
    """A table's moves in the calling by the standing call (-1: a seat of the holding team, who
    may not raise his partner), built once per option set: the lists are shared by every game
    and position alike, and never changed (legal lists are only read, and replaced)."""
    key = (single_step, blind_thunee, blind_royals)
    table = _AUCTION_TABLES.get(key)
    if table is None:
        blind = [
            move for move, on in ((BLIND_THUNEE, blind_thunee), (BLIND_ROYALS, blind_royals)) if on
        ]
        table = {-1: [PASS, *blind]}
        for high in (0, *CALL_AMOUNTS):
            table[high] = [PASS, *CALL_MOVES[high, single_step], *blind]
        _AUCTION_TABLES[key] = table
    return table


class Auction(Play):
    """Everything before the first card: redeal, calls, trump, the second packet, the window."""

    def _begin_auction(self, events: list[Event]) -> None:
        self.phase = "auction"
        self.atturn = next_seat(self.dealer, self.players, 2)
        self.passes = 0
        self._auction_auto(events)

    def _holding_team(self) -> int:
        return team_of(self.high_seat if self.high_seat is not None else self.trumpman)

    def _auction_moves(self, seat: int) -> list[Move]:
        """The seat's moves in the calling (a shared list: never change it)."""
        return self._auction_table[-1 if team_of(seat) == self._holding_team() else self.call]

    def _auction_auto(self, events: list[Event]) -> None:
        if len(self._auction_table[-1]) > 1:
            return  # a blind call is open to every seat, so nobody is ever passed automatically
        while self.phase == "auction" and len(self._auction_moves(self.atturn)) == 1:
            events.append(PASSED[self.atturn, True])
            self.passes += 1
            self._auction_next(events)

    def _auction_next(self, events: list[Event]) -> None:
        n = self.players
        if (self.high_seat is not None and self.passes >= n - 1) or self.passes >= n:
            self._end_auction(events)
            return
        self.atturn = next_seat(self.atturn, n)

    def _end_auction(self, events: list[Event]) -> None:
        t = self.high_seat if self.high_seat is not None else self.trumpman
        self.trumper = t
        self.phase = "trump"
        event = AUCTION_OVER[t, self.call, self.high_seat is not None]
        events.append(event)
        self.lines.append(event.text)

    def _last_card_allowed(self, seat: int) -> bool:
        mode = self.options["last_card_trump"]
        if mode == "never":
            return False
        if mode == "always":
            return True
        first = self.hands[seat]
        return len(set(map(SUIT_OF, first))) == len(first)

    def _deal_second(self, events: list[Event], blind_caller: int | None = None) -> None:
        assert self.cur is not None
        lo, hi = self.pk1, self.pk1 + self.pk2
        hands = self.hands
        short = self.trumper if self.last_card else None  # his last card is the trump card
        for s, dealt in enumerate(self.cur.hands):
            if s == blind_caller:
                self.set_aside = list(dealt[lo:hi])
            elif s == short:
                hands[s].extend(dealt[lo : hi - 1])
            else:
                hands[s].extend(dealt[lo:hi])
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
        return len(cards) == 6 and SUIT_CARDS[cards[0][1]].issuperset(cards)

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
            events.append(PASSED[self.atturn, True])
            self._window_pass(events)

    def _window_pass(self, events: list[Event]) -> None:
        self.passes += 1
        if self.passes >= self.players:
            self._end_window(events)
        else:
            self.atturn = next_seat(self.atturn, self.players)

    def _end_window(self, events: list[Event]) -> None:
        assert self.trumper is not None
        counting = other_team(team_of(self.trumper))
        if self.players != 2 and self.options["no_trump_annul"]:
            assert self.trump is not None
            trumps = SUIT_CARDS[self.trump]
            for s in team_seats(counting, self.players):
                if not trumps.isdisjoint(self.hands[s]):
                    break
            else:
                self._annul("no_trump", events, counting)
                return
        self.phase = "play"
        self.turn = next_seat(self.trumper, self.players)

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
        events.append(PASSED[seat, False])
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
        event = CALLED[seat, value]
        events.append(event)
        self.lines.append(event.text)
        self._auction_next(events)
        self._auction_auto(events)

    def _do_blind(self, seat: int, contract: str, events: list[Event]) -> None:
        self.contract = "blind_" + contract
        self.caller = seat
        event = BLIND_CALLED[seat, self.contract]
        events.append(event)
        self.lines.append(event.text)
        self._deal_second(events, blind_caller=seat)
        self.phase = "play"
        self.turn = seat

    def _do_trump(self, seat: int, card: str | None, events: list[Event]) -> None:
        assert self.cur is not None
        if card is None:
            self.last_card = True
            card = self.cur.hands[seat][self.pk1 + self.pk2 - 1]
            self.trump_unseen = not self.options["last_card_visible_to_trumper"]
            event = TRUMP_SET[seat, True]
            events.append(event)
        else:
            self.hands[seat].remove(card)
            event = TRUMP_SET[seat, False]
            events.append(event)
            events.append(TRUMP_SET_PRIVATE[seat, card])
        self.lines.append(event.text)
        self.trump_card = card
        self.trump = card[1]
        self.trump_down = True
        self._deal_second(events)
        self._begin_window(events)

    def _do_thunee(self, seat: int, action: str, events: list[Event]) -> None:
        self.contract = action
        self.caller = seat
        event = CONTRACT_CALLED[seat, action]
        events.append(event)
        self.lines.append(event.text)
        t = self.trumper
        if self.trump_down and self.trump_card is not None and t is not None:
            card = self.trump_card
            self.hands[t].append(card)
            events.append(TRUMP_CANCELLED[t])
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
