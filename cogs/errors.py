"""The one error path: every interaction gets a short ephemeral answer, every failure one log line.

- Slash commands: :meth:`Errors.on_app_command_error` is the command tree's ``on_error``.
- Components: discord.py swallows what a dynamic item raises (and logs its text, which could
  hold a hand), so every component callback is wrapped in :func:`guarded`; a click that reaches
  no callback at all (an unknown, crafted or disabled custom id) is answered by the watchdog in
  :meth:`Errors.on_interaction`.
- Waiting: :func:`patiently` runs a session-manager call and defers the interaction if it takes
  long (a locked or slow database), so Discord's 3 seconds always hold.

Log lines carry the guild, the table, the move number, an error id and the exception's type and
place, never its text.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import secrets
import sqlite3
import traceback
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _
from bot.sessions import UserError
from bot.sessions.answers import Answer
from cogs.language import reader_language, text_for
from cogs.refusals import refusal_text

if TYPE_CHECKING:
    from bot.app import CardTableBot

log = logging.getLogger(__name__)

T = TypeVar("T")

ANSWER_BUDGET_SECONDS = 1.5  # wait this long for the session manager before deferring
WATCHDOG_SECONDS = 1.5  # a click no callback took is answered after this long
MAX_REPLY = 1900  # Discord refuses messages over 2,000 characters
QUOTE_CHARS = 40

PAUSED = N_("The table is paused; your move was not saved, try again in a moment.")
BROKEN = N_("Something went wrong; the game is unchanged. (error `{id}`)")
NOTHING = N_("That button does nothing any more.")
DM_ONLY_SERVERS = N_("Card tables live in servers: use this command in a server channel.")
NOT_ALLOWED = N_("That value is not allowed: {value}.")
OUT_OF_DATE = N_("That command is out of date; try again in a minute.")
NOT_HERE = N_("You may not use that command here.")
CUSTOM_ID = re.compile(r"ct:[a-z]+:(?P<table>[0-9]+)(?::(?P<seq>[0-9]+))?")

# Marks an interaction a guarded callback has taken charge of (the watchdog leaves it alone).
# Kept on the interaction itself: discord.py loads an extension as a fresh module, so a module
# global would not be shared between the cogs.
TAKEN = "cardtable.taken"


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """User input fit to quote in a refusal: one line, at most ``limit`` characters."""
    flat = " ".join(str(text).split())
    shown = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return "`" + shown.replace("`", "'") + "`"


def is_database_error(error: BaseException) -> bool:
    """A failed, full, read-only or locked database (the sessions' ``TablePaused`` included).

    Not a broken constraint or a misuse: those are bugs, answered as such.
    """
    if type(error).__name__ == "TablePaused":
        return True
    return isinstance(error, sqlite3.Error) and not isinstance(
        error, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError
    )


def data_of(interaction: discord.Interaction) -> dict[str, Any]:
    """The interaction's raw data (custom id, values), as untyped as a crafted client sends it."""
    return dict(interaction.data or {})


def ids_of(interaction: discord.Interaction) -> tuple[int | None, int | None]:
    """The table and move number a component's custom id names (None, None for commands)."""
    custom_id = str(data_of(interaction).get("custom_id") or "")
    match = CUSTOM_ID.match(custom_id)
    if match is None:
        return None, None
    seq = match["seq"]
    return int(match["table"]), int(seq) if seq is not None else None


async def answer(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered (deferred) yet."""
    text = text if len(text) <= MAX_REPLY else text[: MAX_REPLY - 1] + "…"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:
        log.warning(
            "could not answer interaction %s (HTTP %s, code %s)",
            interaction.id,
            error.status,
            error.code,
        )


async def answer_in(interaction: discord.Interaction, message: str, **params: Any) -> None:
    """:func:`answer` with a catalogue text (or the session layer's :class:`Answer`), in the
    reader's language."""
    lang = await reader_language(interaction)
    text = message.said(lang) if isinstance(message, Answer) else _(lang, message, **params)
    await answer(interaction, text_for(lang, text))


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "?"
    frame = frames[-1]
    return f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}"


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed interaction and log it as one line (never the exception's text)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    lang = await reader_language(interaction)
    if isinstance(error, UserError) and not is_database_error(error):
        await answer(interaction, refusal_text(error, lang))
        return
    table_id, seq = ids_of(interaction)
    if table_id is None and interaction.guild_id is not None:  # a command: the user's table
        sessions = getattr(interaction.client, "sessions", None)
        mine = (
            sessions.table_of_user(interaction.guild_id, interaction.user.id) if sessions else None
        )
        if mine is not None:
            table_id, seq = mine.id, mine.moves
    error_id = secrets.token_hex(4)
    if is_database_error(error):
        text = refusal_text(error, lang) if isinstance(error, UserError) else _(lang, PAUSED)
        level = logging.WARNING
    else:
        text = _(lang, BROKEN, id=error_id)
        level = logging.ERROR
    log.log(
        level,
        "error %s: guild=%s table=%s move=%s user=%s %s at %s",
        error_id,
        interaction.guild_id,
        table_id,
        seq,
        interaction.user.id,
        type(error).__name__,
        _where(error),
    )
    await answer(interaction, text)


async def patiently(
    interaction: discord.Interaction, work: Coroutine[Any, Any, T], *, thinking: bool = False
) -> T:
    """Await ``work``; if it takes longer than the budget, defer so the click is answered."""
    task: asyncio.Task[T] = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ANSWER_BUDGET_SECONDS)
    if not done and not interaction.response.is_done():
        try:
            if thinking or interaction.type is discord.InteractionType.application_command:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except discord.HTTPException:
            log.warning("could not defer interaction %s", interaction.id)
    return await task


Callback = TypeVar("Callback", bound=Callable[..., Coroutine[Any, Any, None]])


def guarded(callback: Callback) -> Callback:
    """Wrap a component callback: whatever it raises is answered and logged by :func:`report`."""

    @functools.wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction) -> None:
        interaction.extras[TAKEN] = True
        try:
            await callback(self, interaction)
        except Exception as error:
            await report(interaction, error)

    return cast("Callback", wrapper)


class Errors(commands.Cog):
    """Installs the command tree's error handler and answers clicks nobody took."""

    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            await answer_in(interaction, DM_ONLY_SERVERS)
        elif isinstance(error, app_commands.TransformerError):
            await answer_in(interaction, NOT_ALLOWED, value=quote(str(error.value)))
        elif isinstance(
            error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch
        ):
            await answer_in(interaction, OUT_OF_DATE)
        elif isinstance(error, app_commands.CheckFailure):
            await answer_in(interaction, NOT_HERE)
        else:
            await report(interaction, error)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The watchdog: a click that reached no callback is still answered."""
        if interaction.type is not discord.InteractionType.component:
            return
        await asyncio.sleep(WATCHDOG_SECONDS)
        if interaction.extras.get(TAKEN) or interaction.response.is_done():
            return
        table_id, seq = ids_of(interaction)
        log.info(
            "unanswered click: guild=%s table=%s move=%s custom id of %d characters",
            interaction.guild_id,
            table_id,
            seq,
            len(str(data_of(interaction).get("custom_id") or "")),
        )
        await answer_in(interaction, NOTHING)


async def setup(bot: CardTableBot) -> None:
    await bot.add_cog(Errors(bot))
