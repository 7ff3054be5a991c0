"""Card sprites for the table picture: the emoji card faces of :mod:`bot.card_art`, cut to the
card and scaled once per size (a picture then only pastes them)."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.card_art import BACK_NAME, SCALE, back_image, card_image, draw_suit

# The card inside card_art's 128-px square emoji (left, top, right, bottom).
CARD_BOX = (15, 1, 113, 127)
ASPECT = (CARD_BOX[2] - CARD_BOX[0]) / (CARD_BOX[3] - CARD_BOX[1])
RED = (206, 32, 41)
BLACK = (25, 25, 25)


@cache
def _full(name: str) -> Image.Image:
    """A card (``AS``) or the back (``c_back``) at card_art's size, cut to the card."""
    image = back_image() if name == BACK_NAME else card_image(name)
    return image.crop(CARD_BOX)


def width_for(height: int) -> int:
    return round(height * ASPECT)


@cache
def card(name: str, height: int) -> Image.Image:
    """A card face (``AS``), or the back (:data:`~bot.card_art.BACK_NAME`), ``height`` px tall."""
    return _full(name).resize((width_for(height), height), Image.Resampling.LANCZOS)


def back(height: int) -> Image.Image:
    return card(BACK_NAME, height)


@cache
def pip(suit: str, size: int, ink: tuple[int, int, int] | None = None) -> Image.Image:
    """A suit sign drawn as shapes (no font needed), ``size`` px square."""
    colour = ink or (RED if suit in "HD" else BLACK)
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw_suit(ImageDraw.Draw(image), suit, (0, 0, big, big), (*colour, 255))
    return image.resize((size, size), Image.Resampling.LANCZOS)
