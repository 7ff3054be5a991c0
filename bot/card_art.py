"""Card pictures drawn with Pillow: one small image per card (and a back), for emojis.

Drawn, not shipped: no image files to license or keep in step with the card set, and the
same code draws the README's picture. Suit pips are shapes, not font glyphs, so no system font
is needed; ranks use Pillow's bundled font. The images are built to be read at 32 px (an emoji
on a button or in an embed is about 22-32 px): the rank fills the top half, the pip the bottom,
red suits red.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from games.cards import RANKS, SUITS

SIZE = 128  # Discord shows emojis at most 128 px square; it scales larger uploads down
SCALE = 4  # drawn at 4x and scaled down: smooth edges without anti-aliasing by hand
RED = (206, 32, 41, 255)
BLACK = (25, 25, 25, 255)
FACE = (255, 255, 255, 255)
EDGE = (150, 150, 150, 255)
BACK = (38, 84, 160, 255)
BACK_LINE = (210, 222, 245, 255)
BACK_NAME = "c_back"

Box = tuple[float, float, float, float]


def emoji_name(card: str) -> str:
    """The emoji's name for a card: ``c_AS`` (Discord allows 2-32 letters, digits, ``_``)."""
    return f"c_{card}"


def all_cards() -> Iterator[str]:
    """Every card any of the games uses: the 52 of one deck (Thunee's 24 and Tunge's ranks are
    among them; no game uses jokers)."""
    for suit in SUITS:
        for rank in RANKS:
            yield rank + suit


def _ink(suit: str) -> tuple[int, int, int, int]:
    return RED if suit in "HD" else BLACK


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, box: Box, ink: tuple[int, ...]) -> None:
    """A suit pip drawn as shapes inside ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top

    def at(x: float, y: float) -> tuple[float, float]:
        return (left + x * w, top + y * h)

    def circle(x: float, y: float, r: float) -> None:
        cx, cy = at(x, y)
        draw.ellipse((cx - r * w, cy - r * h, cx + r * w, cy + r * h), fill=ink)

    if suit == "D":
        draw.polygon([at(0.5, 0.0), at(0.88, 0.5), at(0.5, 1.0), at(0.12, 0.5)], fill=ink)
    elif suit == "H":
        circle(0.27, 0.3, 0.26)
        circle(0.73, 0.3, 0.26)
        draw.polygon([at(0.03, 0.4), at(0.97, 0.4), at(0.5, 0.98)], fill=ink)
    elif suit == "S":
        circle(0.27, 0.56, 0.24)
        circle(0.73, 0.56, 0.24)
        draw.polygon([at(0.04, 0.5), at(0.96, 0.5), at(0.5, 0.0)], fill=ink)
        draw.polygon([at(0.5, 0.55), at(0.3, 1.0), at(0.7, 1.0)], fill=ink)
    else:  # clubs
        circle(0.5, 0.25, 0.22)
        circle(0.25, 0.58, 0.22)
        circle(0.75, 0.58, 0.22)
        circle(0.5, 0.5, 0.12)
        draw.polygon([at(0.5, 0.45), at(0.3, 1.0), at(0.7, 1.0)], fill=ink)


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _blank(fill: tuple[int, int, int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw, Box]:
    """A transparent square with a rounded card on it; returns the card's box."""
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    card: Box = (0.12 * big, 0.01 * big, 0.88 * big, 0.99 * big)
    draw.rounded_rectangle(card, radius=0.1 * big, fill=fill, outline=EDGE, width=SCALE * 3)
    return image, draw, card


def _finish(image: Image.Image) -> Image.Image:
    return image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def card_image(card: str) -> Image.Image:
    """One card: the rank on top, the suit's pip below, red suits red."""
    rank, suit = ("10" if card[0] == "T" else card[0]), card[1]
    image, draw, (left, top, right, bottom) = _blank(FACE)
    ink = _ink(suit)
    width = right - left
    size = int(0.5 * SIZE * SCALE)
    font = _font(size)
    while draw.textlength(rank, font=font) > 0.86 * width:  # "10" is wide
        size -= SCALE * 2
        font = _font(size)
    cx = (left + right) / 2
    draw.text(
        (cx, top + 0.27 * (bottom - top)),
        rank,
        font=font,
        fill=ink,
        anchor="mm",
        stroke_width=SCALE * 2,  # a bolder stroke reads better at 32 px
        stroke_fill=ink,
    )
    pip = 0.62 * width
    pip_top = top + 0.52 * (bottom - top)
    draw_suit(draw, suit, (cx - pip / 2, pip_top, cx + pip / 2, pip_top + pip * 0.72), ink)
    return _finish(image)


def back_image() -> Image.Image:
    """The back of a card: a blue card with a light lattice."""
    image, draw, (left, top, right, bottom) = _blank(BACK)
    inset = 0.08 * (right - left)
    step = (right - left) / 6
    x = left - (bottom - top)
    while x < right:
        draw.line([(x, bottom - inset), (x + (bottom - top), top + inset)], BACK_LINE, SCALE * 2)
        draw.line([(x, top + inset), (x + (bottom - top), bottom - inset)], BACK_LINE, SCALE * 2)
        x += step
    # trim the lattice to the card's inner edge
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (left + inset, top + inset, right - inset, bottom - inset),
        radius=0.06 * image.width,
        fill=255,
    )
    plain, _, _ = _blank(BACK)
    plain.paste(image, mask=mask)
    return _finish(plain)


def png_bytes(image: Image.Image) -> bytes:
    """The image as a small PNG (Discord takes at most 256 KiB per emoji)."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@cache
def emoji_png(name: str) -> bytes:
    """The PNG for an emoji name (``c_AS`` or ``c_back``), drawn once per process."""
    if name == BACK_NAME:
        return png_bytes(back_image())
    return png_bytes(card_image(name.removeprefix("c_")))


def emoji_names() -> list[str]:
    """Every emoji the bot draws: the 52 cards and the back."""
    return [emoji_name(card) for card in all_cards()] + [BACK_NAME]
