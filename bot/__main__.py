"""``python -m bot``: load .env, validate every setting, then run until stopped (bot.startup)."""

from __future__ import annotations

import asyncio
import os
import sys

from dotenv import find_dotenv, load_dotenv

from bot.config import Settings, SettingsError
from bot.startup import EXIT_CANNOT_START, EXIT_INTERRUPTED, configure_logging, say, serve


def main() -> int:
    load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder the admin starts in
    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as error:
        if len(error.problems) == 1:
            say(f"cannot start: {error.problems[0]}")
        else:
            say(f"cannot start: {len(error.problems)} settings need fixing (in .env):")
            for problem in error.problems:
                say(f"  - {problem}")
        return EXIT_CANNOT_START
    configure_logging(settings)
    try:
        return asyncio.run(serve(settings))
    except KeyboardInterrupt:  # Ctrl-C before the handlers were installed or after they left
        say("stopped at once: every move was already saved")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
