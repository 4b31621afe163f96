"""The ``propagate`` and ``count-dp`` engines: their own rules, limits and
fallbacks, on crafted puzzles, random puzzles against brute force, and the
public instance sets (known counts and unique solutions from ``index.tsv``).

The known-answer suite shared by every backend is ``test_futoshiki.py``.
"""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from search.core.contract import Status
from search.futoshiki import propagate
from search.futoshiki.countdp import CountDPBackend, count_dp
from search.futoshiki.io import parse
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine, PropagateBackend, chain_bounds
from search.futoshiki.verify import verify
from search.lab.oracles.futoshiki import count as brute_force_count
from search.lab.oracles.futoshiki import random_puzzle
from tests.conftest import shared


def bits(*values: int) -> int:
    return sum(1 << (v - 1) for v in values)


def row_of(n: int, values: tuple[int, ...], less=()) -> Futoshiki:
    """An n x n puzzle whose first row holds ``values`` (0 = empty)."""
    givens = (values,) + tuple((0,) * n for _ in range(n - 1))
    return Futoshiki(n, givens, tuple(less))


# ---------------------------------------------------------------- propagation rules


def test_chain_bounds_follow_chains_and_lines() -> None:
    # (0,0) < (0,1) < (0,2) < (0,3): the chain fixes the whole row.
    chain = row_of(4, (0, 0, 0, 0), [((0, c), (0, c + 1)) for c in range(3)])
    assert chain_bounds(chain)[:4] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    # (0,1) above both row neighbours: two distinct smaller cells, so at least 3.
    peak = row_of(5, (0, 0, 0, 0, 0), [((0, 0), (0, 1)), ((0, 2), (0, 1))])
    assert chain_bounds(peak)[1] == (3, 5)
    assert chain_bounds(peak)[0] == (1, 4)


def test_cycle_of_inequalities_has_no_solution() -> None:
    loop = ((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (1, 0)), ((1, 0), (0, 0))
    puzzle = Futoshiki(3, Futoshiki.empty(3).givens, loop)
    assert not Engine(puzzle).ok
    assert PropagateBackend().count(puzzle).count == 0


def test_forward_checking_and_inequality_bounds() -> None:
    # 4 given at (0,0), so (0,2) < 4, and (0,1) < (0,2) is at most 2.
    engine = Engine(row_of(4, (4, 0, 0, 0), [((0, 1), (0, 2))]))
    assert engine.dom[1] == bits(1, 2)
    assert engine.dom[2] == bits(2, 3)
    assert all(engine.dom[r * 4] & bits(4) == 0 for r in range(1, 4))


def test_hidden_single() -> None:
    # Row 0 misses only where 1 can go: columns 1..3 hold 1 lower down.
    givens = ((0, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))
    engine = Engine(Futoshiki(4, givens))
    assert engine.dom[0] == bits(1)


def test_hall_pair_by_matching() -> None:
    engine = Engine(Futoshiki.empty(4))
    assert engine.narrow(0, bits(1, 2)) and engine.narrow(1, bits(1, 2))
    assert engine.propagate()
    assert engine.dom[2] == engine.dom[3] == bits(3, 4)


def test_hall_violation_fails() -> None:
    engine = Engine(Futoshiki.empty(4))
    for i in (0, 1, 2):
        assert engine.narrow(i, bits(1, 2))
    assert not engine.propagate()


def test_value_plane_x_wing() -> None:
    # Value 1 fits only columns 0 and 1 in rows 0 and 1: no other row may put it there.
    engine = Engine(Futoshiki.empty(4))
    for i in (2, 3, 6, 7):
        assert engine.narrow(i, bits(2, 3, 4))
    assert engine.propagate()
    assert all(engine.dom[i] & bits(1) == 0 for i in (8, 9, 12, 13))
    assert engine.dom[10] & bits(1) and engine.dom[15] & bits(1)


def test_undo_restores_every_domain() -> None:
    engine = Engine(row_of(5, (0, 0, 3, 0, 0), [((0, 0), (1, 0))]))
    before = list(engine.dom)
    mark = engine.mark()
    assert engine.assign(1, bits(5))
    assert list(engine.dom) != before
    engine.undo(mark)
    assert list(engine.dom) == before


# ---------------------------------------------------------------- random puzzles vs brute force


def _random(count: int, sizes: tuple[int, ...], seed: int) -> list[Futoshiki]:
    rng = random.Random(seed)
    return [
        random_puzzle(rng.choice(sizes), rng, givens=rng.choice([0.0, 0.1, 0.2]),
                      relations=rng.choice([0.1, 0.3, 0.5, 0.8]))
        for _ in range(count)
    ]


@pytest.mark.parametrize("puzzle", _random(60, (3, 4), 7), ids=lambda p: f"n{p.n}")
def test_dp_and_propagate_equal_brute_force(puzzle: Futoshiki) -> None:
    expected = brute_force_count(puzzle)
    assert count_dp(puzzle) == expected
    assert PropagateBackend().count(puzzle).count == expected
    found = list(PropagateBackend().solutions(puzzle))
    assert len({s.grid for s in found}) == len(found) == expected
    assert all(verify(puzzle, s) == [] for s in found)


def test_dp_equals_propagate_on_random_5x5_and_6x6() -> None:
    for puzzle in _random(12, (5, 6), 11):
        # Few givens and relations can leave millions of solutions: only compare
        # where propagate finishes quickly.
        streamed = PropagateBackend().count(puzzle, time_limit=2.0)
        if streamed.complete:
            assert count_dp(puzzle) == streamed.count


def from_square(n: int, rng: random.Random, givens: float, relations: float) -> Futoshiki:
    """A puzzle with at least one solution: clues and inequalities read off a
    shuffled cyclic Latin square."""
    rows, columns, values = (rng.sample(range(n), n) for _ in range(3))
    square = [[values[(rows[r] + columns[c]) % n] + 1 for c in range(n)] for r in range(n)]
    grid = tuple(tuple(v if rng.random() < givens else 0 for v in row) for row in square)
    less = []
    for r in range(n):
        for c in range(n):
            for y, x in ((r, c + 1), (r + 1, c)):
                if y < n and x < n and rng.random() < relations:
                    pair = ((r, c), (y, x))
                    less.append(pair if square[r][c] < square[y][x] else pair[::-1])
    return Futoshiki(n, grid, tuple(less))


@pytest.mark.parametrize("seed", range(6))
def test_dp_equals_propagate_on_solvable_6x6(seed: int) -> None:
    puzzle = from_square(6, random.Random(seed), givens=0.2, relations=0.4)
    expected = PropagateBackend().count(puzzle, time_limit=30)
    assert expected.complete and expected.count >= 1
    assert count_dp(puzzle) == expected.count


# ---------------------------------------------------------------- symmetry


@pytest.mark.parametrize("n,count", [(5, 161280), (6, 812851200)])
def test_empty_squares_count_latin_squares(n: int, count: int) -> None:
    result = CountDPBackend().count(Futoshiki.empty(n))
    assert (result.status, result.count) == (Status.COUNTED, count)


# ---------------------------------------------------------------- limits, caps, fallbacks


def test_count_cap_reports_limit_with_exact_count_in_message() -> None:
    result = CountDPBackend().count(Futoshiki.empty(5), limit=1000)
    assert (result.status, result.count) == (Status.LIMIT, 1000)
    assert "161280" in result.message


def test_state_budget_falls_back_to_propagate() -> None:
    result = CountDPBackend(max_states=1).count(Futoshiki.empty(4))
    assert (result.status, result.count) == (Status.COUNTED, 576)
    assert "propagate" in result.message and result.effort["fallback"] == 1


def test_dp_time_limit_reports_limit() -> None:
    result = CountDPBackend().count(Futoshiki.empty(7), time_limit=0.0)
    assert result.status is Status.LIMIT and result.count == 0


def test_propagate_time_limit_gives_a_lower_bound() -> None:
    result = PropagateBackend().count(Futoshiki.empty(6), time_limit=0.3)
    assert result.status is Status.LIMIT and 0 < result.count < 812851200


def test_ctrl_c_gives_a_lower_bound_marked_limit() -> None:
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        result = PropagateBackend(progress=False).count(Futoshiki.empty(6))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert result.status is Status.LIMIT and result.count > 0
    assert "interrupted" in result.message


def test_long_count_prints_progress(monkeypatch, capsys) -> None:
    monkeypatch.setattr(propagate, "PROGRESS_AFTER", 0.05)
    PropagateBackend().count(Futoshiki.empty(6), time_limit=0.5)
    assert "counting:" in capsys.readouterr().err


def test_streaming_count_merges_the_last_cells() -> None:
    result = PropagateBackend().count(Futoshiki.empty(5))
    assert (result.status, result.count) == (Status.COUNTED, 161280)
    assert result.effort["merged"] > 0


def test_streaming_count_branches_when_merging_would_grow_too_big(monkeypatch) -> None:
    monkeypatch.setattr(propagate, "REST_STATES", 3)
    result = PropagateBackend().count(Futoshiki.empty(4))
    assert (result.status, result.count) == (Status.COUNTED, 576)
    monkeypatch.setattr(propagate, "REST_CELLS", 0)
    linked = Futoshiki(4, Futoshiki.empty(4).givens, (((0, 0), (0, 1)), ((1, 1), (2, 1))))
    assert PropagateBackend().count(linked).count == brute_force_count(linked)


def test_unique_stops_at_two() -> None:
    result = PropagateBackend().unique(Futoshiki.empty(5))
    assert result.status is Status.MULTIPLE and len(result.solutions) == 2
    assert result.solutions[0] != result.solutions[1]


# ---------------------------------------------------------------- public instances


def _index(prefix: str) -> list[tuple[Path, int, str]]:
    root = shared("instances-public", "futoshiki")
    rows = []
    for line in (root / "index.tsv").read_text().splitlines()[1:]:
        path, _, _, _, _, _, solutions, solution = line.split("\t")[:8]
        if path.startswith(prefix):
            rows.append((root / path, int(solutions), solution))
    return rows


def _load(path: Path) -> Futoshiki:
    return parse(path.read_text(), str(path))


def test_every_tatham_puzzle_is_unique_with_the_known_solution() -> None:
    engine = PropagateBackend()
    for path, _, solution in _index("tatham-unequal/seedfmt/u0"):
        puzzle = _load(path)
        result = engine.unique(puzzle, time_limit=30)
        assert result.status is Status.UNIQUE, path.name
        grid = ",".join(str(v) for row in result.solutions[0].grid for v in row)
        assert grid == solution, path.name


def test_counting_5x5_and_reduced_squares() -> None:
    rows = _index("counting/c5_") + _index("latin/reduced_") + _index("latin/empty_")
    for path, expected, _ in rows:
        if path.name in ("reduced_7.txt", "empty_7.txt"):
            continue  # in the slow tests
        assert CountDPBackend().count(_load(path)).count == expected, path.name


@pytest.mark.slow
def test_counting_6x6_and_7x7() -> None:
    rows = _index("counting/c6_") + _index("latin/reduced_7") + _index("latin/empty_7")
    for path, expected, _ in rows:
        assert CountDPBackend().count(_load(path)).count == expected, path.name


@pytest.mark.slow
def test_large_tatham_puzzles_are_unique() -> None:
    for path, _, solution in _index("tatham-unequal/seedfmt/u1"):
        result = PropagateBackend().unique(_load(path), time_limit=60)
        assert result.status is Status.UNIQUE, path.name
        grid = ",".join(str(v) for row in result.solutions[0].grid for v in row)
        assert grid == solution, path.name
