"""Replays of finished games, from ``/history``: the table picture trick by trick, with ◀ ▶.

The history page's "Replay a game" menu opens an ephemeral replay of a page's game; its
buttons step through it and its menu jumps to a hand. Every click is judged as an export is
(:func:`bot.history.export`): a game of this server, that the clicker may see, and over; a
custom id only names a table and a step. The replay itself shows only what onlookers saw
(:mod:`bot.replay`), and is built and drawn off the event loop.

A replay is ephemeral, so it is in its reader's language (:func:`reader_language`, asked at each
click): its words and its picture's. The built replay holds no words, so the cache serves every
language and each click draws its step in the clicker's.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n
from bot.history import Export, GameRecord
from bot.i18n import N_, _
from bot.replay import Replay, build_replay
from cogs.errors import answer_in, data_of, guarded, patiently
from cogs.interactions import bot_of, picked_game, viewer_of
from cogs.language import reader_language, text_for

if TYPE_CHECKING:
    from bot.app import CardTableBot

REPLAY_PLACEHOLDER = N_("Replay a game, trick by trick")
HAND_PLACEHOLDER = N_("Jump to a hand")
FOOTER = N_("Only what the table showed: no hand is revealed.")
FILENAME = "replay.png"
MAX_HANDS = 25  # a select's options
CACHED = 8  # replays kept built (a finished game never changes)
_BUILT: OrderedDict[tuple[int, tuple[str, ...], bytes], Replay] = OrderedDict()


def _key(exported: Export) -> tuple[int, tuple[str, ...], bytes]:
    """What a replay is built from: the transcript and who sat where (a name changes when its
    person is forgotten; a table number alone may be another database's game, as in tests)."""
    written = json.dumps(exported.transcript, separators=(",", ":")).encode()  # ~1 ms a game
    return exported.table_id, exported.names, hashlib.blake2b(written).digest()


def _cached(exported: Export) -> Replay:
    """The replay of an exported game, built once per game (the cache is small: a replay is a
    few hundred views). It holds no words, so it serves readers of every language."""
    key = _key(exported)
    replay = _BUILT.get(key)
    if replay is None:
        replay = build_replay(exported.table_id, exported.transcript, exported.names)
        _BUILT[key] = replay
        while len(_BUILT) > CACHED:
            _BUILT.popitem(last=False)
    _BUILT.move_to_end(key)
    return replay


def replay_message(
    replay: Replay, index: int, lang: str = i18n.ENGLISH
) -> tuple[discord.Embed, discord.ui.View, discord.File]:
    """The replay at step ``index`` in ``lang``: the picture, where it is, and the controls."""
    index = min(max(index, 0), len(replay.steps) - 1)
    step = replay.steps[index]
    picture = replay.picture(index, lang)
    where = _(lang, "step {n} of {total}", n=index + 1, total=len(replay.steps))
    embed = discord.Embed(
        title=text_for(lang, _(lang, "Replay · {title}", title=replay.seating(lang).title)),
        description=text_for(lang, f"**{step.label(lang)}** · {where}"),
        colour=discord.Colour.dark_teal(),
    )
    embed.set_image(url=f"attachment://{FILENAME}")
    embed.set_footer(text=text_for(lang, _(lang, FOOTER)))
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(replay.table_id, index - 1, "◀", disabled=index == 0))
    view.add_item(
        ReplayButton(replay.table_id, index + 1, "▶", disabled=index == len(replay.steps) - 1)
    )
    starts = replay.hand_starts()
    if len(starts) > 1:
        view.add_item(HandSelect(replay.table_id, starts, step.hand, lang))
    file = discord.File(io.BytesIO(picture.png), FILENAME, description=picture.alt)
    return embed, view, file


async def _load(interaction: discord.Interaction, table_id: int, index: int) -> Any:
    """The game exported for the clicker (refused as an export is), its replay built and the
    step drawn in a thread, in the clicker's language."""
    assert interaction.guild_id is not None
    exported = await bot_of(interaction).sessions.export(
        interaction.guild_id, table_id, viewer_of(interaction)
    )
    lang = await reader_language(interaction)
    return await asyncio.to_thread(lambda: replay_message(_cached(exported), index, lang))


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"ct:hr"):
    """The history page's games; picking one opens its replay (ephemeral)."""

    def __init__(
        self, games: Sequence[tuple[str, GameRecord]] = (), lang: str = i18n.ENGLISH
    ) -> None:
        options = [
            discord.SelectOption(label=label, value=str(record.table_id)) for label, record in games
        ]
        super().__init__(
            discord.ui.Select(
                custom_id="ct:hr",
                placeholder=_(lang, REPLAY_PLACEHOLDER),
                row=2,
                options=options or [discord.SelectOption(label="·", value="none")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> ReplaySelect:
        return cls()

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        table_id = picked_game(interaction)
        if interaction.guild_id is None or table_id is None:
            await answer_in(interaction, N_("Choose one of the games offered."))
            return
        embed, view, file = await patiently(
            interaction, _load(interaction, table_id, 0), thinking=True
        )
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, view=view, file=file, ephemeral=True)
        else:
            await interaction.response.send_message(
                embed=embed, view=view, file=file, ephemeral=True
            )


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:rp:(?P<table>[0-9]{1,20}):(?P<step>[0-9]{1,6})",
):
    """◀ or ▶: the replay's previous or next step (the custom id names the step shown next)."""

    def __init__(self, table_id: int, step: int, label: str, disabled: bool = False) -> None:
        self.table_id, self.step = table_id, max(step, 0)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:rp:{table_id}:{self.step}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> ReplayButton:
        return cls(int(match["table"]), int(match["step"]), "")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await _show(interaction, self.table_id, self.step)


class HandSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ct:rh:(?P<table>[0-9]{1,20})",
):
    """Jump to a hand: its first trick (the options are the hands' first steps)."""

    def __init__(
        self,
        table_id: int,
        starts: dict[int, int] | None = None,
        hand: int = 0,
        lang: str = i18n.ENGLISH,
    ) -> None:
        self.table_id = table_id
        shown = list((starts or {}).items())[:MAX_HANDS]
        options = [
            discord.SelectOption(
                label=text_for(lang, _(lang, "Hand {n}", n=number)),
                value=str(step),
                default=number == hand,
            )
            for number, step in shown
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ct:rh:{table_id}",
                placeholder=_(lang, HAND_PLACEHOLDER),
                row=1,
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
    ) -> HandSelect:
        return cls(int(match["table"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = data_of(interaction).get("values") or []
        value = str(values[0]) if len(values) == 1 else ""
        if not re.fullmatch(r"[0-9]{1,6}", value):
            await answer_in(interaction, N_("Choose one of the hands offered."))
            return
        await _show(interaction, self.table_id, int(value))


async def _show(interaction: discord.Interaction, table_id: int, step: int) -> None:
    """The replay message, moved to ``step`` (a step past the end shows the last)."""
    if interaction.guild_id is None:
        await answer_in(interaction, N_("Replays are of a server's games."))
        return
    embed, view, file = await patiently(interaction, _load(interaction, table_id, step))
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=embed, view=view, attachments=[file])
    else:
        await interaction.response.edit_message(embed=embed, view=view, attachments=[file])


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(ReplaySelect, ReplayButton, HandSelect)
