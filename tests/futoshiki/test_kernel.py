"""The compiled kernel and its source interpreted give the same search.

``search/futoshiki/kernel.py`` is the only source of the cheap rules; where the
install built it as a C extension, the engine runs that.  Over the bundled
instances (every manifest row, under its rules), random squares with and without
Adjacent mode's bars and 9x9s of every Tatham grade, ``solve``, ``unique``,
``count`` and ``check`` (the grade) must give the same status, node counts and
solutions with either module, and every solution must pass ``verify``.  The
interpreted half always runs (against brute force); the compiled half is skipped,
saying so, where the extension is not built.
"""

from __future__ import annotations

import importlib
import itertools
import random
import runpy
import subprocess
import sys

import pytest

from search.app.manifest import read_manifest
from search.core import compiled
from search.core.registry import load_puzzle
from search.futoshiki import apply_options, propagate
from search.futoshiki.formats import parse_tatham
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine, PropagateBackend
from search.futoshiki.verify import verify
from search.lab.oracles.futoshiki import random_puzzle, solutions
from tests.conftest import ROOT

NAME = "search.futoshiki.kernel"
PURE = compiled.source(NAME)
BUILT = importlib.import_module(NAME)
NOT_BUILT = "the compiled kernel is not built here (pip install -e . with a C compiler builds it)"
LIMIT = 60.0  # a safety net only
MANY = 500  # counts above this are left to count-dp


def _adjacent(n: int, rng: random.Random) -> Futoshiki:
    """A random Adjacent-mode square: some givens and random bars."""
    plain = random_puzzle(n, rng, givens=rng.choice([0.0, 0.15, 0.3]), relations=0.0)
    bars = tuple(pair for pair in Futoshiki.empty(n).neighbour_pairs() if rng.random() < 0.25)
    return Futoshiki(n, plain.givens, (), adjacent=True, bars=bars)


def _random_squares() -> list[tuple[str, Futoshiki]]:
    rng = random.Random(30)
    out = []
    for k in range(40):
        n = rng.choice((3, 4, 5))
        out.append((f"random-{k}-n{n}", random_puzzle(
            n, rng, givens=rng.choice([0.0, 0.1, 0.25]), relations=rng.choice([0.1, 0.3, 0.6]))))
    for k in range(20):
        n = rng.choice((3, 4, 5))
        out.append((f"adjacent-{k}-n{n}", _adjacent(n, rng)))
    return out


def _bundled() -> list[tuple[str, Futoshiki]]:
    out, seen = [], set()
    for row in read_manifest(ROOT / "instances" / "futoshiki" / "manifest.tsv"):
        puzzle = apply_options(load_puzzle(row.path, "futoshiki")[1],
                               {"adjacent": "adjacent" in row.rules})
        name = f"{row.path.name}[{','.join(row.rules)}]"
        if name not in seen and puzzle.n <= 9:
            seen.add(name)
            out.append((name, puzzle))
    return out


def _graded() -> list[tuple[str, Futoshiki]]:
    """Two 9x9s of each of Tatham's grades (the Recursive ones take 14 to 200 nodes)."""
    out, taken = [], {}
    for line in (ROOT / "docs" / "benchmarks" / "futoshiki-9x9" / "ids.tsv").open():
        grade, _, seed, game = line.rstrip("\n").split("\t")
        if taken.get(grade, 0) < 2:
            taken[grade] = taken.get(grade, 0) + 1
            out.append((f"{grade}-{seed}", parse_tatham(game)))
    return out


def _answers(puzzle: Futoshiki) -> tuple:
    """Every answer of the engine that uses the kernel, with its effort and solutions."""
    backend = PropagateBackend(progress=False)
    solved = backend.solve(puzzle, time_limit=LIMIT)
    unique = backend.unique(puzzle, time_limit=LIMIT)
    checked = backend.check(puzzle, time_limit=LIMIT)
    counted = None
    if puzzle.n <= 6:  # a 9x9's count searches its whole tree: seconds, interpreted
        counted = backend.count(puzzle, limit=MANY, time_limit=LIMIT)
    for found in (solved.solution, *unique.solutions, *checked.solutions):
        assert found is None or verify(puzzle, found) == []
    return ((solved.status, solved.effort, solved.solution),
            (unique.status, unique.effort, unique.solutions),
            (checked.verdict, checked.details, checked.effort),
            counted and (counted.status, counted.count, counted.effort))


def _with(module, monkeypatch, puzzle: Futoshiki) -> tuple:
    monkeypatch.setattr(propagate, "KERNEL", module)
    assert Engine(puzzle).compiled is compiled.is_compiled(module)
    return _answers(puzzle)


CASES = _bundled() + _graded() + _random_squares()


@pytest.mark.skipif(not compiled.is_compiled(BUILT), reason=NOT_BUILT)
@pytest.mark.parametrize(("name", "puzzle"), CASES, ids=[name for name, _ in CASES])
def test_compiled_and_interpreted_give_the_same_search(name, puzzle, monkeypatch) -> None:
    assert _with(BUILT, monkeypatch, puzzle) == _with(PURE, monkeypatch, puzzle)


@pytest.mark.parametrize(("name", "puzzle"), [(name, p) for name, p in CASES if p.n <= 4])
def test_interpreted_kernel_counts_as_brute_force(name, puzzle, monkeypatch) -> None:
    monkeypatch.setattr(propagate, "KERNEL", PURE)
    # the oracle fills Latin squares by the givens and inequalities; verify adds the bars
    expected = sum(1 for s in solutions(puzzle) if verify(puzzle, s) == [])
    assert PropagateBackend(progress=False).count(puzzle).count == expected
    found = list(PropagateBackend().solutions(puzzle))
    assert len({s.grid for s in found}) == len(found) == expected
    assert all(verify(puzzle, s) == [] for s in found)


def test_a_square_wider_than_64_bits_runs_the_source_over_python_integers() -> None:
    n = 64  # a cyclic Latin square with two rows open, an inequality to keep it unique
    grid = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
    grid[0], grid[1] = [0] * n, [0] * n
    puzzle = Futoshiki(n, tuple(map(tuple, grid)), (((1, 0), (0, 0)),))
    assert not Engine(puzzle).compiled
    result = PropagateBackend().unique(puzzle)
    assert str(result.status) == "UNIQUE" and verify(puzzle, result.solutions[0]) == []
    assert result.solutions[0].grid[0][0] == 2  # the rows trade places: 1 above, 2 below


def test_gridcp_pure_loads_the_source(monkeypatch) -> None:
    monkeypatch.setenv(compiled.PURE, "1")
    assert not compiled.is_compiled(compiled.load(NAME))
    assert compiled.load(NAME) is PURE
    monkeypatch.setenv(compiled.PURE, "0")
    assert compiled.load(NAME) is BUILT


def _version(pure: str) -> str:
    """The kernels' line of ``--version`` with $GRIDCP_PURE set to ``pure``."""
    env = {"GRIDCP_PURE": pure, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "search", "--version"], cwd=ROOT,
                          env=env, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()[1]


def test_version_says_which_kernel_runs(monkeypatch) -> None:
    every = ", ".join(compiled.kernels())
    assert _version("1") == f"kernels: interpreted (GRIDCP_PURE=1) {every}"
    monkeypatch.delenv(compiled.PURE, raising=False)
    assert _version("") == compiled.describe()
    built = "compiled" if compiled.is_compiled(BUILT) else "interpreted (not built)"
    groups = _version("").removeprefix("kernels: ").split("; ")  # "compiled a, b; ..."
    assert any(g.startswith(built) and NAME in g.replace(",", " ").split() for g in groups)


def test_setup_builds_the_kernels_that_version_reports() -> None:
    """setup.py's KERNELS, found from the .pxd files, are the kernels that
    ``--version`` names, compiled or not."""
    listed = runpy.run_path(str(ROOT / "setup.py"), run_name="setup")["KERNELS"]
    assert {NAME, "search.futoshiki.countdp.kernel", "search.lianliankan.gravity_kernel",
            "search.numberlink.links_kernel"} <= set(listed)
    groups = _version("").removeprefix("kernels: ").split("; ")
    named = [name for g in groups for name in g.removeprefix("compiled ")
             .removeprefix("interpreted (not built) ").split(", ")]
    assert sorted(named) == sorted(listed)
    assert _version("1").split(") ", 1)[1].split(", ") == listed


# ---------------------------------------------------------------- Régin's filtering, alone


def _state(module, n: int, rng: random.Random):
    """A kernel state of an n x n square without inequalities, every domain a
    random set of 2 or more values; and its buffer maker."""
    new = propagate._int64 if compiled.is_compiled(module) else propagate._zeros
    dom, weight, dirty = new(n * n), new(n * n), new(2 * n)
    state = module.State(n, dom, weight, dirty, new, new(0), new(0))
    for i in range(n * n):
        dom[i] = sum(1 << v for v in rng.sample(range(n), rng.randint(2, n)))
    for u in range(1, 2 * n):  # row 0 alone is to be read (its cells' columns too, else)
        dirty[u] = 0
    return state, dom


def _matched(allowed: list[list[int]], n: int) -> list[set[int]] | None:
    """By brute force: per place, the choices some matching of all places to
    distinct choices gives it; None if there is no such matching."""
    kept: list[set[int]] = [set() for _ in allowed]
    for choice in itertools.permutations(range(n), len(allowed)):
        if all(c in allowed[k] for k, c in enumerate(choice)):
            for k, c in enumerate(choice):
                kept[k].add(c)
    return kept if any(kept) else None


MODULES = [pytest.param(PURE, id="interpreted"),
           pytest.param(BUILT, id="compiled", marks=pytest.mark.skipif(
               not compiled.is_compiled(BUILT), reason=NOT_BUILT))]


@pytest.mark.parametrize("module", MODULES)
def test_lines_keep_exactly_the_values_of_some_perfect_matching(module) -> None:
    rng = random.Random(31)
    for _ in range(300):
        n = rng.choice((3, 4, 5, 6))
        state, dom = _state(module, n, rng)
        before = [[v for v in range(n) if dom[c] >> v & 1] for c in range(n)]  # row 0
        expected = _matched(before, n)
        assert state.lines() is (expected is not None)
        if expected is not None:
            assert [{v for v in range(n) if dom[c] >> v & 1} for c in range(n)] == expected


@pytest.mark.parametrize("module", MODULES)
def test_planes_keep_exactly_the_places_of_some_perfect_matching(module) -> None:
    rng = random.Random(32)
    for _ in range(300):
        n = rng.choice((3, 4, 5, 6))
        state, dom = _state(module, n, rng)
        v = rng.randrange(n)
        state.dirty_values = 1 << v  # the plane of v alone
        before = [[c for c in range(n) if dom[r * n + c] >> v & 1] for r in range(n)]
        expected = _matched(before, n)
        assert state.planes() is (expected is not None)
        if expected is not None:
            after = [{c for c in range(n) if dom[r * n + c] >> v & 1} for r in range(n)]
            assert after == expected


@pytest.mark.skipif(not compiled.is_compiled(BUILT), reason=NOT_BUILT)
def test_chain_bounds_are_the_same_compiled_and_sound(monkeypatch) -> None:
    rng = random.Random(33)
    for _ in range(200):
        n = rng.choice((3, 4))
        puzzle = random_puzzle(n, rng, givens=0.0, relations=rng.choice([0.2, 0.4, 0.7]))
        found = []
        for module in (BUILT, PURE):
            monkeypatch.setattr(propagate, "KERNEL", module)
            try:
                found.append(propagate.chain_bounds(puzzle))
            except propagate.Contradiction:
                found.append(None)
        assert found[0] == found[1]
        for grid in (s.grid for s in solutions(puzzle)):  # every solution within them
            assert found[0] is not None
            assert all(low <= grid[i // n][i % n] <= high for i, (low, high) in enumerate(found[0]))
