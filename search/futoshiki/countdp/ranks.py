"""Exact Futoshiki counts cell by cell, the values named by rank as clues meet them.

The rows plan keeps every value's identity in its states, because an
inequality ahead compares values: on an 8x8 with clues in three rows, tens of
millions of states mid-row.  Yet an inequality compares only the values of
its own two cells.  So this plan leaves values anonymous until a clued cell
takes one, and then names it by its rank among the values named so far, not
by what it is:

* a state's values are *slots*: slots ``0..m-1`` the named values in
  increasing order (the *chain*), the others anonymous;
* the givens' values are named from the start (their labels carry the
  value); they cut the values into *gaps* (below the least given, between
  two, above the greatest), and an anonymous value keeps its gap;
* a cell with an inequality that takes an anonymous value names it: the new
  label goes to any place in the chain, inside its gap, that the cell's
  filled neighbours allow (their values are labels, so the test compares
  slots);
* the anonymous values of a gap are alike to everything ahead, so states
  equal up to their order are one state (kept sorted), and so are states
  equal up to the order of columns that nothing ahead tells apart.

A state stands for the partial squares it abstracts, and its count is their
number divided by the ways to give the labels values (``C(s, k)`` for a gap
of ``s`` values holding ``k`` labels).  That is an integer, and stays one:
when one of the ``t`` anonymous values of one pattern in a gap with ``k`` of
its ``s`` values named becomes a label at one place, the count is multiplied
by ``t`` and divided by ``s - k`` (over the squares of a state, an anonymous
value falls in each place between the labels equally often).  After the last
clued cell the chain is folded back into the counts (times its ways) and
every value is anonymous from there on.

A label lives until that fold: forgetting one earlier would lose the order
it has with the values it was compared to, which the counts rest on.  So the
clued cells come first, every one of them (row by row), and the labels live
only while they are placed; a row they open is one more line of the state
beside the columns (a slot's pattern: the lines holding its value).  Then
the rest of each row, the rows with the most cells filled first, and the
free rows.  An 8x8 with an inequality in each of two rows and a given in a
third peaks at 53,939 states, the empty square's own peak (the rows plan: 32
million, 2.5 GB); clues in five rows of both orientations leave rows open
long, and pass ten million states.

The states are flat tables in the compiled kernel ``ranks_kernel`` where it
was built (a state in 28-36 bytes on an 8x8, its count as residues read back
exactly at the end; the square's two orientations race there), bounded by
the memory budget and the caller's state budget; elsewhere Python
dictionaries with exact integer counts, bounded in states (``MAX_STATES``
unless the caller gives fewer) and in bytes estimated from their number.  The
same steps and canonical forms: the same states.  Never bounded in time.
"""
from __future__ import annotations

import math
from array import array
from dataclasses import dataclass
from functools import cache, cached_property
from operator import getitem
from typing import Any

import numpy as np

from search.core.compiled import is_compiled, load
from search.core.contract import Deadline, Unsupported
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.countdp.rows import MB, StateSpaceTooLarge
from search.futoshiki.model import Cell, Futoshiki
from search.futoshiki.propagate import Engine

STATE_BYTES = 400  # a state in a dictionary, with the step before beside it (measured: 385)
MAX_STATES = 1_500_000  # dictionary states: about 580 MB (the memory budget's scale)
CHECK_EVERY = 4096  # states between two looks at the budget and the deadline
FIELD, TYPECODE = 16, "H"  # bits of a packed pattern or line set, and its array type
MAX_LINES = FIELD  # columns and open rows at once: a pattern's bits
KERNEL = load("search.futoshiki.countdp.ranks_kernel")  # the step, compiled where built
COMPILED = is_compiled(KERNEL)  # interpreted, the dictionaries below run it instead
PRIMES = (4294967291, 4294967279, 4294967231, 4294967197, 4294967189, 4294967161)  # below 2**32
CHUNK = 1 << 16  # states the kernel steps between two looks at the deadline
BATCH = 16  # states' successors, at most, that the kernel merges together


@dataclass(frozen=True)
class Place:
    """Filling one cell."""

    column: int
    given: int  # its given value, or 0
    names: bool  # it carries an inequality: an anonymous value it takes is named
    links: tuple[tuple[int, int], ...]  # (index in the fields before, sign): filled neighbours
    fields: tuple[int, ...]  # the fields after: indices in the fields before, -1 this cell
    row: int  # the bit of its row in the patterns
    closes: bool  # the last cell of its row: the row's bit is cleared after it
    groups: tuple[tuple[int, ...], ...]  # columns nothing ahead tells apart
    fold: bool  # the last clued cell: the chain is folded into the counts after it


@dataclass(frozen=True)
class Gaps:
    """The values' gaps between the givens' values (``sizes``: how many values
    each holds that no given has)."""

    values: tuple[int, ...]  # the givens' values, increasing
    sizes: tuple[int, ...]

    @staticmethod
    def of(n: int, values: tuple[int, ...]) -> Gaps:
        bounds = (0, *values, n + 1)
        return Gaps(values, tuple(b - a - 1 for a, b in zip(bounds, bounds[1:], strict=False)))


@dataclass(frozen=True, eq=False)  # one object per chain (``_chain``): compared by identity
class Chain:
    """The named values in increasing order: 0 a label of an inequality's
    cell, ``g`` the label of the given value ``g``."""

    labels: tuple[int, ...]
    gaps: Gaps

    @cached_property
    def named(self) -> tuple[int, ...]:
        """Per gap, its labels that no given has."""
        out, j = [0] * len(self.gaps.sizes), 0
        for label in self.labels:
            if label:
                j = self.gaps.values.index(label) + 1
            else:
                out[j] += 1
        return tuple(out)

    @cached_property
    def tokens(self) -> tuple[tuple[int, int], ...]:
        """Per gap, the slots ``[lo, hi)`` of its anonymous values."""
        out, lo = [], len(self.labels)
        for size, named in zip(self.gaps.sizes, self.named, strict=True):
            out.append((lo, lo + size - named))
            lo += size - named
        return tuple(out)

    def places(self, gap: int) -> range:
        """Where a new label of ``gap`` may go in the chain."""
        values = self.gaps.values
        lo = 0 if gap == 0 else self.labels.index(values[gap - 1]) + 1
        hi = len(self.labels) if gap == len(values) else self.labels.index(values[gap])
        return range(lo, hi + 1)

    def ways(self) -> int:
        """The ways to give the labels values."""
        return math.prod(math.comb(s, k) for s, k in zip(self.gaps.sizes, self.named,
                                                          strict=True))


@cache
def _chain(labels: tuple[int, ...], gaps: Gaps) -> Chain:
    return Chain(labels, gaps)  # (one object per chain: states share it)


@cache
def _tables(n: int, lines: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Lookup tables that turn line sets into slot patterns and back.

    The lines are the ``n`` columns and then the open rows; a slot's pattern
    has bit ``x`` when line ``x`` holds its value.  Patterns and line sets are
    packed in fields of ``FIELD`` bits (so that bytes hold them: a state's
    key is its patterns' bytes).  ``across[x][set]`` spreads line ``x``'s set
    over the packed patterns; ``down[s][pattern]`` spreads slot ``s``'s
    pattern over the packed line sets."""
    across = tuple(tuple(sum(1 << (s * FIELD + x) for s in range(n) if v >> s & 1)
                         for v in range(1 << n)) for x in range(lines))
    down = tuple(tuple(sum(1 << (x * FIELD + s) for x in range(lines) if p >> x & 1)
                       for p in range(1 << lines)) for s in range(n))
    return across, down


def _fields(packed: int, count: int) -> list[int]:
    """The ``count`` fields of a packed integer."""
    return memoryview(packed.to_bytes(count * FIELD // 8, "little")).cast(TYPECODE).tolist()


class Plan:
    """A puzzle's rows, cell by cell, and the arithmetic of its states."""

    def __init__(self, puzzle: Futoshiki, rows: tuple[int, ...]):
        n = self.n = puzzle.n
        relation = puzzle.relation
        givens = {(r, c): puzzle.givens[r][c] for r in range(n) for c in range(n)
                  if puzzle.givens[r][c]}
        related = {cell for pair in puzzle.less for cell in pair}
        clued = related | set(givens)
        # Every clued cell first, row by row; then the rest of each row, the
        # rows with the most cells filled first (an open row's filled cells
        # tell its columns and values apart).
        cells = [(r, c) for r in rows for c in range(n) if (r, c) in clued]
        filled = {r: sum(1 for c in range(n) if (r, c) in clued) for r in rows}
        for r in sorted(rows, key=lambda r: -filled[r]):
            cells += [(r, c) for c in range(n) if (r, c) not in clued]
        self.cells = tuple(cells)
        at = {cell: i for i, cell in enumerate(cells)}
        if any(a not in at or b not in at for a, b in puzzle.less):
            raise Unsupported("count-dp: an inequality outside the rows counted")
        last = max((i for i, x in enumerate(cells) if x in clued), default=-1)
        self.gaps = Gaps.of(n, tuple(sorted(set(givens.values()))))
        self.start = _chain(self.gaps.values, self.gaps) if last >= 0 else None
        # An open row (some of its cells filled, not all) is a line of the
        # state after the columns; rows open at once take different bits.
        first = {r: min(at[r, c] for c in range(n)) for r in rows}
        end = {r: max(at[r, c] for c in range(n)) for r in rows}
        bit: dict[int, int] = {}
        for r in sorted(rows, key=first.__getitem__):
            taken = {bit[q] for q in bit if end[q] > first[r]}
            bit[r] = min(set(range(n, n + len(rows))) - taken)
        self.lines = max(bit.values()) + 1
        if self.lines > MAX_LINES:
            raise StateSpaceTooLarge(f"{self.lines - n} rows open at once: more than "
                                     f"{MAX_LINES - n} beside the columns")

        def pending(t: int) -> tuple[Cell, ...]:
            """Filled cells whose linked neighbour is still to come."""
            return tuple(x for x in cells[:t + 1] if x in related and any(
                at[y] > t for y in rowdp.Square.neighbours(x) if (x, y) in relation))

        places, before = [], ()
        for t, (r, c) in enumerate(cells):
            after = pending(t)
            links = tuple((before.index(y), relation[(r, c), y]) for y in before
                          if ((r, c), y) in relation)
            fields = tuple(-1 if x == (r, c) else before.index(x) for x in after)
            ahead = {x for y, x in cells[t + 1:] if (y, x) in clued}
            open_rows = [q for q in rows if first[q] <= t < end[q]]
            by_kind: dict[tuple[bool, ...], list[int]] = {}
            for x in range(n):  # alike: no clue ahead, filled in the same open rows
                if x not in ahead:
                    by_kind.setdefault(tuple(at[q, x] <= t for q in open_rows), []).append(x)
            groups = tuple(tuple(g) for g in by_kind.values() if len(g) > 1)
            places.append(Place(c, givens.get((r, c), 0), (r, c) in related, links, fields,
                                1 << bit[r], t == end[r], groups, t == last))
            before = after
        self.places = tuple(places)

    @cached_property
    def tables(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """``_tables`` of its lines (the dictionaries' canonical forms alone use them)."""
        return _tables(self.n, self.lines)

    def patterns(self, key: bytes) -> list[int]:
        return memoryview(key).cast(TYPECODE).tolist()

    def canonical(self, patterns: list[int], tokens: tuple[tuple[int, int], ...],
                  groups: tuple[tuple[int, ...], ...]) -> bytes:
        """The key of a state equal to this one up to the order of each gap's
        anonymous values and of each group's columns (not always the least
        such: a representative, enough for a count)."""
        for lo, hi in tokens:
            if hi - lo > 1:
                patterns[lo:hi] = sorted(patterns[lo:hi])
        if groups:  # (sorting again until nothing moves merges few more: 6 % on the empty 8x8)
            across, down = self.tables
            sets = _fields(sum(map(getitem, down, patterns)), self.lines)
            moved = False
            for group in groups:
                now = [sets[x] for x in group]
                ordered = sorted(now)
                if ordered != now:
                    moved = True
                    for x, v in zip(group, ordered, strict=True):
                        sets[x] = v
            if moved:
                patterns = _fields(sum(map(getitem, across, sets)), self.n)
                for lo, hi in tokens:
                    if hi - lo > 1:
                        patterns[lo:hi] = sorted(patterns[lo:hi])
        return array(TYPECODE, patterns).tobytes()


State = tuple[bytes, tuple[int, ...], Chain | None]  # patterns, fields, chain


def _successors(plan: Plan, place: Place, patterns: list[int], fields: tuple[int, ...],
                chain: Chain | None) -> list[tuple[int, int, Chain | None, int, int]]:
    """(slot, place of a new label or -1, chain, times, divided by) for each
    way to fill the cell."""
    bit, row = 1 << place.column, place.row
    free = [s for s in range(plan.n) if not patterns[s] & (bit | row)]
    labels = len(chain.labels) if chain is not None else 0

    def allowed(slot: int) -> bool:
        return all(slot < fields[i] if sign < 0 else slot > fields[i] for i, sign in place.links)

    out = []
    if place.given:
        assert chain is not None
        slot = chain.labels.index(place.given)
        if slot in free and allowed(slot):
            out.append((slot, -1, chain, 1, 1))
        return out
    for slot in free:
        if slot < labels and allowed(slot):
            out.append((slot, -1, chain, 1, 1))
    tokens = chain.tokens if chain is not None else ((0, plan.n),)
    for gap, (lo, hi) in enumerate(tokens):
        kinds: dict[int, list[int]] = {}  # pattern -> [slot, how many]
        for slot in range(lo, hi):
            if slot in free:
                kind = kinds.setdefault(patterns[slot], [slot, 0])
                kind[1] += 1
        for first, times in kinds.values():
            if not place.names:
                out.append((first, -1, chain, times, 1))
                continue
            assert chain is not None
            left = chain.gaps.sizes[gap] - chain.named[gap]
            for at in chain.places(gap):
                # the new label's slot ``at``: below a label f exactly when at <= f
                if all(at <= fields[i] if sign < 0 else at > fields[i] for i, sign in place.links):
                    labels_after = chain.labels[:at] + (0,) + chain.labels[at:]
                    out.append((first, at, _chain(labels_after, chain.gaps),
                                times, left))
    return out


def build(plan: Plan, *, max_states: int | None, max_bytes: int, deadline: Deadline,
          stats: dict[str, Any], kernel: Any = None, others: tuple[Plan, ...] = ()) -> int:
    """The number of ways to fill the plan's cells (``stats["states"]``: the
    most states after a cell).

    Until the last clue, a state's count is its squares' number divided by
    its chain's ``ways`` (an integer: see the module's docstring).  The
    states go through ``kernel`` (``ranks_kernel``) where given, unless a
    cell has more fields than it holds, racing the plans ``others`` of the
    same squares (``_kernel_build``); else through dictionaries."""
    n = plan.n
    fitting = [p for p in (plan, *others) if kernel is not None
               and all(len(place.fields) <= kernel.most_fields() for place in p.places)]
    if plan in fitting:
        total, stats["states"] = _kernel_build(fitting, kernel, max_states=max_states,
                                               max_bytes=max_bytes, deadline=deadline)
        return total
    states: dict[State, int] = {(bytes(plan.n * FIELD // 8), (), plan.start): 1}
    most = min(max_bytes // STATE_BYTES, MAX_STATES if max_states is None else max_states)
    peak = 1
    for place in plan.places:
        deadline.check()
        new: dict[State, int] = {}
        for seen, ((key, fields, chain), count) in enumerate(states.items()):
            if seen % CHECK_EVERY == CHECK_EVERY - 1:
                deadline.check()
                if len(new) > most:
                    _refuse(len(new), max_states, max_bytes)
            patterns = plan.patterns(key)
            for slot, at, after, times, divide in _successors(plan, place, patterns, fields,
                                                              chain):
                pats = patterns.copy()
                pats[slot] |= (1 << place.column) | place.row
                value_slot, fields_in = slot, fields
                if at >= 0:  # the anonymous value becomes the label at ``at``
                    pats.insert(at, pats.pop(slot))
                    value_slot = at
                    fields_in = tuple(f + 1 if f >= at else f for f in fields)
                if place.closes:
                    pats = [p & ~place.row for p in pats]
                out_fields = tuple(value_slot if i < 0 else fields_in[i] for i in place.fields)
                if place.fold:  # the last clue: the labels' values folded into the count
                    assert after is not None and not out_fields
                    times *= after.ways()
                    after = None
                tokens = after.tokens if after is not None else ((0, n),)
                state = (plan.canonical(pats, tokens, place.groups), out_fields, after)
                amount, odd = divmod(count * times, divide)
                if odd:
                    raise RuntimeError("count-dp ranks: a count that does not divide")
                new[state] = new.get(state, 0) + amount
        if len(new) > most:
            _refuse(len(new), max_states, max_bytes)
        states = new
        peak = max(peak, len(states))
    stats["states"] = peak
    assert all(chain is None for _, _, chain in states)  # (folded, or no clue at all)
    return sum(states.values())


class _Chains:
    """The chains numbered for the kernel (0: none, after the fold), and
    their tables for one step (``ranks_kernel.step`` says what each holds)."""

    def __init__(self, n: int, gaps: Gaps, primes: tuple[int, ...], shift: int):
        self.n, self.gaps, self.primes = n, gaps, primes  # (the residues' primes)
        self.shift = shift  # a chain's number in a state's last word: above this bit
        self.chains: list[Chain | None] = [None]
        self.numbers: dict[Chain, int] = {}

    def number(self, chain: Chain | None) -> int:
        if chain is None:
            return 0
        if chain not in self.numbers:
            if len(self.chains) >> (64 - self.shift):
                raise StateSpaceTooLarge(f"{len(self.chains):,} chains: more than a state's "
                                         "word holds")
            self.numbers[chain] = len(self.chains)
            self.chains.append(chain)
        return self.numbers[chain]

    def tables(self, place: Place, present: list[int]) -> list[np.ndarray]:
        """marks, tokens, places, inverses, grown, ways, given_slots for a
        step from the chains ``present``."""
        n, primes, gaps = self.n, self.primes, len(self.gaps.sizes)
        grown: dict[int, list[int]] = {}
        if place.names:  # numbered first: the tables below cover the new chains too
            for c in present:
                chain = self.chains[c]
                assert chain is not None
                row = grown[c] = [0] * (n + 1)
                for gap in range(gaps):
                    for at in chain.places(gap):
                        row[at] = self.number(_chain(chain.labels[:at] + (0,)
                                                     + chain.labels[at:], self.gaps))
        count = len(self.chains)
        marks, given = np.zeros(count, np.int64), np.full(count, -1, np.int64)
        tokens = np.full((count, gaps, 2), n, np.int64)
        places = np.zeros((count, gaps, 2), np.int64)
        inverses = np.zeros((count, gaps, len(primes)), np.uint64)
        ways = np.zeros((count, len(primes)), np.uint64)
        tokens[0, 0, 0] = 0  # no chain: every slot anonymous, one gap
        for c, chain in enumerate(self.chains[1:], 1):
            marks[c] = len(chain.labels)
            if place.given:
                given[c] = chain.labels.index(place.given)
            tokens[c] = chain.tokens
            for gap in range(gaps):
                where = chain.places(gap)
                places[c, gap] = (where.start, where.stop - 1)
                left = chain.gaps.sizes[gap] - chain.named[gap]
                if left:
                    inverses[c, gap] = [pow(left, -1, p) for p in primes]
            if place.fold:
                ways[c] = [chain.ways() % p for p in primes]
        table = np.zeros((count, n + 1), np.int64)
        for c, row in grown.items():
            table[c] = row
        return [a.reshape(-1) for a in (marks, tokens, places, inverses, table, ways, given)]


def _kernel_build(plans: list[Plan], kernel: Any, *, max_states: int | None, max_bytes: int,
                  deadline: Deadline) -> tuple[int, int]:
    """The count by ``kernel`` (``ranks_kernel``), and the most states after a
    cell of the plan that counted it.

    The plans (the square's two orientations) race: the one with the fewer
    states takes the next step, so one whose states pile up waits while the
    other goes on, and the first to finish counts.  The orientations differ
    by far on some squares (an 8x8 with clues in five rows each way: 33 M
    states one way, 1.1 M the other), and no rule read off the clues alone
    has told which.  (Letting a plan step on until it passed eight times the
    other's states let the worse one finish first.)  A waiting plan's states
    count against the memory budget of the one stepping; one that passes it
    drops out."""
    runs = [_Run(plan, kernel) for plan in plans]
    reasons = []
    while runs:
        done = next((r for r in runs if r.done), None)
        if done is not None:
            return done.total(), done.peak
        run = min(runs, key=lambda r: r.size)  # (ties: the first, the rows plan's own)
        waiting = sum(other.held for other in runs if other is not run)
        try:
            run.step(max_states=max_states, max_bytes=max_bytes - waiting, deadline=deadline)
        except StateSpaceTooLarge as error:
            runs.remove(run)
            reasons.append(str(error))
    raise StateSpaceTooLarge("; ".join(dict.fromkeys(reasons)))


class _Run:
    """One plan stepped by the kernel, a cell at a time."""

    def __init__(self, plan: Plan, kernel: Any):
        self.plan, self.kernel, self.t = plan, kernel, 0
        n, words = plan.n, (plan.n + 3) // 4
        self.primes = primes_for(n)
        self.shift = kernel.chain_shift()
        self.chains = _Chains(n, plan.gaps, self.primes, self.shift)
        start = self.chains.number(plan.start)
        self.chained = 2 if start else 0
        self.keys = np.zeros(words + (1 if self.chained else 0), dtype=np.uint64)
        if self.chained:
            self.keys[words] = start << self.shift
        self.counts = np.ones(len(self.primes), dtype=np.uint32)
        self.present = [start]
        self.peak = self.size = 1

    @property
    def done(self) -> bool:
        return self.t == len(self.plan.places)

    @property
    def held(self) -> int:
        return self.keys.nbytes + self.counts.nbytes

    def total(self) -> int:
        residues = len(self.primes)
        return fold_residues(self.counts.reshape(-1, residues).sum(axis=0, dtype=object),
                             self.primes)

    def step(self, *, max_states: int | None, max_bytes: int, deadline: Deadline) -> None:
        """Fill the next cell."""
        plan, kernel, place = self.plan, self.kernel, self.plan.places[self.t]
        n, words, residues = plan.n, (plan.n + 3) // 4, len(self.primes)
        deadline.check()
        chained = self.chained = 1 if self.chained and place.fold else self.chained
        width = words + (1 if chained == 2 else 0)
        tables = self.chains.tables(place, self.present)
        lines = np.array([x for group in place.groups for x in group], dtype=np.int64)
        ends = np.cumsum([len(group) for group in place.groups], dtype=np.int64)
        shape = np.array([(1 << place.column) | place.row, place.row if place.closes else 0,
                          place.names, place.fold, len(plan.gaps.sizes)], dtype=np.int64)
        links = np.array([x for link in place.links for x in link], dtype=np.int64)
        moves = np.array(place.fields, dtype=np.int64)
        scratch = np.zeros(2 * kernel.most_fields() + 2 * n + len(lines), dtype=np.uint64)
        batch = BATCH * n * (n + 1)  # successors made before they are merged (a few states')
        pending = np.zeros(batch * (words + 1), dtype=np.uint64)
        meta = np.zeros(kernel.meta_numbers() * batch + 1, dtype=np.int64)
        primes = np.array(self.primes, dtype=np.uint64)
        table = _Table(width, residues, max(self.size, 1024), self.held, max_bytes)
        fill = np.zeros(1, dtype=np.int64)
        i = 0
        while i < self.size:
            stop = min(self.size, i + CHUNK)
            i = kernel.step(*map(memoryview, (self.keys, self.counts)), i, stop, n, words,
                            chained, *map(memoryview, (shape, links, moves, lines, ends, *tables,
                                                       primes, table.keys, table.counts,
                                                       table.slots, fill, scratch, pending,
                                                       meta)))
            deadline.check()
            if max_states is not None and fill[0] > max_states:
                _refuse(int(fill[0]), max_states, max_bytes)
            if i < stop:  # the arrays or the slots are full: more, the states so far kept
                table.grow(int(fill[0]), int(fill[0]) + n * (n + 1), kernel)
        self.size = int(fill[0])
        del self.keys, self.counts  # (then the results shrink in place: no copy beside them)
        self.keys, self.counts = table.shrink(self.size)
        if chained == 2:
            self.present = np.unique(self.keys[words::width]
                                     >> np.uint64(self.shift)).tolist()
        self.chained = 0 if chained == 1 else chained
        self.peak = max(self.peak, self.size)
        self.t += 1


class _Table:
    """One step's results for the kernel: ``keys`` and ``counts`` for
    ``room`` states, grown in place (a large array's realloc moves its
    pages, it does not copy them), and ``slots``, at least twice as many (a
    power of two), made anew when they grow.  Every size is checked first
    against ``max_bytes`` beside the ``held`` bytes of the step's input."""

    GROWTH = 1.5  # the arrays' growth: less to spare than doubling, few moves

    def __init__(self, width: int, residues: int, room: int, held: int, max_bytes: int):
        self.width, self.residues, self.held, self.max_bytes = width, residues, held, max_bytes
        self.room = room
        self._check(room, _slots_for(room), 0, room)
        self.keys = np.zeros(room * width, dtype=np.uint64)
        self.counts = np.zeros(room * residues, dtype=np.uint32)
        self.slots = np.full(_slots_for(room), -1, dtype=np.int32)

    def _check(self, room: int, slots: int, old_slots: int, states: int) -> None:
        need = self.held + room * (8 * self.width + 4 * self.residues) + 4 * (slots + old_slots)
        if need > self.max_bytes:
            raise StateSpaceTooLarge(
                f"{states:,} states after a cell would need about {need / MB:,.0f} MB of "
                f"tables, above the {self.max_bytes / MB:,.0f} MB the memory budget leaves "
                f"for them")

    def grow(self, fill: int, least: int, kernel: Any) -> None:
        """Room for ``least`` states (``fill`` held), the slots at most half full."""
        room = self.room if least <= self.room else max(least, int(self.room * self.GROWTH))
        slots = max(self.slots.shape[0], _slots_for(least))
        self._check(room, slots, self.slots.shape[0] if slots > self.slots.shape[0] else 0,
                    fill)
        if room > self.room:
            self.keys.resize(room * self.width, refcheck=False)
            self.counts.resize(room * self.residues, refcheck=False)
            self.room = room
        if slots > self.slots.shape[0]:
            self.slots = np.full(slots, -1, dtype=np.int32)
            kernel.rehash(memoryview(self.keys), fill, self.width, memoryview(self.slots))

    def shrink(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """The first ``size`` results, the rest given back."""
        del self.slots
        self.keys.resize(size * self.width, refcheck=False)
        self.counts.resize(size * self.residues, refcheck=False)
        return self.keys, self.counts


def _slots_for(room: int) -> int:
    """Slots for ``room`` states: a power of two, at most half full."""
    return 1 << (2 * room - 1).bit_length()


def primes_for(n: int) -> tuple[int, ...]:
    """The fewest of ``PRIMES`` whose product passes the Latin squares of
    order ``n`` (van Lint and Wilson's bound: the product of ``k! ** (n /
    k)``), so that a count read back from its residues is exact."""
    bound = math.prod(math.factorial(k) ** (n / k) for k in range(1, n + 1))
    for r in range(1, len(PRIMES) + 1):
        if math.prod(PRIMES[:r]) > 2 * bound:
            return PRIMES[:r]
    raise StateSpaceTooLarge(f"an order-{n} count passes the ranks kernel's residues")


def fold_residues(residues: Any, primes: tuple[int, ...]) -> int:
    """The number below the primes' product with these residues (the
    Chinese remainder theorem)."""
    product = math.prod(primes)
    total = 0
    for r, p in zip(residues, primes, strict=True):
        rest = product // p
        total += int(r) % p * rest * pow(rest, -1, p)
    return total % product


def _refuse(states: int, max_states: int | None, max_bytes: int) -> None:
    rowdp.check_states(states, MAX_STATES if max_states is None else max_states, "after a cell")
    raise StateSpaceTooLarge(f"{states:,} states after a cell would hold about "
                             f"{states * STATE_BYTES / MB:,.0f} MB, above the "
                             f"{max_bytes / MB:,.0f} MB the memory budget leaves for tables")


def count(puzzle: Futoshiki, *, max_states: int | None = None,
          deadline: Deadline | None = None, stats: dict[str, Any] | None = None,
          max_bytes: int = rowdp.DEFAULT_MAX_BYTES) -> int:
    """The exact number of solutions of ``puzzle``.

    Raises ``StateSpaceTooLarge`` past the state budget or the bytes the
    states would hold, and ``LimitReached`` past the deadline."""
    stats = stats if stats is not None else {}
    deadline = deadline or Deadline(None)
    n = puzzle.n
    if puzzle.adjacent:
        raise Unsupported("count-dp: Adjacent mode's bars do not fit its states")
    if n == 1:
        return int(puzzle.givens[0][0] in (0, 1))
    oriented, split = rowdp.choose(puzzle)
    if not Engine(oriented).ok:
        return 0
    both = [(oriented, split)]
    if COMPILED:  # the other orientation races it (``_kernel_build``), unless it is the same
        turned, turned_split = rowdp.choose(rowdp.transpose(oriented), turns=(False,))
        if turned != oriented:
            both.append((turned, turned_split))
    plans, refused = [], None
    for square, cut in both:
        try:
            plans.append(Plan(square, cut.upper + cut.lower))
        except StateSpaceTooLarge as error:  # (too many rows open at once: it stays out)
            refused = error
    if not plans:
        assert refused is not None
        raise refused
    return build(plans[0], max_states=max_states, max_bytes=max_bytes, deadline=deadline,
                 stats=stats, kernel=KERNEL if COMPILED else None, others=tuple(plans[1:]))
