"""The value layers' row step and fold (``search.futoshiki.countdp.layers``), compiled.

A compiled kernel (``search.core.compiled``): this plain Python is the source,
``kernel.pxd`` beside it gives Cython the C types.  ``layers`` calls it only
where it was compiled and the counts are ``int64``; interpreted, the same
step runs vectorised in numpy there (one pass of numpy per candidate cell beats
this loop run by the interpreter), and the tests compare the two.

A row's step takes sorted distinct masks and their counts and places the
layer's value on one cell of the row, each way allowed.  Every cell's results
are a sorted run (the cell's bit is absent from the masks it extends, so OR-ing
it keeps their order); the runs are merged in one pass, the counts of equal
masks added, so the result comes sorted and distinct with no sort and no
temporary table.  ``mark`` first notes which cells each mask allows (one byte
per mask) and counts the results, so that the caller can check its memory
budget before anything is allocated.

``forms`` and ``radix_pass`` serve ``layers.fold``: each state's pinned
lines and form, and a stable sort of the classes' keys (``layers.forms`` and
numpy's stable ``argsort`` give the same where the kernel is not built).
"""

POPCOUNT = bytes(bin(m).count("1") for m in range(256))  # a place byte's places


def mark(keys, n, r, opened, lookup, special, avoids, needs, ok):
    """``ok[i]``: bit ``p`` set when place ``p`` of row ``r`` may take mask
    ``keys[i]``: its cell is empty, its column still lacks the layer's value,
    and for the ``special`` places, the mask holds none of ``avoids[s]`` and
    all of ``needs[s]``.  Returns the results in all.

    Inside a layer a column holds ``opened`` cells, or one more once it has
    the layer's value, so the parity of its cells tells which: the rows'
    fields are XOR-ed, halving, in ``ceil(log2 n)`` shifts.  ``lookup[f]``
    maps a field of columns open and cells empty to its places; a place is
    special when it needs or avoids other cells than its own."""
    one = 1  # (a u64: a literal 1 shifted is a C int)
    total = 0
    row = (one << n) - one
    flip = row if opened % 2 == 0 else 0  # the columns' parity bits, read as open
    at = r * n
    for i in range(keys.shape[0]):
        k = keys[i]
        x = k
        span = n
        while span > 1:  # the upper fields onto the lower, the rest cleared
            half = (span + 1) >> 1
            x = (x ^ (x >> (half * n))) & ((one << (half * n)) - one)
            span = half
        m = lookup[(x ^ flip) & row & (row ^ ((k >> at) & row))]
        for s in range(special.shape[0]):
            bad = ((k & avoids[s]) != 0) | ((k & needs[s]) != needs[s])
            m &= 255 ^ (bad << special[s])
        ok[i] = m
        total += POPCOUNT[m]
    return total


def merge(keys, counts, ok, bits, at, heads, out_keys, out_counts):
    """The masks ``keys[i] | bits[p]`` for every ``p`` that ``ok[i]`` allows,
    sorted and distinct in ``out_keys``, with ``out_counts`` the sums of their
    counts; returns how many.  ``keys`` sorted and distinct.  Scratch: ``at``
    (two slots per place: its cursor and the place) and ``heads`` (its next
    result), for the places not yet exhausted, the first ``live`` slots."""
    size = keys.shape[0]
    live = 0
    for p in range(bits.shape[0]):
        i = 0
        while i < size and not (ok[i] >> p) & 1:
            i += 1
        if i < size:
            at[2 * live] = i
            at[2 * live + 1] = p
            heads[live] = keys[i] | bits[p]
            live += 1
    m = 0
    while live:
        best = 0
        low = heads[0]
        for s in range(1, live):
            head = heads[s]
            if head < low:  # (a conditional move: no branch to mispredict)
                low = head
                best = s
        i = at[2 * best]
        p = at[2 * best + 1]
        if m and out_keys[m - 1] == low:
            out_counts[m - 1] += counts[i]
        else:
            out_keys[m] = low
            out_counts[m] = counts[i]
            m += 1
        i += 1
        while i < size and not (ok[i] >> p) & 1:
            i += 1
        if i < size:
            at[2 * best] = i
            heads[best] = keys[i] | bits[p]
        else:  # the last live slot takes this one's place
            live -= 1
            at[2 * best] = at[2 * live]
            at[2 * best + 1] = at[2 * live + 1]
            heads[best] = heads[live]
    return m


def forms(keys, n, shifts, lines, later, pinned, out, fields, together):
    """``layers.fold``'s forms, state by state: ``pinned[i]``, the lines the
    open clues of mask ``keys[i]`` pin (``later``, and ``lines[j]`` for each
    inequality whose smaller cell, bit ``shifts[j]``, is empty; rows' bits
    above columns'), and ``out[i]``, the mask with its free rows' fields
    sorted, then its free columns, then its free rows again, as
    ``layers.free_form`` makes it.  ``together`` (where ``n * n + 2n <=
    64``): the pinned lines go above the form in ``out[i]``, the class's key
    in one word, and ``pinned`` is not written.  Scratch: ``fields`` (``n``
    slots)."""
    one = 1  # (a u64: a literal 1 shifted is a C int)
    row = (one << n) - one
    spread = 0
    for r in range(n):
        spread |= one << (r * n)
    for i in range(keys.shape[0]):
        k = keys[i]
        word = later
        for j in range(shifts.shape[0]):
            if not (k >> shifts[j]) & 1:
                word |= lines[j]
        if not together:
            pinned[i] = word
        free_rows = row ^ ((word >> n) & row)  # (no ~: the source runs on Python ints too)
        free_columns = row ^ (word & row)
        for sweep in range(3):  # rows, columns, rows (inline: a call per state costs)
            free, step, mask = free_rows, n, row
            if sweep == 1:
                free, step, mask = free_columns, 1, spread
            m = 0  # the free lines' fields, read as numbers, insertion-sorted (n <= 8)
            for x in range(n):
                if (free >> x) & 1:
                    f = (k >> (x * step)) & mask
                    j = m
                    while j > 0 and fields[j - 1] > f:
                        fields[j] = fields[j - 1]
                        j -= 1
                    fields[j] = f
                    m += 1
            j = 0
            for x in range(n):  # back on the free lines, the smallest on the first
                if (free >> x) & 1:
                    k = (k ^ (k & (mask << (x * step)))) | (fields[j] << (x * step))
                    j += 1
        out[i] = (k | (word << (n * n))) if together else k
    return 0


def radix_pass(keys, order, out_keys, out_order, counts, shift):
    """One pass of a least-significant-digit radix sort, 16 bits from bit
    ``shift``: ``keys`` (with their ``order``) into ``out_keys`` (and
    ``out_order``) stably sorted by that digit.  Scratch: ``counts`` (65,536
    slots)."""
    size = keys.shape[0]
    for d in range(65536):
        counts[d] = 0
    for i in range(size):
        counts[(keys[i] >> shift) & 65535] += 1
    total = 0
    for d in range(65536):
        here = counts[d]
        counts[d] = total
        total += here
    for i in range(size):
        d = (keys[i] >> shift) & 65535
        at = counts[d]
        counts[d] = at + 1
        out_keys[at] = keys[i]
        out_order[at] = order[i]
    return 0
