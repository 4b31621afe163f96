"""A second solution near a known one: re-route the paths inside a window.

Keep a solution S outside a window (a square, or a band of rows or columns)
and what is left is a small Numberlink puzzle of its own: each stretch of a
path of S inside the window becomes a pair joining the stretch's two ends, the
cells outside the window are gone, and a stretch of one cell stays where it
is.  Any other lenient solution of the small puzzle, put back into S, is
another lenient solution of the whole: the new stretches stay inside the
window, apart from each other and from the rest of S, and join the same cells.
Under the full-cover rule, with S a full cover, the small puzzle keeps that
rule, and another full cover of the window put back is another full cover of
the whole.  Full covers of a window are far fewer than its lenient solutions,
so the sweep under that rule is cheaper.

Most large puzzles that are not well-designed have a second solution that
differs from the first in one place, so a sweep over small windows finds one
in a fraction of a second (Janko 24 x 14 #199, where CP-SAT's portfolio finds
none in 10 s).  Under the full-cover rule it finds the second full cover of
Janko 17 x 17 #175 in a band of 12 rows, which no lenient window of up to 12
cells a side holds.  Finding nothing proves nothing, except when one window
holds the whole board.
"""

from __future__ import annotations

from collections.abc import Iterator

from search.core.contract import Deadline, LimitReached, Status, add_effort
from search.numberlink import KIND
from search.numberlink.model import Numberlink, Pair, Solution

# (shape, size), cheapest first: a window of k rows or columns is a
# frontier of k cells, whatever the board's size
WINDOWS = (("square", 4), ("square", 6), ("rows", 4), ("columns", 4), ("rows", 6),
           ("columns", 6), ("square", 8), ("rows", 8), ("columns", 8), ("square", 10),
           ("rows", 10), ("columns", 10), ("square", 12), ("rows", 12), ("columns", 12))
# At most, in a level of one window's frontier, under the lenient rule and
# under full cover (most windows need hundreds; Janko 17x17 #175's second full
# cover lies in a band of 12 rows whose frontier reaches 467 k).  A bound in
# work, not time, so that what a sweep finds does not hang on the load.
WINDOW_STATES = {False: 150_000, True: 600_000}

Window = tuple[range, range]  # its rows and its columns
Stretch = tuple[int, int, int]  # path, index of its first cell in the window, of its last


Shape = tuple[str, int]  # "square", "rows" or "columns", and its size


def windows(height: int, width: int,
            shapes: tuple[Shape, ...] = WINDOWS) -> Iterator[Window]:
    """Every window of ``shapes`` in turn, each placed at steps of half its size."""
    seen: set[tuple[int, int, int, int]] = set()
    for shape, size in shapes:
        tall = height if shape == "columns" else min(size, height)
        wide = width if shape == "rows" else min(size, width)
        for top in _starts(height, tall):
            for left in _starts(width, wide):
                if (top, left, tall, wide) not in seen:
                    seen.add((top, left, tall, wide))
                    yield range(top, top + tall), range(left, left + wide)


def _starts(length: int, size: int) -> list[int]:
    step = max(1, size // 2)
    return sorted({*range(0, length - size + 1, step), length - size})


def stretches(solution: Solution, window: Window) -> list[Stretch]:
    """The maximal runs of each path's cells inside the window."""
    rows, cols = window
    out = []
    for p, path in enumerate(solution.paths):
        start = None
        for i, (r, c) in enumerate(path):
            if r in rows and c in cols:
                if start is None:
                    start = i
            elif start is not None:
                out.append((p, start, i - 1))
                start = None
        if start is not None:
            out.append((p, start, len(path) - 1))
    return out


def restrict(puzzle: Numberlink, solution: Solution,
             window: Window) -> tuple[Numberlink, list[Stretch]]:
    """The window's own puzzle (under the puzzle's rule), and the stretches
    its pairs stand for."""
    rows, cols = window
    top, left = rows.start, cols.start
    blocked = {(r - top, c - left) for r, c in puzzle.blocked if r in rows and c in cols}
    pairs, kept = [], []
    for p, first, last in stretches(solution, window):
        path = solution.paths[p]
        (ra, ca), (rb, cb) = path[first], path[last]
        if first == last:  # nowhere else to go
            blocked.add((ra - top, ca - left))
        else:
            pairs.append(Pair(f"{len(pairs)}", (ra - top, ca - left), (rb - top, cb - left)))
            kept.append((p, first, last))
    small = Numberlink(len(rows), len(cols), tuple(pairs), frozenset(blocked),
                       full_cover=puzzle.full_cover)
    return small, kept


def put_back(solution: Solution, window: Window, kept: list[Stretch],
             small: Solution) -> Solution:
    """``solution`` with each kept stretch replaced by its path in ``small``."""
    top, left = window[0].start, window[1].start
    paths = [list(path) for path in solution.paths]
    # from the last stretch of each path back, so earlier indices stay valid
    for (p, first, last), cells in sorted(zip(kept, small.paths), key=lambda s: -s[0][1]):
        paths[p][first:last + 1] = [(r + top, c + left) for r, c in cells]
    return Solution(tuple(tuple(path) for path in paths))


def detour(puzzle: Numberlink, solution: Solution, deadline: Deadline, *,
           shapes: tuple[Shape, ...] = WINDOWS, window_states: int | None = None,
           effort: dict[str, float] | None = None) -> Solution | None:
    """Another solution under the puzzle's rule (which ``solution`` obeys)
    that differs from ``solution`` inside one window, or None when no window
    of ``shapes`` has one.  The frontier gives up a window past
    ``window_states`` states in a level (default: WINDOW_STATES of the
    rule); ``effort`` sums the frontier's.  Raises ``LimitReached`` at the
    deadline, so that a time limit never turns into "none found"."""
    states = window_states or WINDOW_STATES[puzzle.full_cover]
    engine = KIND.backend("frontier", max_states=states)  # by name: numpy loads on first use
    for window in windows(puzzle.height, puzzle.width, shapes):
        small, kept = restrict(puzzle, solution, window)
        if not kept:
            continue
        found = engine.unique(small, time_limit=deadline.remaining())
        if effort is not None:
            add_effort(effort, found.effort)
        if found.status is Status.LIMIT and deadline.expired():
            raise LimitReached
        if found.status is Status.MULTIPLE:  # two solutions: one of them differs from S
            for other in found.solutions:
                whole = put_back(solution, window, kept, other)
                if whole != solution:
                    return whole
    return None
