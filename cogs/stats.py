"""Ratings and statistics: ``/leaderboard game: [period] [computers]`` and ``/stats``.

The leaderboard is the server's OpenSkill ladder for one game, ten a page. Its Previous/Next
buttons are :class:`discord.ui.DynamicItem` s whose ``custom_id`` holds the game, the period,
whether computers are listed and the page, so they keep working after a restart; the server
is the one the click comes from, so a page never shows another server's players.

"This month" ranks by the rating gained since the first of the month (UTC) among the players
rated this month, and shows their games and wins of the month beside their current rating: the
ratings themselves are all-time, so the month's race is who improved most.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import N_, _, ngettext
from bot.player_stats import PlayerStats
from bot.ratings import LadderPage, LadderRow
from bot.sessions import LADDER_PAGE
from cogs.chart import trend_png
from cogs.errors import answer_in, guarded, quote
from cogs.render import shown_name
from cogs.tables import game_autocomplete
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import CardTableBot

MEDALS = ("🥇", "🥈", "🥉")
PERIODS = {"all": N_("all time"), "month": N_("this month")}
CHART_NAME = "rating.png"


def player_label(row: LadderRow, lang: str = i18n.ENGLISH) -> str:
    if row.user_id is not None:
        return f"<@{row.user_id}>"
    return "🤖 " + _(lang, "computer ({level})", level=row.level)


def ladder_line(row: LadderRow, month: bool, lang: str = i18n.ENGLISH) -> str:
    """``🥇 @x · **12.3** · 10 games · 6 wins (60%)``: a medal only for a top-three with a win."""
    mark = MEDALS[row.rank - 1] if row.rank <= 3 and row.wins > 0 else f"`{row.rank}.`"
    rate = 100 * row.wins // max(row.games, 1)
    games = ngettext(lang, "{n} game", "{n} games", row.games)
    wins = ngettext(lang, "{n} win", "{n} wins", row.wins)
    line = f"{mark} {player_label(row, lang)} · **{row.ordinal:.1f}** · {games} · {wins} ({rate}%)"
    if month and row.change is not None:
        line += " · " + _(lang, "{change} this month", change=f"{row.change:+.1f}")
    return line


def ladder_embed(
    game: str, period: str, page: int, ladder: LadderPage, lang: str = i18n.ENGLISH
) -> discord.Embed:
    title = all_games()[game].title if game in all_games() else game
    month = period == "month"
    empty = _(lang, "No rated games this month yet.") if month else _(lang, "No rated games yet.")
    embed = discord.Embed(
        title=f"🏆 {title} · {_(lang, PERIODS[period])}",
        colour=discord.Colour.gold(),
        description="\n".join(ladder_line(row, month, lang) for row in ladder.rows) or empty,
    )
    pages = max(1, -(-ladder.total // LADDER_PAGE))
    order = _(lang, "rating gained this month") if month else _(lang, "rating (mu − 3σ)")
    embed.set_footer(
        text=_(lang, "Page {page} of {pages}", page=page + 1, pages=pages)
        + " · "
        + ngettext(lang, "{n} player", "{n} players", ladder.total)
        + " · "
        + _(lang, "by {order}", order=order)
    )
    return embed


class LadderButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:lb:(?P<game>[a-z_]+):(?P<period>all|month):(?P<computers>[01]):"
    r"(?P<page>[0-9]{1,6}):(?P<way>[pn])",
):
    """Previous (``p``) or Next (``n``): shows ``page`` of the ladder the custom id names."""

    def __init__(
        self,
        game: str,
        period: str,
        computers: bool,
        page: int,
        way: str,
        disabled: bool = False,
        lang: str = i18n.ENGLISH,
    ) -> None:
        self.game, self.period, self.computers, self.page = game, period, computers, page
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Previous") if way == "p" else _(lang, "Next"),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"ct:lb:{game}:{period}:{int(computers)}:{page}:{way}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> LadderButton:
        return cls(
            match["game"], match["period"], match["computers"] == "1", int(match["page"]), "p"
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        client = interaction.client
        assert isinstance(client, commands.Bot)
        stats = client.get_cog("Stats")
        assert isinstance(stats, Stats)
        embed, view = await stats.ladder_page(
            interaction.guild_id, self.game, self.period, self.computers, self.page
        )
        await interaction.response.edit_message(embed=embed, view=view)


def ladder_view(
    game: str, period: str, computers: bool, page: int, total: int, lang: str = i18n.ENGLISH
) -> discord.ui.View | None:
    pages = -(-total // LADDER_PAGE)
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LadderButton(game, period, computers, max(page - 1, 0), "p", page <= 0, lang))
    view.add_item(
        LadderButton(
            game, period, computers, min(page + 1, pages - 1), "n", page >= pages - 1, lang
        )
    )
    return view


def stats_embed(
    stats: PlayerStats, name: str, game: str | None, chart: bool, lang: str = i18n.ENGLISH
) -> discord.Embed:
    games = all_games()
    titled = games[game].title if game in games else _(lang, "all games")
    embed = discord.Embed(title=f"📊 {name} · {titled}", colour=discord.Colour.blurple())
    rate = 100 * stats.wins // max(stats.games, 1)
    embed.description = (
        ngettext(lang, "**{n}** game", "**{n}** games", stats.games)
        + " · "
        + ngettext(lang, "**{n}** win", "**{n}** wins", stats.wins)
        + f" ({rate}%)"
    )
    if stats.tallies and game is None:
        embed.add_field(
            name=_(lang, "Games"),
            value="\n".join(
                _(
                    lang,
                    "{game}: {games} played, {wins} won",
                    game=games[t.game].title if t.game in games else t.game,
                    games=t.games,
                    wins=t.wins,
                )
                + (
                    " · " + _(lang, "rating {rating}", rating=f"**{t.rating:.1f}**")
                    if t.rating is not None
                    else ""
                )
                for t in stats.tallies
            )[:1024],
            inline=False,
        )
    if stats.game is not None:
        shown = games[stats.game].title if stats.game in games else stats.game
        rating = _(lang, "not rated yet") if stats.rating is None else f"**{stats.rating:.1f}**"
        after = ngettext(
            lang,
            "{rating} after {n} rated game",
            "{rating} after {n} rated games",
            stats.rated_games,
            rating=rating,
        )
        embed.add_field(name=_(lang, "Rating · {game}", game=shown), value=after, inline=True)
    if stats.partner is not None:
        partner = stats.partner
        together = _(lang, "{won} won of {games} together", won=partner.wins, games=partner.games)
        embed.add_field(
            name=_(lang, "Best partner"), value=f"<@{partner.user_id}> · {together}", inline=True
        )
    if stats.calls:
        embed.add_field(
            name=_(lang, "Favourite calls"),
            value="\n".join(
                (
                    _(lang, "{call}: {made} made", call=c.label, made=c.made)
                    if c.won is None
                    else _(
                        lang, "{call}: {made} made, {won} won", call=c.label, made=c.made, won=c.won
                    )
                )
                for c in stats.calls
            ),
            inline=False,
        )
    if stats.recent:
        lines = []
        for played in stats.recent:
            title = games[played.game].title if played.game in games else played.game
            how = _(lang, "won") if played.won else _(lang, "lost")
            how = _(lang, "abandoned") if played.abandoned else how
            how = _(lang, "sat out (away: a computer played)") if played.sat_out else how
            change = f" ({played.delta:+.1f})" if played.delta is not None else ""
            lines.append(
                f"<t:{int(played.finished_at)}:d> #{played.table_id} {title}: {how}{change}"
            )
        embed.add_field(name=_(lang, "Last games"), value="\n".join(lines)[:1024], inline=False)
    if chart:
        embed.set_image(url=f"attachment://{CHART_NAME}")
    return embed


class Stats(commands.Cog):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    async def ladder_page(
        self, guild_id: int, game: str, period: str, computers: bool, page: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """A page of the ladder, in the server's language (everyone in the channel reads it)."""
        lang = await self.bot.sessions.table_language(guild_id)
        ladder = await self.bot.sessions.ladder(
            guild_id, game, month=period == "month", computers=computers, page=page
        )
        pages = max(1, -(-ladder.total // LADDER_PAGE))
        if page >= pages and ladder.total:  # the ladder shrank (a forgotten player): last page
            return await self.ladder_page(guild_id, game, period, computers, pages - 1)
        return (
            ladder_embed(game, period, page, ladder, lang),
            ladder_view(game, period, computers, page, ladder.total, lang),
        )

    @app_commands.command(name="leaderboard", description="This server's rated ladder for a game.")
    @app_commands.describe(
        game="The game",
        period="All time (by rating) or this month (by rating gained)",
        computers="Also list the computer players, one entry per level",
    )
    @app_commands.choices(
        period=[
            app_commands.Choice(name="all time", value="all"),
            app_commands.Choice(name="this month", value="month"),
        ]
    )
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str,
        period: str = "all",
        computers: bool = False,
    ) -> None:
        if interaction.guild_id is None:  # a stale or crafted client in a DM
            raise app_commands.NoPrivateMessage()
        if game not in all_games():
            await answer_in(interaction, N_("There is no game called {game}."), game=quote(game))
            return
        if period not in PERIODS:
            await answer_in(interaction, N_("Choose the period: all time or this month."))
            return
        embed, view = await self.ladder_page(interaction.guild_id, game, period, computers, 0)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="A player's games, rating and partners here.")
    @app_commands.describe(player="Whose statistics (yours when left out)", game="Only this game")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        if game is not None and game not in all_games():
            await answer_in(interaction, N_("There is no game called {game}."), game=quote(game))
            return
        who = player or interaction.user
        if who.bot:
            await answer_in(
                interaction,
                N_("Bots have no statistics here; computer players are on {command}."),
                command="`/leaderboard computers:true`",
            )
            return
        await interaction.response.defer(thinking=True)
        reply = await self.stats_reply(interaction.guild_id, who.id, who.display_name, game)
        await interaction.followup.send(**reply)

    async def stats_reply(
        self, guild_id: int, user_id: int, name: str, game: str | None
    ) -> dict[str, Any]:
        """The answer to ``/stats`` (the follow-up's arguments): the embed with its chart, or
        the words for a player without games. Apart from the command so that the benchmark
        times what a player waits for."""
        lang = await self.bot.sessions.table_language(guild_id)  # a public answer
        stats = await self.bot.sessions.player_stats(guild_id, user_id, game)
        if not stats.games and not stats.recent:
            text = _(lang, "{who} has no finished games in this server yet.", who=shown_name(name))
            return {"content": text}
        files = []
        if len(stats.trend) >= 1 and stats.game is not None:
            title = all_games()[stats.game].title if stats.game in all_games() else stats.game
            png = await asyncio.get_running_loop().run_in_executor(
                None, trend_png, stats.trend, f"{name} · {title}", lang
            )
            files.append(discord.File(io.BytesIO(png), filename=CHART_NAME))
        embed = stats_embed(stats, shown_name(name), game, bool(files), lang)
        return {"embed": embed, "files": files}


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(LadderButton)
    await bot.add_cog(Stats(bot))
