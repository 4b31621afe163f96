"""The frontier programme (``frontier_board``'s states) with numpy: all states of a level at once.

The encoding of ``frontier_board`` (one value per column and one for the edge
to the right; colours ``1 + k``, mates ``MB + t``) plus *bound pairs*
``BB + t``: once both ends of a pair are processed, its two plugs become mates
that must meet each other, and the pair's name is forgotten, so that states
differing only in which finished pair runs where merge.  A new bound pair that
crosses another on the boundary of the unprocessed cells is dropped.

A level is a ``uint8`` array (``uint16`` when the pairs and columns do not fit
in a byte) with one row per state, padded to whole 64-bit words so that merging
equal states is a sort of word keys.  Counts are rows of ``int64`` limbs of 32
bits (exact, as many limbs as they need) or one ``int64`` saturated at
``cap``.  A *beam* keeps only some
states per level: the count is then a lower bound, made of real solutions.
An exact pass may *pause* after a level grows past a bound and be resumed
later from that level (the backend runs beams in between).

The no-touch mode also drops, as soon as they arise, states in which the two
plugs of one unlabelled piece enter neighbouring cells (they can never meet,
that would close a loop, so the path is bound to touch itself), and states in
which a colour's path passes next to its pair's second end without stepping
onto it.  Both halve the states of the well-designed check on large boards.
A cell that a path enters from above and leaves to the right, under a plug
down, makes a U in a 2 x 2 square whose two top cells touch: dropped too
(Janko 14x14 #268: 2.13 M states to 1.87 M at the peak).

Rows are gathered with ``np.take`` and ``np.compress``: numpy's 2-D fancy
indexing copies rows of 16 bytes about four times slower, which made the
gathers most of the run time.

With ``record`` the programme keeps, per level and per state, its (parent
row, action) entries: up to two (enough to rebuild one solution, and a second
one whenever the count reaches two), or all of them (``record="all"``), which
``action_chains`` walks to enumerate every solution once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import islice

import numpy as np

from search.core.contract import Deadline
from search.numberlink.frontier.board import DOWN, RIGHT, Board, TooWide, encoding_fits, scan

# Exact counts are int64 limbs of LIMB_BITS bits, one row per state: a sum of
# up to 2**31 limbs cannot overflow, and adding counts stays one numpy call
# (Python integers in an object array took most of the run time).  A count
# saturated at a cap below LIMB_BASE is one limb.
LIMB_BITS = 32
LIMB_BASE = 1 << LIMB_BITS


@dataclass
class Level:
    """Back-pointers of one level: state i came from the (parent row, action)
    entries ``offsets[i]:offsets[i + 1]`` of ``parents`` and ``actions``."""

    offsets: np.ndarray
    parents: np.ndarray
    actions: np.ndarray

    def select(self, rows: np.ndarray) -> Level:
        """The back-pointers of the states ``rows`` only (a beam's)."""
        sizes = np.diff(self.offsets)[rows]
        offsets = np.concatenate(([0], np.cumsum(sizes)))
        entries = _ranges(self.offsets[rows], sizes, int(offsets[-1]))
        return Level(offsets, self.parents[entries], self.actions[entries])


def _ranges(starts: np.ndarray, sizes: np.ndarray, total: int) -> np.ndarray:
    """starts[0], starts[0] + 1, ..., (sizes[0] of them), then starts[1], ..."""
    within = np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return np.repeat(starts, sizes) + within


@dataclass
class Result:
    count: int
    max_states: int
    cells: int
    transitions: int
    levels: list[Level] | None
    final: tuple[int, ...] = ()  # the rows of the finished state in the last level
    partial: bool = False  # states were dropped (beam): the count is a lower bound
    paused: Progress | None = None  # set when a level outgrew ``pause``: resume from it


@dataclass
class Progress:
    """Where a paused exact pass stands: ``run(..., resume=progress)`` goes on from it."""

    cells: int  # cells processed
    states: np.ndarray
    counts: np.ndarray
    levels: list[Level]
    max_seen: int
    transitions: int
    stored: int


def run(
    board: Board,
    *,
    cap: int | None = None,
    record: bool | str = False,
    no_touch: bool = False,
    max_states: int = 4_000_000,
    max_stored: int = 40_000_000,
    beam: int | None = None,
    beam_rule: str = "random",
    deadline: Deadline | None = None,
    effort: dict | None = None,
    wide: bool = False,
    pause: int | None = None,
    resume: Progress | None = None,
) -> Result:
    """Count the solutions of ``board`` (saturated at ``cap``); see the module text.

    ``record``: keep up to two back-pointers per state (True) or all ("all").

    ``no_touch``: drop states whose last cell touches its own path where the
    state shows it (sound for the well-designed verdict only).  ``beam``: keep
    at most that many states per level, chosen by ``beam_rule`` ("random" or
    "ends": the fewest open ends).  ``effort`` (a dict with states, cells,
    transitions) is kept up to date as the levels go.  ``wide`` forces two
    bytes per value.  ``pause``: stop after the first level of more states
    than that and return its ``Progress`` (``Result.paused``), which ``resume``
    takes up again, so that a bounded probe is never done twice.  Raises
    ``LimitReached`` at the deadline and ``TooWide`` past ``max_states``
    states in a level or ``max_stored`` back-pointers.

    Each cell: its transitions (``_successors``), the next level merged
    (``_merge``), its back-pointers kept (``_keep_level``), a beam applied
    (``_narrow_to_beam``), the level's size checked (``_count_level``).
    """
    H, W = board.height, board.width
    code = _encoding(board, wide)
    deadline = deadline or Deadline(None)
    saturate = cap if cap is not None and cap < LIMB_BASE else None
    if resume is not None:
        at = replace(resume)  # its levels list goes on growing, as the pass's
    else:
        at = Progress(0, np.zeros((1, code.width), dtype=code.dtype), _one(saturate), [], 1, 0, 0)
    partial = False
    if effort is not None:
        effort["states"] = max(effort["states"], at.max_seen)
    touch = _Touch.of(W, code.MB) if no_touch else None
    rows = _Rows()
    # a resumed pass skips the cells processed before its pause
    for r, c, kind, can_right, can_down in islice(scan(board.kinds, H, W, deadline),
                                                  at.cells, None):
        n = len(at.states)
        chunks = _successors(board, code, at.states, r, c, kind, can_right, can_down, touch,
                             rows.first(n))
        at.transitions += n
        at.cells += 1
        if effort is not None:  # kept up to date, for calls stopped by a limit
            effort["cells"] += 1
            effort["transitions"] += n
        if not chunks:
            return Result(0, at.max_seen, at.cells, at.transitions,
                          at.levels if record else None, partial=partial)
        at.states, at.counts, level = _merge(chunks, at.counts, saturate, record, code.words,
                                             _lookahead(board, r, c, code.MB, code.BB))
        if record:
            _keep_level(at, level, max_stored, f"cell ({r}, {c}) of a {H}x{W} board")
        if beam is not None and len(at.states) > beam:
            _narrow_to_beam(at, W, beam, beam_rule, record)
            partial = True
        _count_level(at, effort, max_states, f"cell ({r}, {c}) of a {H}x{W} board")
        if pause is not None and beam is None and len(at.states) > pause and r * W + c + 1 < H * W:
            return Result(0, at.max_seen, at.cells, at.transitions, None, paused=at)
    # Rare hash collisions may leave a state twice (never wrongly merged): add up.
    final = np.flatnonzero(~at.states.any(axis=1))
    count = sum(_exact(at.counts[i]) for i in final)
    if cap is not None:
        count = min(count, cap)
    return Result(count, at.max_seen, at.cells, at.transitions, at.levels if record else None,
                  tuple(int(i) for i in final), partial)


@dataclass(frozen=True)
class _Encoding:
    """The values of a state: 0 nothing, colours 1 + k, mates ``MB + t``, bound
    pairs ``BB + t``; a row of ``width`` values of ``dtype``, ``words`` 64-bit
    words (the merge's keys)."""

    W: int
    MB: int
    BB: int
    dtype: type
    words: int
    width: int


def _encoding(board: Board, wide: bool) -> _Encoding:
    """One byte per plug when the values fit (2 * pairs + 2 * (W + 1) + 1 <= 256), else two."""
    K, W = board.pairs, board.width
    dtype = np.uint8 if encoding_fits(K, W) and not wide else np.uint16
    if 1 + K + 2 * (W + 1) > 65535:
        raise TooWide(f"{K} pairs on a frontier of {W} columns exceed the state encoding")
    size = np.dtype(dtype).itemsize
    words = ((W + 1) * size + 7) // 8
    return _Encoding(W, 1 + K, 1 + K + W + 1, dtype, words, 8 * words // size)


@dataclass(frozen=True)
class _Touch:
    """(no touch) Per column c: which plugs enter neighbouring cells once (r, c)
    is processed (``near``), and the (position, mate value) pairs newly next to
    each other (``fresh``)."""

    near: list[np.ndarray]
    fresh: list[list[tuple[int, int]]]

    @staticmethod
    def of(W: int, MB: int) -> _Touch:
        nears = [_neighbouring_plugs(c, W) for c in range(W)]
        return _Touch(nears, [[(x, MB + int(y)) for x in (c, W) for y in np.flatnonzero(near[x])]
                              for c, near in enumerate(nears)])


class _Rows:
    """0, 1, 2, ...: one ``np.arange`` grown by doubling, sliced per level."""

    def __init__(self) -> None:
        self.rows = np.arange(0)

    def first(self, n: int) -> np.ndarray:
        if len(self.rows) < n:
            self.rows = np.arange(max(n, 2 * len(self.rows)))
        return self.rows


def _keep_level(at: Progress, level: Level, max_stored: int, where: str) -> None:
    """Keep the back-pointers of the new level, within ``max_stored``."""
    at.levels.append(level)
    at.stored += len(level.parents)
    if at.stored > max_stored:
        raise TooWide(f"more than {max_stored} back-pointers kept by {where}; "
                      "raise it (--option max_stored=N)")


def _narrow_to_beam(at: Progress, W: int, beam: int, rule: str, record: bool | str) -> None:
    """Keep ``beam`` states of the level (``_beam``): a partial search whose
    solutions are real, only not all of them."""
    chosen = _beam(at.states, W, beam, rule)
    at.states, at.counts = np.take(at.states, chosen, axis=0), np.take(at.counts, chosen, axis=0)
    if record:
        at.levels[-1] = at.levels[-1].select(chosen)


def _count_level(at: Progress, effort: dict | None, max_states: int, where: str) -> None:
    """The largest level so far, in ``effort`` too; ``TooWide`` past ``max_states``."""
    if len(at.states) > at.max_seen:
        at.max_seen = len(at.states)
        if effort is not None:
            effort["states"] = max(effort["states"], at.max_seen)
        if at.max_seen > max_states:
            raise TooWide(f"more than {max_states} frontier states after {where}; "
                          "raise it (--option max_states=N) or use another backend")


@dataclass
class _Cell:
    """One cell (r, c) and the level arriving at it: the plug from the left
    (the carry, position W) and from above (position c) of every state;
    ``none``: the rows where neither arrives; ``keep`` (no touch): the rows
    whose cell, covered, touches no cell of its own path (``_untouched``)."""

    board: Board
    code: _Encoding
    states: np.ndarray
    r: int
    c: int
    can_right: bool
    can_down: bool
    all_rows: np.ndarray
    touch: _Touch | None
    emit: Callable[[np.ndarray, np.ndarray, int], None]
    left: np.ndarray
    up: np.ndarray
    has_l: np.ndarray
    has_u: np.ndarray
    none: np.ndarray
    keep: np.ndarray | None

    def one(self) -> np.ndarray:
        """The rows where exactly one plug arrives (and, no touch, that keep)."""
        single = self.has_l ^ self.has_u
        return np.flatnonzero(single if self.keep is None else single & self.keep)


def _successors(board: Board, code: _Encoding, states: np.ndarray, r: int, c: int, kind: int,
                can_right: bool, can_down: bool, touch: _Touch | None, all_rows: np.ndarray
                ) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """The next level's states made at cell (r, c) of ``kind`` (-1 blocked, 0
    free, 1 + k an end of pair k), as (parent rows, new states, action) chunks."""
    W = code.W
    chunks: list[tuple[np.ndarray, np.ndarray, int]] = []
    left, up = states[:, W], states[:, c]
    has_l, has_u = left != 0, up != 0
    keep = (_untouched(states, board.kinds, r, c, W, code.MB, has_l, has_u)
            if touch is not None else None)
    at = _Cell(board, code, states, r, c, can_right, can_down, all_rows, touch,
               _emitter(chunks, touch.fresh[c] if touch is not None else []),
               left, up, has_l, has_u, np.flatnonzero(~has_l & ~has_u), keep)
    if kind < 0 or (kind == 0 and board.lenient):  # blocked or left empty: nothing changes
        at.emit(at.none, np.take(states, at.none, axis=0), 0)
    if kind == 0:
        _free_cell(at)
    elif kind > 0:
        _end_cell(at, kind)
    return chunks


def _emitter(chunks: list, fresh: list[tuple[int, int]]
             ) -> Callable[[np.ndarray, np.ndarray, int], None]:
    """A chunk's collector.  (No touch) both plugs of one unlabelled piece
    entering neighbouring cells can never meet (a loop): its path will touch
    itself.  States of the last level had no such plugs; plugs newly next to
    each other involve c or W, and mates change only there and where two
    pieces join (``_join``): ``fresh`` lists them."""

    def emit(rows: np.ndarray, block: np.ndarray, action: int) -> None:
        if fresh and len(rows):
            doomed = block[:, fresh[0][0]] == fresh[0][1]
            for x, value in fresh[1:]:
                doomed |= block[:, x] == value
            if doomed.any():
                rows, block = _kept(~doomed, rows, block)
        if len(rows):
            chunks.append((rows, block, action))

    return emit


def _free_cell(at: _Cell) -> None:
    """A cell that ends no pair: a new piece starts, one plug goes on, or two join."""
    board, r, c, W = at.board, at.r, at.c, at.code.W
    if at.can_right and at.can_down:  # a new piece starts here
        block = np.take(at.states, at.none, axis=0)
        block[:, c] = at.code.MB + W
        block[:, W] = at.code.MB + c
        at.emit(at.none, block, RIGHT | DOWN)
    # (no touch) the end of a colour next to the cell must be the next step
    # of that colour's path through it: a later one would touch this cell
    no_touch = at.touch is not None
    right_end = max(0, board.kinds[r * W + c + 1]) if no_touch and at.can_right else 0
    down_end = max(0, board.kinds[(r + 1) * W + c]) if no_touch and at.can_down else 0
    _goes_on(at, right_end, down_end)
    both = np.flatnonzero(at.has_l & at.has_u)
    for end in (right_end, down_end):
        if end and len(both):
            both = both[(at.left[both] != end) & (at.up[both] != end)]
    if len(both):
        _join(at.states, both, at.left[both], at.up[both], c, W, at.code.MB, at.code.BB,
              at.all_rows, at.emit, at.touch.near[c] if at.touch is not None else None)


def _goes_on(at: _Cell, right_end: int, down_end: int) -> None:
    """A free cell: the one plug that arrives leaves down or right."""
    one = at.one()
    if not len(one):
        return
    states, c, W, MB, BB = at.states, at.c, at.code.W, at.code.MB, at.code.BB
    v = at.left[one] | at.up[one]  # the one plug that arrives
    mrows = np.flatnonzero(v >= MB)
    base = np.where(v[mrows] >= BB, BB, MB)
    mates = v[mrows] - base
    for ok, q, action, end in ((at.can_down, c, DOWN, right_end),
                               (at.can_right, W, RIGHT, down_end)):
        if not ok:
            continue
        block = np.take(states, one, axis=0)
        block[:, c] = 0
        block[:, W] = 0
        block[:, q] = v
        block[mrows, mates] = base + q
        fine = v != end if end else None
        if at.touch is not None and action == RIGHT:
            # (no touch) up, then right, under a step down: a U in a
            # 2 x 2 square, whose two top cells touch
            u_turn = at.has_u[one] & (states[one, c + 1] != 0)
            fine = ~u_turn if fine is None else fine & ~u_turn
        if fine is None:
            at.emit(one, block, action)
        else:
            at.emit(*_kept(fine, one, block), action)


def _end_cell(at: _Cell, colour: int) -> None:
    """An end of pair ``colour - 1``: its path starts here, or arrives and stops."""
    states, c, W, BB = at.states, at.c, at.code.W, at.code.BB
    second = at.board.second_end[at.r * W + c]
    none = at.none
    if at.keep is not None:
        none = np.flatnonzero(~at.has_l & ~at.has_u & at.keep)
    if second and len(none):
        # the first end's piece: its plug and this one become a bound pair
        other = np.argmax(states[none, : W + 1] == colour, axis=1)
        index = at.all_rows[: len(none)]
    for ok, q, action in ((at.can_down, c, DOWN), (at.can_right, W, RIGHT)):
        if not ok or not len(none):
            continue
        block = np.take(states, none, axis=0)
        if second:
            block[:, q] = BB + other
            block[index, other] = BB + q
            fine = _uncrossed(block, q, other, c, W, BB)
            at.emit(*_kept(fine, none, block), action)
        else:
            block[:, q] = colour
            at.emit(none, block, action)
    _arrives(at, colour, second)


def _arrives(at: _Cell, colour: int, second: bool) -> None:
    """An end of pair ``colour - 1`` that one plug enters: its own colour stops
    here; an unlabelled piece takes the colour (first end) or binds its other
    plug to the first end's (second end)."""
    one = at.one()
    if not len(one):
        return
    states, c, W, MB, BB = at.states, at.c, at.code.W, at.code.MB, at.code.BB
    v = at.left[one] | at.up[one]
    done = one[v == colour]
    block = np.take(states, done, axis=0)
    block[:, c] = 0
    block[:, W] = 0
    at.emit(done, block, 0)
    pick = np.flatnonzero((v >= MB) & (v < BB))
    rows = one[pick]
    index = at.all_rows[: len(rows)]
    block = np.take(states, rows, axis=0)
    block[:, c] = 0
    block[:, W] = 0
    mate = v[pick] - MB
    if second:
        other = np.argmax(states[rows, : W + 1] == colour, axis=1)
        block[index, mate] = BB + other
        block[index, other] = BB + mate
        fine = _uncrossed(block, mate, other, c, W, BB)
        rows, block = _kept(fine, rows, block)
    else:
        block[index, mate] = colour
    at.emit(rows, block, 0)


def _kept(mask: np.ndarray, rows: np.ndarray, block: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """The rows and their new states where ``mask`` holds (``np.compress``:
    boolean indexing of 2-D blocks is more than twice slower)."""
    return rows[mask], np.compress(mask, block, axis=0)


def _untouched(states, kinds, r, c, W, MB, has_l, has_u):
    """Rows whose cell (r, c), if covered, touches no cell of its own path seen here.

    Only touches visible in the state are caught (the left neighbour's plug
    down, the ends of pairs next to the cell): enough for a sound restriction,
    as every self-touching solution has a shortcut (see ``frontier.py``).
    """
    kind = kinds[r * W + c]
    mine = kind if kind > 0 else 0  # the pair of the cell, if it is an end
    up = states[:, c]
    left = states[:, W]
    if c:
        below_left = states[:, c - 1]  # the left neighbour's step down, if any
        # the cell's piece arriving from above is the left neighbour's own piece
        same = (below_left != 0) & (((below_left == up) & (up < MB))
                                    | ((up >= MB) & ((below_left == MB + c)
                                                     | (below_left == MB + W + 1 + c))))
        if mine:
            same |= below_left == mine
        left_end = kinds[r * W + c - 1]
        if left_end > 0:
            same |= up == left_end
            if mine == left_end:
                same[:] = True
        from_up = ~same
    else:
        from_up = np.ones(len(states), dtype=bool)
    from_left = np.ones(len(states), dtype=bool)
    up_end = kinds[(r - 1) * W + c] if r else 0
    if up_end > 0:
        from_left = left != up_end
        if mine == up_end:
            from_left[:] = False
    keep = np.where(has_l, from_left, from_up)
    if mine:
        # an end starting its path: touches a neighbour of its own pair
        keep &= has_l | has_u | (from_up & from_left)
    return keep


def _neighbouring_plugs(c: int, W: int) -> np.ndarray:
    """near[x, y]: the plugs at positions x and y enter grid-neighbouring cells
    (or the same cell), once cell (r, c) is processed: 0..c enter row r + 1,
    the carry W enters (r, c + 1) and c + 1..W - 1 enter row r."""
    near = np.zeros((W + 1, W + 1), dtype=bool)
    for j in [*range(c), *range(c + 1, W - 1)]:
        near[j, j + 1] = near[j + 1, j] = True
    if c + 1 < W:
        near[W, c + 1] = near[c + 1, W] = True
    if c + 2 < W:
        near[W, c + 2] = near[c + 2, W] = True
    return near


def _uncrossed(block: np.ndarray, a, b, c: int, W: int, BB: int) -> np.ndarray:
    """Rows where the new bound pair at positions a, b crosses no other bound pair.

    Both pairs must be joined through the unprocessed cells, whose boundary
    meets the plugs in the order 0..c, W, c+1..W-1: pairs that interleave on
    it would have to cross.  Only rows without unlabelled pieces are judged:
    such a piece is a wire through the processed cells that a path may use to
    jump between two plugs.
    """
    MB = BB - W - 1
    plugs = block[:, : W + 1]
    wired = ((plugs >= MB) & (plugs < BB)).any(axis=1)
    rank = np.arange(W + 1) * 2
    rank[W] = 2 * c + 1
    ra, rb = rank[a], rank[b]
    low = np.minimum(ra, rb)[..., None]
    high = np.maximum(ra, rb)[..., None]
    # per value: the rank of the partner of a bound plug (-1: not a bound plug)
    partner = np.full(BB + W + 1, -1)
    partner[BB:] = rank
    rt = partner[plugs]
    columns = np.arange(W + 1)
    other = ((rt >= 0) & (columns != np.asarray(a)[..., None])
             & (columns != np.asarray(b)[..., None]))
    inside_j = (low < rank) & (rank < high)
    inside_t = (low < rt) & (rt < high)
    crossed = (other & (inside_j != inside_t)).any(axis=1)
    return ~crossed | wired


def _beam(states: np.ndarray, W: int, beam: int, rule: str) -> np.ndarray:
    """The rows a beam keeps: a seeded random sample, or the fewest open ends."""
    if rule == "random":
        rng = np.random.default_rng(len(states))
        return np.sort(rng.choice(len(states), beam, replace=False))
    ends = np.count_nonzero(states[:, : W + 1], axis=1)
    return np.sort(np.argpartition(ends, beam)[:beam])


def _join(states, both, lv, uv, c, W, MB, BB, all_rows, emit, near=None) -> None:
    """Two plugs meet in a free cell, which then sends nothing on."""
    lc, uc = lv < MB, uv < MB  # colours (pairs with one end processed)
    lb, ub = lv >= BB, uv >= BB  # bound pairs (both ends processed)
    lu, uu = ~lc & ~lb, ~uc & ~ub  # unlabelled pieces

    def joined(pick, writes):
        rows = both[pick]
        block = np.take(states, rows, axis=0)
        block[:, c] = 0
        block[:, W] = 0
        index = all_rows[: len(rows)]
        for column, value in writes(pick):
            block[index, column] = value
        emit(rows, block, 0)

    # the two plugs of a bound pair: its path is complete
    pick = np.flatnonzero(lb & (lv == BB + c))
    if len(pick):
        joined(pick, lambda p: ())
    # a coloured piece meets an unlabelled one: colour its other end
    pick = np.flatnonzero((lc & uu) | (uc & lu))
    if len(pick):
        joined(pick, lambda p: [(np.maximum(lv[p], uv[p]) - MB, np.minimum(lv[p], uv[p]))])
    # a bound pair meets an unlabelled piece: the piece's other end is bound
    pick = np.flatnonzero((lb & uu) | (ub & lu))
    if len(pick):
        def bound(p):
            tb = np.where(lb[p], lv[p], uv[p]) - BB
            tu = np.where(lb[p], uv[p], lv[p]) - MB
            return [(tb, BB + tu), (tu, BB + tb)]
        joined(pick, bound)
    # two unlabelled pieces join, unless they are one (a loop)
    pick = np.flatnonzero(lu & uu & (lv != MB + c))
    if near is not None and len(pick):  # (no touch) their far ends must not be neighbours
        pick = pick[~near[lv[pick] - MB, uv[pick] - MB]]
    if len(pick):
        joined(pick, lambda p: [(lv[p] - MB, uv[p]), (uv[p] - MB, lv[p])])


def _one(saturate: int | None) -> np.ndarray:
    """The count of the start state: one limb."""
    return np.ones((1, 1), dtype=np.int64)


def _carried(summed: np.ndarray) -> np.ndarray:
    """Limbs back below LIMB_BASE, the carries moved up (a limb is added when
    the top one overflows)."""
    for i in range(summed.shape[1]):
        high = summed[:, i] >> LIMB_BITS
        if high.any():
            summed[:, i] &= LIMB_BASE - 1
            if i + 1 == summed.shape[1]:
                summed = np.concatenate((summed, high[:, None]), axis=1)
            else:
                summed[:, i + 1] += high
    return summed


def _exact(limbs: np.ndarray) -> int:
    """The Python integer of one state's limbs."""
    return sum(int(v) << (LIMB_BITS * i) for i, v in enumerate(limbs))


def _merge(chunks, counts, saturate, record, words, lookahead=None):
    """Merge equal states of the next level, adding their counts.

    The rows are ordered by a 32-bit hash of their words with the row's index
    in the low 32 bits: one ``np.sort`` of plain integers, three to four
    times faster than ``np.argsort``.  Equal rows share a hash, so they lie
    together unless another row with the same hash falls between them; then
    a state is left twice (never wrongly merged) and the two merge later or
    add up at the end.
    """
    parents = np.concatenate([rows for rows, _, _ in chunks])
    block = np.concatenate([b for _, b, _ in chunks])
    actions = np.concatenate(
        [np.full(len(rows), action, dtype=np.int8) for rows, _, action in chunks]
    ) if record else None
    if lookahead is not None:
        alive = lookahead(block)
        if not alive.all():
            parents, block = _kept(alive, parents, block)
            if record:
                actions = actions[alive]
    if not len(block):
        return block, np.zeros((0, counts.shape[1]), np.int64), _no_level() if record else None
    keys = block.view(np.uint64)
    key = keys[:, 0] * _MIX
    for w in range(1, words):
        key ^= keys[:, w]
        key *= _MIX
    key >>= np.uint64(32)
    key <<= np.uint64(32)
    key |= np.arange(len(key), dtype=np.uint64)
    key.sort()
    order = (key & np.uint64(0xFFFFFFFF)).astype(np.intp)
    key >>= np.uint64(32)
    # one gather of whole rows (np.take: 2-D fancy indexing is four times slower)
    ordered = np.take(keys, order, axis=0)
    differs = key[1:] != key[:-1]
    for w in range(words):
        differs |= ordered[1:, w] != ordered[:-1, w]
    starts = np.flatnonzero(np.concatenate(([True], differs)))
    summed = _segment_sums(np.take(counts, parents[order], axis=0), starts)
    if saturate is not None:
        np.minimum(summed, saturate, out=summed)
    else:
        summed = _carried(summed)
    level = None
    if record:
        sizes = np.diff(np.append(starts, len(order)))
        if record != "all":
            sizes = np.minimum(sizes, 2)
        offsets = np.concatenate(([0], np.cumsum(sizes)))
        entries = order[_ranges(starts, sizes, int(offsets[-1]))]
        level = Level(offsets, parents[entries].astype(np.int32), actions[entries])
    return np.take(ordered, starts, axis=0).view(block.dtype), summed, level


def _no_level() -> Level:
    return Level(np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.int8))


def _lookahead(board: Board, r: int, c: int, MB: int, BB: int):
    """A test of the states made by cell (r, c): the rows that may still be
    completed, judged by the cells the plugs enter next (None: nothing to test).

    Each plug enters a cell: position x <= c the cell (r + 1, x), the carry W
    the cell (r, c + 1), x > c the cell (r, x).  A plug entering the end of a
    pair must be that pair's path: a colour of another pair, a bound pair, or
    an unlabelled piece whose other plug enters the end of another pair (or
    the same end) can never be completed.  The carry and the plug of column
    c + 1 enter one cell together and must join there: two colours, a colour
    and a bound pair, two bound pairs that are not each other's, or both
    plugs of one piece (a loop) are dead.  The programme itself would find
    out only when it reaches those cells, up to a row later: the states
    between would be expanded for nothing (ddnumlin sets the ends in its
    frontier from the start for the same reason).
    """
    H, W, kinds = board.height, board.width, board.kinds
    entry = [(r + 1) * W + x if (r + 1) * W + x < H * W else -1 for x in range(c + 1)]
    entry += [r * W + x for x in range(c + 1, W)] + [r * W + c + 1 if c + 1 < W else -1]
    end_of = [kinds[e] if e >= 0 and kinds[e] > 0 else 0 for e in entry]
    ends = [x for x in range(W + 1) if end_of[x]]
    # (a table of values by values: skipped for very many pairs, it only prunes)
    joint = c + 1 < W and kinds[r * W + c + 1] == 0 and BB + W < 2048
    if not ends and not joint:
        return None
    # per position entering an end, and for the joint cell: which values are dead
    values = np.arange(BB + W + 1)
    mate = (values >= MB) & (values < BB)
    tables = []
    for x in ends:
        colour = end_of[x] if board.second_end[entry[x]] else 0  # the one colour that may enter
        partner = np.array([bool(end_of[y]) and (end_of[y] != end_of[x] or entry[y] == entry[x])
                            for y in range(W + 1)])
        dead = (values != 0) & ~mate & (values != colour)
        dead[mate] = partner[values[mate] - MB]
        tables.append((x, dead))
    if joint:
        a, b = values[:, None], values[None, :]
        ac, bc, ab, bb = a < MB, b < MB, a >= BB, b >= BB  # colours, bound pairs
        both = (a != 0) & (b != 0)
        clash = both & ((ac & bc & (a != b)) | (ac & bb) | (ab & bc)
                        | (ab & bb & (a != BB + c + 1)) | (~ac & ~ab & (a == MB + c + 1)))

    def test(block: np.ndarray) -> np.ndarray:
        dead = np.zeros(len(block), dtype=bool)
        for x, table in tables:
            dead |= table[block[:, x]]
        if joint:
            dead |= clash[block[:, W], block[:, c + 1]]
        return ~dead

    return test


_MIX = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing's odd multiplier


def _segment_sums(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums of the rows ``starts[i]:starts[i + 1]`` (by a running sum: limbs
    and saturated counts are below 2**32, so it cannot overflow; twice as
    fast as ``np.add.reduceat``)."""
    running = np.cumsum(values, axis=0)
    ends = np.append(starts[1:], len(values)) - 1
    totals = np.take(running, ends, axis=0)
    sums = np.empty_like(totals)
    sums[:1] = totals[:1]
    np.subtract(totals[1:], totals[:-1], out=sums[1:])
    return sums


def action_chains(levels: list[Level], final: tuple[int, ...],
                  limit: int | None = None) -> Iterator[tuple[int, ...]]:
    """The per-cell action sequences that end in a ``final`` row, each once
    (at most ``limit``): a depth-first walk of the back-pointers.  Every
    kept entry leads back to the start, so the walk never meets a dead end
    and the first two chains cost two walks down the levels."""
    produced = 0
    actions = [0] * len(levels)
    for row in final:
        stack: list[tuple[int, int, int]] = []  # (level, entry taken, end of its entries)
        level, state = len(levels) - 1, row
        while True:
            while level >= 0:  # down the first entries to the start
                here = levels[level]
                first, end = int(here.offsets[state]), int(here.offsets[state + 1])
                stack.append((level, first, end))
                actions[level], state = int(here.actions[first]), int(here.parents[first])
                level -= 1
            yield tuple(actions)
            produced += 1
            if limit is not None and produced >= limit:
                return
            while stack:  # back to the last state with an entry left
                level, entry, end = stack.pop()
                if entry + 1 < end:
                    stack.append((level, entry + 1, end))
                    here = levels[level]
                    actions[level], state = (int(here.actions[entry + 1]),
                                             int(here.parents[entry + 1]))
                    level -= 1
                    break
            else:
                break
