"""Every contract example under transcripts/ replays to the figures the contract states."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.transcript import replay
from tests.games.golden import golden_files, load, mismatches

FILES = golden_files()


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_golden_transcript(path: Path) -> None:
    example = load(path)
    output = replay(example["transcript"])
    problems = mismatches(example["expected"], output)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_replay_is_deterministic(path: Path) -> None:
    transcript = load(path)["transcript"]
    assert replay(transcript) == replay(json.loads(json.dumps(transcript)))


def test_subset_matching_reports_differences() -> None:
    assert mismatches({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2, "c": 3}], "d": 4}) == []
    assert mismatches({"a": [1]}, {"a": [1, 2]}) != []
    assert mismatches({"a": {"b": 2}}, {"a": {"b": 3}}) == ["$.a.b: expected 2, got 3"]


def test_replay_command_line(tmp_path: Path) -> None:
    """``python -m games replay`` prints the same JSON as :func:`replay`, from a file or stdin."""
    if not FILES:
        pytest.skip("no golden transcripts yet")
    transcript = load(FILES[0])["transcript"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(transcript))
    from_file = subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    from_stdin = subprocess.run(
        [sys.executable, "-m", "games", "replay", "-"],
        input=json.dumps(transcript),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(from_file.stdout) == replay(transcript)
    assert from_file.stdout == from_stdin.stdout
