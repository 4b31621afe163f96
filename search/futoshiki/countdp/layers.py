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

**Met in the middle.** A forward table over the values ``1..h`` (masks
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

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from search.core.contract import Deadline, Unsupported
from search.futoshiki.countdp.rows import DEFAULT_MAX_STATES, StateSpaceTooLarge, transpose
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine

MAX_ORDER = 8  # n * n bits in one uint64
MAX_COLUMNS = 4  # free columns taken as alike (their 4! moves per step)


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
    """The symmetric rows and up to ``MAX_COLUMNS`` free columns (two or more of each), each kept
    only where ``domains`` are alike along it, so that the DP's places (read
    off the domains) are symmetric too."""
    n = puzzle.n
    rows, columns = symmetric_rows(puzzle), symmetric_rows(transpose(puzzle))
    if any(len({domains[r * n + c] for r in rows}) > 1 for c in range(n)):
        rows = ()
    columns = columns[:MAX_COLUMNS]  # any subset is alike too; k columns cost k! moves
    if any(len({domains[r * n + c] for c in columns}) > 1 for r in range(n)):
        columns = ()
    return Symmetry(rows, columns)


def reversed_values(puzzle: Futoshiki) -> Futoshiki:
    """Every value v read as n + 1 - v and every relation reversed (same count)."""
    n = puzzle.n
    givens = tuple(tuple(n + 1 - v if v else 0 for v in row) for row in puzzle.givens)
    return Futoshiki(n, givens, tuple((b, a) for a, b in puzzle.less))


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
    back_domains = [int(f"{d:0{n}b}"[::-1], 2) for d in domains]  # v -> n + 1 - v
    behind = places(reversed_values(puzzle), back_domains)
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
    """One side's states so far, stepped one unit at a time."""

    def __init__(self, n: int, sym: Symmetry, units: list[Unit]):
        self.n, self.sym, self.units = n, sym, units
        self.by_columns = Symmetry((), sym.columns)
        self.done = 0
        self.keys = np.zeros(1, dtype=np.uint64)
        self.counts: np.ndarray = np.ones(1, dtype=np.int64)
        self.peak = 1
        self.columns = [np.uint64(sum(1 << (r * n + c) for r in range(n))) for c in range(n)]

    @property
    def size(self) -> int:
        return int(self.keys.size)

    def step(self, max_states: int, deadline: Deadline) -> None:
        """The next unit."""
        unit = self.units[self.done]
        self.done += 1
        self.counts = wide(self.counts, self.n, unit.value)
        self.keys, self.counts = self.advance(self.keys, self.counts, unit, 0, max_states,
                                              deadline)

    def layer(self, count: int, max_states: int, deadline: Deadline) -> None:
        """The next ``count`` units (a whole layer), in pieces of the states when
        the layer's middle would pass ``max_states``.

        Exact for any partition of the states (a step is linear in the
        counts); the pieces are cut in the order of the fields of the rows
        placed last, which the layer's first units leave alone, so that states
        that would merge mid-layer mostly share a piece.  A piece past the
        budget is halved (so a layer that fits is stepped as before), and the
        pieces' results are merged whenever together they pass half of it.
        """
        units = self.units[self.done:self.done + count]
        self.done += count
        last = 0
        for row in units[-1].rows:
            for place in row[:1]:
                r = (place.bit.bit_length() - 1) // self.n
                last |= ((1 << self.n) - 1) << (r * self.n)
        order = np.argsort(self.keys & np.uint64(last), kind="stable")
        keys, counts = self.keys[order], wide(self.counts[order], self.n, units[-1].value)
        done_k, done_c = [keys[:0]], [counts[:0]]
        lo, size, merged = 0, max(keys.size, 1), 0  # merged: states in done_k[0]
        while lo < keys.size:
            hi = min(lo + size, keys.size)
            held = sum(k.size for k in done_k)
            try:
                k, c = keys[lo:hi], counts[lo:hi]
                for unit in units:
                    k, c = self.advance(k, c, unit, held, max_states, deadline)
            except StateSpaceTooLarge:
                if hi - lo < 2:
                    raise
                size = (hi - lo) // 2  # and so for the pieces after it
                continue
            lo = hi
            done_k.append(k)
            done_c.append(c)
            held += k.size
            if held > max_states // 2 and held - merged > max_states // 4:  # room for pieces
                merged_k, merged_c = merge(np.concatenate(done_k), np.concatenate(done_c))
                done_k, done_c, merged = [merged_k], [merged_c], merged_k.size
                if merged > max_states:
                    raise StateSpaceTooLarge(f"{merged:,} states after value "
                                             f"{units[-1].value} (budget {max_states:,})")
        self.keys, self.counts = merge(np.concatenate(done_k), np.concatenate(done_c))

    def advance(self, keys: np.ndarray, counts: np.ndarray, unit: Unit, held: int,
                max_states: int, deadline: Deadline) -> tuple[np.ndarray, np.ndarray]:
        """``unit`` applied to the states ``keys`` (with ``held`` states kept
        elsewhere: the budget is on their sum)."""
        open_count = np.uint8(unit.value - 1)
        for row in unit.rows:
            deadline.check()
            is_open: dict[int, np.ndarray] = {}
            chunks_k, chunks_c = [], []
            for place in row:
                if place.column not in is_open:
                    is_open[place.column] = (
                        np.bitwise_count(keys & self.columns[place.column]) == open_count)
                ok = is_open[place.column] & ((keys & np.uint64(place.avoid)) == 0)
                if place.need:
                    need = np.uint64(place.need)
                    ok &= (keys & need) == need
                chosen = np.compress(ok, keys)
                if chosen.size:
                    chunks_k.append(chosen | np.uint64(place.bit))
                    chunks_c.append(np.compress(ok, counts))
            if not chunks_k:
                return keys[:0], counts[:0]
            keys = np.concatenate(chunks_k)
            if self.sym.columns:  # alike after every row too: fewer states mid-layer
                keys, _ = canonical(keys, self.by_columns, self.n)
            keys, counts = merge(keys, np.concatenate(chunks_c))
            if keys.size + held > max_states:
                raise StateSpaceTooLarge(f"{keys.size + held:,} states placing value "
                                         f"{unit.value} (budget {max_states:,})")
            self.peak = max(self.peak, int(keys.size) + held)
        if unit.sort or self.sym.columns:
            # Free columns are alike after every unit (a unit fills rows, never
            # columns), free rows once a unit leaves them all alike: always.
            keys, _ = canonical(keys, self.sym, self.n)
            keys, counts = merge(keys, counts)
        return keys, counts

    def table(self) -> Table:
        return Table(self.keys, self.counts, self.peak)


def wide(counts: np.ndarray, n: int, value: int) -> np.ndarray:
    """``counts`` as Python integers once ``(n!)^value`` (their bound) passes 62 bits."""
    if counts.dtype != object and math.factorial(n) ** value >= 2**62:
        return counts.astype(object)
    return counts


def merge(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys, with the counts of equal keys added."""
    order = np.argsort(keys)
    keys, counts = keys[order], counts[order]
    if keys.size < 2:
        return keys, counts
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(counts, starts)


def sorted_rows(keys: np.ndarray, rows: tuple[int, ...], n: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """The masks with the fields of ``rows`` sorted, and each one's number of
    orders of equal fields (the stabiliser of the row permutations)."""
    repeats = np.ones(keys.size, dtype=np.int64)
    if not rows:
        return keys, repeats
    width = np.uint64((1 << n) - 1)
    fields = np.stack([(keys >> np.uint64(r * n)) & width for r in rows])
    fields.sort(axis=0)
    out = keys.copy()
    for r in rows:
        out &= ~(width << np.uint64(r * n))
    runs = np.ones(keys.size, dtype=np.int64)
    for k, r in enumerate(rows):
        out |= fields[k] << np.uint64(r * n)
        if k:
            runs = np.where(fields[k] == fields[k - 1], runs + 1, 1)
            repeats *= runs
    return out, repeats


def moved_columns(keys: np.ndarray, columns: tuple[int, ...], targets: tuple[int, ...],
                  n: int) -> np.ndarray:
    """The masks with column ``columns[i]`` moved to ``targets[i]``."""
    column = [sum(1 << (r * n + c) for r in range(n)) for c in range(n)]
    out = keys & np.uint64(((1 << n * n) - 1) ^ sum(column[c] for c in columns))
    for c, t in zip(columns, targets):
        bits = keys & np.uint64(column[c])
        out |= bits << np.uint64(t - c) if t >= c else bits >> np.uint64(c - t)
    return out


def canonical(keys: np.ndarray, sym: Symmetry, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each mask's canonical form under ``sym`` and its orbit size.

    The form is the least, over the column permutations, of the mask with
    those columns moved and the rows' fields sorted: the set of these forms is
    the same for every mask of an orbit (row and column moves commute), so its
    least is a function of the orbit.  The orbit is ``|G| / |stabiliser|``;
    a pair (row order, column order) fixes the mask when the moved mask sorts
    to the same form as the mask itself, with one of the ``repeats`` row orders.
    """
    base, repeats = sorted_rows(keys, sym.rows, n)
    if len(sym.columns) < 2:
        return base, sym.size // repeats
    best, fixed = base, np.zeros(keys.size, dtype=np.int64)
    for targets in itertools.permutations(sym.columns):
        form, _ = sorted_rows(moved_columns(keys, sym.columns, targets, n), sym.rows, n)
        best = np.minimum(best, form)
        fixed += form == base
    return best, sym.size // (repeats * fixed)


def join(forward: Table, backward: Table, sym: Symmetry, n: int) -> int:
    """sum over the forward masks S of forward(S) * backward(~S) / orbit(~S)."""
    if not forward.keys.size or not backward.keys.size:
        return 0
    full = np.uint64(2 ** (n * n) - 1)
    wanted = forward.keys ^ full
    wanted, orbit = canonical(wanted, sym, n)
    at = np.minimum(np.searchsorted(backward.keys, wanted), backward.keys.size - 1)
    found = backward.keys[at] == wanted
    if not found.any():
        return 0
    left = forward.counts[found].astype(object)
    right = backward.counts[at[found]] // orbit[found]  # exact: constant on the orbit
    return int((left * right.astype(object)).sum())


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


def count(puzzle: Futoshiki, *, max_states: int = DEFAULT_MAX_STATES,
          deadline: Deadline | None = None, stats: dict[str, Any] | None = None,
          split: int | None = None, turn: bool | None = None) -> int:
    """The exact number of solutions of ``puzzle``.

    The smaller side (in states, at layer ends) is stepped by a whole layer
    (in pieces where its middle would pass ``max_states``) until the two meet
    at a layer's end.  ``split`` (the forward side's units, stepped one by
    one) and ``turn`` (transpose or not; default: the orientation with more
    free rows) force those choices, which are not answers.  Raises
    ``StateSpaceTooLarge`` past the state budget and ``LimitReached`` past the
    deadline.
    """
    deadline = deadline or Deadline(None)
    stats = stats if stats is not None else {}
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
    ahead, behind = units(puzzle, domains)
    forward, backward = Frontier(n, sym, ahead), Frontier(n, sym, behind)
    total, per_layer = len(ahead), len(ahead) // n
    while forward.done + backward.done < total and forward.size and backward.size:
        if split is not None:
            side = forward if forward.done < split else backward
        else:
            side = forward if forward.size <= backward.size else backward
        if split is None:
            # Whole layers, the smaller side first: the states grow inside a
            # layer and shrink at its end, and a layer is stepped in pieces
            # when its middle would pass the budget, so the sides meet where
            # the states are fewest, at a layer's end.
            side.layer(per_layer, max_states, deadline)
        else:
            side.step(max_states, deadline)
    stats["plan"] = "layers"
    stats["states"] = max(forward.peak, backward.peak)
    stats["forward_states"], stats["backward_states"] = forward.size, backward.size
    stats["split"] = f"{forward.done}/{total}"
    return join(forward.table(), backward.table(), sym, n)
