"""The cut that the well-designed generators and the difficulty steering
share: a path of the solution cut in two is still a solution of the cut
board, and only steps that leave two cells a side are offered."""

from __future__ import annotations

import random

from search.numberlink.generate import cut, cut_steps, parted, seed_board
from search.numberlink.verify import verify


def test_a_cut_board_keeps_its_solution_and_gains_a_pair():
    rng = random.Random(7)
    tried = 0
    for seed in range(30):
        puzzle, solution = seed_board(6, 6, seed)
        steps = cut_steps(solution)
        for p, i, step in steps:
            path = solution.paths[p]
            assert step == frozenset((path[i], path[i + 1]))
            assert 2 <= i + 1 <= len(path) - 2  # two cells or more on each side
        assert len(steps) == sum(max(0, len(path) - 3) for path in solution.paths)
        if not steps:
            continue
        p, i, _ = rng.choice(steps)
        after, kept = cut(puzzle, solution, {p: i})
        tried += 1
        assert verify(after, kept) == []
        assert len(after.pairs) == len(puzzle.pairs) + 1
        assert kept.edges == solution.edges - {frozenset(solution.paths[p][i:i + 2])}
    assert tried > 20


def test_parted_offers_the_steps_the_other_solution_does_not_take():
    puzzle, solution = seed_board(6, 6, 3)
    assert parted(solution, solution) == []
    p, i, step = cut_steps(solution)[0]
    _, other = cut(puzzle, solution, {p: i})  # S without one step
    assert parted(solution, other) == [(p, i)]
