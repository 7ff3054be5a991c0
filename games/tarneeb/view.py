"""What people see of a Tarneeb game: the auction's lines, the prompt, the typed view and the
move labels. Each player sees only his own hand."""

from __future__ import annotations

from games.base import Move
from games.cards import SUIT_NAMES, SUIT_SYMBOLS, display
from games.seats import seat_ref
from games.tarneeb.deck import RANK_VALUE, SUIT_ORDER
from games.tarneeb.moves import Call, bid_words
from games.tarneeb.reasons import Reasons
from games.tricks import sort_hand, winning_so_far
from games.views import TARNEEB_PHASES, CallView, LastTrick, TarneebPhase, TarneebView


class View(Reasons):
    """The views and the texts of both games."""

    def _call_line(self, call: Call) -> str:
        seat, action, value, strain = call
        if action == "bid":
            return f"{seat_ref(seat)} bids {bid_words(value, strain)}."
        if action == "double":
            return f"{seat_ref(seat)} doubles."
        return f"{seat_ref(seat)} passes."

    def _prompt(self) -> str:
        if self.winner is not None:
            return ""
        phase = self.phase
        who = seat_ref(self.turn)
        if phase == "auction":
            return f"{who} to bid or pass."
        if phase == "trump":
            return f"{who} to name the trump suit."
        if phase == "play":
            if self.trump is None:
                return f"{who} to lead: the suit led becomes trump."
            return f"{who} to {'lead' if not self.trick else 'play'}."
        return "Waiting for the next deal."

    def view(self, seat: int | None) -> TarneebView:
        """The common keys (see :meth:`Game.view`), the auction, and ``played``: every card played
        so far this hand (public; the computer player counts the masters with it)."""
        last = self.tricks[-1] if self.tricks else None
        lines = [self._call_line(call) for call in self.calls]
        if self.declarer >= 0:
            extra = " doubled" if self.doubled else ""
            strain = self.trump if self.egyptian else None
            lines.append(
                f"Contract: {seat_ref(self.declarer)} {bid_words(self.contract, strain)}{extra}."
            )
        if self.trump is not None:
            lines.append(
                "Trump: no trump."
                if self.trump == "NT"
                else f"Trump: {SUIT_NAMES[self.trump]} {SUIT_SYMBOLS[self.trump]}."
            )
        phase = TarneebPhase.OVER if self.winner is not None else TARNEEB_PHASES[self.phase]
        return TarneebView(
            game=self.name,
            players=4,
            dealer=self.dealer,
            phase=phase,
            to_act=self.to_act(),
            prompt=self._prompt(),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            trick=tuple(self.trick),
            last_trick=LastTrick.of(last),
            trump=self.trump,
            winning=winning_so_far(self.trick, self.trump, RANK_VALUE),
            lines=tuple(lines),
            score=tuple(self.score),
            score_label="points",
            target=self.options["target"],
            bids=tuple(CallView(s, a, v if a == "bid" else None, st) for s, a, v, st in self.calls),
            declarer=self.declarer if self.declarer >= 0 else None,
            contract=self.contract or None,
            doubled=self.doubled,
            team_tricks=tuple(self.team_tricks),
            deal_number=self.deal_no,
            played=tuple(sort_hand(self.played, SUIT_ORDER, RANK_VALUE)),
            hand=None
            if seat is None
            else tuple(sort_hand(self.hands[seat], SUIT_ORDER, RANK_VALUE)),
        )

    def hidden_cards(self, seat: int | None) -> set[str]:
        return {card for s, hand in enumerate(self.hands) if s != seat for card in hand}

    def move_label(self, move: Move, seat: int | None = None) -> str:
        action = move.action
        if action == "play":
            return f"Play {display(move.get('card'))}"
        if action == "pass":
            return "Pass"
        if action == "double":
            return "Double"
        if action == "trump":
            suit = move.get("suit")
            return (
                "No trump"
                if suit == "NT"
                else f"{SUIT_NAMES[suit].capitalize()} {SUIT_SYMBOLS[suit]}"
            )
        if action == "bid":
            strain = move.get("suit")
            if strain is None:
                return f"Bid {move.get('value')}"
            return f"Bid {move.get('value')} {'NT' if strain == 'NT' else SUIT_SYMBOLS[strain]}"
        return action
