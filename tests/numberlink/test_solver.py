"""More checks of the hand-written search's pruning under no-self-touch:
every self-avoiding full cover of boards made from path covers survives it
(the brute-force oracle counts them), and the slow Flow Free levels it
used to miss take a few hundred nodes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from search.lab.oracles.numberlink import count as brute_count
from search.numberlink.generate import board_of_paths, seed_board
from search.numberlink.io import parse
from search.numberlink.model import Numberlink
from search.numberlink.solver import Board, SearchBackend
from search.numberlink.verify import verify

FLOW = (Path(__file__).resolve().parents[3] / "shared" / "instances-public"
        / "numberlink" / "mzucker-flow_solver" / "puzzles")


def merged_board(size: int, seed: int, merges: int) -> Numberlink:
    """A seed board whose paths are joined end to end ``merges`` times: fewer
    pairs, so full covers with other shapes (or none) than the seed's."""
    rng = random.Random(seed)
    puzzle, solution = seed_board(size, size, seed)
    paths = [list(path) for path in solution.paths]
    for _ in range(merges):
        joins = [(i, j, a, b)
                 for i, p in enumerate(paths) for j, q in enumerate(paths) if i < j
                 for a in (p, p[::-1]) for b in (q, q[::-1])
                 if abs(a[-1][0] - b[0][0]) + abs(a[-1][1] - b[0][1]) == 1]
        if not joins:
            break
        i, j, a, b = rng.choice(joins)
        paths = [path for k, path in enumerate(paths) if k not in (i, j)] + [a + b]
    return board_of_paths(size, size, paths, puzzle.blocked)[0]


def test_square_rule_keeps_every_self_avoiding_full_cover():
    solved = 0
    for size in (4, 5, 6):
        for seed in range(40):
            for merges in range(4):
                puzzle = merged_board(size, seed, merges)
                expected = brute_count(puzzle, self_avoiding=True)
                found = list(SearchBackend(no_self_touch=True).solutions(puzzle))
                assert len(found) == expected, (size, seed, merges)
                assert all(verify(puzzle, s) == [] for s in found)
                solved += expected > 0
    assert solved > 50  # the boards are not all refuted at once


def test_square_rule_refutes_a_forced_u_turn():
    # The corners force (1,0)-(0,0)-(0,1) and (0,2)-(1,2)-(1,1): the square at
    # the top left then has two links, so (0,1)-(1,1) is out and (0,1) is
    # short of links.  The plain rule takes that S-shaped path.
    puzzle = parse("..A\nA..\n", "s-shape")
    assert Board(puzzle, no_self_touch=True).link_moves({}) is None
    assert Board(puzzle, no_self_touch=False).link_moves({}) is not None
    assert brute_count(puzzle) == 1 and brute_count(puzzle, self_avoiding=True) == 0


@pytest.mark.parametrize("name", ["jumbo_14x14_19", "jumbo_14x14_30"])
def test_slow_flow_levels_take_few_nodes(name):
    path = FLOW / f"{name}.txt"
    if not path.exists():
        pytest.skip("public Flow Free levels not present")
    puzzle = parse(path.read_text(), name)
    result = SearchBackend().solve(puzzle, time_limit=60)
    assert result.solution is not None and verify(puzzle, result.solution) == []
    assert result.effort["nodes"] < 5000
