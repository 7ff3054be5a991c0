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

from bot.i18n import N_
from bot.pictures.table import Picture
from bot.sessions import LiveTable, UserError, parse_options
from bot.sessions.settings import may_organise
from bot.sessions.tournaments import TournamentRow, TournamentRunner
from bot.tournaments.spec import MAX_ROUND_MINUTES, MIN_ROUND_MINUTES, ROUND_MINUTES
from bot.tournaments.start import MAX_START_MINUTES, BadStart, start_time
from cogs.board import Board
from cogs.errors import answer, answer_in, guarded, patiently, quote
from cogs.interactions import bot_of, is_admin
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


def runner_of(interaction: discord.Interaction) -> TournamentRunner:
    return bot_of(interaction).tournaments


def signup_view(tournament_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SignUpButton(tournament_id))
    return view


async def refresh_signup(interaction: discord.Interaction, tournament_id: int) -> None:
    """Show the entrants on the sign-up message (edited in place; best effort)."""
    runner = runner_of(interaction)
    row = await runner.get(tournament_id, interaction.guild_id or 0)
    if row.message_id is None:
        return
    text = signup_text(row, await runner.summary(row))
    view = signup_view(row.id) if row.status == "signup" else None  # closed: no button
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


def signup_text(row: TournamentRow, summary: str) -> str:
    spec = row.spec
    rounds = f", {spec.rounds} round{'s' if spec.rounds != 1 else ''}" if spec.rounds else ""
    start = ""
    if row.starts_at:
        when = int(row.starts_at)
        start = f" Sign-up closes and round 1 opens <t:{when}:F> (<t:{when}:R>)."
    length = f" Each round lasts {row.round_minutes} minutes."
    how = (
        "Pairs: one partner uses `/tournament invite`, the other accepts."
        if spec.members == 2
        else "Press **Sign up** to enter."
    )
    if row.status != "signup":
        how = f"Sign-up is closed ({row.status}): `/tournament show tournament:{row.id}`."
    head = (
        f"**Tournament #{row.id}**: {get_game(spec.game).title}, {spec.format.value}{rounds}, "
        f"{spec.entry.value}.{length}{start}\n{how}"
    )
    return f"{head}\n{summary}"[:MAX_MESSAGE]


class SignUpButton(discord.ui.DynamicItem[Button], template=r"ct:ts:(?P<tournament>[0-9]+)"):
    """Enter a tournament of individuals (pairs enter by invitation)."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            discord.ui.Button(
                label="Sign up",
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
            raise UserError("Pairs enter together: `/tournament invite partner:` your partner.")
        entrant = await patiently(
            interaction,
            runner.sign_up(self.tournament_id, interaction.user.id, interaction.user.display_name),
        )
        await answer(interaction, f"You are entered in tournament #{row.id} as #{entrant.id}.")
        await refresh_signup(interaction, row.id)


class AcceptButton(
    discord.ui.DynamicItem[Button],
    template=r"ct:ta:(?P<tournament>[0-9]+):(?P<inviter>[0-9]+):(?P<invitee>[0-9]+)",
):
    """The invited partner's answer: both enter as a pair."""

    def __init__(self, tournament_id: int, inviter: int, invitee: int) -> None:
        self.tournament_id, self.inviter, self.invitee = tournament_id, inviter, invitee
        super().__init__(
            discord.ui.Button(
                label="Accept",
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
            raise UserError("Only the invited partner can accept.")
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
        await answer(interaction, f"You are entered as a pair: #{entrant.id} {entrant.name}.")
        if interaction.message is not None:  # the invitation is answered: its buttons go
            with contextlib.suppress(discord.HTTPException):
                await interaction.message.edit(
                    content=f"A pair entered tournament #{self.tournament_id}.", view=None
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

    def __init__(self, tournament_id: int, inviter: int, invitee: int) -> None:
        self.tournament_id, self.inviter, self.invitee = tournament_id, inviter, invitee
        super().__init__(
            discord.ui.Button(
                label="Decline",
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
            raise UserError("Only the two people invited to partner can answer.")
        runner = runner_of(interaction)
        if not await patiently(
            interaction, runner.decline(self.tournament_id, self.inviter, self.invitee)
        ):
            raise UserError("That invitation is no longer open.")
        await interaction.response.edit_message(
            content=f"An invitation to partner in tournament #{self.tournament_id} was declined.",
            view=None,
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
            raise UserError("There is no open tournament here; give its number.")
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
        text = signup_text(row, "Entered (0): nobody yet")
        channel = self.bot.get_partial_messageable(row.channel_id)
        message = await channel.send(text, view=signup_view(row.id))
        await self.runner.set_message(row.id, message.id)
        link = jump_url(interaction.guild_id, row.channel_id, message.id)
        await answer(interaction, f"Tournament #{row.id} is open for sign-up: {link}")

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
            raise UserError("Invite a person: computers play only for absent players.")
        await patiently(interaction, self.runner.invite(row.id, interaction.user.id, partner.id))
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(row.id, interaction.user.id, partner.id))
        view.add_item(DeclineButton(row.id, interaction.user.id, partner.id))
        channel = self.bot.get_partial_messageable(row.channel_id)
        await channel.send(
            f"{partner.mention}: {discord.utils.escape_markdown(interaction.user.display_name)}"
            f" invites you to enter tournament #{row.id} as a pair.",
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[partner]),
        )
        await answer(interaction, f"Invitation sent to {partner.display_name}.")

    @app_commands.command(name="start", description="Close sign-up and open round 1 (organiser).")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        row = await self._pick(interaction, tournament)
        if not await self._may_organise(interaction, row):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # round 1 opens
        await self.runner.start(row.id)
        await answer(interaction, f"Tournament #{row.id} has started.")
        await refresh_signup(interaction, row.id)

    @app_commands.command(name="show", description="A tournament's entrants or standings.")
    async def show(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        row = await self._pick(interaction, tournament)
        text = await patiently(interaction, self.runner.summary(row))
        length = f"Each round lasts {row.round_minutes} minutes."
        await answer(interaction, f"Tournament #{row.id} ({row.status}). {length}\n{text}")

    @app_commands.command(name="drop", description="Take your entry out during sign-up.")
    async def drop(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        row = await self._pick(interaction, tournament)
        entrant = await patiently(interaction, self.runner.drop(row.id, interaction.user.id))
        await answer(interaction, f"Your entry ({quote(entrant.label)}) is withdrawn.")
        await refresh_signup(interaction, row.id)

    @app_commands.command(name="cancel", description="Cancel a tournament (organiser).")
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        row = await self._pick(interaction, tournament)
        if not await self._may_organise(interaction, row):
            return
        await patiently(interaction, self.runner.cancel(row.id))
        await answer(interaction, f"Tournament #{row.id} is cancelled; open tables play on.")
        await refresh_signup(interaction, row.id)


async def setup(bot: CardTableBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(Tournaments(bot))
