"""A proof that a board under gravity cannot be cleared: tiles that no order
of removals can ever take.

On a *packed* board (in every column the tiles sit together at the bottom:
full boards, and every board gravity leaves of them) a column is a stack:
its cells below its height are full, the rest empty, and removals only lower
heights.  Let R be a set of tiles, meant to hold every tile some play could
remove.  While R is not yet known in full, what a play can do is bounded:

* a tile not in R never goes, so a column keeps at least its tiles outside R
  (its cells below that count are full at every step);
* a tile falls one cell per removed tile below it, so it stays between its
  row now and that row less the tiles of R below it;
* the tiles between two tiles of one column are always full (a stack), and
  the cells just above a tile hold at least the tiles above it outside R.

``removable`` grows R from nothing: a pair of one picture joins R when some
choice of the two tiles' rows (within their bounds) gives a line between them
on the *optimistic* board (only the cells the bounds say are full).  Why this
is sound: in any play, take the first tile removed that is not in the final R,
say t with partner u.  Every tile removed before it is in R, so every bound
above holds at that moment, the real board is full wherever the optimistic
board is, and the line the play used runs through empty cells of both; the
fixpoint would have added t.  So a tile outside the final R is never removed,
and a board with such a tile cannot be cleared.

The bounds ignore the order of removals, so the test refutes boards whose
tiles are walled in for good (a picture stacked between pictures that wait on
it, in a corner of tall columns), not every dead end.
"""

from __future__ import annotations

from search.lianliankan.paths import WALL, Field

FULL = -2  # a cell the bounds say is full (any non-zero value blocks a line)


class Stacks:
    """The columns of a packed board, bottom up, and the optimistic board."""

    def __init__(self, field: Field):
        self.field = field
        s, h, w = field.stride, field.height, field.width
        self.columns: list[list[int]] = []  # flat indices of tiles, bottom up
        self.where: dict[int, tuple[int, int]] = {}  # tile -> (column, position)
        self.packed = True
        for c in range(w):
            column: list[int] = []
            gap = False
            for r in range(h - 1, -1, -1):
                i = (r + 2) * s + c + 2
                if field.cells[i] > 0:
                    if gap:
                        self.packed = False
                    self.where[i] = (c, len(column))
                    column.append(i)
                else:
                    gap = True
            self.columns.append(column)

        self.bottom = (h + 1) * s + 2  # the flat index of column 0's lowest cell

    def cell(self, c: int, k: int) -> int:
        """The flat index of position k (from the bottom) of column c."""
        return self.bottom + c - k * self.field.stride


def removable(field: Field, seed: set[int] | None = None) -> set[int] | None:
    """The tiles some play might remove (see the module's doc), or None when
    the board is not packed (the bounds need stacks).  ``seed``: tiles known
    to pair now (they are in R; the fixpoint starts from them)."""
    stacks = Stacks(field)
    if not stacks.packed:
        return None
    cells = field.cells
    by_picture: dict[int, list[int]] = {}
    for column in stacks.columns:
        for t in column:
            by_picture.setdefault(cells[t], []).append(t)
    scratch = field.with_cells([WALL if v == WALL else 0 for v in cells])
    kept = [len(column) for column in stacks.columns]  # tiles outside R, per column
    for c, n in enumerate(kept):
        _fill_column(stacks, scratch.cells, c, n)
    inside: set[int] = set()

    def add(t: int) -> None:
        if t not in inside:
            inside.add(t)
            c = stacks.where[t][0]
            kept[c] -= 1
            scratch.cells[stacks.cell(c, kept[c])] = 0

    for t in seed or ():
        add(t)
    pairs = [(t, u) for tiles in by_picture.values()
             for k, t in enumerate(tiles) for u in tiles[k + 1:]]
    progress = True
    while progress:
        progress = False
        for t, u in pairs:
            if t in inside and u in inside:
                continue
            joined = _joins(stacks, scratch, inside, t, u)
            for c in {stacks.where[t][0], stacks.where[u][0]}:
                _fill_column(stacks, scratch.cells, c, kept[c])  # back to the bounds
            if joined:
                add(t)
                add(u)
                progress = True
    return inside


def never_cleared(field: Field, seed: set[int] | None = None) -> bool:
    """A proof that no play clears the board: a tile no play can remove."""
    inside = removable(field, seed)
    return inside is not None and any(
        t not in inside for column in Stacks(field).columns for t in column)


def _joins(stacks: Stacks, scratch: Field, inside: set[int], t: int, u: int) -> bool:
    """Whether some rows of t and u within their bounds give a line between
    them on the optimistic board (every column but theirs at its count of
    tiles outside R; the caller puts their columns back)."""
    (ct, pt), (cu, pu) = stacks.where[t], stacks.where[u]
    if (ct, pt) > (cu, pu):
        t, u, ct, pt, cu, pu = u, t, cu, pu, ct, pt
    col_t, col_u = stacks.columns[ct], stacks.columns[cu]
    low_t = pt - sum(1 for x in col_t[:pt] if x in inside)
    cells = scratch.cells
    if ct == cu:  # t below u in one stack: the tiles between stay between
        between = col_t[pt + 1:pu]
        least = sum(1 for x in between if x not in inside)
        if least == 0:
            return True  # neighbours once the tiles between go
        above = sum(1 for x in col_u[pu + 1:] if x not in inside)
        for kt in range(low_t, pt + 1):
            for gap in range(least, len(between) + 1):
                ku = kt + 1 + gap
                _fill_column(stacks, cells, ct, ku + above + 1)
                a, b = stacks.cell(ct, kt), stacks.cell(ct, ku)
                if scratch.line(a, b) is not None:
                    return True
        return False
    low_u = pu - sum(1 for x in col_u[:pu] if x in inside)
    above_t = sum(1 for x in col_t[pt + 1:] if x not in inside)
    above_u = sum(1 for x in col_u[pu + 1:] if x not in inside)
    for kt in range(low_t, pt + 1):
        _fill_column(stacks, cells, ct, kt + above_t + 1)
        a = stacks.cell(ct, kt)
        for ku in range(low_u, pu + 1):
            _fill_column(stacks, cells, cu, ku + above_u + 1)
            if scratch.line(a, stacks.cell(cu, ku)) is not None:
                return True
    return False


def _fill_column(stacks: Stacks, cells: list[int], c: int, n: int) -> None:
    """Column c full from the bottom to height n, empty above."""
    h, s = stacks.field.height, stacks.field.stride
    low = stacks.bottom + c
    cells[low - (h - 1) * s: low + 1: s] = _PATTERNS[h][n]


_PATTERNS = {h: [[0] * (h - n) + [FULL] * n for n in range(h + 1)] for h in range(1, 33)}
