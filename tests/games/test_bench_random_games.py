"""``make bench`` reports each line's median run, and the spread of its runs."""

from __future__ import annotations

import pytest

from bench.random_games import Run, main, median_run


def test_the_median_run_is_the_middle_rate_not_the_middle_position() -> None:
    slow, fast, middle = Run(1, 100, 2.0, 2.0), Run(1, 100, 0.5, 0.5), Run(1, 100, 1.0, 1.0)
    assert median_run([slow, fast, middle]) is middle
    assert median_run([fast, slow]) is slow  # an even count gives the lower middle
    assert median_run([middle]) is middle


def test_a_line_gives_its_median_and_the_range_of_its_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--only", "norwegian_whist", "--games", "2", "--seconds", "0", "--repeat", "3"])
    line = capsys.readouterr().out.strip()
    assert line.startswith("norwegian_whist")
    rate = float(line.split()[1])
    low, high = (float(word) for word in line.split("(")[1].split()[0:3:2])
    assert low <= rate <= high
    assert "over 3 runs" in line
