"""deal_rng builds its generator without random.Random's Python-level seeding: the same stream."""

from __future__ import annotations

import random

import pytest

from games.base import deal_rng, shuffle


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


@pytest.mark.parametrize("size", [0, 1, 2, 3, 16, 32, 33, 52, 63, 64, 70])
def test_shuffle_is_random_shuffle(size: int) -> None:
    """The engines' shuffle gives Random.shuffle's permutation and leaves the stream where it
    does: every stored seed deals the hands it always dealt."""
    for seed in range(40):
        fast, reference = deal_rng(seed, size), random.Random(f"{seed}:{size}")
        items, expected = list(range(size)), list(range(size))
        shuffle(fast, items)
        reference.shuffle(expected)
        assert items == expected
        assert fast.getstate() == reference.getstate()
