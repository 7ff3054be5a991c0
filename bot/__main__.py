"""``python -m bot``: load .env, validate the settings, start the bot."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

import discord
from dotenv import load_dotenv

from bot.app import create_bot
from bot.config import Settings, SettingsError


def main() -> int:
    load_dotenv()
    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as error:
        print(f"cannot start: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("discord").setLevel(max(settings.log_level_number, logging.INFO))
    bot = create_bot(settings)
    try:
        asyncio.run(bot.start(settings.discord_token.reveal()))
    except discord.LoginFailure:
        print(
            "cannot start: Discord refused DISCORD_TOKEN: copy the token again from the "
            "Developer Portal's Bot page.",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
