"""The "Report this hand" button on a hand's result: a menu of the hand's tricks where a computer
played, then a confirmation; the Discord side of :mod:`bot.hand_reports`.

Every step is ephemeral and shows only what the hand's result already showed (the tricks, all
played face up). A custom id names the table, the move that scored the hand and (the
confirmation) the move reported; each click reads the game again, so it is judged as it is now.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Self

import discord

from bot import i18n
from bot.hand_reports import NOT_OFFERED, REPORTED, HandForReport
from bot.i18n import N_, _
from bot.sessions.errors import UserError
from cogs.errors import data_of, guarded, patiently
from cogs.interactions import bot_of
from cogs.language import reader_language
from cogs.render import shown_name
from games.cards import display

if TYPE_CHECKING:
    from bot.app import CardTableBot

LABEL = N_("Report this hand")
ASK = N_(
    "Did a computer play badly in this hand? Choose the trick: the position, as that computer "
    "saw it, is kept for the tests that keep the computer players sharp."
)
WHICH = N_("Trick {trick}: {cards}. Report this card as a bad play?")
THANKS = N_("Thank you: trick {trick} ({card}) is kept for the computer players' tests.")
TRICK = N_("Trick {trick}")
PLACEHOLDER = N_("The trick where a computer played badly")
CONFIRM = N_("Report {card}")
MAX_OPTIONS = 25  # a select's options (a hand has at most 13 tricks)


def _card_of(hand: HandForReport, before: int, escape: bool = True) -> str:
    """Who played which card (``escape``: the name as message text, else as a label)."""
    play = hand.play(before)
    name = hand.names[play.seat]
    return f"{shown_name(name) if escape else name} {display(play.card)}"


async def _hand(interaction: discord.Interaction, table_id: int, upto: int) -> HandForReport:
    if interaction.guild_id is None:
        raise UserError(N_("Hands are reported in the server where they were played."))
    sessions = bot_of(interaction).sessions
    return await patiently(
        interaction,
        sessions.hand_for_report(interaction.guild_id, table_id, upto, interaction.user.id),
    )


class ReportButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:rb:(?P<table>[0-9]{1,20}):(?P<upto>[0-9]{1,7})",
):
    """On a hand's result: open the menu of the hand's tricks where a computer played."""

    def __init__(self, table_id: int, upto: int, label: str = LABEL) -> None:
        self.table_id, self.upto = table_id, upto
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="🚩",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:rb:{table_id}:{upto}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["table"]), int(match["upto"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        hand = await _hand(interaction, self.table_id, self.upto)
        lang = await reader_language(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(ReportSelect(hand.table_id, hand.upto, hand, lang))
        if interaction.response.is_done():
            await interaction.followup.send(_(lang, ASK), view=view, ephemeral=True)
        else:
            await interaction.response.send_message(_(lang, ASK), view=view, ephemeral=True)


class ReportSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ct:rs:(?P<table>[0-9]{1,20}):(?P<upto>[0-9]{1,7})",
):
    """The hand's tricks where a computer played (the computers' cards in each)."""

    def __init__(
        self,
        table_id: int,
        upto: int,
        hand: HandForReport | None = None,
        lang: str = i18n.ENGLISH,
    ) -> None:
        self.table_id, self.upto = table_id, upto
        tricks = list(hand.tricks().items())[:MAX_OPTIONS] if hand is not None else []
        options = [
            discord.SelectOption(
                label=_(lang, TRICK, trick=trick),
                value=str(trick),
                description=", ".join(_card_of(hand, p.before, False) for p in plays)[:100],
            )
            for trick, plays in tricks
            if hand is not None
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ct:rs:{table_id}:{upto}",
                placeholder=_(lang, PLACEHOLDER),
                options=options or [discord.SelectOption(label="·", value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["table"]), int(match["upto"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = data_of(interaction).get("values") or []
        value = str(values[0]) if len(values) == 1 else ""
        if not re.fullmatch(r"[0-9]{1,2}", value):
            raise UserError(NOT_OFFERED)
        hand = await _hand(interaction, self.table_id, self.upto)
        plays = hand.tricks().get(int(value))
        if not plays:
            raise UserError(NOT_OFFERED)
        sessions = bot_of(interaction).sessions
        if await sessions.hand_reported(hand, int(value), interaction.user.id):
            raise UserError(REPORTED)
        lang = await reader_language(interaction)
        view = discord.ui.View(timeout=None)
        for play in plays:
            view.add_item(
                ConfirmButton(
                    hand.table_id,
                    hand.upto,
                    play.before,
                    _(lang, CONFIRM, card=_card_of(hand, play.before, False)),
                )
            )
        cards = ", ".join(_card_of(hand, p.before) for p in plays)
        text = _(lang, WHICH, trick=int(value), cards=cards)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.response.edit_message(content=text, view=view)


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:rc:(?P<table>[0-9]{1,20}):(?P<upto>[0-9]{1,7}):(?P<before>[0-9]{1,7})",
):
    """Confirm the report of one computer's card."""

    def __init__(self, table_id: int, upto: int, before: int, label: str = "") -> None:
        self.table_id, self.upto, self.before = table_id, upto, before
        super().__init__(
            discord.ui.Button(
                label=label[:80] or "·",
                style=discord.ButtonStyle.danger,
                custom_id=f"ct:rc:{table_id}:{upto}:{before}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["table"]), int(match["upto"]), int(match["before"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        hand = await _hand(interaction, self.table_id, self.upto)
        sessions = bot_of(interaction).sessions
        play = await patiently(
            interaction, sessions.report_play(hand, self.before, interaction.user.id)
        )
        lang = await reader_language(interaction)
        text = _(lang, THANKS, trick=play.trick, card=display(play.card))
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=None)
        else:
            await interaction.response.edit_message(content=text, view=None)


def report_view(table_id: int, upto: int) -> discord.ui.View:
    """The button a hand's result is posted with."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReportButton(table_id, upto))
    return view


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(ReportButton, ReportSelect, ConfirmButton)
