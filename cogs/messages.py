"""The catalogue texts that are not marked in the code: ``python -m cogs.messages`` (run by
``make messages`` after ``pybabel extract``) adds them to the templates.

- ``locales/commands.pot``: every string discord.py asks the command translator for (command
  and group names and descriptions, options, choices), each with its kind as the context, found
  by preparing the bot and asking each command for its translated payload.
- ``locales/cardtable.pot``: the games' rule summaries that ``/rules`` shows, and what each of
  their options does (``/table options``), the games being pure rules that mark nothing for a
  catalogue.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from discord import Locale, app_commands

from bot import i18n
from bot.app import CardTableBot
from bot.config import Settings
from games.registry import GAMES, all_games


class _Recorder(app_commands.Translator):
    """Notes every (kind, text) it is asked for; translates nothing."""

    def __init__(self) -> None:
        self.seen: set[tuple[str, str]] = set()

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        self.seen.add((context.location.name, string.message))
        return None


async def command_strings() -> list[tuple[str, str]]:
    """Every (context, text) of the bot's slash commands, sorted: the bot is prepared as at
    start-up (its cogs loaded, on a scratch database) without connecting to Discord."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings.from_env(
            {"DISCORD_TOKEN": "catalogue.only.token", "DATABASE_PATH": f"{folder}/db.sqlite3"}
        )
        bot = CardTableBot(settings)
        try:
            await bot.setup_hook()  # no application id before a login: nothing is synced
            recorder = _Recorder()
            for command in bot.tree.get_commands():
                await command.get_translated_payload(bot.tree, recorder)
            return sorted(recorder.seen)
        finally:
            await bot.close()


def summaries() -> list[str]:
    """The games' rule summaries, as ``/rules`` shows them."""
    return [game.summary_text for _, game in sorted(all_games().items()) if game.summary_text]


def option_helps() -> list[str]:
    """What each option of each game does, as ``/table options`` explains it."""
    return sorted({option.help for game in GAMES for option in game.OPTIONS})


def write_templates(folder: Path) -> None:
    commands = Catalog(project="cardtable", domain=i18n.COMMANDS_DOMAIN)
    for context, text in asyncio.run(command_strings()):
        commands.add(text, context=context)
    with (folder / f"{i18n.COMMANDS_DOMAIN}.pot").open("wb") as out:
        write_po(out, commands, width=0, omit_header=False)
    template = folder / f"{i18n.DOMAIN}.pot"
    with template.open("rb") as pot:
        catalog = read_po(pot)
    for text in summaries():
        catalog.add(text, auto_comments=["A game's rule summary, shown by /rules."])
    for text in option_helps():
        if text not in catalog:
            catalog.add(text, auto_comments=["What a game option does, shown by /table options."])
    with template.open("wb") as out:
        write_po(out, catalog, width=0)


if __name__ == "__main__":
    logging.disable(logging.WARNING)  # the cogs' start-up notes (no Discord here) are noise
    write_templates(Path(sys.argv[1] if len(sys.argv) > 1 else i18n.LOCALES))
