"""A screenshot-like picture of a table and a hand, drawn from the bot's own renderer.

    python -m bench.picture docs/table.png

A real game (Tarneeb, computer players from a fixed seed) is played to a moment worth showing:
a trick on the table and a hand that must follow suit. The table message and the hand are the
embeds and buttons the bot would send (:func:`cogs.render.table_embed`, :func:`hand_embed`,
:func:`cogs.play.hand_view`), with the card pictures of :mod:`bot.card_art` and the table
picture of :mod:`bot.pictures` as the embed's image; this module only lays them out the way
Discord shows them. Not a mock-up: change the renderer and the picture
changes with it.
"""

from __future__ import annotations

import io
import random
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import discord
from discord.types.embed import Embed as EmbedData
from PIL import Image, ImageDraw, ImageFont

from bot.card_art import BACK_NAME, back_image, card_image, emoji_names
from bot.pictures import draw_table
from bot.sessions import LiveTable
from bot.store import SeatRow, TableRow
from cogs.card_faces import FACES
from cogs.play import hand_view
from cogs.render import hand_embed, table_embed
from cogs.table_picture import IMAGE_URL, seating, table_lines
from games.base import Event
from games.levels import choose_move
from games.registry import get_game

WIDTH = 760
PICTURE_WIDTH = 520  # the table picture as Discord shows an embed's image on a desktop
PAD = 16
BACKGROUND = (49, 51, 56)
EMBED = (43, 45, 49)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
WHITE = (242, 243, 245)
BUTTONS = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
# Emojis the fonts lack, drawn as plain signs (the picture is about cards, not emoji fonts).
SIGNS = {"⏳": "›", "⏱": "", "🤖 ": "", "⚠️": "!", "🏆": ""}
NAMES = ("Alice", "Bob", "Carol", "Dan")
SEED = 11
TURN_ENDS_IN = "in 58 seconds"


@cache
def font(style: str = "", size: int = 15) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (it has the suit signs) where installed, else Pillow's own font."""
    name = {"": "DejaVuSans", "b": "DejaVuSans-Bold", "i": "DejaVuSans-Oblique"}[style]
    path = FONT_DIR / f"{name}.ttf"
    if path.exists():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


@cache
def card_picture(name: str, size: int) -> Image.Image:
    image = back_image() if name == BACK_NAME else card_image(name.removeprefix("c_"))
    return image.resize((size, size), Image.Resampling.LANCZOS)


# --- a tiny Discord-markdown layout: bold, italics, inline code, custom emojis ---------------
@dataclass
class Piece:
    text: str = ""
    style: str = ""
    emoji: str | None = None  # an emoji's name: drawn as its picture


TOKEN = re.compile(
    r"<:(?P<emoji>\w+):\d+>|\*\*(?P<bold>.+?)\*\*|\*(?P<it>[^*]+?)\*|`(?P<code>[^`]+)`"
)


def pieces(text: str) -> Iterator[Piece]:
    for sign, plain in SIGNS.items():
        text = text.replace(sign, plain)
    text = re.sub(r"<t:\d+:R>", TURN_ENDS_IN, text)
    text = "".join(ch for ch in text if ord(ch) < 0x1F000)  # no emoji font: leave them out
    at = 0
    for match in TOKEN.finditer(text):
        if match.start() > at:
            yield Piece(text[at : match.start()])
        if match["emoji"]:
            yield Piece(emoji=match["emoji"])
        elif match["bold"]:
            yield from (Piece(p.text, "b", p.emoji) for p in pieces(match["bold"]))
        elif match["it"]:
            yield Piece(match["it"], "i")
        else:
            yield Piece(match["code"], "b")
        at = match.end()
    if at < len(text):
        yield Piece(text[at:])


def draw_text(
    draw: ImageDraw.ImageDraw,
    canvas: Image.Image | None,
    text: str,
    x: int,
    y: int,
    width: int,
    size: int = 15,
    colour: tuple[int, int, int] = TEXT,
) -> int:
    """Lay ``text`` out from (x, y) within ``width``, wrapping words; return the height used.
    With ``canvas`` None it only measures."""
    line_height = int(size * 1.45)
    emoji_size = int(size * 1.5)
    top = y
    for line in text.split("\n"):
        cx = x
        for piece in pieces(line):
            if piece.emoji:
                if cx + emoji_size > x + width:
                    cx, y = x, y + line_height
                if canvas is not None:
                    picture = card_picture(piece.emoji, emoji_size)
                    canvas.paste(picture, (cx, y - 3), picture)
                cx += emoji_size + 2
                continue
            face = font(piece.style, size)
            for word in re.split(r"(\s+)", piece.text):
                if not word:
                    continue
                length = int(draw.textlength(word, font=face))
                if cx + length > x + width and not word.isspace() and cx > x:
                    cx, y = x, y + line_height
                if word.isspace() and cx == x:
                    continue
                if canvas is not None:
                    draw.text((cx, y), word, font=face, fill=colour)
                cx += length
        y += line_height
    return y - top


def embed_height(
    draw: ImageDraw.ImageDraw, embed: EmbedData, width: int, image: Image.Image | None = None
) -> int:
    return draw_embed(draw, None, embed, 0, 0, width, image)


def draw_embed(
    draw: ImageDraw.ImageDraw,
    canvas: Image.Image | None,
    embed: EmbedData,
    x: int,
    y: int,
    width: int,
    image: Image.Image | None = None,
) -> int:
    """An embed as Discord lays it out: colour bar, title, description, fields, its image
    (the table picture), footer."""
    inner_x, inner_w = x + 16, width - 32
    cy = y + 12

    def text(value: str, size: int = 15, colour: tuple[int, int, int] = TEXT) -> None:
        nonlocal cy
        cy += draw_text(draw, canvas, value, inner_x, cy, inner_w, size, colour)

    height_probe = cy
    if canvas is not None:
        total = embed_height(draw, embed, width, image)
        colour = embed.get("color", 0)
        bar = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)
        draw.rounded_rectangle((x, y, x + width, y + total), 6, fill=EMBED)
        draw.rounded_rectangle((x, y, x + 5, y + total), 3, fill=bar)
    if embed.get("title"):
        text(f"**{embed['title']}**", 16, WHITE)
        cy += 4
    if embed.get("description"):
        text(str(embed["description"]))
        cy += 6
    fields = embed.get("fields", [])
    index = 0
    while index < len(fields):
        row = [fields[index]]
        while row[-1].get("inline") and index + len(row) < len(fields):
            if not fields[index + len(row)].get("inline") or len(row) == 3:
                break
            row.append(fields[index + len(row)])
        column = inner_w // len(row)
        tallest = 0
        for n, field in enumerate(row):
            fx = inner_x + n * column
            used = draw_text(draw, canvas, f"**{field['name']}**", fx, cy, column - 8, 14, WHITE)
            used += draw_text(draw, canvas, str(field["value"]), fx, cy + used, column - 8, 14)
            tallest = max(tallest, used)
        cy += tallest + 6
        index += len(row)
    if image is not None:
        if canvas is not None:
            canvas.paste(image, (inner_x, cy))
        cy += image.height + 8
    if embed.get("footer"):
        text(str(embed["footer"]["text"]), 12, MUTED)
    return cy + 8 - height_probe + 12


@dataclass(frozen=True)
class Button:
    """What the picture shows of a button: its label, emoji name, style and whether it is off."""

    label: str
    emoji: str | None = None
    style: int = 2
    disabled: bool = False


def buttons_of(rows: Sequence[dict[str, Any]]) -> list[list[Button]]:
    """The buttons of component rows as discord.py sends them (other components left out)."""
    return [
        [
            Button(
                str(item.get("label") or ""),
                (item.get("emoji") or {}).get("name"),
                int(item.get("style", 2)),
                bool(item.get("disabled")),
            )
            for item in row.get("components", [])
            if item.get("type") == 2
        ]
        for row in rows
    ]


def draw_buttons(
    draw: ImageDraw.ImageDraw,
    canvas: Image.Image | None,
    rows: list[list[Button]],
    x: int,
    y: int,
) -> int:
    """Rows of buttons with their emoji and label, disabled ones faded."""
    cy = y
    face = font("b", 14)
    for row in rows:
        cx = x
        for item in row:
            emoji = item.emoji
            label = item.label
            width = 16 + int(draw.textlength(label, font=face)) + (30 if emoji else 0)
            if canvas is not None:
                colour = BUTTONS.get(item.style, BUTTONS[2])
                if item.disabled:
                    colour = (
                        (colour[0] + BACKGROUND[0]) // 2,
                        (colour[1] + BACKGROUND[1]) // 2,
                        (colour[2] + BACKGROUND[2]) // 2,
                    )
                draw.rounded_rectangle((cx, cy, cx + width, cy + 34), 4, fill=colour)
                lx = cx + 8
                if emoji and emoji.startswith("c_"):
                    picture = card_picture(emoji, 28)
                    if item.disabled:
                        picture = picture.copy()
                        picture.putalpha(picture.getchannel("A").point(lambda a: a // 2))
                    canvas.paste(picture, (lx - 2, cy + 3), picture)
                    lx += 30
                ink = WHITE if not item.disabled else MUTED
                draw.text((lx, cy + 17), label, font=face, fill=ink, anchor="lm")
            cx += width + 8
        cy += 42
    return cy - y


# --- the game shown -------------------------------------------------------------------------
def showcase() -> tuple[LiveTable, int]:
    """A Tarneeb table of four played by computers (a fixed seed) up to Alice (seat 1, the one
    person) having to follow suit to a trick of three, a hand or more into the game."""
    game_class = get_game("tarneeb")
    game = game_class.new({}, seed=SEED)
    rng = random.Random(SEED)
    moves = 0
    events: list[Event] = []
    while game.status == "in_progress":
        seat = game.to_act()[0]
        view = game.view(None)
        hand = game.view(seat).hand or ()
        plays = [m for m in game.legal_moves(seat) if m.action == "play"]
        scored = any(view.score)
        following = len(view.trick) == 3 and 0 < len(plays) < len(hand) >= 8
        if scored and seat == 0 and following:
            break
        events += game.apply(seat, choose_move(game, seat, rng))
        moves += 1
    row = TableRow(
        id=12,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=100,
        game="tarneeb",
        options={},
        seed=SEED,
        first_dealer=game.first_dealer,
        status="playing",
        turn_deadline=1_800_000_000,
        created_at=0,
        updated_at=0,
    )
    seats = {s: SeatRow(12, s, 100 + s if s == 0 else None, NAMES[s], False) for s in range(4)}
    for s in range(1, 4):
        seats[s] = SeatRow(12, s, None, f"🤖 {NAMES[s]}", False)
    table = LiveTable(row, seats)
    table.game = game
    table.moves = moves
    table.recent.append("The game begins: Tarneeb.")
    table.remember(events)
    return table, game.to_act()[0]


def picture(path: Path) -> Path:
    """Draw the table message and the hand of the seat to act, one above the other."""
    FACES.clear()
    FACES.emojis.update(
        {name: discord.PartialEmoji(name=name, id=1000 + n) for n, name in enumerate(emoji_names())}
    )
    table, seat = showcase()
    assert table.game is not None
    view, seats = table.game.view(None), seating(table)
    drawn = draw_table(view, seats, True, table_lines(view, seats))
    embed = table_embed(table, picture_alt=drawn.alt)  # short beside the picture
    embed.set_image(url=IMAGE_URL)  # as the table message shows it
    board = embed.to_dict()
    shown = Image.open(io.BytesIO(drawn.png)).convert("RGB")
    shown = shown.resize((PICTURE_WIDTH, PICTURE_WIDTH * shown.height // shown.width))
    hand = hand_embed(table, seat).to_dict()
    rows = buttons_of(hand_view(table, seat).to_components())
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    width = WIDTH - 2 * PAD - 48
    board_h = embed_height(scratch, board, width, shown)
    hand_h = embed_height(scratch, hand, width)
    buttons_h = draw_buttons(scratch, None, rows, 0, 0)
    height = PAD + 24 + board_h + 50 + PAD + 24 + 22 + hand_h + 8 + buttons_h + PAD
    canvas = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    x = PAD + 48
    y = PAD
    avatar = card_picture(BACK_NAME, 40)
    canvas.paste(avatar, (PAD, y), avatar)
    draw.text((x, y), "CardTable", font=font("b", 15), fill=WHITE)
    draw.text((x + 90, y + 2), "BOT", font=font("b", 11), fill=(88, 101, 242))
    y += 24
    y += draw_embed(draw, canvas, board, x, y, width, shown) + 8
    show = [[Button("Show my hand", style=3)]]
    y += draw_buttons(draw, canvas, show, x, y) + PAD
    draw.text((x, y), "Only you can see this · your hand", font=font("i", 12), fill=MUTED)
    y += 22
    y += draw_embed(draw, canvas, hand, x, y, width) + 8
    draw_buttons(draw, canvas, rows, x, y)
    FACES.clear()
    path.parent.mkdir(parents=True, exist_ok=True)
    canvas.save(path, optimize=True)
    return path


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bench.picture OUT.png", file=sys.stderr)
        return 2
    print(picture(Path(argv[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
