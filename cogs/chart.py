"""The rating trend as a small PNG, drawn with Pillow for Discord's dark theme.

A line chart of the player's rating after each of their latest rated games: the game's number
along the bottom (whole games, however few), the rating up the side with the zero line, on the
embed's own background. Drawn with Pillow in a few milliseconds: matplotlib took 50 to 100 ms a
chart (most of it laying out the tick labels), and most of a second to import, which a player
asking ``/stats`` waited for. The lines are drawn at twice the size and scaled down, which
smooths them as anti-aliasing would. A chart is a pure function of its points and title, so the
latest charts are kept (:func:`trend_png`): a player's chart is drawn once per game they play.
The axes are named in the reader's language (Pillow's Raqm layout shapes Arabic), the first
game's date as that language writes it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache, lru_cache
from pathlib import Path

from babel.dates import format_date
from PIL import Image, ImageDraw, ImageFont

from bot import i18n
from bot.i18n import _

Rgb = tuple[int, int, int]

# Discord's dark theme: the embed's background, its text, its muted text and lines.
BACKGROUND: Rgb = (0x2B, 0x2D, 0x31)
TEXT: Rgb = (0xDB, 0xDE, 0xE1)
MUTED: Rgb = (0x94, 0x9B, 0xA4)
GRID: Rgb = (0x4E, 0x50, 0x58)
LINE: Rgb = (0x57, 0xF2, 0x87)  # Discord's green: the rating

WIDTH, HEIGHT = 500, 240
SCALE = 2  # drawn at twice the size, then scaled down: smooth lines
LEFT, RIGHT, TOP, BOTTOM = 58, 14, 30, 42  # the plot's margins, in the PNG's pixels
MOST_TICKS = 8  # along the bottom
RATING_TICKS = 5  # up the side, about
X_STEPS = (2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MARKED_GAMES = 40  # a dot per game up to this many; a plain line beyond
KEPT_CHARTS = 256  # a chart is some 15 KB
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans where installed, else Pillow's own font."""
    path = FONT_DIR / "DejaVuSans.ttf"
    if path.exists():
        return ImageFont.truetype(str(path), size * SCALE)
    return ImageFont.load_default(size=size * SCALE)


def x_ticks(count: int) -> list[int]:
    """The games marked along the bottom: whole games, every one when they are few, else at
    most :data:`MOST_TICKS` evenly apart (every 2, 5, 10, 20, 25, 50... games)."""
    if count <= MOST_TICKS:
        return list(range(1, max(count, 1) + 1))
    step = next((s for s in X_STEPS if count // s <= MOST_TICKS), X_STEPS[-1])
    return list(range(step, count + 1, step))


def y_ticks(low: float, high: float) -> list[float]:
    """Round ratings from ``low`` to ``high``, 1, 2, 2.5 or 5 times a power of ten apart."""
    span = max(high - low, 1e-9)
    raw = span / RATING_TICKS
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9)
    return [round(i * step, 10) for i in range(first, math.floor(high / step + 1e-9) + 1)]


def _label(value: float) -> str:
    return f"{value + 0.0:g}".replace("-", "−")  # + 0.0: no "−0"


def axis_words(points: Sequence[tuple[float, float]], lang: str) -> tuple[str, str]:
    """The bottom axis's name (the games since the first one's date) and the side's."""
    if points:
        since = format_date(datetime.fromtimestamp(points[0][0], UTC), "long", locale=lang)
        games = _(lang, "rated games since {date}", date=since)
    else:
        games = _(lang, "rated games")
    return games, _(lang, "rating")


def draw(points: Sequence[tuple[float, float]], title: str, lang: str = i18n.ENGLISH) -> bytes:
    """``points`` are (unix time, rating) oldest first: a line, with a dot per game when they
    are few, and the zero line."""
    s = SCALE
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    pen = ImageDraw.Draw(image)
    left, right, top, bottom = LEFT * s, (WIDTH - RIGHT) * s, TOP * s, (HEIGHT - BOTTOM) * s
    count = len(points)
    ratings = [rating for _, rating in points] or [0.0]
    low, high = min(*ratings, 0.0), max(*ratings, 0.0)
    pad = (high - low) * 0.1 or 1.0
    low, high = low - pad, high + pad

    def x(game: float) -> float:
        return left + (game - 0.5) / max(count, 1) * (right - left)

    def y(rating: float) -> float:
        return bottom - (rating - low) / (high - low) * (bottom - top)

    small, big = _font(10), _font(14)
    for tick in y_ticks(low, high):
        pen.line([(left, y(tick)), (right, y(tick))], fill=GRID, width=s)
        pen.text((left - 5 * s, y(tick)), _label(tick), fill=TEXT, font=small, anchor="rm")
    for game in x_ticks(count):
        pen.line([(x(game), top), (x(game), bottom)], fill=GRID, width=s)
        pen.text((x(game), bottom + 5 * s), str(game), fill=TEXT, font=small, anchor="mt")
    pen.rectangle([left, top, right, bottom], outline=GRID, width=s)
    pen.line([(left, y(0)), (right, y(0))], fill=MUTED, width=s)
    line = [(x(game), y(rating)) for game, rating in enumerate(ratings[:count], start=1)]
    if len(line) > 1:
        pen.line(line, fill=LINE, width=2 * s, joint="curve")
    if count <= MARKED_GAMES:
        for cx, cy in line:
            pen.ellipse([cx - 3 * s, cy - 3 * s, cx + 3 * s, cy + 3 * s], fill=LINE)
    middle = (left + right) / 2
    pen.text((middle, 7 * s), title, fill=TEXT, font=big, anchor="mt")
    games, rating = axis_words(points, lang)
    pen.text((middle, (HEIGHT - 5) * s), games, fill=TEXT, font=_font(11), anchor="mb")
    _side_label(image, rating, (6 * s, (top + bottom) // 2))
    out = io.BytesIO()
    image.reduce(SCALE).save(out, "PNG", compress_level=1)
    return out.getvalue()


def _side_label(image: Image.Image, text: str, centre: tuple[int, int]) -> None:
    """``text`` written upwards, centred at ``centre``."""
    font = _font(11)
    box = font.getbbox(text)
    mask = Image.new("L", (int(box[2]) + 2, int(box[3]) + 2), 0)
    ImageDraw.Draw(mask).text((0, 0), text, fill=255, font=font)
    mask = mask.rotate(90, expand=True)
    corner = (centre[0], centre[1] - mask.height // 2)
    image.paste(Image.new("RGB", mask.size, TEXT), corner, mask)


@lru_cache(maxsize=KEPT_CHARTS)
def _kept(points: tuple[tuple[float, float], ...], title: str, lang: str) -> bytes:
    return draw(points, title, lang)


def trend_png(points: Sequence[tuple[float, float]], title: str, lang: str = i18n.ENGLISH) -> bytes:
    """The chart of ``points`` ((unix time, rating) oldest first) with its axes in ``lang``,
    drawn or as kept."""
    return _kept(tuple((float(when), float(rating)) for when, rating in points), title, lang)
