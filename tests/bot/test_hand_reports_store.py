"""The reports of a computer's play, on both backends: one per player per trick, forgotten with
the reporter."""

from __future__ import annotations

from typing import Any

from bot.store import StoreInterface
from tests.bot.backends import BOTH

STORE_BACKENDS = BOTH
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
