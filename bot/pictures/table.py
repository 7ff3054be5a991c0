"""The table picture: the seats around a felt table, the trick in the middle, trump, score.

One layout serves every game; each game family adds its corner (Thunee's card points against
the target, Tunge's pile, stock and sequence to beat). Everything drawn comes from the view
(what its viewer may see) and :class:`Seating` (the public names); nothing reads a game.

Small and quick by design: 640 × 400, flat colours, sprites and words drawn once and pasted
(:mod:`bot.pictures.sprites`, :func:`bot.pictures.fonts.label`), and the result saved as a
palette PNG (:data:`COLOURS` colours), which keeps a picture near 10 KB.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot import i18n
from bot.card_art import BACK, BACK_LINE, BACK_NAME, EDGE, FACE
from bot.i18n import N_, _, ngettext
from bot.pictures import sprites
from bot.pictures.fonts import Colour, label, name_text
from bot.pictures.words import SUIT_WORDS, TEAM_NAMES, alt_text, counting_text, info_lines
from games.cards import SUIT_NAMES
from games.views import (
    LastTrick,
    TableView,
    ThuneeView,
    TungeView,
    plain,
)

WIDTH, HEIGHT = 640, 400
CENTRE = (WIDTH // 2, 198)
RADII = (236, 150)  # the seats sit on this ellipse
PLATE_W, PLATE_H = 144, 50
TRICK_H = 62  # a card of the trick in progress
SMALL_H = 32  # a card of the last trick, of Tunge's stock
FAN_H = 18  # a card back in a seat's fan
FAN_STEP = 7
COLOURS = 96  # the palette PNG's colours, chosen once (:func:`palette`)

FELT = (21, 71, 45)
TABLE = (30, 100, 62)
TABLE_EDGE = (17, 55, 35)
PLATE = (14, 38, 25)
PLATE_TURN = (74, 62, 18)
PANEL = (16, 48, 31)
GOLD = (246, 196, 64)
TEXT = (240, 241, 236)
MUTED = (160, 186, 170)
TEAM_INK = ((120, 178, 255), (255, 160, 90))
# The phases shown in the middle of the table between tricks (Tarneeb's and the bid cards'; the
# other games' are shown as the game words them).
PHASES = {
    "auction": N_("Auction"),
    "naming trump": N_("Naming trump"),
    "bids": N_("Bids"),
    "waiting for the deal": N_("Waiting for the deal"),
    "game over": N_("Game over"),
    "tricks": N_("Tricks"),
    "exchange": N_("Exchange"),
    "weak-hand redeal": N_("Weak-hand redeal"),
    "calling": N_("Calling"),
    "setting trump": N_("Setting trump"),
    "Thunee window": N_("Thunee window"),
    "playing": N_("Playing"),
}
SWATCH_CARDS = ("AS", "KH", "10D", "QC", "7S")  # a few faces bring every blend of a card's inks
CARD_COLOURS = tuple(
    colour[:3] for colour in (FACE, EDGE, BACK, BACK_LINE, sprites.RED, sprites.BLACK)
)


@dataclass(frozen=True, slots=True)
class Seating:
    """The public facts about the seats that a view leaves out: names, who is away (a computer
    plays for them), and whether the game plays in teams (seats 0, 2, … against 1, 3, …)."""

    names: tuple[str, ...]
    away: tuple[bool, ...] = ()
    teams: bool = False
    title: str = ""
    lang: str = i18n.ENGLISH  # the picture's words: the server's language


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn table: the PNG and a short description of it (the image's alt text)."""

    png: bytes
    alt: str


def picture_key(view: TableView, seating: Seating, live: bool = True) -> str:
    """What a picture shows, as text: equal keys draw equal pictures (so an unchanged table is
    not drawn or uploaded again)."""
    data = {"view": view.to_json(), "seating": plain(_seating_json(seating)), "live": live}
    return json.dumps(data, sort_keys=True, default=str, ensure_ascii=False)


def _seating_json(seating: Seating) -> dict[str, object]:
    return {
        "names": seating.names,
        "away": seating.away,
        "teams": seating.teams,
        "title": seating.title,
        "lang": seating.lang,
    }


def draw_table(
    view: TableView, seating: Seating, live: bool = True, lines: Sequence[str] = ()
) -> Picture:
    """The picture of ``view`` (a seat's or the public's), with ``seating``'s names.

    ``live``: the game is being played (whose turn is marked); a finished or abandoned table
    marks no one. ``lines``: the view's table lines in the picture's language, which the alt
    text tells after the picture (the message's text beside it is short).
    """
    image = _felt(view.players).copy()
    draw = ImageDraw.Draw(image)
    to_act = set(view.to_act) if live else set()
    for seat in range(view.players):
        _seat(image, draw, view, seating, seat, seat in to_act)
    if isinstance(view, TungeView):
        _tunge_centre(image, view, seating)
        _tunge_corner(image, draw, view, seating.lang)
    else:
        _trick(image, draw, view, seating.lang)
        if view.last_trick is not None:
            _last_trick(image, draw, view.last_trick, seating)
        if isinstance(view, ThuneeView):
            _thunee_points(image, draw, view, seating.lang)
    _info(image, draw, view, seating)
    _score(image, draw, view, seating)
    return Picture(png_of(image), alt_text(view, seating, live, lines))


def png_of(image: Image.Image) -> bytes:
    """A palette PNG: a few dozen colours are plenty for flat felt, cards and text, and a third
    the bytes of full colour. Mapped onto one fixed :func:`palette`, not one chosen per picture:
    choosing costs four times the rest of the saving (``python -m bench.table_picture``)."""
    small = image.quantize(palette=palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=3)  # 6 (the default) costs 3x for 15% less
    return out.getvalue()


@cache
def palette() -> Image.Image:
    """The pictures' colours, chosen once: every flat colour they draw exactly (the felt, the
    plates, the inks, the cards' own), and the rest from a swatch of everything they draw (each
    card at each size, each ink of words on each ground), which brings the edges' blends."""
    grounds = (FELT, TABLE, TABLE_EDGE, PLATE, PLATE_TURN, PANEL, GOLD, TEXT)
    inks = (TEXT, MUTED, GOLD, PLATE, *TEAM_INK)
    exact = dict.fromkeys((*grounds, *inks, *CARD_COLOURS))
    swatch = Image.new("RGB", (1280, 60 * len(grounds)), FELT)
    draw = ImageDraw.Draw(swatch)
    cards = [*SWATCH_CARDS, BACK_NAME]
    for row, ground in enumerate(grounds):
        top = row * 60
        draw.rectangle((0, top, swatch.width, top + 59), fill=ground)
        x = 4
        for ink in inks:
            for size, bold in ((11, False), (13, True), (16, True)):
                words = label("Ag 10 ♠ Qk", size, ink, bold)
                _paste(swatch, words, x, top + 2)
                x += words.width + 2
        x = 4
        for card in cards:
            for height in (FAN_H, SMALL_H, TRICK_H):
                _paste(swatch, sprites.card(card, height), x, top + 60 - height)
                x += sprites.width_for(height) // 2 + 2
        for index, suit in enumerate(SUIT_NAMES):
            _paste(swatch, sprites.pip(suit, 18), 1000 + 24 * index, top + 4)
    found = swatch.quantize(
        colors=COLOURS - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    ).getpalette()
    assert found is not None
    blends = [tuple(found[i : i + 3]) for i in range(0, len(found), 3)]
    # Pillow maps a pixel to the colour nearest its cell of 4 steps a side, not nearest to the
    # pixel: a blend next to a flat colour would take that colour's pixels, a step off.
    colours = [*exact, *(b for b in blends if not any(_near(b, e) for e in exact))]
    chosen = Image.new("P", (1, 1))
    chosen.putpalette([value for colour in colours for value in colour])
    return chosen


def _near(colour: Sequence[int], other: Sequence[int]) -> bool:
    return max(abs(a - b) for a, b in zip(colour, other, strict=True)) <= 6


# --- the table and the seats -----------------------------------------------------------------
@cache
def _felt(players: int) -> Image.Image:
    """The empty table (the same for every picture of a table size)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    cx, cy = CENTRE
    rx, ry = RADII[0] - 28, RADII[1] - 30
    draw.ellipse((cx - rx - 6, cy - ry - 6, cx + rx + 6, cy + ry + 6), fill=TABLE_EDGE)
    draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=TABLE)
    return image


def seat_point(seat: int, players: int) -> tuple[float, float]:
    """Where a seat sits: seat 1 at the bottom, the others around the table in turn."""
    angle = math.pi / 2 + 2 * math.pi * seat / players
    return CENTRE[0] + RADII[0] * math.cos(angle), CENTRE[1] + RADII[1] * math.sin(angle)


def _plate_box(seat: int, players: int) -> tuple[int, int, int, int]:
    x, y = seat_point(seat, players)
    left = int(min(max(x - PLATE_W / 2, 6), WIDTH - PLATE_W - 6))
    top = int(min(max(y - PLATE_H / 2, 6), HEIGHT - PLATE_H - 6))
    return left, top, left + PLATE_W, top + PLATE_H


def _paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    image.paste(sprite, (int(x), int(y)), sprite)


def _seat(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: TableView,
    seating: Seating,
    seat: int,
    turn: bool,
) -> None:
    """A seat's plate: name, team colour, dealer chip, cards left as backs, away."""
    left, top, right, _bottom = _plate_box(seat, view.players)
    image.paste(_plate(view.players, seat, turn, seating.teams), (left, top))
    away = seat < len(seating.away) and seating.away[seat]
    name = name_text(seating.names, seat)
    _paste(image, label(name, 14, TEXT, True, PLATE_W - (74 if away else 40)), left + 12, top + 6)
    if away:  # a computer plays for them meanwhile
        _paste(image, label(_(seating.lang, "away"), 11, GOLD), right - 58, top + 9)
    if seat == view.dealer:
        chip = (right - 22, top + 5, right - 6, top + 21)
        draw.ellipse(chip, fill=TEXT)
        _paste(image, label("D", 10, PLATE, True), chip[0] + 4, chip[1] + 2)
    size = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
    known: Sequence[str] = ()
    if isinstance(view, TungeView) and seat < len(view.known_cards):
        known = view.known_cards[seat][:size]
    x = left + 12
    y = top + 28
    shown = min(size, 8)
    if shown:
        image.paste(_fan(tuple(known[:shown]), shown, turn), (x, y - 2))
    count_x = x + (shown - 1) * FAN_STEP + sprites.width_for(FAN_H) + 5 if shown else x
    _paste(image, label(_cards(size, seating.lang), 11, MUTED), count_x, y + 2)


@cache
def _plate(players: int, seat: int, turn: bool, teams: bool) -> Image.Image:
    """A seat's plate with the table beneath its corners, ready to paste: the plates are drawn
    first, on the bare table, so pasting this is the same pixels as drawing it, and cheaper."""
    left, top, right, bottom = _plate_box(seat, players)
    image = _felt(players).crop((left, top, right + 1, bottom + 1))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, right - left, bottom - top),
        8,
        fill=PLATE_TURN if turn else PLATE,
        outline=GOLD if turn else None,
        width=2,
    )
    if teams:
        draw.rounded_rectangle((3, 6, 7, bottom - top - 6), 2, fill=_team(seat))
    return image


@lru_cache(maxsize=256)
def _fan(known: tuple[str, ...], shown: int, turn: bool) -> Image.Image:
    """A seat's cards as its plate shows them (``known`` face up, then backs), on the plate's
    colour: one paste instead of one a card, the same pixels."""
    width = sprites.width_for(FAN_H)
    image = Image.new("RGB", ((shown - 1) * FAN_STEP + width, FAN_H), PLATE_TURN if turn else PLATE)
    for index in range(shown):
        face = sprites.card(known[index], FAN_H) if index < len(known) else sprites.back(FAN_H)
        _paste(image, face, index * FAN_STEP, 0)
    return image


def _cards(count: int, lang: str = i18n.ENGLISH) -> str:
    return ngettext(lang, "{n} card", "{n} cards", count)


def _team(seat: int) -> Colour:
    return TEAM_INK[seat % 2]


# --- tricks ------------------------------------------------------------------------------------
def _trick(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, lang: str = i18n.ENGLISH
) -> None:
    """The trick in progress, each card in front of its player; the card winning it so far
    (as the viewer can tell) framed in gold. No trick: the phase in words."""
    if not view.trick:
        phase = str(view.phase)
        _centre_words(image, _(lang, PHASES[phase]) if phase in PHASES else phase.capitalize())
        return
    width = sprites.width_for(TRICK_H)
    for seat, card in view.trick:
        sx, sy = seat_point(seat, view.players)
        x = CENTRE[0] + 0.44 * (sx - CENTRE[0]) - width / 2
        y = CENTRE[1] + 0.5 * (sy - CENTRE[1]) - TRICK_H / 2
        if seat == view.winning:
            draw.rounded_rectangle(
                (x - 4, y - 4, x + width + 3, y + TRICK_H + 3), 7, outline=GOLD, width=3
            )
        _paste(image, sprites.card(card, TRICK_H), x, y)


def _centre_words(image: Image.Image, words: str) -> None:
    sprite = label(words, 16, MUTED, True, 300)
    _paste(image, sprite, CENTRE[0] - sprite.width / 2, CENTRE[1] - sprite.height / 2)


def _last_trick(
    image: Image.Image, draw: ImageDraw.ImageDraw, last: LastTrick, seating: Seating
) -> None:
    """Bottom left: the last trick, small, its winning card framed, and who won it."""
    width = sprites.width_for(SMALL_H)
    box = (8, HEIGHT - 74, 8 + max(150, 16 + len(last.cards) * (width + 4)), HEIGHT - 8)
    draw.rounded_rectangle(box, 8, fill=PANEL)
    winner = name_text(seating.names, last.winner)
    said = _(seating.lang, "Last trick: {who}", who=winner)
    _paste(image, label(said, 11, MUTED, False, 200), box[0] + 8, box[1] + 5)
    x, y = box[0] + 8, box[1] + 24
    for seat, card in last.cards:
        if seat == last.winner:
            draw.rounded_rectangle((x - 2, y - 2, x + width + 1, y + SMALL_H + 1), 4, fill=GOLD)
        _paste(image, sprites.card(card, SMALL_H), x, y)
        x += width + 4


# --- corners: what the game is, the score ----------------------------------------------------
def _info(image: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, seating: Seating) -> None:
    """Top left: the title, trump, and the game's own lines (contract, tricks, deal)."""
    lines = info_lines(view, seating)
    box = (8, 8, 176, 8 + 44 + 16 * len(lines))
    draw.rounded_rectangle(box, 8, fill=PANEL)
    if seating.title:
        _paste(image, label(seating.title, 11, MUTED, False, 156), box[0] + 8, box[1] + 5)
    x, y = box[0] + 8, box[1] + 22
    trump = view.trump
    lang = seating.lang
    if trump in SUIT_NAMES:
        _paste(image, sprites.pip(trump, 18), x, y)
        suit = _(lang, SUIT_WORDS[trump])
        _paste(image, label(_(lang, "{suit} trump", suit=suit), 13, TEXT, True), x + 24, y + 1)
    elif trump == "NT":
        _paste(image, label(_(lang, "No trump"), 13, TEXT, True), x, y + 1)
    elif isinstance(view, ThuneeView) and view.trump_face_down:
        _paste(image, sprites.back(18), x + 2, y)
        _paste(image, label(_(lang, "trump face down"), 13, TEXT, True), x + 24, y + 1)
    elif isinstance(view, TungeView):
        deal = _(lang, "Deal {n}", n=view.deal_number)
        _paste(image, label(deal, 13, TEXT, True), x, y + 1)
    else:
        _paste(image, label(_(lang, "No trump yet"), 13, MUTED, True), x, y + 1)
    for index, line in enumerate(lines):
        _paste(image, label(line, 12, TEXT, False, 156), x, y + 24 + 16 * index)


def _score(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, seating: Seating
) -> None:
    """Top right: the score per team (or per player) and what the game is played to."""
    lang = seating.lang
    rows: list[tuple[str, int, Colour]] = []
    if seating.teams and len(view.score) == 2:
        rows = [
            (_(lang, "Team {team}", team=TEAM_NAMES[t]), view.score[t], TEAM_INK[t]) for t in (0, 1)
        ]
    else:
        rows = [(name_text(seating.names, s), v, TEXT) for s, v in enumerate(view.score)]
    target = getattr(view, "target", None)
    unit = view.score_label.split(" (")[0]
    unit = _(lang, unit) if unit == "points" else unit
    caption = (
        _(lang, "Score ({unit}, to {target})", unit=unit, target=target)
        if isinstance(target, int)
        else _(lang, "Score ({unit})", unit=unit)
    )
    box = (WIDTH - 176, 8, WIDTH - 8, 8 + 26 + 17 * len(rows))
    draw.rounded_rectangle(box, 8, fill=PANEL)
    _paste(image, label(caption, 11, MUTED, False, 156), box[0] + 8, box[1] + 5)
    for index, (who, value, ink) in enumerate(rows):
        y = box[1] + 22 + 17 * index
        _paste(image, label(who, 13, ink, True, 110), box[0] + 8, y)
        number = label(str(value), 13, TEXT, True)
        _paste(image, number, box[2] - 10 - number.width, y)


# --- Thunee ------------------------------------------------------------------------------------
def _thunee_points(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: ThuneeView, lang: str = i18n.ENGLISH
) -> None:
    """Bottom right: the counting team's card points against what it must reach."""
    team = view.counting_team
    if team is None or not view.counting_target or len(view.card_points) != 2:
        return
    points = view.card_points[team]
    box = (WIDTH - 196, HEIGHT - 60, WIDTH - 8, HEIGHT - 8)
    draw.rounded_rectangle(box, 8, fill=PANEL)
    text = counting_text(view, lang)
    _paste(image, label(text, 12, TEXT, True, 172), box[0] + 8, box[1] + 6)
    bar = (box[0] + 8, box[1] + 28, box[2] - 8, box[1] + 40)
    draw.rounded_rectangle(bar, 4, fill=PLATE)
    share = min(1.0, points / view.counting_target)
    if share > 0:
        fill = (bar[0], bar[1], bar[0] + max(8, int((bar[2] - bar[0]) * share)), bar[3])
        draw.rounded_rectangle(fill, 4, fill=TEAM_INK[team])


# --- Tunge -------------------------------------------------------------------------------------
def _tunge_centre(image: Image.Image, view: TungeView, seating: Seating) -> None:
    """The pile: its top sequence face up (the sequence to beat), the cards under it peeking
    out, its size; the winners when the game is over."""
    lang = seating.lang
    if view.winners is not None:
        who = " & ".join(name_text(seating.names, s) for s in view.winners)
        _centre_words(
            image, _(lang, "Game over: {who} won", who=who) if who else _(lang, PHASES["game over"])
        )
        return
    reference = view.reference
    top: Sequence[str] = reference.cards if reference is not None else view.pile[-1:]
    if not view.pile:
        _centre_words(image, _(lang, "The pile is empty"))
        return
    width = sprites.width_for(TRICK_H)
    step = int(width * 0.62)
    under = [card for card in view.pile[-(len(top) + 3) :] if card not in top][-3:]
    row = len(top) * step + width - step
    x = CENTRE[0] - row / 2
    y = CENTRE[1] - TRICK_H / 2 + 6
    for index, card in enumerate(under):
        _paste(image, sprites.card(card, TRICK_H), x - 18 + index * 6, y - 12 + index * 4)
    for index, card in enumerate(top):
        _paste(image, sprites.card(card, TRICK_H), x + index * step, y)
    if reference is not None:
        ranks = "-".join(reference.ranks)
        words = (
            _(lang, "Longest viable: {ranks}", ranks=ranks)
            if reference.end_game
            else _(lang, "To beat: {ranks}", ranks=ranks)
        )
    else:
        words = _(lang, "Top of the pile")
    pile = _(lang, "pile {n}", n=len(view.pile))
    caption = label(f"{words} · {pile}", 12, TEXT, True, 300)
    _paste(image, caption, CENTRE[0] - caption.width / 2, y - 26)


def _tunge_corner(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: TungeView, lang: str = i18n.ENGLISH
) -> None:
    """Bottom right: the stock, face down, and how many cards it holds."""
    box = (WIDTH - 150, HEIGHT - 60, WIDTH - 8, HEIGHT - 8)
    draw.rounded_rectangle(box, 8, fill=PANEL)
    if view.stock_size:
        _paste(image, sprites.back(SMALL_H + 4), box[0] + 10, box[1] + 8)
    words = _(lang, "Stock: {n}", n=view.stock_size) if view.stock_size else _(lang, "Stock empty")
    _paste(image, label(words, 13, TEXT, True), box[0] + 48, box[1] + 10)
    if view.end_game:
        _paste(image, label(_(lang, "end game"), 11, GOLD), box[0] + 48, box[1] + 30)
