"""The order of a layer's rows: the one that holds the fewest states, measured on a sample.

Inside a layer of the layers plan the states after some of its rows are the
layer's input, each with a partial permutation of the layer's value on those
rows: which states there are depends on the set of rows placed, not on their
order.  The layer's work is the states its row steps make, summed over the
steps: a set function summed along a path from the empty set to all the
rows.  The path is chosen greedily, each next row the one whose step leaves
the fewest states, on a sample of the layer's input: every ``SHARE``-th
state (the same states on every run, so the same order).  The sample's
states merge less than the whole input's, so its counts are too high, but
alike across rows.

On a hard 7x7 (seed 41 #2 of the notes, no free line, every row with its 7
places) the fixed order's fourth layer held 161 M states; a sample of 517
states picked an order of 112 M (6.8 s to 4.4-4.6 s for the layer), and the
best order over all 128 subsets (dynamic programming, ten times the
sample's work) was no better than the greedy one on samples of 52 to 1,551
states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

SHARE = 256  # one state of the layer's input in SHARE goes into the sample
SMALLEST = 64  # a smaller sample: the layer is cheap, its order is kept
LARGEST = 2048  # the sample's states at most


def sample(keys: np.ndarray) -> np.ndarray | None:
    """Evenly spaced states of a layer's sorted input (sorted too), or None
    where the layer is too small for the choice to pay."""
    if keys.size < SHARE * SMALLEST:
        return None
    stride = max(SHARE, -(-keys.size // LARGEST))
    return keys[::stride].copy()


def cheapest(states: np.ndarray, steps: int,
             step: Callable[[np.ndarray, int], np.ndarray]) -> tuple[int, ...]:
    """An order of ``steps`` steps from ``states``, chosen greedily: each next
    step is the one that leaves the fewest states (``step(keys, i)``: the
    states after step ``i``, sorted and distinct; ties to the first)."""
    left, chosen = list(range(steps)), []
    while left:
        after = [step(states, i) for i in left]
        pick = min(range(len(left)), key=lambda j: after[j].size)
        chosen.append(left.pop(pick))
        states = after[pick]
    return tuple(chosen)


def reorder(items: Sequence, movable: Sequence[int], order: Sequence[int]) -> list:
    """``items`` with those at the positions ``movable`` put in ``order``
    (indices into ``movable``), the others where they were."""
    out = list(items)
    for slot, i in zip(movable, order):
        out[slot] = items[movable[i]]
    return out
