"""A tournament's standings drawn as a table: place, entrant, match points and tie-breaks.

The same rows as the text table (:func:`bot.tournaments.standings.standings_text`), drawn in the
table picture's colours and fonts: names are shaped in any script as at the table
(:func:`bot.pictures.fonts.label`), the first three places in gold, an entrant a computer played
for marked ``*`` with a note beneath. Pure (rows in, PNG bytes out); about 17 ms of CPU for
a field of 32 or more (``python -m bench.tournaments``), so it is drawn off the event loop.

A big field is cut at :data:`MAX_ROWS` with a line saying how many more there are (the text
beside the picture has everyone); the alt text says the whole picture in words.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.pictures.fonts import label
from bot.pictures.table import FELT, GOLD, MUTED, PANEL, PLATE, TEXT, Picture, png_of
from bot.pictures.words import within
from bot.tournaments.standings import (
    ENGLISH,
    Standing,
    StandingsWords,
    number,
    played_cell,
    round_score,
)

WIDTH = 640
TOP = 52  # the title, then the column heads
ROW_H = 26
BOTTOM = 14
MAX_ROWS = 32
ALT_LIMIT = 1000
NAME_X = 56


def _columns(words: StandingsWords, duplicate: bool) -> list[tuple[str, int]]:
    """The numeric columns: their heading and right edge, from the left."""
    _place, _entrant, mp, buchholz, dup, played = words.heads
    widths = [(mp, 56), (buchholz, 90)] + ([(dup, 76)] if duplicate else []) + [(played, 104)]
    right = WIDTH - 16 - sum(width for _head, width in widths)
    columns = []
    for head, width in widths:
        right += width
        columns.append((head, right))
    return columns


def _cells(row: Standing, duplicate: bool, words: StandingsWords) -> list[str]:
    cells = [number(row.points), number(row.buchholz)]
    if duplicate:
        cells.append(number(round_score(row.duplicate)))
    cells.append(played_cell(row, words))
    return cells


def _right(image: Image.Image, sprite: Image.Image, right: int, y: int) -> None:
    image.paste(sprite, (right - sprite.width, y), sprite)


def draw_standings(
    rows: Sequence[Standing],
    title: str,
    *,
    duplicate: bool,
    words: StandingsWords = ENGLISH,
    more: str = "… {n}",
) -> Picture:
    """The standings as a picture with its alt text; ``title`` heads both, ``words`` (in the
    reader's language) are its column heads and notes, ``more`` the line under a field cut
    short (``{n}``: how many more)."""
    shown = list(rows[:MAX_ROWS])
    left_out = len(rows) - len(shown)
    marked = any(row.stand_ins for row in rows)
    notes = ([more.format(n=left_out)] if left_out else []) + ([words.note] if marked else [])
    height = TOP + ROW_H * (len(shown) + 1) + 18 * len(notes) + BOTTOM
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    title_sprite = label(title, 16, TEXT, True, WIDTH - 24)
    image.paste(title_sprite, (12, 14), title_sprite)
    columns = _columns(words, duplicate)
    name_width = columns[0][1] - 56 - NAME_X - 24
    y = TOP
    draw.rounded_rectangle((8, y, WIDTH - 8, y + ROW_H - 2), 6, fill=PANEL)
    for text, x in ((words.heads[0], 16), (words.heads[1], NAME_X)):
        sprite = label(text, 12, MUTED, True, name_width)
        image.paste(sprite, (x, y + 6), sprite)
    for head, right in columns:
        _right(image, label(head, 12, MUTED, True, 100), right, y + 6)
    for index, row in enumerate(shown):
        y = TOP + ROW_H * (index + 1)
        if index % 2:
            draw.rectangle((8, y, WIDTH - 8, y + ROW_H - 1), fill=PLATE)
        ink = GOLD if row.rank <= 3 else TEXT
        place = label(str(row.rank), 14, ink, True)
        image.paste(place, (16, y + 5), place)
        sprite = label(row.entrant.label, 14, ink, True, name_width)
        image.paste(sprite, (NAME_X, y + 5), sprite)
        if row.stand_ins:  # apart from the name: a right-to-left name must not swallow it
            star = label("*", 14, GOLD, True)
            image.paste(star, (NAME_X + sprite.width + 2, y + 5), star)
        for cell, (_head, right) in zip(_cells(row, duplicate, words), columns, strict=True):
            _right(image, label(cell, 14, TEXT), right, y + 5)
    y = TOP + ROW_H * (len(shown) + 1) + 2
    for note in notes:
        sprite = label(note, 11, MUTED, False, WIDTH - 24)
        image.paste(sprite, (16, y), sprite)
        y += 18
    return Picture(png_of(image), standings_alt(rows, title, words))


def standings_alt(rows: Sequence[Standing], title: str, words: StandingsWords = ENGLISH) -> str:
    """The picture in words (its alt text): each place, entrant, match points and Buchholz."""
    said = [
        words.said.format(
            rank=row.rank,
            name=row.entrant.label + ("*" if row.stand_ins else ""),
            points=number(row.points),
            buchholz=number(row.buchholz),
        )
        for row in rows
    ]
    text = f"{title}: " + "; ".join(said) + "."
    if len(text) <= ALT_LIMIT:
        return text
    while said and len(f"{title}: " + "; ".join(said) + "; …") > ALT_LIMIT:
        said.pop()  # a big field: whole places only, never a name or a score cut
    return within(f"{title}: " + "; ".join(said) + "; …", ALT_LIMIT)
