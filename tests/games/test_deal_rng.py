"""deal_rng builds its generator without random.Random's Python-level seeding: the same stream."""

from __future__ import annotations

import random

import pytest

from games.base import deal_rng


@pytest.mark.parametrize("seed", [0, 1, 5, -3, 2**32 - 1, 10**20])
@pytest.mark.parametrize("index", [-1, 0, 1, 17])
def test_deal_rng_is_random_seeded_with_the_string(seed: int, index: int) -> None:
    """Stored seeds keep dealing the same hands: the state equals Random(f"{seed}:{index}")."""
    fast, reference = deal_rng(seed, index), random.Random(f"{seed}:{index}")
    assert fast.getstate() == reference.getstate()
    cards, expected = list(range(52)), list(range(52))
    fast.shuffle(cards)
    reference.shuffle(expected)
    assert cards == expected
    assert fast.gauss() == reference.gauss()
