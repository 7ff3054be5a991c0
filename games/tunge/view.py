"""What a Tunge seat (or an onlooker) sees: the view, the hidden cards and the move labels.

Hands and the stock are hidden. A card drawn or picked up from the stock is told only to the
taker; cards taken from the pile were face up and stay known (``known_cards``) until played again.
When the game is finished every hand is shown; the stock stays hidden.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from games.base import Move
from games.cards import display
from games.seats import seat_ref
from games.tunge.grammar import DECK, PHANTOM, RANK_INDEX, SUIT_INDEX, describe
from games.tunge.scoring import hand_value
from games.tunge.state import TungeState

if TYPE_CHECKING:
    from games.tunge.engine import Tunge

#: display order: aces first, then 2..K; suits S H D C within a rank
SORT_KEY = {card: (((RANK_INDEX[card[0]] + 1) % 13) * 4 + SUIT_INDEX[card[1]]) for card in DECK}


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards as players want them: by rank, aces first (suits never matter in Tunge)."""
    return sorted(cards, key=SORT_KEY.__getitem__)


def build_view(game: Tunge, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: public). Reads the game, never changes its state."""
    state = game.state
    deal = state.deal
    in_deal = state.in_deal
    if state.finished:
        phase, prompt = "finished", ""
    elif not in_deal:
        phase, prompt = "awaiting_deal", "Waiting for the next deal."
    else:
        phase = "end game" if not deal.stock else "turns"
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
    data: dict[str, Any] = {
        "game": game.name,
        "players": game.players,
        "dealer": state.dealer,
        "phase": phase,
        "to_act": list(game.to_act()),
        "prompt": prompt,
        "hand_sizes": [len(hand) for hand in deal.hands],
        "trick": [],
        "last_trick": None,
        "trump": None,
        "lines": lines,
        "score": list(state.totals),
        "score_label": "points (lower is better)",
        "pile": list(deal.pile),
        "stock_size": len(deal.stock),
        "end_game": in_deal and not deal.stock,
        "reference": None
        if ref is None or not ref.shown
        else {
            "ranks": list(ref.shown),
            "cards": list(ref.cards),
            "phantom_ace": ref.shown[0] == PHANTOM,
            "end_game": ref.end_game,
        },
        "known_cards": [sort_cards(cards) for cards in deal.known],
        "turns_taken": deal.turns_taken,
        "turn_limit": game.options["turn_limit"],
        "pickup_count": game.options["pickup_count"],
        "deal_number": state.deal_index + 1,
        "last_deal": None,
    }
    if state.records and state.records[-1].result is not None:
        data["last_deal"] = state.records[-1].result.to_json(hands=False)
    if state.finished:
        data["final_hands"] = [sort_cards(hand) for hand in deal.hands]
        data["winners"] = list(state.winners)
    if seat is not None:
        data["hand"] = sort_cards(deal.hands[seat])
        data["hand_value"] = hand_value(deal.hands[seat])
    return data


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
