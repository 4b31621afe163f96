"""The DIMACS CNF that the #SAT peers count: its models are the solutions, one to
one. The models are enumerated here by CP-SAT over the clauses as written
(read back from the DIMACS text) and compared with the brute-force oracle,
solution by solution."""

from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from search.futoshiki.cnf import dimacs, variable
from search.futoshiki.model import Futoshiki, Solution
from search.futoshiki.verify import verify
from search.lab.oracles import futoshiki as oracle


def models(text: str) -> set[Solution]:
    """Every model of a DIMACS text of gridcp's encoding, as a grid."""
    lines = [line.split() for line in text.splitlines() if line and line[0] != "c"]
    assert lines[0][:2] == ["p", "cnf"]
    n = round(int(lines[0][2]) ** (1 / 3))
    assert n ** 3 == int(lines[0][2]) and len(lines) - 1 == int(lines[0][3])
    model = cp_model.CpModel()
    x = [None] + [model.NewBoolVar(f"x{i}") for i in range(1, n ** 3 + 1)]
    for words in lines[1:]:
        assert words[-1] == "0"
        model.AddBoolOr([x[int(w)] if int(w) > 0 else x[-int(w)].Not() for w in words[:-1]])
    found: set[Solution] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            grid = [[[v for v in range(1, n + 1) if self.Value(x[variable(n, (r, c), v)])]
                     for c in range(n)] for r in range(n)]
            assert all(len(held) == 1 for row in grid for held in row)
            found.add(Solution(tuple(tuple(held[0] for held in row) for row in grid)))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    status = solver.Solve(model, Collect())
    assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return found


@pytest.mark.parametrize("n, latin", [(1, 1), (2, 2), (3, 12), (4, 576)])
def test_the_empty_square_has_the_latin_squares_as_models(n: int, latin: int) -> None:
    assert len(models(dimacs(Futoshiki.empty(n)))) == latin


@pytest.mark.parametrize("seed", range(24))
def test_the_models_are_the_solutions(seed: int) -> None:
    rng = random.Random(seed)
    puzzle = oracle.random_puzzle(rng.choice((3, 4)), rng, givens=rng.choice((0.0, 0.15)),
                                  relations=rng.choice((0.2, 0.4)))
    assert models(dimacs(puzzle)) == set(oracle.solutions(puzzle))


@pytest.mark.parametrize("seed", range(8))
def test_adjacent_mode_bars_and_their_absence(seed: int) -> None:
    n = 4
    latin = list(oracle.solutions(Futoshiki.empty(n)))  # the 576 squares
    square = random.Random(seed).choice(latin).grid
    empty = Futoshiki.empty(n, adjacent=True)
    bars = tuple((a, b) for a, b in empty.neighbour_pairs()  # the bars of one square
                 if abs(square[a[0]][a[1]] - square[b[0]][b[1]]) == 1)
    puzzle = Futoshiki(n, empty.givens, adjacent=True, bars=bars)
    expected = {s for s in latin if not verify(puzzle, s)}
    assert Solution(square) in expected
    assert models(dimacs(puzzle)) == expected


def test_the_header_counts_variables_and_clauses() -> None:
    puzzle = Futoshiki(2, ((1, 0), (0, 0)), less=(((1, 1), (0, 1)),))
    text = dimacs(puzzle)
    assert text.splitlines()[1] == f"p cnf 8 {len(text.splitlines()) - 2}"
    assert "1 0" in text.splitlines()  # the given: cell (0, 0) holds 1
    assert models(text) == {Solution(((1, 2), (2, 1)))}
