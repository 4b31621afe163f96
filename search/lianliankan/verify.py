"""The oracle for Lianliankan: replay a move sequence and check every removal.

Each move is checked twice, by its own geometry (the line it claims: aligned
segments, real turns, empty cells, at most ``board.turns`` turns) and by an
independent best-first search over (cell, direction, turns) that owes
nothing to the seed's connection checks.  The replay stops at the first bad
move, since the boards after it mean nothing.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable

from search.lianliankan.model import Board, Cell, Move, Solution

DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))
ARRIVED = -1  # the direction of a state at tile b: the search is over
ONWARD = tuple(tuple(n for n in range(4) if n != d ^ 1) for d in range(4))  # no turning back


def verify(board: Board, solution: Solution) -> list[str]:
    """The violations of ``solution`` on ``board`` (empty list = it clears the board)."""
    odd = sorted(p for p, n in Counter(v for row in board.grid for v in row if v).items() if n % 2)
    if odd:
        return [f"picture {p} occurs an odd number of times" for p in odd]
    for number, move in enumerate(solution.moves, start=1):
        problems = move_problems(board, move)
        if problems:
            return [f"move {number} {_show(move)}: {p}" for p in problems]
        board = board.removed(move.a, move.b)
    left = len(board.tiles)
    return [f"{left} tiles left after the last move"] if left else []


def move_problems(board: Board, move: Move) -> list[str]:
    """Why ``move`` cannot be played on ``board`` now (empty list = it can)."""
    a, b = move.a, move.b
    for name, cell in (("first", a), ("second", b)):
        if not _inside(board, cell):
            return [f"{name} tile {cell} is off the board"]
        if not board.at(cell):
            return [f"{name} tile {cell} is an empty cell"]
    if a == b:
        return ["both tiles are the same cell"]
    if board.at(a) != board.at(b):
        return [f"pictures differ ({board.at(a)} and {board.at(b)})"]
    problems = _line_problems(board, move)
    if fewest_turns(board, a, b) is None:
        problems.append(f"no line with at most {board.turns} turns joins the tiles (search)")
    return problems


def fewest_turns(board: Board, a: Cell, b: Cell) -> int | None:
    """The fewest turns of a line from tile ``a`` to tile ``b`` through empty cells,
    or None if none has at most ``board.turns``.

    A best-first (A*) search over states (cell, direction): going straight
    costs no turn, turning costs one, and a state's priority is the turns
    taken plus the fewest that geometry still demands (``turns_still_needed``,
    which never overestimates and drops by at most the turn a step takes), so
    the first time ``b`` comes out of the queue its turns are the fewest.
    Among equal priorities the shorter line goes first (steps taken plus the
    fewest left to ``b``), so a near tile is found without walking every
    straight ray of a large empty region (which made replaying a long row
    quadratic).  A state whose priority exceeds the limit is dropped.
    """
    limit = board.turns
    passable = passable_on(board)
    push, pop = heapq.heappush, heapq.heappop
    seen: set[tuple[int, int, int]] = set()
    (br, bc), (ar, ac) = b, a
    # priority, length (steps taken + the fewest left), steps, turns, r, c, d
    queue: list[tuple[int, int, int, int, int, int, int]] = []
    for d in range(4):
        if (least := turns_still_needed(a, d, b)) <= limit:
            queue.append((least, abs(br - ar) + abs(bc - ac), 0, 0, ar, ac, d))
    heapq.heapify(queue)
    while queue:
        _, _, steps, turns, r, c, d = pop(queue)
        if d == ARRIVED:
            return turns
        if (r, c, d) in seen:
            continue
        seen.add((r, c, d))
        # Leaving tile a picks the first direction for free; later, any other
        # direction but straight back costs a turn.
        for n in (d,) if (r, c) == a else ONWARD[d]:
            cost = turns if n == d else turns + 1
            if cost > limit:
                continue
            nr, nc = r + DIRECTIONS[n][0], c + DIRECTIONS[n][1]
            if (nr, nc) == b:
                push(queue, (cost, steps + 1, steps + 1, cost, nr, nc, ARRIVED))
            elif passable(nr, nc) and (nr, nc, n) not in seen:
                least = cost + turns_still_needed((nr, nc), n, b)
                if least <= limit:
                    push(queue, (least, steps + 1 + abs(br - nr) + abs(bc - nc), steps + 1,
                                 cost, nr, nc, n))
    return None


def turns_still_needed(cell: Cell, d: int, b: Cell) -> int:
    """The fewest turns any line from ``cell``, heading in direction ``d``, needs to
    reach ``b`` on an empty plane (so never more than on a board): none when ``b``
    lies straight ahead; one when ``b`` is not behind (go on to its row or column,
    then turn); else two."""
    dr, dc = DIRECTIONS[d]
    along = (b[0] - cell[0]) * dr + (b[1] - cell[1]) * dc
    across = b[0] - cell[0] if dr == 0 else b[1] - cell[1]
    if across == 0 and along > 0:
        return 0
    return 1 if along >= 0 else 2


def _line_problems(board: Board, move: Move) -> list[str]:
    """Check the line the move claims: segments, turns and the cells they cross."""
    line = move.line()
    if len(move.corners) > board.turns:
        return [f"{len(move.corners)} turns, at most {board.turns} allowed"]
    for p, q in zip(line, line[1:], strict=False):
        if p == q:
            return [f"the line repeats cell {p}"]
        if p[0] != q[0] and p[1] != q[1]:
            return [f"the line from {p} to {q} is neither horizontal nor vertical"]
    for p, q, r in zip(line, line[1:], line[2:], strict=False):
        if (p[0] == q[0]) == (q[0] == r[0]):
            return [f"the line does not turn at corner {q}"]
    passable = passable_on(board)
    for p, q in zip(line, line[1:], strict=False):
        for cell in _between(p, q):
            if not passable(*cell):
                return [f"the line crosses {_describe(board, cell)}"]
    for corner in move.corners:
        if not passable(*corner):
            return [f"corner {_describe(board, corner)}"]
    return []


def _between(p: Cell, q: Cell) -> list[Cell]:
    """The cells strictly between p and q on their row or column."""
    if p[0] == q[0]:
        step = 1 if q[1] > p[1] else -1
        return [(p[0], c) for c in range(p[1] + step, q[1], step)]
    step = 1 if q[0] > p[0] else -1
    return [(r, p[1]) for r in range(p[0] + step, q[0], step)]


def _inside(board: Board, cell: Cell) -> bool:
    return 0 <= cell[0] < board.height and 0 <= cell[1] < board.width


def passable_on(board: Board) -> Callable[[int, int], bool]:
    """Can a line use cell (r, c): an empty cell of the board, or the ring when allowed
    (the board's figures read once: the line search asks for every cell it reaches)."""
    grid, height, width, ring = board.grid, board.height, board.width, board.border

    def passable(r: int, c: int) -> bool:
        if 0 <= r < height and 0 <= c < width:
            return grid[r][c] == 0
        return ring and -1 <= r <= height and -1 <= c <= width

    return passable


def _describe(board: Board, cell: Cell) -> str:
    if _inside(board, cell):
        return f"{cell}, which holds tile {board.at(cell)}"
    return f"{cell}, which is off the board"


def _show(move: Move) -> str:
    return " - ".join(f"({r},{c})" for r, c in move.line())
