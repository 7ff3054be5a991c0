"""``/tournament new|start|show|drop|cancel|invite``, the sign-up buttons, and the runner's posts.

Thin: what happens is :class:`bot.sessions.tournaments.TournamentRunner`'s; this turns commands
and clicks into its calls and posts what it asks to (tables in their threads, standings).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _
from bot.pictures.table import Picture
from bot.sessions import LiveTable, UserError, parse_options
from bot.sessions.settings import may_organise
from bot.sessions.tournament_texts import (
    ENTERED_NOBODY,
    SIGN_UP,
    round_length,
    signup_text,
    status_text,
)
from bot.sessions.tournaments import TournamentRow, TournamentRunner
from bot.tournaments.spec import MAX_ROUND_MINUTES, MIN_ROUND_MINUTES, ROUND_MINUTES
from bot.tournaments.start import MAX_START_MINUTES, BadStart, start_time
from cogs.board import Board
from cogs.errors import answer, answer_in, guarded, patiently, quote
from cogs.interactions import bot_of, is_admin
from cogs.language import public_language, reader_language, text_for
from cogs.render import jump_url
from cogs.tables import game_autocomplete
from games.registry import get_game

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)
RESUME_RETRY_SECONDS = 5
Button = discord.ui.Button[discord.ui.View]
MAX_MESSAGE = 1900
STANDINGS_FILE = "standings.png"

ONLY_MANAGERS = N_("Only a member with Manage Server can run a tournament here.")
ONLY_MANAGERS_OR_ROLE = N_(
    "Only a member with Manage Server or the {role} role can run a tournament here."
)
PAIRS_BY_INVITATION = N_("Pairs enter together: `/tournament invite partner:` your partner.")
ENTERED = N_("You are entered in tournament #{id} as #{entrant}.")
ONLY_INVITED = N_("Only the invited partner can accept.")
ENTERED_AS_PAIR = N_("You are entered as a pair: #{entrant} {name}.")
PAIR_ENTERED = N_("A pair entered tournament #{id}.")
ONLY_THE_TWO = N_("Only the two people invited to partner can answer.")
NO_LONGER_OPEN = N_("That invitation is no longer open.")
DECLINED = N_("An invitation to partner in tournament #{id} was declined.")
NONE_OPEN = N_("There is no open tournament here; give its number.")
OPEN_FOR_SIGNUP = N_("Tournament #{id} is open for sign-up:")
INVITE_A_PERSON = N_("Invite a person: computers play only for absent players.")
INVITES_YOU = N_("{mention}: {name} invites you to enter tournament #{id} as a pair.")
INVITATION_SENT = N_("Invitation sent to {name}.")
STARTED = N_("Tournament #{id} has started.")
SHOWN = N_("Tournament #{id} ({status}). {length}")
WITHDRAWN = N_("Your entry ({entrant}) is withdrawn.")
CANCELLED = N_("Tournament #{id} is cancelled; open tables play on.")
ACCEPT = N_("Accept")
DECLINE = N_("Decline")


def runner_of(interaction: discord.Interaction) -> TournamentRunner:
    return bot_of(interaction).tournaments


def signup_view(tournament_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SignUpButton(tournament_id, _(lang, SIGN_UP)))
    return view


def sign_up_text(row: TournamentRow, summary: str, lang: str) -> str:
    return signup_text(row, summary, lang, get_game(row.spec.game).title)


async def refresh_signup(interaction: discord.Interaction, tournament_id: int) -> None:
    """Show the entrants on the sign-up message (edited in place, in the server's language;
    best effort)."""
    runner = runner_of(interaction)
    row = await runner.get(tournament_id, interaction.guild_id or 0)
    if row.message_id is None:
        return
    lang = await runner.sessions.server_language(row.guild_id)
    text = sign_up_text(row, await runner.summary(row, lang), lang)
    view = signup_view(row.id, lang) if row.status == "signup" else None  # closed: no button
    channel = interaction.client.get_partial_messageable(row.channel_id)
    try:
        await channel.get_partial_message(row.message_id).edit(content=text, view=view)
    except discord.HTTPException as error:
        log.warning("tournament %s: sign-up message not edited (%s)", row.id, error)


def when_it_starts(text: str, now: float) -> float:
    """The start as typed (minutes from now, or a UTC clock time), or the user's refusal."""
    try:
        return start_time(text, now)
    except BadStart as error:
        raise UserError(
            str(error), code=f"start_{error.kind}", params={"most": MAX_START_MINUTES}
        ) from None


class SignUpButton(discord.ui.DynamicItem[Button], template=r"ct:ts:(?P<tournament>[0-9]+)"):
    """Enter a tournament of individuals (pairs enter by invitation)."""

    def __init__(self, tournament_id: int, label: str = SIGN_UP) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.success,
                custom_id=f"ct:ts:{tournament_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SignUpButton:
        return cls(int(match["tournament"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        runner = runner_of(interaction)
        row = await runner.get(self.tournament_id, interaction.guild_id or 0)
        if row.spec.members == 2:
            raise UserError(PAIRS_BY_INVITATION)
        entrant = await patiently(
            interaction,
            runner.sign_up(self.tournament_id, interaction.user.id, interaction.user.display_name),
        )
        await answer_in(interaction, ENTERED, id=row.id, entrant=entrant.id)
        await refresh_signup(interaction, row.id)


class AcceptButton(
    discord.ui.DynamicItem[Button],
    template=r"ct:ta:(?P<tournament>[0-9]+):(?P<inviter>[0-9]+):(?P<invitee>[0-9]+)",
):
    """The invited partner's answer: both enter as a pair."""

    def __init__(self, tournament_id: int, inviter: int, invitee: int, label: str = ACCEPT) -> None:
        self.tournament_id, self.inviter, self.invitee = tournament_id, inviter, invitee
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.success,
                custom_id=f"ct:ta:{tournament_id}:{inviter}:{invitee}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AcceptButton:
        return cls(int(match["tournament"]), int(match["inviter"]), int(match["invitee"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.invitee:
            raise UserError(ONLY_INVITED)
        guild = interaction.guild
        member = guild.get_member(self.inviter) if guild else None
        inviter_name = member.display_name if member else await self._name(interaction)
        runner = runner_of(interaction)
        entrant = await patiently(
            interaction,
            runner.accept(
                self.tournament_id,
                (self.inviter, inviter_name),
                (self.invitee, interaction.user.display_name),
            ),
        )
        await answer_in(interaction, ENTERED_AS_PAIR, entrant=entrant.id, name=entrant.name)
        if interaction.message is not None:  # the invitation is answered: its buttons go
            lang = await runner.sessions.server_language(interaction.guild_id or 0)
            with contextlib.suppress(discord.HTTPException):
                await interaction.message.edit(
                    content=_(lang, PAIR_ENTERED, id=self.tournament_id), view=None
                )
        await refresh_signup(interaction, self.tournament_id)

    async def _name(self, interaction: discord.Interaction) -> str:
        try:
            user = await interaction.client.fetch_user(self.inviter)
        except discord.HTTPException:
            return f"player {self.inviter}"
        return user.display_name


class DeclineButton(
    discord.ui.DynamicItem[Button],
    template=r"ct:td:(?P<tournament>[0-9]+):(?P<inviter>[0-9]+):(?P<invitee>[0-9]+)",
):
    """The invited partner declines (or the inviter takes the invitation back)."""

    def __init__(
        self, tournament_id: int, inviter: int, invitee: int, label: str = DECLINE
    ) -> None:
        self.tournament_id, self.inviter, self.invitee = tournament_id, inviter, invitee
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:td:{tournament_id}:{inviter}:{invitee}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DeclineButton:
        return cls(int(match["tournament"]), int(match["inviter"]), int(match["invitee"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id not in (self.inviter, self.invitee):
            raise UserError(ONLY_THE_TWO)
        runner = runner_of(interaction)
        if not await patiently(
            interaction, runner.decline(self.tournament_id, self.inviter, self.invitee)
        ):
            raise UserError(NO_LONGER_OPEN)
        lang = await public_language(interaction)
        await interaction.response.edit_message(
            content=_(lang, DECLINED, id=self.tournament_id), view=None
        )


DYNAMIC_ITEMS = (SignUpButton, AcceptButton, DeclineButton)


@app_commands.guild_only()
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
class Tournaments(commands.GroupCog, group_name="tournament", group_description="Tournaments"):
    """The commands; the cog is also the runner's presenter."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.runner = bot.tournaments
        self.runner.presenter = self
        self._resumed = False
        super().__init__()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Go on with every open tournament; a database that cannot be read yet is tried
        again (a bot stopping meanwhile leaves it to its next start)."""
        if self._resumed:
            return
        self._resumed = True
        while not self.bot.is_closed():
            try:
                await self.runner.resume()
                return
            except Exception as error:
                if self.bot.is_closed():
                    return
                log.warning(
                    "tournaments could not be resumed (%s); trying again in %d s",
                    type(error).__name__,
                    RESUME_RETRY_SECONDS,
                )
                await asyncio.sleep(RESUME_RETRY_SECONDS)

    # --- the runner's presenter ------------------------------------------------------------

    async def post_tables(self, tournament: TournamentRow, tables: Sequence[LiveTable]) -> None:
        board = cast(Board, self.bot.sessions.presenter)
        settings = await self.bot.sessions.guild_settings(tournament.guild_id)
        channel = self.bot.get_channel(tournament.channel_id)
        for table in tables:
            if settings.use_threads and isinstance(channel, discord.TextChannel):
                thread = await channel.create_thread(
                    name=f"Tournament #{tournament.id} · table #{table.id}",
                    type=discord.ChannelType.public_thread,
                )
                await self.bot.sessions.move_to_channel(table, thread.id)
            async with board.posting(table.id):
                if table.row.message_id is None:
                    await board.pacer.slot()
                    await board.repost(table)

    async def announce(
        self, tournament: TournamentRow, text: str, picture: Picture | None = None
    ) -> None:
        channel = self.bot.get_partial_messageable(tournament.channel_id)
        if picture is None:
            await channel.send(text[:MAX_MESSAGE])
            return
        drawn = discord.File(
            io.BytesIO(picture.png), filename=STANDINGS_FILE, description=picture.alt
        )
        await channel.send(text[:MAX_MESSAGE], file=drawn)

    # --- commands --------------------------------------------------------------------------

    async def _pick(self, interaction: discord.Interaction, number: int | None) -> TournamentRow:
        """The tournament asked for, or the newest open one in this server."""
        assert interaction.guild_id is not None
        if number is not None:
            return await self.runner.get(number, interaction.guild_id)
        rows = await patiently(interaction, self.runner.open_in(interaction.guild_id))
        if not rows:
            raise UserError(NONE_OPEN)
        return rows[-1]

    async def _may_organise(
        self, interaction: discord.Interaction, row: TournamentRow | None = None
    ) -> bool:
        """Whether the user may run this tournament (its organiser, a server manager or a
        member of the server's tournament role); if not, they are told what it takes."""
        assert interaction.guild_id is not None
        if row is not None and interaction.user.id == row.organiser_id:
            return True
        settings = await patiently(
            interaction, self.bot.sessions.guild_settings(interaction.guild_id)
        )
        roles = [role.id for role in getattr(interaction.user, "roles", ())]
        if may_organise(settings, manager=is_admin(interaction), roles=roles):
            return True
        if settings.tournament_role is None:
            await answer_in(interaction, ONLY_MANAGERS)
        else:
            await answer_in(
                interaction, ONLY_MANAGERS_OR_ROLE, role=f"<@&{settings.tournament_role}>"
            )
        return False

    @app_commands.command(name="new", description="Announce a tournament (Manage Server).")
    @app_commands.describe(
        game="Which game",
        format="Swiss (everyone plays every round) or knockout",
        entry="Pairs (two sign up together) or individuals",
        rounds="Swiss rounds (a knockout's follow from the entrants)",
        options="The game's options, e.g. target=31",
        start="When round 1 opens by itself: minutes from now (45) or a UTC time (20:30)",
        round_minutes=f"Minutes each round lasts before computers finish its games "
        f"({MIN_ROUND_MINUTES}-{MAX_ROUND_MINUTES}, default {ROUND_MINUTES})",
    )
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.choices(
        format=[app_commands.Choice(name=f, value=f) for f in ("swiss", "knockout")],
        entry=[app_commands.Choice(name=e, value=e) for e in ("pairs", "individuals")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        entry: str,
        rounds: app_commands.Range[int, 1, 15] | None = None,
        options: str | None = None,
        start: str | None = None,
        round_minutes: app_commands.Range[
            int, MIN_ROUND_MINUTES, MAX_ROUND_MINUTES
        ] = ROUND_MINUTES,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if not await self._may_organise(interaction):
            return
        starts_at = None if start is None else when_it_starts(start, self.bot.sessions.clock.now())
        row = await patiently(
            interaction,
            self.runner.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                organiser_id=interaction.user.id,
                game=game,
                format=format,
                entry=entry,
                rounds=rounds if format == "swiss" else None,
                options=parse_options(options),
                starts_at=starts_at,
                round_minutes=round_minutes,
            ),
        )
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.bot.sessions.server_language(row.guild_id)
        text = sign_up_text(row, _(lang, ENTERED_NOBODY), lang)
        channel = self.bot.get_partial_messageable(row.channel_id)
        message = await channel.send(text, view=signup_view(row.id, lang))
        await self.runner.set_message(row.id, message.id)
        link = jump_url(interaction.guild_id, row.channel_id, message.id)
        reader = await reader_language(interaction)  # a link must not be split by isolates
        await answer(
            interaction, f"{text_for(reader, _(reader, OPEN_FOR_SIGNUP, id=row.id))} {link}"
        )

    @app_commands.command(name="invite", description="Ask a partner to enter with you as a pair.")
    @app_commands.describe(partner="Your partner", tournament="The tournament's number")
    async def invite(
        self,
        interaction: discord.Interaction,
        partner: discord.Member,
        tournament: int | None = None,
    ) -> None:
        row = await self._pick(interaction, tournament)
        if partner.bot:
            raise UserError(INVITE_A_PERSON)
        await patiently(interaction, self.runner.invite(row.id, interaction.user.id, partner.id))
        lang = await public_language(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(row.id, interaction.user.id, partner.id, _(lang, ACCEPT)))
        view.add_item(DeclineButton(row.id, interaction.user.id, partner.id, _(lang, DECLINE)))
        channel = self.bot.get_partial_messageable(row.channel_id)
        name = discord.utils.escape_markdown(interaction.user.display_name)
        text = _(lang, INVITES_YOU, mention=partner.mention, name=name, id=row.id)
        await channel.send(
            text_for(lang, text),
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[partner]),
        )
        await answer_in(interaction, INVITATION_SENT, name=partner.display_name)

    @app_commands.command(name="start", description="Close sign-up and open round 1 (organiser).")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        row = await self._pick(interaction, tournament)
        if not await self._may_organise(interaction, row):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # round 1 opens
        await self.runner.start(row.id)
        await answer_in(interaction, STARTED, id=row.id)
        await refresh_signup(interaction, row.id)

    @app_commands.command(name="show", description="A tournament's entrants or standings.")
    async def show(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        row = await self._pick(interaction, tournament)
        lang = await reader_language(interaction)
        text = await patiently(interaction, self.runner.summary(row, lang))
        status, length = status_text(lang, row.status), round_length(lang, row.round_minutes)
        head = _(lang, SHOWN, id=row.id, status=status, length=length)
        await answer(interaction, f"{text_for(lang, head)}\n{text}")

    @app_commands.command(name="drop", description="Take your entry out during sign-up.")
    async def drop(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        row = await self._pick(interaction, tournament)
        entrant = await patiently(interaction, self.runner.drop(row.id, interaction.user.id))
        await answer_in(interaction, WITHDRAWN, entrant=quote(entrant.label))
        await refresh_signup(interaction, row.id)

    @app_commands.command(name="cancel", description="Cancel a tournament (organiser).")
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        row = await self._pick(interaction, tournament)
        if not await self._may_organise(interaction, row):
            return
        await patiently(interaction, self.runner.cancel(row.id))
        await answer_in(interaction, CANCELLED, id=row.id)
        await refresh_signup(interaction, row.id)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(Tournaments(bot))
