"""The value layers' compiled row step (``search/futoshiki/countdp/kernel.py``).

The kernel's source interpreted and the extension (where built) must give the
step that the numpy form of ``layers`` gives: the same sorted distinct masks and
summed counts for random tables and places, and the same counts and states for
whole puzzles (and the layer-end states), in this process and in one run with ``GRIDCP_PURE=1``.
"""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from search.core import compiled
from search.futoshiki.countdp import layers as layerdp
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.io import format_seed
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine
from search.lab.oracles.futoshiki import random_puzzle
from tests.conftest import ROOT
from tests.futoshiki.test_countdp_rows import LATIN, clues

NAME = "search.futoshiki.countdp.kernel"
PURE = compiled.source(NAME)
BUILT = importlib.import_module(NAME)
NOT_BUILT = "the compiled kernel is not built here (python setup.py build_ext --inplace builds it)"
MODULES = [pytest.param(PURE, id="interpreted"),
           pytest.param(BUILT, id="compiled", marks=pytest.mark.skipif(
               not compiled.is_compiled(BUILT), reason=NOT_BUILT))]


def _table(rng: random.Random, n: int, size: int, opened: int
           ) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct random masks of ``n * n`` bits as a layer leaves them
    (each column holds ``opened`` cells or one more), with random counts."""
    masks = [sum(1 << (r * n + c) for c in range(n)
                 for r in rng.sample(range(n), min(n, opened + rng.randint(0, 1))))
             for _ in range(size)]
    keys = np.unique(np.array(masks, dtype=np.uint64))
    return keys, np.array([rng.randint(1, 10**6) for _ in range(keys.size)], dtype=np.int64)


def _places(rng: random.Random, n: int) -> list[tuple[int, int, int, int]]:
    """A row's places: (column, bit, need, avoid), needs and avoids sparse."""
    r = rng.randrange(n)
    out = []
    for c in rng.sample(range(n), rng.randint(1, n)):
        bit = 1 << (r * n + c)
        need = sum(1 << i for i in rng.sample(range(n * n), rng.randint(0, 2))) & ~bit
        avoid = sum(1 << i for i in rng.sample(range(n * n), rng.randint(0, 2))) | bit
        out.append((c, bit, need, avoid))
    return out


def _expected(keys, counts, places, n: int, opened: int) -> tuple[list[int], list[int], int]:
    """The step by its definition, over Python integers."""
    column = [sum(1 << (r * n + c) for r in range(n)) for c in range(n)]
    sums: dict[int, int] = {}
    total = 0
    for k, c in zip(map(int, keys), map(int, counts)):
        for col, bit, need, avoid in places:
            if (k & column[col]).bit_count() == opened and not k & avoid and k & need == need:
                sums[k | bit] = sums.get(k | bit, 0) + c
                total += 1
    ordered = sorted(sums)
    return ordered, [sums[k] for k in ordered], total


def _step(module, keys, counts, places, n: int, opened: int) -> tuple[list[int], list[int], int]:
    tables = layerdp.row_tables(tuple(layerdp.Place(c, bit, need, avoid)
                                      for c, bit, need, avoid in places), n)
    ok = np.zeros(keys.size, dtype=np.uint8)
    total = module.mark(keys, n, tables.row, opened, tables.lookup, tables.special,
                        tables.avoids, tables.needs, ok)
    out_k, out_c = np.zeros(total, dtype=np.uint64), np.zeros(total, dtype=np.int64)
    m = module.merge(keys, counts, ok, tables.bits,
                     np.zeros(2 * len(places), dtype=np.int64),
                     np.zeros(len(places), dtype=np.uint64), out_k, out_c)
    return [int(k) for k in out_k[:m]], [int(c) for c in out_c[:m]], int(total)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("seed", range(12))
def test_the_row_step_as_defined(module, seed: int) -> None:
    rng = random.Random(500 + seed)
    n = rng.choice((3, 4, 5, 6, 7, 8))
    places = _places(rng, n)
    for opened in range(n):
        keys, counts = _table(rng, n, rng.choice((0, 1, 5, 200)), opened)
        expected = _expected(keys, counts, places, n, opened)
        assert _step(module, keys, counts, places, n, opened) == expected


def _layers_both_ways(puzzle: Futoshiki, monkeypatch, **options) -> list[tuple]:
    """The layers plan with the compiled step and with numpy's: the count and
    the states where the sides meet.  (Not the states mid-layer: the compiled
    step leaves free columns unsorted until a unit's end.)"""
    out = []
    for use in (True, False):
        monkeypatch.setattr(layerdp, "COMPILED", use and compiled.is_compiled(BUILT))
        stats: dict = {}
        total = layerdp.count(puzzle, stats=stats, **options)
        out.append((total, stats.get("forward_states"), stats.get("backward_states")))
    return out


def _mixed(seed: int, count: int) -> list[Futoshiki]:
    """``count`` random puzzles whose count reaches the steps (not refuted by
    propagation before the first layer)."""
    rng = random.Random(seed)
    found: list[Futoshiki] = []
    while len(found) < count:
        puzzle = random_puzzle(rng.choice((4, 5, 6)), rng, givens=rng.choice([0.0, 0.05, 0.1]),
                               relations=rng.choice([0.1, 0.3, 0.5]))
        if Engine(puzzle).ok:
            found.append(puzzle)
    return found


@pytest.mark.skipif(not compiled.is_compiled(BUILT), reason=NOT_BUILT)
@pytest.mark.parametrize("puzzle", _mixed(71, 16), ids=lambda p: f"n{p.n}")
def test_compiled_and_numpy_steps_count_alike(puzzle: Futoshiki, monkeypatch) -> None:
    first, second = _layers_both_ways(puzzle, monkeypatch)
    assert first == second
    assert first[0] == rowdp.count(puzzle)  # the other plan, for an answer of its own
    pieces = _layers_both_ways(puzzle, monkeypatch, max_bytes=12 * 2**20)  # in pieces
    assert [p[0] for p in pieces] == [first[0]] * 2


@pytest.mark.skipif(not compiled.is_compiled(BUILT), reason=NOT_BUILT)
def test_compiled_step_counts_latin_squares_and_halves(monkeypatch) -> None:
    for n in range(1, 7):
        assert {c[0] for c in _layers_both_ways(Futoshiki.empty(n), monkeypatch)} == {LATIN[n]}
    rng = random.Random(9)
    for n in (5, 6):
        assert {c[0] for c in _layers_both_ways(clues(n, rng, 1, 0), monkeypatch)} == {
            LATIN[n] // 2}


def test_gridcp_pure_counts_the_same() -> None:
    """A run with ``GRIDCP_PURE=1`` (the numpy step) and this process's (the
    compiled step, where built) give the same count of a 6x6 with clues."""
    rng = random.Random(73)
    puzzle = clues(6, rng, 6, 2)
    here = layerdp.count(puzzle)
    code = ("import sys; from search.futoshiki.io import parse; "
            "from search.futoshiki.countdp import layers; "
            "assert not layers.COMPILED; print(layers.count(parse(sys.stdin.read())))")
    env = {**os.environ, compiled.PURE: "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], input=format_seed(puzzle), env=env,
                          capture_output=True, text=True, check=True, cwd=ROOT)
    assert int(done.stdout) == here == rowdp.count(puzzle)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("seed", range(6))
def test_the_forms_as_numpy_makes_them(module, seed: int) -> None:
    # ``kernel.forms`` (its source interpreted, and the extension where
    # built) gives every state the pinned lines and the form that
    # ``layers.forms`` gives it in numpy, so a fold's classes, and so the
    # states and a state budget, are the same in both builds.
    rng = random.Random(1100 + seed)
    n = (5, 7, 8)[seed % 3]
    puzzle = clues(n, rng, rng.randint(1, 2 * n), rng.randint(0, 2))
    pinning = layerdp.pins(puzzle)
    keys = np.unique(np.array([rng.getrandbits(n * n) for _ in range(300)], dtype=np.uint64))
    for value in (1, n // 2, n - 1):
        args = (keys, n, np.array(pinning.smaller, dtype=np.uint64),
                np.array(pinning.lines, dtype=np.uint64), pinning.later[value - 1])
        pinned, form = np.empty_like(keys), np.empty_like(keys)
        module.forms(*args, pinned, form, np.zeros(n, dtype=np.uint64), False)
        expected = layerdp.forms(keys, pinning, value, n)
        assert np.array_equal(pinned, expected[0]) and np.array_equal(form, expected[1])
        assert (form != keys).any()  # (free lines were sorted)
        if n * n + 2 * n <= 64:  # the class's key in one word
            key = np.empty_like(keys)
            module.forms(*args, pinned[:0], key, np.zeros(n, dtype=np.uint64), True)
            assert np.array_equal(key, form | (pinned << np.uint64(n * n)))


@pytest.mark.parametrize("module", MODULES)
def test_the_radix_sort_gives_numpys_stable_order(module, monkeypatch) -> None:
    # Keys with many ties and digits alike in every key (passes skipped):
    # the order is numpy's stable argsort, the caller's keys left alone.
    monkeypatch.setattr(layerdp, "KERNEL", module)
    monkeypatch.setattr(layerdp, "COMPILED", True)
    monkeypatch.setattr(layerdp, "RADIX_MIN", 1)
    rng = random.Random(1200)
    for size, bits in ((1, 8), (700, 12), (3000, 44)):
        keys = np.array([rng.getrandbits(bits) << rng.choice((0, 20)) for _ in range(size)],
                        dtype=np.uint64)
        kept = keys.copy()
        assert np.array_equal(layerdp.stable_order(keys), np.argsort(keys, kind="stable"))
        assert np.array_equal(keys, kept)


@pytest.mark.parametrize("module", MODULES)
def test_a_row_without_a_place_allows_nothing(module) -> None:
    tables = layerdp.row_tables((), 5)
    keys = np.array([0, 1, 2**24 - 1], dtype=np.uint64)
    ok = np.full(keys.size, 255, dtype=np.uint8)
    assert module.mark(keys, 5, tables.row, 0, tables.lookup, tables.special, tables.avoids,
                       tables.needs, ok) == 0
    assert not ok.any()
