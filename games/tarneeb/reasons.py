"""Why a move is refused in Tarneeb: the typed refusals (:class:`~games.base.AgainstRules` with
a stable ``code`` and ``params``, or :class:`~games.base.Malformed`) beside the English text.

The legal moves are the single source of truth; these only explain an illegal one. Each game's
auction explains its own calls (``_call_refusal``).
"""

from __future__ import annotations

from typing import Any

from games.base import AgainstRules, IllegalMove, Malformed, Move, NotYourTurn
from games.cards import SUIT_NAMES
from games.seats import seat_ref
from games.tarneeb.auction import Auction
from games.tarneeb.moves import KNOWN_ACTIONS, TRUMP_MOVES
from games.tricks import play_problem


def against(text: str, code: str, **params: Any) -> AgainstRules:
    return AgainstRules(text, code=code, params=params)


def malformed(text: str, **params: Any) -> Malformed:
    return Malformed(text, params=params)


class Reasons(Auction):
    """The refusals of the deal, the trump naming and the play."""

    def not_your_turn(self, seat: int) -> IllegalMove:
        if self.winner is not None:
            return NotYourTurn("The game is over.", code="game_over")
        if self.phase == "awaiting_deal":
            return NotYourTurn("The next hand has not been dealt yet.", code="awaiting_deal")
        return NotYourTurn(f"It is {seat_ref(self.turn)}'s turn.", params={"turn": self.turn})

    def refusal(self, seat: int, move: Move) -> IllegalMove:
        action = move.action
        phase = self.phase
        if phase == "play":
            if action == "play":
                return self._play_refusal(seat, move)
            if action == "trump" and not self.egyptian:
                if self._may_call_nt():
                    return against(
                        "Lead a card to make its suit trump, or call no trump.",
                        "lead_or_no_trump",
                    )
                return against("Trump is already settled for this hand.", "trump_settled")
            if action in ("bid", "pass", "double"):
                return against("The auction is over; play a card.", "auction_over")
            return malformed("Play a card.")
        if phase == "trump":
            if action != "trump":
                text = f"{seat_ref(seat)} must name the trump suit first."
                if action in KNOWN_ACTIONS:
                    return against(text, "name_trump_first")
                return malformed(text)
            if TRUMP_MOVES.get(str(move.get("suit"))) != move:
                return malformed(self._suit_prompt())
            return against(self._suit_prompt(), "no_trump_not_allowed")
        return self._call_refusal(seat, move)

    def _play_refusal(self, seat: int, move: Move) -> IllegalMove:
        card = move.get("card")
        problem = play_problem(self.hands[seat], self.trick, card)
        if problem == "not_in_hand":
            return against("You do not have that card.", "not_in_hand", card=card)
        if problem == "must_follow":
            led = self.trick[0][1][1]
            return against(f"You must follow {SUIT_NAMES[led]}.", "must_follow", suit=led)
        return malformed("A play names one card and nothing else.")

    def _suit_prompt(self) -> str:
        if self.options["allow_no_trump"]:
            return "Name a trump suit (spades, hearts, diamonds or clubs) or no trump."
        return "Name a trump suit: spades, hearts, diamonds or clubs."
