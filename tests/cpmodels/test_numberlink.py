"""Numberlink: CP-SAT's canonical lenient solutions, against the brute-force oracle."""

from __future__ import annotations

import random

from cpmodels.numberlink import CpSatBackend
from search.lab.oracles.numberlink import random_puzzle as random_numberlink
from search.lab.oracles.numberlink import solutions as numberlink_solutions
from search.numberlink.generate import seed_board
from search.numberlink.model import Cell, Numberlink, Solution
from search.numberlink.verify import covers, touches_itself


def shortens(puzzle: Numberlink, solution: Solution) -> bool:
    """Written apart from the model: does a path make a bump around an empty
    cell, or turn at a cell whose opposite corner is empty and comes first?"""
    cover = solution.cover()

    def empty(cell: Cell) -> bool:
        return puzzle.inside(cell) and cell not in puzzle.blocked and cell not in cover

    for path in solution.paths:
        for x, b, y in zip(path, path[1:], path[2:]):
            if x[0] != y[0] and x[1] != y[1]:  # a turn at b
                e = (x[0] + y[0] - b[0], x[1] + y[1] - b[1])
                if empty(e) and e < b:
                    return True
        for a, b, m, g, d in zip(path, path[1:], path[2:], path[3:], path[4:]):
            side = (b[0] - a[0], b[1] - a[1])
            e = (m[0] - side[0], m[1] - side[1])
            line = (e[0] - a[0], e[1] - a[1])
            if (d == (e[0] + line[0], e[1] + line[1]) and g == (d[0] + side[0], d[1] + side[1])
                    and side[0] * line[0] + side[1] * line[1] == 0 and empty(e)):
                return True
    return False


def boards(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        yield random_numberlink(rng.randint(2, 4), rng.randint(2, 4), rng).lenient()


def test_canonical_solutions_are_the_oracle_solutions_that_do_not_shorten():
    engine = CpSatBackend(no_self_touch=True, canonical=True)
    some = 0
    for puzzle in boards(120, seed=3):
        every = list(numberlink_solutions(puzzle))
        want = {s.edges for s in every
                if not touches_itself(puzzle, s) and not shortens(puzzle, s)}
        got = [s.edges for s in engine.solutions(puzzle, time_limit=30)]
        assert len(got) == len(set(got)) and set(got) == want
        some += len(every) > len(want)  # the rules cut something here
    assert some > 10


def covered_boards(count: int):
    """The seed article's generator: boards with a full cover, small enough
    for the oracle."""
    for seed in range(count):
        yield seed_board(5, 5 + seed % 2, seed)[0].lenient()


def test_a_second_lenient_solution_beside_a_full_cover_has_a_canonical_one():
    """The lemma the well-designed check rests on, on small boards."""
    engine = CpSatBackend(no_self_touch=True, canonical=True)
    checked = several = 0
    for puzzle in list(boards(60, seed=4)) + list(covered_boards(80)):
        every = list(numberlink_solutions(puzzle))
        canonical = engine.count(puzzle, limit=2, time_limit=30).count
        assert (canonical == 0) == (not every)
        if any(covers(puzzle, s) and not touches_itself(puzzle, s) for s in every):
            assert min(canonical, 2) == min(len(every), 2)
            checked += 1
            several += len(every) > 1
    assert checked > 20 and several > 5


def test_a_known_solution_is_blocked_first_and_changes_no_count():
    """A self-avoiding full cover is one of the model's and is blocked first;
    a solution the canonical rules exclude is ignored."""
    plain = CpSatBackend(block=True, no_self_touch=True, canonical=True)
    used = ignored = 0
    for puzzle in list(boards(80, seed=5)) + list(covered_boards(20)):
        every = list(numberlink_solutions(puzzle))
        full = [s for s in every if covers(puzzle, s) and not touches_itself(puzzle, s)]
        some = full[:1] + [s for s in every if shortens(puzzle, s)][:2]
        for rules in (puzzle.covering(), puzzle):
            counted = plain.count(rules, limit=2, time_limit=30)
            for solution in some:
                again = CpSatBackend(block=True, no_self_touch=True, canonical=True,
                                     known=solution).count(rules, limit=2, time_limit=30)
                assert (again.status, again.count) == (counted.status, counted.count)
        used += bool(full)
        ignored += counted.count == 1 and len(some) > len(full)  # lenient: would be 2
    assert used > 10 and ignored > 3
