"""The Futoshiki oracle and the seed's classification of a square on loading."""

from __future__ import annotations

from dataclasses import dataclass

from search.futoshiki.model import Cell, Futoshiki, Grid, Solution


def verify(puzzle: Futoshiki, solution: Solution) -> list[str]:
    """Every rule the solution breaks, in words; empty when it is valid."""
    n, grid = puzzle.n, solution.grid
    if len(grid) != n or any(len(row) != n for row in grid):
        return [f"the solution is not a {n} x {n} grid"]
    problems = []
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if not 1 <= v <= n:
                problems.append(f"cell ({r + 1},{c + 1}) holds {v}, not a value in 1..{n}")
            given = puzzle.givens[r][c]
            if given and given != v:
                problems.append(f"cell ({r + 1},{c + 1}) holds {v} but the given is {given}")
    full = set(range(1, n + 1))
    for i in range(n):
        if set(grid[i]) != full:
            problems.append(f"row {i + 1} does not hold 1..{n} once each")
        if {grid[r][i] for r in range(n)} != full:
            problems.append(f"column {i + 1} does not hold 1..{n} once each")
    for (ra, ca), (rb, cb) in puzzle.less:
        if not grid[ra][ca] < grid[rb][cb]:
            problems.append(
                f"({ra + 1},{ca + 1}) < ({rb + 1},{cb + 1}) fails: "
                f"{grid[ra][ca]} is not less than {grid[rb][cb]}"
            )
    if puzzle.adjacent:
        problems += _adjacency_problems(puzzle, grid)
    return problems


def _adjacency_problems(puzzle: Futoshiki, grid: Grid) -> list[str]:
    """Adjacent mode: a bar iff the two values differ by 1 (0 = empty is never checked)."""
    problems = []
    for (ra, ca), (rb, cb), bar in puzzle.adjacency():
        a, b = grid[ra][ca], grid[rb][cb]
        if a and b and (abs(a - b) == 1) != bar:
            what = "a bar but do not differ by 1" if bar else "no bar but differ by 1"
            problems.append(f"({ra + 1},{ca + 1}) and ({rb + 1},{cb + 1}) hold {a} and {b}: "
                            f"{what}")
    return problems


@dataclass(frozen=True)
class Classification:
    """The seed's verdict on a square as loaded: complete or not, valid or not."""

    complete: bool
    problems: tuple[str, ...]  # why the square is invalid; empty when valid

    @property
    def valid(self) -> bool:
        return not self.problems


def classify(puzzle: Futoshiki) -> Classification:
    """The seed's checks on the givens alone: range, repeats, relations between givens."""
    n, g = puzzle.n, puzzle.givens
    problems = []
    for r in range(n):
        for c in range(n):
            if not 0 <= g[r][c] <= n:
                problems.append(f"cell ({r + 1},{c + 1}) holds {g[r][c]}, outside 0..{n}")
    for i in range(n):
        problems += _repeats([g[i][c] for c in range(n)], f"row {i + 1}")
        problems += _repeats([g[r][i] for r in range(n)], f"column {i + 1}")
    for (ra, ca), (rb, cb) in puzzle.less:
        a, b = g[ra][ca], g[rb][cb]
        if a and b and not a < b:
            problems.append(f"givens {a} at ({ra + 1},{ca + 1}) and {b} at ({rb + 1},{cb + 1}) "
                            f"break the relation {a} < {b}")
    if puzzle.adjacent:
        if puzzle.less:
            problems.append("adjacent mode has bars, not inequalities")
        problems += _adjacency_problems(puzzle, g)
    return Classification(puzzle.complete, tuple(problems))


def _repeats(values: list[int], where: str) -> list[str]:
    seen = [v for v in values if v > 0]
    return [f"{where} repeats {v}" for v in sorted({v for v in seen if seen.count(v) > 1})]


def invalid_reasons(puzzle: Futoshiki) -> list[str]:
    """Why the square is invalid as loaded (the seed's checks); empty when valid."""
    return list(classify(puzzle).problems)


def differences(puzzle: Futoshiki, a: Solution, b: Solution) -> list[Cell]:
    """The cells whose values differ between two solutions."""
    return [cell for cell in puzzle.cells if a.value(cell) != b.value(cell)]
