"""bench.secrets: the hard level is handed no unrevealed bid, in any of the three variants."""

from __future__ import annotations

import pytest

from bench.secrets import VARIANTS, count, main


@pytest.mark.parametrize(("label", "name", "options"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_no_decision_is_handed_an_unrevealed_bid(
    label: str, name: str, options: dict[str, object]
) -> None:
    result = count(name, options, 3)
    assert result.decisions > 100
    assert (result.leaking, result.bids) == (0, 0)


def test_the_command_prints_a_line_per_variant(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--games", "1"])
    lines = capsys.readouterr().out.splitlines()
    for label, _name, _options in VARIANTS:
        assert any(line.startswith(label) and line.split()[-1] == "0" for line in lines)
