"""The table picture in words: its alt text, for screen readers and when images are off.

Short (Discord shows alt text up to 1024 characters): whose turn, the trick and who wins it so
far, trump, the score; Tunge: the sequence to beat and the stock. Drawn from the same view as
the picture, so it tells no more than the picture does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import N_, _
from bot.pictures.fonts import name_text
from games.cards import display
from games.views import TableView, ThuneeView, TungeView

if TYPE_CHECKING:
    from bot.pictures.table import Seating

LIMIT = 1000
SUIT_WORDS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}


def alt_text(view: TableView, seating: Seating, live: bool) -> str:
    """The picture in words, in the picture's language (``seating.lang``)."""
    lang = seating.lang

    def who(seat: int) -> str:
        return name_text(seating.names, seat)

    title = seating.title or _(lang, "Card table")
    parts = [_(lang, "{title}: {n} seats", title=title, n=view.players)]
    if live and view.to_act:
        people = _(lang, " and ").join(who(s) for s in view.to_act)
        parts.append(_(lang, "{who} to act", who=people))
    if view.trick:
        cards = ", ".join(f"{who(s)} {display(c)}" for s, c in view.trick)
        winning = (
            " (" + _(lang, "{who} winning", who=who(view.winning)) + ")"
            if view.winning is not None
            else ""
        )
        parts.append(_(lang, "trick: {cards}", cards=cards) + winning)
    elif view.last_trick is not None:
        cards = ", ".join(f"{who(s)} {display(c)}" for s, c in view.last_trick.cards)
        won = who(view.last_trick.winner)
        parts.append(_(lang, "last trick: {cards}, won by {who}", cards=cards, who=won))
    if view.trump in SUIT_WORDS:
        parts.append(_(lang, "trump {suit}", suit=_(lang, SUIT_WORDS[view.trump])))
    elif view.trump == "NT":
        parts.append(_(lang, "no trump"))
    elif isinstance(view, ThuneeView) and view.trump_face_down:
        parts.append(_(lang, "trump face down"))
    if isinstance(view, ThuneeView) and view.counting_team is not None:
        team = "AB"[view.counting_team]
        points = view.card_points[view.counting_team] if view.card_points else 0
        parts.append(
            _(
                lang,
                "team {team} counts {points} of {target}",
                team=team,
                points=points,
                target=view.counting_target,
            )
        )
    if isinstance(view, TungeView):
        if view.reference is not None:
            cards = " ".join(display(c) for c in view.reference.cards)
            parts.append(_(lang, "to beat: {cards}", cards=cards))
        parts.append(
            _(lang, "pile {pile}, stock {stock}", pile=len(view.pile), stock=view.stock_size)
        )
    unit = _(lang, view.score_label)  # the games' score words are catalogue texts (engine_words)
    if seating.teams and len(view.score) == 2:
        score = f"A {view.score[0]}, B {view.score[1]} {unit}"
    else:
        score = ", ".join(f"{who(s)} {v}" for s, v in enumerate(view.score)) + f" {unit}"
    parts.append(_(lang, "score: {score}", score=score))
    text = "; ".join(parts) + "."
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"
