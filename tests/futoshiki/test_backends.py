"""Known answers for every Futoshiki backend: Latin-square counts, bundled
puzzles, uniqueness verdicts, and random small puzzles against brute force."""

from __future__ import annotations

import random

import pytest

from search.app.manifest import read_manifest
from search.core.contract import Status, Unsupported
from search.core.registry import kind
from search.futoshiki.io import parse
from search.futoshiki.model import Futoshiki
from search.futoshiki.verify import verify
from search.lab.oracles.futoshiki import count as brute_force_count
from search.lab.oracles.futoshiki import random_puzzle
from tests.conftest import INSTANCES, backend_names

BACKENDS = backend_names("futoshiki")
FAST = {"propagate", "count-dp"}  # engines that count 161,280 in well under a second
LATIN = {1: 1, 2: 2, 3: 12, 4: 576, 5: 161280}
MANIFEST = INSTANCES / "futoshiki" / "manifest.tsv"


def engine(name: str):
    return kind("futoshiki").backend(name)


def tasks_of(name: str) -> frozenset[str]:
    return type(engine(name)).calls


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_empty_square_counts_latin_squares(backend: str, n: int) -> None:
    result = engine(backend).count(Futoshiki.empty(n))
    assert (result.status, result.count) == (Status.COUNTED, LATIN[n])


@pytest.mark.parametrize(
    "backend",
    [b if b in FAST or b == "search" else pytest.param(b, marks=pytest.mark.slow)
     for b in BACKENDS],
)
def test_empty_5x5_counts_161280(backend: str) -> None:
    result = engine(backend).count(Futoshiki.empty(5))
    assert (result.status, result.count) == (Status.COUNTED, 161280)


@pytest.mark.parametrize("backend", [b for b in BACKENDS if "solutions" in tasks_of(b)])
def test_every_enumerated_solution_is_valid_and_distinct(backend: str) -> None:
    puzzle = Futoshiki(4, Futoshiki.empty(4).givens, (((0, 0), (0, 1)), ((1, 1), (2, 1))))
    found = list(engine(backend).solutions(puzzle))
    assert all(verify(puzzle, s) == [] for s in found)
    assert len({s.grid for s in found}) == len(found) == brute_force_count(puzzle)


def _random_cases(count: int) -> list[tuple[int, Futoshiki]]:
    rng = random.Random(20261122)
    cases = []
    for i in range(count):
        n = 3 if i % 3 == 0 else 4
        cases.append((i, random_puzzle(n, rng, givens=rng.choice([0.0, 0.1, 0.25]),
                                       relations=rng.choice([0.1, 0.3, 0.5]))))
    return cases


RANDOM = _random_cases(240)


@pytest.mark.parametrize("backend", BACKENDS)
def test_counts_equal_brute_force_on_random_small_puzzles(backend: str) -> None:
    b = engine(backend)
    for i, puzzle in RANDOM:
        assert b.count(puzzle).count == brute_force_count(puzzle), f"case {i}: {puzzle}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_unique_verdicts_and_solutions_on_random_small_puzzles(backend: str) -> None:
    b = engine(backend)
    for i, puzzle in RANDOM[:120]:
        expected = brute_force_count(puzzle)
        result = b.unique(puzzle)
        assert result.status == {0: Status.UNSAT, 1: Status.UNIQUE}.get(
            expected, Status.MULTIPLE), f"case {i}"
        assert all(verify(puzzle, s) == [] for s in result.solutions)
        solved = b.solve(puzzle)
        assert solved.status == (Status.SOLVED if expected else Status.UNSAT)
        if solved.solution is not None:
            assert verify(puzzle, solved.solution) == []


def _manifest_rows(task: str):
    if not MANIFEST.exists():
        return []
    return [row for row in read_manifest(MANIFEST) if row.task == task]


def _quick(row) -> bool:
    n = parse(row.path.read_text(), str(row.path)).n
    return n <= 6


@pytest.mark.parametrize("backend", BACKENDS)
def test_bundled_uniqueness_verdicts(backend: str) -> None:
    rows = _manifest_rows("unique")
    assert rows
    b = engine(backend)
    for row in rows:
        if backend == "search" and not _quick(row):
            continue  # the seed's row-major search is too slow to prove large puzzles
        puzzle = parse(row.path.read_text(), str(row.path))
        if puzzle.adjacent and "adjacent" not in b.rules:  # refused, never guessed
            with pytest.raises(Unsupported, match="Adjacent"):
                b.unique(puzzle)
            continue
        result = b.unique(puzzle)
        assert str(result.status) == row.expected, row.path.name
        assert all(verify(puzzle, s) == [] for s in result.solutions)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bundled_counts(backend: str) -> None:
    rows = [r for r in _manifest_rows("count") if int(r.expected) <= 20000]
    assert rows
    b = engine(backend)
    for row in rows:
        if backend == "search" and not _quick(row):
            continue
        puzzle = parse(row.path.read_text(), str(row.path))
        if puzzle.adjacent and "adjacent" not in b.rules:
            with pytest.raises(Unsupported, match="Adjacent"):
                b.count(puzzle)
            continue
        result = b.count(puzzle, time_limit=300)  # safety net: load must not make it LIMIT
        assert result.status is Status.COUNTED, row.path.name
        assert result.count == int(row.expected), row.path.name


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_reports_limit(backend: str) -> None:
    result = engine(backend).count(Futoshiki.empty(7), time_limit=0.2)
    if result.status is Status.COUNTED:  # an engine fast enough to finish is right too
        assert result.count == 61479419904000
    else:
        assert result.status is Status.LIMIT and result.count >= 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_solution_cap_reports_limit(backend: str) -> None:
    result = engine(backend).count(Futoshiki.empty(4), limit=10)
    assert result.status is Status.LIMIT and result.count == 10


@pytest.mark.parametrize("backend", BACKENDS)
def test_invalid_givens_have_no_solution(backend: str) -> None:
    repeated = Futoshiki(3, ((1, 1, 0), (0, 0, 0), (0, 0, 0)))
    assert engine(backend).count(repeated).count == 0
    assert engine(backend).solve(repeated).status is Status.UNSAT
