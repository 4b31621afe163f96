"""Exact Futoshiki counts by value layers: place 1 everywhere, then 2, ..., met in the middle.

The second plan of ``count-dp`` (the first is ``search.futoshiki.countdp.rows``).  A
Latin square is ``n`` permutation matrices, one per value, laid on the square
in turn.  After the values ``1..v`` the state is the set of cells filled so
far, an ``n * n``-bit mask (one ``uint64`` for ``n <= 8``): every row and
every column holds ``v`` of them, and the completions of a partial square
depend on that mask alone.  Inside a layer the value is placed row by row; a
column is open for it while it holds ``v - 1`` cells of the mask, so the mask
is the whole state, without any field.

The clues prune masks instead of widening states:

* an inequality ``a < b`` is a precedence: ``b`` may be filled only once ``a``
  is (``a`` and ``b`` share a row or a column, so never a layer), and ``a``
  only while ``b`` is empty; a mask is down-closed under the relations;
* a cell takes value ``v`` only if ``v`` is in its domain (``propagate``'s
  domains: givens, inequality bounds and chains, Hall sets), and a cell whose
  domain ends at ``v`` must be filled by the end of layer ``v``: the value is
  placed in its row or column only on that cell.

So each inequality keeps roughly three quarters of the masks of a layer (and
a given about half), where the row DP must carry a linked cell's value.

**Folded** (the default, ``folded_count``).  One side goes all the way,
its states merged at every layer's end by what their futures depend on:
the empty cells and the clues still open among them (``fold``).  Lines
that no open clue touches may be permuted without changing the future, so
the late layers, where most clues have settled, hold a few thousand classes
where they held millions of masks.  The side goes up (values ``1..n``) or
down (``n..1``), whichever has fewer classes after two layers.

**Met in the middle** (``folding=False``, or a ``split``; the tests hold
the two plans to each other).  A forward table over the values ``1..h`` (masks
down-closed under the relations) and a backward table over ``n..h+1`` (the
same DP on the puzzle with every value ``v`` read as ``n + 1 - v`` and every
relation reversed; its masks are the cells above ``h``) are joined on
complementary masks: ``count = sum_S forward(S) * backward(~S)``.  Exact,
because a down-closed mask's complement is up-closed and each side checks
every relation with one end inside it (a relation across the split holds by
the layers themselves).  A layer whose middle would pass the budget is
stepped in pieces of its states (``Frontier.layer``), exact because a step is
linear in the counts.

**Symmetry.** Rows without a clue (no given, no inequality, full domains) are
interchangeable, and so are clue-free columns (``Symmetry``); their
``n``-bit fields are sorted and the columns moved to a canonical form
(``canonical``).  A key then stands for its orbit and its count is the sum over
the orbit; the join divides each looked-up backward entry by the orbit size
of the complement (on which the backward count is constant).  The square is
turned (transposed) first when that leaves more free rows.

Counts are ``int64`` while ``(n!) ** layers`` fits (every side for
``n <= 8``), Python integers in the join.  The work is bounded in states
(``max_states`` states kept after a step), never in time.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from search.core.compiled import is_compiled, load
from search.core.contract import Deadline, Unsupported
from search.futoshiki.countdp import order
from search.futoshiki.countdp.buffers import Buffers
from search.futoshiki.countdp.rows import (
    DEFAULT_MAX_BYTES,
    StateSpaceTooLarge,
    afford,
    check_states,
    count_bytes,
    equal_orders,
    give_back,
    heap_reused,
    key_order,
    sort_network,
    transpose,
)
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine

KERNEL = load("search.futoshiki.countdp.kernel")  # the row step and the forms, compiled where built
COMPILED = is_compiled(KERNEL)  # interpreted, the step runs in numpy instead (faster there)
MAX_ORDER = 8  # n * n bits in one uint64
MAX_MOVES = 4  # with free rows and columns, the smaller group's lines (their 4! moves)
RANGE = 1 << 20  # states merged at once when the pieces' sorted tables are merged
RADIX_MIN = 1 << 16  # fewer keys: numpy's sort (a radix pass clears 65,536 counters)
ALL = 2**64 - 1


@dataclass(frozen=True)
class Place:
    """Value ``v`` on cell ``bit``: the mask must hold ``need`` and none of ``avoid``."""

    column: int
    bit: int
    need: int  # predecessors, and cells that must be filled by the end of this layer
    avoid: int  # successors (filled earlier would mean smaller) and the cell itself


@dataclass(frozen=True)
class Unit:
    """A step of one side: its value placed in ``rows`` (one row after another),
    then, when ``sort``, the symmetric rows' fields sorted."""

    value: int
    rows: tuple[tuple[Place, ...], ...]  # per row, its choices
    sort: bool


@dataclass(frozen=True)
class Table:
    keys: np.ndarray  # uint64 masks, sorted, canonical
    counts: np.ndarray  # int64 (Python integers past 62 bits): partial squares per orbit
    peak: int  # the most states after a step


def free_rows(puzzle: Futoshiki) -> tuple[int, ...]:
    """Rows without a given or an end of an inequality."""
    n = puzzle.n
    clued = {r for pair in puzzle.less for r, _ in pair}
    clued |= {r for r in range(n) if any(puzzle.givens[r])}
    return tuple(r for r in range(n) if r not in clued)


def symmetric_rows(puzzle: Futoshiki) -> tuple[int, ...]:
    """The free rows, when there are two or more (one row alone has no
    symmetry and is placed like a clued one)."""
    free = free_rows(puzzle)
    return free if len(free) > 1 else ()


@dataclass(frozen=True)
class Symmetry:
    """Free rows and free columns that the puzzle treats alike: any permutation
    of ``rows`` times any permutation of ``columns`` maps solutions to solutions."""

    rows: tuple[int, ...] = ()
    columns: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return math.factorial(len(self.rows)) * math.factorial(len(self.columns))


def symmetry(puzzle: Futoshiki, domains: list[int]) -> Symmetry:
    """The symmetric rows and the free columns (two or more of each), each kept
    only where ``domains`` are alike along it, so that the DP's places (read
    off the domains) are symmetric too.  With both, at most ``MAX_MOVES``
    columns (the canonical form enumerates the smaller group's moves)."""
    n = puzzle.n
    rows, columns = symmetric_rows(puzzle), symmetric_rows(transpose(puzzle))
    if any(len({domains[r * n + c] for r in rows}) > 1 for c in range(n)):
        rows = ()
    if any(len({domains[r * n + c] for c in columns}) > 1 for r in range(n)):
        columns = ()
    if rows and min(len(rows), len(columns)) > MAX_MOVES:
        columns = columns[:MAX_MOVES]  # any subset is alike too
    return Symmetry(rows, columns)


@dataclass(frozen=True)
class Pins:
    """What pins a line of a forward state's future (``fold``): per
    inequality, its smaller cell (its bit's index) and the lines of its two
    cells; per value ``v`` (index ``v - 1``), the lines of the givens above
    ``v``.  A line word holds the rows' bits above the columns' (``n`` bits
    each)."""

    smaller: tuple[int, ...]
    lines: tuple[int, ...]
    later: tuple[int, ...]


def pins(puzzle: Futoshiki) -> Pins:
    n = puzzle.n

    def lines(*cells: tuple[int, int]) -> int:
        word = 0
        for r, c in cells:
            word |= 1 << (n + r) | 1 << c
        return word

    later = tuple(lines(*((r, c) for r in range(n) for c in range(n)
                          if puzzle.givens[r][c] > v))
                  for v in range(1, n + 1))
    return Pins(tuple(a[0] * n + a[1] for a, _ in puzzle.less),
                tuple(lines(a, b) for a, b in puzzle.less), later)


def fold(keys: np.ndarray, counts: np.ndarray, pinning: Pins, value: int, n: int
         ) -> tuple[np.ndarray, np.ndarray]:
    """The forward states after ``value`` with the states of equal futures
    merged: a representative each (the least mask of its class, a real
    state, so that the steps go on from it), with the class's counts added.

    A state's completions fill its empty cells with the values above
    ``value``; they depend on those cells and on the clues still open there
    alone: an inequality whose smaller cell is filled holds whatever comes
    (its larger cell is filled too, or gets a larger value), and a given at
    most ``value`` is placed.  So the lines free of open clues (neither a
    cell of an inequality with an empty smaller cell nor a given still to
    come) may be permuted, rows among rows and columns among columns, and
    the future stays.  Two states whose forms (their free rows' fields
    sorted, then their free columns, then the rows again) agree, with the
    same lines pinned, are one class: the open clues' cells lie on pinned
    lines, which the forms leave in place.  Sound for any form that moves
    free lines only; not every class is found (a canonical form under both
    groups costs far more than it merges: measured on a 7x7, 6 % fewer
    classes for four to eight times the time).  Inside a layer the clues
    settle far less: folding after every row was measured to cut the states
    by a third to two fifths for three to five times the time.
    """
    if keys.size < 2:
        return keys, counts
    together = n * n + 2 * n <= 64  # one word: the lines pinned above the form
    if COMPILED:
        pinned = np.empty(0 if together else keys.size, dtype=np.uint64)
        form = np.empty_like(keys)
        KERNEL.forms(keys, n, np.array(pinning.smaller, dtype=np.uint64),
                     np.array(pinning.lines, dtype=np.uint64), pinning.later[value - 1],
                     pinned, form, np.zeros(n, dtype=np.uint64), together)
    else:
        pinned, form = forms(keys, pinning, value, n)
        if together:
            form |= pinned << np.uint64(n * n)
    if together:
        classes, order = sorted_and_order(form, scratch=True)
        del pinned, form
        heads = np.flatnonzero(np.concatenate(([True], classes[1:] != classes[:-1])))
        del classes
    else:
        order = key_order(np.stack([pinned, form]))  # (stable too)
        pinned, form = pinned[order], form[order]
        heads = np.flatnonzero(np.concatenate(
            ([True], (pinned[1:] != pinned[:-1]) | (form[1:] != form[:-1]))))
        del pinned, form
    # The keys come sorted, so the least mask of a class leads it.
    keys, counts = keys[order[heads]], np.add.reduceat(counts[order], heads)
    del order, heads
    keys, by = sorted_and_order(keys, scratch=True)  # (keys: the gathered classes')
    return keys, counts[by]


def fold_bytes(states: int, per: int) -> int:
    """Bytes of ``fold`` on ``states`` states of ``per`` bytes each: the
    states, their forms and order (the radix sort's buffers), the classes."""
    return states * (3 * per + 48)


def stable_order(keys: np.ndarray) -> np.ndarray:
    """The stable order that sorts ``keys`` (``uint64``): where the kernel is
    compiled, a radix sort of 16 bits a pass (the digits alike in every key
    skipped), about four times faster than numpy's on millions of keys; the
    same order (a stable order is unique), so the states do not depend on
    the build."""
    if not COMPILED or keys.size < RADIX_MIN:
        return np.argsort(keys, kind="stable")
    return sorted_and_order(keys)[1]


def sorted_and_order(keys: np.ndarray, scratch: bool = False
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``keys`` sorted, and ``stable_order(keys)`` (the radix sort leaves the
    sorted keys in its buffer); ``scratch``: the sort may write over
    ``keys``."""
    if not COMPILED or keys.size < RADIX_MIN:
        order = np.argsort(keys, kind="stable")
        return keys[order], order
    differ = int(np.bitwise_or.reduce(keys ^ keys[0]))
    source, order = keys, np.arange(keys.size, dtype=np.int64)
    target, spare = np.empty_like(keys), np.empty_like(order)
    counts = np.empty(1 << 16, dtype=np.int64)
    for shift in range(0, 64, 16):
        if differ >> shift & 0xFFFF:
            KERNEL.radix_pass(source, order, target, spare, counts, shift)
            if source is keys and not scratch:  # (the caller's keys are read only)
                source = np.empty_like(keys)
            source, order, target, spare = target, spare, source, order
    return source, order


def forms(keys: np.ndarray, pinning: Pins, value: int, n: int
          ) -> tuple[np.ndarray, np.ndarray]:
    """``fold``'s pinned lines and forms in numpy, the states grouped by
    their pinned lines (the compiled ``kernel.forms`` makes the same state by
    state)."""
    pinned = np.full(keys.size, pinning.later[value - 1], dtype=np.uint64)
    one = np.uint64(1)
    for cell, lines in zip(pinning.smaller, pinning.lines):
        pinned |= (((keys >> np.uint64(cell)) & one) ^ one) * np.uint64(lines)
    order = np.argsort(pinned, kind="stable")
    grouped = pinned[order]
    starts = np.flatnonzero(np.concatenate(([True], grouped[1:] != grouped[:-1])))
    form = np.empty_like(keys)
    for lo, hi in zip(starts.tolist(), [*starts[1:].tolist(), keys.size]):
        at = order[lo:hi]
        word = int(grouped[lo])
        rows = tuple(r for r in range(n) if not word >> (n + r) & 1)
        columns = tuple(c for c in range(n) if not word >> c & 1)
        form[at] = free_form(keys[at], rows, columns, n)
    return pinned, form


def free_form(keys: np.ndarray, rows: tuple[int, ...], columns: tuple[int, ...], n: int
              ) -> np.ndarray:
    """The masks with the fields of ``rows`` sorted, then their ``columns``,
    then the rows again (each pass moves free lines only)."""
    if len(rows) > 1:
        keys, _ = sorted_rows(keys, rows, n, orders=False)
    if len(columns) > 1:
        keys, _ = sorted_columns(keys, columns, n, orders=False)
        if len(rows) > 1:
            keys, _ = sorted_rows(keys, rows, n, orders=False)
    return keys


def reversed_values(puzzle: Futoshiki) -> Futoshiki:
    """Every value v read as n + 1 - v and every relation reversed (same count)."""
    n = puzzle.n
    givens = tuple(tuple(n + 1 - v if v else 0 for v in row) for row in puzzle.givens)
    return Futoshiki(n, givens, tuple((b, a) for a, b in puzzle.less))


def reversed_domains(domains: list[int], n: int) -> list[int]:
    """The domains with every value v read as n + 1 - v (bit v - 1 to bit n - v)."""
    return [int(f"{d:0{n}b}"[::-1], 2) for d in domains]


def places(puzzle: Futoshiki, domains: list[int]) -> list[list[tuple[Place, ...]]]:
    """Per value (index ``v - 1``) and row, the cells the value may take."""
    n = puzzle.n
    pred = [0] * (n * n)
    succ = [0] * (n * n)
    for (ar, ac), (br, bc) in puzzle.less:
        a, b = ar * n + ac, br * n + bc
        pred[b] |= 1 << a
        succ[a] |= 1 << b
    last = [domains[i].bit_length() for i in range(n * n)]  # the largest value left
    out = []
    for v in range(1, n + 1):
        # A cell whose largest value is at most v is filled by the end of layer
        # v: v goes on that cell, or its row or column is dead.
        must = [i for i in range(n * n) if last[i] <= v]
        row_must = [sum(1 << i for i in must if i // n == r) for r in range(n)]
        column_must = [sum(1 << i for i in must if i % n == c) for c in range(n)]
        rows = []
        for r in range(n):
            row = []
            for c in range(n):
                i = r * n + c
                if domains[i] >> (v - 1) & 1:
                    need = (pred[i] | row_must[r] | column_must[c]) & ~(1 << i)
                    row.append(Place(c, 1 << i, need, succ[i] | 1 << i))
            rows.append(tuple(row))
        out.append(rows)
    return out


def units(puzzle: Futoshiki, domains: list[int]) -> tuple[list[Unit], list[Unit]]:
    """The forward side's units (values 1..n) and the backward side's (values
    n..1, on the value-reversed puzzle): the forward's first ``i`` units and the
    backward's first ``len - i`` make every placement once.

    In a layer the clued rows come one by one (fewest choices first: fewer
    states mid-layer) and the symmetric rows in one block, last in the forward
    direction and so first in the backward one.  A side then stops only where
    its keys are canonical: a block of all symmetric rows maps orbits to
    orbits, and a clued row does not touch the sorted fields.
    """
    n = puzzle.n
    sym = symmetric_rows(puzzle)
    ahead = places(puzzle, domains)
    behind = places(reversed_values(puzzle), reversed_domains(domains, n))
    forward: list[Unit] = []
    backward: list[list[Unit]] = []
    for v in range(1, n + 1):
        clued = sorted((r for r in range(n) if r not in sym),
                       key=lambda r: len(ahead[v - 1][r]))
        layer = [((r,), False) for r in clued] + ([(sym, True)] if sym else [])
        forward += [Unit(v, tuple(ahead[v - 1][r] for r in rows), sort)
                    for rows, sort in layer]
        w = n + 1 - v  # the same layer, seen from the other end
        backward.append([Unit(w, tuple(behind[w - 1][r] for r in rows), sort)
                         for rows, sort in reversed(layer)])
    return forward, [unit for layer in reversed(backward) for unit in layer]


class Frontier:
    """One side's states so far, stepped one unit at a time.

    Memory: every row's step estimates its bytes from its input and the number
    of candidates (counted before any is made) and raises
    ``StateSpaceTooLarge`` before it allocates past ``max_bytes``, with
    ``other`` bytes (the other side's table) and the results of earlier pieces
    held beside it.  ``growth`` is the most candidates per input state a row
    of the last layer made, measured, from which the next layer's pieces are sized.
    """

    def __init__(self, n: int, sym: Symmetry, units: list[Unit], max_states: int | None,
                 max_bytes: int):
        self.n, self.sym, self.units = n, sym, units
        self.max_states, self.max_bytes = max_states, max_bytes
        self.done = 0
        self.keys = np.zeros(1, dtype=np.uint64)
        self.counts: np.ndarray = np.ones(1, dtype=np.int64)
        self.peak = 1
        self.pieces = 0  # pieces stepped, over all layers
        self.pinning: Pins | None = None  # the forward side's, when it folds (``fold``)
        self.growth = 1.0
        self.buffers = Buffers()  # the compiled row steps' results
        self.columns = [np.uint64(sum(1 << (r * n + c) for r in range(n))) for c in range(n)]

    @property
    def size(self) -> int:
        return int(self.keys.size)

    @property
    def canonical_bytes(self) -> int:
        """Bytes per candidate of the canonical forms taken after every row
        when columns are free: the lines' fields, the sorting network's two
        outputs, the form and the least one, the count of fixing moves.  (The
        free rows alone are sorted once per unit, on its merged states.)"""
        if not self.sym.columns:
            return 0
        return 8 * (max(len(self.sym.rows), len(self.sym.columns)) + 5)

    @property
    def nbytes(self) -> int:
        return self.size * (8 + count_bytes(self.counts))

    def step(self, deadline: Deadline, other: int) -> None:
        """The next unit."""
        unit = self.units[self.done]
        self.done += 1
        self.counts = wide(self.counts, self.n, unit.value)
        try:
            self.keys, self.counts = self.buffers.kept(
                *self.advance(self.keys, self.counts, unit, other, 0, deadline))
        finally:
            self.buffers.release()

    def layer(self, count: int, deadline: Deadline, other: int,
              sink: Callable[[np.ndarray, np.ndarray], None] | None = None) -> None:
        """The next ``count`` units (a whole layer, or the rest of one), in
        pieces of the states when the layer's middle would pass the budget.
        With ``sink``, each piece's result goes to it and the side keeps none.

        Exact for any partition of the states (a step is linear in the
        counts); the pieces are cut in the order of the fields of the rows
        placed last, which the layer's first units leave alone, so that states
        that would merge mid-layer mostly share a piece.  The first piece is
        sized from the last layer's growth; a piece past the budget is halved
        (and so are the pieces after it), and the pieces' results are merged
        whenever they pass half of the room left.
        """
        units = self.ordered(self.units[self.done:self.done + count], other, deadline)
        self.done += count
        last = 0
        for row in units[-1].rows:
            for place in row[:1]:
                r = (place.bit.bit_length() - 1) // self.n
                last |= ((1 << self.n) - 1) << (r * self.n)
        keys, counts = self.keys, wide(self.counts, self.n, units[-1].value)
        empty_k, empty_c = np.zeros(0, dtype=np.uint64), counts[:0].copy()
        self.keys, self.counts = empty_k, empty_c  # (the layer's input is the side now)
        per = 8 + count_bytes(counts)
        other += keys.size * per  # the layer's input, held until it is done
        room = self.max_bytes - other
        done_k, done_c = [empty_k], [empty_c]
        candidate = self.candidate_bytes(per)
        size = max(1, min(keys.size, int(room * 0.75 / (candidate * max(self.growth, 1.0)))))
        cut = size < keys.size  # in the cut's order, so each piece is sorted again
        if cut:
            keys, counts = cut_order(keys, counts, last)
        lo, merged, growth = 0, 0, 0.0  # merged: states in done_k[0]
        while lo < keys.size:
            hi = min(lo + size, keys.size)
            held = sum(k.size for k in done_k) * per
            try:
                k, c = keys[lo:hi], counts[lo:hi]
                if cut:  # the row steps take sorted keys
                    at = stable_order(k)
                    k, c = k[at], c[at]
                    del at
                for i, unit in enumerate(units):
                    k, c = self.advance(k, c, unit, other, held, deadline, i == len(units) - 1)
                    growth = max(growth, self.grew / (hi - lo))
            except StateSpaceTooLarge:
                self.buffers.release()
                if hi - lo < 2:
                    raise
                size = (hi - lo) // 2  # and so for the pieces after it
                if not cut:  # (the whole failed: lo is 0)
                    keys, counts = cut_order(keys, counts, last)
                    cut = True
                continue
            self.pieces += 1
            lo = hi
            if sink is not None:
                sink(k, c)
                continue
            # Folded from the pair it lies in (copied out where no fold is made).
            k, c = self.buffers.kept(*self.folded(k, c, units[-1].value, other + held))
            done_k.append(k)
            done_c.append(c)
            held += k.size * per
            states = held // per
            if (held > room // 3 and held - merged * per > room // 6) or (
                    self.max_states is not None and states > self.max_states // 2
                    and states - merged > self.max_states // 4):
                need = other + 2 * held + min(states, RANGE) * (3 * per + 17)
                if need + self.buffers.nbytes_held > self.max_bytes:
                    self.buffers.release()
                afford(need + self.buffers.nbytes_held, self.max_bytes,
                       f"the {states:,} states of value {units[-1].value}'s pieces, merged")
                merged_k, merged_c = self.folded(*merge_sorted(done_k, done_c),
                                                 units[-1].value, other + held)
                done_k, done_c, merged = [merged_k], [merged_c], merged_k.size
                check_states(merged, self.max_states, f"after value {units[-1].value}")
        self.growth = growth
        self.buffers.release()
        give_back()  # (what the pieces left free in the heap)
        if sink is not None:
            return
        together = sum(k.size for k in done_k)
        other -= keys.size * per
        del keys, counts, k, c
        afford(other + 2 * together * per + min(together, RANGE) * (3 * per + 17), self.max_bytes,
               f"the {together:,} states after value {units[-1].value}")
        tables = sum(1 for k in done_k if k.size)  # each folded already (a fold is idempotent)
        self.keys, self.counts = merge_sorted(done_k, done_c)
        if tables > 1:  # a class met in two tables has a representative in each
            self.keys, self.counts = self.folded(self.keys, self.counts, units[-1].value, other)
        check_states(self.size, self.max_states, f"after value {units[-1].value}")

    def ordered(self, units: list[Unit], other: int, deadline: Deadline) -> list[Unit]:
        """A layer's rows in the order that holds the fewest states, measured on
        a sample of its input (``order``); its block of free rows stays where
        it is (the side stops only where its keys are canonical)."""
        movable = [i for i, unit in enumerate(units) if not unit.sort]
        whole = len(movable) > 1 and len({unit.value for unit in units}) == 1
        few = order.sample(self.keys) if whole else None
        if few is None:
            return units
        other += self.nbytes

        def step(keys: np.ndarray, i: int) -> np.ndarray:
            deadline.check()
            unit = units[movable[i]]
            counts = np.ones(keys.size, dtype=np.int64)
            for row in unit.rows:
                keys, counts = self.place(keys, counts, row, unit.value, other, 0)
                keys, counts = keys.copy(), counts.copy()  # (out of the buffers' pairs)
            return keys

        try:
            best = order.cheapest(few, len(movable), step)
        finally:
            self.buffers.release()
        return order.reorder(units, movable, best)

    def folded(self, keys: np.ndarray, counts: np.ndarray, value: int, other: int
               ) -> tuple[np.ndarray, np.ndarray]:
        """``fold`` of the states after ``value``, where this side folds (each
        piece of a layer, then the pieces' tables once merged), ``other``
        bytes held elsewhere.  The row steps' buffers count beside it, and go
        first where the fold would not fit with them (``keys`` copied out of
        its pair)."""
        if self.pinning is None or keys.size < 2:
            return keys, counts
        need = other + fold_bytes(keys.size, 8 + count_bytes(counts))
        if need + self.buffers.nbytes_held > self.max_bytes:
            keys, counts = self.buffers.kept(keys, counts)
            self.buffers.release()
        afford(need + self.buffers.nbytes_held, self.max_bytes,
               f"the classes of the {keys.size:,} states after value {value}")
        return fold(keys, counts, self.pinning, value, self.n)

    def advance(self, keys: np.ndarray, counts: np.ndarray, unit: Unit, other: int,
                held: int, deadline: Deadline, last: bool = True
                ) -> tuple[np.ndarray, np.ndarray]:
        """``unit`` applied to the states ``keys`` (with ``held`` bytes of
        states and ``other`` bytes kept elsewhere: the budget is on their sum);
        ``last``: the side may stop after it, so its keys must be canonical.
        ``self.grew``: the most candidates a row made."""
        per = 8 + count_bytes(counts)
        self.grew = 0
        # Where the compiled step may run, both steps keep its schedule (free
        # columns sorted only where a side may stop), so the states and a
        # state budget do not depend on which build runs.  The byte estimates
        # do (each step's own arrays): under a byte budget the interpreted
        # build may cut a layer into more pieces, never to another count.
        late = counts.dtype == np.int64
        for row in unit.rows:
            deadline.check()
            keys, counts = self.place(keys, counts, row, unit.value, other, held)
            if not keys.size:
                return keys, counts
            check_states(keys.size + held // per, self.max_states, f"placing value {unit.value}")
            self.peak = max(self.peak, int(keys.size) + held // per)
        if unit.sort or (last and self.sym.columns and (self.sym.rows or late)):
            # Free columns are sorted after every row (a row fills rows, never
            # columns); the free rows once a unit leaves them all alike, and
            # with both groups the whole form where a side may stop (inside a
            # layer the columns' order is enough to merge: fewer passes).  With
            # int64 counts no step sorts columns: they are sorted here, where a
            # side may stop.
            afford(other + held + keys.size * (4 * per + 17 + self.canonical_bytes),
                   self.max_bytes, f"the canonical forms of {keys.size:,} states")
            keys, _ = canonical(keys, self.sym, self.n, orbits=False)
            keys, counts = merge(keys, counts)
        return keys, counts

    def candidate_bytes(self, per: int) -> int:
        """Bytes held per candidate of a row's step (``per``: a state's bytes):
        the compiled step's result alone, unless free columns are sorted after
        it; the numpy step's chunks twice (made, joined), the merge's order and
        sorted copies; and the canonical forms' arrays."""
        if COMPILED and per == 16:
            return 16 + self.canonical_bytes // 8  # (forms taken once a unit, on fewer states)
        return 3 * per + 17 + self.canonical_bytes

    def place(self, keys: np.ndarray, counts: np.ndarray, row: tuple[Place, ...],
              value: int, other: int, held: int) -> tuple[np.ndarray, np.ndarray]:
        """One row of ``value``: the compiled step where it is built and the
        counts are ``int64``, else numpy's."""
        if COMPILED and counts.dtype == np.int64:
            return self.place_compiled(keys, counts, row, value, other, held)
        return self.place_numpy(keys, counts, row, value, other, held)

    def place_compiled(self, keys: np.ndarray, counts: np.ndarray, row: tuple[Place, ...],
                       value: int, other: int, held: int) -> tuple[np.ndarray, np.ndarray]:
        """One row of ``value``, by the compiled kernel: sorted distinct masks in
        and out, the cells' sorted runs merged in one pass."""
        tables = row_tables(row, self.n)
        ok = self.buffers.marks(keys.size)
        candidates = KERNEL.mark(keys, self.n, tables.row, value - 1, tables.lookup,
                                 tables.special, tables.avoids, tables.needs, ok)
        bits = tables.bits
        self.grew = max(self.grew, candidates)
        # The input (in a pair of the buffers, or its own) and its places'
        # byte, both pairs with the result's.
        outside = 0 if self.buffers.holds(keys) else keys.size * 16
        afford(other + held + outside + ok.base.size + self.buffers.nbytes(candidates)
               + candidates * (self.candidate_bytes(16) - 16), self.max_bytes,
               f"value {value} on {keys.size:,} states ({candidates:,} candidates)")
        out_k, out_c = self.buffers.take(candidates)
        m = KERNEL.merge(keys, counts, ok, bits, np.zeros(2 * len(row), dtype=np.int64),
                         np.zeros(len(row), dtype=np.uint64), out_k, out_c)
        return out_k[:m], out_c[:m]

    def place_numpy(self, keys: np.ndarray, counts: np.ndarray, row: tuple[Place, ...],
                    value: int, other: int, held: int) -> tuple[np.ndarray, np.ndarray]:
        """One row of ``value`` in numpy: each cell's masks filtered and
        extended, then merged by a sort."""
        open_count = np.uint8(value - 1)
        per = 8 + count_bytes(counts)
        is_open: dict[int, np.ndarray] = {}
        oks = []
        for place in row:
            if place.column not in is_open:
                is_open[place.column] = (
                    np.bitwise_count(keys & self.columns[place.column]) == open_count)
            ok = is_open[place.column] & ((keys & np.uint64(place.avoid)) == 0)
            if place.need:
                need = np.uint64(place.need)
                ok &= (keys & need) == need
            oks.append(ok)
        candidates = sum(int(np.count_nonzero(ok)) for ok in oks)
        self.grew = max(self.grew, candidates)
        # The input and its masks, and the candidates' bytes.
        afford(other + held + keys.size * (per + 2 * len(row) + 2)
               + candidates * self.candidate_bytes(per), self.max_bytes,
               f"value {value} on {keys.size:,} states ({candidates:,} candidates)")
        chunks_k, chunks_c = [], []
        for place, ok in zip(row, oks):
            chosen = np.compress(ok, keys)
            if chosen.size:
                chunks_k.append(chosen | np.uint64(place.bit))
                chunks_c.append(np.compress(ok, counts))
        del oks, is_open
        if not chunks_k:
            return keys[:0], counts[:0]
        keys = np.concatenate(chunks_k)
        del chunks_k
        if self.sym.columns and counts.dtype != np.int64:  # wide counts (never compiled):
            # free columns alike after every row too, fewer states mid-layer
            keys, _ = sorted_columns(keys, self.sym.columns, self.n, orders=False)
        return merge(keys, np.concatenate(chunks_c))

    def table(self) -> Table:
        return Table(self.keys, self.counts, self.peak)


@dataclass(frozen=True)
class RowTables:
    """A row's places as ``kernel.mark`` reads them: ``lookup[f]``, the places
    whose columns are in the field ``f`` (of columns open and cells empty);
    the ``special`` places (their indices), which need or avoid other cells
    than their own, with those cells; each place's bit."""

    row: int
    lookup: np.ndarray
    special: np.ndarray
    avoids: np.ndarray
    needs: np.ndarray
    bits: np.ndarray


@functools.lru_cache(maxsize=256)
def row_tables(row: tuple[Place, ...], n: int) -> RowTables:
    lookup = np.array([sum(1 << p for p, place in enumerate(row) if f >> place.column & 1)
                       for f in range(1 << n)], dtype=np.uint8)
    special = [p for p, place in enumerate(row) if place.need or place.avoid != place.bit]
    at = (row[0].bit.bit_length() - 1) // n if row else 0  # (no place: no result)
    return RowTables(at, lookup,
                     np.array(special, dtype=np.int64),
                     np.array([row[p].avoid ^ row[p].bit for p in special], dtype=np.uint64),
                     np.array([row[p].need for p in special], dtype=np.uint64),
                     np.array([p.bit for p in row], dtype=np.uint64))


def cut_order(keys: np.ndarray, counts: np.ndarray, fields: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """The states in the order of their ``fields`` bits (stable: then by key)."""
    order = np.argsort(keys & np.uint64(fields), kind="stable")
    return keys[order], counts[order]


def wide(counts: np.ndarray, n: int, value: int) -> np.ndarray:
    """``counts`` as Python integers once ``(n!)^value`` (their bound) passes 62 bits."""
    if counts.dtype != object and math.factorial(n) ** value >= 2**62:
        return counts.astype(object)
    return counts


def merge(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys, with the counts of equal keys added.  (A stable
    sort: the keys come as a few sorted runs, which it merges.)"""
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    del order
    if keys.size < 2:
        return keys, counts
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(counts, starts)


def merge_sorted(keys: list[np.ndarray], counts: list[np.ndarray]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``merge`` of the concatenation of sorted distinct tables, one range of
    keys at a time (cut at quantiles of the largest table), so that besides
    the tables and the result it holds one range of about ``RANGE`` states.
    Empties the lists (the tables go as soon as the result is made)."""
    total = sum(k.size for k in keys)
    if total <= RANGE:
        out = merge(np.concatenate(keys), np.concatenate(counts))
        keys.clear()
        counts.clear()
        return out
    big = max(keys, key=lambda k: k.size)
    pieces = -(-total // RANGE)
    cuts = np.unique(big[(np.arange(1, pieces) * big.size) // pieces])
    at = [np.concatenate(([0], np.searchsorted(k, cuts), [k.size])) for k in keys]
    out_k, out_c = [], []
    for r in range(cuts.size + 1):
        k, c = merge(np.concatenate([part[a[r]:a[r + 1]] for part, a in zip(keys, at)]),
                     np.concatenate([part[a[r]:a[r + 1]] for part, a in zip(counts, at)]))
        out_k.append(k)
        out_c.append(c)
    keys.clear()
    counts.clear()
    return np.concatenate(out_k), np.concatenate(out_c)


def sorted_rows(keys: np.ndarray, rows: tuple[int, ...], n: int, orders: bool = True
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """The masks with the fields of ``rows`` sorted, and each one's number of
    orders of equal fields (the stabiliser of the row permutations)."""
    if not rows:
        return keys, np.ones(keys.size, dtype=np.int64)
    width = (1 << n) - 1
    fields = sort_network([(keys >> np.uint64(r * n)) & np.uint64(width) for r in rows])
    out = keys & np.uint64(ALL ^ sum(width << (r * n) for r in rows))
    for f, r in zip(fields, rows):
        out |= f << np.uint64(r * n)
    return out, equal_orders(fields) if orders else None


def sorted_columns(keys: np.ndarray, columns: tuple[int, ...], n: int, orders: bool = True
                   ) -> tuple[np.ndarray, np.ndarray | None]:
    """The masks with the columns ``columns`` in sorted order, and each one's
    number of orders of equal columns.  A column is compared in place, shifted
    to column 0 (its bits ``n`` apart): an injective code, so sorting the codes
    sorts the columns, with no gather of the bits."""
    if not columns:
        return keys, np.ones(keys.size, dtype=np.int64)
    spread = sum(1 << (r * n) for r in range(n))
    fields = sort_network([(keys >> np.uint64(c)) & np.uint64(spread) for c in columns])
    out = keys & np.uint64(ALL ^ sum(spread << c for c in columns))
    for f, c in zip(fields, columns):
        out |= f << np.uint64(c)
    return out, equal_orders(fields) if orders else None


def moved(keys: np.ndarray, lines: tuple[int, ...], targets: tuple[int, ...], n: int,
          rows: bool) -> np.ndarray:
    """The masks with row (or column) ``lines[i]`` moved to ``targets[i]``."""
    if rows:
        line, step = (1 << n) - 1, n
    else:
        line, step = sum(1 << (r * n) for r in range(n)), 1
    out = keys & np.uint64(ALL ^ sum(line << (x * step) for x in lines))
    for x, t in zip(lines, targets):
        bits = keys & np.uint64(line << (x * step))
        out |= bits << np.uint64((t - x) * step) if t >= x else bits >> np.uint64((x - t) * step)
    return out


def canonical(keys: np.ndarray, sym: Symmetry, n: int, orbits: bool = True
              ) -> tuple[np.ndarray, np.ndarray | None]:
    """Each mask's canonical form under ``sym`` and its orbit size (None
    unless ``orbits``: a step needs the forms alone).

    Rows alone: their fields sorted; columns alone: the columns sorted.  Both:
    the least, over the permutations of the smaller group, of the mask moved by
    it and then sorted along the other group: the set of these forms is the
    same for every mask of an orbit (row and column moves commute), so its
    least is a function of the orbit.  The orbit is ``|G| / |stabiliser|``: a
    move of the enumerated group whose sorted form is the mask's own is matched
    by as many moves of the other group as the mask's equal lines allow.
    """
    if not sym.rows or not sym.columns:
        if sym.rows:
            base, repeats = sorted_rows(keys, sym.rows, n, orbits)
        else:
            base, repeats = sorted_columns(keys, sym.columns, n, orbits)
        return base, sym.size // repeats if orbits else None
    by_rows = len(sym.rows) <= len(sym.columns)  # enumerate the rows' moves
    lines = sym.rows if by_rows else sym.columns
    other = sym.columns if by_rows else sym.rows

    def sort(masks: np.ndarray, orders: bool) -> tuple[np.ndarray, np.ndarray | None]:
        if by_rows:
            return sorted_columns(masks, other, n, orders)
        return sorted_rows(masks, other, n, orders)

    base, repeats = sort(keys, orbits)
    best, fixed = base, np.zeros(keys.size if orbits else 0, dtype=np.int64)
    for targets in itertools.permutations(lines):
        if targets == lines:
            fixed += 1
            continue
        form, _ = sort(moved(keys, lines, targets, n, by_rows), False)
        best = np.minimum(best, form)
        if orbits:
            fixed += form == base
    return best, sym.size // (repeats * fixed) if orbits else None


def join(forward: Table, backward: Table, sym: Symmetry, n: int,
         max_bytes: int = DEFAULT_MAX_BYTES) -> int:
    """sum over the forward masks S of forward(S) * backward(~S) / orbit(~S),
    ``RANGE`` forward masks at a time (the products in ``int64`` where their
    sum cannot pass 63 bits, in Python integers otherwise)."""
    if not forward.keys.size or not backward.keys.size:
        return 0
    held = sum(t.keys.size * (8 + count_bytes(t.counts)) for t in (forward, backward))
    afford(held + min(forward.keys.size, RANGE) * (8 * n + 200), max_bytes,
           f"the join of {forward.keys.size:,} and {backward.keys.size:,} masks")
    full = np.uint64(2 ** (n * n) - 1)
    total = 0
    for lo in range(0, forward.keys.size, RANGE):
        wanted, orbit = canonical(forward.keys[lo:lo + RANGE] ^ full, sym, n)
        assert orbit is not None
        at = np.minimum(np.searchsorted(backward.keys, wanted), backward.keys.size - 1)
        found = backward.keys[at] == wanted
        if not found.any():
            continue
        left = forward.counts[lo:lo + RANGE][found]
        right = backward.counts[at[found]] // orbit[found]  # exact: constant on the orbit
        if int(left.max()) * int(right.max()) * left.size < 2**63 and left.dtype != object:
            total += int((left * right).sum())
        else:
            total += int((left.astype(object) * right.astype(object)).sum())
    return total


def choose(puzzle: Futoshiki) -> Futoshiki:
    """The orientation with more free rows (ties: as given)."""
    turned = transpose(puzzle)
    return turned if len(free_rows(turned)) > len(free_rows(puzzle)) else puzzle


def check_puzzle(puzzle: Futoshiki) -> None:
    if puzzle.adjacent:
        raise Unsupported("count-dp: Adjacent mode's bars do not fit its states")
    if puzzle.n > MAX_ORDER:
        raise Unsupported(f"count-dp's value layers take orders up to {MAX_ORDER}")
    for (ar, ac), (br, bc) in puzzle.less:
        if abs(ar - br) + abs(ac - bc) != 1:
            raise Unsupported(f"count-dp: cells ({ar}, {ac}) and ({br}, {bc}) are not "
                              "neighbours; only neighbours may carry an inequality")


def count(puzzle: Futoshiki, *, max_states: int | None = None,
          deadline: Deadline | None = None, stats: dict[str, Any] | None = None,
          split: int | None = None, turn: bool | None = None, folding: bool = True,
          max_bytes: int = DEFAULT_MAX_BYTES) -> int:
    """The exact number of solutions of ``puzzle``.

    Folding (the default, ``folded_count``): one side alone, its states of
    equal futures merged at every layer's end.  Else (``folding=False``, or
    a ``split``) met in the middle: the smaller side (in states, at layer
    ends) is stepped by a whole layer (in pieces where its middle would pass
    the budget) until the two meet at a layer's end.  ``split`` (the forward
    side's units, stepped one by one) and ``turn`` (transpose or not;
    default: the orientation with more free rows) force those choices, which
    are not answers.  Raises ``StateSpaceTooLarge`` past the state budget
    (``max_states``, None: none) or before a step would hold more than
    ``max_bytes`` bytes, and ``LimitReached`` past the deadline.
    """
    with heap_reused():
        return _count(puzzle, max_states, deadline or Deadline(None),
                      stats if stats is not None else {}, split, turn, folding, max_bytes)


def _count(puzzle: Futoshiki, max_states: int | None, deadline: Deadline,
           stats: dict[str, Any], split: int | None, turn: bool | None, folding: bool,
           max_bytes: int) -> int:
    check_puzzle(puzzle)
    n = puzzle.n
    if turn is None:
        puzzle = choose(puzzle)
    elif turn:
        puzzle = transpose(puzzle)
    engine = Engine(puzzle)
    if not engine.ok:
        return 0
    domains = list(engine.dom)
    sym = symmetry(puzzle, domains)
    stats["plan"] = "layers"
    if folding and split is None:
        return folded_count(puzzle, domains, sym, deadline, stats, max_states, max_bytes)
    ahead, behind = units(puzzle, domains)
    forward = Frontier(n, sym, ahead, max_states, max_bytes)
    backward = Frontier(n, sym, behind, max_states, max_bytes)
    total, per_layer = len(ahead), len(ahead) // n
    joined = None
    while forward.done + backward.done < total and forward.size and backward.size:
        if split is not None:
            side = forward if forward.done < split else backward
        else:
            side = forward if forward.size <= backward.size else backward
        held = backward if side is forward else forward
        if split is not None:
            side.step(deadline, held.nbytes)
        elif forward.done + backward.done + per_layer < total or (sym.rows and sym.columns):
            # Whole layers, the smaller side first: the states grow inside a
            # layer and shrink at its end, and a layer is stepped in pieces
            # when its middle would pass the budget.  (The last one's pieces
            # are joined one by one, unless each join would take the forms
            # under both groups: then once, merged.)
            side.layer(per_layer, deadline, held.nbytes)
        else:
            joined = last_layer(side, held, per_layer, sym, deadline, max_bytes)
    stats["states"] = max(forward.peak, backward.peak)
    stats["pieces"] = forward.pieces + backward.pieces
    stats["split"] = f"{forward.done}/{total}"
    if joined is not None:
        stats["forward_states"], stats["backward_states"] = joined[:2]
        return joined[2]
    stats["forward_states"], stats["backward_states"] = forward.size, backward.size
    return join(forward.table(), backward.table(), sym, n, max_bytes)


PROBE_LAYERS = 2  # layers each way before folding picks its direction


def folded_count(puzzle: Futoshiki, domains: list[int], sym: Symmetry, deadline: Deadline,
                 stats: dict[str, Any], max_states: int | None, max_bytes: int) -> int:
    """The count by one side alone, folded at every layer's end (``fold``):
    the values placed up from 1, or down from ``n`` (the forward side of the
    value-reversed puzzle: its clued rows too are placed fewest cells first,
    where the backward side of the meeting keeps the forward's order
    reversed, twice as slow on a hard 7x7).

    Folding merges a layer's states by the clues still open, so the late
    layers, where most clues have settled, hold a few thousand classes: one
    side can go all the way, where meeting in the middle would step the
    other side's wide middle layers unfolded.  The direction is the one
    with fewer classes after ``PROBE_LAYERS`` layers (a few hundred
    thousand states at most): an inequality settles once its smaller cell
    is filled going up, its larger one going down, and a given once its
    value is placed, so which clues settle early differs between the two,
    and the early classes measure it (on the hard 7x7s of the benchmark the
    side with fewer classes after two layers was as fast or up to twice as
    fast as the other).
    """
    n = puzzle.n
    probes = []
    for which, doms in ((puzzle, domains),
                        (reversed_values(puzzle), reversed_domains(domains, n))):
        ahead = units(which, doms)[0]
        per_layer = len(ahead) // n
        side = Frontier(n, sym, ahead, max_states, max_bytes)
        side.pinning = pins(which)
        for _ in range(min(PROBE_LAYERS, n)):
            side.layer(per_layer, deadline, sum(p.nbytes for p in probes))
        probes.append(side)
    side = min(probes, key=lambda p: p.size)  # (ties: up)
    stats["direction"] = "up" if side is probes[0] else "down"
    stats["probe_classes"] = [p.size for p in probes]
    del probes  # (the other side's tables go)
    while side.done < len(side.units) and side.size:
        side.layer(per_layer, deadline, 0)
    stats["states"] = side.peak
    stats["pieces"] = side.pieces
    return sum(int(c) for c in side.counts) if side.done == len(side.units) else 0


def last_layer(side: Frontier, held: Frontier, units: int, sym: Symmetry,
               deadline: Deadline, max_bytes: int) -> tuple[int, int, int]:
    """The last layer: ``side`` steps it in pieces, each joined against
    ``held`` at once and let go, so that no piece is merged and the side's
    last table is never held whole.  Returns the two sides' states at the
    meeting (forward first; a side in pieces: the sum of the pieces') and the
    count."""
    total = 0
    states = 0
    base = side.nbytes  # the layer's input, held beside each piece's join

    def sink(keys: np.ndarray, counts: np.ndarray) -> None:
        nonlocal total, states
        states += keys.size
        total += join(Table(keys, counts, 0), held.table(), sym, side.n, max_bytes - base)

    side.layer(units, deadline, held.nbytes, sink)
    return (states, held.size, total) if side.units[0].value == 1 else (held.size, states, total)
