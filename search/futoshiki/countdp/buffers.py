"""The arrays the compiled row steps of the value layers write into (``layers``).

Fresh memory costs a page fault a page (the system zeroes each), and a layer's
row steps make results of like sizes, so they write into arrays kept for the
layer instead of fresh ones.
"""

from __future__ import annotations

import numpy as np


class Buffers:
    """Two pairs of key and count arrays that the compiled row steps of a
    layer write into by turns, each step's input in one, its result in the
    other: reused, their pages are faulted once a layer, not once a row.  A
    pair grows to the candidates of a step (never shrinks); both go at the
    layer's end (``release``), and their bytes count in every budget check
    made while they are held."""

    def __init__(self) -> None:
        self.pairs: list[tuple[np.ndarray, np.ndarray] | None] = [None, None]
        self.turn = 0
        self.places = np.zeros(0, dtype=np.uint8)  # a step's byte per input (``kernel.mark``)

    def marks(self, size: int) -> np.ndarray:
        """A byte for each of a step's ``size`` inputs."""
        if self.places.size < size:
            self.places = np.zeros(0, dtype=np.uint8)
            self.places = np.empty(size, dtype=np.uint8)
        return self.places[:size]

    def capacity(self, which: int) -> int:
        pair = self.pairs[which]
        return 0 if pair is None else int(pair[0].size)

    def holds(self, keys: np.ndarray) -> bool:
        return any(pair is not None and keys.base is pair[0] for pair in self.pairs)

    def nbytes(self, size: int) -> int:
        """Bytes of both pairs once the next step's pair holds ``size``."""
        return 16 * (self.capacity(self.turn) + max(self.capacity(1 - self.turn), size))

    def take(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """The next step's pair (the one not holding its input), ``size`` long."""
        self.turn = 1 - self.turn
        if self.capacity(self.turn) < size:
            self.pairs[self.turn] = None  # (let go before the larger is allocated)
            self.pairs[self.turn] = (np.empty(size, dtype=np.uint64),
                                     np.empty(size, dtype=np.int64))
        pair = self.pairs[self.turn]
        assert pair is not None
        return pair[0], pair[1]

    @property
    def nbytes_held(self) -> int:
        return 16 * (self.capacity(0) + self.capacity(1)) + self.places.size

    def kept(self, keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``keys`` and ``counts`` in arrays of their own (copied out of a pair)."""
        if self.holds(keys):
            return keys.copy(), counts.copy()
        return keys, counts

    def release(self) -> None:
        self.pairs = [None, None]
        self.places = np.zeros(0, dtype=np.uint8)
