"""Exact Futoshiki counts: dynamic programming over Latin rectangles, met in the middle.

A Latin square is counted as two Latin rectangles that fit: an upper part of
``h`` rows and a lower part of ``n - h`` rows fit when, in every column, the
lower part uses exactly the values the upper part leaves.  So

    count = sum over column-set tuples X of  upper(X) * lower(complement(X))

and each side is a table built by dynamic programming over its cells.  Rows
are independent of their order once no inequality links them, so the rows that
carry a clue (a given or an inequality) go to the upper part and, when at least
half the rows are free, the free rows to the lower part; otherwise one pass
covers every row (no lower part).  The square is transposed first when that
leaves more rows free.

A state of a part, after some of its cells, is what the rest needs of it:

* per column, the set of values used (``n`` bits each);
* the set of values used in the row being filled (``n`` bits);
* the value of a filled cell while an inequality still links it to a cell
  yet to come (one field per column).

Partial rectangles with equal states have equally many completions, so their
counts are added.  Columns that the rest of the puzzle treats alike are
interchangeable: their sets are sorted inside the key.  For the upper part the
rest is the whole puzzle; for a lower part it is all of its own cells (so that
its count is the same on a column orbit), and the join divides each looked-up
entry by the size of its orbit.  Free rows below also treat all values and rows
alike: their table is built once per ``(n, rows)`` with its first column pinned
to ``1..d`` and kept, and the join relabels each complement to match
(``join_free``).  The empty square is counted the same way, pinned.

Keys are rows of one or more ``uint64`` words (``n * n`` column bits plus the
row set and fields: two words for ``n = 7`` with many fields and for
``n = 8``), stepped with numpy.  Counts are ``int64`` while a row's counts
are sure to fit (``wide_enough``: their sum times the row's choices per
cell), Python integers from that row on; the join multiplies in Python
integers.  The work is bounded in states (``max_states``
states kept after a step), never in time.
"""

from __future__ import annotations

import ctypes
import math
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from search.core.contract import Deadline, Unsupported
from search.futoshiki.model import Cell, Futoshiki
from search.futoshiki.propagate import Engine

DEFAULT_MAX_STATES = 16_000_000  # states kept after a step (about 2 GB at the peak)
DEFAULT_MAX_BYTES = 512 * 2**20  # what the tables may hold at once, when no budget is given
MB = 2**20
INT64_SUMS = 2.0**61  # counts stay int64 while a row's sums stay below (float64's error: far less)
ONE_SORT = 4_000_000  # candidates merged at once; more are merged value by value
WORD = 64
ONES = np.uint64(2**64 - 1)
MMAP_THRESHOLD = 1 << 20  # bytes: arrays at least this large get mappings of their own
HEAP_MMAP_THRESHOLD = 32 << 20  # the same while a plan runs (``heap_reused``)
_TABLES: OrderedDict[tuple, Table] = OrderedDict()  # the free-row table kept


def _libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except (OSError, AttributeError):
        return None


LIBC = _libc()


def _mmap_threshold(size: int) -> None:
    if LIBC is not None:
        LIBC.mallopt(-3, size)  # M_MMAP_THRESHOLD


def _return_freed_memory() -> None:
    """Arrays of a megabyte or more from their own mappings, returned to the
    system when freed.  Under glibc's default the threshold rises to 32 MB
    after the first free, and freed tables stayed resident beside the next
    step's, past the budget the estimates keep.  The price is page faults:
    fresh memory is zeroed by the kernel a page at a time (the empty 8x8:
    about as much system time as user time).  Every larger threshold measured
    (8 MB, 32 MB, 1 GB with the heap kept) cut that time by a factor of 3 to 20
    and let the freed fragments between the layers' pieces push an 8x8's peak
    past its budget (672-723 MB under 640 MB, 558 MB here).  While a plan
    runs, its tables are alike from step to step, so it reuses the heap
    instead and gives its free pages back at the ends of its stages
    (``heap_reused``)."""
    _mmap_threshold(MMAP_THRESHOLD)


_return_freed_memory()


@contextmanager
def heap_reused() -> Iterator[None]:
    """Arrays under ``HEAP_MMAP_THRESHOLD`` from the heap while a plan runs,
    and the heap's free pages given back when it ends (and by the layers
    plan at each layer's end, ``give_back``).  Its steps free and allocate
    tables of about the same sizes, so the heap's freed blocks serve the
    next step and the kernel zeroes no fresh pages: the empty 8x8 in pieces,
    6.2 s user + 0.8 s system against 7.9 + 7.5 at 1 MB, peak 276 MB against
    256 under its 640 MB budget; a hard 7x7 by layers (seed 66 #3 of the
    notes), 1.7 s of system time to 0.6-1.1 s, peak 302 MB to 332 MB."""
    _mmap_threshold(HEAP_MMAP_THRESHOLD)
    try:
        yield
    finally:
        _mmap_threshold(MMAP_THRESHOLD)
        give_back()


def give_back() -> None:
    """The heap's free pages back to the system (where glibc runs): a plan
    that keeps the heap gives back, at the ends of its stages, what its
    pieces left free, so that the next stage starts from its own tables."""
    if LIBC is not None:
        LIBC.malloc_trim(0)


class StateSpaceTooLarge(Exception):
    """A step would pass the state budget or the memory budget (raised before
    the step allocates)."""


def count_bytes(counts: np.ndarray) -> int:
    """Bytes per count: an ``int64``, or a pointer and a Python integer."""
    return 48 if counts.dtype == object else 8


def afford(need: int, max_bytes: int, what: str) -> None:
    """Raise ``StateSpaceTooLarge`` when ``need`` bytes (an estimate from the
    arrays' sizes, made before they are allocated) pass ``max_bytes``."""
    if need > max_bytes:
        raise StateSpaceTooLarge(f"{what} would hold about {need / MB:,.0f} MB, above the "
                                 f"{max_bytes / MB:,.0f} MB the memory budget leaves for tables")


def check_states(states: int, max_states: int | None, what: str) -> None:
    if max_states is not None and states > max_states:
        raise StateSpaceTooLarge(f"{states:,} states {what} pass the state budget of "
                                 f"{max_states:,}")


# ---------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Slot:
    """``bits`` bits at ``shift`` in word ``word`` of a key."""

    word: int
    shift: int
    bits: int

    @property
    def mask(self) -> int:
        return ((1 << self.bits) - 1) << self.shift


@dataclass(frozen=True)
class Layout:
    """Where the column sets, the row set and the value fields sit in a key."""

    n: int
    words: int
    columns: tuple[Slot, ...]
    row: Slot
    fields: tuple[tuple[int, Slot], ...]  # (column, slot)

    @staticmethod
    def make(n: int, field_columns: list[int]) -> Layout:
        slots: list[Slot] = []
        word, shift = 0, 0

        def take(bits: int) -> Slot:
            nonlocal word, shift
            if shift + bits > WORD:
                word, shift = word + 1, 0
            slots.append(Slot(word, shift, bits))
            shift += bits
            return slots[-1]

        columns = tuple(take(n) for _ in range(n))
        row = take(n)
        width = n.bit_length()
        fields = tuple((c, take(width)) for c in field_columns)
        return Layout(n, word + 1, columns, row, fields)

    def field(self, column: int) -> Slot:
        return dict(self.fields)[column]

    def column_masks(self) -> tuple[int, ...]:
        """Per word, the bits of the column sets."""
        masks = [0] * self.words
        for slot in self.columns:
            masks[slot.word] |= slot.mask
        return tuple(masks)


@dataclass(frozen=True)
class Step:
    """Filling one cell of a part."""

    column: Slot  # this column's set
    values: tuple[int, ...]  # candidate values
    left: tuple[Slot, int] | None  # field of the left neighbour, sign (-1: left < this)
    up: tuple[Slot, int] | None  # field of the upper neighbour, sign
    write: Slot | None  # this column's field, when a later cell needs the value
    clear: tuple[tuple[int, int], ...]  # (word, bits) dropped after the cell
    groups: tuple[tuple[Slot, ...], ...]  # column sets that may be sorted
    # A linked neighbour still to come needs a value of ``masks[v]`` outside the
    # sets at ``slots`` (dead-state test after value v).
    ahead: tuple[tuple[tuple[Slot, ...], tuple[tuple[int, int], ...]], ...]
    # (slot, values, most): the set at ``slot`` may hold at most ``most`` of
    # ``values`` or the empty cells of its line within ``values`` cannot be filled.
    hall: tuple[tuple[Slot, int, int], ...]


@dataclass(frozen=True)
class Part:
    """Rows of the square (in the order they are filled) and how to fill them."""

    n: int
    rows: tuple[int, ...]
    layout: Layout
    steps: tuple[Step, ...]
    final_groups: tuple[tuple[Slot, ...], ...]
    out: tuple[int, ...]  # columns whose last value meets the other part's first row


@dataclass(frozen=True)
class Table:
    keys: np.ndarray  # (words, states) uint64
    counts: np.ndarray  # int64 or object
    peak: int  # the most states after a step
    layout: Layout

    @property
    def nbytes(self) -> int:
        return int(self.keys.nbytes) + self.counts.size * count_bytes(self.counts)


class Square:
    """A puzzle as the DP sees it: domains and relations, and which rows are free."""

    def __init__(self, puzzle: Futoshiki, domains: list[int]):
        n = self.n = puzzle.n
        for (ar, ac), (br, bc) in puzzle.less:
            if abs(ar - br) + abs(ac - bc) != 1:
                raise Unsupported(f"count-dp: cells ({ar}, {ac}) and ({br}, {bc}) are not "
                                  "neighbours; only neighbours may carry an inequality")
        self.relation = puzzle.relation
        self.related = {cell for pair in puzzle.less for cell in pair}
        clued = {r for r, _ in self.related}
        clued |= {r for r in range(n) for c in range(n) if puzzle.givens[r][c]}
        self.clued = clued
        full = (1 << n) - 1
        # Free rows keep every value: their table is the same for every puzzle,
        # and the join enforces what the givens above them forbid.
        self.dom = {(r, c): (domains[r * n + c] if r in clued else full)
                    for r in range(n) for c in range(n)}

    @staticmethod
    def neighbours(cell: Cell) -> tuple[Cell, ...]:
        r, c = cell
        return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))

    def sign(self, a: Cell, b: Cell) -> int | None:
        return self.relation.get((a, b))


def plan_part(square: Square, rows: tuple[int, ...], other: tuple[int, ...],
              upper: bool) -> Part:
    """The steps that fill ``rows`` in order, cell by cell.

    ``other`` is the other part (in its own order), whose last row may be linked
    to our last one.  The upper part (the side the join runs over) may sort
    columns that its remaining cells and the whole lower part treat alike, and
    may prune with the lower part's domains.  The lower part (the side the join
    looks up, dividing by orbit sizes) may only sort columns that all of its own
    cells treat alike, so that its count is the same on a whole orbit, and
    prunes with its own cells only.
    """
    n, k, sign = square.n, len(rows), square.sign
    boundary = other[-1] if other else None  # both parts end at the split

    def down(i: int, c: int) -> tuple[Cell, ...]:
        """The cells after (rows[i], c) in its column that it is linked to."""
        below = rows[i + 1] if i + 1 < k else boundary
        if below is None or sign((rows[i], c), (below, c)) is None:
            return ()
        return ((below, c),)

    out = tuple(c for c in range(n) if k and down(k - 1, c))
    field_columns = sorted({c for i in range(k) for c in range(n)
                            if down(i, c) or (c + 1 < n and sign((rows[i], c), (rows[i], c + 1)))})
    layout = Layout.make(n, field_columns)
    fields = dict(layout.fields)
    steps = []
    for i, r in enumerate(rows):
        for c in range(n):
            cell = (r, c)
            left = up = None
            if c and (s := sign((r, c - 1), cell)) is not None:
                left = (fields[c - 1], s)
            if i and (s := sign((rows[i - 1], c), cell)) is not None:
                up = (fields[c], s)
            needed = bool(down(i, c)) or (c + 1 < n and sign(cell, (r, c + 1)) is not None)
            dropped = []  # fields no longer awaited, and the row set at the row's end
            if c and c - 1 in fields and not down(i, c - 1):
                dropped.append(fields[c - 1])
            if c in fields and not needed:
                dropped.append(fields[c])
            if c == n - 1:
                dropped.append(layout.row)
            clear: dict[int, int] = {}
            for slot in dropped:
                clear[slot.word] = clear.get(slot.word, 0) | slot.mask
            values = tuple(v for v in range(1, n + 1) if square.dom[cell] >> (v - 1) & 1)
            ahead = _ahead(square, layout, rows, i, c, values)
            values = tuple(v for v in values if all(dict(m).get(v, 1) for _, m in ahead))
            rest = [(rows[j], x) for j in range(i, k) for x in range(n) if (j, x) > (i, c)]
            if upper:
                rest += [(y, x) for y in other for x in range(n)]
            hall = _hall(square, layout, rest, r, c)
            if not upper:
                rest = [(y, x) for y in rows for x in range(n)]
            filled = [(rows[j], x) for j in range(k) for x in range(n) if (j, x) <= (i, c)]
            unfilled = [(rows[j], x) for j in range(k) for x in range(n) if (j, x) > (i, c)]
            unfilled += [(y, x) for y in other for x in range(n)]
            groups = _groups(square, layout, rest, unfilled, filled, r, c)
            steps.append(Step(layout.columns[c], values, left, up,
                              fields[c] if needed else None,
                              tuple(sorted(clear.items())), groups, ahead, hall))
    final_rest = [(y, x) for y in (other if upper else rows) for x in range(n)]
    filled = [(r, x) for r in rows for x in range(n)]
    unfilled = [(y, x) for y in other for x in range(n)]
    final = _groups(square, layout, final_rest, unfilled, filled, None, n - 1)
    return Part(n, rows, layout, tuple(steps), final, out)


def _ahead(square: Square, layout: Layout, rows: tuple[int, ...], i: int, c: int,
           values: tuple[int, ...]) -> tuple:
    n, out = square.n, []
    r = rows[i]
    neighbours = []
    if i + 1 < len(rows):
        neighbours.append(((rows[i + 1], c), (layout.columns[c],)))
    if c + 1 < n:
        neighbours.append(((r, c + 1), (layout.columns[c + 1], layout.row)))
    for other, slots in neighbours:
        s = square.sign((r, c), other)
        if s is None:
            continue
        candidates = square.dom[other]
        masks = []
        for v in values:
            side = ~((1 << v) - 1) if s < 0 else (1 << (v - 1)) - 1
            masks.append((v, candidates & side & ((1 << n) - 1)))
        out.append((slots, tuple(masks)))
    return tuple(out)


def _hall(square: Square, layout: Layout, rest: list[Cell], r: int, c: int
          ) -> tuple[tuple[Slot, int, int], ...]:
    """Hall tests on the column and the row of cell (r, c), for the subsets of
    at most three of their empty cells whose test can fail."""
    n, tests = square.n, {}
    column = [square.dom[cell] for cell in rest if cell[1] == c]
    row = [square.dom[cell] for cell in rest if cell[0] == r] if c < n - 1 else []
    for slot, empty in ((layout.columns[c], column), (layout.row, row)):
        used = n - len(empty)
        for size in range(1, min(3, len(empty)) + 1):
            for subset in combinations(empty, size):
                union = 0
                for d in subset:
                    union |= d
                most = union.bit_count() - size
                if most < used and tests.get((slot, union), n) > most:
                    tests[slot, union] = most
    return tuple((slot, union, most) for (slot, union), most in tests.items())


def _groups(square: Square, layout: Layout, rest: list[Cell], unfilled: list[Cell],
            filled: list[Cell], r: int | None, c: int) -> tuple[tuple[Slot, ...], ...]:
    """Columns the rest treats alike: equal domains in every cell of ``rest``,
    no inequality on one of those cells, no filled value still awaited by an
    ``unfilled`` cell (it sits in the key)."""
    n = square.n
    waiting = set(unfilled)
    live = {a[1] for a in filled if a in square.related
            for b in square.neighbours(a) if b in waiting and square.sign(a, b) is not None}
    by_signature: dict[tuple, list[int]] = {}
    for x in range(n):
        cells = sorted(cell for cell in rest if cell[1] == x)
        if x in live or any(cell in square.related for cell in cells):
            continue
        in_row = r is not None and c < n - 1 and x <= c  # filled in the current row
        signature = (in_row, tuple((y, square.dom[y, x]) for y, _ in cells))
        by_signature.setdefault(signature, []).append(x)
    return tuple(tuple(layout.columns[x] for x in g) for g in by_signature.values() if len(g) > 1)


# ---------------------------------------------------------------- the steps


def wide_enough(counts: np.ndarray, factor: int) -> np.ndarray:
    """``counts`` as they are while every count a row may make fits in 61
    bits, else as Python integers.  A row's states stand for the partial
    fillings of its cells from the counts' states: at most the counts' sum
    times ``factor`` (per cell, the fewer of its candidate values and the
    values its column has left), and no count is above that sum.  (Measured
    from the counts themselves, the bound holds for the free rows' tables of
    order 8, where a bound over all Latin rectangles did not.)"""
    if counts.dtype == object or float(counts.sum(dtype=np.float64)) * factor < INT64_SUMS:
        return counts
    return counts.astype(object)


def build(part: Part, *, max_states: int | None, deadline: Deadline,
          stats: dict[str, Any] | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
          held: int = 0) -> Table:
    """The table of a part: canonical keys and the number of partial fillings.

    Each step's memory is estimated from its input before it runs: the
    candidates are at most the states times the cell's values, merged at once
    when that fits ``max_bytes`` (with ``held`` bytes kept elsewhere) and
    ``ONE_SORT``, else value by value, the kept states and the next value's
    ones merged only when their estimate fits.  So the memory follows the
    states kept, and a step that would pass the budget raises
    ``StateSpaceTooLarge`` before it allocates.

    A row whose middle would pass the budget is stepped in pieces of its
    input (``_row``): the states peak mid-row (a partial row's values are in
    the key) and fall at its end, where the row set is gone and the columns
    are alike again (the empty 8x8's fourth row: 96 k states in, 7.6 M
    mid-row, 367 k out).  Exact for any partition, a step being linear in the
    counts.
    """
    layout = part.layout
    stats = stats if stats is not None else {}
    keys = np.zeros((layout.words, 1), dtype=np.uint64)
    counts = np.ones(1, dtype=np.int64)
    limits = Limits(max_states, max_bytes, deadline)
    growth, n = 1.0, part.n
    rows = [part.steps[i:i + n] for i in range(0, len(part.steps), n)]
    peak = 1
    for i, steps in enumerate(rows):
        states = keys.shape[1]
        counts = wide_enough(counts, math.prod(min(len(step.values), n - i) for step in steps))
        keys, counts, most = _row(keys, counts, steps, layout, limits, held, growth, stats)
        growth = most / states  # the next row's pieces are sized from it
        peak = max(peak, most)
        if not keys.shape[1]:
            break
    keys = _canonical(keys, part.final_groups, part.n)
    keys, counts = _merge(keys, counts)
    return Table(keys, counts, peak, layout)


@dataclass(frozen=True)
class Limits:
    max_states: int | None
    max_bytes: int
    deadline: Deadline


def _row(keys: np.ndarray, counts: np.ndarray, steps: tuple[Step, ...], layout: Layout,
         limits: Limits, held: int, growth: float, stats: dict[str, Any]
         ) -> tuple[np.ndarray, np.ndarray, int]:
    """A row's steps, on the whole input when it fits, else in pieces of it
    (contiguous in key order: states that share their later columns' sets,
    which mostly merge mid-row, share a piece).  A piece past the budget is
    halved, and so are the pieces after it; the pieces' results are merged
    whenever they pass a third of the room.  Returns the row's table and the
    most states held after a step (a piece's and the results kept)."""
    per = 8 * layout.words + count_bytes(counts)
    states = keys.shape[1]
    held += states * per  # the row's input, kept until its last piece
    # A state mid-row, and its candidates merged value by value (two tables).
    mid = per + 24 + 2 * (3 * per + 24 + 8 * layout.n)
    size = max(1, min(states, int((limits.max_bytes - held) / (growth * mid))))
    lo, most, pieces, merged = 0, 0, 0, 0  # merged: states in done[0]
    done: list[tuple[np.ndarray, np.ndarray]] = []
    kept = 0  # states in done
    while lo < states:
        hi = min(lo + size, states)
        try:
            k, c = keys[:, lo:hi], counts[lo:hi]
            if hi - lo < states:
                k, c = k.copy(), c.copy()
            for step in steps:
                k, c = _step(k, c, step, layout, limits, held + kept * per, kept)
                most = max(most, k.shape[1] + kept)
                stats["states"] = max(most, stats.get("states", 0))
                if not k.shape[1]:
                    break
        except StateSpaceTooLarge:
            if hi - lo < 2:
                raise
            size = (hi - lo) // 2
            continue
        lo = hi
        pieces += 1
        done.append((k, c))
        kept += k.shape[1]
        budget = limits.max_states
        if len(done) > 1 and (kept * per > (limits.max_bytes - held) // 3 or (
                budget is not None and kept > budget // 2 and kept - merged > budget // 4)):
            done = [_merged_pieces(done, kept, per, held, layout, limits, counts)]
            kept = merged = done[0][0].shape[1]
    keys, counts = _merged_pieces(done, kept, per, held, layout, limits, counts) \
        if len(done) > 1 else done[0]
    check_states(keys.shape[1], limits.max_states, "after a row")
    if pieces > 1:
        stats["row_pieces"] = stats.get("row_pieces", 0) + pieces
    return keys, counts, most


def _merged_pieces(done: list[tuple[np.ndarray, np.ndarray]], kept: int, per: int, held: int,
                   layout: Layout, limits: Limits, counts: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """A row's pieces (``kept`` states in all) merged into one table, once the
    merge's estimate fits the budget."""
    afford(held + kept * (per + 3 * per + 24), limits.max_bytes,
           f"the {kept:,} states of a row's pieces, merged")
    merged = _merge(*_concatenate(done, layout.words, counts))
    check_states(merged[0].shape[1], limits.max_states, "after a row")
    return merged


def _step(keys: np.ndarray, counts: np.ndarray, step: Step, layout: Layout, limits: Limits,
          held: int, kept: int) -> tuple[np.ndarray, np.ndarray]:
    """One cell's step (``held`` bytes and ``kept`` states held elsewhere)."""
    limits.deadline.check()
    per = 8 * layout.words + count_bytes(counts)
    merging = 3 * per + 24 + 8 * layout.n  # a candidate merged: copies, order, sorted sets
    states = keys.shape[1]
    base = held + states * (per + 24)  # the input and its fields read out
    chunks = _advance(keys, counts, step, layout, limits.deadline)
    most = states * len(step.values)
    if most <= ONE_SORT and base + most * merging <= limits.max_bytes:
        keys, counts = _concatenate(list(chunks), layout.words, counts)
        keys = _canonical(keys, step.groups, layout.n)
        keys, counts = _merge(keys, counts)
        check_states(keys.shape[1] + kept, limits.max_states, "after a step")
        return keys, counts
    together: list[tuple[np.ndarray, np.ndarray]] = []
    for chunk, chunk_counts in chunks:
        chunk = _canonical(chunk, step.groups, layout.n)
        size = chunk.shape[1] + (together[0][0].shape[1] if together else 0)
        afford(base + states * per + size * merging, limits.max_bytes,
               f"a step of {states:,} states merging {size:,} candidates")
        together = [_merge(*_concatenate(together + [(chunk, chunk_counts)], layout.words,
                                         counts))]
        check_states(together[0][0].shape[1] + kept, limits.max_states, "after a step")
        limits.deadline.check()
    return _concatenate(together, layout.words, counts)


def _concatenate(chunks: list[tuple[np.ndarray, np.ndarray]], words: int,
                 like: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if not chunks:
        return np.zeros((words, 0), dtype=np.uint64), like[:0]
    if len(chunks) == 1:
        return chunks[0]
    return (np.concatenate([k for k, _ in chunks], axis=1),
            np.concatenate([c for _, c in chunks]))


def _get(keys: np.ndarray, slot: Slot) -> np.ndarray:
    return (keys[slot.word] >> np.uint64(slot.shift)) & np.uint64((1 << slot.bits) - 1)


def _advance(keys: np.ndarray, counts: np.ndarray, step: Step, layout: Layout,
             deadline: Deadline) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The states after filling the step's cell, one candidate value at a time."""
    column, row = step.column, layout.row
    left = _get(keys, step.left[0]) if step.left else None
    up = _get(keys, step.up[0]) if step.up else None
    used = keys[column.word] if column.word == row.word else None
    ahead = {v: [(slots, mask) for slots, masks in step.ahead for w, mask in masks if w == v]
             for v in step.values}
    for v in step.values:
        deadline.check()
        col_bit = np.uint64(1 << (column.shift + v - 1))
        row_bit = np.uint64(1 << (row.shift + v - 1))
        if used is not None:
            ok = (used & (col_bit | row_bit)) == 0
        else:
            ok = ((keys[column.word] & col_bit) == 0) & ((keys[row.word] & row_bit) == 0)
        if left is not None:
            ok &= (left < v) if step.left[1] < 0 else (left > v)
        if up is not None:
            ok &= (up < v) if step.up[1] < 0 else (up > v)
        chosen = np.compress(ok, keys, axis=1)  # (much faster than keys[:, ok])
        if not chosen.shape[1]:
            continue
        chosen[column.word] |= col_bit
        chosen[row.word] |= row_bit
        if step.write is not None:
            w = step.write
            chosen[w.word] = (chosen[w.word] & (ONES ^ np.uint64(w.mask))) | np.uint64(v << w.shift)
        chosen_counts = np.compress(ok, counts)
        alive = None
        for slots, mask in ahead[v]:
            seen = _get(chosen, slots[0])
            for slot in slots[1:]:
                seen = seen | _get(chosen, slot)
            test = (seen & np.uint64(mask)) != np.uint64(mask)
            alive = test if alive is None else alive & test
        for slot, union, most in step.hall:
            test = np.bitwise_count(chosen[slot.word] & np.uint64(union << slot.shift)) <= most
            alive = test if alive is None else alive & test
        for word, bits in step.clear:
            chosen[word] &= ONES ^ np.uint64(bits)
        if alive is not None:
            chosen = np.compress(alive, chosen, axis=1)
            chosen_counts = np.compress(alive, chosen_counts)
        yield chosen, chosen_counts


NETWORKS = {  # the smallest known sorting networks for 2 to 8 fields (compare-exchanges)
    2: ((0, 1),),
    3: ((0, 2), (0, 1), (1, 2)),
    4: ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)),
    5: ((0, 1), (3, 4), (2, 4), (2, 3), (1, 4), (0, 3), (0, 2), (1, 3), (1, 2)),
    6: ((1, 2), (4, 5), (0, 2), (3, 5), (0, 1), (3, 4), (2, 5), (0, 3), (1, 4), (2, 4),
        (1, 3), (2, 3)),
    7: ((1, 2), (3, 4), (5, 6), (0, 2), (3, 5), (4, 6), (0, 1), (4, 5), (2, 6), (0, 4),
        (1, 5), (0, 3), (2, 5), (1, 3), (2, 4), (2, 3)),
    8: ((0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7), (0, 1), (2, 3),
        (4, 5), (6, 7), (2, 4), (3, 5), (1, 4), (3, 6), (1, 2), (3, 4), (5, 6)),
}


def network(k: int) -> tuple[tuple[int, int], ...]:
    """Compare-exchanges that sort any ``k`` fields (a bubble network past 8)."""
    if k in NETWORKS:
        return NETWORKS[k]
    return tuple((j, j + 1) for i in range(k - 1) for j in range(k - 1 - i))


def sort_network(fields: list[np.ndarray]) -> list[np.ndarray]:
    """The arrays ``fields`` sorted elementwise (the smallest first), by a
    sorting network of compare-exchanges.  numpy's sort along a short axis
    sorts each column of a few entries by a call of its own: several times
    slower on millions of states."""
    fields = list(fields)
    for i, j in network(len(fields)):
        a, b = fields[i], fields[j]
        fields[i], fields[j] = np.minimum(a, b), np.maximum(a, b)
    return fields


def equal_orders(fields: list[np.ndarray]) -> np.ndarray:
    """Per entry of the sorted ``fields``, the orders of its equal fields
    (the product of the factorials of its runs of equal values)."""
    runs = np.ones(fields[0].size if fields else 0, dtype=np.int64)
    repeats = np.ones_like(runs)
    for k in range(1, len(fields)):
        runs = np.where(fields[k] == fields[k - 1], runs + 1, 1)
        repeats *= runs
    return repeats


def _canonical(keys: np.ndarray, groups: tuple[tuple[Slot, ...], ...], n: int) -> np.ndarray:
    """Sort the value sets of interchangeable columns inside each key."""
    if not keys.shape[1]:
        return keys
    for group in groups:
        sets = sort_network([_get(keys, slot) for slot in group])
        for slot in group:
            keys[slot.word] &= ONES ^ np.uint64(slot.mask)
        for k, slot in enumerate(group):
            keys[slot.word] |= sets[k] << np.uint64(slot.shift)
    return keys


def key_order(keys: np.ndarray) -> np.ndarray:
    """The stable order that sorts multi-word keys (the first word first)."""
    packed = _packed(keys)
    if packed is not None:
        return np.argsort(packed, kind="stable")
    return np.lexsort(keys[::-1])


def _packed(keys: np.ndarray) -> np.ndarray | None:
    """The keys as one word, in the same order, when the bits that differ
    between them span 64 bits or fewer: a key's constant bits (a pinned
    column's set, a column set every state has filled alike, unused fields)
    say nothing.  One sort of one word instead of ``lexsort``'s stable sort
    per word, about twice as fast.  None when they do not fit."""
    if len(keys) == 1:
        return keys[0]
    spans = []
    for word in keys:
        varying = int(np.bitwise_or.reduce(word)) ^ int(np.bitwise_and.reduce(word))
        low = (varying & -varying).bit_length() - 1 if varying else 0
        spans.append((low, varying.bit_length() - low if varying else 0))
    if sum(width for _, width in spans) > WORD:
        return None
    packed = np.zeros(keys.shape[1], dtype=np.uint64)
    for word, (low, width) in zip(keys, spans):
        if width:
            part = (word >> np.uint64(low)) & np.uint64((1 << width) - 1)
            packed = (packed << np.uint64(width)) | part
    return packed


def _merge(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One key per state, with the counts of equal keys added (exactly)."""
    if keys.shape[1] < 2:
        return keys, counts
    order = key_order(keys)
    keys, counts = np.take(keys, order, axis=1), np.take(counts, order)
    differ = np.zeros(keys.shape[1], dtype=bool)
    differ[0] = True
    for word in keys:
        differ[1:] |= word[1:] != word[:-1]
    starts = np.flatnonzero(differ)
    return np.take(keys, starts, axis=1), np.add.reduceat(counts, starts)


# ---------------------------------------------------------------- the join


def join(upper: Table, lower: Table, lower_part: Part, square: Square,
         upper_part: Part, max_bytes: int = DEFAULT_MAX_BYTES) -> int:
    """sum over the upper states X of upper(X) * lower(complement(X)).

    The lower table holds sums over column orbits of its own symmetry, on which
    its count is constant, so each looked-up entry is divided by the orbit size
    of the labelled complement.  The upper table's orbits are orbits of the
    lower part's symmetry too, so one representative per entry is enough.
    """
    n = square.n
    full = np.uint64((1 << n) - 1)
    ul, ll = upper.layout, lower.layout
    out = upper_part.out
    u, v, words = upper.keys.shape[1], lower.keys.shape[1], ll.words
    held = upper.nbytes + lower.nbytes + cached_bytes()
    afford(held + u * (8 * n + 24 * words + 96) + v * (24 * words + 40), max_bytes,
           f"the join of {u:,} and {v:,} states")
    # The complements, as the lower part's canonical keys (column sets only).
    sets = np.stack([_get(upper.keys, ul.columns[x]) ^ full for x in range(n)])
    orbit = np.ones(sets.shape[1], dtype=np.int64)
    shift_column = {slot.shift + WORD * slot.word: x for x, slot in enumerate(ll.columns)}
    for group in lower_part.final_groups:
        columns = [shift_column[slot.shift + WORD * slot.word] for slot in group]
        block = np.stack(sort_network(list(sets[columns])))
        sets[columns] = block
        orbit *= _orbit(block)
    wanted = np.zeros((ll.words, sets.shape[1]), dtype=np.uint64)
    for x in range(n):
        slot = ll.columns[x]
        wanted[slot.word] |= sets[x] << np.uint64(slot.shift)
    masks = ll.column_masks()
    have = np.stack([lower.keys[w] & np.uint64(masks[w]) for w in range(ll.words)])
    ids_wanted, ids_have = _ids(wanted, have)
    order = np.argsort(ids_have, kind="stable")
    ids_have = ids_have[order]
    lo = np.searchsorted(ids_have, ids_wanted, "left")
    hi = np.searchsorted(ids_have, ids_wanted, "right")
    size = hi - lo
    matches = int(size.sum())
    afford(held + u * (8 * n + 24 * words + 96) + v * (24 * words + 40) + matches * 160,
           max_bytes, f"the join's {matches:,} matching pairs")
    which = np.repeat(np.arange(len(lo)), size)
    at = order[np.repeat(lo - np.cumsum(size) + size, size) + np.arange(size.sum())]
    ok = np.ones(len(which), dtype=bool)
    for x in out:
        a = _get(upper.keys, ul.field(x))[which]
        b = _get(lower.keys, ll.field(x))[at]
        s = square.sign((upper_part.rows[-1], x), (lower_part.rows[-1], x))
        ok &= (a < b) if s < 0 else (a > b)
    which, at = which[ok], at[ok]
    left = upper.counts[which].astype(object)
    right = lower.counts[at].astype(object) // orbit[which].astype(object)
    return int((left * right).sum()) if len(left) else 0


def _orbit(block: np.ndarray) -> np.ndarray:
    """Per key, the number of distinct orders of its sorted column sets."""
    return math.factorial(block.shape[0]) // equal_orders(list(block))


def _ids(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal integer ids for equal multi-word keys of a and b."""
    if len(a) == 1:
        return a[0], b[0]
    both = np.concatenate([a, b], axis=1)
    order = key_order(both)
    sorted_keys = both[:, order]
    differ = np.zeros(both.shape[1], dtype=bool)
    if both.shape[1]:
        differ[0] = True
    for word in sorted_keys:
        differ[1:] |= word[1:] != word[:-1]
    ids = np.empty(both.shape[1], dtype=np.int64)
    ids[order] = np.cumsum(differ) - 1
    return ids[: a.shape[1]], ids[a.shape[1]:]


# ---------------------------------------------------------------- the count


def transpose(puzzle: Futoshiki) -> Futoshiki:
    givens = tuple(zip(*puzzle.givens, strict=True))
    less = tuple(((a[1], a[0]), (b[1], b[0])) for a, b in puzzle.less)
    return Futoshiki(puzzle.n, givens, less)


@dataclass(frozen=True)
class Split:
    upper: tuple[int, ...]
    lower: tuple[int, ...]  # in the order it is filled (from the far end)


def choose(puzzle: Futoshiki, heights: tuple[int, ...] | None = None,
           turns: tuple[bool, ...] = (False, True)) -> tuple[Futoshiki, Split]:
    """The orientation and the split.

    The orientation with the fewer clued rows; clued rows above.  When at least
    half the rows are free, the free rows below the split form a lower part of
    free rows only (its table is small and kept); otherwise one pass over all
    rows (no lower part), where the dead-state tests see every clue.  Among
    ``heights`` (tried instead of that rule), the fewest inequalities across.
    """
    n = puzzle.n
    best: tuple | None = None
    for turned in turns:
        p = transpose(puzzle) if turned else puzzle
        related = {cell for pair in p.less for cell in pair}
        clued = sorted({r for r, _ in related} | {r for r in range(n) for c in range(n)
                                                   if p.givens[r][c]})
        order = clued + [r for r in range(n) if r not in clued]
        default = max(len(clued), 1) if len(clued) <= n - n // 2 else n
        for h in heights or (default,):
            a, b = order[h - 1], order[h] if h < n else None
            across = sum(1 for x in range(n) if ((a, x), (b, x)) in p.relation)
            score = (len(clued), across, turned)
            if best is None or score < best[0]:
                best = (score, p, Split(tuple(order[:h]), tuple(order[h:][::-1])))
    assert best is not None
    return best[1], best[2]


def pinned(n: int) -> Futoshiki:
    """The empty square with its first column fixed to 1..n: it has L(n) / n!
    solutions, and pinning a column lets the DP use the values' symmetry."""
    return Futoshiki(n, tuple(tuple(r + 1 if c == 0 else 0 for c in range(n)) for r in range(n)))


def count(puzzle: Futoshiki, *, max_states: int | None = None,
          deadline: Deadline | None = None, stats: dict[str, Any] | None = None,
          heights: tuple[int, ...] | None = None, turns: tuple[bool, ...] = (False, True),
          max_bytes: int = DEFAULT_MAX_BYTES) -> int:
    """The exact number of solutions of ``puzzle``.

    Raises ``StateSpaceTooLarge`` past the state budget (``max_states`` states
    after a step, None: none) or before a step, a join or a kept table would
    hold more than ``max_bytes`` bytes, and ``LimitReached`` past the deadline.
    """
    with heap_reused():
        return _count(puzzle, max_states, deadline or Deadline(None),
                      stats if stats is not None else {}, heights, turns, max_bytes)


def _count(puzzle: Futoshiki, max_states: int | None, deadline: Deadline,
           stats: dict[str, Any], heights: tuple[int, ...] | None, turns: tuple[bool, ...],
           max_bytes: int) -> int:
    n = puzzle.n
    if puzzle.adjacent:
        raise Unsupported("count-dp: Adjacent mode's bars do not fit its states")
    if n == 1:
        return int(puzzle.givens[0][0] in (0, 1))
    limits = {"max_states": max_states, "deadline": deadline, "max_bytes": max_bytes}
    if not puzzle.less and not any(any(row) for row in puzzle.givens) and heights is None:
        # Every value is alike: count the squares whose first column is 1..n.
        return math.factorial(n) * _count_pinned(n, limits, stats)
    puzzle, split = choose(puzzle, heights, turns)
    engine = Engine(puzzle)
    if not engine.ok:
        return 0
    square = Square(puzzle, engine.dom)
    upper_part = plan_part(square, split.upper, split.lower, upper=True)
    lower_part = plan_part(square, split.lower, split.upper, upper=False)
    free = not any(r in square.clued for r in split.lower) and not upper_part.out
    if free and len(split.lower) > 1:
        # The kept table first: the upper part is built beside it.
        lower = _free_table(n, len(split.lower), limits)
        upper = build(upper_part, **limits, stats=stats, held=cached_bytes())
        stats["states"] = max(upper.peak, lower.peak)
        stats["upper_states"], stats["lower_states"] = upper.keys.shape[1], lower.keys.shape[1]
        if not upper.keys.shape[1]:
            return 0
        return join_free(upper, lower, len(split.lower), max_bytes)
    _TABLES.clear()  # (not needed here: room for this puzzle's own tables)
    upper = build(upper_part, **limits, stats=stats)
    lower = build(lower_part, **limits, held=upper.nbytes)
    stats["states"] = max(upper.peak, lower.peak)
    stats["upper_states"], stats["lower_states"] = upper.keys.shape[1], lower.keys.shape[1]
    if not upper.keys.shape[1] or not lower.keys.shape[1]:
        return 0
    return join(upper, lower, lower_part, square, upper_part, max_bytes)


def _count_pinned(n: int, limits: dict[str, Any], stats: dict[str, Any]) -> int:
    """The squares whose first column is 1..n.  For even n the lower half is the
    upper half upside down with every value v read as n + 1 - v, so its table
    is the upper table with each column set reversed: built once."""
    puzzle = pinned(n)
    h = n // 2
    if n % 2:  # (inside count's heap_reused already)
        return _count(puzzle, limits["max_states"], limits["deadline"], stats, (h,), (False,),
                      limits["max_bytes"])
    _TABLES.clear()
    engine = Engine(puzzle)
    square = Square(puzzle, engine.dom)
    upper_rows, lower_rows = tuple(range(h)), tuple(range(n - 1, h - 1, -1))
    upper_part = plan_part(square, upper_rows, lower_rows, upper=True)
    lower_part = plan_part(square, lower_rows, upper_rows, upper=False)
    upper = build(upper_part, **limits, stats=stats)
    afford(upper.nbytes * 4 + upper.keys.shape[1] * 8 * n, limits["max_bytes"],
           "the mirrored half-square table")
    keys = upper.keys.copy()
    for slot in upper.layout.columns:
        sets = _get(keys, slot)
        flipped = np.zeros_like(sets)
        for v in range(n):  # value v + 1 -> n - v
            flipped |= ((sets >> np.uint64(v)) & np.uint64(1)) << np.uint64(n - 1 - v)
        keys[slot.word] = (keys[slot.word] & (ONES ^ np.uint64(slot.mask))) | (
            flipped << np.uint64(slot.shift))
    keys = _canonical(keys, lower_part.final_groups, n)
    lower = Table(*_merge(keys, upper.counts.copy()), upper.peak, lower_part.layout)
    stats["upper_states"] = stats["lower_states"] = upper.keys.shape[1]
    return join(upper, lower, lower_part, square, upper_part, limits["max_bytes"])


def cached_bytes() -> int:
    """The bytes of the kept free-row tables."""
    return sum(table.nbytes for table in _TABLES.values())


def _free_table(n: int, d: int, limits: dict[str, Any]) -> Table:
    """The table of ``d`` free rows whose first column reads 1..d (kept: it is
    the same for every puzzle of the order, as long as the budget leaves room)."""
    key = (n, d)
    if key in _TABLES:
        _TABLES.move_to_end(key)
        for other in [k for k in _TABLES if k != key]:
            del _TABLES[other]  # the tables of other shapes give way to this puzzle's
        return _TABLES[key]
    _TABLES.clear()
    puzzle = Futoshiki(n, tuple(tuple(r + 1 if c == 0 and r < d else 0 for c in range(n))
                                for r in range(n)))
    square = Square(puzzle, Engine(puzzle).dom)
    part = plan_part(square, tuple(range(d)), (), upper=False)
    table = build(part, **limits)
    _TABLES[key] = table
    return table


def join_free(upper: Table, lower: Table, d: int, max_bytes: int = DEFAULT_MAX_BYTES) -> int:
    """The join with ``d`` free rows below, whose table has the first column
    pinned to 1..d.  Free rows treat all values and all rows alike, so the
    complement of each upper state is relabelled (the values of its first
    column in order to 1..d, the others in order to d+1..n), its other columns
    sorted, and the entry found is multiplied by d! (the orders of the first
    column) and divided by the orbit of the other columns."""
    n = lower.layout.n
    u, v, words = upper.keys.shape[1], lower.keys.shape[1], lower.layout.words
    afford(upper.nbytes + lower.nbytes + u * (32 * n + 24 * words + 200)
           + v * (24 * words + 40), max_bytes, f"the join of {u:,} and {v:,} states")
    full = np.uint64((1 << n) - 1)
    sets = np.stack([_get(upper.keys, slot) ^ full for slot in upper.layout.columns])
    first = sets[0]
    below = np.zeros((n, sets.shape[1]), dtype=np.uint64)  # per value j, its new place
    for j in range(n):
        lower_bits = first & np.uint64((1 << j) - 1)
        inside = np.bitwise_count(lower_bits).astype(np.uint64)
        outside = np.uint64(j) - inside + np.uint64(d)
        below[j] = np.where((first >> np.uint64(j)) & np.uint64(1), inside, outside)
    relabelled = np.zeros_like(sets)
    for j in range(n):
        relabelled |= ((sets >> np.uint64(j)) & np.uint64(1)) << below[j]
    rest = np.stack(sort_network(list(relabelled[1:])))
    relabelled[1:] = rest
    orbit = _orbit(rest)
    wanted = np.zeros((lower.layout.words, sets.shape[1]), dtype=np.uint64)
    for x, slot in enumerate(lower.layout.columns):
        wanted[slot.word] |= relabelled[x] << np.uint64(slot.shift)
    ids_wanted, ids_have = _ids(wanted, lower.keys)
    order = np.argsort(ids_have, kind="stable")
    at = np.searchsorted(ids_have[order], ids_wanted)
    at = np.minimum(at, len(order) - 1)
    found = ids_have[order][at] == ids_wanted
    left = upper.counts[found].astype(object)
    right = lower.counts[order[at[found]]].astype(object) * math.factorial(d)
    right = right // orbit[found].astype(object)
    return int((left * right).sum()) if len(left) else 0


