"""``python -m games replay``: both transcript forms, honest exit codes, a readable ``--pretty``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.__main__ import main
from games.transcript import replay, unwrap
from tests.games.golden import golden_files, load

GOLDEN = golden_files()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_repository_has_wrapped_transcripts() -> None:
    assert len(GOLDEN) >= 6
    assert all({"description", "transcript"} <= set(load(path)) for path in GOLDEN)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_repository_transcript_replays(
    capsys: pytest.CaptureFixture[str], path: Path
) -> None:
    """The wrapped form is accepted; the exit code says whether a move was refused."""
    wrapped = load(path)
    code, out, err = run(capsys, str(path))
    expected = replay(wrapped["transcript"])
    assert json.loads(out) == expected
    assert "unsupported transcript format" not in json.dumps(expected)
    if expected["status"] == "rejected":
        assert code == 1
        assert err.count("\n") == 1 and err.startswith("Rejected")
        assert expected["rejected"]["error"] in err
    else:
        assert code == 0 and err == ""


def test_bare_and_wrapped_forms_give_the_same_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    wrapped_path = next(p for p in GOLDEN if replay(load(p)["transcript"])["status"] != "rejected")
    bare_path = tmp_path / "bare.json"
    bare_path.write_text(json.dumps(load(wrapped_path)["transcript"]))
    assert run(capsys, str(bare_path)) == run(capsys, str(wrapped_path))
    assert unwrap(load(bare_path)).description is None


def test_a_rejected_transcript_exits_non_zero(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "future.json"
    path.write_text(json.dumps({"format": 99, "game": "tarneeb"}))
    code, out, err = run(capsys, str(path))
    assert code == 1
    assert json.loads(out)["status"] == "rejected"
    assert err == "Rejected before the first move: unsupported transcript format 99\n"


def test_pretty_prints_one_trick_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in GOLDEN if p.parent.name == "tarneeb")
    output = replay(load(path)["transcript"])
    tricks = [trick for deal in output["deals"] for trick in deal["tricks"]]
    assert tricks
    code, out, err = run(capsys, "--pretty", str(path))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Tarneeb")
    assert lines[1] == load(path)["description"]
    trick_lines = [line for line in lines if line.lstrip().startswith("trick")]
    assert len(trick_lines) == len(tricks)
    first = tricks[0]
    assert f"seat {first['leader']} leads" in trick_lines[0]
    assert f"won by seat {first['winner']}" in trick_lines[0]
    assert "10" in out or "♠" in out  # cards as people see them
    assert not any(card in trick_lines[0] for card in first["cards"] if card[0] == "T")


def test_pretty_shows_why_a_move_was_refused(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(
        p
        for p in GOLDEN
        if (replay(load(p)["transcript"]).get("rejected") or {}).get("index") is not None
    )
    code, out, err = run(capsys, "--pretty", str(path))
    assert code == 1
    assert out.splitlines()[-1].startswith("Rejected at move")
    assert out.splitlines()[-1] + "\n" == err


def test_the_real_command_line(tmp_path: Path) -> None:
    path = GOLDEN[0]
    result = subprocess.run(
        [sys.executable, "-m", "games", "replay", "--pretty", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    rejected = replay(load(path)["transcript"])["status"] == "rejected"
    assert result.returncode == (1 if rejected else 0)
    assert "Traceback" not in result.stderr
    assert result.stdout.startswith(load(path)["transcript"]["game"].split("_")[0].capitalize())
