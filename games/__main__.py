"""Command line: ``python -m games replay FILE`` (or ``-`` for standard input).

Prints the replay as one JSON object (the spec's format), or with ``--pretty`` as readable text.
Exit code: 0 when every move was accepted, 1 when the transcript was rejected (the reason on
standard error), 2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys

from games.transcript import pretty, rejection_line, replay, unwrap

EXIT_REJECTED = 1
EXIT_UNREADABLE = 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay a transcript and print the result")
    replay_parser.add_argument(
        "file",
        help="a transcript JSON file (bare, or wrapped with description/transcript/expected "
        "as in tests/games/transcripts/), or - for standard input",
    )
    replay_parser.add_argument(
        "--pretty", action="store_true", help="print a readable game: one trick per line"
    )
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"cannot read transcript: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    wrapped = unwrap(data)
    output = replay(wrapped.transcript)
    print(pretty(output, wrapped) if args.pretty else json.dumps(output, indent=1))
    if output.get("status") == "rejected":
        print(rejection_line(output.get("rejected") or {}), file=sys.stderr)
        return EXIT_REJECTED
    return 0


if __name__ == "__main__":
    sys.exit(main())
