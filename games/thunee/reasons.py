"""Why a Thunee move is refused: the explainer behind the one check pattern.

The legal moves are the single source of truth (:meth:`Thunee.check` accepts exactly them); this
module is asked only about a move that is not legal, and says why in one sentence, as a typed
refusal: :class:`NotYourTurn` (someone else is to act, the game is over, the next hand is not
dealt), :class:`Malformed` (not a Thunee move, or a field that can never be right) or
:class:`AgainstRules` with the rule's reason. Each carries a stable ``code`` and its ``params``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import AgainstRules, IllegalMove, Malformed, Move, NotYourTurn
from games.cards import SUIT_NAMES
from games.seats import team_of
from games.thunee.auction import Auction
from games.thunee.deck import seat_ref
from games.thunee.moves import CALL, JODHI, KNOWN_ACTIONS

Reason = IllegalMove | None


def rule(code: str, text: str, **params: Any) -> AgainstRules:
    """A rule's reason, with its stable code."""
    return AgainstRules(text, code=code, params=params)


def malformed(code: str, text: str, **params: Any) -> Malformed:
    return Malformed(text, code=code, params=params)


class Reasons(Auction):
    """The refusal explainer: one ``_why_<action>`` per move action."""

    def refusal(self, seat: int, move: Move) -> IllegalMove:
        """Why ``move`` by ``seat`` is not legal now (called only for moves that are not)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            return malformed("no_such_seat", "There is no such seat at this table.")
        phase = self.phase
        if phase == "over":
            return NotYourTurn("The game is over.", code="game_over")
        if phase == "awaiting_deal":
            return NotYourTurn("The next hand has not been dealt yet.", code="awaiting_deal")
        action = move.action
        if action not in KNOWN_ACTIONS:
            return malformed("unknown_action", "That is not a Thunee move.", action=action)
        explain: Callable[[int, Move], Reason] = getattr(self, "_why_" + action)
        return explain(seat, move) or rule("not_allowed_now", "That move is not allowed now.")

    def _turn(self, seat: int, whose: int, what: str) -> Reason:
        if seat != whose:
            return NotYourTurn(
                f"It is {seat_ref(whose)}'s turn to {what}.", params={"seat": whose, "to": what}
            )
        return None

    def _why_play(self, seat: int, move: Move) -> Reason:
        if self.phase != "play":
            return rule("play_not_yet", "Cards are played once the calling and trump are settled.")
        card = move.get("card")
        if turn := self._turn(seat, self.turn, "play"):
            return turn
        if card not in self.hands[seat]:
            if card in self.set_aside and seat == self.caller:
                return rule("not_picked_up", "You have not picked up that card yet.", card=card)
            return rule("card_not_held", "You don't hold that card.", card=card)
        if self.trick:
            led = self.trick[0][1][1]
            if card[1] != led and any(c[1] == led for c in self.hands[seat]):
                return rule("must_follow", f"You must follow {SUIT_NAMES[led]}.", suit=led)
            return rule(
                "no_undercut", "You may not trump lower than the trump already in this trick."
            )
        return None

    def _why_pass(self, seat: int, move: Move) -> Reason:
        if self.phase == "auction":
            return self._turn(seat, self.atturn, "call")
        if self.phase == "window":
            return self._turn(seat, self.atturn, "call or pass")
        return rule("nothing_to_pass", "There is nothing to pass on now.")

    def _why_call(self, seat: int, move: Move) -> Reason:
        if self.phase == "redeal":
            return rule("redeal_first", "The trumpman must first decide about a redeal.")
        if self.phase != "auction":
            return rule("calling_over", "The calling is over.")
        if turn := self._turn(seat, self.atturn, "call"):
            return turn
        value = move.get("value")
        if type(value) is not int or value not in CALL:
            return malformed(
                "bad_call", "A call is 10, 20, … up to 100, or 104 over a call of 100."
            )
        if team_of(seat) == self._holding_team():
            if self.high_seat is None:
                return rule("dealer_team_opens", "Only the dealer's team may open the calling.")
            if self.high_seat == seat:
                return rule("already_highest", "You already hold the highest call.")
            return rule("no_raising_partner", "Nobody may raise their own partner's call.")
        if value <= self.call:
            return rule(
                "call_too_low", f"Your call must be higher than {self.call}.", call=self.call
            )
        if value == 104:
            return rule("104_over_100", "104 may only be called over a call of 100.")
        if self.call == 100:
            return rule("only_104", "Over 100 the only call is 104.")
        if self._single_step:
            return rule(
                "single_step",
                f"Calls go up one step at a time: the next call is {self.call + 10}.",
                next=self.call + 10,
            )
        return None

    def _why_blind(self, seat: int, move: Move) -> Reason:
        if self.phase != "auction":
            return rule("blind_in_calling", "A blind call can only be made during the calling.")
        if turn := self._turn(seat, self.atturn, "call"):
            return turn
        contract = move.get("contract")
        if contract not in ("thunee", "royals"):
            return malformed("bad_blind", "A blind call is either thunee or royals.")
        word = "Blind Thunee" if contract == "thunee" else "Blind Royals"
        if not self.options["blind_" + contract]:
            return rule("not_played", f"{word} is not played at this table.", what=word)
        return None

    def _why_trump(self, seat: int, move: Move) -> Reason:
        if self.phase in ("redeal", "auction"):
            return rule("trump_after_calling", "Trump is set after the calling.")
        if self.phase != "trump":
            return rule("trump_set", "Trump has already been set.")
        assert self.trumper is not None
        if seat != self.trumper:
            return NotYourTurn(
                f"Only {seat_ref(self.trumper)} sets trump.",
                code="not_trumper",
                params={"seat": self.trumper},
            )
        if move.action == "last_card":
            if self.options["last_card_trump"] == "never":
                return rule("not_played", "Last card is not allowed at this table.")
            return rule(
                "last_card_suits", "Last card needs your first cards to be all of different suits."
            )
        return rule("trump_from_first", "Choose one of your first-packet cards as the trump card.")

    _why_last_card = _why_trump

    def _why_thunee(self, seat: int, move: Move) -> Reason:
        word = "Thunee" if move.action == "thunee" else "Royals"
        if move.action == "royals" and not self.options["royals"]:
            return rule("not_played", "Royals is not played at this table.", what=word)
        if self.phase != "window":
            return rule(
                "thunee_window",
                f"{word} is called after the deal, before the first card is led.",
                what=word,
            )
        if turn := self._turn(seat, self.atturn, "call or pass"):
            return turn
        if self.options["thunee_caller"] != "anyone" and seat != self.trumper:
            return rule(
                "trumper_only", f"Only the trumper may call {word} at this table.", what=word
            )
        if self._six_of_a_suit(seat):
            return rule(
                "six_of_a_suit",
                f"You hold six cards of one suit, so you may not call {word}.",
                what=word,
            )
        return None

    _why_royals = _why_thunee

    def _why_jodhi(self, seat: int, move: Move) -> Reason:
        suit = move.get("suit")
        if suit not in JODHI:
            return malformed("bad_suit", "Name a suit for Jodhi: S, H, D or C.")
        if not self.options["jodhi"]:
            return rule("not_played", "Jodhi is not played at this table.", what="Jodhi")
        if self.phase != "play":
            return rule("jodhi_in_play", "Jodhi may only be claimed while the cards are played.")
        if self.contract != "normal":
            return rule("jodhi_normal_only", "Jodhi is not used in Thunee, Royals or blind hands.")
        if self.jodhi_team is None or team_of(seat) != self.jodhi_team:
            timing = self.options["jodhi_timing"]
            if timing == "team_first_or_third":
                text = "Your team may claim Jodhi only right after its first or third trick."
            elif timing == "hand_tricks_1_and_3":
                text = "Your team may claim Jodhi only right after winning trick 1 or 3."
            else:
                text = "Your team may claim Jodhi only right after winning a trick."
            return rule("jodhi_window", text, timing=timing)
        if (seat, suit) in self.claimed:
            return rule("jodhi_claimed", "You have already claimed Jodhi in that suit.")
        if self.options["jodhi_cards"] == "dealt":
            return rule("jodhi_cards", "Jodhi needs the king and queen of that suit dealt to you.")
        return rule("jodhi_cards", "Jodhi needs the king and queen of that suit in your hand.")

    def _why_double(self, seat: int, move: Move) -> Reason:
        reason = self._declaration_ok(seat, move.action)
        return None if reason is None else rule("declaration", reason, kind=move.action)

    _why_khanaak = _why_double

    def _why_demand_redeal(self, seat: int, move: Move) -> Reason:
        if self.phase != "redeal":
            return rule(
                "no_redeal",
                "A redeal may only be demanded before the calling, by a trumpman whose "
                "first packet is worth 10 points or less.",
            )
        if seat != self.trumpman:
            return NotYourTurn(
                f"Only the trumpman, {seat_ref(self.trumpman)}, decides about a redeal.",
                code="not_trumpman",
                params={"seat": self.trumpman},
            )
        return None

    _why_decline_redeal = _why_demand_redeal

    def _why_challenge(self, seat: int, move: Move) -> Reason:
        if not self.options["challenge_mode"]:
            return rule("challenge_mode", "Challenges are only allowed in challenge mode.")
        if self.phase != "play":
            return rule(
                "challenge_in_play", "A challenge can only be made while the cards are played."
            )
        target = move.get("target")
        if type(target) is not int or not 0 <= target < self.players:
            return malformed("bad_target", "Name the seat you challenge.")
        if team_of(target) == team_of(seat):
            return rule("challenge_opponent", "You may only challenge an opponent.")
        return None

    def _why_murial(self, seat: int, move: Move) -> Reason:
        if not self.options["challenge_mode"]:
            return rule("challenge_mode", "Murial is only used in challenge mode.")
        target = move.get("target")
        suit = move.get("suit")
        if type(target) is not int or not 0 <= target < self.players:
            return malformed("bad_target", "Name the seat whose Jodhi you answer.")
        if team_of(target) == team_of(seat):
            return rule("murial_opponent", "You may only answer an opponent's Jodhi.")
        for index in self.pending:
            claim = self.claims[index]
            if claim.seat == target and claim.suit == suit:
                return rule("murial_answered", "That Jodhi claim has already been answered.")
        return rule("murial_window", "Murial answers a Jodhi claim before the next card is played.")
