"""A match log: a long duplicate match stopped part way goes on from its log with the same
figures, and a log of another match is refused rather than mixed in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.match import OtherMatch, main, match

GAME, A, B, SEED = "tarneeb", "normal", "easy", 3


def test_a_match_stopped_and_started_again_gives_the_figures_of_one_run(tmp_path: Path) -> None:
    whole = match(GAME, A, B, 4, games=1, seed=SEED)
    log = tmp_path / "match.jsonl"
    match(GAME, A, B, 2, games=1, seed=SEED, log=log)
    assert len(log.read_text(encoding="utf-8").splitlines()) == 1 + 2
    resumed = match(GAME, A, B, 4, games=1, seed=SEED, log=log, jobs=2)
    assert resumed.differences == whole.differences
    assert resumed.wins == whole.wins and resumed.games == whole.games == 2
    decisions = {level: len(times) for level, times in whole.cpu_times.items()}
    assert {level: len(times) for level, times in resumed.cpu_times.items()} == decisions
    indexes = [json.loads(line)["index"] for line in log.read_text().splitlines()[1:]]
    assert indexes == [0, 1, 2, 3], "each deal played once, the kept ones not again"


def test_a_line_cut_short_is_played_again(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    whole = match(GAME, A, B, 2, games=0, seed=SEED, log=log)
    text = log.read_text(encoding="utf-8")
    log.write_text(text[: text.rindex("{") + 10], encoding="utf-8")  # stopped mid-write
    again = match(GAME, A, B, 2, games=0, seed=SEED, log=log)
    assert again.differences == whole.differences
    assert match(GAME, A, B, 2, games=0, seed=SEED, log=log).differences == whole.differences


def test_the_log_of_another_match_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "match.jsonl"
    match(GAME, A, B, 1, games=0, seed=SEED, log=log)
    before = log.read_text(encoding="utf-8")
    with pytest.raises(OtherMatch, match="seed"):
        match(GAME, A, B, 1, games=0, seed=SEED + 1, log=log)
    argv = [GAME, "--a", A, "--b", "hard", "--deals", "1", "--games", "0", "--seed", str(SEED)]
    with pytest.raises(SystemExit):
        main([*argv, "--log", str(log)])
    assert "another match (it differs in: b)" in capsys.readouterr().err
    assert log.read_text(encoding="utf-8") == before
