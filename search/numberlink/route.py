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

from search.core.contract import Deadline
from search.numberlink.model import Cell, Numberlink, Solution

HUG = 0.15  # extra cost per label-free neighbour: paths hug walls and labels


def _cheapest(puzzle: Numberlink, k: int, cost: dict[Cell, float], roomy: dict[Cell, float]
              ) -> list[Cell] | None:
    """A* from ``a`` to ``b`` of pair ``k`` over cells free of other labels."""
    pair = puzzle.pairs[k]
    ends = puzzle.endpoint
    (gr, gc) = pair.b
    best = {pair.a: 0.0}
    came: dict[Cell, Cell] = {}
    heap = [(0.0, 0.0, pair.a)]
    while heap:
        _, spent, cell = heapq.heappop(heap)
        if cell == pair.b:
            path = [cell]
            while path[-1] != pair.a:
                path.append(came[path[-1]])
            return path[::-1]
        if spent > best[cell]:
            continue
        for n in puzzle.neighbours(cell):
            if n in ends and n != pair.b:
                continue
            g = spent + cost.get(n, 1.0) + roomy[n]
            if g < best.get(n, float("inf")):
                best[n], came[n] = g, cell
                heapq.heappush(heap, (g + abs(n[0] - gr) + abs(n[1] - gc), g, n))
    return None


# rounds of rip-up and reroute: work, so the answer does not hang on the load
# (ADC 2015 Q10, Q13, Q14 and Q19 need more than 40; 200 take at most 3.5 s)
ROUNDS = 200


def route(puzzle: Numberlink, *, rounds: int = ROUNDS,
          deadline: Deadline | None = None) -> Solution | None:
    """Paths that share no cell, if found within ``rounds`` (and before the
    user's ``deadline``)."""
    history: dict[Cell, float] = {}
    paths: dict[int, list[Cell]] = {}
    users: dict[Cell, int] = {}
    ends = puzzle.endpoint
    roomy = {c: HUG * sum(n not in ends for n in puzzle.neighbours(c)) for c in puzzle.open_cells}
    pressure = 0.5
    for _ in range(rounds):
        for k in range(len(puzzle.pairs)):
            if deadline is not None and deadline.expired():
                return None
            for cell in paths.pop(k, ()):
                users[cell] -= 1
            cost = {c: (1.0 + history.get(c, 0.0)) * (1.0 + pressure * users.get(c, 0))
                    for c in set(users) | set(history)}
            path = _cheapest(puzzle, k, cost, roomy)
            if path is None:
                return None  # cut off even with every other path ignored
            paths[k] = path
            for cell in path:
                users[cell] = users.get(cell, 0) + 1
        shared = [c for c, n in users.items() if n > 1]
        if not shared:
            return Solution(tuple(tuple(paths[k]) for k in range(len(puzzle.pairs))))
        for cell in shared:
            history[cell] = history.get(cell, 0.0) + users[cell] - 1
        pressure *= 1.5
    return None
