"""The order of a layer's rows (``search.futoshiki.countdp.order``): chosen
greedily on a sample of the layer's input, it changes the work, never a count."""

from __future__ import annotations

import random

import numpy as np
import pytest

from search.futoshiki.countdp import layers as layerdp
from search.futoshiki.countdp import order
from search.futoshiki.countdp import rows as rowdp
from search.lab.oracles.futoshiki import count as brute_force_count
from tests.futoshiki.test_countdp_rows import LATIN, clues

BUILT = layerdp.COMPILED  # the compiled step runs here


def _multiples_gone(primes: list[int]):
    def step(keys: np.ndarray, i: int) -> np.ndarray:
        return keys[keys % primes[i] != 0]
    return step


def test_each_next_step_is_the_one_leaving_the_fewest_states() -> None:
    states = np.arange(1, 10_000, dtype=np.uint64)
    # Multiples of 2 go first (half the states), then of 3, then 5, then 7.
    assert order.cheapest(states, 4, _multiples_gone([5, 2, 7, 3])) == (1, 3, 0, 2)


def test_ties_go_to_the_first_step() -> None:
    assert order.cheapest(np.arange(10, dtype=np.uint64), 3, lambda keys, i: keys) == (0, 1, 2)
    assert order.cheapest(np.arange(10, dtype=np.uint64), 0, lambda keys, i: keys) == ()


def test_the_sample_is_evenly_spaced_and_bounded() -> None:
    assert order.sample(np.arange(order.SHARE * order.SMALLEST - 1, dtype=np.uint64)) is None
    for size in (order.SHARE * order.SMALLEST, order.SHARE * order.LARGEST * 3 + 7):
        keys = np.arange(size, dtype=np.uint64) * np.uint64(3)
        few = order.sample(keys)
        assert few is not None and order.SMALLEST <= few.size <= order.LARGEST
        steps = np.diff(few)
        assert np.all(steps == steps[0]) and steps[0] >= 3 * order.SHARE
        assert few[0] == keys[0] and np.isin(few, keys).all()


def test_the_block_stays_where_it_is() -> None:
    assert order.reorder(["a", "b", "c", "block"], [0, 1, 2], (2, 0, 1)) == \
        ["c", "a", "b", "block"]
    assert order.reorder(["block", "a", "b"], [1, 2], (1, 0)) == ["block", "b", "a"]


@pytest.fixture
def every_layer_ordered(monkeypatch):
    """The order chosen on every layer, from a sample of one state in two;
    records the orders chosen."""
    monkeypatch.setattr(order, "SHARE", 2)
    monkeypatch.setattr(order, "SMALLEST", 2)
    chosen: list[tuple[int, ...]] = []
    cheapest = order.cheapest

    def recorded(states, steps, step):
        chosen.append(cheapest(states, steps, step))
        return chosen[-1]

    monkeypatch.setattr(order, "cheapest", recorded)
    return chosen


@pytest.mark.parametrize("built", [True, False], ids=["compiled", "numpy"])
def test_counts_stay_with_every_layer_ordered(built: bool, every_layer_ordered,
                                              monkeypatch) -> None:
    monkeypatch.setattr(layerdp, "COMPILED", built and BUILT)
    rng = random.Random(2611)
    for n in (4, 4, 5, 5, 6):
        puzzle = clues(n, rng, rng.randint(2, 2 * n), rng.randint(0, 2))
        expected = brute_force_count(puzzle) if n <= 4 else rowdp.count(puzzle)
        assert layerdp.count(puzzle) == expected
        assert layerdp.count(puzzle, folding=False) == expected
    assert layerdp.count(clues(6, rng, 0, 0)) == LATIN[6]
    # The mechanism ran, and moved rows out of the fixed order.
    assert any(list(o) != sorted(o) for o in every_layer_ordered)


def test_a_layer_in_pieces_with_its_order_counts_the_same(every_layer_ordered) -> None:
    rng = random.Random(2612)
    puzzle = clues(6, rng, 5, 1)
    stats: dict = {}
    expected = layerdp.count(puzzle, stats=stats)
    assert layerdp.count(puzzle, max_states=stats["states"] // 3) == expected
    assert expected == rowdp.count(puzzle)
