"""The seed's connection checks on a mutable board.

A ``Field`` holds the board as one flat list framed by walls, so that a walk
stops at the frame exactly as the seed's walks stop at the board's edge; with
the border rule an empty ring lies between the board and the walls.  Cells are
flat indices; ``cell(i)`` turns one back into (row, column).

The checks run in the seed's order and return the corner cells of the line:
0 turns (``havePathCorner0``: same row or column, nothing between), 1 turn
(``havePathCorner1``: the rectangle's corner (row of b, column of a) first, then
(row of a, column of b)), 2 turns (``havePathCorner2``: walk from a down, up,
right, left over empty cells; the first cell with a 1-turn line to b).  More
turns than the seed's 2 repeat the last step: walk from a, and look for a line
with one turn fewer from each cell on the walk.

``Occupancy`` answers ``Field.line`` on bitmasks of the rows and columns, for
the search's relaxation, which asks it many times between removals.
"""

from __future__ import annotations

from search.lianliankan.model import Board, Cell, Move

WALL = -1


class Field:
    """A board being played: tiles, empty cells, the ring and the frame of walls."""

    __slots__ = ("height", "width", "stride", "cells", "turns", "gravity", "walks")

    def __init__(self, board: Board):
        self.height, self.width = board.height, board.width
        self.stride = s = board.width + 4
        ring = 0 if board.border else WALL
        self.cells = [WALL] * (s * (board.height + 4))
        for r in range(-1, board.height + 1):
            for c in range(-1, board.width + 1):
                inside = 0 <= r < board.height and 0 <= c < board.width
                self.cells[(r + 2) * s + c + 2] = board.grid[r][c] if inside else ring
        self.turns = board.turns
        self.gravity = board.gravity
        self.walks = (s, -s, 1, -1)  # the seed's order: down, up, right, left

    def with_cells(self, cells: list[int]) -> Field:
        """The same frame and rules over other cells (a scratch board)."""
        copy = Field.__new__(Field)
        for name in Field.__slots__:
            setattr(copy, name, getattr(self, name))
        copy.cells = cells
        return copy

    # ------------------------------------------------------------ cells

    def index(self, cell: Cell) -> int:
        return (cell[0] + 2) * self.stride + cell[1] + 2

    def cell(self, i: int) -> Cell:
        r, c = divmod(i, self.stride)
        return (r - 2, c - 2)

    def tiles(self) -> list[int]:
        """The tiles in the seed's scan order (row by row, left to right)."""
        s, cells = self.stride, self.cells
        return [
            i for r in range(2, self.height + 2) for i in range(r * s + 2, r * s + self.width + 2)
            if cells[i] > 0
        ]

    def pictures(self) -> dict[int, list[int]]:
        """Each picture's tiles (flat indices, in scan order)."""
        by_picture: dict[int, list[int]] = {}
        for i in self.tiles():
            by_picture.setdefault(self.cells[i], []).append(i)
        return by_picture

    def board(self, board: Board) -> Board:
        """The current grid under ``board``'s rules."""
        s, w = self.stride, self.width
        grid = tuple(
            tuple(self.cells[r * s + 2: r * s + 2 + w]) for r in range(2, self.height + 2)
        )
        return Board(grid, board.border, board.gravity, board.turns)

    def move(self, a: int, b: int, corners: tuple[int, ...]) -> Move:
        return Move(self.cell(a), self.cell(b), tuple(self.cell(c) for c in corners))

    # ------------------------------------------------------------ removals

    def remove(self, a: int, b: int) -> None:
        """Empty a and b; with gravity the column above each slides down into the gap."""
        cells = self.cells
        cells[a] = cells[b] = 0
        if not self.gravity:
            return
        s, top = self.stride, 2 * self.stride
        for gap in sorted((a, b)):  # the upper gap first, so the lower one stays put
            i = gap
            while i - s >= top:
                cells[i] = cells[i - s]
                i -= s
            cells[i] = 0

    # ------------------------------------------------------------ the seed's checks

    def path(self, a: int, b: int) -> tuple[int, ...] | None:
        """The corners of the seed's line from a to b (0, 1, 2, ... turns), or None."""
        if self.straight(a, b):
            return ()
        for turns in range(1, self.turns + 1):
            corners = self.bent(a, b, turns)
            if corners is not None:
                return corners
        return None

    def connected(self, a: int, b: int) -> bool:
        """Whether ``path(a, b)`` would find a line."""
        return self.line(a, b) is not None

    def line(self, a: int, b: int) -> tuple[int, ...] | None:
        """The corners of some line from a to b (not always the seed's), or None;
        found whenever ``path`` finds one, and faster for 2 turns.

        Every line of at most two turns goes A - C - D - B with C on A's row or
        column, D on B's, and C - D straight; so it suffices to scan the rows
        both tiles' vertical runs of empty cells reach (and the columns both
        horizontal runs reach) for a clear segment.
        """
        if self.turns != 2:
            return self.path(a, b)
        cells, s = self.cells, self.stride
        ra, ca = divmod(a, s)
        rb, cb = divmod(b, s)
        # the runs are walked inline, to the first filled cell (the frame stops
        # them): this is the search's innermost loop
        # vertical runs: C = (r, ca), D = (r, cb), segment along row r
        if ca != cb:
            p, q = a - s, b - s
            while not cells[p]:
                p -= s
            while not cells[q]:
                q -= s
            lo = (p if p > q else q) // s + 1
            p, q = a + s, b + s
            while not cells[p]:
                p += s
            while not cells[q]:
                q += s
            hi = (p if p < q else q) // s
            left, right = (ca, cb) if ca < cb else (cb, ca)
            for r in range(lo, hi):
                base = r * s
                if not any(cells[base + left + 1: base + right]):
                    return tuple(x for x in (base + ca, base + cb) if x != a and x != b)
        elif not any(cells[min(a, b) + s: max(a, b): s]):
            return ()
        # horizontal runs: C = (ra, c), D = (rb, c), segment along column c
        if ra != rb:
            p, q = a - 1, b - 1
            while not cells[p]:
                p -= 1
            while not cells[q]:
                q -= 1
            lo = (p - ra * s if p - ra * s > q - rb * s else q - rb * s) + 1
            p, q = a + 1, b + 1
            while not cells[p]:
                p += 1
            while not cells[q]:
                q += 1
            hi = p - ra * s if p - ra * s < q - rb * s else q - rb * s
            top, bottom = (ra, rb) if ra < rb else (rb, ra)
            for c in range(lo, hi):
                if not any(cells[(top + 1) * s + c: bottom * s + c: s]):
                    return tuple(x for x in (ra * s + c, rb * s + c) if x != a and x != b)
        elif not any(cells[min(a, b) + 1: max(a, b)]):
            return ()
        return None

    def line_cells(self, a: int, corners: tuple[int, ...], b: int) -> tuple[int, ...]:
        """The cells a line crosses: its corners and the cells between its points."""
        s = self.stride
        points = (a, *corners, b)
        out: list[int] = list(corners)
        for p, q in zip(points, points[1:], strict=False):
            lo, hi = (p, q) if p < q else (q, p)
            step = 1 if lo // s == hi // s else s
            out.extend(range(lo + step, hi, step))
        return tuple(out)

    def straight(self, p: int, q: int) -> bool:
        """havePathCorner0: same row or column and every cell between empty."""
        s = self.stride
        lo, hi = (p, q) if p < q else (q, p)
        if lo // s == hi // s:
            return not any(self.cells[lo + 1: hi])
        if (hi - lo) % s == 0:
            return not any(self.cells[lo + s: hi: s])
        return False

    def bent(self, p: int, q: int, turns: int) -> tuple[int, ...] | None:
        """A line of exactly ``turns`` turns found the seed's way, or None."""
        if turns == 1:
            return self.one_turn(p, q)
        cells = self.cells
        for step in self.walks:
            c = p + step
            while cells[c] == 0:
                rest = self.bent(c, q, turns - 1)
                if rest is not None:
                    return (c, *rest)
                c += step
        return None

    def one_turn(self, p: int, q: int) -> tuple[int, ...] | None:
        """havePathCorner1: corner (row of q, column of p), then (row of p, column of q)."""
        s, cells = self.stride, self.cells
        rp, cp = divmod(p, s)
        rq, cq = divmod(q, s)
        if rp == rq or cp == cq:
            return None
        for corner in (rq * s + cp, rp * s + cq):
            if cells[corner] == 0 and self.straight(p, corner) and self.straight(corner, q):
                return (corner,)
        return None


class Occupancy:
    """Bitmasks of a field's non-empty cells, per row and per column, for
    ``Field.line`` (two turns) at a few integer operations a segment.

    A snapshot: it follows only the cells emptied through ``empty``.
    """

    __slots__ = ("stride", "rows", "cols")

    def __init__(self, field: Field):
        self.stride = s = field.stride
        self.rows = rows = [0] * (len(field.cells) // s)
        self.cols = cols = [0] * s
        for i, v in enumerate(field.cells):
            if v:
                r, c = divmod(i, s)
                rows[r] |= 1 << c
                cols[c] |= 1 << r

    def empty(self, i: int) -> None:
        r, c = divmod(i, self.stride)
        self.rows[r] &= ~(1 << c)
        self.cols[c] &= ~(1 << r)

    def line(self, a: int, b: int) -> tuple[int, ...] | None:
        """What ``Field.line`` finds (for two turns), on the masks: rows both
        vertical runs reach, then columns both horizontal runs reach."""
        s = self.stride
        ra, ca = divmod(a, s)
        rb, cb = divmod(b, s)
        r = _crossing(self.cols, self.rows, ra, ca, rb, cb)  # C = (r, ca), D = (r, cb)
        if r is None:
            c = _crossing(self.rows, self.cols, ca, ra, cb, rb)  # C = (ra, c), D = (rb, c)
            if c is None:
                return None
            if c == _STRAIGHT:
                return ()
            return tuple(x for x in (ra * s + c, rb * s + c) if x != a and x != b)
        if r == _STRAIGHT:
            return ()
        return tuple(x for x in (r * s + ca, r * s + cb) if x != a and x != b)


_STRAIGHT = -1


def _crossing(runs: list[int], lines: list[int], pa: int, qa: int, pb: int,
              qb: int) -> int | None:
    """For tiles at position pa of line qa and pb of line qb (lines: columns
    and positions rows, or the other way round), the first crossing line p
    that both runs of empty cells along qa and qb reach and that is clear
    between qa and qb; _STRAIGHT when qa == qb and the cells between are
    empty; else None."""
    if qa == qb:
        return _STRAIGHT if not runs[qa] & _between(pa, pb) else None
    m, n = runs[qa], runs[qb]
    lo = max((m & ((1 << pa) - 1)).bit_length(), (n & ((1 << pb) - 1)).bit_length())
    m >>= pa + 1
    n >>= pb + 1
    hi = min(pa + (m & -m).bit_length(), pb + (n & -n).bit_length())
    between = _between(qa, qb)
    for p in range(lo, hi):
        if not lines[p] & between:
            return p
    return None


def _between(i: int, j: int) -> int:
    """The bits strictly between positions i and j."""
    return (1 << j) - (2 << i) if i < j else (1 << i) - (2 << j) if j < i else 0
