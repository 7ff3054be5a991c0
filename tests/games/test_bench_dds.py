"""``python -m bench.dds``: both solvers timed on the same positions, which they must agree on."""

from __future__ import annotations

import pytest

from bench.dds import main, positions


def test_the_positions_have_the_cards_asked_for() -> None:
    for state in positions(4, 16, 0):
        assert sum(hand.bit_count() for hand in state.hands) == 16 and not state.trick


def test_each_row_times_both_solvers(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--cards", "12,8", "--positions", "3", "--own-max", "12", "--skip-hard"])
    out = capsys.readouterr().out
    assert "12 cards left" in out and " 8 cards left" in out
    assert out.count("ours, one card          median") == 2
    assert out.count("DDS, one call per world median") == 2
    assert "DDS in bulk, 3 worlds" in out
