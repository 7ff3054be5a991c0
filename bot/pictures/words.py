"""The table picture in words: its alt text, for screen readers and when images are off.

Short (Discord shows alt text up to 1024 characters): whose turn, the trick and who wins it so
far, trump, the score; Tunge: the sequence to beat and the stock. Drawn from the same view as
the picture, so it tells no more than the picture does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.pictures.fonts import name_text
from games.cards import SUIT_NAMES, display
from games.views import TableView, ThuneeView, TungeView

if TYPE_CHECKING:
    from bot.pictures.table import Seating

LIMIT = 1000


def alt_text(view: TableView, seating: Seating, live: bool) -> str:
    def who(seat: int) -> str:
        return name_text(seating.names, seat)

    parts = [f"{seating.title or 'Card table'}: {view.players} seats"]
    if live and view.to_act:
        parts.append(" and ".join(who(s) for s in view.to_act) + " to act")
    if view.trick:
        cards = ", ".join(f"{who(s)} {display(c)}" for s, c in view.trick)
        winning = f" ({who(view.winning)} winning)" if view.winning is not None else ""
        parts.append(f"trick: {cards}{winning}")
    elif view.last_trick is not None:
        cards = ", ".join(f"{who(s)} {display(c)}" for s, c in view.last_trick.cards)
        parts.append(f"last trick: {cards}, won by {who(view.last_trick.winner)}")
    if view.trump in SUIT_NAMES:
        parts.append(f"trump {SUIT_NAMES[view.trump]}")
    elif view.trump == "NT":
        parts.append("no trump")
    elif isinstance(view, ThuneeView) and view.trump_face_down:
        parts.append("trump face down")
    if isinstance(view, ThuneeView) and view.counting_team is not None:
        team = "AB"[view.counting_team]
        points = view.card_points[view.counting_team] if view.card_points else 0
        parts.append(f"team {team} counts {points} of {view.counting_target}")
    if isinstance(view, TungeView):
        if view.reference is not None:
            parts.append("to beat: " + " ".join(display(c) for c in view.reference.cards))
        parts.append(f"pile {len(view.pile)}, stock {view.stock_size}")
    if seating.teams and len(view.score) == 2:
        parts.append(f"score: A {view.score[0]}, B {view.score[1]} {view.score_label}")
    else:
        scores = ", ".join(f"{who(s)} {v}" for s, v in enumerate(view.score))
        parts.append(f"score: {scores} {view.score_label}")
    text = "; ".join(parts) + "."
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"
