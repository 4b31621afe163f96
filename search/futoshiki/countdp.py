"""The ``count-dp`` backend: counting without visiting solutions one by one.

Dynamic programming over the cells in row-major order.  After each cell the
state of a partial square is what the rest of the square can still see of it:

* per column, the set of values already used (``n`` bits each);
* the set of values used in the current row (``n`` bits);
* the value of the last filled cell of a column, only while an inequality
  still links it to an empty cell (its right or lower neighbour).

Partial squares with equal states have equally many completions, so their
counts are added and only one state is kept.  Columns that the rest of the
puzzle treats alike (same candidate values in every empty cell, no
inequality, no live value) can be permuted, so their sets are sorted: this is
the symmetry of a square without clues (and of the clue-free part of any
square), applied only where the puzzle has it.  For the empty square it also
amounts to fixing the first row: after it, all states are one.

Dead states are dropped early: a value that leaves a linked neighbour no
value, or a failed Hall test on the cell's column or row.

States are packed in one 64-bit integer when ``n * n + n`` bits plus one
value field per column carrying an inequality fit (``n <= 6``; ``n = 7``
without inequalities), and the step is vectorised with numpy: for each
candidate value, filter the states that admit it, build the new keys, then
sort and add equal keys.  Larger keys use Python integers in object arrays
(same code, much slower), so for them a puzzle with few solutions is first
given to ``propagate`` for a moment.
Counts are numpy ``int64`` while the number of Latin squares of the order fits
(``n <= 7``: at most 6.1e13), Python integers beyond.

When a step would need more than the memory cap (option ``memory``, bytes;
default 1 GiB), the backend falls back to the ``propagate`` backend's
streaming count and says so in the result's message.  ``solve`` and
``unique`` are delegated to ``propagate``: a count of one says nothing about
the solution itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from search.core import (
    CountResult,
    Deadline,
    LimitReached,
    SolveResult,
    Status,
    UniqueResult,
    Unsupported,
    since,
)
from search.futoshiki.backend import FutoshikiBackend
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine, PropagateBackend

DEFAULT_MEMORY = 1 << 30  # bytes
BYTES_PER_STATE = 64  # keys, counts and the temporaries of one step, per candidate state
INT64_SAFE_ORDER = 7  # the number of Latin squares of order <= 7 fits in int64
QUICK_SECONDS = 1.0  # propagate's turn before a DP on Python integers


class StateSpaceTooLarge(Exception):
    """The next step would need more memory than the cap allows."""


@dataclass(frozen=True)
class Step:
    """What filling one cell does to the packed state."""

    column: int  # shift of this cell's column set in the key
    row: int  # shift of the row set in the key
    values: tuple[int, ...]  # candidate values (after root propagation)
    left: tuple[int, int] | None  # (field shift, sign): left neighbour vs this cell
    up: tuple[int, int] | None  # (field shift, sign): upper neighbour vs this cell
    write: int | None  # shift of this column's field if a later cell needs the value
    clear: int  # bits of fields no longer needed after this cell (and row bits at row end)
    groups: tuple[tuple[int, ...], ...]  # shifts of column sets that may be sorted
    # Dead-state tests after this cell.  ``ahead``: (shifts, {value: mask}) -- a
    # neighbour linked by an inequality needs a value of ``mask`` that none of the
    # value sets at ``shifts`` holds yet.  ``hall``: (shift, values, most) -- the
    # set at ``shift`` holds at most ``most`` of ``values``, or the empty cells of
    # its line whose candidates are within ``values`` cannot all be filled.
    ahead: tuple[tuple[tuple[int, ...], dict[int, int]], ...] = ()
    hall: tuple[tuple[int, int, int], ...] = ()


class Plan:
    """The steps of the DP for one puzzle, from its root-propagated domains."""

    def __init__(self, puzzle: Futoshiki, domains: list[int]):
        n = self.n = puzzle.n
        for (ar, ac), (br, bc) in puzzle.less:
            if abs(ar - br) + abs(ac - bc) != 1:
                raise Unsupported(f"count-dp: cells ({ar}, {ac}) and ({br}, {bc}) are not "
                                  "neighbours; only neighbours may carry an inequality")
        self.width = n.bit_length()
        relation = puzzle.relation
        related = {cell for pair in puzzle.less for cell in pair}
        field_columns = sorted({c for _, c in related})
        # Live values lowest, then the row's set, then the columns' sets: filling a
        # cell then maps sorted keys to nearly sorted keys, which sorts fast.
        self.field_shift = {c: k * self.width for k, c in enumerate(field_columns)}
        self.row_shift = len(field_columns) * self.width
        self.column_shift = [self.row_shift + n + c * n for c in range(n)]
        self.bits = self.row_shift + n + n * n
        row_bits = ((1 << n) - 1) << self.row_shift
        steps = []
        for r in range(n):
            for c in range(n):
                cell = (r, c)
                left = up = None
                if c and (r, c - 1) in related and ((r, c - 1), cell) in relation:
                    left = (self.field_shift[c - 1], relation[(r, c - 1), cell])
                if r and ((r - 1, c), cell) in relation:
                    up = (self.field_shift[c], relation[(r - 1, c), cell])
                later = [(r, c + 1), (r + 1, c)]
                needed = any((cell, other) in relation for other in later)
                clear = 0
                if c - 1 in self.field_shift and ((r, c - 1), (r + 1, c - 1)) not in relation:
                    clear |= ((1 << self.width) - 1) << self.field_shift[c - 1]
                if c in self.field_shift and not needed:
                    clear |= ((1 << self.width) - 1) << self.field_shift[c]
                if c == n - 1:
                    clear |= row_bits
                    if c in self.field_shift and (cell, (r + 1, c)) not in relation:
                        clear |= ((1 << self.width) - 1) << self.field_shift[c]
                values = tuple(v for v in range(1, n + 1) if domains[r * n + c] >> (v - 1) & 1)
                groups = self._groups(puzzle, domains, r, c, related)
                write = self.field_shift[c] if needed else None
                ahead = self._ahead(domains, relation, r, c, values)
                values = tuple(v for v in values if all(m.get(v, 1) for _, m in ahead))
                hall = self._hall(domains, r, c)
                column = self.column_shift[c]
                steps.append(Step(
                    column, self.row_shift, values, left, up, write, clear, groups, ahead, hall
                ))
        self.steps = steps

    def _ahead(
        self, domains: list[int], relation: dict, r: int, c: int, values: tuple[int, ...]
    ) -> tuple[tuple[tuple[int, ...], dict[int, int]], ...]:
        n = self.n
        out = []
        below = (self.column_shift[c],)
        right = (self.column_shift[min(c + 1, n - 1)], self.row_shift)
        for other, shifts in (((r + 1, c), below), ((r, c + 1), right)):
            sign = relation.get(((r, c), other))
            if sign is None:
                continue
            candidates = domains[other[0] * n + other[1]]
            masks = {}
            for v in values:
                side = ~((1 << v) - 1) if sign < 0 else (1 << (v - 1)) - 1
                masks[v] = candidates & side
            out.append((shifts, masks))
        return tuple(out)

    def _hall(self, domains: list[int], r: int, c: int) -> tuple[tuple[int, int, int], ...]:
        """Hall tests on the column and the row of cell (r, c), for the subsets of
        at most three of their empty cells whose test can fail."""
        n = self.n
        tests: dict[tuple[int, int], int] = {}
        lines = [(self.column_shift[c], [domains[y * n + c] for y in range(r + 1, n)])]
        lines.append((self.row_shift, [domains[r * n + x] for x in range(c + 1, n)]))
        for shift, empty in lines:
            used = n - len(empty)
            for size in range(1, min(3, len(empty)) + 1):
                for subset in combinations(empty, size):
                    union = 0
                    for d in subset:
                        union |= d
                    most = union.bit_count() - size
                    if most < used and tests.get((shift, union), n) > most:
                        tests[shift, union] = most
        return tuple((shift, union, most) for (shift, union), most in tests.items())

    def _groups(
        self, puzzle: Futoshiki, domains: list[int], r: int, c: int, related: set
    ) -> tuple[tuple[int, ...], ...]:
        """Columns interchangeable after filling (r, c): equal candidates in every
        empty cell, no inequality touching an empty cell or a live value."""
        n = self.n
        by_signature: dict[tuple, list[int]] = {}
        for x in range(n):
            first = r + 1 if x <= c else r  # first empty row of column x
            if c == n - 1:
                first = r + 1
            cells = [(y, x) for y in range(first, n)]
            if any(cell in related for cell in cells):
                continue
            if first > 0 and (first - 1, x) in related:
                continue  # its last filled value may still be needed
            signature = (x <= c and c != n - 1, tuple(domains[y * n + x] for y, _ in cells))
            by_signature.setdefault(signature, []).append(x)
        groups = [g for g in by_signature.values() if len(g) > 1]
        return tuple(tuple(self.column_shift[x] for x in g) for g in groups)


def count_dp(
    puzzle: Futoshiki,
    *,
    memory: int = DEFAULT_MEMORY,
    deadline: Deadline | None = None,
    stats: dict[str, float] | None = None,
) -> int:
    """The exact number of solutions of ``puzzle``.

    Raises ``StateSpaceTooLarge`` past the memory cap and ``LimitReached``
    past the deadline.
    """
    deadline = deadline or Deadline(None)
    stats = stats if stats is not None else {}
    engine = Engine(puzzle)
    if not engine.ok:
        return 0
    plan = Plan(puzzle, engine.dom)
    n = plan.n
    wide = plan.bits > 63
    key_type = object if wide else np.int64
    count_type = np.int64 if n <= INT64_SAFE_ORDER else object
    keys = np.zeros(1, dtype=key_type)
    counts = np.ones(1, dtype=count_type)
    peak = 1
    for step in plan.steps:
        deadline.check()
        needed = len(keys) * len(step.values) * BYTES_PER_STATE * (8 if wide else 1)
        if needed > memory:
            raise StateSpaceTooLarge(
                f"{len(keys):,} states x {len(step.values)} values would need about "
                f"{needed / 2**20:,.0f} MiB (cap {memory / 2**20:,.0f} MiB)"
            )
        keys, counts = _advance(keys, counts, step, n, key_type, deadline)
        if not len(keys):
            return 0
        deadline.check()
        keys = _canonical(keys, step.groups, n, key_type)
        deadline.check()
        keys, counts = _merge(keys, counts)
        peak = stats["states"] = max(peak, len(keys))
    return int(counts.sum())


def _advance(
    keys: np.ndarray, counts: np.ndarray, step: Step, n: int, key_type: Any, deadline: Deadline
) -> tuple[np.ndarray, np.ndarray]:
    """All states after filling the step's cell with each candidate value."""
    c = step.column
    width_mask = (1 << n.bit_length()) - 1
    left = up = None
    if step.left is not None:
        left = (keys >> step.left[0]) & width_mask
    if step.up is not None:
        up = (keys >> step.up[0]) & width_mask
    new_keys, new_counts = [], []
    keep = ~step.clear
    hall = key_type is not object  # numpy counts bits of fixed-width integers only
    for v in step.values:
        deadline.check()
        bits = (1 << (c + v - 1)) | (1 << (step.row + v - 1))
        ok = (keys & bits) == 0
        if left is not None:  # sign -1: left < this cell
            ok &= (left < v) if step.left[1] < 0 else (left > v)
        if up is not None:
            ok &= (up < v) if step.up[1] < 0 else (up > v)
        chosen = keys[ok]
        if not len(chosen):
            continue
        if step.write is not None:
            chosen = (chosen & ~(width_mask << step.write)) | (v << step.write)
        chosen = (chosen | bits) & keep
        chosen_counts = counts[ok]
        alive = None
        for shifts, masks in step.ahead:
            mask = masks[v]
            used = chosen >> shifts[0]
            for shift in shifts[1:]:
                used = used | (chosen >> shift)
            test = (used & mask) != mask
            alive = test if alive is None else alive & test
        if hall:
            for shift, union, most in step.hall:
                test = np.bitwise_count((chosen >> shift) & union) <= most
                alive = test if alive is None else alive & test
        if alive is not None:
            chosen, chosen_counts = chosen[alive], chosen_counts[alive]
        new_keys.append(chosen)
        new_counts.append(chosen_counts)
    if not new_keys:
        return np.zeros(0, dtype=key_type), np.zeros(0, dtype=counts.dtype)
    return np.concatenate(new_keys), np.concatenate(new_counts)


def _canonical(
    keys: np.ndarray, groups: tuple[tuple[int, ...], ...], n: int, key_type: Any
) -> np.ndarray:
    """Sort the value sets of interchangeable columns inside each key."""
    column_mask = (1 << n) - 1
    for group in groups:
        sets = np.stack([(keys >> x) & column_mask for x in group], axis=1)
        sets.sort(axis=1)
        cleared = sum(column_mask << x for x in group)
        keys = keys & ~cleared
        for k, x in enumerate(group):
            keys = keys | (sets[:, k] << x)
    return keys


def _merge(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One key per state, with the counts of equal keys added (exactly)."""
    if len(keys) < 2:
        return keys, counts
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(counts, starts)


def key_bits(puzzle: Futoshiki) -> int:
    """Bits of a packed state: the column and row sets plus one field per column
    that carries an inequality."""
    n = puzzle.n
    columns = {c for pair in puzzle.less for _, c in pair}
    return n * n + n + len(columns) * n.bit_length()


class CountDPBackend(FutoshikiBackend):
    """Counts by dynamic programming over the cells; solve/unique via propagate.

    Options: ``memory`` (bytes, default 1 GiB) caps the state table; past it
    the count falls back to ``propagate``.  When states do not fit in 64 bits
    (``n >= 8``, or ``n = 7`` with inequalities) the DP runs on Python
    integers, so a puzzle with few solutions is first given to ``propagate``
    for ``QUICK_SECONDS``; ``dp_only=True`` skips that.
    """

    @dataclass(frozen=True)
    class Options:
        memory: int = DEFAULT_MEMORY  # bytes of state table before falling back
        dp_only: bool = False  # never hand a count to propagate first
        progress: bool = True  # propagate's progress lines, where it counts

    name = "count-dp"
    calls = frozenset({"count", "solve", "unique", "check"})
    rules = frozenset()  # its states have no room for Adjacent mode's bars

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.memory = self.opts.memory
        self.dp_only = self.opts.dp_only
        self.helper = PropagateBackend(progress=self.opts.progress)

    def solve(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> SolveResult:
        self.refuse_undeclared_rules(puzzle)
        result = self.helper.solve(puzzle, time_limit=time_limit)
        self.effort = dict(self.helper.effort)
        return result

    def unique(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> UniqueResult:
        self.refuse_undeclared_rules(puzzle)
        result = self.helper.unique(puzzle, time_limit=time_limit)
        self.effort = dict(self.helper.effort)
        return result

    def count(
        self, puzzle: Futoshiki, *, limit: int | None = None, time_limit: float | None = None
    ) -> CountResult:
        self.refuse_undeclared_rules(puzzle)
        start = time.perf_counter()
        if limit is not None and limit <= 0:
            return CountResult(Status.LIMIT, 0, 0.0)
        deadline = Deadline(time_limit)
        if not self.dp_only and key_bits(puzzle) > 63:
            budget = QUICK_SECONDS if time_limit is None else min(QUICK_SECONDS, time_limit)
            quick = self.helper.count(puzzle, limit=limit, time_limit=budget)
            capped = limit is not None and quick.count >= limit
            if quick.complete or capped or quick.message.startswith("interrupted"):
                self.effort = {**self.helper.effort, "propagate": 1}
                message = "few solutions: counted by propagate"
                if quick.message:
                    message += f" ({quick.message})"
                return CountResult(quick.status, quick.count, since(start), self.effort, message)
        stats: dict[str, float] = {}
        try:
            total = count_dp(puzzle, memory=self.memory, deadline=deadline, stats=stats)
        except LimitReached:
            self.effort = stats
            return CountResult(Status.LIMIT, 0, since(start), stats, "time limit")
        except KeyboardInterrupt:
            self.effort = stats
            return CountResult(Status.LIMIT, 0, since(start), stats, "interrupted")
        except StateSpaceTooLarge as error:
            result = self.helper.count(puzzle, limit=limit, time_limit=deadline.remaining())
            self.effort = {**self.helper.effort, "fallback": 1}
            message = f"count-dp: {error}; counted with propagate instead"
            if result.message:
                message += f" ({result.message})"
            return CountResult(result.status, result.count, since(start), self.effort, message)
        self.effort = stats
        if limit is not None and total >= limit:
            # Same answer as every backend at a cap (LIMIT, count = the cap); the
            # exact number goes to the message.
            return CountResult(Status.LIMIT, limit, since(start), stats, f"exact count {total}")
        return CountResult(Status.COUNTED, total, since(start), stats)

