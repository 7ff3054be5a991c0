"""Fonts for the table picture, and names drawn as shaped text in any script.

The choice: DejaVu Sans from the system (it has Latin, Greek, Cyrillic, Arabic, Hebrew and the
suit signs; Debian's ``fonts-dejavu-core``), then any font of :data:`EXTRA_FONTS` found on the
machine (a Noto CJK font, if an admin installs one, draws Chinese, Japanese and Korean names),
then Pillow's bundled font, which is always there. A name is drawn in the first font that has
every one of its letters; when none has them all, in the font that has the most, the missing
letters left out, and a name left empty by that is shown as ``Seat N``. Text is laid out by
Pillow's Raqm layout where Pillow has it (shaping Arabic, right-to-left runs), else the basic
layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Colour = tuple[int, int, int]

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
EXTRA_FONTS = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"),
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
)
MISSING = "\U0010fffd"  # a private-use letter no font draws: its mask is the font's "no glyph"


def _paths(bold: bool) -> list[Path]:
    main = DEJAVU / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return [path for path in (main, *EXTRA_FONTS) if path.exists()]


@cache
def fonts(size: int, bold: bool = False) -> tuple[Font, ...]:
    """The fonts to try, in order, at ``size`` px; Pillow's own font always last."""
    found: list[Font] = []
    for path in _paths(bold):
        try:
            found.append(ImageFont.truetype(str(path), size))
        except OSError:  # unreadable or not a font: the next one
            continue
    found.append(ImageFont.load_default(size=size))
    return tuple(found)


def font(size: int, bold: bool = False) -> Font:
    """The main font (DejaVu Sans where installed) for the picture's own words."""
    return fonts(size, bold)[0]


@lru_cache(maxsize=4096)
def _has(face: Font, letter: str) -> bool:
    """Whether ``face`` draws ``letter`` (not its "missing glyph" box)."""
    if letter.isspace():
        return True
    try:
        mask = face.getmask(letter)
        missing = face.getmask(MISSING)
    except (UnicodeEncodeError, OSError, ValueError):
        return False
    if mask.size == missing.size and bytes(mask) == bytes(missing):
        return False
    return bool(mask.size[0] > 0)


def pick(text: str, size: int, bold: bool = False) -> tuple[Font, str]:
    """The font to draw ``text`` in and the text it can draw (letters it lacks left out)."""
    best: tuple[int, Font] | None = None
    for face in fonts(size, bold):
        have = sum(_has(face, letter) for letter in text)
        if have == len(text):
            return face, text
        if best is None or have > best[0]:
            best = (have, face)
    assert best is not None
    face = best[1]
    return face, "".join(letter for letter in text if _has(face, letter))


def fit(face: Font, text: str, width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` px."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


# Words kept drawn: each table brings words of its own (its players' names, its title), about
# seven, so a bot with many tables at once needs room for all of theirs; at 512, 200 tables
# drew ~4 words again per picture (4.1 ms a picture instead of 2.6). A word is ~7 KB.
LABELS = 4096


@lru_cache(maxsize=LABELS)
def label(text: str, size: int, colour: Colour, bold: bool = False, width: int = 0) -> Image.Image:
    """``text`` drawn once on a transparent strip (cut to ``width`` px when given): names and
    words are drawn from this cache, so a picture costs no text layout once its words are
    known."""
    face, shown = pick(text, size, bold)
    if width:
        shown = fit(face, shown, width)
    _, _, right, bottom = face.getbbox(shown or " ")
    image = Image.new("RGBA", (max(1, int(right) + 2), max(1, int(bottom) + 2)), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((0, 0), shown, font=face, fill=colour)
    return image


def name_text(names: Sequence[str], seat: int) -> str:
    """A seat's name as the picture shows it: ``Seat N`` when nothing of it can be drawn."""
    name = names[seat].strip() if seat < len(names) else ""
    if not name or not pick(name, 14, True)[1].strip():
        return f"Seat {seat + 1}"
    return name
