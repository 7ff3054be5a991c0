"""``/settings``: this server's card table settings (server managers) and a member's own.

One entry point, a command group: ``/settings show`` shows them all; ``server``, ``defaults``,
``reset_defaults`` and ``channels`` change the server's (Manage Server, checked here: a command's
default permission is only advice to the client, and the group must stay visible to everyone for
``/settings me``); ``me`` sets a member's own turn ping. Changes apply to tables opened from now
on. The rules of what is valid live in the session manager and the games; this cog only asks.
"""

from __future__ import annotations

from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import N_, _
from bot.sessions import GuildSettings
from bot.sessions.settings import AUTO_LANGUAGE
from cogs.errors import answer, answer_in, patiently
from cogs.language import reader_language, text_for
from cogs.render import option_help
from cogs.tables import game_autocomplete
from games.registry import all_games

if TYPE_CHECKING:
    from bot.app import CardTableBot

REFUSED = N_("Only server managers (Manage Server) can change this server's settings.")
NAME_THE_CHANNEL = N_("Name the channel to {action}.")
TITLE = N_("Card table settings")
ON = N_("on")
OFF = N_("off")
ANY_CHANNEL = N_("any channel")
AUTOMATIC = N_("automatic")
THREADS = N_("New tables in their own threads: **{on}**")
TRICK_LINES = N_("Trick results posted in a table's thread: **{on}**")
COMPUTERS = N_(
    "Computer players may join: **{on}** "
    "(off: none in the lobby; a computer still plays an away player's turns)"
)
RATED = N_("Tables are rated: **{on}**")
CHANNELS = N_("Tables can be opened in: {channels}")
LANGUAGE = N_("Language: **{language}**")
ORGANISERS = N_("Tournaments can be run by: members with Manage Server")
ORGANISERS_AND_ROLE = N_("Tournaments can be run by: members with Manage Server or {role}")
YOUR_PING = N_("Your turn ping here: **{on}**")
DEFAULTS = N_("Default options: {game}")
FROM_NOW_ON = N_("Changes apply to tables opened from now on; the language to answers from now on.")
PING_ON = N_(
    "Turn ping: **on**. I will mention you in the table's channel when it is your turn, "
    "and delete the mention once you move."
)
PING_OFF = N_("Turn ping: **off**. No turn pings for you in this server.")
ME_TEXT = N_("{ping}\nYour language: **{language}**.")
NO_OWN_LANGUAGE = N_("automatic (the server's, else your Discord's)")
# The languages as their own readers name them; "auto" forgets a choice.
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=code) for code, name in i18n.LANGUAGES.items()),
    app_commands.Choice(name="auto", value=AUTO_LANGUAGE),
]
FIELD_CHARS = 1024


def _yes(lang: str, flag: bool) -> str:
    return _(lang, ON if flag else OFF)


def format_options(options: Mapping[str, Any]) -> str:
    """``players=6 · last_trick=bonus``: options as ``/table new`` takes them."""
    return " · ".join(
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in sorted(options.items())
    )


def settings_embed(
    settings: GuildSettings, lang: str = i18n.ENGLISH, turn_ping: bool | None = None
) -> discord.Embed:
    """Every setting of a server (and the member's own turn ping, if given), one line each, in
    the reader's language."""
    games = all_games()
    embed = discord.Embed(title=_(lang, TITLE), colour=discord.Colour.blurple())
    channels = ", ".join(f"<#{c}>" for c in settings.channels) or _(lang, ANY_CHANNEL)
    language = i18n.LANGUAGES.get(settings.language or "") or _(lang, AUTOMATIC)
    seconds = settings.turn_seconds
    lines = [
        i18n.ngettext(lang, "Turn timer: **{n} second**", "Turn timer: **{n} seconds**", seconds),
        _(lang, THREADS, on=_yes(lang, settings.use_threads)),
        _(lang, TRICK_LINES, on=_yes(lang, settings.trick_lines)),
        _(lang, COMPUTERS, on=_yes(lang, settings.computers)),
        _(lang, RATED, on=_yes(lang, settings.rated)),
        _(lang, CHANNELS, channels=channels),
        _(lang, LANGUAGE, language=language),
        _(lang, ORGANISERS)
        if settings.tournament_role is None
        else _(lang, ORGANISERS_AND_ROLE, role=f"<@&{settings.tournament_role}>"),
    ]
    if turn_ping is not None:
        lines.append(_(lang, YOUR_PING, on=_yes(lang, turn_ping)))
    embed.description = text_for(lang, "\n".join(lines))
    for game, options in sorted(settings.defaults.items()):
        if options:
            title = games[game].title if game in games else game
            embed.add_field(
                name=_(lang, DEFAULTS, game=title),
                value=format_options(options)[:FIELD_CHARS],
                inline=False,
            )
    embed.set_footer(text=_(lang, FROM_NOW_ON))
    return embed


async def option_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The chosen game's option names, with what each means."""
    game = all_games().get(getattr(interaction.namespace, "game", None) or "")
    if game is None:
        return []
    typed = current.lower()
    lang = await reader_language(interaction)
    return [
        app_commands.Choice(
            name=f"{option.name}: {option_help(option, lang)}"[:100], value=option.name
        )
        for option in game.OPTIONS
        if typed in option.name
    ][:25]


async def value_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The values the chosen option allows (its default when any whole number will do)."""
    game = all_games().get(getattr(interaction.namespace, "game", None) or "")
    name = getattr(interaction.namespace, "option", None)
    option = next((o for o in game.OPTIONS if o.name == name), None) if game else None
    if option is None:
        return []
    values = option.choices or (
        (True, False) if isinstance(option.default, bool) else (option.default,)
    )
    shown = [str(v).lower() if isinstance(v, bool) else str(v) for v in values]
    return [app_commands.Choice(name=v, value=v) for v in shown if current.lower() in v][:25]


@app_commands.guild_only()
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
class Admin(commands.GroupCog, group_name="settings", group_description="Card table settings"):
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Settings belong to a server: a DM reaches here only from a stale or crafted client."""
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    async def _show(self, interaction: discord.Interaction, settings: GuildSettings) -> None:
        assert interaction.guild_id is not None
        ping = await self.bot.sessions.turn_ping_wanted(interaction.guild_id, interaction.user.id)
        embed = settings_embed(settings, await reader_language(interaction), ping)
        if interaction.response.is_done():  # deferred while the database was slow
            await interaction.followup.send(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _change(
        self, interaction: discord.Interaction, change: Coroutine[Any, Any, GuildSettings]
    ) -> None:
        """Run a change of the server's settings for a manager, then show them all."""
        if not interaction.permissions.manage_guild:
            change.close()  # never awaited: nothing changes
            await answer_in(interaction, REFUSED)
            return
        settings = await patiently(interaction, change)
        await self._show(interaction, settings)

    @app_commands.command(name="show", description="Show this server's card table settings.")
    async def show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await self._show(interaction, await self.bot.sessions.guild_settings(interaction.guild_id))

    @app_commands.command(name="server", description="Change the server's table settings.")
    @app_commands.describe(
        turn_seconds="Seconds per turn before a computer plays it (10-3600)",
        threads="Open each new table in its own thread",
        trick_lines="Post each trick's result as a line in a table's own thread",
        computers="Computer players may join tables",
        rated="Tables count for the ratings",
        language="The server's language: its tables, and answers to members who chose none",
        tournament_role="Members with this role may run tournaments (as Manage Server may)",
        clear_tournament_role="Only members with Manage Server may run tournaments again",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def server(
        self,
        interaction: discord.Interaction,
        turn_seconds: app_commands.Range[int, 10, 3600] | None = None,
        threads: bool | None = None,
        trick_lines: bool | None = None,
        computers: bool | None = None,
        rated: bool | None = None,
        language: str | None = None,
        tournament_role: discord.Role | None = None,
        clear_tournament_role: bool = False,
    ) -> None:
        assert interaction.guild_id is not None
        await self._change(
            interaction,
            self.bot.sessions.change_guild_settings(
                interaction.guild_id,
                turn_seconds,
                threads,
                computers=computers,
                rated=rated,
                trick_lines=trick_lines,
                language=language,
                tournament_role=None if tournament_role is None else tournament_role.id,
                clear_tournament_role=clear_tournament_role,
            ),
        )

    @app_commands.command(name="defaults", description="Set a game's default option here.")
    @app_commands.describe(
        game="Which game", option="Which option", value="Its value for new tables of this server"
    )
    @app_commands.autocomplete(
        game=game_autocomplete, option=option_autocomplete, value=value_autocomplete
    )
    async def defaults(
        self, interaction: discord.Interaction, game: str, option: str, value: str
    ) -> None:
        assert interaction.guild_id is not None
        await self._change(
            interaction,
            self.bot.sessions.set_game_default(interaction.guild_id, game, option, value),
        )

    @app_commands.command(
        name="reset_defaults", description="Back to a game's own default options."
    )
    @app_commands.describe(game="Which game", option="Only this option (default: all of them)")
    @app_commands.autocomplete(game=game_autocomplete, option=option_autocomplete)
    async def reset_defaults(
        self, interaction: discord.Interaction, game: str, option: str | None = None
    ) -> None:
        assert interaction.guild_id is not None
        await self._change(
            interaction,
            self.bot.sessions.reset_game_defaults(interaction.guild_id, game, option),
        )

    @app_commands.command(
        name="channels", description="Choose the channels that may host tables (none: any)."
    )
    @app_commands.describe(
        action="Add a channel, remove one, or clear the list (any channel may host tables)",
        text_channel="The channel to add or remove",
    )
    async def channels(
        self,
        interaction: discord.Interaction,
        action: Literal["add", "remove", "clear"],
        text_channel: app_commands.AppCommandChannel | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        channel = text_channel
        if not interaction.permissions.manage_guild:
            await answer_in(interaction, REFUSED)
            return
        if action != "clear" and channel is None:
            await answer_in(interaction, NAME_THE_CHANNEL, action=action)
            return
        chosen = None if channel is None else channel.id
        await self._change(
            interaction,
            self.bot.sessions.set_table_channels(
                interaction.guild_id,
                add=chosen if action == "add" else None,
                remove=chosen if action == "remove" else None,
                clear=action == "clear",
            ),
        )

    @app_commands.command(name="me", description="Your own settings.")
    @app_commands.describe(
        turn_ping="Mention me when it is my turn (deleted once I move)",
        language="The language the bot answers me in, in every server",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def me(
        self,
        interaction: discord.Interaction,
        turn_ping: Literal["on", "off"] | None = None,
        language: str | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        sessions = self.bot.sessions
        if language is not None:
            await patiently(interaction, sessions.set_user_language(interaction.user.id, language))
        if turn_ping is not None:
            await patiently(
                interaction,
                sessions.set_turn_ping_wanted(
                    interaction.guild_id, interaction.user.id, turn_ping == "on"
                ),
            )
        wanted = await sessions.turn_ping_wanted(interaction.guild_id, interaction.user.id)
        own = await sessions.user_language(interaction.user.id)
        lang = await reader_language(interaction)
        ping = _(lang, PING_ON if wanted else PING_OFF)
        chosen = i18n.LANGUAGES[own] if own else _(lang, NO_OWN_LANGUAGE)
        text = _(lang, ME_TEXT, ping=ping, language=chosen)
        await answer(interaction, text_for(lang, text))


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Admin(bot))
