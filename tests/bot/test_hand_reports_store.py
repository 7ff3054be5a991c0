"""The reports of a computer's play, on both backends: one per player per trick, forgotten with
the reporter, exported as the blunder suite's fixtures."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.hand_reports import HandForReport, ReportRefusal
from bot.report_export import export
from bot.store import StoreInterface
from games.reports import Play, seen_of
from tests.bot.backends import BOTH

STORE_BACKENDS = BOTH
REPORTS = Path(__file__).resolve().parents[1] / "games" / "blunder_reports"
POSITION = {"format": 1, "game": "tarneeb", "seat": 1, "view": {"hand": ["2S"]}}


async def test_a_player_reports_a_trick_once(store: StoreInterface, backend: Any) -> None:
    assert not await store.hand_reported(7, 1, 3, 42)
    assert await store.add_hand_report(7, 1, 3, 42, 1, POSITION)
    assert await store.hand_reported(7, 1, 3, 42)
    assert not await store.add_hand_report(7, 1, 3, 42, 3, POSITION), "pressed again"
    assert await store.add_hand_report(7, 1, 3, 43, 1, POSITION), "another player may"
    assert await store.add_hand_report(7, 1, 4, 42, 1, POSITION), "another trick may"
    assert not await store.hand_reported(7, 2, 3, 42)


async def test_forgetting_a_player_removes_their_reports(
    store: StoreInterface, backend: Any
) -> None:
    await store.add_hand_report(7, 1, 3, 42, 1, POSITION)
    await store.add_hand_report(7, 1, 3, 43, 1, POSITION)
    await store.forget_user(42)
    assert not await store.hand_reported(7, 1, 3, 42)
    assert await store.hand_reported(7, 1, 3, 43)


async def test_the_export_writes_one_fixture_per_reported_play(
    store: StoreInterface, backend: Any, tmp_path: Path
) -> None:
    (example,) = sorted(REPORTS.glob("*.json"))
    position = json.loads(example.read_text())
    del position["reports"]
    await store.add_hand_report(9, 2, 5, 42, position["seat"], position)
    await store.add_hand_report(9, 2, 5, 43, position["seat"], position)
    where = backend.url if backend.url is not None else str(backend.path)
    written = await asyncio.to_thread(export, where, tmp_path / "out")
    assert [path.name for path in written] == [f"tarneeb-9-2-5-{position['seat']}.json"]
    fixture = json.loads(written[0].read_text())
    assert fixture["reports"] == 2
    assert seen_of(fixture) == seen_of(position)


def test_only_a_computers_card_of_the_hand_can_be_reported() -> None:
    plays = (Play(1, 3, 1, "2S", 9), Play(1, 3, 3, "5S", 11), Play(1, 4, 1, "KH", 14))
    hand = HandForReport(7, "tarneeb", {}, 0, (), (), 20, plays, ("A", "B", "C", "D"))
    assert hand.tricks() == {3: [plays[0], plays[1]], 4: [plays[2]]}
    assert hand.play(11) == plays[1]
    with pytest.raises(ReportRefusal):
        hand.play(10)  # a person's card (or a crafted number): not offered
