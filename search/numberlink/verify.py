"""The Numberlink oracle: does a solution obey the rules of its puzzle?

Independent of every backend: it rebuilds the drawn lines as a graph (plain
dicts: networkx's import alone cost a whole-process solve 0.2-0.4 s) and
checks each component is a simple path joining one pair.
"""

from __future__ import annotations

from search.numberlink.model import Cell, Numberlink, Solution

_STEPS = frozenset({(0, 1), (1, 0), (0, -1), (-1, 0)})


def verify(puzzle: Numberlink, solution: Solution) -> list[str]:
    """Violations of the rules (empty list = valid solution)."""
    problems: list[str] = []
    if len(solution.paths) != len(puzzle.pairs):
        return [f"{len(solution.paths)} paths for {len(puzzle.pairs)} pairs"]
    drawn: dict[Cell, set[Cell]] = {}
    owner: dict[Cell, str] = {}
    for pair, path in zip(puzzle.pairs, solution.paths):
        name = f"path {pair.label}"
        if len(path) < 2 or path[0] != pair.a or path[-1] != pair.b:
            problems.append(f"{name} must run from {pair.a} to {pair.b}")
            continue
        for cell in path:
            if not puzzle.inside(cell):
                problems.append(f"{name} leaves the board at {cell}")
            elif cell in puzzle.blocked:
                problems.append(f"{name} passes the blocked cell {cell}")
            if cell in owner:
                problems.append(f"{name} reuses {cell} (already on path {owner[cell]})")
            owner[cell] = pair.label
        for (r1, c1), (r2, c2) in zip(path, path[1:]):
            if (r1 - r2, c1 - c2) not in _STEPS:
                problems.append(f"{name} jumps from {(r1, c1)} to {(r2, c2)}")
        for x, y in zip(path, path[1:]):
            drawn.setdefault(x, set()).add(y)
            drawn.setdefault(y, set()).add(x)
    if problems:
        return problems
    # Each component must be exactly one pair's path: a chain between its two ends.
    ends = puzzle.endpoint
    for component in _components(drawn):
        labels = {puzzle.pairs[ends[c]].label for c in component if c in ends}
        edges = sum(len(drawn[c]) for c in component) // 2
        if len(labels) != 1 or edges != len(component) - 1:
            problems.append(f"lines {sorted(labels)} join or branch")
    if puzzle.full_cover:
        empty = [c for c in puzzle.open_cells if c not in owner]
        if empty:
            problems.append(f"{len(empty)} cells on no path (full cover), e.g. {empty[0]}")
    return problems


def _components(graph: dict[Cell, set[Cell]]) -> list[set[Cell]]:
    """The connected components of an undirected graph given as neighbour sets."""
    seen: set[Cell] = set()
    out = []
    for start in graph:
        if start in seen:
            continue
        seen.add(start)
        component, stack = {start}, [start]
        while stack:
            for n in graph[stack.pop()]:
                if n not in seen:
                    seen.add(n)
                    component.add(n)
                    stack.append(n)
        out.append(component)
    return out


def touches_itself(puzzle: Numberlink, solution: Solution) -> bool:
    """True when two grid-adjacent cells of one path are not consecutive on it.

    Such a path can be shortcut into another (lenient) solution, so the one
    solution of a well-designed puzzle never touches itself.
    """
    for path in solution.paths:
        where = {cell: i for i, cell in enumerate(path)}
        for i, (r, c) in enumerate(path):
            for n in ((r + 1, c), (r, c + 1)):
                j = where.get(n)
                if j is not None and abs(i - j) != 1:
                    return True
    return False


def covers(puzzle: Numberlink, solution: Solution) -> bool:
    """Does the solution's paths use every open cell?"""
    return sum(len(path) for path in solution.paths) == len(puzzle.open_cells)


def differences(puzzle: Numberlink, a: Solution, b: Solution) -> list[Cell]:
    """The cells whose path differs between two solutions: on another pair's
    path, on a path in one and empty in the other, or reached by other steps."""

    def steps(solution: Solution) -> dict[Cell, set[Cell]]:
        out: dict[Cell, set[Cell]] = {}
        for path in solution.paths:
            for x, y in zip(path, path[1:]):
                out.setdefault(x, set()).add(y)
                out.setdefault(y, set()).add(x)
        return out

    cover_a, cover_b, steps_a, steps_b = a.cover(), b.cover(), steps(a), steps(b)
    return [cell for cell in puzzle.open_cells
            if cover_a.get(cell) != cover_b.get(cell) or steps_a.get(cell) != steps_b.get(cell)]
