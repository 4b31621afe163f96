"""The cheap rules of Futoshiki's propagation, over the node's whole state.

A compiled kernel (``search.core.compiled``): this plain Python is the only
source of these rules; ``kernel.pxd`` beside it gives Cython the C types, and
where the install built the extension the search runs it as C over int64
buffers (the standard library's ``array('q')``), else this file interpreted.

``State`` holds what a search node is made of: the domains (bitsets, bit
``v - 1`` for value ``v``), the undo trail, the queue of changed cells, the
weights of dom/wdeg, the rows and columns changed since Régin's filtering last
read them (``dirty``, for the engine's matchings) and the values whose planes
changed (``dirty_values``).  It applies, cheapest first and to a fixpoint:

* forward checking: an assigned value leaves the domains of its row and column;
* bounds on each inequality: a cell above ``i`` is above its lowest value, one
  below it below its highest;
* Adjacent mode's bars: a barred neighbour keeps the values 1 away from one of
  the cell's, an unbarred one the values at least 2 away (assigned cells with
  ``bars``, open ones with ``bar_sets``);
* hidden singles: a value with one place left in a row or column goes there.

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


def _csr(lists, ptr, idx):
    """Lists of cells, flattened: the cells of ``lists[i]`` are ``idx[ptr[i]:ptr[i + 1]]``."""
    k = 0
    for i in range(len(lists)):
        ptr[i] = k
        for j in lists[i]:
            idx[k] = j
            k += 1
    ptr[len(lists)] = k


class State:
    """The domains, trail, queue and weights of one puzzle, and the cheap rules.

    ``dom``, ``weight`` (n * n) and ``dirty`` (2 n) are the buffers the engine
    reads too, and ``new(size)`` makes the others (``size`` zeros: an
    ``array('q')`` for the compiled kernel, a list for the interpreted one,
    whose integers may then be wider than 64 bits); ``larger[i]``
    and ``smaller[i]`` are the cells above and below cell ``i``, ``barred`` and
    ``unbarred`` its Adjacent-mode neighbours, ``linked`` all of them (dom/wdeg).
    """

    def __init__(self, n, dom, weight, dirty, new, larger, smaller, barred, unbarred, linked):
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
        for i in range(cells):
            self.dom[i] = self.full
            self.weight[i] = 2
        for u in range(2 * n):
            self.dirty[u] = 1
            self.hdirty[u] = 1
        self.lptr, self.lidx = new(cells + 1), new(max(1, sum(map(len, larger))))
        self.sptr, self.sidx = new(cells + 1), new(max(1, sum(map(len, smaller))))
        self.bptr, self.bidx = new(cells + 1), new(max(1, sum(map(len, barred))))
        self.uptr, self.uidx = new(cells + 1), new(max(1, sum(map(len, unbarred))))
        self.kptr, self.kidx = new(cells + 1), new(max(1, sum(map(len, linked))))
        _csr(larger, self.lptr, self.lidx)
        _csr(smaller, self.sptr, self.sidx)
        _csr(barred, self.bptr, self.bidx)
        _csr(unbarred, self.uptr, self.uidx)
        _csr(linked, self.kptr, self.kidx)

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
            first = u * n
            step = 1
            if u >= n:  # a column
                first = u - n
                step = n
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

    # -- the search's questions

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
