"""The frontier dynamic programme behind the ``frontier`` Numberlink backend.

This module holds the board (``Board``), the rules in plain Python, one state
at a time (``run``, used to enumerate every solution of small boards), and the
rebuilding of solutions; ``frontier_np`` runs the same rules on whole levels
with numpy for counting, ``solve`` and ``unique``.

Cells are processed in row-major order on a board turned, if need be, so
that it is no wider than tall.  A *state* describes the frontier between the
processed cells and the rest: one byte per column (what crosses below the last
processed cell of that column) and one byte for the edge leaving the last
processed cell to the right.  Following Yoshinaka et al., "Finding all
solutions and instances of Numberlink and Slitherlink by ZDDs" (Algorithms
5(2), 2012), a crossing edge ("plug") carries either the pair whose end it
already reaches (a *colour*) or, for a piece of path not yet tied to an end,
the position of the piece's other plug (its *mate*).  Mates are positions, so
the encoding is canonical without renumbering and equal states merge.

The byte values, for K pairs and W columns (position W = the right edge):

    0                    nothing crosses
    1 + k                colour plug of pair k
    MB + t               mate plug: the piece's other plug is at position t
    RB + m               (no-touch mode) a covered cell without a plug, on the
                         unlabelled piece whose leftmost plug is at m
    CB + k               (no-touch mode) a covered cell without a plug, on pair k

The no-touch mode drops every state in which a cell lies next to a cell of
its own path without a step between them (a *self-touch*, seen when the later
of the two cells is processed).  A self-touching path can be shortcut into
another lenient solution with fewer cells, which makes the mode sound for the
well-designed verdict (see ``frontier.py``) and wrong for exact counts.

Counts are Python integers, or saturated at ``cap``.  With ``record`` the
engine keeps back-pointers: for each state, its parents and the edges the cell
sent right/down, enough to rebuild one solution, two, or all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from search.core import Deadline, LimitReached
from search.numberlink.model import Cell, Numberlink, Solution

RIGHT, DOWN = 1, 2  # the edges a cell sends on, as bits of an action


class TooWide(Exception):
    """The frontier would hold more states than the memory bound allows."""


@dataclass(frozen=True)
class Board:
    """The puzzle as the programme sees it: turned to be no wider than tall.

    Of the turns that keep the frontier narrowest (transposing, mirroring the
    rows, mirroring the columns), the one that meets the ends of the pairs
    earliest on average, the first end of each pair counting double, is taken:
    on lenient boards, rows processed before any end breed pieces of path that
    have yet to find their pairs, and the number of states differs tenfold
    between turns of one board.
    """

    height: int
    width: int
    kinds: tuple[int, ...]  # per cell, row-major: -1 blocked, 0 free, 1 + k end of pair k
    pairs: int
    lenient: bool
    transposed: bool
    second_end: tuple[bool, ...] = ()  # per cell: the later end of its pair in this order
    flip_rows: bool = False
    flip_cols: bool = False

    @classmethod
    def of(cls, puzzle: Numberlink, *, turn: bool = True) -> Board:
        turns = [(t, fr, fc) for t in (False, True) for fr in (False, True)
                 for fc in (False, True)]
        narrow = min(puzzle.width, puzzle.height)
        boards = [cls._turned(puzzle, *way) for way in turns]
        boards = [b for b in boards if b.width == narrow]
        if not turn:
            return boards[0]
        return min(boards, key=cls._lateness)

    @staticmethod
    def _lateness(board: Board) -> int:
        """Where the ends come in the order, first ends weighing twice as much as
        second ones.  On the Flow Free levels from 11 x 11 and five Janko 14 x 14
        boards (no-touch lenient passes) its turns cost 1.8 times the work of the
        best turn, the plain sum's 1.9 times; jumbo_14x14_21: 8 times less."""
        return sum(i if board.second_end[i] else 2 * i
                   for i, kind in enumerate(board.kinds) if kind > 0)

    @classmethod
    def _turned(cls, puzzle: Numberlink, transposed: bool, flip_rows: bool,
                flip_cols: bool) -> Board:
        height, width = (puzzle.width, puzzle.height) if transposed else (
            puzzle.height, puzzle.width)
        board = cls(height, width, (), len(puzzle.pairs), not puzzle.full_cover, transposed,
                    (), flip_rows, flip_cols)
        ends = puzzle.endpoint
        kinds = []
        for r in range(height):
            for c in range(width):
                cell = board.cell(r, c)
                if cell in puzzle.blocked:
                    kinds.append(-1)
                else:
                    kinds.append(1 + ends[cell] if cell in ends else 0)
        last = {}
        for i, kind in enumerate(kinds):
            if kind > 0:
                last[kind] = i
        second = tuple(kind > 0 and last[kind] == i and kinds.index(kind) < i
                       for i, kind in enumerate(kinds))
        return cls(height, width, tuple(kinds), len(puzzle.pairs), not puzzle.full_cover,
                   transposed, second, flip_rows, flip_cols)

    def cell(self, r: int, c: int) -> Cell:
        """The puzzle's cell at (r, c) of this board."""
        if self.flip_rows:
            r = self.height - 1 - r
        if self.flip_cols:
            c = self.width - 1 - c
        return (c, r) if self.transposed else (r, c)


@dataclass
class Run:
    """What one pass of the programme found and spent."""

    count: int
    max_states: int = 0
    cells: int = 0
    transitions: int = 0
    levels: list | None = None  # back-pointers per cell, when recorded


def encoding_fits(pairs: int, width: int) -> bool:
    return 2 * pairs + 2 * (width + 1) + 1 <= 256


def run(
    board: Board,
    *,
    cap: int | None = None,
    no_touch: bool = False,
    record: int = 0,
    max_states: int = 2_000_000,
    deadline: Deadline | None = None,
) -> Run:
    """Count the solutions of ``board`` (saturated at ``cap``).

    ``record``: 0 keeps no back-pointers, n > 0 keeps parents of each state
    until their counts add up to n (n = 2 finds two solutions), -1 keeps all.
    Raises ``LimitReached`` when the deadline passes and ``TooWide`` when a
    level would exceed ``max_states`` states.
    """
    H, W, K = board.height, board.width, board.pairs
    if not encoding_fits(K, W):
        raise TooWide(f"{K} pairs on a frontier of {W} columns exceed the state encoding")
    MB = 1 + K
    RB = MB + W + 1
    CB = RB + W + 1
    # Per byte value: is it a plug, and the identity of the piece a cell carrying
    # it belongs to (for self-touch detection; 0 = none) given its position.
    is_plug = [False] * 256
    for v in range(1, RB):
        is_plug[v] = True
    kinds = board.kinds
    lenient = board.lenient
    deadline = deadline or Deadline(None)
    zero = bytes(W + 1)
    states: dict[bytes, int] = {zero: 1}
    levels: list[dict] = []
    if record:
        levels.append({zero: None})
    max_seen = 1
    transitions = 0
    cells = 0

    def ident(v: int, pos: int) -> int:
        if v == 0:
            return 0
        if v < MB:
            return CB + v - 1
        if v < RB:
            t = v - MB
            return RB + (t if t < pos else pos)
        return v

    for r, c, kind, can_right, can_down in scan(kinds, H, W, deadline):
            new: dict[bytes, int] = {}
            back: dict[bytes, list] = {}
            get = new.get

            # Each successor goes through `put`, which merges equal states.
            def put(ns: bytes, n: int, s: bytes, action: int,
                    new: dict = new, get=get, back: dict = back) -> None:
                old = get(ns, 0)
                total = old + n
                if cap is not None and total > cap:
                    total = cap
                new[ns] = total
                if record:
                    entries = back.get(ns)
                    if entries is None:
                        back[ns] = [(s, action, n)]
                    elif record < 0 or old < record:
                        entries.append((s, action, n))

            for s, n in states.items():
                lv = s[W]
                uv = s[c]
                up = uv if is_plug[uv] else 0
                if no_touch:
                    u_id = 0 if up else ident(uv, c)
                    l_id = ident(s[c - 1], c - 1) if (c and not lv) else 0
                if kind < 0:  # blocked
                    if not lv and not up:
                        b = bytearray(s)
                        b[c] = 0
                        put(bytes(b), n, s, 0)
                    continue
                if kind == 0:  # a free cell
                    if not lv and not up:
                        if lenient:
                            b = bytearray(s)
                            b[c] = 0
                            put(bytes(b), n, s, 0)
                        if can_right and can_down:
                            b = bytearray(s)
                            b[c] = MB + W
                            b[W] = MB + c
                            put(bytes(b), n, s, RIGHT | DOWN)
                        continue
                    if lv and up:  # two pieces meet here
                        if lv < MB:
                            if up < MB:
                                if lv != up:
                                    continue
                                b = bytearray(s.replace(bytes((CB + lv - 1,)), b"\0")
                                              if no_touch else s)
                                b[c] = 0
                                b[W] = 0
                                put(bytes(b), n, s, 0)
                                continue
                            colour, t, p = lv, up - MB, c
                        elif up < MB:
                            colour, t, p = up, lv - MB, W
                        else:
                            t1, t2 = lv - MB, up - MB
                            if t1 == c:
                                continue  # the piece would close into a loop
                            ref = RB + (t1 if t1 < t2 else t2)
                            if no_touch:
                                s2 = s.replace(bytes((RB + t1,)), bytes((ref,)))
                                s2 = s2.replace(bytes((RB + (t2 if t2 < c else c),)),
                                                bytes((ref,)))
                                b = bytearray(s2)
                                b[c] = ref
                            else:
                                b = bytearray(s)
                                b[c] = 0
                            b[W] = 0
                            b[t1] = MB + t2
                            b[t2] = MB + t1
                            put(bytes(b), n, s, 0)
                            continue
                        # a coloured piece meets an unlabelled one: colour its other end
                        put(_coloured(s, c, t, W, colour, RB + (t if t < p else p),
                                      CB + colour - 1 if no_touch else None), n, s, 0)
                        continue
                    # one piece arrives and goes on, down or right
                    if lv:
                        v, p = lv, W
                        if no_touch and u_id and u_id == ident(v, p):
                            continue
                    else:
                        v, p = up, c
                        if no_touch and l_id and l_id == ident(v, p):
                            continue
                    if v < MB:
                        _leave(put, s, n, c, W, v, (CB + v - 1) if no_touch else 0,
                               can_down, can_right)
                        continue
                    t = v - MB
                    old_ref = RB + (t if t < p else p)
                    for q, action, ok in ((c, DOWN, can_down), (W, RIGHT, can_right)):
                        if not ok:
                            continue
                        if no_touch:
                            ref = RB + (t if t < q else q)
                            b = bytearray(s if ref == old_ref else
                                          s.replace(bytes((old_ref,)), bytes((ref,))))
                            b[c] = MB + t if q == c else ref
                        else:
                            b = bytearray(s)
                            b[c] = MB + t if q == c else 0
                        b[W] = MB + t if q == W else 0
                        b[t] = MB + q
                        put(bytes(b), n, s, action)
                    continue
                # an end of pair `kind - 1`
                colour = kind
                cref = CB + colour - 1
                if lv and up:
                    continue
                if not lv and not up:
                    if no_touch and (u_id == cref or l_id == cref):
                        continue
                    _leave(put, s, n, c, W, colour, cref if no_touch else 0,
                           can_down, can_right)
                    continue
                v, p = (lv, W) if lv else (up, c)
                if no_touch:
                    other = u_id if lv else l_id
                    if other and (other == cref or other == ident(v, p)):
                        continue
                if v < MB:
                    if v != colour:
                        continue
                    b = bytearray(s.replace(bytes((cref,)), b"\0") if no_touch else s)
                    b[c] = 0
                    b[W] = 0
                    put(bytes(b), n, s, 0)
                    continue
                t = v - MB
                put(_coloured(s, c, t, W, colour, RB + (t if t < p else p),
                              cref if no_touch else None), n, s, 0)
            transitions += len(states)
            cells += 1
            states = new
            if len(states) > max_seen:
                max_seen = len(states)
                if max_seen > max_states:
                    raise TooWide(
                        f"more than {max_states} frontier states after cell ({r}, {c}) of a "
                        f"{H}x{W} board; raise max_states or use another backend")
            if record:
                levels.append(back)
            if not states:
                return Run(0, max_seen, cells, transitions, levels if record else None)
    count = states.get(zero, 0)
    return Run(count, max_seen, cells, transitions, levels if record else None)


# ---------------------------------------------------------------- solutions


def scan(kinds: list[int], H: int, W: int, deadline: Deadline
         ) -> Iterator[tuple[int, int, int, bool, bool]]:
    """The cells in row-major order: (row, column, kind, a path may go right,
    a path may go down); LimitReached when the deadline passes."""
    for r in range(H):
        for c in range(W):
            if deadline.expired():
                raise LimitReached
            yield (r, c, kinds[r * W + c], c + 1 < W and kinds[r * W + c + 1] >= 0,
                   r + 1 < H and kinds[(r + 1) * W + c] >= 0)


def _leave(put: Callable[[bytes, int, bytes, int], None], s: bytes, n: int, c: int,
           W: int, colour: int, mark: int, can_down: bool, can_right: bool) -> None:
    """A path of ``colour`` leaves cell ``c`` downwards (the cell's frontier
    slot carries the colour) or rightwards (the carry slot ``W`` does, and the
    cell keeps ``mark``: its colour reference without self-touching, else 0)."""
    if can_down:
        b = bytearray(s)
        b[c] = colour
        b[W] = 0
        put(bytes(b), n, s, DOWN)
    if can_right:
        b = bytearray(s)
        b[c] = mark
        b[W] = colour
        put(bytes(b), n, s, RIGHT)


def _coloured(s: bytes, c: int, t: int, W: int, colour: int, ref: int,
              cref: int | None) -> bytes:
    """State ``s`` after a coloured piece met an unlabelled one whose other end
    is at ``t``: that end takes the colour, cell ``c`` leaves the frontier (or,
    without self-touching, the piece's reference ``ref`` becomes the colour
    reference ``cref``)."""
    if cref is not None:
        b = bytearray(s.replace(bytes((ref,)), bytes((cref,))))
        b[c] = cref
    else:
        b = bytearray(s)
        b[c] = 0
    b[W] = 0
    b[t] = colour
    return bytes(b)


def action_sequences(levels: list, limit: int | None = None) -> Iterator[tuple[int, ...]]:
    """Walk the back-pointers from the final state: each path is one solution.

    Yields the per-cell actions (RIGHT/DOWN bits), each distinct solution once.
    """
    n = len(levels) - 1
    final = next(iter(levels[0]))  # the start state is all zero, like the final one
    if n < 0 or final not in levels[n]:
        return
    produced = 0
    # Depth-first over (level, state); `chosen` holds the actions from the end.
    stack: list[tuple[int, bytes, int]] = [(n, final, 0)]
    actions: list[int] = []
    while stack:
        level, state, i = stack.pop()
        del actions[n - level:]
        if level == 0:
            produced += 1
            yield tuple(reversed(actions))
            if limit is not None and produced >= limit:
                return
            continue
        entries = levels[level][state]
        if i + 1 < len(entries):
            stack.append((level, state, i + 1))
        parent, action, _ = entries[i]
        actions.append(action)
        stack.append((level - 1, parent, 0))


def solution_of(board: Board, puzzle: Numberlink, actions: tuple[int, ...]) -> Solution:
    """Turn per-cell actions into one path per pair, from ``a`` to ``b``."""
    W = board.width
    steps: dict[Cell, list[Cell]] = {}

    def link(x: Cell, y: Cell) -> None:
        steps.setdefault(x, []).append(y)
        steps.setdefault(y, []).append(x)

    for i, action in enumerate(actions):
        r, c = divmod(i, W)
        if action & RIGHT:
            link(board.cell(r, c), board.cell(r, c + 1))
        if action & DOWN:
            link(board.cell(r, c), board.cell(r + 1, c))
    paths = []
    for pair in puzzle.pairs:
        path, previous = [pair.a], None
        while path[-1] != pair.b:
            here = path[-1]
            following = [x for x in steps[here] if x != previous]
            previous = here
            path.append(following[0])
        paths.append(tuple(path))
    return Solution(tuple(paths))
