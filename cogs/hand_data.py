"""A hand's components as plain data, as Discord takes them: what the hand's ``View``
(:func:`cogs.play.view_of`) would send, built without discord.py's ui objects.

A hand is drawn about twice a click (the click's answer, the refresh once the computers played),
and its dozen buttons and menus as ui objects cost more than the rest of its edit. The data is
the view's exactly: tests/cogs/test_hand_limits.py compares the two on every hand it draws, card
pictures included. The view stays for what discord.py sends itself (a followup after a deferred
answer, the last edit of a hand about to go stale).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import _
from cogs.card_faces import FACES
from cogs.render import cards_text, hand_layout, select_placeholder, sequence_step
from games.base import Move
from games.cards import display

if TYPE_CHECKING:
    from cogs.play import HandParts

RED_SUITS = ("H", "D")
SELECT = 3  # Discord's component type of a select menu


def components_of(parts: HandParts) -> list[dict[str, Any]]:
    """A hand's components as Discord takes them, built as plain data: exactly what
    ``view_of(parts).to_components()`` gives (tests/cogs/test_hand_limits.py compares the two
    on every hand it draws), without discord.py's ui objects, which cost more than the rest of
    a hand's edit; a hand is drawn about twice a click."""
    rows: dict[int, list[dict[str, Any]]] = {}
    widths = [0] * 5

    def add(row: int, item: dict[str, Any]) -> None:
        rows.setdefault(row, []).append(item)
        widths[row] += 5 if item["type"] == SELECT else 1

    table_id, mark, lang = parts.table_id, parts.mark, parts.lang
    label_of = dict(zip(parts.moves, parts.labels, strict=True))
    layout = hand_layout(parts.cards, parts.moves)
    if layout.sequences:
        step = sequence_step(layout.sequences, parts.prefix)
        prefix = parts.prefix
        if step.next_ranks:
            word = "Add {card}" if prefix else "Start with {card}"
            options = [
                _option(_(lang, word, card=display(card)), rank, FACES.emoji(card))
                for rank, card in step.next_ranks.items()
            ][:25]
            placeholder = (
                _(lang, "Add a card to your sequence") if prefix else _(lang, "Start a sequence")
            )
            add(0, _select(f"ct:q:{table_id}:{mark}:{prefix}", placeholder, options))
        if step.complete is not None:
            play = _(lang, "Play {cards}", cards=cards_text(step.complete.get("cards")))
            add(1, _move_button(table_id, mark, step.complete, play, discord.ButtonStyle.success))
        if prefix:
            restart = f"ct:qr:{table_id}:{mark}"
            add(1, _button(_(lang, "Start over"), discord.ButtonStyle.secondary, restart))
    row = 0
    for index, (card, move) in enumerate(layout.card_buttons):
        row = index // 5
        style = (
            discord.ButtonStyle.danger if card[1] in RED_SUITS else discord.ButtonStyle.secondary
        )
        face = FACES.emoji(card)
        if move is None:
            item = _button(display(card), style, f"ct:x:{table_id}:{card}", face, disabled=True)
        else:
            item = _move_button(table_id, mark, move, display(card), style, face)
        add(row, item)
    next_row = (row + 1) if layout.card_buttons else (2 if layout.sequences else 0)
    if layout.card_select:
        labels = [label_of[m] for m in layout.card_select]
        choose = _(lang, "Choose a card to play")
        add(next_row, _move_select(table_id, mark, 0, layout.card_select, labels, choose))
        next_row += 1
    for move in layout.action_buttons:
        primary = discord.ButtonStyle.primary
        add(next_row, _move_button(table_id, mark, move, label_of[move], primary))
    for index, chunk in enumerate(layout.selects, start=1):
        labels = [label_of[m] for m in chunk]
        placeholder = select_placeholder(labels, len(layout.selects) > 1, lang)
        add(next_row + index - 1, _move_select(table_id, mark, index, chunk, labels, placeholder))
    if parts.hint:
        room = [row for row in range(5) if widths[row] < 5]
        if room:
            hint = _button(
                _(lang, "Hint"), discord.ButtonStyle.secondary, f"ct:hint:{table_id}", "💡"
            )
            add(room[-1], hint)
    return [{"type": 1, "components": rows[row]} for row in sorted(rows)]


def _emoji(emoji: discord.PartialEmoji | str | None) -> dict[str, Any] | None:
    if emoji is None:
        return None
    partial = discord.PartialEmoji.from_str(emoji) if isinstance(emoji, str) else emoji
    return partial.to_dict()  # type: ignore[return-value]


def _button(
    label: str,
    style: discord.ButtonStyle,
    custom_id: str,
    emoji: discord.PartialEmoji | str | None = None,
    *,
    disabled: bool = False,
) -> dict[str, Any]:
    item: dict[str, Any] = {"type": 2, "style": style.value, "disabled": disabled}
    if label:
        item["label"] = label
    item["custom_id"] = custom_id
    face = _emoji(emoji)
    if face:
        item["emoji"] = face
    return item


def _move_button(
    table_id: int,
    mark: int,
    move: Move,
    label: str,
    style: discord.ButtonStyle,
    emoji: discord.PartialEmoji | None = None,
) -> dict[str, Any]:
    """A :class:`MoveButton`'s data."""
    return _button(label[:80], style, f"ct:m:{table_id}:{mark}:{move.code}", emoji)


def _option(label: str, value: str, emoji: discord.PartialEmoji | None = None) -> dict[str, Any]:
    option: dict[str, Any] = {"label": label, "value": value, "default": False}
    face = _emoji(emoji)
    if face:
        option["emoji"] = face
    return option


def _select(custom_id: str, placeholder: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": SELECT,
        "custom_id": custom_id,
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
    }
    if placeholder:
        item["placeholder"] = placeholder
    item["options"] = options or [_option("·", "none")]
    return item


def _move_select(
    table_id: int, mark: int, index: int, moves: list[Move], labels: list[str], placeholder: str
) -> dict[str, Any]:
    """A :class:`MoveSelect`'s data."""
    options = [_option(label[:100], move.code) for move, label in zip(moves, labels, strict=True)]
    return _select(f"ct:s:{table_id}:{mark}:{index}", placeholder, options)
