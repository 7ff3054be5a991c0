"""``/history [player] [game]``: this server's recent games, ten a page, each exportable.

The page is an ephemeral message (it lists what its asker may see: in a public one, the games of
a channel they can view would reach everyone in this one) with Previous/Next buttons and an
export menu of the page's games; all three are dynamic items whose custom ids carry what they
need (page, player, game), so they work after a restart. Whoever clicks, the query is of the
server the click comes from: a custom id never names a server. And it is the clicker's: only
games of channels they can view (with their permissions, :func:`viewer_of`) or that they played.
The export is an ephemeral reply with the transcript as a JSON file.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from babel.dates import format_date
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.history import GameRecord, HistoryPage
from bot.i18n import N_, _
from cogs.errors import answer_in, guarded, patiently, quote
from cogs.interactions import bot_of, picked_game, viewer_of
from cogs.language import reader_language
from cogs.replay import ReplaySelect
from cogs.tables import game_autocomplete
from games.registry import all_games, get_game

if TYPE_CHECKING:
    from bot.app import CardTableBot

TEAM_NAMES = ("A", "B")
NAME_CHARS = 24
EXPORT_PLACEHOLDER = N_("Export a game's transcript")
NO_GAMES = N_("No finished games yet.")
NO_MORE = N_("No more games.")
NOT_A_MEMBER = N_("Choose a member from the list.")


# --- rendering (pure) ---------------------------------------------------------------------------
def _name(name: str) -> str:
    flat = " ".join(name.split())
    short = flat if len(flat) <= NAME_CHARS else flat[: NAME_CHARS - 1] + "…"
    return discord.utils.escape_markdown(discord.utils.escape_mentions(short))


def _seat(record: GameRecord, seat: int) -> str:
    """A seat's holders, each name shortened and escaped: ``Ada → 🤖 Bob``."""
    return " → ".join(_name(name) for name in record.names_of(seat))


def _title(game: str) -> str:
    try:
        return get_game(game).title
    except KeyError:
        return game


def _teams(game: str) -> bool:
    try:
        return bool(get_game(game).teams)
    except KeyError:
        return False


def result_text(record: GameRecord, lang: str = i18n.ENGLISH) -> str:
    """``🏆 Team A (Alice & Ada) · 41 to 23``; ``abandoned · 10 to 4``; per seat in Tunge; a
    game its last person left: ``🏆 Team B (Bob & Babbage) · Alice resigned · 10 to 4``."""
    names = [_seat(record, seat) for seat in range(record.seat_count)]
    teams = _teams(record.game) and len(record.score) == 2

    def seat(s: int) -> str:
        return names[s] if s < len(names) else _(lang, "seat {n}", n=s + 1)

    if teams:
        score = _(lang, "{a} to {b}", a=record.score[0], b=record.score[1])
    else:
        score = " · ".join(f"{seat(s)} {v}" for s, v in enumerate(record.score))
    score = score or _(lang, "no score")
    if record.abandoned:
        return _(lang, "abandoned") + f" · {score}"
    if not record.winners:
        return _(lang, "nobody won") + f" · {score}"
    sides = {seat % 2 for seat in record.winners}
    if teams and len(sides) == 1:
        side = next(iter(sides))
        members = " & ".join(n for s, n in enumerate(names) if s % 2 == side)
        who = _(lang, "Team {team}", team=TEAM_NAMES[side]) + f" ({members})"
    else:
        who = " & ".join(seat(s) for s in record.winners)
    if record.resigned is not None and record.resigned < len(names):
        resigned = _(lang, "{who} resigned", who=names[record.resigned])
        return f"🏆 {who} · {resigned} · {score}"
    return f"🏆 {who} · {score}"


def game_line(record: GameRecord, lang: str = i18n.ENGLISH) -> str:
    when = f"<t:{int(record.finished_at)}:f>"
    seats = ", ".join(_seat(record, seat) for seat in range(record.seat_count))
    tournament = ""
    if record.tournament is not None:
        number, round_ = record.tournament
        tournament = " · " + _(
            lang, "tournament #{number}, round {round}", number=number, round=round_
        )
    return (
        f"`#{record.table_id}` {when} · **{_title(record.game)}**{tournament} · {seats}\n"
        f"\u2003{result_text(record, lang)}"
    )


def history_embed(
    page: HistoryPage, user_id: int | None, game: str | None, lang: str = i18n.ENGLISH
) -> discord.Embed:
    scope = _title(game) if game else _(lang, "all games")
    who = _(lang, "Games of {who}", who=f"<@{user_id}>") + "\n" if user_id else ""
    lines = [game_line(record, lang) for record in page.games]
    empty = _(lang, NO_GAMES) if page.page == 0 else _(lang, NO_MORE)
    embed = discord.Embed(
        title="📜 " + _(lang, "Game history · {scope}", scope=scope),
        description=who + ("\n".join(lines) or empty),
        colour=discord.Colour.dark_teal(),
    )
    footer = _(lang, "Page {n}", n=page.page + 1)
    if page.games:
        footer += " · " + _(lang, "the menus below export a game's transcript (JSON) or replay it")
    embed.set_footer(text=footer)
    return embed


def export_label(record: GameRecord, lang: str = i18n.ENGLISH) -> str:
    """A game as the export and replay menus offer it; its day as ``lang`` writes it."""
    day = format_date(datetime.fromtimestamp(record.finished_at, UTC), "d MMM y", locale=lang)
    seats = ", ".join(" ".join(record.name_of(seat).split()) for seat in range(record.seat_count))
    return f"#{record.table_id} · {_title(record.game)} · {day} · {seats}"[:100]


def history_view(
    page: HistoryPage, user_id: int | None, game: str | None, lang: str = i18n.ENGLISH
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    back, forward = "◀ " + _(lang, "Previous"), _(lang, "Next") + " ▶"
    view.add_item(PageButton(max(page.page - 1, 0), user_id, game, back, disabled=page.page == 0))
    view.add_item(PageButton(page.page + 1, user_id, game, forward, disabled=not page.more))
    if page.games:
        view.add_item(ExportSelect(page.games, lang))
        view.add_item(ReplaySelect([(export_label(g, lang), g) for g in page.games], lang))
    return view


# --- components ---------------------------------------------------------------------------------
class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:hp:(?P<page>[0-9]{1,4}):(?P<user>[0-9]{1,20}):(?P<game>[a-z_]{0,32})",
):
    """Previous/Next: the page to show, and the listing's player (0: all) and game."""

    def __init__(
        self,
        page: int,
        user_id: int | None,
        game: str | None,
        label: str = "·",
        disabled: bool = False,
    ) -> None:
        self.page, self.user_id, self.game = page, user_id, game
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                row=0,
                custom_id=f"ct:hp:{page}:{user_id or 0}:{game or ''}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> PageButton:
        return cls(int(match["page"]), int(match["user"]) or None, match["game"] or None)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await answer_in(interaction, N_("History belongs to a server."))
            return
        if self.game is not None and self.game not in all_games():
            await answer_in(
                interaction, N_("There is no game called {game}."), game=quote(self.game)
            )
            return
        lang = await reader_language(interaction)
        page = await patiently(
            interaction,
            bot_of(interaction).sessions.history_page(
                interaction.guild_id,
                self.page,
                self.user_id,
                self.game,
                viewer_of(interaction),
            ),
        )
        embed = history_embed(page, self.user_id, self.game, lang)
        view = history_view(page, self.user_id, self.game, lang)
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=view)
        else:
            await interaction.response.edit_message(embed=embed, view=view)


class ExportSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"ct:hx"):
    """The page's games; picking one replies (ephemerally) with its transcript file."""

    def __init__(self, games: Sequence[GameRecord] = (), lang: str = i18n.ENGLISH) -> None:
        options = [
            discord.SelectOption(label=export_label(record, lang), value=str(record.table_id))
            for record in games
        ]
        super().__init__(
            discord.ui.Select(
                custom_id="ct:hx",
                placeholder=_(lang, EXPORT_PLACEHOLDER),
                row=1,
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
    ) -> ExportSelect:
        return cls()

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        # Any table number a client sends is judged by the session manager, never trusted:
        # it must be a game of this server (the click's, not the message's), and over.
        table_id = picked_game(interaction)
        if interaction.guild_id is None or table_id is None:
            await answer_in(interaction, N_("Choose one of the games offered."))
            return
        exported = await patiently(
            interaction,
            bot_of(interaction).sessions.export(
                interaction.guild_id, table_id, viewer_of(interaction)
            ),
            thinking=True,
        )
        file = discord.File(io.BytesIO(exported.data()), filename=exported.filename)
        lang = await reader_language(interaction)
        text = _(
            lang,
            "Table #{table}'s transcript: replay it with {command}.",
            table=exported.table_id,
            command=f"`python -m games replay {exported.filename}`",
        )
        if interaction.response.is_done():
            await interaction.followup.send(text, file=file, ephemeral=True)
        else:
            await interaction.response.send_message(text, file=file, ephemeral=True)


# --- the command --------------------------------------------------------------------------------
class History(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description="This server's recent games, to export.")
    @app_commands.describe(player="Only games this member played", game="Only this game")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        if interaction.guild_id is None:  # a stale or crafted client in a DM
            raise app_commands.NoPrivateMessage()
        if game is not None and game not in all_games():
            await answer_in(interaction, N_("There is no game called {game}."), game=quote(game))
            return
        if player is not None and not isinstance(player, discord.User | discord.Member):
            await answer_in(interaction, NOT_A_MEMBER)  # a crafted id Discord resolved to no one
            return
        lang = await reader_language(interaction)
        user_id = player.id if player is not None else None
        page = await patiently(
            interaction,
            self.bot.sessions.history_page(
                interaction.guild_id, 0, user_id, game, viewer_of(interaction)
            ),
        )
        embed = history_embed(page, user_id, game, lang)
        view = history_view(page, user_id, game, lang)
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(PageButton, ExportSelect)
    await bot.add_cog(History(bot))
