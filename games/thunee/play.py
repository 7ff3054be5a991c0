"""Thunee's play: the cards a seat may play (follow suit, no undercutting), tricks and halves.

A seat must follow the suit led; holding none, it may not play a trump lower than a trump already
in the trick unless it holds only trumps (``undercut_restriction``). The first card of a normal
hand turns the face-down trump card up; in a Thunee, Royals or blind hand it sets the trump suit.
Thunee, Royals and blind contracts follow ``thunee_must_win`` (caller or team) alike; a blind
caller picks up his set-aside cards after as many tricks as his first packet had cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Event
from games.cards import SUIT_NAMES, display
from games.seats import next_seat, other_team, team_of, team_seats
from games.thunee.claims import Claims
from games.thunee.deck import (
    DECK,
    DISPLAY,
    SEAT_REFS,
    SUIT_CARDS,
    SUIT_ORDER,
    card_points,
    seat_ref,
    strength_for,
    winner_of,
)
from games.tricks import TrickRecord, playable

# The events of a play that depend only on the seat and the card, built once and shared by every
# game (events are read-only): a new Event per play costs more than the rest of the play.
PLAYED: dict[tuple[int, str], Event] = {
    (seat, c): Event(
        "card_played", f"{SEAT_REFS[seat]} plays {DISPLAY[c]}.", {"seat": seat, "card": c}
    )
    for seat in range(6)
    for c in DECK
}
TRUMP_BY_LEAD: dict[tuple[int, str], Event] = {
    (seat, suit): Event(
        "trump_revealed",
        f"{SUIT_NAMES[suit].capitalize()} are trump.",
        {"suit": suit, "card": None, "seat": seat},
    )
    for seat in range(6)
    for suit in SUIT_ORDER
}


class Play(Claims):
    """Legal cards, playing a card, finishing a trick, the two-player second half."""

    def _strict_cards(self, seat: int) -> Sequence[str]:
        """The cards the rules allow ``seat`` to play now (ignoring challenge mode)."""
        hand = self.hands[seat]
        trick = self.trick
        allowed = playable(hand, trick)
        if allowed is not hand or not trick:
            return allowed
        trump = self.trump
        led = trick[0][1][1]
        if trump is None or led == trump or not self._undercut:
            return hand
        strength = strength_for(self.contract)
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
        return winner_of(trick, self.trump, self.contract)

    def _do_play(self, seat: int, card: str, events: list[Event]) -> None:
        if self._challenge and card not in self._strict_cards(seat):
            self.illegal.add(seat)
        self.hands[seat].remove(card)
        trick = self.trick
        play = (seat, card)  # the trick's entry and the shared event's key: one tuple
        trick.append(play)
        events.append(PLAYED[play])
        if self.pending:
            self.pending = []
        size = len(trick)
        if size == 1 and self.tricks_done == 0:
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
                event = TRUMP_BY_LEAD[seat, card[1]]
                events.append(event)
                self.lines.append(event.text)
                if self.options["no_trump_annul"]:
                    trumps = SUIT_CARDS[card[1]]
                    for s in team_seats(other_team(team_of(seat)), self.players):  # the opponents
                        if not trumps.isdisjoint(self.hands[s]):
                            break
                    else:
                        self._annul("no_trump", events, None)
                        return
        if self.jodhi_team is not None and size >= self.jodhi_close:
            self.jodhi_team = None
        if size == self.players:
            self._finish_trick(events)
        else:
            self.turn = next_seat(seat, self.players)

    def _finish_trick(self, events: list[Event]) -> None:
        trick = self.trick
        winner = winner_of(trick, self.trump, self.contract)
        pts = card_points([card for _seat, card in trick])
        team = team_of(winner)
        self.points[team] += pts
        self.tricks_done += 1
        self.winners.append(winner)
        self.team_won[team] += 1
        record = TrickRecord.of(trick, winner, pts)
        self.records[-1].tricks.append(record)
        self.last_trick = record
        self.trick = []
        self.turn = winner
        events.append(
            Event(
                "trick_won",
                f"{SEAT_REFS[winner]} wins trick {self.tricks_done} ({pts} points).",
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
                failed = team != team_of(caller)
            if failed:
                self._score_contract(False, team == team_of(caller), events)
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
                        f"{seat_ref(caller)} picks up their other cards.",
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
        counting = other_team(team_of(self.trumper))
        if self.options["no_trump_annul"] and not any(
            c[1] == self.trump for c in self.cur.hands[counting]
        ):
            self._annul("no_trump", events, counting)
