"""Command line: ``python -m games replay FILE`` (or ``-`` for standard input)."""

from __future__ import annotations

import argparse
import json
import sys

from games.transcript import replay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay a transcript and print the result")
    replay_parser.add_argument("file", help="a transcript JSON file, or - for standard input")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        data = json.loads(text)
    except (OSError, json.JSONDecodeError) as error:
        print(f"cannot read transcript: {error}", file=sys.stderr)
        return 2
    print(json.dumps(replay(data), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
