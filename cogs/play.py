"""Playing: the private hand (ephemeral), its move buttons and selects, and "I'm back".

Every component is a dynamic item whose custom id carries the table, the seat's options mark (the
move number since which its options stand, :meth:`LiveTable.options_mark`) and the move, so a
click works after a restart and a stale or double click is told apart by its number. An open hand
is redrawn only when what it shows changes (:func:`refresh_hands`): others' moves that leave a
player's cards and options as they were cost that player's hand nothing.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot import i18n
from bot.app import OpenHand
from bot.i18n import N_, _
from bot.sessions import LiveTable, UserError
from bot.shards import publishes
from cogs.card_faces import FACES, start_faces, stop_faces
from cogs.engine_words import said
from cogs.errors import Errors, answer, answer_in, data_of, guarded, patiently
from cogs.hand_clicks import dispatch_lightly
from cogs.hand_data import RED_SUITS, components_of
from cogs.hand_requests import edit_original, send_ephemeral, update_clicked
from cogs.hand_watch import STALE_NOTE, restart_note, started, stop_all, watch
from cogs.interactions import bot_of
from cogs.items import ByTable
from cogs.language import reader_language, text_for
from cogs.refusals import refusal_text
from cogs.render import cards_text, hand_embed, hand_layout, select_placeholder, sequence_step
from cogs.words import MENTIONS
from games.base import Move
from games.cards import display

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

HAND_TOKEN_SECONDS = 14 * 60  # an interaction token lasts 15 minutes; keep a margin
GAME_OVER = N_("This game is over (or its table was closed).")


def over(table: LiveTable) -> bool:
    """The game is over or its table abandoned: a hand has nothing left to click."""
    return table.game is None or table.game.status == "finished" or table.row.status == "abandoned"


@dataclass(frozen=True)
class HandParts:
    """Everything a hand's components are drawn from: equal parts draw equal components, so a
    hand whose parts and embed are as shown is not redrawn (and its view is not even built)."""

    table_id: int
    cards: tuple[str, ...]
    moves: tuple[Move, ...]  # the seat's legal moves
    labels: tuple[str, ...]  # the game's label of each move, for this seat
    mark: int  # the seat's options mark, in every control's custom id
    prefix: str  # the ranks chosen so far in the sequence builder
    hint: bool  # the Hint button is offered
    pictures: int  # card pictures known (they arrive all at once)
    lang: str = i18n.ENGLISH  # the reader's language


def hand_parts(
    table: LiveTable, seat: int, prefix: str = "", lang: str = i18n.ENGLISH
) -> HandParts:
    game = table.game
    assert game is not None
    playing = game.status == "in_progress"
    moves = tuple(game.legal_moves(seat)) if playing else ()
    return HandParts(
        table.id,
        tuple(table.view(seat).hand or ()),
        moves,
        tuple(said(lang, game.move_label(m, seat), game.name) for m in moves),
        table.options_mark(seat),
        prefix,
        bool(table.row.hints) and playing,
        len(FACES.emojis),
        lang,
    )


def hand_view(
    table: LiveTable, seat: int, prefix: str = "", lang: str = i18n.ENGLISH
) -> discord.ui.View:
    """Card buttons (legal ones enabled, red suits red) and the open decisions."""
    return view_of(hand_parts(table, seat, prefix, lang))


def view_of(parts: HandParts) -> discord.ui.View:
    """A hand's components, drawn from its parts alone."""
    view = discord.ui.View(timeout=None)
    table_id, mark, lang = parts.table_id, parts.mark, parts.lang
    label_of = dict(zip(parts.moves, parts.labels, strict=True))
    layout = hand_layout(parts.cards, parts.moves)
    if layout.sequences:
        add_sequence_builder(view, table_id, mark, layout.sequences, parts.prefix, lang)
    row = 0
    for index, (card, move) in enumerate(layout.card_buttons):
        row = index // 5
        style = (
            discord.ButtonStyle.danger if card[1] in RED_SUITS else discord.ButtonStyle.secondary
        )
        if move is None:
            view.add_item(
                discord.ui.Button(
                    label=display(card),
                    emoji=FACES.emoji(card),
                    style=style,
                    disabled=True,
                    custom_id=f"ct:x:{table_id}:{card}",
                    row=row,
                )
            )
        else:
            button = MoveButton(table_id, mark, move, display(card), style, row)
            button.item.emoji = FACES.emoji(card)  # the picture; the label is the text fallback
            view.add_item(button)
    next_row = (row + 1) if layout.card_buttons else (2 if layout.sequences else 0)
    if layout.card_select:
        view.add_item(
            MoveSelect(
                table_id,
                mark,
                0,
                layout.card_select,
                [label_of[m] for m in layout.card_select],
                _(lang, "Choose a card to play"),
                next_row,
            )
        )
        next_row += 1
    for move in layout.action_buttons:
        view.add_item(
            MoveButton(table_id, mark, move, label_of[move], discord.ButtonStyle.primary, next_row)
        )
    for index, chunk in enumerate(layout.selects, start=1):
        labels = [label_of[m] for m in chunk]
        view.add_item(
            MoveSelect(
                table_id,
                mark,
                index,
                chunk,
                labels,
                select_placeholder(labels, len(layout.selects) > 1, lang),
                next_row + index - 1,
            )
        )
    if parts.hint:
        add_hint_button(view, table_id, lang)
    return view


def add_sequence_builder(
    view: discord.ui.View,
    table_id: int,
    mark: int,
    sequences: list[Move],
    prefix: str,
    lang: str = i18n.ENGLISH,
) -> None:
    """Rows 0 and 1: pick the next rank of a sequence; Play once it is one; Start over."""
    step = sequence_step(sequences, prefix)
    if step.next_ranks:
        view.add_item(SequenceSelect(table_id, mark, prefix, step.next_ranks, lang))
    if step.complete is not None:
        view.add_item(
            MoveButton(
                table_id,
                mark,
                step.complete,
                _(lang, "Play {cards}", cards=cards_text(step.complete.get("cards"))),
                discord.ButtonStyle.success,
                1,
            )
        )
    if prefix:
        view.add_item(SequenceRestart(table_id, mark, lang))


def remember_hand(
    bot: CardTableBot,
    table_id: int,
    user_id: int,
    interaction: discord.Interaction,
    shown: object = None,
    lang: str = i18n.ENGLISH,
) -> None:
    clock = bot.sessions.clock
    bot.open_hands[(table_id, user_id)] = OpenHand(interaction, clock.now(), shown, lang)
    watch((table_id, user_id), clock, lambda: warn_stale(bot, table_id, user_id, interaction))


async def warn_stale(
    bot: CardTableBot, table_id: int, user_id: int, interaction: discord.Interaction
) -> None:
    """The hand's last edit, before its token expires: it stops updating; open a fresh one."""
    entry = bot.open_hands.get((table_id, user_id))
    if entry is not None and entry.interaction is not interaction:
        return  # a newer hand took over
    bot.open_hands.pop((table_id, user_id), None)
    table = bot.sessions.find(table_id)
    seat = table.seat_of(user_id) if table is not None else None
    if table is None or seat is None or table.game is None:
        return
    finished = over(table)
    lang = entry.lang if entry is not None else i18n.ENGLISH
    await interaction.edit_original_response(
        embed=hand_embed(table, seat, text_for(lang, _(lang, STALE_NOTE)), lang=lang),
        view=None if finished else hand_view(table, seat, lang=lang),
    )


def hand_message(
    table: LiveTable,
    seat: int,
    note: str | None = None,
    prefix: str = "",
    lang: str = i18n.ENGLISH,
) -> tuple[discord.Embed, discord.ui.View]:
    """A seat's private hand: the embed and its components (``prefix``: the ranks chosen so
    far in the sequence builder)."""
    embed, parts = hand_content(table, seat, note, prefix, lang)
    return embed, view_of(parts)


def hand_content(
    table: LiveTable,
    seat: int,
    note: str | None = None,
    prefix: str = "",
    lang: str = i18n.ENGLISH,
) -> tuple[discord.Embed, HandParts]:
    """A seat's private hand: its embed, and the parts its components are drawn from."""
    chosen: tuple[str, ...] = ()
    if prefix and table.game is not None:
        sequences = [m for m in table.game.legal_moves(seat) if m.get("cards")]
        chosen = sequence_step(sequences, prefix).chosen
    embed = hand_embed(table, seat, note, chosen, lang)
    return embed, hand_parts(table, seat, prefix, lang)


def shown_key(embed: discord.Embed, parts: HandParts | None) -> object:
    """Exactly what a hand message shows (compared with ``==``): its embed as Discord gets it,
    and what its components are drawn from (None: no components).

    The parts are kept as a plain tuple of their values: each load of this extension is a
    fresh module with its own ``HandParts`` class (a reload, or a second bot in one process),
    while the board keeps the module it first imported; parts of two such classes never
    compare equal, so every hand a click had drawn was redrawn at the next refresh though
    nothing on it changed.
    """
    return embed.to_dict(), None if parts is None else tuple(vars(parts).values())


async def send_hand(
    interaction: discord.Interaction,
    table: LiveTable,
    seat: int,
    note: str | None = None,
    *,
    edit: bool = False,
    prefix: str = "",
    lang: str | None = None,
) -> None:
    """Show a seat's hand to its player, in the player's language (``note``: a catalogue text,
    or a text already in that language)."""
    if lang is None:
        lang = await reader_language(interaction)
    note = text_for(lang, _(lang, note)) if note else note
    embed, parts = hand_content(table, seat, note, prefix, lang)
    if edit and interaction.response.is_done():  # deferred while the database was slow
        await edit_original(interaction, embed, components_of(parts))
    elif edit:
        await update_clicked(interaction, embed, components_of(parts))
    elif interaction.response.is_done():
        await interaction.followup.send(embed=embed, view=view_of(parts), ephemeral=True)
    else:
        await send_ephemeral(interaction, embed, components_of(parts))
    shown = shown_key(embed, parts)
    remember_hand(bot_of(interaction), table.id, interaction.user.id, interaction, shown, lang)


async def refresh_hands(bot: CardTableBot, table: LiveTable) -> None:
    """Bring every open hand of this table up to date (through each one's own token), editing
    only those whose content changed."""
    for seat_row in table.humans():
        await refresh_hand(bot, table, seat_row.seat, (table.id, seat_row.user_id or 0))


async def refresh_hand(
    bot: CardTableBot, table: LiveTable, seat: int, key: tuple[int, int]
) -> None:
    """Redraw one open hand if what it would show differs from what it shows.

    A click may redraw the hand (its own answer) while this edit is on its way; then this
    edit may land last with older content, so the hand is drawn once more through the new
    interaction.
    """
    for _attempt in range(2):
        hand = bot.open_hands.get(key)
        if hand is None or table.game is None:
            return
        if bot.sessions.clock.now() - hand.opened > HAND_TOKEN_SECONDS:
            bot.open_hands.pop(key, None)
            return
        embed = hand_embed(table, seat, lang=hand.lang)
        parts = None if over(table) else hand_parts(table, seat, lang=hand.lang)
        shown = shown_key(embed, parts)
        if shown == hand.shown:
            return
        hand.shown = shown
        try:
            await edit_original(
                hand.interaction, embed, None if parts is None else components_of(parts)
            )
        except discord.HTTPException:
            if bot.open_hands.get(key) is hand:
                bot.open_hands.pop(key, None)
            return
        except BaseException:  # not known to have landed (a network error, a shutdown)
            hand.shown = None
            raise
        newer = bot.open_hands.get(key)
        if newer is None or newer is hand:
            return
        newer.shown = None


def offered_values(interaction: discord.Interaction) -> set[str] | None:
    """The values the select that was used offered, as the message shows it (None: not found).

    A crafted client can send any value; only what the bot offered is taken.
    """
    custom_id = data_of(interaction).get("custom_id")
    message = interaction.message
    if message is None:
        return None
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id and hasattr(child, "options"):
                return {option.value for option in child.options}
    return None


def chosen_value(interaction: discord.Interaction) -> str | None:
    """The one value picked in a select, if the select offered it; else None."""
    values = data_of(interaction).get("values") or []
    offered = offered_values(interaction)
    if len(values) != 1 or offered is None or str(values[0]) not in offered:
        return None
    return str(values[0])


async def play_move(
    interaction: discord.Interaction, table_id: int, seq: int, move: Move | None
) -> None:
    """The one path of a click: submit, then show the hand as it is now."""
    bot = bot_of(interaction)
    table = bot.sessions.find(table_id)
    if table is None:
        await answer_in(interaction, GAME_OVER)
        return
    if move is None:
        await answer_in(interaction, N_("That is not a move."))
        return
    try:
        await patiently(interaction, bot.sessions.submit(table_id, interaction.user.id, seq, move))
    except UserError as error:
        lang = await reader_language(interaction)
        refused = refusal_text(error, lang)
        table_now = bot.sessions.find(table_id)
        seat = table_now.seat_of(interaction.user.id) if table_now else None
        if (
            table_now is not None
            and seat is not None
            and table_now.game is not None
            and table_now.is_stale(seat, seq)
        ):
            await send_hand(interaction, table_now, seat, refused, edit=True, lang=lang)
        else:
            await answer(interaction, refused)
        return
    seat = table.seat_of(interaction.user.id)
    assert seat is not None
    await send_hand(interaction, table, seat, edit=True)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:m:(?P<table>[0-9]+):(?P<seq>[0-9]+):(?P<code>.+)",
):
    def __init__(
        self,
        table_id: int,
        seq: int,
        move: Move | None,
        label: str = "·",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        row: int | None = None,
        *,
        code: str = "",
    ) -> None:
        self.table_id, self.seq, self.move = table_id, seq, move
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                row=row,
                custom_id=f"ct:m:{table_id}:{seq}:{move.code if move else code}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> MoveButton:
        try:
            move: Move | None = Move.from_code(match["code"])
        except Exception:  # a crafted custom id: answered as "not a move"
            move = None
        return cls(int(match["table"]), int(match["seq"]), move, code=match["code"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await play_move(interaction, self.table_id, self.seq, self.move)


def pin_row(
    item: discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], row: int | None
) -> None:
    """Give a select its row. discord.py keeps a select's row in a slot that hides the row
    an item reports, so a dynamic item wrapping one says it has none: the view would place it
    wherever it fits, and the rows counted for the Hint button would be wrong."""
    item.item._row = row


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ct:s:(?P<table>[0-9]+):(?P<seq>[0-9]+):(?P<index>[0-9]+)",
):
    def __init__(
        self,
        table_id: int,
        seq: int,
        index: int,
        moves: list[Move] | None = None,
        labels: list[str] | None = None,
        placeholder: str = "Choose",
        row: int | None = None,
    ) -> None:
        self.table_id, self.seq = table_id, seq
        options = [
            discord.SelectOption(label=label[:100], value=move.code)
            for move, label in zip(moves or [], labels or [], strict=True)
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ct:s:{table_id}:{seq}:{index}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="·", value="none")],
                row=row,
            )
        )
        pin_row(self, row)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> MoveSelect:
        return cls(int(match["table"]), int(match["seq"]), int(match["index"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        value = chosen_value(interaction)
        if value is None:
            await answer_in(interaction, N_("Choose one of the moves offered."))
            return
        try:
            move = Move.from_code(value)
        except Exception:
            await answer_in(interaction, N_("That choice is not a move."))
            return
        await play_move(interaction, self.table_id, self.seq, move)


async def build_sequence(
    interaction: discord.Interaction, table_id: int, seq: int, prefix: str
) -> None:
    """A step of the sequence builder: no move yet, just the hand shown with the new prefix."""
    bot = bot_of(interaction)
    table = bot.sessions.find(table_id)
    seat = table.seat_of(interaction.user.id) if table else None
    if table is None or table.game is None or seat is None:
        await answer_in(interaction, N_("That table is closed, or you are not playing at it."))
        return
    if table.is_stale(seat, seq):
        await send_hand(
            interaction,
            table,
            seat,
            N_("That button is out of date; here is your hand as it is now."),
            edit=True,
        )
        return
    sequences = [m for m in table.game.legal_moves(seat) if m.get("cards")]
    if prefix and not sequence_step(sequences, prefix).chosen:
        await send_hand(interaction, table, seat, N_("No sequence starts like that."), edit=True)
        return
    await send_hand(interaction, table, seat, edit=True, prefix=prefix)


class SequenceSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ct:q:(?P<table>[0-9]+):(?P<seq>[0-9]+):(?P<prefix>[2-9TJQKA]*)",
):
    def __init__(
        self,
        table_id: int,
        seq: int,
        prefix: str,
        next_ranks: dict[str, str] | None = None,
        lang: str = i18n.ENGLISH,
    ) -> None:
        self.table_id, self.seq, self.prefix = table_id, seq, prefix
        options = [
            discord.SelectOption(
                label=_(lang, "Add {card}", card=display(card))
                if prefix
                else _(lang, "Start with {card}", card=display(card)),
                value=rank,
                emoji=FACES.emoji(card),
            )
            for rank, card in (next_ranks or {}).items()
        ][:25]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ct:q:{table_id}:{seq}:{prefix}",
                row=0,
                placeholder=_(lang, "Add a card to your sequence")
                if prefix
                else _(lang, "Start a sequence"),
                options=options or [discord.SelectOption(label="·", value="none")],
            )
        )
        pin_row(self, 0)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> SequenceSelect:
        return cls(int(match["table"]), int(match["seq"]), match["prefix"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        rank = chosen_value(interaction) or ""
        if len(rank) != 1 or rank not in "23456789TJQKA":
            await answer_in(interaction, N_("Choose one card."))
            return
        await build_sequence(interaction, self.table_id, self.seq, self.prefix + rank)


class SequenceRestart(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:qr:(?P<table>[0-9]+):(?P<seq>[0-9]+)",
):
    def __init__(self, table_id: int, seq: int, lang: str = i18n.ENGLISH) -> None:
        self.table_id, self.seq = table_id, seq
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Start over"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:qr:{table_id}:{seq}",
                row=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> SequenceRestart:
        return cls(int(match["table"]), int(match["seq"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await build_sequence(interaction, self.table_id, self.seq, "")


class ShowHand(
    ByTable,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:h:(?P<table>[0-9]+)",
):
    def __init__(self, table_id: int, lang: str = i18n.ENGLISH) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Show my hand"),
                emoji="🂠",
                style=discord.ButtonStyle.success,
                custom_id=f"ct:h:{table_id}",
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        table = bot.sessions.find(self.table_id)
        if table is None or table.game is None:
            await answer_in(interaction, GAME_OVER)
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await answer_in(interaction, N_("You are not playing at this table."))
            return
        await send_hand(interaction, table, seat)


class ImBack(
    ByTable,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:b:(?P<table>[0-9]+)",
):
    def __init__(self, table_id: int, lang: str = i18n.ENGLISH) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                label=_(lang, "I'm back"),
                emoji="🙋",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:b:{table_id}",
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        await patiently(interaction, bot.sessions.come_back(self.table_id, interaction.user.id))
        table = bot.sessions.get(self.table_id)
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        await send_hand(interaction, table, seat, N_("Welcome back: your seat is yours again."))


def add_hint_button(view: discord.ui.View, table_id: int, lang: str = i18n.ENGLISH) -> None:
    """The Hint button (at a table with hints), where the hand's rows leave room for it."""
    used = [0] * 5
    for item in view.children:
        if item.row is not None:
            used[item.row] += item.width
    room = [row for row in range(5) if used[row] < 5]
    if room:  # the lowest row with room; with none, the hand's moves come first
        view.add_item(HintButton(table_id, room[-1], lang))


class HintButton(
    ByTable,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:hint:(?P<table>[0-9]+)",
):
    """What the normal computer player would do now, and why: answered to the player alone."""

    def __init__(self, table_id: int, row: int | None = None, lang: str = i18n.ENGLISH) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                row=row,
                label=_(lang, "Hint"),
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:hint:{table_id}",
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        _seat, move, reason = bot.sessions.hint(self.table_id, interaction.user.id)
        table = bot.sessions.get(self.table_id)
        seat = table.seat_of(interaction.user.id)
        assert table.game is not None and seat is not None  # as sessions.hint found them
        lang = await reader_language(interaction)
        label = said(lang, table.game.move_label(move, seat), table.game.name)
        why = said(lang, reason, table.game.name)
        hint = _(lang, "Hint: {move} — {reason}.", move=f"**{label}**", reason=why)
        await answer(interaction, "💡 " + text_for(lang, hint))


def table_view(table: LiveTable, lang: str = i18n.ENGLISH) -> discord.ui.View:
    """The table message's buttons, in the server's language."""
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHand(table.id, lang))
    if any(seat.away for seat in table.humans()):
        view.add_item(ImBack(table.id, lang))
    return view


class Play(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.first_ready = True
        self.redraw: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: the tables in play were restored, their open hands were lost."""
        if not self.first_ready:
            return
        self.first_ready = False
        sessions = self.bot.sessions
        playing = sessions.in_play()
        started(sessions.clock, (t.id for t in playing))
        if playing:
            self.redraw = asyncio.get_running_loop().create_task(self._drop_restart_note(playing))

    async def _drop_restart_note(self, tables: list[LiveTable]) -> None:
        """A minute on, redraw the boards that said the bot restarted."""
        clock = self.bot.sessions.clock
        await clock.sleep_until(clock.now() + 61)
        presenter = self.bot.sessions.presenter
        for table in tables:
            live = self.bot.sessions.find(table.id) is table
            if presenter is not None and live and restart_note(table.id) is None:
                presenter.table_changed(table, ())

    async def cog_unload(self) -> None:
        stop_all()
        stop_faces()
        MENTIONS.clear()
        if self.redraw is not None:
            self.redraw.cancel()


async def setup(bot: CardTableBot) -> None:
    if bot.get_cog(Errors.__cog_name__) is None:  # the one error path comes with the components
        await bot.add_cog(Errors(bot))
    # Card pictures, in the background (cards show as text meanwhile); with shards, only the
    # process on shard 0 uploads them.
    start_faces(bot, upload=publishes(bot.settings.shards))
    bot.add_dynamic_items(MoveButton, MoveSelect, SequenceSelect, SequenceRestart, ShowHand, ImBack)
    dispatch_lightly(bot, (MoveButton, MoveSelect, SequenceSelect, SequenceRestart))
    bot.add_dynamic_items(HintButton)
    await bot.add_cog(Play(bot))
