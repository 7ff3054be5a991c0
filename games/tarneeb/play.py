"""Tarneeb's trick play: a card played, the trick's winner, the trump set by a first lead."""

from __future__ import annotations

from games.base import Event
from games.cards import SUIT_NAMES, SUIT_SYMBOLS, display
from games.seats import next_seat, other_team, seat_ref, team_of
from games.tarneeb.deck import RANK_VALUE
from games.tarneeb.moves import TEAM_NAMES
from games.tarneeb.scoring import Scoring
from games.tricks import TrickRecord, trick_winner


class Play(Scoring):
    """Playing a card; the thirteenth trick scores the hand."""

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
