"""Thunee's claims: Jodhi (K+Q) claims, the Double and Khanaak declarations, challenge mode.

Challenge mode: a false Jodhi claim is accepted and counts 20 (40 in trump) until an opponent
answers it with Murial before the next card; a Murial against a valid claim costs nothing and the
claim stands. A revoke or illegal undercut is accepted and recorded in hidden state that no view
or event ever shows; a challenge settles the hand (4 balls to the side proven right).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import Event, Move
from games.cards import SUIT_NAMES
from games.seats import team_of
from games.thunee.deck import SUIT_ORDER, seat_ref
from games.thunee.moves import JODHI
from games.thunee.scoring import Scoring
from games.thunee.state import JodhiClaim


class Claims(Scoring):
    """Who may claim or declare what, and what a claim, declaration or challenge does."""

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
        team = team_of(seat)
        if kind == "double":
            if any(team_of(w) != team for w in self.winners):
                return "Only a team that won every trick so far may Double."
            if self._corner_blocks_double(team):
                if (
                    self.options["corner_house_scope"] == "either_team"
                    and self.balls[team] != self._target() - 1
                ):
                    return "A team is at corner house, so nobody may Double."
                return "Your team is at corner house and may not Double."
            return None
        if not any(team_of(c.seat) == team and not c.cancelled for c in self.claims):
            return "Khanaak needs a Jodhi claimed by your team in this hand."
        if self.options["khanaak_requires_lost_trick"] and all(
            team_of(w) == team for w in self.winners
        ):
            return "Khanaak needs your team to have lost one of the earlier tricks."
        return None

    def _do_jodhi(self, seat: int, suit: str, events: list[Event]) -> None:
        value, valid = self._jodhi_value(seat, suit)
        team = team_of(seat)
        self.claims.append(JodhiClaim(seat, suit, value, valid))
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
                        history=True,
                    )
                )

    def _do_challenge(self, seat: int, target: int, events: list[Event]) -> None:
        guilty = target in self.illegal
        team = team_of(seat) if guilty else team_of(target)
        text = f"{seat_ref(seat)} challenges {seat_ref(target)}: " + (
            "an illegal play is proven." if guilty else "no illegal play was made."
        )
        events.append(
            Event(
                "challenge",
                text,
                {"seat": seat, "target": target, "proven": guilty},
                history=True,
            )
        )
        result = self._base_result("challenge")
        result.update({"challenger": seat, "accused": target, "proven": guilty})
        self._award(team, 4, result, events)

    def _do_murial(self, seat: int, target: int, suit: str, events: list[Event]) -> None:
        for index in self.pending:
            claim = self.claims[index]
            if claim.seat == target and claim.suit == suit and not claim.murial:
                claim.murial = True
                if not claim.valid:
                    claim.cancelled = True
                    self.jodhi_tot[team_of(target)] -= claim.value
                    text = (
                        f"{seat_ref(seat)} calls Murial: {seat_ref(target)}'s Jodhi is cancelled."
                    )
                else:
                    text = f"{seat_ref(seat)} calls Murial, but {seat_ref(target)}'s Jodhi stands."
                events.append(
                    Event(
                        "murial",
                        text,
                        {"seat": seat, "target": target, "cancelled": claim.cancelled},
                    )
                )
                self.lines.append(text)
                return
