"""The ranks plan's compiled step (``search/futoshiki/countdp/ranks_kernel.py``):
the compiled kernel, its source interpreted, and the plan's own dictionaries
give the same counts and the same states, on known counts, the brute force
and the rows plan; the residues read back; the budgets hold in the kernel's
tables too."""

from __future__ import annotations

import importlib
import math
import random

import pytest

from search.core import compiled
from search.core.contract import Deadline
from search.futoshiki.countdp import ranks as rankdp
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.countdp.rows import StateSpaceTooLarge
from search.futoshiki.model import Futoshiki
from search.lab.oracles import futoshiki as oracle
from tests.futoshiki.test_countdp_ranks import _puzzles, _square
from tests.futoshiki.test_countdp_rows import LATIN, clues

NAME = "search.futoshiki.countdp.ranks_kernel"
PURE = compiled.source(NAME)
BUILT = importlib.import_module(NAME)
NOT_BUILT = "the compiled kernel is not built here (python setup.py build_ext --inplace builds it)"
TAILS = [pytest.param(None, id="dictionaries"), pytest.param(PURE, id="interpreted"),
         pytest.param(BUILT, id="compiled", marks=pytest.mark.skipif(
             not compiled.is_compiled(BUILT), reason=NOT_BUILT))]


def _count(puzzle: Futoshiki, kernel, stats: dict | None = None,
           turns: tuple[bool, ...] = (False, True), **budget) -> int:
    """The ranks plan's count, its steps taken by ``kernel`` (``None``: the
    plan's dictionaries), in the orientation ``rows.choose`` picks among
    ``turns``, alone (no race)."""
    oriented, split = rowdp.choose(puzzle, turns=turns)
    plan = rankdp.Plan(oriented, split.upper + split.lower)
    budget = {"max_states": None, "max_bytes": rowdp.DEFAULT_MAX_BYTES} | budget
    return rankdp.build(plan, deadline=Deadline(None), stats={} if stats is None else stats,
                        kernel=kernel, **budget)


@pytest.mark.parametrize("kernel", TAILS)
@pytest.mark.parametrize("n", [n for n in sorted(LATIN) if 2 <= n <= 6])
def test_latin_squares(kernel, n: int) -> None:
    assert _count(Futoshiki.empty(n), kernel) == LATIN[n]


@pytest.mark.parametrize("kernel", TAILS)
@pytest.mark.parametrize("puzzle", _puzzles(4, 25, 81, 8), ids=lambda p: f"{p.n}-{len(p.less)}")
def test_the_brute_force(kernel, puzzle: Futoshiki) -> None:
    assert _count(puzzle, kernel) == oracle.count(puzzle)


@pytest.mark.parametrize("puzzle", _puzzles(5, 12, 82, 8) + _puzzles(6, 6, 83, 6),
                         ids=lambda p: f"{p.n}-{len(p.less)}")
def test_the_same_counts_and_states_every_way(puzzle: Futoshiki) -> None:
    # the kernel makes the dictionaries' canonical forms, so the same states
    whole = rowdp.count(puzzle)
    runs = []
    for kernel in (None, PURE, BUILT if compiled.is_compiled(BUILT) else PURE):
        stats: dict = {}
        runs.append((_count(puzzle, kernel, stats), stats["states"]))
    assert runs[0][0] == whole
    assert runs[1:] == runs[:1] * 2


@pytest.mark.parametrize("kernel", TAILS[1:])
def test_the_tables_grow_and_the_chunks_join(kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    # the empty 7x7 passes the first table's 1,024 states; chunks of 5 states
    # stop and resume the step hundreds of times, each with successors held
    # to merge; merged state by state (a batch of one) the states are the same
    monkeypatch.setattr(rankdp, "CHUNK", 5)
    peaks = []
    for batch in (rankdp.BATCH, 1):
        monkeypatch.setattr(rankdp, "BATCH", batch)
        stats: dict = {}
        assert _count(Futoshiki.empty(7), kernel, stats) == LATIN[7]
        peaks.append(stats["states"])
    assert peaks[0] == peaks[1] > 1024


def test_the_residues_read_back() -> None:
    rng = random.Random(7)
    primes = rankdp.PRIMES[:4]
    for value in [0, 1, math.prod(primes) - 1, LATIN[7] * 51, *(rng.getrandbits(127)
                                                                 for _ in range(50))]:
        assert rankdp.fold_residues([value % p for p in primes], primes) == value


@pytest.mark.parametrize("kernel", TAILS[1:])
def test_the_budgets_hold_in_the_tables(kernel) -> None:
    # an inequality in the first row: the fold comes early, the tables hold the rest
    puzzle = _square(6, {}, (((0, 0), (0, 1)),))
    stats: dict = {}
    assert _count(puzzle, kernel, stats) == LATIN[6] // 2
    with pytest.raises(StateSpaceTooLarge, match="state budget"):
        _count(puzzle, kernel, max_states=stats["states"] - 1)
    with pytest.raises(StateSpaceTooLarge, match="memory budget"):
        _count(puzzle, kernel, max_bytes=30 * stats["states"])


def _peak(puzzle: Futoshiki, **budget) -> int:
    """The ranks plan's peak in the orientation given, alone."""
    stats: dict = {}
    _count(puzzle, BUILT, stats, turns=(False,), **budget)
    return stats["states"]


@pytest.mark.skipif(not compiled.is_compiled(BUILT), reason=NOT_BUILT)
def test_the_orientations_race() -> None:
    # three inequalities on a 6x6 whose orientations peak at 3,815 and 301 states
    rng = random.Random(28)
    puzzle = clues(6, rng, rng.randint(3, 8), rng.randint(0, 3))
    by_peak = {_peak(square): square for square in (puzzle, rowdp.transpose(puzzle))}
    peaks = sorted(by_peak)
    assert peaks[1] > 10 * peaks[0]
    stats: dict = {}
    assert rankdp.count(puzzle, stats=stats) == rowdp.count(puzzle) > 0
    assert stats["states"] == peaks[0]  # the better one finished first
    # under a state budget between the two, the worse drops out and the better counts
    assert rankdp.count(puzzle, max_states=peaks[0] * 3) == rowdp.count(puzzle)
    with pytest.raises(StateSpaceTooLarge, match="state budget"):
        _peak(by_peak[peaks[1]], max_states=peaks[0] * 3)
