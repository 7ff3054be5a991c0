"""The hand summary: every trick of a finished hand, one row each, the winning card framed.

Posted with a trick game's hand result. Everything in it was public when it was drawn: the
tricks were played face up, and the hand is over. Drawn from the tricks alone (as the game's
replay summary records them), never from a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.pictures import sprites
from bot.pictures.fonts import label, name_text
from bot.pictures.table import FELT, GOLD, MUTED, PANEL, TEXT, Picture, Seating, png_of
from games.cards import display
from games.views import TrickView

CARD_H = 44
ROW_H = 54
COLUMN_W = 320
MAX_TRICKS = 26  # a guard: no game here has more tricks in a hand


def trick_seats(trick: TrickView, players: int) -> tuple[int, ...]:
    """Who played each card: the trick's own ``seats``, else every seat from the leader on."""
    if trick.seats is not None:
        return trick.seats
    return tuple((trick.leader + step) % players for step in range(len(trick.cards)))


def draw_hand(tricks: Sequence[TrickView], seating: Seating, players: int, heading: str) -> Picture:
    """The hand's tricks in order (two columns past seven), each with who won it."""
    tricks = list(tricks)[:MAX_TRICKS]
    columns = 1 if len(tricks) <= 7 else 2
    rows = max(1, math.ceil(len(tricks) / columns))
    card_w = sprites.width_for(CARD_H)
    widest = max((len(t.cards) for t in tricks), default=4)
    column_w = max(COLUMN_W, 40 + widest * (card_w + 4) + 110)
    width, height = columns * column_w + 16, 44 + rows * ROW_H + 8
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    sprite = label(heading, 14, TEXT, True, width - 24)
    image.paste(sprite, (12, 12), sprite)
    for index, trick in enumerate(tricks):
        column, row = divmod(index, rows)
        x, y = 8 + column * column_w, 40 + row * ROW_H
        draw.rounded_rectangle((x, y, x + column_w - 8, y + ROW_H - 6), 8, fill=PANEL)
        number = label(str(index + 1), 13, MUTED, True)
        image.paste(number, (x + 10, y + 16), number)
        cx = x + 34
        for seat, card in zip(trick_seats(trick, players), trick.cards, strict=False):
            if seat == trick.winner:
                draw.rounded_rectangle(
                    (cx - 2, y + 3, cx + card_w + 1, y + 6 + CARD_H), 5, fill=GOLD
                )
            face = sprites.card(card, CARD_H)
            image.paste(face, (cx, y + 4), face)
            cx += card_w + 4
        winner = label(name_text(seating.names, trick.winner), 12, TEXT, True, 100)
        image.paste(winner, (cx + 6, y + 18), winner)
    return Picture(png_of(image), hand_words(tricks, seating, players, heading))


def hand_words(tricks: Sequence[TrickView], seating: Seating, players: int, heading: str) -> str:
    """The picture's alt text: each trick's cards and who won it."""
    parts = [heading]
    for index, trick in enumerate(tricks, start=1):
        cards = " ".join(display(card) for card in trick.cards)
        parts.append(f"trick {index}: {cards}, {name_text(seating.names, trick.winner)}")
    text = "; ".join(parts) + "."
    return text if len(text) <= 1000 else text[:999] + "…"
