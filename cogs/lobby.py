"""The lobby's components and the ways back into a game: join, sit, remove, the computers' level
and hints, fill the seats with computers, choose the match length, play again (Rematch), and
sit in for a computer mid-game.

Every component is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries all it needs;
the session manager decides (who may, whether the seat is still a computer's, whether the
rematch is open already) and a refusal is a short ephemeral answer that changes nothing.
:func:`lobby_view` lays out the lobby's message; :mod:`cogs.board` puts the ways back into a
game on the table message.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import discord

from bot import i18n
from bot.i18n import N_, _
from bot.sessions import LiveTable, UserError
from cogs.errors import answer, answer_in, guarded, patiently
from cogs.interactions import bot_of, is_admin
from cogs.items import ByTable
from cogs.language import reader_language, text_for
from cogs.play import chosen_value
from cogs.render import LEVEL_TEXT, jump_url, shown_line, shown_name
from games.players import AVAILABLE_LEVELS
from games.presets import LENGTHS, current_preset, presets_for

if TYPE_CHECKING:
    from bot.app import CardTableBot

Button = discord.ui.Button[discord.ui.View]


@runtime_checkable
class Shows(Protocol):
    """What renders a table's message (the tables cog's board)."""

    def content(self, table: LiveTable) -> tuple[discord.Embed, discord.ui.View | None]: ...

    def posting(self, table_id: int) -> asyncio.Lock:
        """Held while a table's message is being posted (one post at a time per table)."""
        ...


async def _acted(interaction: discord.Interaction) -> None:
    """A lobby click that changed the lobby: its message is edited by the board."""
    if not interaction.response.is_done():
        await interaction.response.defer()


# --- the lobby: fill and length -----------------------------------------------------------------
class FillButton(ByTable, discord.ui.DynamicItem[Button], template=r"ct:lf:(?P<table>[0-9]+)"):
    """The host's one click that seats computers in every empty seat."""

    def __init__(self, table_id: int, lang: str = i18n.ENGLISH) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Fill with computers"),
                emoji="🤖",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:lf:{table_id}",
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        sessions = bot_of(interaction).sessions
        await patiently(
            interaction, sessions.fill_with_computers(self.table_id, interaction.user.id)
        )
        await _acted(interaction)


class LengthButton(
    discord.ui.DynamicItem[Button], template=r"ct:ln:(?P<table>[0-9]+):(?P<length>[a-z]+)"
):
    """One of the host's match length presets (short, standard, long)."""

    def __init__(self, table_id: int, length: str, label: str = "·") -> None:
        self.table_id, self.length = table_id, length
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:ln:{table_id}:{length}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> LengthButton:
        return cls(int(match["table"]), match["length"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.length not in LENGTHS:  # a crafted id
            await answer_in(interaction, N_("Choose one of the lengths offered."))
            return
        sessions = bot_of(interaction).sessions
        await patiently(
            interaction, sessions.set_length(self.table_id, interaction.user.id, self.length)
        )
        await _acted(interaction)


def add_lobby_controls(view: discord.ui.View, table: LiveTable, lang: str = i18n.ENGLISH) -> None:
    """Fill (while a seat is empty) and the lengths other than the chosen one (the embed names
    that), in the first rows with room: add them before the selects, which take whole rows.

    Six seats and a free one make the biggest lobby: five actions, six seats, Fill and two
    lengths, the remove and level selects; that leaves one button's room.
    """
    if table.free_seats() and table.row.computers:  # none offered where the server allows none
        view.add_item(FillButton(table.id, lang))
    chosen = current_preset(table.row.game, table.row.options)
    for preset in presets_for(table.row.game):
        if preset != chosen:
            label = f"{preset.length.capitalize()}: {preset.text}"
            view.add_item(LengthButton(table.id, preset.length, label))


def describe_lobby(
    embed: discord.Embed, table: LiveTable, lang: str = i18n.ENGLISH
) -> discord.Embed:
    """The lobby's length, and who a rematch still waits for."""
    if presets_for(table.row.game):
        chosen = current_preset(table.row.game, table.row.options)
        embed.add_field(
            name=_(lang, "Length"),
            value=f"**{chosen.length.capitalize()}**: {chosen.text}"
            if chosen
            else _(lang, "Custom (set by the table's options)"),
            inline=False,
        )
    waiting = [shown_name(s.name) for s in table.humans() if not s.confirmed]
    if waiting:
        embed.add_field(
            name=_(lang, "Rematch: waiting for"),
            value=_(
                lang,
                "{who}: press **{join}** to keep your seat (**{leave}** to decline).",
                who=", ".join(waiting),
                join=_(lang, LOBBY_ACTIONS["join"]),
                leave=_(lang, LOBBY_ACTIONS["leave"]),
            ),
            inline=False,
        )
    return embed


# --- play again ---------------------------------------------------------------------------------
class RematchButton(ByTable, discord.ui.DynamicItem[Button], template=r"ct:rm:(?P<table>[0-9]+)"):
    """On a finished game's board: open the rematch lobby, or confirm one's seat in it."""

    def __init__(self, table_id: int, lang: str = i18n.ENGLISH) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Rematch"),
                emoji="🔁",
                style=discord.ButtonStyle.success,
                custom_id=f"ct:rm:{table_id}",
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        # Discord may be slow to take the lobby's message: the click is answered anyway.
        table, created, posted = await patiently(
            interaction, _open_rematch(bot, self.table_id, interaction.user.id), thinking=True
        )
        if not posted:
            await answer_in(
                interaction,
                N_(
                    "Discord did not take the message of table #{table} (the rematch); press "
                    "Rematch again in a moment."
                ),
                table=table.id,
            )
            return
        where = f"table #{table.id}"
        if table.row.message_id is not None:
            where += f": {jump_url(table.row.guild_id, table.row.channel_id, table.row.message_id)}"
        seat = table.seat_of(interaction.user.id)
        if created and any(not s.confirmed for s in table.humans()):
            text = f"The rematch is open at {where}. The others press Join there to play."
        elif created:
            text = f"The rematch is open at {where}: press Start there to play."
        elif seat is not None and table.seats[seat].confirmed:
            text = f"You are in the rematch, {where}."
        else:
            text = f"The rematch is {where}."
        await answer(interaction, text)


async def _open_rematch(
    bot: CardTableBot, table_id: int, user_id: int
) -> tuple[LiveTable, bool, bool]:
    """The rematch lobby (opened by this click or found), whether this click opened it, and
    whether its message is posted (False: Discord did not take it, a later click tries again)."""
    table, created = await bot.sessions.rematch(table_id, user_id)
    try:
        await post_rematch(bot, table, table_id)
    except discord.HTTPException:
        return table, created, False
    return table, created, True


async def post_rematch(bot: CardTableBot, table: LiveTable, old_id: int) -> None:
    """Post the rematch lobby (``table``) of table ``old_id`` in the old table's channel, naming
    who must confirm, unless it has its message already. One lobby, one message: a click while
    another click's post is under way (Discord slow, or rate limiting) waits for that post
    instead of making a second.
    """
    board = bot.sessions.presenter
    if not isinstance(board, Shows):
        raise RuntimeError("no board renders tables")
    async with board.posting(table.id):
        if table.row.message_id is None:
            await _post_rematch(bot, board, table, old_id)


async def _post_rematch(bot: CardTableBot, board: Shows, table: LiveTable, old_id: int) -> None:
    embed, view = board.content(table)
    waiting = [s.user_id for s in table.humans() if not s.confirmed and s.user_id is not None]
    content = f"Rematch of the game at table #{old_id}: this is table #{table.id}."
    if waiting:
        content += " " + " ".join(f"<@{user}>" for user in waiting) + ": press Join to play."
    channel = bot.get_partial_messageable(table.row.channel_id)
    message = await channel.send(
        content=content,
        embed=embed,
        view=view or discord.utils.MISSING,
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(user) for user in waiting], roles=False, everyone=False
        ),
    )
    try:
        await bot.sessions.set_message(table, message.id)
    except UserError:  # not kept (the database is paused): the next click posts the one message
        with contextlib.suppress(discord.HTTPException):
            await message.delete()
        raise


# --- sitting in for a computer ------------------------------------------------------------------
class SitInButton(ByTable, discord.ui.DynamicItem[Button], template=r"ct:sn:(?P<table>[0-9]+)"):
    """On a running table with a computer seat: a newcomer asks to play it."""

    def __init__(self, table_id: int, lang: str = i18n.ENGLISH) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Sit in"),
                emoji="🪑",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:sn:{table_id}",
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        sessions = bot_of(interaction).sessions
        table = sessions.find(self.table_id)
        if table is None:
            await answer_in(interaction, N_("There is no computer seat to sit in for here."))
            return
        # Only the seats this person may take (one who played here: her own side's).
        seats = sessions.check_sit_in(table, interaction.user.id)
        if len(seats) == 1:
            await ask_to_sit_in(interaction, self.table_id, seats[0])
            return
        lang = await reader_language(interaction)
        view = discord.ui.View(timeout=None)
        for seat in seats:
            label = _(lang, "Seat {seat}: {name}", seat=seat + 1, name=table.seats[seat].name)
            view.add_item(SitInSeat(self.table_id, seat, label))
        await interaction.response.send_message(
            text_for(
                lang, _(lang, "Which computer's seat would you like? The host is asked to agree.")
            ),
            view=view,
            ephemeral=True,
        )


class SitInSeat(
    discord.ui.DynamicItem[Button], template=r"ct:sc:(?P<table>[0-9]+):(?P<seat>[0-9]+)"
):
    """The newcomer's choice of a computer seat."""

    def __init__(self, table_id: int, seat: int, label: str = "·") -> None:
        self.table_id, self.seat = table_id, seat
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:sc:{table_id}:{seat}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> SitInSeat:
        return cls(int(match["table"]), int(match["seat"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await ask_to_sit_in(interaction, self.table_id, self.seat)


async def ask_to_sit_in(interaction: discord.Interaction, table_id: int, seat: int) -> None:
    """Keep the request and ask the host in the table's channel, with Yes and No buttons."""
    bot = bot_of(interaction)
    user = interaction.user
    await patiently(
        interaction, bot.sessions.ask_sit_in(table_id, user.id, user.display_name, seat)
    )
    table = bot.sessions.get(table_id)
    lang = await bot.sessions.table_language(table.row.guild_id)  # a post in the channel
    view = discord.ui.View(timeout=None)
    view.add_item(SitInAnswer(table_id, seat, user.id, True, lang))
    view.add_item(SitInAnswer(table_id, seat, user.id, False, lang))
    channel = bot.get_partial_messageable(table.row.channel_id)
    stand_in = shown_name(table.seats[seat].name)
    former = bot.sessions.former_seats(table, user.id)
    played = (
        " "
        + _(
            lang,
            "(who played seat {seats} earlier in this game)",
            seats=", ".join(str(s + 1) for s in former),
        )
        if former
        else ""
    )
    try:
        await channel.send(  # pings the host alone, whatever the asker's name holds
            f"<@{table.row.host_id}>: **{shown_name(user.display_name)}** (<@{user.id}>){played} "
            + _(
                lang,
                "asks to sit in for {stand_in} (seat {seat}) at table #{table}.",
                stand_in=stand_in,
                seat=seat + 1,
                table=table_id,
            ),
            view=view,
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(table.row.host_id)], roles=False, everyone=False
            ),
        )
    except discord.HTTPException:
        await bot.sessions.withdraw_sit_in(table_id, user.id, seat)
        await answer_in(
            interaction, N_("Discord did not take the question to the host; try again.")
        )
        return
    await answer_in(
        interaction, N_("The host is asked; you play seat {seat} once they agree."), seat=seat + 1
    )


class SitInAnswer(
    discord.ui.DynamicItem[Button],
    template=r"ct:sa:(?P<table>[0-9]+):(?P<seat>[0-9]+):(?P<user>[0-9]+):(?P<agree>[yn])",
):
    """The host's answer to a request to sit in (only the host's click counts)."""

    def __init__(
        self, table_id: int, seat: int, user_id: int, agree: bool, lang: str = i18n.ENGLISH
    ) -> None:
        self.table_id, self.seat, self.user_id, self.agree = table_id, seat, user_id, agree
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Let them sit in") if agree else _(lang, "No, thanks"),
                style=discord.ButtonStyle.success if agree else discord.ButtonStyle.secondary,
                custom_id=f"ct:sa:{table_id}:{seat}:{user_id}:{'y' if agree else 'n'}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> SitInAnswer:
        return cls(
            int(match["table"]), int(match["seat"]), int(match["user"]), match["agree"] == "y"
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        sessions = bot_of(interaction).sessions
        text = await patiently(
            interaction,
            sessions.answer_sit_in(
                self.table_id, interaction.user.id, self.seat, self.user_id, self.agree
            ),
        )
        shown = shown_line(text, [])
        if interaction.response.is_done():
            await interaction.edit_original_response(content=shown, view=None)
        else:
            await interaction.response.edit_message(content=shown, view=None)


LOBBY_ACTIONS = {
    "join": N_("Join"),
    "leave": N_("Leave"),
    "cpu": N_("Add computer player"),
    "start": N_("Start"),
    "cancel": N_("Cancel"),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:l:(?P<table>[0-9]+):(?P<action>[a-z]+)(?P<seat>[0-9]*)",
):
    def __init__(
        self,
        table_id: int,
        action: str,
        seat: int | None = None,
        label: str = "·",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        self.table_id, self.action, self.seat = table_id, action, seat
        suffix = "" if seat is None else str(seat)
        super().__init__(
            discord.ui.Button(
                label=label, style=style, row=row, custom_id=f"ct:l:{table_id}:{action}{suffix}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> LobbyButton:
        seat = int(match["seat"]) if match["seat"] else None
        return cls(int(match["table"]), match["action"], seat)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await patiently(interaction, self._act(interaction))
        if not interaction.response.is_done():
            await interaction.response.defer()

    async def _act(self, interaction: discord.Interaction) -> None:
        sessions = bot_of(interaction).sessions
        user = interaction.user
        if self.action == "join":
            await sessions.join(self.table_id, user.id, user.display_name)
        elif self.action == "sit" and self.seat is not None:
            await sessions.sit(self.table_id, user.id, user.display_name, self.seat)
        elif self.action == "leave":
            await sessions.leave(self.table_id, user.id)
        elif self.action == "cpu":
            await sessions.add_computer(self.table_id, user.id)
        elif self.action == "start":
            await sessions.start(self.table_id, user.id)
        elif self.action == "cancel":
            await sessions.cancel(self.table_id, user.id, is_admin(interaction))
        else:
            raise UserError(N_("That button does nothing any more."))


class RemoveSelect(
    ByTable,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ct:lr:(?P<table>[0-9]+)",
):
    """The host's (or a server manager's) way to clear a seat in the lobby."""

    def __init__(
        self,
        table_id: int,
        seats: list[tuple[int, str]] | None = None,
        lang: str = i18n.ENGLISH,
    ) -> None:
        self.table_id = table_id
        options = [
            discord.SelectOption(
                label=_(lang, "Seat {seat}: {name}", seat=seat + 1, name=name)[:100],
                value=str(seat),
            )
            for seat, name in seats or []
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ct:lr:{table_id}",
                placeholder=_(lang, "Remove a player (host)"),
                row=3,
                options=options or [discord.SelectOption(label="·", value="none")],
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        value = chosen_value(interaction)  # only a seat this select offered (never the host's)
        table = bot_of(interaction).sessions.find(self.table_id)
        host_seat = table.seat_of(table.row.host_id) if table is not None else None
        if value is None or not value.isdigit() or int(value) == host_seat:
            await answer_in(interaction, N_("Choose one of the seats offered."))
            return
        await patiently(
            interaction,
            bot_of(interaction).sessions.remove(
                self.table_id, interaction.user.id, int(value), is_admin(interaction)
            ),
        )
        if not interaction.response.is_done():
            await interaction.response.defer()


class LevelSelect(
    ByTable,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ct:lv:(?P<table>[0-9]+)",
):
    """The host's choice of the computer players' level, in the lobby."""

    def __init__(self, table_id: int, current: str = "normal", lang: str = i18n.ENGLISH) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Select(
                custom_id=f"ct:lv:{table_id}",
                placeholder=_(lang, "Computer players' level (host)"),
                row=4,
                options=[
                    discord.SelectOption(
                        label=_(lang, "Computer level: {level}", level=level),
                        value=level,
                        description=_(lang, LEVEL_TEXT[level])[:100],
                        default=level == current,
                    )
                    for level in AVAILABLE_LEVELS
                ],
            )
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        value = chosen_value(interaction)  # only a level this select offered
        if value is None or value not in AVAILABLE_LEVELS:
            await answer_in(interaction, N_("Choose one of the levels offered."))
            return
        await patiently(
            interaction,
            bot_of(interaction).sessions.set_computer_level(
                self.table_id, interaction.user.id, value
            ),
        )
        if not interaction.response.is_done():
            await interaction.response.defer()


class HintsToggle(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ct:lh:(?P<table>[0-9]+):(?P<on>[01])",
):
    """The host turns hints on or off in the lobby; the custom id carries the state it sets, so a
    double or stale click sets the same state again."""

    def __init__(self, table_id: int, on: bool, lang: str = i18n.ENGLISH) -> None:
        self.table_id, self.on = table_id, on
        super().__init__(
            discord.ui.Button(
                label=_(lang, "Turn hints on (unrated)") if on else _(lang, "Turn hints off"),
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ct:lh:{table_id}:{int(on)}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> HintsToggle:
        return cls(int(match["table"]), match["on"] == "1")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await patiently(
            interaction,
            bot_of(interaction).sessions.set_hints(self.table_id, interaction.user.id, self.on),
        )
        if not interaction.response.is_done():
            await interaction.response.defer()


def lobby_view(table: LiveTable, lang: str = i18n.ENGLISH) -> discord.ui.View:
    """The lobby's controls, in the server's language."""
    view = discord.ui.View(timeout=None)
    styles = {
        "join": discord.ButtonStyle.success,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }
    for action, label in LOBBY_ACTIONS.items():
        if action == "cpu" and not table.row.computers:  # the server allowed none: not offered
            continue
        view.add_item(
            LobbyButton(
                table.id,
                action,
                None,
                _(lang, label),
                styles.get(action, discord.ButtonStyle.secondary),
                row=0,
            )
        )
    game_class = table.game_class
    # Only free seats: a taken one cannot be sat at, and the host's seat always leaves at most
    # five, so they fit one row and the biggest lobby keeps room for every control.
    for index, seat in enumerate(table.free_seats()):
        label = (
            _(lang, "Sit at seat {seat} (team {team})", seat=seat + 1, team="AB"[seat % 2])
            if game_class.teams
            else _(lang, "Sit at seat {seat}", seat=seat + 1)
        )
        view.add_item(
            LobbyButton(
                table.id,
                "sit",
                seat,
                label,
                discord.ButtonStyle.secondary,
                row=1 + index // 5,
            )
        )
    add_lobby_controls(view, table, lang)  # fill and length, in the rows with room
    guests = [
        (seat.seat, seat.name)
        for seat in sorted(table.seats.values(), key=lambda s: s.seat)
        if seat.user_id != table.row.host_id
    ]
    if guests:
        view.add_item(RemoveSelect(table.id, guests, lang))
    if table.row.computers:  # the level of computer seats, which a table without them lacks
        view.add_item(LevelSelect(table.id, table.row.computer_level, lang))
    view.add_item(HintsToggle(table.id, not table.row.hints, lang))  # in the first row with room
    return view


DYNAMIC_ITEMS = (
    LobbyButton,
    RemoveSelect,
    LevelSelect,
    HintsToggle,
    FillButton,
    LengthButton,
    RematchButton,
    SitInButton,
    SitInSeat,
    SitInAnswer,
)
