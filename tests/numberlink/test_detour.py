"""Numberlink: a second solution by re-routing a known one inside a window."""

from __future__ import annotations

import random

import pytest

from search.core.contract import Deadline, LimitReached, Status
from search.lab.oracles.numberlink import random_puzzle as random_numberlink
from search.lab.oracles.numberlink import solutions as numberlink_solutions
from search.numberlink.detour import detour, put_back, restrict, stretches, windows
from search.numberlink.frontier import FrontierBackend
from search.numberlink.generate import seed_board
from search.numberlink.io import parse
from search.numberlink.model import Solution
from search.numberlink.verify import verify
from tests.conftest import INSTANCES

SEED = INSTANCES / "numberlink" / "seed-article" / "seed_7x7.nl"


def small_boards(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        height, width = rng.randint(1, 4), rng.randint(2, 4)
        yield random_numberlink(height, width, rng).lenient()


@pytest.mark.parametrize("height, width", [(1, 2), (4, 4), (7, 5), (17, 17), (14, 24)])
def test_windows_cover_the_board_and_stay_on_it(height, width):
    covered = set()
    for rows, cols in windows(height, width):
        assert 0 <= rows.start < rows.stop <= height and 0 <= cols.start < cols.stop <= width
        covered.update((r, c) for r in rows for c in cols)
    assert len(covered) == height * width
    first = next(windows(height, width))
    if height <= 4 and width <= 4:  # the first window is the whole board
        assert (first[0], first[1]) == (range(height), range(width))


def test_stretches_and_their_puzzle_put_back_give_the_solution():
    puzzle, solution = seed_board(7, 7, seed=3)
    for window in windows(puzzle.height, puzzle.width):
        small, kept = restrict(puzzle, solution, window)
        cells = {(r, c) for p, first, last in stretches(solution, window)
                 for r, c in solution.paths[p][first:last + 1]}
        assert all(r in window[0] and c in window[1] for r, c in cells)
        here = FrontierBackend().solve(small)  # the stretches themselves solve it
        assert here.status is Status.SOLVED
        assert verify(puzzle.lenient(), put_back(solution, window, kept, here.solution)) == []
        again = put_back(solution, window, kept, _restricted(solution, window, kept))
        assert again == solution


def _restricted(solution, window, kept):
    top, left = window[0].start, window[1].start
    return Solution(tuple(tuple((r - top, c - left) for r, c in solution.paths[p][a:b + 1])
                          for p, a, b in kept))


def test_on_boards_one_window_holds_it_finds_a_second_solution_iff_there_is_one():
    checked = 0
    for puzzle in small_boards(150, seed=11):
        every = list(numberlink_solutions(puzzle))
        if not every:
            continue
        checked += 1
        other = detour(puzzle, every[0], Deadline(30))
        if len(every) == 1:
            assert other is None
        else:
            assert other is not None and other.edges != every[0].edges
            assert verify(puzzle, other) == []
    assert checked > 80


def test_what_it_finds_on_larger_boards_is_a_real_second_solution():
    found = 0
    for seed in range(8):
        puzzle, solution = seed_board(8, 8, seed=seed)
        lenient = puzzle.lenient()
        other = detour(lenient, solution, Deadline(30))
        if FrontierBackend().count(lenient, limit=2).count < 2:
            assert other is None
        elif other is not None:
            found += 1
            assert other.edges != solution.edges and verify(lenient, other) == []
    assert found


def test_a_unique_solution_has_no_detour():
    puzzle = parse(SEED.read_text()).lenient()
    only = FrontierBackend().solve(puzzle).solution
    assert detour(puzzle, only, Deadline(30)) is None


def test_a_deadline_stops_the_sweep_without_a_false_none():
    puzzle, solution = seed_board(8, 8, seed=1)
    with pytest.raises(LimitReached):  # never "none found" because time ran out
        detour(puzzle.lenient(), solution, Deadline(0))


def test_the_sweep_reports_its_effort_alike_in_two_runs():
    puzzle, solution = seed_board(8, 8, seed=3)
    first: dict = {}
    second: dict = {}
    found = detour(puzzle.lenient(), solution, Deadline(30), effort=first)
    again = detour(puzzle.lenient(), solution, Deadline(None), effort=second)
    assert first == second and first["transitions"] > 0
    assert (found is None) is (again is None) and (found is None or found == again)


def test_a_window_past_its_state_bound_is_given_up():
    for seed in range(8):
        puzzle, solution = seed_board(8, 8, seed=seed)
        if detour(puzzle.lenient(), solution, Deadline(30)) is not None:
            break
    else:
        pytest.fail("no seeded board with a detour")
    assert detour(puzzle.lenient(), solution, Deadline(30), window_states=1) is None
