"""Futoshiki's propagation over the node's whole state: every rule, the set-up.

A compiled kernel (``search.core.compiled``): this plain Python is the only
source of these rules; ``kernel.pxd`` beside it gives Cython the C types, and
where the install built the extension the search runs it as C over int64
buffers (the standard library's ``array('q')``), else this file interpreted.

``State`` holds what a search node is made of: the domains (bitsets, bit
``v - 1`` for value ``v``), the undo trail, the queue of changed cells, the
weights of dom/wdeg, the rows and columns changed since Régin's filtering last
read them (``dirty``) and the values whose planes changed (``dirty_values``).
Its cheap rules, applied cheapest first and to a fixpoint (``fixpoint``):

* forward checking: an assigned value leaves the domains of its row and column;
* bounds on each inequality: a cell above ``i`` is above its lowest value, one
  below it below its highest;
* Adjacent mode's bars: a barred neighbour keeps the values 1 away from one of
  the cell's, an unbarred one the values at least 2 away (assigned cells with
  ``bars``, open ones with ``bar_sets``);
* hidden singles: a value with one place left in a row or column goes there.

Above them, the engine runs Régin's all-different filtering on the changed
rows and columns (``lines``) and value planes (``planes``): a perfect matching
(the last one repaired), then the strongly connected components of its
alternating graph.  Before the search, ``start`` sets the root's domains: the
givens and the static chain bounds (``chains``).

Each switch (``forward``, ``bounds``, ``bars``, ``bar_sets``, ``singles``) turns
one rule on, as the grader's levels want.  On top, ``probe`` tries each value
of each narrow open cell under these rules (singleton consistency) and
``choose`` picks the branching cell.  The order of the work is the engine's
(a cell is queued at every narrowing and taken last-in first-out; rows and
columns are read in order), so that the weights, and so the search's nodes, do
not depend on whether this runs compiled.

Domains fit a signed 64-bit integer up to ``n = 62`` (``LIMIT``); a larger
square runs this file interpreted over lists of Python integers, which is why
nothing here assumes 64 bits (``_highest`` smears as far as ``n`` needs).
"""

LIMIT = 62  # the widest square whose domains fit the compiled kernel's int64


def _count(x):
    """The number of values in ``x``."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


def _below_highest(x, n):
    """The values below the highest value of ``x`` (a square ``n`` wide)."""
    s = 1
    while s < n:
        x |= x >> s
        s <<= 1
    return x >> 1


def _index(x):
    """The index of the lowest value of ``x`` (not empty): value ``_index(x) + 1``."""
    k = 0
    while x & 0xFFFF == 0:
        x >>= 16
        k += 16
    while x & 1 == 0:
        x >>= 1
        k += 1
    return k


class State:
    """The domains, trail, queue and weights of one puzzle, and the cheap rules.

    ``dom``, ``weight`` (n * n) and ``dirty`` (2 n) are the buffers the engine
    reads too, and ``new(size)`` makes the others (``size`` zeros: an
    ``array('q')`` for the compiled kernel, a list for the interpreted one,
    whose integers may then be wider than 64 bits).  ``less`` lists the
    inequalities as cells ``a, b`` (``a`` below ``b``), one pair after another;
    ``bars`` Adjacent mode's neighbours as ``a, b, barred`` (1 or 0).
    """

    def __init__(self, n, dom, weight, dirty, new, less, bars):
        self._build(n, dom, weight, dirty, new, less, bars)

    def _build(self, n, dom, weight, dirty, new, less, bars):
        cells = n * n
        self.n = n
        self.cells = cells
        self.full = (1 << n) - 1
        self.forward = self.bounds = self.bars = self.bar_sets = self.singles = False
        self.dom = dom
        self.weight = weight
        # Each narrowing removes a value for good until undone: at most
        # cells * (n - 1) changes stand on the trail or wait on the queue.
        self.trail = new(2 * cells * n + 2)
        self.queue = new(cells * n + 1)
        self.ttop = 0
        self.qtop = 0
        self.dirty = dirty
        self.hdirty = new(2 * n)  # rows and columns hidden singles must read again
        self.saved = new(2 * n)
        self.dirty_values = self.full
        self.last_conflict = -1
        # static chain bounds (``chains``): per cell its lowest and highest value
        self.low, self.high = new(cells), new(cells)
        self.order, self.indeg = new(cells), new(cells)
        self.stamp, self.stack = new(cells), new(cells)
        self.tally = new(2 * n)
        # Régin's filtering: per row and column (2 n) and per value plane (n), the
        # value each place had in its last matching (-1: none), a start for the next
        self.kept = new(3 * n * n)
        # one unit's open places while it is filtered: the cell (a row, on a plane),
        # its domain, its slot in ``kept``, its matched value; owner of each value,
        # successors of each value in the alternating graph, its component
        self.pos, self.mdom, self.slot, self.mate = new(n), new(n), new(n), new(n)
        self.owner, self.succ, self.within = new(n), new(n), new(n)
        self.seen = 0
        # Per cell, the cells above it (``l``), below it (``s``), barred and
        # unbarred neighbours (``b``, ``u``), and all of these (``k``, for dom/wdeg):
        # the cells of ``i`` are ``idx[ptr[i]:ptr[i + 1]]``, each list in the
        # order of ``less`` and ``bars``.
        self.lptr, self.lidx = self._graph(new, less, 2, 1, True, False)
        self.sptr, self.sidx = self._graph(new, less, 2, 1, False, True)
        self.bptr, self.bidx = self._graph(new, bars, 3, 1, True, True)
        self.uptr, self.uidx = self._graph(new, bars, 3, 0, True, True)
        self.kptr = new(cells + 1)
        self.kidx = new(max(1, self.lptr[cells] + self.sptr[cells] + self.bptr[cells]
                            + self.uptr[cells]))
        self._fill()

    def _fill(self):
        """Every domain full, every weight 2, every unit to be read, no matching
        kept yet; the lists of all the cells linked to each cell."""
        n = self.n
        cells = self.cells
        for i in range(cells):
            self.dom[i] = self.full
            self.weight[i] = 2
        for u in range(2 * n):
            self.dirty[u] = 1
            self.hdirty[u] = 1
        for k in range(3 * n * n):
            self.kept[k] = -1
        k = 0
        for i in range(cells):
            self.kptr[i] = k
            k = self._append(k, self.sptr, self.sidx, i)
            k = self._append(k, self.lptr, self.lidx, i)
            k = self._append(k, self.bptr, self.bidx, i)
            k = self._append(k, self.uptr, self.uidx, i)
        self.kptr[cells] = k

    def _graph(self, new, edges, stride, want, forward, backward):
        """The lists of cells that ``edges`` (``stride`` numbers each: cells ``a``,
        ``b``, then with stride 3 a flag that must be ``want``) join to each cell:
        ``b`` to ``a`` if ``forward``, ``a`` to ``b`` if ``backward``.  (ptr, idx)."""
        cells = self.cells
        ptr = new(cells + 1)
        count = 0
        for e in range(0, len(edges), stride):
            if stride == 2 or edges[e + 2] == want:
                if forward:
                    ptr[edges[e] + 1] += 1
                    count += 1
                if backward:
                    ptr[edges[e + 1] + 1] += 1
                    count += 1
        for i in range(cells):
            ptr[i + 1] += ptr[i]
            self.stack[i] = ptr[i]  # where the next cell of i goes
        idx = new(max(1, count))
        for e in range(0, len(edges), stride):
            if stride == 2 or edges[e + 2] == want:
                a = edges[e]
                b = edges[e + 1]
                if forward:
                    idx[self.stack[a]] = b
                    self.stack[a] += 1
                if backward:
                    idx[self.stack[b]] = a
                    self.stack[b] += 1
        return ptr, idx

    def _append(self, k, ptr, idx, i):
        """The cells of ``i`` in (``ptr``, ``idx``) appended to ``kidx`` from ``k``;
        where it ends."""
        for e in range(ptr[i], ptr[i + 1]):
            self.kidx[k] = idx[e]
            k += 1
        return k

    # -- changes and undo

    def narrow(self, i, mask):
        """Set domain ``i`` to ``mask`` (a subset of it); False if it empties (and
        the cell weighs one more in dom/wdeg)."""
        if mask == 0:
            self.weight[i] += 1
            return False
        old = self.dom[i]
        if mask != old:
            t = self.ttop
            self.trail[t] = i
            self.trail[t + 1] = old
            self.ttop = t + 2
            self.dom[i] = mask
            self.queue[self.qtop] = i
            self.qtop += 1
            r = i // self.n
            c = self.n + i % self.n
            self.dirty[r] = 1
            self.dirty[c] = 1
            self.hdirty[r] = 1
            self.hdirty[c] = 1
            self.dirty_values |= old ^ mask
        return True

    def undo(self, mark):
        """Back to the state when the trail stood at ``mark``; the queue empties."""
        t = self.ttop
        n = self.n
        while t > mark:
            t -= 2
            i = self.trail[t]
            self.dom[i] = self.trail[t + 1]
            self.hdirty[i // n] = 1
            self.hdirty[n + i % n] = 1
        self.ttop = t
        self.qtop = 0

    def requeue(self):
        """Every cell, row, column and value plane to be read again (new rules)."""
        self.qtop = 0
        for i in range(self.cells):
            self.queue[i] = i
        self.qtop = self.cells
        for u in range(2 * self.n):
            self.dirty[u] = 1
            self.hdirty[u] = 1
        self.dirty_values = self.full

    # -- the rules

    def fixpoint(self):
        """The rules of the queued cells, then hidden singles in the rows and
        columns that changed, until neither narrows a domain; False on a
        contradiction."""
        while True:
            if not self._cells():
                return False
            if self.singles and not self._singles():
                return False
            if self.qtop == 0:
                return True

    def _cells(self):
        """Forward checking, bounds and bars from each queued cell, last in first."""
        n = self.n
        while self.qtop > 0:
            self.qtop -= 1
            i = self.queue[self.qtop]
            d = self.dom[i]
            assigned = d & (d - 1) == 0
            if assigned and self.forward:
                first = i - i % n
                for j in range(first, first + n):  # its row
                    e = self.dom[j]
                    if j != i and e & d and not self.narrow(j, e & ~d):
                        return False
                j = i % n
                while j < self.cells:  # its column
                    e = self.dom[j]
                    if j != i and e & d and not self.narrow(j, e & ~d):
                        return False
                    j += n
            if self.bounds:
                low = d & -d
                above = ~((low << 1) - 1)  # values above the lowest of i
                for k in range(self.lptr[i], self.lptr[i + 1]):
                    j = self.lidx[k]
                    e = self.dom[j]
                    if e & ~above and not self.narrow(j, e & above):
                        return False
                below = _below_highest(d, n)
                for k in range(self.sptr[i], self.sptr[i + 1]):
                    j = self.sidx[k]
                    e = self.dom[j]
                    if e & ~below and not self.narrow(j, e & below):
                        return False
            if (self.bars if assigned else self.bar_sets) and not self._bars(i, d):
                return False
        return True

    def _bars(self, i, d):
        """Adjacent mode: a barred neighbour of ``i`` keeps the values 1 away from
        one of ``d``; an unbarred one the values at least 2 away from one of ``d``."""
        full = self.full
        near = ((d << 1) | (d >> 1)) & full
        for k in range(self.bptr[i], self.bptr[i + 1]):
            j = self.bidx[k]
            e = self.dom[j]
            if e & ~near and not self.narrow(j, e & near):
                return False
        if self.uptr[i] < self.uptr[i + 1] and _count(d) <= 3:  # 4 values: all have one
            far = 0
            rest = d
            while rest:
                low = rest & -rest
                rest ^= low
                far |= full & ~(low | low << 1 | low >> 1)
            for k in range(self.uptr[i], self.uptr[i + 1]):
                j = self.uidx[k]
                e = self.dom[j]
                if e & ~far and not self.narrow(j, e & far):
                    return False
        return True

    def _singles(self):
        """A value with one place left in a changed row or column goes there; a
        value with none, or two values needing one cell, fail."""
        n = self.n
        for u in range(2 * n):
            if self.hdirty[u] == 0:
                continue
            self.hdirty[u] = 0
            first = u * n if u < n else u - n  # a row, else a column
            step = 1 if u < n else n
            once = 0
            twice = 0
            for k in range(n):
                d = self.dom[first + k * step]
                twice |= once & d
                once |= d
            if once != self.full:
                return False
            single = once & ~twice
            if single == 0:
                continue
            for k in range(n):
                i = first + k * step
                d = self.dom[i]
                hit = d & single
                if hit != 0 and d != hit:
                    if hit & (hit - 1):
                        return False  # two values that each need this cell
                    self.narrow(i, hit)  # never empty
        return True

    # -- the set-up

    def chains(self):
        """Static chain bounds into ``low`` and ``high``: a cell with ``k`` cells
        transitively below it that must all differ (one chain of inequalities,
        or ``k`` such cells in one row or column) is at least ``k + 1``, and
        symmetrically.  False when the inequalities form a cycle."""
        n = self.n
        cells = self.cells
        # Kahn's order, smaller cells first: a cycle leaves cells out of it.
        top = 0
        for i in range(cells):
            self.indeg[i] = self.sptr[i + 1] - self.sptr[i]
            if self.indeg[i] == 0:
                self.stack[top] = i
                top += 1
        done = 0
        while top > 0:
            top -= 1
            i = self.stack[top]
            self.order[done] = i
            done += 1
            for e in range(self.lptr[i], self.lptr[i + 1]):
                j = self.lidx[e]
                self.indeg[j] -= 1
                if self.indeg[j] == 0:
                    self.stack[top] = j
                    top += 1
        if done < cells:
            return False
        # The longest chains below (``low``) and above (``high``) each cell.
        for t in range(cells):
            i = self.order[t]
            k = 0
            for e in range(self.sptr[i], self.sptr[i + 1]):
                k = max(k, self.low[self.sidx[e]] + 1)
            self.low[i] = k
            i = self.order[cells - 1 - t]
            k = 0
            for e in range(self.lptr[i], self.lptr[i + 1]):
                k = max(k, self.high[self.lidx[e]] + 1)
            self.high[i] = k
        for i in range(cells):
            self.stamp[i] = -1
        for i in range(cells):
            k = max(self.low[i], self._spread(i, self.sptr, self.sidx, 2 * i))
            self.low[i] = k + 1
            k = max(self.high[i], self._spread(i, self.lptr, self.lidx, 2 * i + 1))
            self.high[i] = n - k
        return True

    def _spread(self, i, ptr, idx, tag):
        """The most cells of one row or column reachable from ``i`` along ``ptr``
        and ``idx`` (the cells below it, or above), each counted once."""
        n = self.n
        if ptr[i] == ptr[i + 1]:
            return 0
        for u in range(2 * n):
            self.tally[u] = 0
        most = 0
        top = 0
        self.stack[top] = i
        top += 1
        while top > 0:
            top -= 1
            j = self.stack[top]
            for e in range(ptr[j], ptr[j + 1]):
                k = idx[e]
                if self.stamp[k] != tag:
                    self.stamp[k] = tag
                    self.stack[top] = k
                    top += 1
                    r = k // n
                    c = n + k % n
                    self.tally[r] += 1
                    self.tally[c] += 1
                    most = max(most, self.tally[r], self.tally[c])
        return most

    def start(self, givens, chains):
        """The root's domains: the givens (the puzzle's rows of values, 0 for none)
        and, if ``chains``, the static chain bounds; False on a contradiction.  The
        root is never undone: the trail starts empty."""
        n = self.n
        for i in range(self.cells):
            self.low[i] = 1
            self.high[i] = n
        if chains and not self.chains():
            return False
        for i in range(self.cells):
            low = self.low[i]
            high = self.high[i]
            if low > high:  # a chain longer than the square is wide
                return False
            mask = self.full & ~((1 << (low - 1)) - 1) & ((1 << high) - 1)
            given = givens[i // n][i % n]
            if given != 0:
                if 1 <= given <= n:
                    value = given
                    mask &= 1 << (value - 1)
                else:  # a given outside the square
                    mask = 0
            if mask != self.dom[i] and not self.narrow(i, mask):
                return False
        self.ttop = 0
        return True

    # -- Régin's all-different filtering

    def lines(self):
        """Régin's filtering on every changed row and column: a perfect matching
        of its open cells to values (the last one repaired), then the strongly
        connected components of the alternating graph: a cell keeps the values
        of its component.  Only open cells take part: forward checking has
        already removed the assigned values from their rows and columns."""
        n = self.n
        for u in range(2 * n):
            if self.qtop:  # forward checking first: the matching assumes it is done
                return True
            if self.dirty[u] == 0:
                continue
            self.dirty[u] = 0
            first = u * n if u < n else u - n  # a row, else a column
            step = 1 if u < n else n
            m = 0
            for k in range(n):
                i = first + k * step
                d = self.dom[i]
                if d & (d - 1):
                    m = self._place(m, i, d, u * n + k)
            found = self._regin(m)
            if found < 0:
                return False
            if found == 0:
                continue
            for k in range(m):
                d = self.mdom[k]
                keep = self.within[self.mate[k]]
                if d & ~keep and not self.narrow(self.pos[k], d & keep):
                    return False
        return True

    def planes(self):
        """The same filtering on the plane of each value whose places changed: a
        value sits once in every row and column, so its open rows are matched
        to its open columns (X-wings, swordfish, ...)."""
        n = self.n
        while self.dirty_values:
            if self.qtop:  # a value lost a place: the planes are stale
                return True
            low = self.dirty_values & -self.dirty_values
            self.dirty_values ^= low
            v = _index(low)
            m = 0
            for r in range(n):
                columns = 0
                placed = False
                for c in range(n):
                    d = self.dom[r * n + c]
                    if d & (d - 1) == 0:
                        if d == low:
                            placed = True
                    elif d & low:
                        columns |= 1 << c
                if not placed:
                    m = self._place(m, r, columns, (2 * n + v) * n + r)
            found = self._regin(m)
            if found < 0:
                return False
            if found == 0:
                continue
            for k in range(m):
                drop = self.mdom[k] & ~self.within[self.mate[k]]
                while drop:
                    bit = drop & -drop
                    drop ^= bit
                    i = self.pos[k] * n + _index(bit)
                    if not self.narrow(i, self.dom[i] & ~low):
                        return False
        return True

    def _place(self, m, pos, d, slot):
        """Place ``m`` of a matching: where it is, what it may take, its slot in
        ``kept``; the number of places after it."""
        self.pos[m] = pos
        self.mdom[m] = d
        self.slot[m] = slot
        return m + 1

    def _regin(self, m):
        """Régin's filtering of the ``m`` places in ``mdom``: -1 when they have no
        perfect matching; 0 when every value of theirs is in one (nothing to
        prune); else 1, and place ``k`` may keep ``within[mate[k]]``.  The
        matching found is kept in ``kept`` as the start of the next call.  One or
        two places are left to the singles (0)."""
        if m < 3:
            return 0
        for v in range(self.n):
            self.owner[v] = -1
        for k in range(m):
            v = self.kept[self.slot[k]]
            if v >= 0 and self.mdom[k] >> v & 1 and self.owner[v] < 0:
                self.owner[v] = k
                self.mate[k] = v
            else:
                self.mate[k] = -1
        for k in range(m):
            if self.mate[k] < 0:
                self.seen = 0
                if not self._augment(k):
                    return -1
        for k in range(m):
            self.kept[self.slot[k]] = self.mate[k]
        return self._supported(m)

    def _augment(self, k):
        """Kuhn's augmenting path from place ``k``; ``seen`` marks the values tried."""
        d = self.mdom[k] & ~self.seen
        while d:
            low = d & -d
            d ^= low
            if self.seen & low:
                continue
            self.seen |= low
            v = _index(low)
            holder = self.owner[v]
            if holder < 0 or self._augment(holder):
                self.owner[v] = k
                self.mate[k] = v
                return True
        return False

    def _supported(self, m):
        """The values some perfect matching gives each place (``_regin``'s 0 or 1).

        The places use exactly as many values as there are places, so every
        matching is perfect.  Name each place by its matched value: place ``k``
        points to the places matched to the other values of ``mdom[k]``.  Place
        ``k`` can take value ``v`` iff ``k`` and the holder of ``v`` lie in one
        strongly connected component; in value names, a component is directly
        the set of values its members may take."""
        every = 0
        for k in range(m):
            v = self.mate[k]
            self.succ[v] = self.mdom[k]
            every |= 1 << v
        left = every
        while left:
            start = left & -left
            seen = start  # forward reach inside ``left``
            frontier = start
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                new = self.succ[_index(low)] & left & ~seen
                seen |= new
                frontier |= new
            back = start  # backward reach inside ``left``
            grown = True
            while grown:
                grown = False
                rest = seen & ~back  # only forward-reached values can be in the component
                while rest:
                    low = rest & -rest
                    rest ^= low
                    if self.succ[_index(low)] & back:
                        back |= low
                        grown = True
            component = seen & back
            if component == every:
                return 0
            left &= ~component
            members = component
            while members:
                low = members & -members
                members ^= low
                self.within[_index(low)] = component
        return 1

    # -- the search's questions

    def grid(self):
        """The values of the cells, row by row, once every cell is assigned."""
        n = self.n
        rows = []
        for r in range(n):
            row = []
            for c in range(n):
                row.append(_index(self.dom[r * n + c]) + 1)
            rows.append(tuple(row))
        return tuple(rows)

    def tied(self, i):
        """Whether an inequality or a bar links cell ``i`` to an open cell."""
        for k in range(self.kptr[i], self.kptr[i + 1]):
            d = self.dom[self.kidx[k]]
            if d & (d - 1):
                return True
        return False

    def probe(self, start, end, most):
        """Singleton consistency on cells ``start`` to ``end - 1``: each value of
        each open cell of at most ``most`` values is tried under the rules, and
        the values that fail leave it.  The first cell that loses values is
        narrowed and returned (the caller propagates that with every rule); -1
        when no cell loses a value, -2 when one loses them all.  The domains are
        a fixpoint of the rules when this starts, and are so again after a trial."""
        for i in range(start, end):
            d = self.dom[i]
            if d & (d - 1) == 0 or _count(d) > most:
                continue
            keep = d
            rest = d
            while rest:
                low = rest & -rest
                rest ^= low
                mark = self.ttop
                values = self.dirty_values
                for u in range(2 * self.n):  # a trial leaves the matchings' marks alone
                    self.saved[u] = self.dirty[u]
                    self.hdirty[u] = 0
                if not (self.narrow(i, low) and self.fixpoint()):
                    keep ^= low
                self.undo(mark)
                for u in range(2 * self.n):
                    self.dirty[u] = self.saved[u]
                self.dirty_values = values
            if keep != d:
                return i if self.narrow(i, keep) else -2
        return -1

    def choose(self):
        """The open cell with the smallest domain per weight (dom/wdeg), -1 if none;
        while the cell whose value last failed outright is open, that one."""
        last = self.last_conflict
        if last >= 0:
            d = self.dom[last]
            if d & (d - 1):
                return last
        best = -1
        best_key = 1e9
        for i in range(self.cells):
            d = self.dom[i]
            if d & (d - 1):
                w = self.weight[i]
                for k in range(self.kptr[i], self.kptr[i + 1]):
                    e = self.dom[self.kidx[k]]
                    if e & (e - 1):
                        w += 1
                key = _count(d)
                key = key / w
                if key < best_key:
                    best = i
                    best_key = key
        return best
