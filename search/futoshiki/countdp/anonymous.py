"""The ranks plan's steps once every value is anonymous, compiled.

A compiled kernel (``search.core.compiled``): this plain Python is the source
(its arrays come as memoryviews, whose items are Python ints when interpreted),
``anonymous.pxd`` beside it gives Cython the C types.  After the last clue
(``ranks``' fold) a state is only its slots' patterns, sorted; ``ranks``
hands such states here where the kernel is compiled, and keeps its own
dictionaries where it is not (the tests run this source interpreted too).

* A state is ``words`` 64-bit words of 16-bit patterns (slot ``s`` in word
  ``s // 4``, bits ``16 * (s % 4)``: the bytes of ``ranks``' keys), and a
  count held as its 32-bit residues modulo ``PRIMES`` (no division is left
  after the fold, and ``ranks.fold_residues`` reads the total back: it is
  below their product).  32 bytes a state on an 8x8.
* A step fills one cell: each run of equal free patterns of a state gives one
  successor, times the run's length, made canonical exactly as
  ``ranks.Plan.canonical`` makes it (patterns sorted, each group's line sets
  sorted, patterns sorted again where a line moved).
* The successors go into an open-addressing table: ``slots`` (a power of two,
  -1 where empty) point into ``out_keys`` and ``out_counts``.  ``step`` stops
  before a state whose successors might not fit, and returns its index; the
  caller grows the table (``rehash``) within its memory budget and goes on.
"""

PRIMES = (4294967291, 4294967279, 4294967231, 4294967197)  # the largest primes below 2**32
RESIDUES = 4  # len(PRIMES): counts below their product, about 3.4e38
FIELD_MASK = 0xFFFF  # one packed pattern
WORD_MASK = 0xFFFFFFFFFFFFFFFF  # (the interpreted source runs on Python ints)
MIX = 0x9E3779B97F4A7C15  # Fibonacci hashing's multiplier


def slot_of(key, words, slots):
    """The table slot of ``key`` (a word array of length ``words``): where it
    is, or the empty slot where it goes."""
    h = 0
    for w in range(words):
        h = ((h ^ key[w]) * MIX) & WORD_MASK
    h ^= h >> 29
    size = slots.shape[0]
    return h & (size - 1)


def rehash(keys, fill, words, slots, key):
    """Put the first ``fill`` keys of ``keys`` into the empty table ``slots``.
    Scratch: ``key`` (``words`` slots)."""
    size = slots.shape[0]
    for j in range(fill):
        for w in range(words):
            key[w] = keys[j * words + w]
        at = slot_of(key, words, slots)
        while slots[at] >= 0:
            at = (at + 1) & (size - 1)
        slots[at] = j
    return 0


def step(keys, counts, start, stop, n, words, mask, clear, lines, ends, primes,
         out_keys, out_counts, slots, fill, pats, succ, sets, key):
    """Fill one cell for states ``start`` to ``stop``: the cell's lines are
    ``mask`` (its row's and column's bits), ``clear`` the lines it closes;
    groups ``lines[ends[g - 1]:ends[g]]`` of lines are interchangeable.
    Returns the index of the first state not stepped (``stop`` when all
    were); ``fill[0]`` is the number of states in the table.  Scratch:
    ``pats``, ``succ`` (``n`` slots), ``sets`` (one per line in ``lines``),
    ``key`` (``words``)."""
    size = slots.shape[0]
    room = out_keys.shape[0] // words
    keep = FIELD_MASK ^ clear
    for i in range(start, stop):
        if fill[0] + n > room or 2 * (fill[0] + n) > size:
            return i
        for s in range(n):
            pats[s] = (keys[i * words + (s >> 2)] >> ((s & 3) * 16)) & FIELD_MASK
        s = 0
        while s < n:
            e = s + 1
            while e < n and pats[e] == pats[s]:
                e += 1
            if not pats[s] & mask:
                for t in range(n):
                    succ[t] = pats[t] & keep
                succ[s] = (pats[s] | mask) & keep
                canonical(succ, n, lines, ends, sets)
                for w in range(words):
                    key[w] = 0
                for t in range(n):
                    key[t >> 2] |= succ[t] << ((t & 3) * 16)
                at = slot_of(key, words, slots)
                while True:
                    j = slots[at]
                    if j < 0:
                        j = fill[0]
                        slots[at] = j
                        fill[0] = j + 1
                        for w in range(words):
                            out_keys[j * words + w] = key[w]
                        for r in range(RESIDUES):
                            out_counts[j * RESIDUES + r] = 0
                        break
                    same = True
                    for w in range(words):
                        if out_keys[j * words + w] != key[w]:
                            same = False
                            break
                    if same:
                        break
                    at = (at + 1) & (size - 1)
                for r in range(RESIDUES):  # (32-bit residues: a sum of two products fits)
                    c = counts[i * RESIDUES + r]
                    out_counts[j * RESIDUES + r] = (out_counts[j * RESIDUES + r]
                                                    + c * (e - s)) % primes[r]
            s = e
    return stop


def canonical(pats, n, lines, ends, sets):
    """Sort ``pats``, then each group's line sets, then ``pats`` again where a
    line moved (``ranks.Plan.canonical``, for one gap of anonymous values)."""
    sort(pats, 0, n)
    moved = False
    begin = 0
    for g in range(ends.shape[0]):
        for k in range(begin, ends[g]):
            x = lines[k]
            v = 0
            for s in range(n):
                v |= ((pats[s] >> x) & 1) << s
            sets[k] = v
        if not sorted_run(sets, begin, ends[g]):
            sort(sets, begin, ends[g])
            moved = True
            for k in range(begin, ends[g]):
                x = lines[k]
                for s in range(n):
                    pats[s] = (pats[s] & (FIELD_MASK ^ (1 << x))) | (((sets[k] >> s) & 1) << x)
        begin = ends[g]
    if moved:
        sort(pats, 0, n)
    return 0


def sorted_run(a, lo, hi):
    """Whether ``a[lo:hi]`` is in increasing order."""
    for k in range(lo + 1, hi):  # noqa: SIM110 (compiled to a C loop; all() would not be)
        if a[k - 1] > a[k]:
            return False
    return True


def sort(a, lo, hi):
    """Insertion sort of ``a[lo:hi]`` (a handful of entries)."""
    for k in range(lo + 1, hi):
        v = a[k]
        j = k
        while j > lo and a[j - 1] > v:
            a[j] = a[j - 1]
            j -= 1
        a[j] = v
    return 0
