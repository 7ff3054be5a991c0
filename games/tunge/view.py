"""What a Tunge seat (or an onlooker) sees: the view, the hidden cards and the move labels.

Hands and the stock are hidden. A card drawn or picked up from the stock is told only to the
taker; cards taken from the pile were face up and stay known (``known_cards``) until played again.
When the game is finished every hand is shown; the stock stays hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from games.base import Move
from games.cards import display
from games.seats import seat_ref
from games.tunge.grammar import DECK, PHANTOM, RANK_INDEX, SUIT_INDEX, Reference, describe
from games.tunge.scoring import hand_value
from games.tunge.state import TungeState
from games.views import ReferenceView, TungePhase, TungeView


class Table(Protocol):
    """What the view reads of a Tunge game (the engine is one), so that this module needs no
    import of the engine, which imports it."""

    @property
    def name(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def state(self) -> TungeState: ...
    @property
    def options(self) -> Mapping[str, Any]: ...

    def to_act(self) -> tuple[int, ...]: ...

    def reference(self) -> Reference: ...


#: display order: aces first, then 2..K; suits S H D C within a rank
SORT_KEY = {card: (((RANK_INDEX[card[0]] + 1) % 13) * 4 + SUIT_INDEX[card[1]]) for card in DECK}


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards as players want them: by rank, aces first (suits never matter in Tunge)."""
    return sorted(cards, key=SORT_KEY.__getitem__)


def build_view(game: Table, seat: int | None) -> TungeView:
    """The view of ``seat`` (``None``: public). Reads the game, never changes its state."""
    state = game.state
    deal = state.deal
    in_deal = state.in_deal
    if state.finished:
        phase, prompt = TungePhase.FINISHED, ""
    elif not in_deal:
        phase, prompt = TungePhase.AWAITING_DEAL, "Waiting for the next deal."
    else:
        phase = TungePhase.END_GAME if not deal.stock else TungePhase.TURNS
        prompt = f"{seat_ref(deal.turn)} to play a sequence or draw a card"
        if not (deal.stock or deal.pile):
            prompt = f"{seat_ref(deal.turn)} to play a sequence or pass"
    ref = game.reference() if in_deal else None
    lines: list[str] = []
    if ref is not None and ref.shown:
        what = "Longest viable sequence" if ref.end_game else "Last sequence"
        lines.append(f"{what}: {describe(ref.shown)}")
    if deal.last_play and deal.last_play_seat is not None and in_deal:
        lines.append(
            f"{seat_ref(deal.last_play_seat)} played "
            f"{' '.join(display(c) for c in deal.last_play)} "
            f"({deal.last_matches} match{'es' if deal.last_matches != 1 else ''})"
        )
    last = state.records[-1].result if state.records else None
    own = deal.hands[seat] if seat is not None else None
    return TungeView(
        game=game.name,
        players=game.players,
        dealer=state.dealer,
        phase=phase,
        to_act=game.to_act(),
        prompt=prompt,
        hand_sizes=tuple(len(hand) for hand in deal.hands),
        trick=(),
        last_trick=None,
        trump=None,
        lines=tuple(lines),
        score=tuple(state.totals),
        score_label="points (lower is better)",
        pile=tuple(deal.pile),
        stock_size=len(deal.stock),
        end_game=in_deal and not deal.stock,
        reference=None
        if ref is None or not ref.shown
        else ReferenceView(ref.shown, ref.cards, ref.shown[0] == PHANTOM, ref.end_game),
        known_cards=tuple(tuple(sort_cards(cards)) for cards in deal.known),
        turns_taken=deal.turns_taken,
        turn_limit=game.options["turn_limit"],
        pickup_count=game.options["pickup_count"],
        deal_number=state.deal_index + 1,
        last_deal=None if last is None else last.to_json(hands=False),
        final_hands=tuple(tuple(sort_cards(hand)) for hand in deal.hands)
        if state.finished
        else None,
        winners=tuple(state.winners) if state.finished else None,
        hand=None if own is None else tuple(sort_cards(own)),
        hand_value=None if own is None else hand_value(own),
    )


def hidden_cards(state: TungeState, seat: int | None) -> set[str]:
    """The stock, and every other seat's cards that did not come face up from the pile."""
    deal = state.deal
    hidden = set(deal.stock)
    if state.finished:
        return hidden
    for other, hand in enumerate(deal.hands):
        if other != seat:
            known = deal.known[other]
            hidden.update(card for card in hand if card not in known)
    return hidden


def move_label(move: Move) -> str:
    if move.action == "play":
        cards = move.get("cards") or ()
        return "Play " + " ".join(display(card) for card in cards)
    return {"draw": "Draw", "pass": "Pass"}.get(move.action, move.action.title())
