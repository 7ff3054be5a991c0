"""A tiny trick game that exercises the rules core before and beside the real games.

Two players, six cards (9 T A of spades and hearts), three each; the non-dealer leads; follow
suit when you can; the higher card of the suit led wins. One deal, most tricks wins. Actions:
``{"action": "play", "card": "AS"}``. It is deliberately small, and it is also the reference for
how a game implements :class:`games.base.Game`: typed state (cloned generically by
:mod:`games.state`), the shared trick vocabulary of :mod:`games.tricks`, and the one check pattern
(the legal moves decide; :meth:`refusal` only explains).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Self

from games.base import (
    AgainstRules,
    Deal,
    DealError,
    Event,
    Game,
    IllegalMove,
    Malformed,
    Move,
    Option,
    Outcome,
    Status,
    deal_rng,
)
from games.cards import SUIT_NAMES, display
from games.facts import GameFacts
from games.registry import register
from games.seats import next_seat, seat_ref
from games.tricks import PLAY, TrickRecord, play_problem, playable, strength_table, trick_winner
from games.views import LastTrick, TableView

ORDER = "9TA"
DECK = [r + s for s in "SH" for r in ORDER]
STRENGTH = strength_table(ORDER, "SH")


class TinyPhase(StrEnum):
    """The tiny game's phases: its status words ("tricks" while in progress)."""

    TRICKS = "tricks"
    FINISHED = "finished"
    AWAITING_DEAL = "awaiting_deal"


@register
@dataclass(init=False, eq=False, repr=False)
class TinyGame(Game):
    name = "tiny"
    title = "Tiny"
    teams = False
    OPTIONS = (Option("players", 2, "Number of players.", choices=(2,)),)
    summary_text = "Follow suit; high card wins the trick; most tricks wins."
    facts = GameFacts(  # no match lengths, and no hand score: its hard level plays normal
        presets=(),
        hand_score=None,
        card_points=None,
        card_margin=None,
        search_steps={},
        search_worlds={},
        endgame_solver=False,
    )

    seed: int | None
    dealer: int
    hands: list[list[str]]
    trick: list[tuple[int, str]]
    tricks: list[TrickRecord]
    turn: int

    @classmethod
    def new(
        cls,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        deals: Sequence[Deal] = (),
        first_dealer: int | None = None,
    ) -> Self:
        game = cls()
        game.options = cls.validate_options(options)
        game.players = 2
        game.seed = seed
        game.deals = list(deals)
        game.first_dealer = game.dealer = first_dealer or 0
        game.hands = [[], []]
        game.trick = []
        game.tricks = []
        game.turn = next_seat(game.dealer, 2)
        if game.deals:
            game._start(game.deals[0])
        elif seed is not None:
            cards = DECK[:]
            deal_rng(seed, 0).shuffle(cards)
            deal = Deal((tuple(cards[:3]), tuple(cards[3:])))
            game.deals.append(deal)
            game._start(deal)
        return game

    def _start(self, deal: Deal) -> None:
        if len(deal.hands) != 2 or sorted(c for h in deal.hands for c in h) != sorted(DECK):
            raise DealError("a tiny deal is three cards each of 9 T A in spades and hearts")
        self.hands = [list(hand) for hand in deal.hands]

    @property
    def status(self) -> Status:
        if not self.deals:
            return "awaiting_deal"
        return "finished" if len(self.tricks) == 3 else "in_progress"

    def to_act(self) -> tuple[int, ...]:
        return (self.turn,) if self.status == "in_progress" else ()

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        return [PLAY[card] for card in playable(self.hands[seat], self.trick)]

    def refusal(self, seat: int, move: Move) -> IllegalMove:
        """Why a move that is not among the legal moves is refused (``check`` asks)."""
        if move.action != "play" or len(move.fields) != 1:
            return Malformed("The only move here is to play a card.")
        card = str(move.get("card"))
        if play_problem(self.hands[seat], self.trick, card) == "must_follow":
            led = self.trick[0][1][1]
            return AgainstRules(
                f"You must follow {SUIT_NAMES[led]}.", code="must_follow", params={"suit": led}
            )
        return AgainstRules("That card is not in your hand.", code="not_in_hand")

    def apply(self, seat: int, move: Move) -> list[Event]:
        self.check(seat, move)
        card = move.get("card")
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events = [
            Event(
                "card_played",
                f"{seat_ref(seat)} plays {display(card)}.",
                {"seat": seat, "card": card},
            )
        ]
        if len(self.trick) < 2:
            self.turn = next_seat(seat, 2)
            return events
        winner = trick_winner(self.trick, None, STRENGTH)
        self.tricks.append(TrickRecord.of(self.trick, winner))
        self.trick = []
        self.turn = winner
        events.append(Event("trick_won", f"{seat_ref(winner)} wins the trick.", {"winner": winner}))
        if self.status == "finished":
            events.append(
                Event(
                    "game_over",
                    f"{seat_ref(self.winner())} wins the game.",
                    {"winner": self.winner()},
                    history=True,
                )
            )
        return events

    def score(self) -> list[int]:
        return [sum(1 for t in self.tricks if t.winner == s) for s in range(2)]

    def winner(self) -> int:
        score = self.score()
        return 0 if score[0] > score[1] else 1

    def view(self, seat: int | None) -> TableView:
        hand = None
        if seat is not None:
            hand = tuple(sorted(self.hands[seat], key=lambda c: (c[1], ORDER.index(c[0]))))
        return TableView(
            game=self.name,
            players=2,
            dealer=self.dealer,
            phase=TinyPhase.TRICKS if self.status == "in_progress" else TinyPhase(self.status),
            to_act=self.to_act(),
            prompt=f"{seat_ref(self.turn)} to play" if self.to_act() else "",
            hand_sizes=tuple(len(hand) for hand in self.hands),
            trick=tuple(self.trick),
            last_trick=LastTrick.of(self.tricks[-1]) if self.tricks else None,
            trump=None,
            lines=(),
            score=tuple(self.score()),
            score_label="tricks",
            hand=hand,
        )

    def hidden_cards(self, seat: int | None) -> set[str]:
        return {card for s, hand in enumerate(self.hands) if s != seat for card in hand}

    def move_label(self, move: Move, seat: int | None = None) -> str:
        return display(move.get("card"))

    def outcome(self) -> Outcome | None:
        if self.status != "finished":
            return None
        return Outcome((self.winner(),), tuple(self.score()))

    def summary(self) -> dict[str, Any]:
        finished = self.status == "finished"
        return {
            "deals": [
                {
                    "tricks": [trick.to_json(2) for trick in self.tricks],
                    "result": {"tricks": self.score()} if finished else None,
                    "score_after": self.score() if finished else None,
                }
            ]
            if self.deals
            else [],
            "score": self.score(),
            "winner": self.winner() if finished else None,
        }
