"""Futoshiki's probe at a search node, written once for every route to compiled code.

The study ``compiled_kernels.py`` runs this one source four ways: interpreted
over lists (the pure path), compiled by mypyc (the annotations below), by
Cython (the types in ``probe_kernel.pxd``) and by numba (``njit`` over numpy
arrays).  So it keeps to what all of them compile: flat integer sequences, no
``int.bit_length`` (numba lacks it: the highest value is found by smearing),
no calls but to the kernel's own functions.

Domains are bitsets (bit ``v - 1`` stands for value ``v``, ``n <= 62``).  It
does what ``Engine.probe`` does at Tatham's level 1 (forward checking,
inequality bounds, hidden singles): each value of each open cell of at most
``maxvals`` values is tried under those rules, and a value that fails goes.
``probe_from`` does the trials for ``Engine.probe`` at any level (Adjacent
mode's bars aside), in the engine's order and with its weights, so that a
search that uses it makes the engine's nodes.
"""


def fixpoint(work: list[int], n: int, peers: list[int], lptr: list[int], lidx: list[int],
             sptr: list[int], sidx: list[int], stack: list[int], top: int,
             dirty: list[int], weight: list[int]) -> bool:
    """Forward checking, bounds and hidden singles on ``work`` from the cells on
    ``stack[:top]`` and the rows and columns flagged in ``dirty``; False when a
    domain empties (its cell's ``weight`` grows by one, as in ``Engine.narrow``)
    or a value loses its last place."""
    full = (1 << n) - 1
    width = 2 * n - 2
    while True:
        while top > 0:
            top -= 1
            i = stack[top]
            d = work[i]
            if d & (d - 1) == 0:  # assigned: forward checking
                for k in range(i * width, (i + 1) * width):
                    j = peers[k]
                    e = work[j]
                    if e & d:
                        e &= ~d
                        if e == 0:
                            weight[j] += 1
                            return False
                        work[j] = e
                        dirty[j // n] = 1
                        dirty[n + j % n] = 1
                        stack[top] = j
                        top += 1
            low = d & -d
            above = ~((low << 1) - 1)  # values above the smallest of i
            for k in range(lptr[i], lptr[i + 1]):
                j = lidx[k]
                e = work[j]
                if e & ~above:
                    e &= above
                    if e == 0:
                        weight[j] += 1
                        return False
                    work[j] = e
                    dirty[j // n] = 1
                    dirty[n + j % n] = 1
                    stack[top] = j
                    top += 1
            h = d | d >> 1
            h |= h >> 2
            h |= h >> 4
            h |= h >> 8
            h |= h >> 16
            h |= h >> 32
            below = h >> 1  # values below the largest of i
            for k in range(sptr[i], sptr[i + 1]):
                j = sidx[k]
                e = work[j]
                if e & ~below:
                    e &= below
                    if e == 0:
                        weight[j] += 1
                        return False
                    work[j] = e
                    dirty[j // n] = 1
                    dirty[n + j % n] = 1
                    stack[top] = j
                    top += 1
        for u in range(2 * n):  # hidden singles in the rows and columns that changed
            if dirty[u] == 0:
                continue
            dirty[u] = 0
            first = u * n
            step = 1
            if u >= n:  # a column
                first = u - n
                step = n
            once = 0
            twice = 0
            for k in range(n):
                d = work[first + k * step]
                twice |= once & d
                once |= d
            if once != full:
                return False
            single = once & ~twice
            if single == 0:
                continue
            for k in range(n):
                i = first + k * step
                d = work[i]
                hit = d & single
                if hit != 0 and d != hit:
                    if hit & (hit - 1):
                        return False  # two values that each need this cell
                    work[i] = hit
                    dirty[i // n] = 1
                    dirty[n + i % n] = 1
                    stack[top] = i
                    top += 1
        if top == 0:
            return True


def probe_from(dom: list[int], start: int, n: int, peers: list[int], lptr: list[int],
               lidx: list[int], sptr: list[int], sidx: list[int], maxvals: int,
               work: list[int], stack: list[int], dirty: list[int],
               weight: list[int]) -> int:
    """The first cell from ``start`` on (open, at most ``maxvals`` values) where a
    value fails when tried, with ``dom`` of it narrowed to the values that pass
    (maybe none); -1 if there is none.  ``dom`` is otherwise left as it was: the
    caller propagates the loss.  ``work`` (n * n), ``stack`` (n ** 3 + 1: a cell is
    pushed at every narrowing, as on the engine's queue, so that the cells are
    seen, and the weights grow, in the engine's order) and ``dirty`` (2 n) are
    scratch space."""
    cells = n * n
    for i in range(start, cells):
        d = dom[i]
        if d & (d - 1) == 0:
            continue
        size = 0
        rest = d
        while rest:
            rest &= rest - 1
            size += 1
        if size > maxvals:
            continue
        keep = d
        rest = d
        while rest:
            low = rest & -rest
            rest ^= low
            for k in range(cells):
                work[k] = dom[k]
            for k in range(2 * n):
                dirty[k] = 0
            work[i] = low
            dirty[i // n] = 1
            dirty[n + i % n] = 1
            stack[0] = i
            if not fixpoint(work, n, peers, lptr, lidx, sptr, sidx, stack, 1, dirty,
                            weight):
                keep ^= low
        if keep != d:
            dom[i] = keep
            return i
    return -1


def probe(dom: list[int], n: int, peers: list[int], lptr: list[int], lidx: list[int],
          sptr: list[int], sidx: list[int], maxvals: int, work: list[int], stack: list[int],
          dirty: list[int], weight: list[int]) -> int:
    """``Engine.probe`` at level 1: ``probe_from`` cell after cell, each loss propagated
    into ``dom`` by the same rules; 0, or -1 on a contradiction.  ``dom`` is a
    fixpoint of the rules when this starts (scratch space as for ``probe_from``)."""
    cells = n * n
    i = probe_from(dom, 0, n, peers, lptr, lidx, sptr, sidx, maxvals, work, stack,
                   dirty, weight)
    while i >= 0:
        if dom[i] == 0:
            weight[i] += 1
            return -1
        for k in range(cells):
            work[k] = dom[k]
        for k in range(2 * n):
            dirty[k] = 0
        dirty[i // n] = 1
        dirty[n + i % n] = 1
        stack[0] = i
        if not fixpoint(work, n, peers, lptr, lidx, sptr, sidx, stack, 1, dirty, weight):
            return -1
        for k in range(cells):
            dom[k] = work[k]
        i = probe_from(dom, i + 1, n, peers, lptr, lidx, sptr, sidx, maxvals, work, stack,
                       dirty, weight)
    return 0
