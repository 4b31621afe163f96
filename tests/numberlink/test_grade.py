"""Numberlink grades and hints (search/numberlink/grade.py).

The grade's deduction levels agree with a second, deliberately simple
implementation (tests/numberlink/grade_reference.py) on 50 boards per level;
the deduced solution is the puzzle's one solution; a hinted link lies in
every solution the brute-force oracle finds; the grades differ in the solve
effort of a search without the deductions.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from search.lab.oracles.numberlink import random_board, solutions
from search.numberlink import KIND
from search.numberlink.grade import GRADES, Deduction, forced_link, grade, lookahead
from search.numberlink.model import Numberlink, Pair
from search.numberlink.paths_gen import large_board
from search.numberlink.verify import verify
from search.pipelines.numberlink_check import check
from search.pipelines.numberlink_generate import seed_well_designed
from tests.numberlink.grade_reference import level as reference_level

PER_LEVEL = 50


def deduced_level(puzzle: Numberlink, nst: bool = True) -> int | None:
    """The levels of grade.py on any board under its own rule (grade() itself
    always takes full cover)."""
    board = Deduction(puzzle, nst=nst)
    if not (board.start() and board.closure()):
        return None
    if board.complete():
        return 0
    outcome = lookahead(board, 10**7, {"probes": 0, "rounds": 0})
    if not outcome:
        return None
    return 1 if board.complete() else 2


def boards() -> list[Numberlink]:
    """Boards of every level: random small boards under both rules, and
    full-cover boards of space-filling paths."""
    rng = random.Random(2026)
    out = []
    for _ in range(250):
        board = random_board(rng, 6)
        out += [board.covering(), board.lenient()]
    for seed in range(200):
        n, pairs = rng.choice((6, 7)), rng.choice((4, 5, 6))
        out.append(large_board(n, n, seed, pairs=pairs)[0])
    return out


def test_levels_agree_with_the_reference_50_per_level():
    seen: Counter = Counter()
    for puzzle in boards():
        for nst in (True, False):
            mine = deduced_level(puzzle, nst)
            assert mine == reference_level(puzzle, nst), (puzzle, nst)
            seen[mine] += 1
    assert all(seen[k] >= PER_LEVEL for k in (0, 1, 2)), seen


def test_grades_of_well_designed_boards_agree_with_the_reference():
    seen: Counter = Counter()
    for seed in range(90):
        n = 9 + seed % 3
        puzzle, solution, _ = seed_well_designed(n, n, seed)
        found = grade(puzzle)
        assert found.level == reference_level(puzzle.covering(), True)
        seen[found.name] += 1
        if found.level in (0, 1):  # the deduction fills the board with its one solution
            assert found.solution is not None and found.solution.edges == solution.edges
    assert seen["easy"] >= PER_LEVEL and seen["medium"] >= 10, seen


def test_grade_names_and_contradiction():
    assert GRADES == ("easy", "medium", "hard")
    # two labels of different pairs walled in a 1 x 2 corridor: no full cover
    blocked = Numberlink(1, 3, (Pair("1", (0, 0), (0, 2)), Pair("2", (0, 1), (0, 1))))
    assert grade(blocked).level is None


@pytest.mark.parametrize("full_cover", [True, False])
def test_hinted_links_hold_in_every_solution(full_cover):
    rng = random.Random(31 + full_cover)
    hinted = 0
    for _ in range(300):
        puzzle = random_board(rng, 5)
        puzzle = puzzle.covering() if full_cover else puzzle.lenient()
        everything = list(solutions(puzzle))
        link = forced_link(puzzle)
        if link is None:
            continue
        hinted += 1
        step = frozenset((link.cell, link.next))
        assert all(step in s.edges for s in everything), (puzzle, link)
        assert link.level in (0, 1) and link.reason
    assert hinted >= 60


def test_a_lookahead_hint_and_none():
    rng = random.Random(5)
    levels = Counter()
    for _ in range(400):
        puzzle = random_board(rng, 5).lenient()
        link = forced_link(puzzle)
        levels[None if link is None else link.level] += 1
        if link is not None and link.level == 1:
            assert link.reason.startswith("lookahead")
            assert all(frozenset((link.cell, link.next)) in s.edges
                       for s in solutions(puzzle))
    assert levels[0] and levels[1] and levels[None], levels


def test_grades_differ_in_solve_effort():
    """The ``links`` backend (its own propagation, corner spikes included)
    takes more nodes on medium boards than on easy ones: means over 80
    well-designed boards (benchmarks/numberlink_grades.py measures the
    guesses and the ``search`` nodes, hard boards included)."""
    nodes: dict[str, list[int]] = {name: [] for name in GRADES}
    engine = KIND.backend("links")
    for seed in range(80):
        n = 9 + seed % 3
        puzzle, _, _ = seed_well_designed(n, n, seed)
        nodes[grade(puzzle).name].append(int(engine.solve(puzzle).effort["nodes"]))
    easy, medium = nodes["easy"], nodes["medium"]
    assert len(easy) >= 10 and len(medium) >= 10, nodes
    assert sum(medium) / len(medium) > sum(easy) / len(easy), nodes


def test_deduced_solution_is_verified_and_well_designed():
    for seed in range(10):
        puzzle, solution, _ = seed_well_designed(7, 7, seed)
        found = grade(puzzle)
        if found.solution is not None:
            assert verify(puzzle, found.solution) == []
            assert check(puzzle).ok
