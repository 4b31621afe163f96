"""The gravity search's hot loop: a depth-first search over removals on flat
integer buffers, written for Cython's pure-Python mode (the C types are in
``gravity_kernel.pxd``; interpreted, this same file is the engine).

The board is ``Field``'s flat frame (walls -1, the ring 0 or -1), its
pictures renumbered 1..P.  Nothing here allocates: every buffer comes from
``gravity.GravitySearch``, which also holds the restarts, the deadline and
the answer's lines.  The search is a loop over an explicit stack, so it can
stop at any node entry (a pause to read the clock, a dive's budget spent, a
buffer to grow) and resume where it stopped.

At a node:

* the board's key (two 64-bit Zobrist hashes) is looked up in the table of
  boards proven not to clear; a hit fails the node at once;
* the moves are generated into the move stack (no list per child is kept:
  the children's moves are counted, not stored, and generated again only for
  the child entered);
* with at most ``SCORE_MAX`` moves, each child is played and undone to count
  its moves (or the tiles that have one), and children go most mobile first
  (a board with few moves is near a dead end); a child in the table, or with
  tiles and no move, is dropped (and tabled).  Boards with more moves are far
  from a dead end, and counting there would cost moves squared line searches.

Undo replaces copies: a removal under gravity shifts the column above each
gap down by one, and its undo shifts it back up.
"""

# status codes of ``run``
FOUND = 1  # the board is clear: the moves are pa/pb[0 .. depth)
EXHAUSTED = 2  # the root failed: no order of removals clears the board
OVER_BUDGET = 3  # the dive spent its nodes: restart
PAUSED = 4  # st[PAUSE] nodes reached: read the clock and call again
NO_SPACE = 5  # the move stack is full: grow it and call again (the node is redone)

# the slots of the state vector ``st``
DEPTH, NODES, STATES, PAUSE, BUDGET, MODE, RNG, BY_TILES, SHUFFLE, STAMP, TT_COUNT, \
    TILES, SCORE_CAP = range(13)
ST_SIZE = 13
ENTER, NEXT, FAIL = 0, 1, 2  # st[MODE]: what the loop does next

CLEAR = 1 << 30  # the score of a move that clears the board
SAFE_MAX = 6  # pictures of at most this many tiles are tried for a safe play
WORK = 64  # the scratch of a safe play (SAFE_MAX tiles, then fewer at each level)
SCORE_MAX = 64  # children are counted (for the order) below this many moves


def joined(cells, s, a, b, turns, mark, queue, stamp):
    """Whether a line of at most ``turns`` turns joins a and b through empty cells."""
    if turns != 2:
        return _joined_rays(cells, s, a, b, turns, mark, queue, stamp)
    ra = a // s
    ca = a - ra * s
    rb = b // s
    cb = b - rb * s
    # vertical runs of both tiles, a clear segment along a row both reach
    if ca != cb:
        p = a - s
        while cells[p] == 0:
            p -= s
        q = b - s
        while cells[q] == 0:
            q -= s
        lo = (p if p > q else q) // s + 1
        p = a + s
        while cells[p] == 0:
            p += s
        q = b + s
        while cells[q] == 0:
            q += s
        hi = (p if p < q else q) // s
        left = ca if ca < cb else cb
        right = cb if ca < cb else ca
        for r in range(lo, hi):
            x = r * s + left + 1
            end = r * s + right
            while x < end and cells[x] == 0:
                x += 1
            if x >= end:
                return True
    else:
        x = (a if a < b else b) + s
        end = a if a > b else b
        while x < end and cells[x] == 0:
            x += s
        if x >= end:
            return True
    # horizontal runs, a clear segment along a column both reach
    if ra != rb:
        p = a - 1
        while cells[p] == 0:
            p -= 1
        q = b - 1
        while cells[q] == 0:
            q -= 1
        lo = p - ra * s
        if q - rb * s > lo:
            lo = q - rb * s
        lo += 1
        p = a + 1
        while cells[p] == 0:
            p += 1
        q = b + 1
        while cells[q] == 0:
            q += 1
        hi = p - ra * s
        if q - rb * s < hi:
            hi = q - rb * s
        top = ra if ra < rb else rb
        bottom = rb if ra < rb else ra
        for c in range(lo, hi):
            x = (top + 1) * s + c
            end = bottom * s + c
            while x < end and cells[x] == 0:
                x += s
            if x >= end:
                return True
    else:
        x = (a if a < b else b) + 1
        end = a if a > b else b
        while x < end and cells[x] == 0:
            x += 1
        if x >= end:
            return True
    return False


def _joined_rays(cells, s, a, b, turns, mark, queue, stamp):
    """Any number of turns: rays of empty cells from a, then from every cell
    they reach, one more turn a round; ``mark`` holds ``stamp`` on cells seen."""
    head = 0
    tail = 1
    queue[0] = a
    for _t in range(turns + 1):
        end = tail
        while head < end:
            x = queue[head]
            head += 1
            for k in range(4):
                step = s if k == 0 else -s if k == 1 else 1 if k == 2 else -1
                y = x + step
                while cells[y] == 0:
                    if mark[y] != stamp:
                        mark[y] = stamp
                        queue[tail] = y
                        tail += 1
                    y += step
                if y == b:
                    return True
    return False


def generate(cells, s, h, w, turns, gravity, pictures, count, tiles, moved, mv, at, cap,
             store, seen, mark, queue, st):
    """The moves now: stored as pairs at mv[2 * at ...] when ``store`` (-1
    when they pass ``cap`` moves), else only counted (``pairs``)."""
    bucket(cells, s, h, w, pictures, count, tiles)
    return pairs(cells, s, turns, gravity, pictures, count, tiles, -1, -1, moved, mv, at,
                 cap, store, seen, mark, queue, st)


def pairs(cells, s, turns, gravity, pictures, count, tiles, g1, g2, moved, mv, at, cap,
          store, seen, mark, queue, st):
    """The pairs of one picture a line joins, from the tiles as ``bucket`` read
    them before the removal of g1 < g2 (-1: none) that gave ``cells``: each
    tile where it has fallen to (so a child's moves need no new reading of
    the board).  Stored or counted as ``generate`` says; with st[BY_TILES] the
    count is of the tiles that have a move.  A tile walled in on all four
    sides joins only a neighbour."""
    by_tiles = st[BY_TILES]
    st[STAMP] += 1
    stamp = st[STAMP]
    c1 = g1 % s if g1 >= 0 and gravity else -1
    c2 = g2 % s if g2 >= 0 and gravity else -1
    found = 0
    start = 0
    for v in range(1, pictures + 1):
        end = count[v]
        n = 0
        for k in range(start, end):
            x = tiles[k]
            if x != g1 and x != g2:
                if x % s == c1 and x < g1:
                    x += s
                if x % s == c2 and x < g2:
                    x += s
                moved[n] = x
                n += 1
        start = end
        for k in range(n):
            a = moved[k]
            walled = cells[a - 1] != 0 and cells[a + 1] != 0 and cells[a - s] != 0 \
                and cells[a + s] != 0
            for m in range(k + 1, n):
                b = moved[m]
                if b - a == 1 or a - b == 1 or b - a == s or a - b == s:
                    hit = True  # neighbours: a line of no cells
                elif walled:
                    hit = False
                elif cells[b - 1] != 0 and cells[b + 1] != 0 and cells[b - s] != 0 \
                        and cells[b + s] != 0:
                    hit = False  # walled in: no line leaves the tile
                else:
                    st[STAMP] += 1
                    hit = joined(cells, s, a, b, turns, mark, queue, st[STAMP])
                if hit:
                    if store:
                        if at + found >= cap:
                            return -1
                        mv[2 * (at + found)] = a
                        mv[2 * (at + found) + 1] = b
                        found += 1
                    elif by_tiles:
                        if seen[a] != stamp:
                            seen[a] = stamp
                            found += 1
                        if seen[b] != stamp:
                            seen[b] = stamp
                            found += 1
                    else:
                        found += 1
    return found


def bucket(cells, s, h, w, pictures, count, tiles):
    """The tiles by picture, each in scan order: picture v's are
    tiles[count[v - 1] .. count[v])."""
    for v in range(pictures + 2):
        count[v] = 0
    for r in range(2, h + 2):
        for i in range(r * s + 2, r * s + w + 2):
            v = cells[i]
            if v > 0:
                count[v + 1] += 1
    for v in range(1, pictures + 2):
        count[v] += count[v - 1]  # count[v] is where picture v's tiles start
    for r in range(2, h + 2):
        for i in range(r * s + 2, r * s + w + 2):
            v = cells[i]
            if v > 0:
                tiles[count[v]] = i
                count[v] += 1


# The rule of ``safe.safe_removals``, again here: this loop cannot call Python (a test
# holds the two to each other on random boards).
def safe_move(cells, s, h, w, turns, gravity, pictures, count, tiles, work, mark, queue,
              st, mv, at):
    """A first move of a safe picture (gravity.py's doc: all its tiles in the
    upper part of their columns, and they clear among themselves now), put at
    mv[2 * at]; False when no picture of at most SAFE_MAX tiles is safe."""
    bucket(cells, s, h, w, pictures, count, tiles)
    top = 2 * s
    for v in range(1, pictures + 1):
        start = count[v - 1]
        n = count[v] - start
        if n == 0 or n > SAFE_MAX:
            continue
        on_top = True
        for k in range(start, start + n):
            i = tiles[k] - s
            while i >= top:
                if cells[i] > 0 and cells[i] != v:
                    on_top = False
                    break
                i -= s
            if not on_top:
                break
            work[k - start] = tiles[k]
        if not on_top:
            continue
        k = _clears(cells, s, turns, gravity, work, 0, n, mark, queue, st)
        if k > 0:
            mv[2 * at] = work[0]
            mv[2 * at + 1] = work[k]
            return True
    return False


def _clears(cells, s, turns, gravity, work, at, n, mark, queue, st):
    """Whether the tiles work[at .. at + n) (one picture's) can all go now in
    pairs, played in turn: the index (from at) of a partner of the first
    tile that starts such a play, -1 for none tiles, 0 for no play."""
    if n == 0:
        return -1
    a = work[at]
    for k in range(1, n):
        b = work[at + k]
        st[STAMP] += 1
        if not joined(cells, s, a, b, turns, mark, queue, st[STAMP]):
            continue
        g1 = a if a < b else b
        g2 = b if a < b else a
        m = 0
        for j in range(1, n):
            if j != k:
                x = work[at + j]
                if gravity:  # where it falls to
                    if g1 % s == x % s and g1 > x:
                        x += s
                    if g2 % s == x % s and g2 > x:
                        x += s
                work[at + n + m] = x
                m += 1
        v = cells[g1]
        remove(cells, s, g1, gravity)
        remove(cells, s, g2, gravity)
        rest = _clears(cells, s, turns, gravity, work, at + n, m, mark, queue, st)
        restore(cells, s, g2, v, gravity)
        restore(cells, s, g1, v, gravity)
        if rest != 0:
            return k
    return 0


def remove(cells, s, g, gravity):
    """Empty cell g; with gravity the column above slides down into it."""
    i = g
    if gravity:
        top = 2 * s
        while i - s >= top:
            cells[i] = cells[i - s]
            i -= s
    cells[i] = 0


def restore(cells, s, g, v, gravity):
    """Undo ``remove(g)`` of a tile of picture v."""
    if gravity:
        i = 2 * s + g % s
        while i < g:
            cells[i] = cells[i + s]
            i += s
    cells[g] = v


def board_key(cells, s, h, w, pictures, zobrist, half):
    """One of the board's two hashes (``half`` 0 or 1)."""
    key = 0
    base = half * len(cells) * (pictures + 1)
    for r in range(2, h + 2):
        for i in range(r * s + 2, r * s + w + 2):
            v = cells[i]
            if v > 0:
                key ^= zobrist[base + i * (pictures + 1) + v]
    return key


def table_has(table, k1, k2):
    """Whether the board of keys k1 (non-zero), k2 is in the table: buckets
    of four slots, a board's bucket chosen by k1."""
    i = (k1 & (len(table) // 2 - 1)) & ~3
    for j in range(i, i + 4):  # noqa: SIM110 (a loop compiles to C; any() to a generator)
        if table[2 * j] == k1 and table[2 * j + 1] == k2:
            return True
    return False


def table_add(table, k1, k2, st):
    """Add a board; False when it was there.  In a full bucket the new board
    replaces one chosen by k2 (an old proof is lost, never a wrong one kept);
    the owner grows the table between calls."""
    i = (k1 & (len(table) // 2 - 1)) & ~3
    for j in range(i, i + 4):
        if table[2 * j] == k1 and table[2 * j + 1] == k2:
            return False
    for j in range(i, i + 4):
        if table[2 * j] == 0:
            table[2 * j] = k1
            table[2 * j + 1] = k2
            st[TT_COUNT] += 1
            return True
    j = i + (k2 & 3)
    table[2 * j] = k1
    table[2 * j + 1] = k2
    return True


def _xor_column(cells, s, g, pictures, zobrist, keys):
    """XOR into the keys the tiles of g's column from the top row down to g."""
    p1 = pictures + 1
    second = len(cells) * p1
    k1 = keys[0]
    k2 = keys[1]
    i = 2 * s + g % s
    while i <= g:
        v = cells[i]
        if v > 0:
            k1 ^= zobrist[i * p1 + v]
            k2 ^= zobrist[second + i * p1 + v]
        i += s
    keys[0] = k1
    keys[1] = k2


def _xor_region(cells, s, g1, g2, pictures, zobrist, keys):
    """XOR into the keys every cell a removal of g1 < g2 can change (the
    columns above the gaps), before it and again after it: the keys follow
    the board at the cost of two columns, not the board."""
    if g1 % s == g2 % s:
        _xor_column(cells, s, g2, pictures, zobrist, keys)
    else:
        _xor_column(cells, s, g1, pictures, zobrist, keys)
        _xor_column(cells, s, g2, pictures, zobrist, keys)


def _first_key(keys):
    """The table's first key for the board (0 marks an empty slot)."""
    return keys[0] if keys[0] != 0 else 1


def _next_random(st):
    """A number in [0, 2048) from the search's own generator (the same in C and Python)."""
    x = (st[RNG] * 1103515245 + 12345) & 0x7FFFFFFF
    st[RNG] = x
    return x >> 20


def run(cells, s, h, w, turns, gravity, pictures, st,
        zobrist, table, mv, score, mstart, mnext, mend, ua, ub, uv, count, tiles, seen,
        mark, queue, keys, work, moved):
    """Search on from the state in ``st`` and the stacks until an answer, a
    pause or a budget (the codes at the top of the module)."""
    cap = len(score)
    while True:
        mode = st[MODE]
        d = st[DEPTH]
        if mode == ENTER:
            if st[NODES] >= st[PAUSE]:
                return PAUSED
            if st[NODES] >= st[BUDGET]:
                return OVER_BUDGET
            if st[TILES] == 0:
                return FOUND
            k1 = _first_key(keys)
            k2 = keys[1]
            if table_has(table, k1, k2):
                st[NODES] += 1
                st[MODE] = FAIL
                continue
            first = mstart[d]
            if first + 1 > cap:
                return NO_SPACE
            if safe_move(cells, s, h, w, turns, gravity, pictures, count, tiles, work, mark,
                         queue, st, mv, first):
                st[NODES] += 1
                mend[d] = first + 1  # the one child: playing the safe picture loses nothing
                mnext[d] = first
                st[MODE] = NEXT
                continue
            n = generate(cells, s, h, w, turns, gravity, pictures, count, tiles, moved, mv,
                         first, cap, True, seen, mark, queue, st)
            if n < 0:
                return NO_SPACE
            st[NODES] += 1
            if n <= SCORE_MAX:
                n = _order(cells, s, turns, gravity, pictures, st, zobrist, table, mv,
                           score, first, n, count, tiles, moved, seen, mark, queue, keys)
            elif st[SHUFFLE]:
                _shuffle(mv, first, n, st)
            mend[d] = first + n
            mnext[d] = first
            st[MODE] = NEXT if n > 0 else FAIL
            continue
        if mode == NEXT:
            j = mnext[d]
            if j == mend[d]:
                st[MODE] = FAIL
                continue
            mnext[d] = j + 1
            a = mv[2 * j]
            b = mv[2 * j + 1]
            g1 = a if a < b else b  # the upper gap first, so the lower one stays put
            g2 = b if a < b else a
            ua[d] = g1
            ub[d] = g2
            v = cells[g1]
            _xor_region(cells, s, g1, g2, pictures, zobrist, keys)
            remove(cells, s, g1, gravity)
            remove(cells, s, g2, gravity)
            _xor_region(cells, s, g1, g2, pictures, zobrist, keys)
            uv[d] = v  # the picture, for the undo
            st[TILES] -= 2
            st[DEPTH] = d + 1
            mstart[d + 1] = mend[d]
            st[MODE] = ENTER
            continue
        # FAIL: table the board, undo the move that led here
        if table_add(table, _first_key(keys), keys[1], st):
            st[STATES] += 1
        if d == 0:
            return EXHAUSTED
        d -= 1
        v = uv[d]
        _xor_region(cells, s, ua[d], ub[d], pictures, zobrist, keys)
        restore(cells, s, ub[d], v, gravity)
        restore(cells, s, ua[d], v, gravity)
        _xor_region(cells, s, ua[d], ub[d], pictures, zobrist, keys)
        st[TILES] += 2
        st[DEPTH] = d
        st[MODE] = NEXT


def _order(cells, s, turns, gravity, pictures, st, zobrist, table, mv, score, first, n,
           count, tiles, moved, seen, mark, queue, keys):
    """Count each child's moves, drop the dead ones, and sort the rest most
    mobile first (ties at random after the first dive); the children left."""
    kept = 0
    for j in range(first, first + n):
        a = mv[2 * j]
        b = mv[2 * j + 1]
        g1 = a if a < b else b
        g2 = b if a < b else a
        v = cells[g1]
        _xor_region(cells, s, g1, g2, pictures, zobrist, keys)
        remove(cells, s, g1, gravity)
        remove(cells, s, g2, gravity)
        _xor_region(cells, s, g1, g2, pictures, zobrist, keys)
        alive = not table_has(table, _first_key(keys), keys[1])
        if alive and st[TILES] > 2:
            m = pairs(cells, s, turns, gravity, pictures, count, tiles, g1, g2, moved, mv,
                      0, 0, False, seen, mark, queue, st)
            if m == 0:
                alive = False
                if table_add(table, _first_key(keys), keys[1], st):
                    st[STATES] += 1
        else:
            m = CLEAR  # the child is the clear board: it goes first
        _xor_region(cells, s, g1, g2, pictures, zobrist, keys)
        restore(cells, s, g2, v, gravity)
        restore(cells, s, g1, v, gravity)
        _xor_region(cells, s, g1, g2, pictures, zobrist, keys)
        if alive:
            key = -(m << 11)
            if st[SHUFFLE]:
                key -= _next_random(st)
            mv[2 * (first + kept)] = a
            mv[2 * (first + kept) + 1] = b
            score[first + kept] = key
            kept += 1
    # insertion sort on the key, stable (the generation order breaks ties)
    for j in range(first + 1, first + kept):
        key = score[j]
        a = mv[2 * j]
        b = mv[2 * j + 1]
        i = j - 1
        while i >= first and score[i] > key:
            score[i + 1] = score[i]
            mv[2 * (i + 1)] = mv[2 * i]
            mv[2 * (i + 1) + 1] = mv[2 * i + 1]
            i -= 1
        score[i + 1] = key
        mv[2 * (i + 1)] = a
        mv[2 * (i + 1) + 1] = b
    return kept


def _shuffle(mv, first, n, st):
    """A random order of the moves (Fisher-Yates on the search's generator)."""
    for j in range(first + n - 1, first, -1):
        i = first + (_next_random(st) * (j - first + 1) >> 11)
        a = mv[2 * j]
        b = mv[2 * j + 1]
        mv[2 * j] = mv[2 * i]
        mv[2 * j + 1] = mv[2 * i + 1]
        mv[2 * i] = a
        mv[2 * i + 1] = b
