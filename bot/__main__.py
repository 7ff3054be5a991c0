"""``python -m bot``: load .env, validate every setting, then run until stopped (bot.startup).

``python -m bot --processes N`` runs N bot processes sharing the shards (bot.launcher).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from dotenv import find_dotenv, load_dotenv

from bot.config import Settings, SettingsError
from bot.console import EXIT_CANNOT_START, EXIT_INTERRUPTED, configure_logging, say
from bot.launcher import launch


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the card table bot.")
    parser.add_argument(
        "--processes",
        type=int,
        metavar="N",
        help="run N bot processes, each with its share of the shards (SHARD_COUNT, N if unset), "
        "starting again any that dies",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
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
        if args.processes is not None:
            return asyncio.run(launch(settings, args.processes))
        from bot.startup import serve  # the bot itself: its launcher never loads it

        return asyncio.run(serve(settings))
    except KeyboardInterrupt:  # Ctrl-C before the handlers were installed or after they left
        say("stopped at once: every move was already saved")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
