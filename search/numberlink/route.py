"""A negotiated-congestion router (PathFinder) for Numberlink search hints.

Every pair takes a cheapest path on its own; cells wanted by several pairs
grow dearer (now and, remembered, in later rounds) until no cell is shared.
Open space costs a little more, so paths hug the walls and leave room (on
the contest boards this untangles nested paths the plain cost does not).
A heuristic: it proves nothing, it only gives CP-SAT a place to start (a
hint).  A cheapest path never touches itself (a shortcut would be cheaper),
so a routing without shared cells obeys the no-self-touch model.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from search.core.contract import Deadline
from search.numberlink.model import Numberlink, Solution

HUG = 0.15  # extra cost per label-free neighbour: paths hug walls and labels
_FAR = float("inf")


@dataclass(frozen=True)
class _Grid:
    """The board as numbers: cell ``r * width + c``, so a heap that breaks
    ties by cell breaks them as ``(row, col)`` would."""

    width: int
    steps: tuple[tuple[int, ...], ...]  # open neighbours, labelled ones included
    label: tuple[int, ...]  # the pair a cell ends, or -1
    roomy: tuple[float, ...]  # HUG per label-free neighbour

    @classmethod
    def of(cls, puzzle: Numberlink) -> _Grid:
        w, ends = puzzle.width, puzzle.endpoint
        size = puzzle.height * w
        steps: list[tuple[int, ...]] = [()] * size
        roomy = [0.0] * size
        for cell in puzzle.open_cells:
            near = puzzle.neighbours(cell)
            steps[cell[0] * w + cell[1]] = tuple(r * w + c for r, c in near)
            roomy[cell[0] * w + cell[1]] = HUG * sum(n not in ends for n in near)
        label = [-1] * size
        for cell, k in ends.items():
            label[cell[0] * w + cell[1]] = k
        return cls(w, tuple(steps), tuple(label), tuple(roomy))


def _cheapest(grid: _Grid, a: int, b: int, history: list[float], users: list[int],
              pressure: float) -> list[int] | None:
    """A* from ``a`` to ``b`` over cells free of other labels.
    A cell costs ``(1 + its history) * (1 + pressure * its users)``."""
    w, steps, label, roomy = grid.width, grid.steps, grid.label, grid.roomy
    gr, gc = divmod(b, w)
    best = {a: 0.0}
    came: dict[int, int] = {}
    heap = [(0.0, 0.0, a)]
    while heap:
        _, spent, cell = heapq.heappop(heap)
        if cell == b:
            path = [cell]
            while path[-1] != a:
                path.append(came[path[-1]])
            return path[::-1]
        if spent > best[cell]:
            continue
        for n in steps[cell]:
            if label[n] >= 0 and n != b:
                continue
            g = spent + (1.0 + history[n]) * (1.0 + pressure * users[n]) + roomy[n]
            if g < best.get(n, _FAR):
                best[n], came[n] = g, cell
                r, c = divmod(n, w)
                heapq.heappush(heap, (g + abs(r - gr) + abs(c - gc), g, n))
    return None


# rounds of rip-up and reroute: work, so the answer does not hang on the load
# (ADC 2015 Q10, Q13, Q14 and Q19 need more than 40; 200 take at most 1.4 s)
ROUNDS = 200


def route(puzzle: Numberlink, *, rounds: int = ROUNDS,
          deadline: Deadline | None = None,
          effort: dict[str, float] | None = None) -> Solution | None:
    """Paths that share no cell, if found within ``rounds`` (and before the
    user's ``deadline``); ``effort`` gets the rounds spent."""
    grid = _Grid.of(puzzle)
    w = grid.width
    ends = [(p.a[0] * w + p.a[1], p.b[0] * w + p.b[1]) for p in puzzle.pairs]
    history = [0.0] * len(grid.label)  # how crowded a cell was in earlier rounds
    users = [0] * len(grid.label)  # how many paths take it now
    paths: dict[int, list[int]] = {}
    pressure = 0.5
    for spent in range(1, rounds + 1):
        if effort is not None:
            effort["rounds"] = spent
        for k, (a, b) in enumerate(ends):
            if deadline is not None and deadline.expired():
                return None
            for cell in paths.pop(k, ()):
                users[cell] -= 1
            path = _cheapest(grid, a, b, history, users, pressure)
            if path is None:
                return None  # cut off even with every other path ignored
            paths[k] = path
            for cell in path:
                users[cell] += 1
        shared = [c for c, n in enumerate(users) if n > 1]
        if not shared:
            return Solution(tuple(tuple(divmod(c, w) for c in paths[k])  # type: ignore[misc]
                                  for k in range(len(ends))))
        for cell in shared:
            history[cell] += users[cell] - 1
        pressure *= 1.5
    return None
