"""Why Tunge refuses a move: typed refusals with a stable code, parameters and an English text.

Called only for moves the legal list does not contain (the one check pattern of
:class:`games.base.Game`); the order of the tests decides which reason a player hears when a move
has several faults.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import AgainstRules, IllegalMove, Malformed, Move, NotYourTurn
from games.cards import display
from games.seats import seat_ref
from games.tunge.grammar import (
    ACE_FRONT,
    CONTAINS_PART,
    FULL_DECK,
    MIXED,
    NOT_SEQUENCE,
    REPEATS_ALL,
    REPEATS_PART,
    SINGLE_CARD,
    ZIGZAG,
    Reference,
    describe,
    sequence_fault,
)

#: reason code -> English text (``{reference}`` is the reference, e.g. ``7-8-9``)
TEXTS = {
    SINGLE_CARD: "A single card can only be played after an ace.",
    ACE_FRONT: "An ace can only stand at the front of a sequence.",
    NOT_SEQUENCE: "Those cards are neither a run nor a group.",
    MIXED: "A sequence is either a run or a group, not both.",
    ZIGZAG: "A run must go straight up or straight down.",
    REPEATS_ALL: "That repeats the last sequence {reference}.",
    REPEATS_PART: "That repeats part of the last sequence {reference}.",
    CONTAINS_PART: "That contains part of the last sequence {reference}.",
}


def sequence_error(ranks: str) -> str | None:
    """Why a list of ranks (letters, in play order) is not a sequence (a text), or None."""
    fault = sequence_fault(ranks)
    return None if fault is None else TEXTS[fault]


def not_your_turn(finished: bool, in_deal: bool, turn: int) -> IllegalMove:
    if finished:
        return NotYourTurn("The game is over.", code="game_over")
    if not in_deal:
        return NotYourTurn("The cards have not been dealt yet.", code="not_dealt")
    return NotYourTurn(f"It is {seat_ref(turn)}'s turn.", params={"seat": turn})


def refusal(
    move: Move, hand: Sequence[str], can_draw: bool, has_play: bool, reference: Reference
) -> IllegalMove:
    """The reason a move of the seat to act is not legal (it is not in the legal list)."""
    action = move.action
    if action == "play":
        return _play_refusal(move, hand, reference)
    if action in ("draw", "pass"):
        if move.fields:
            return Malformed(f"A {action} takes no details.", code="no_details")
        if action == "draw":
            return AgainstRules("There is no card to draw.", code="nothing_to_draw")
        if can_draw:
            return AgainstRules("You can still draw, so you cannot pass.", code="can_draw")
        if has_play:
            return AgainstRules("You have a legal play, so you cannot pass.", code="can_play")
        return AgainstRules("That move is not allowed now.")  # pragma: no cover - pass is legal
    return Malformed("In Tunge you can only play a sequence, draw or pass.", code="unknown_action")


def _play_refusal(move: Move, hand: Sequence[str], reference: Reference) -> IllegalMove:
    names = [key for key, _ in move.fields]
    if names == ["card"]:
        return AgainstRules(TEXTS[SINGLE_CARD], code=SINGLE_CARD)
    cards = move.get("cards")
    if (
        names != ["cards"]
        or not isinstance(cards, tuple)
        or not all(isinstance(c, str) for c in cards)
    ):
        return Malformed("Choose the cards to play.", code="no_cards")
    if len(cards) < 2:
        return AgainstRules(TEXTS[SINGLE_CARD], code=SINGLE_CARD)
    if len(set(cards)) != len(cards):
        return Malformed("You listed the same card twice.", code="card_twice")
    for card in cards:
        if card not in hand:
            if card not in FULL_DECK:
                return Malformed(f"{card} is not a card.", code="not_a_card", params={"card": card})
            return AgainstRules(
                f"You do not hold {display(card)}.", code="card_not_held", params={"card": card}
            )
    ranks = "".join(card[0] for card in cards)
    fault = sequence_fault(ranks) or reference.fault(ranks)
    if fault is None:  # pragma: no cover - the legal list holds every such play
        return AgainstRules("That move is not allowed now.")
    if fault in (REPEATS_ALL, REPEATS_PART, CONTAINS_PART):
        shown = describe(reference.shown)
        return AgainstRules(
            TEXTS[fault].format(reference=shown), code=fault, params={"reference": shown}
        )
    return AgainstRules(TEXTS[fault], code=fault)
