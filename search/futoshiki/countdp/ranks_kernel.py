"""The ranks plan's step, compiled.

A compiled kernel (``search.core.compiled``): this plain Python is the source,
``ranks_kernel.pxd`` beside it gives Cython the C types; its arrays come as
memoryviews, whose items are Python ints where it runs interpreted.  Where it
is compiled, ``ranks`` steps its states here instead of in its dictionaries
(the tests run this source interpreted too): the same successors, the same
canonical forms, so the same states.

* A state is ``words`` 64-bit words of 16-bit slot patterns (slot ``s`` in
  word ``s // 4``, bits ``16 * (s % 4)``: the bytes of ``ranks``' keys), then,
  before the fold, one word more: its chain's number above bit ``CHAIN_SHIFT``
  and its fields, 4 bits each, below.  Its count is held as ``R`` 32-bit
  residues, modulo the ``primes`` that ``ranks`` chooses: the plan's exact
  divisions are multiplications by inverses there, and
  ``ranks.fold_residues`` reads the total back (it is below their product).
  28 bytes a state on an 8x8 after the fold (three residues), 36 before.
* The chains are numbered by ``ranks``, which gives their tables for the
  step (chain 0: none, after the fold; ``g = c * gaps + gap``): ``marks[c]``
  its labels, ``tokens[2 * g:2 * g + 2]`` the slots ``[lo, hi)`` of a gap's
  anonymous values, ``places[2 * g:2 * g + 2]`` the places ``[lo, hi]`` a
  new label of it may take, ``inverses[g * R + r]`` the inverse of
  its free values modulo ``primes[r]``, ``grown[c * (n + 1) + at]`` the chain
  with a new label at ``at``, ``ways[c * R + r]`` its ways, and
  ``given_slots[c]`` the slot of the step's given (-1: no given).
* The successors go into an open-addressing table: ``slots`` (a power of two,
  -1 where empty) point into ``out_keys`` and ``out_counts``.  ``step`` stops
  before a state whose successors might not fit there or fill the slots past
  half, and returns its index; the caller grows the arrays or the slots
  (``rehash``) within its memory budget and goes on.
* A state's successors are made first (``pending``, ``meta``) and merged into
  the table after (``merge``).  The table is far larger than the caches, and
  its loads are most of the step's time: made first, the successors' slots
  and states are loaded one after another, each load independent of the
  others, so that the processor waits for them together, not in turn.
"""

CHAIN_SHIFT = 40  # a chain's number above the fields
FIELDS = 10  # fields a state holds at most, 4 bits each below CHAIN_SHIFT
FIELD_MASK = 0xFFFF  # one packed pattern
WORD_MASK = 0xFFFFFFFFFFFFFFFF  # (the interpreted source runs on Python ints)
MIX = 0x9E3779B97F4A7C15  # Fibonacci hashing's multiplier
META = 5  # numbers ``meta`` holds for a successor


def most_fields():
    """``FIELDS``, for the caller (a C constant where compiled)."""
    return FIELDS


def chain_shift():
    """``CHAIN_SHIFT``, for the caller."""
    return CHAIN_SHIFT


def meta_numbers():
    """``META``, for the caller."""
    return META


def slot_of(keys, at, width, slots):
    """The table slot where the key ``keys[at:at + width]`` is, or goes."""
    h = 0
    for w in range(width):
        h = ((h ^ keys[at + w]) * MIX) & WORD_MASK
    h ^= h >> 29
    return h & (slots.shape[0] - 1)


def rehash(keys, fill, width, slots):
    """Put the first ``fill`` keys of ``keys`` into the empty table ``slots``."""
    size = slots.shape[0]
    for j in range(fill):
        at = slot_of(keys, j * width, width, slots)
        while slots[at] >= 0:
            at = (at + 1) & (size - 1)
        slots[at] = j
    return 0


def step(keys, counts, start, stop, n, words, chained, place, links, moves, lines, ends,
         marks, tokens, places, inverses, grown, ways, given_slots, primes,
         out_keys, out_counts, slots, fill, scratch, pending, meta):
    """Fill one cell for states ``start`` to ``stop``.  Returns the index of
    the first state not stepped (``stop`` when all were); ``fill[0]`` is the
    number of states in the table.

    ``chained``: 2 while the states and their successors hold a chain word, 1
    on the fold's step (the successors do not), 0 after it.  ``place``: the
    cell's lines (its row's and column's bits), the lines it closes, whether
    it names, whether the chain folds after it, and the number of gaps.
    ``links``: (field, sign) pairs of its filled neighbours; ``moves``: the
    fields after, as indices of the fields before (-1 this cell).  Groups
    ``lines[ends[g - 1]:ends[g]]`` of lines are interchangeable.  Scratch:
    ``scratch`` (``2 * FIELDS + 2 * n + len(lines)`` slots), ``pending`` and
    ``meta`` (room for at least ``n * (n + 1)`` successors: ``words + 1``
    words each, and ``META`` numbers each and one more)."""
    width = words + (1 if chained else 0)
    out_width = words + (1 if chained == 2 else 0)
    room = out_keys.shape[0] // out_width
    most = n * (n + 1)  # successors of one state, at most
    batch = (meta.shape[0] - 1) // META  # successors held before they are merged
    mask = place[0]
    names = place[2]
    gaps = place[4]
    made = 0
    for i in range(start, stop):
        if made + most > batch:
            made = merge(counts, made, out_width, place, inverses, ways, primes, out_keys,
                         out_counts, slots, fill, pending, meta)
        if fill[0] + made + most > room or 2 * (fill[0] + made + most) > slots.shape[0]:
            merge(counts, made, out_width, place, inverses, ways, primes, out_keys,
                  out_counts, slots, fill, pending, meta)
            return i
        for s in range(n):
            scratch[s] = (keys[i * width + (s >> 2)] >> ((s & 3) * 16)) & FIELD_MASK
        chain = 0
        if chained:
            extra = keys[i * width + words]
            chain = extra >> CHAIN_SHIFT
            for f in range(FIELDS):
                scratch[n + f] = (extra >> (4 * f)) & 15
        if given_slots[chain] >= 0:  # the given's label: its slot alone
            s = given_slots[chain]
            if not scratch[s] & mask and allowed(scratch, n, links, s, 0):
                made = successor(made, i, n, words, chained, s, -1, chain, 1, -1, place, moves,
                                 lines, ends, tokens, slots, scratch, pending, meta)
            continue
        for s in range(marks[chain]):
            if not scratch[s] & mask and allowed(scratch, n, links, s, 0):
                made = successor(made, i, n, words, chained, s, -1, chain, 1, -1, place, moves,
                                 lines, ends, tokens, slots, scratch, pending, meta)
        for g in range(chain * gaps, chain * gaps + gaps):
            s = tokens[2 * g]
            while s < tokens[2 * g + 1]:  # runs of equal patterns: one successor a run
                e = s + 1
                while e < tokens[2 * g + 1] and scratch[e] == scratch[s]:
                    e += 1
                if not scratch[s] & mask:
                    if not names:
                        made = successor(made, i, n, words, chained, s, -1, chain, e - s, -1,
                                         place, moves, lines, ends, tokens, slots, scratch,
                                         pending, meta)
                    else:
                        for at in range(places[2 * g], places[2 * g + 1] + 1):
                            if allowed(scratch, n, links, at, 1):
                                made = successor(made, i, n, words, chained, s, at,
                                                 grown[chain * (n + 1) + at], e - s, g, place,
                                                 moves, lines, ends, tokens, slots, scratch,
                                                 pending, meta)
                s = e
    merge(counts, made, out_width, place, inverses, ways, primes, out_keys, out_counts, slots,
          fill, pending, meta)
    return stop


def allowed(scratch, n, links, s, naming):
    """Whether slot ``s`` meets every link's sign (the fields at
    ``scratch[n:]``).  Where ``naming``, ``s`` is a new label's place: below
    the label in slot ``f`` when ``s <= f``."""
    for k in range(links.shape[0] // 2):
        f = scratch[n + links[2 * k]]
        if links[2 * k + 1] < 0:
            if s >= f + naming:
                return False
        elif s <= f:
            return False
    return True


def successor(made, i, n, words, chained, s, at, after, times, gap, place, moves, lines, ends,
              tokens, slots, scratch, pending, meta):
    """Make the ``made``-th successor of the state in ``scratch``: slot ``s``
    filled, moved to the new label's place ``at`` unless -1, chain ``after``,
    its count times ``times`` (divided by the free values of gap ``gap`` where
    one is named; times the chain's ways where it folds).  Its key goes to
    ``pending``, and (times, gap, chain, table slot, ``i``: the state it
    comes from) to ``meta``.  Returns ``made + 1``."""
    succ = n + FIELDS  # scratch: the state's patterns and fields, the successor's, the sets
    out = succ + n
    for t in range(n):
        scratch[succ + t] = scratch[t]
    scratch[succ + s] = scratch[s] | place[0]
    value = s
    if at >= 0:  # the anonymous value becomes the label at ``at``: the slots between move up
        for t in range(s, at, -1):
            scratch[succ + t] = scratch[succ + t - 1]
        scratch[succ + at] = scratch[s] | place[0]
        value = at
    for t in range(n):
        scratch[succ + t] &= FIELD_MASK ^ place[1]
    chain = 0 if place[3] else after
    for k in range(moves.shape[0]):
        if moves[k] < 0:
            scratch[out + k] = value
        else:
            f = scratch[n + moves[k]]
            scratch[out + k] = f + 1 if at >= 0 and f >= at else f
    canonical(scratch, succ, n, tokens, chain * place[4], place[4], lines, ends, out + FIELDS)
    width = words + (1 if chained == 2 else 0)
    base = made * width  # (pending holds the successors at the table's width)
    for w in range(width):
        pending[base + w] = 0
    for t in range(n):
        pending[base + (t >> 2)] |= scratch[succ + t] << ((t & 3) * 16)
    if chained == 2:
        pending[base + words] = chain << CHAIN_SHIFT
        for k in range(moves.shape[0]):
            pending[base + words] |= scratch[out + k] << (4 * k)
    meta[META * made] = times
    meta[META * made + 1] = gap
    meta[META * made + 2] = after
    meta[META * made + 3] = slot_of(pending, base, width, slots)
    meta[META * made + 4] = i
    return made + 1


def merge(counts, made, width, place, inverses, ways, primes, out_keys, out_counts, slots,
          fill, pending, meta):
    """Add the ``made`` successors in ``pending`` and ``meta`` to the table;
    returns 0 (none left).  Their slots, then the states these point to, are
    loaded first, each load independent of the others (their sum is kept in
    ``meta``'s last number, so that they are done)."""
    residues = primes.shape[0]
    size = slots.shape[0]
    touched = 0
    for k in range(made):
        touched += slots[meta[META * k + 3]]
    for k in range(made):
        j = slots[meta[META * k + 3]]
        if j >= 0:
            touched += out_keys[j * width] + out_counts[j * residues]
    meta[meta.shape[0] - 1] = touched & 1
    for k in range(made):
        base = k * width
        h = meta[META * k + 3]
        while True:
            j = slots[h]
            if j < 0:
                j = fill[0]
                slots[h] = j
                fill[0] = j + 1
                for w in range(width):
                    out_keys[j * width + w] = pending[base + w]
                for r in range(residues):
                    out_counts[j * residues + r] = 0
                break
            same = True
            for w in range(width):
                if out_keys[j * width + w] != pending[base + w]:
                    same = False
                    break
            if same:
                break
            h = (h + 1) & (size - 1)
        times, gap, after, i = meta[META * k], meta[META * k + 1], meta[META * k + 2], \
            meta[META * k + 4]
        for r in range(residues):  # (32-bit residues: each product fits in 64 bits)
            c = (counts[i * residues + r] * times) % primes[r]
            if gap >= 0:
                c = (c * inverses[gap * residues + r]) % primes[r]
            if place[3]:
                c = (c * ways[after * residues + r]) % primes[r]
            out_counts[j * residues + r] = (out_counts[j * residues + r] + c) % primes[r]
    return 0


def canonical(scratch, at, n, tokens, first, gaps, lines, ends, sets):
    """Sort each gap's anonymous slots (``tokens[2 * g: 2 * g + 2]`` for
    ``first <= g < first + gaps``) of the patterns ``scratch[at:at + n]``,
    then each group's line sets, then the slots again where a line moved
    (``ranks.Plan.canonical``).  Scratch: ``scratch[sets:]``."""
    for g in range(first, first + gaps):
        sort(scratch, at + tokens[2 * g], at + tokens[2 * g + 1])
    moved = False
    begin = 0
    for g in range(ends.shape[0]):
        for k in range(begin, ends[g]):
            v = 0
            for s in range(n):
                v |= ((scratch[at + s] >> lines[k]) & 1) << s
            scratch[sets + k] = v
        if not sorted_run(scratch, sets + begin, sets + ends[g]):
            sort(scratch, sets + begin, sets + ends[g])
            moved = True
            for k in range(begin, ends[g]):
                x = lines[k]
                for s in range(n):
                    scratch[at + s] = ((scratch[at + s] & (FIELD_MASK ^ (1 << x)))
                                       | (((scratch[sets + k] >> s) & 1) << x))
        begin = ends[g]
    if moved:
        for g in range(first, first + gaps):
            sort(scratch, at + tokens[2 * g], at + tokens[2 * g + 1])
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
