"""What people see of a Thunee game: the per-seat and public views, hidden cards, labels.

Hidden information (§1.20): a seat sees its own hand, every call, pass, played card, completed
trick, Jodhi claim (claimant and value; the suit only with ``jodhi_reveal_suit``) and declaration.
The face-down trump card is known only to the trumper (and to nobody for a last-card trump unless
``last_card_visible_to_trumper``); the undealt cards and a blind caller's set-aside cards are known
to nobody. ``hidden_cards`` returns exactly those, and no view or event names them. The revealed
trump card (normal hand, after the first card) is public, even while it sits in the trumper's
hand. A seat's own view adds its hand and ``jodhi_values`` (what its valid claims would score,
while its team's window is open); every view carries the hand's completed ``tricks`` and the
``rules`` a player needs, so a computer player decides from the view alone.
"""

from __future__ import annotations

from typing import Any

from games.base import Move, Outcome
from games.cards import SUIT_SYMBOLS, display
from games.seats import other_team, team_of, team_seats
from games.thunee.deck import SORT_KEY, SUIT_ORDER, seat_ref, strength_for
from games.thunee.reasons import Reasons
from games.tricks import winning_so_far
from games.views import (
    THUNEE_PHASES,
    DeclarationView,
    JodhiClaimView,
    LastTrick,
    ThuneeRules,
    ThuneeView,
    TrickView,
)

PHASE_WORDS = {
    "awaiting_deal": "waiting for the deal",
    "redeal": "weak-hand redeal",
    "auction": "calling",
    "trump": "setting trump",
    "window": "Thunee window",
    "play": "playing",
    "over": "game over",
}


class View(Reasons):
    """Views, hidden cards, prompts, move labels, the outcome and the replay summary."""

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

    def view(self, seat: int | None) -> ThuneeView:
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
        known_trump = self._known_trump(seat)
        reveal_suit = bool(self.options["jodhi_reveal_suit"])
        own = seat is not None and 0 <= seat < n
        return ThuneeView(
            game=self.name,
            players=n,
            dealer=self.dealer,
            phase=THUNEE_PHASES[phase],
            to_act=self._shown_to_act(seat),
            turn=current_turn,
            prompt=self._prompt(),
            hand_sizes=tuple(len(h) for h in self.hands),
            trick=tuple(self.trick),
            last_trick=LastTrick.of(self.last_trick),
            trump=known_trump,
            winning=winning_so_far(
                self.trick, known_trump, strength_for(self.contract), known_trump == self.trump
            ),
            trump_card=trump_card,
            trump_face_down=self.trump_down,
            lines=tuple(self.lines[-12:]),
            score=tuple(self.balls),
            score_label="balls",
            target=self._target(),
            hand_number=len(self.records),
            trumpman=self.trumpman,
            trumper=self.trumper,
            call=self.call,
            caller=self.caller if self.caller is not None else self.high_seat,
            contract=self.contract,
            counting_team=(
                other_team(team_of(self.trumper))
                if self.trumper is not None and self.contract == "normal"
                else None
            ),
            counting_target=self.count_target,
            tricks_won=tuple(sum(1 for w in self.winners if team_of(w) == t) for t in (0, 1)),
            card_points=tuple(self.points),
            jodhi=tuple(self.jodhi_tot),
            jodhi_claims=tuple(
                JodhiClaimView(c.seat, c.value, c.cancelled, c.suit if reveal_suit else None)
                for c in self.claims
            ),
            jodhi_window=self.jodhi_team,
            declaration=(
                DeclarationView(self.declaration, self.declarer)
                if self.declaration and self.declarer is not None
                else None
            ),
            set_aside=len(self.set_aside),
            tricks=tuple(TrickView.of(t, n) for t in self.records[-1].tricks)
            if self.records
            else (),
            rules=ThuneeRules(self._challenge, self.options["khanaak_formula"]),
            hand=tuple(sorted(self.hands[seat], key=SORT_KEY.__getitem__))  # type: ignore[index]
            if own
            else None,
            jodhi_values=self._own_jodhi_values(seat) if own else None,  # type: ignore[arg-type]
        )

    def _own_jodhi_values(self, seat: int) -> dict[str, int]:
        """What each valid Jodhi claim of ``seat`` would score, while its team's window is open.

        Only then: the value (40 in trump) would tell the trump suit before it is known.
        """
        if self.jodhi_team != team_of(seat) or self._known_trump(seat) != self.trump:
            return {}
        values = {}
        for suit in SUIT_ORDER:
            value, valid = self._jodhi_value(seat, suit)
            if valid:
                values[suit] = value
        return values

    def _shown_to_act(self, seat: int | None) -> tuple[int, ...]:
        """The seats to act as ``seat`` may know them: those the game waits on, and ``seat``
        itself. Another seat's optional move (a Jodhi claim) would tell that it holds a king and
        queen of a suit."""
        waiting = self.waiting_for()
        return tuple(other for other in self.to_act() if other in waiting or other == seat)

    def secret_move(self, seat: int, mover: int, move: Move) -> bool:
        """A trump card laid face down stays secret unless it is revealed (a normal hand's first
        card): cancelled by a Thunee or Royals call, it goes back to the hand unseen, and playing
        it later does not tell that it was the trump card."""
        return move.action == "trump" and move.get("card") != self.revealed

    def public_move(self, move: Move) -> Move:
        """A Jodhi claim keeps its suit secret unless ``jodhi_reveal_suit`` is on: the others
        (and a computer player's search) learn only that a claim was made."""
        if move.action == "jodhi" and not self.options["jodhi_reveal_suit"]:
            return Move("jodhi")
        return move

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

    def move_label(self, move: Move, seat: int | None = None) -> str:
        """A button label; ``seat`` (the seat the button is for) lets a Jodhi show its value."""
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
            if seat is None:
                # Without the seat: K and Q of a suit are in one hand at most, so a claim legal
                # for one seat only is that seat's (a caller that knows the seat passes it).
                claimants = [s for s in range(self.players) if move in self.legal_moves(s)]
                seat = claimants[0] if len(claimants) == 1 else None
            if seat is not None and 0 <= seat < self.players:
                value, valid = self._jodhi_value(seat, suit)
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

    def outcome(self) -> Outcome | None:
        if self.winner_team is None:
            return None
        return Outcome(tuple(team_seats(self.winner_team, self.players)), tuple(self.balls))

    def summary(self) -> dict[str, Any]:
        return {
            "deals": [record.to_json(self.players) for record in self.records],
            "score": list(self.balls),
            "winner": self.winner_team,
        }
