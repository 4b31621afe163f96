# cython: annotation_typing=False
"""The ``links`` search's state, propagation and node loop (``links.py`` says
what the rules are), written for Cython's pure-Python mode: the C types are in
``links_kernel.pxd``; interpreted, this same file is the engine.

Every per-cell mask and pointer the rules change lives in one buffer of
64-bit integers, ``mem`` (``on``, ``off``, ``mate``, ``corners``,
``colour``, ``square`` are views of its parts), so an undo entry is a
position in ``mem`` and the value it held.  The conflict sets stay Python
ints (a bit per depth, as wide as the search is deep); the two of them a
change can overwrite (``chain_why``, ``corner_why``) are saved in ``saved``
and undone through positions past ``mem``'s end.  The queue of cells to
revisit and the trail are buffers that grow when full.
"""

from __future__ import annotations

from array import array

from search.numberlink.model import Numberlink, Solution

POP = tuple(bin(m).count("1") for m in range(16))
BITS = tuple(tuple(d for d in range(4) if m >> d & 1) for m in range(16))
# a cell's two links: the straights (up-down, right-left) and the four corners
STRAIGHTS = (0b0101, 0b1010)
CORNERS = (0b0011, 0b0110, 0b1100, 0b1001)  # up-right, right-down, down-left, left-up


def _shape_table() -> array:
    """For a cell that needs two links, indexed by (corners allowed, on, off):
    -1 when no allowed shape fits, else the links to lay (bits 0-3) and the
    links to cut (bits 4-7).  One look-up does the degree rule and the corner
    rule."""
    table = array("q")
    for allowed in range(16):
        shapes = STRAIGHTS + tuple(c for k, c in enumerate(CORNERS) if allowed >> k & 1)
        for on in range(16):
            for off in range(16):
                fits = [s for s in shapes if s & on == on and not s & off]
                if not fits:
                    table.append(-1)
                    continue
                both, either = 15, 0
                for s in fits:
                    both &= s
                    either |= s
                table.append((both & ~on) | (15 & ~either & ~off) << 4)
    return table


SHAPES = _shape_table()
# corners k a cell can still turn, by (on, off): CORNERS[k] holds on and misses off
FITS = array("q", (sum(1 << k for k, c in enumerate(CORNERS) if c & on == on and not c & off)
                   for on in range(16) for off in range(16)))
# a label with its link towards d ends no spike of corners k whose square sends
# one of its two links at it (those links would come from d ^ 2 ... see ``spikes``)
ENDS_NOT = array("q", (sum(1 << k for k, c in enumerate(CORNERS)
                           if any(c >> e & 1 for e in range(4) if on >> (e ^ 2) & 1))
                       for on in range(16)))
NO_LABEL = -1  # label of a cell that ends no pair
NONE = NO_LABEL  # (its name for Python callers: the kernel's own is a C constant)
REGION_EVERY = 64  # nodes between region checks: each scans the board, and in a
# board-order search they seldom fail (40x40: 3.6 k nodes either way, 2x the time at 8)
# the parts of ``mem`` (each ``size`` long), then the saved conflict sets' positions
ON, OFF, MATE, CORNER, COLOUR, SQUARE, PARTS = range(7)
CHAIN_WHY, CORNER_WHY = PARTS, PARTS + 1


def pop4(m: int) -> int:
    """The links in a mask of four."""
    return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1)


def zeros(n: int) -> array:
    """A buffer of n zeros."""
    return array("q", [0]) * n


def grown(buffer) -> array:
    """A buffer over twice as long holding ``buffer``'s values first."""
    n = len(buffer)
    bigger = zeros(2 * n + 2)
    for k in range(n):
        bigger[k] = buffer[k]
    return bigger


class Exhausted(Exception):
    """The node budget ran out (the search stops undecided)."""


class Links:
    """The search state: per cell, masks of links on (``on``) and off
    (``off``), bit d for the step ``step[d]``; the padded grid has a ring of
    cells with every link off.  ``spiky`` (default: without self-touch under
    full cover) keeps the corner spikes."""

    def __init__(self, puzzle: Numberlink, *, nst: bool, backjump: bool = True,
                 spiky: bool | None = None, deadline=None):
        self.puzzle, self.nst, self.backjump = puzzle, nst, backjump
        self.full = puzzle.full_cover
        w = self.stride = puzzle.width + 2
        size = self.size = w * (puzzle.height + 2)
        self.step = (-w, 1, w, -1)  # up, right, down, left; d ^ 2 is the way back
        self.steps = array("q", self.step)
        self.cell_of = [((i // w) - 1, (i % w) - 1) for i in range(size)]
        # board order: along the anti-diagonals from the top left corner (the
        # order of thomasahle's solver); on generated 40x40 boards it leaves
        # 1 of 5 undecided in 20 k nodes where row order leaves 3
        self.inside = [(r + 1) * w + c + 1
                       for _, r, c in sorted((r + c, r, c) for r, c in puzzle.open_cells)]
        if deadline is not None:
            deadline.check()  # (a compiled stretch answers no signal: check between them)
        live = zeros(size)
        for i in self.inside:
            live[i] = 1
        self.live = live
        label = array("q", [NO_LABEL]) * size
        self.ends = []
        for k, pair in enumerate(puzzle.pairs):
            a, b = (self.index(c) for c in (pair.a, pair.b))
            label[a] = label[b] = k
            self.ends.append((a, b))
        self.label = label
        # need: links a cell must have (1 for a label; 2 for a cell under full cover;
        # lenient cells need 0 or 2, marked 2 with ``optional``)
        need = zeros(size)
        optional = zeros(size)
        for i in self.inside:
            need[i] = 1 if label[i] != NO_LABEL else 2
            optional[i] = not self.full and label[i] == NO_LABEL
        self.need, self.optional = need, optional
        mem = zeros(PARTS * size)
        view = memoryview(mem)
        self.mem = mem
        self.on, self.off, self.mate = view[:size], view[size:2 * size], view[2 * size:3 * size]
        self.corners, self.colour = view[3 * size:4 * size], view[4 * size:5 * size]
        self.square = view[5 * size:]  # links in the 2 x 2 square whose top left is i
        self.fill(deadline)
        # corners a cell may turn (bit k: CORNERS[k]); all but under full cover
        # without self-touch, where a corner only sits on a spike (``spikes``)
        self.spiky = self.nst and self.full if spiky is None else spiky
        allowed = self.spikes(deadline) if self.spiky else [15] * size
        for i in range(size):
            self.corners[i] = allowed[i]
        self.diagonal = array("q", (sum(self.step[d] for d in range(4) if c >> d & 1)
                                    for c in CORNERS))
        # conflict sets (``search``): bit k stands for the decision at depth k.
        # ``why[4 * i + d]`` holds the decisions that laid or cut the link from i
        # towards d (read only while it is decided, so never undone); a chain
        # end's ``chain_why`` those of its chain's links, a painted cell's
        # ``colour_why`` those of the chain that gave it its label, a cell's
        # ``corner_why`` those that took corners from it
        self.why = [0] * (4 * size)
        self.chain_why = [0] * size
        self.colour_why = [0] * size
        self.corner_why = [0] * size
        self.conflict = 0  # the decisions a contradiction follows from
        self.decisions = 0  # the decisions in force (a refuted one's cut is no decision)
        # the trail: pairs (position, value before); a position past mem's end
        # is a saved conflict set, its value the index in ``saved``
        self.trail = zeros(max(64, 4 * size))
        self.tn = 0
        self.saved: list[int] = []
        self.queue = zeros(max(64, 2 * size))  # cells to revisit
        self.qn = 0
        self.nodes = 0
        self.first = 0  # cells of ``inside`` before this one have every link decided

    def fill(self, deadline) -> None:
        """The empty board: every cell its own chain, with its label, and
        every link off but those between open cells (``deadline`` checked
        every 65,536 cells)."""
        live, label, steps = self.live, self.label, self.steps
        off, mate, colour = self.off, self.mate, self.colour
        for i in range(self.size):
            off[i] = 15
            mate[i] = i  # the other end of the chain a chain end is on
            colour[i] = label[i]  # the label of the chain a cell is on
        for n, i in enumerate(self.inside):
            if deadline is not None and not n & 0xFFFF:
                deadline.check()
            m = 0
            for d in range(4):
                if not live[i + steps[d]]:
                    m |= 1 << d
            off[i] = m

    def spikes(self, deadline=None) -> list[int]:
        """Corners allowed per cell under full cover without self-touch.  A
        cell turning right-down (say) puts two links in its 2 x 2 square to
        the lower right, so the cell diagonally below it loses its up and left
        links and must turn right-down too, unless it is a label or blocked:
        the corner is one of a spike of corners running down-right that ends at
        a label or a blocked cell (thomasahle's corner spikes).  A cell can
        turn that corner only if the walk from it along the diagonal meets a
        label or a blocked cell before a cell that cannot turn it."""
        live, label, steps = self.live, self.label, self.steps
        allowed = [0] * self.size
        for k in range(4):
            s1, s2 = steps[k], steps[(k + 1) % 4]  # the two links of CORNERS[k]
            diagonal = s1 + s2
            known: dict[int, bool] = {}
            for n, start in enumerate(self.inside):
                if deadline is not None and not n & 0xFFFF:
                    deadline.check()
                walk, i, ok = [], start, False
                while True:
                    if i in known:
                        ok = known[i]
                        break
                    if not live[i] or label[i] != NO_LABEL:
                        ok = True  # a label, or a blocked cell (the walk never leaves the board:
                        break  # both cells beside its last step are on it)
                    if not (live[i + s1] and live[i + s2]):
                        ok = False
                        break
                    walk.append(i)
                    i += diagonal
                for j in walk:
                    known[j] = ok
                    if ok:
                        allowed[j] |= 1 << k
        return allowed

    def index(self, cell: tuple[int, int]) -> int:
        return (cell[0] + 1) * self.stride + cell[1] + 1

    # ------------------------------------------------------------ changes

    def keep(self, part: int, i: int, j: int = -1) -> None:
        """Trail cell i's value in the part ``part`` of ``mem`` (and cell j's,
        if j >= 0), as they are."""
        if self.tn + 4 > len(self.trail):
            self.trail = grown(self.trail)
        trail, t, at = self.trail, self.tn, part * self.size
        trail[t] = at + i
        trail[t + 1] = self.mem[at + i]
        if j >= 0:
            trail[t + 2] = at + j
            trail[t + 3] = self.mem[at + j]
            self.tn = t + 4
        else:
            self.tn = t + 2

    def keep_why(self, part: int, i: int, j: int = -1) -> None:
        """Trail the conflict set ``chain_why`` or ``corner_why`` (``part``)
        holds at cell i (and at j, if j >= 0), as it is."""
        if self.tn + 4 > len(self.trail):
            self.trail = grown(self.trail)
        trail, t, saved = self.trail, self.tn, self.saved
        sets = self.chain_why if part == CHAIN_WHY else self.corner_why
        trail[t] = part * self.size + i
        trail[t + 1] = len(saved)
        saved.append(sets[i])
        if j >= 0:
            trail[t + 2] = part * self.size + j
            trail[t + 3] = len(saved)
            saved.append(sets[j])
            self.tn = t + 4
        else:
            self.tn = t + 2

    def mark(self) -> int:
        """The point ``undo`` returns to."""
        return self.tn

    def undo(self, mark: int) -> None:
        trail, mem, limit = self.trail, self.mem, PARTS * self.size
        low = -1  # the first saved conflict set undone
        t = self.tn
        while t > mark:
            t -= 2
            position = trail[t]
            if position < limit:
                mem[position] = trail[t + 1]
                continue
            low = trail[t + 1]
            if position < CORNER_WHY * self.size:
                self.chain_why[position - limit] = self.saved[low]
            else:
                self.corner_why[position - CORNER_WHY * self.size] = self.saved[low]
        self.tn = mark
        if low >= 0:
            del self.saved[low:]

    def push(self, i: int, j: int = -1) -> None:
        """Queue cell i (and j, if j >= 0) for the degree rules."""
        if self.qn + 2 > len(self.queue):
            self.queue = grown(self.queue)
        self.queue[self.qn] = i
        if j >= 0:
            self.queue[self.qn + 1] = j
            self.qn += 2
        else:
            self.qn += 1

    def clear_queue(self) -> None:
        self.qn = 0

    def cell_why(self, i: int) -> int:
        """The decisions behind cell i's decided links and lost corners."""
        why, base = self.why, 4 * i
        r = self.corner_why[i]
        m = self.on[i] | self.off[i]
        for d in range(4):
            if m >> d & 1:
                r |= why[base + d]
        return r

    def fail(self, why: int) -> bool:
        self.conflict = why
        return False

    def link(self, i: int, d: int, why: int = 0) -> bool:
        """Turn the link from i in direction d on, as the decisions ``why``
        imply; False on a contradiction (its decisions in ``conflict``)."""
        on = self.on
        bit = 1 << d
        if self.off[i] & bit:
            return self.fail(why | self.why[4 * i + d])
        if on[i] & bit:
            return True
        j = i + self.steps[d]
        need = self.need
        if pop4(on[i]) >= need[i]:
            return self.fail(why | self.cell_why(i))
        if pop4(on[j]) >= need[j]:
            return self.fail(why | self.cell_why(j))
        mate, colour, chain_why = self.mate, self.colour, self.chain_why
        x, y = mate[i], mate[j]
        if x == j:
            return self.fail(why | chain_why[i])  # closes a loop
        ci, cj = colour[i], colour[j]
        if ci != cj and ci != NO_LABEL and cj != NO_LABEL:  # joins two labels
            return self.fail(why | self.colour_why[i] | self.colour_why[j])
        chain = why | chain_why[i] | chain_why[j]
        self.keep(ON, i, j)
        self.keep(MATE, x, y)
        self.keep_why(CHAIN_WHY, x, y)
        on[i] |= bit
        on[j] |= 1 << (d ^ 2)
        self.why[4 * i + d] = why
        self.why[4 * j + (d ^ 2)] = why
        mate[x] = y
        mate[y] = x
        chain_why[x] = chain
        chain_why[y] = chain
        if self.nst:
            square = self.square
            corner = i if i < j else j
            before = 1 if d & 1 == 0 else self.stride  # the square left of or above the link
            for k in range(2):
                t = corner - before * (1 - k)  # that square, then the one at corner
                n = square[t] + 1
                if n > 2:
                    return self.fail(self.square_why(t))
                self.keep(SQUARE, t)
                square[t] = n
                if n == 2 and not self.close_square(t):
                    return False
        self.push(i, j)
        # the two new chain ends may not be linked to each other (a loop)
        if x != y:
            for e in range(4):
                if x + self.steps[e] == y:
                    if not on[x] >> e & 1 and not self.cut(x, e, chain):
                        return False
                    break
        if ci == NO_LABEL and cj != NO_LABEL:
            return self.paint(i, j, cj, chain)
        if cj == NO_LABEL and ci != NO_LABEL:
            return self.paint(j, i, ci, chain)
        return True

    def paint(self, start: int, came: int, c: int, why: int) -> bool:
        """Give the chain from ``start`` (away from ``came``) the label c (the
        decisions ``why`` made the chain).  Without self-touch, a painted cell
        beside another cell of c must be linked to it: if both can still take
        a link, the link is laid (it joins the pair's two halves), else the
        path touches itself."""
        colour, on, steps, colour_why = self.colour, self.on, self.steps, self.colour_why
        prev, cur = came, start
        touching = []
        while cur >= 0:
            self.keep(COLOUR, cur)
            colour[cur] = c
            colour_why[cur] = why  # read only while painted, so never undone
            nxt = -1
            m = on[cur]
            for d in range(4):
                n = cur + steps[d]
                if m >> d & 1:
                    if n != prev:
                        nxt = n
                elif self.nst and colour[n] == c:
                    touching.append(4 * cur + d)
            prev, cur = cur, nxt
        for t in touching:
            i, d = t >> 2, t & 3
            if on[i] >> d & 1:
                continue  # laid by an earlier one of these
            if not self.link(i, d, why | colour_why[i + steps[d]]):
                return False  # (the path touches itself where a cell is full)
        return True

    def cut(self, i: int, d: int, why: int = 0) -> bool:
        """Turn the link from i in direction d off, as the decisions ``why``
        imply; False on a contradiction (its decisions in ``conflict``)."""
        bit = 1 << d
        off = self.off
        if off[i] & bit:
            return True
        if self.on[i] & bit:
            return self.fail(why | self.why[4 * i + d])
        j = i + self.steps[d]
        self.keep(OFF, i, j)
        off[i] |= bit
        off[j] |= 1 << (d ^ 2)
        self.why[4 * i + d] = why
        self.why[4 * j + (d ^ 2)] = why
        self.push(i, j)
        return True

    def square_why(self, t: int) -> int:
        """The decisions behind the links on in the square whose top left is t."""
        on, why, w = self.on, self.why, self.stride
        r = 0
        if on[t] >> 1 & 1:
            r |= why[4 * t + 1]
        if on[t] >> 2 & 1:
            r |= why[4 * t + 2]
        if on[t + 1] >> 2 & 1:
            r |= why[4 * (t + 1) + 2]
        if on[t + w] >> 1 & 1:
            r |= why[4 * (t + w) + 1]
        return r

    def close_square(self, t: int) -> bool:
        """No self-touch: a square with two links has its other links off
        (the square's links: right and down from t, down from t + 1, right
        from t + w)."""
        w = self.stride
        on, off = self.on, self.off
        why = -1  # the square's decisions, found when a link is to go
        for k in range(4):
            i = t + 1 if k == 2 else t + w if k == 3 else t
            d = 2 if k == 1 or k == 2 else 1
            if not (on[i] | off[i]) >> d & 1:
                if why < 0:
                    why = self.square_why(t)
                if not self.cut(i, d, why):
                    return False
        return True

    def lose_corners(self, i: int, lost: int, why: int) -> None:
        """Cell i can no longer turn the corners ``lost`` (or, a label, end
        their spikes), as the decisions ``why`` imply: neither can the cells
        up each spike that ends in it."""
        corners, live, label = self.corners, self.live, self.label
        corner_why = self.corner_why
        if label[i] == NO_LABEL:
            self.keep(CORNER, i)
            self.keep_why(CORNER_WHY, i)
            corners[i] &= ~lost
            corner_why[i] |= why
        for k in range(4):
            if lost >> k & 1:
                back = self.diagonal[k]
                j = i - back
                while live[j] and label[j] == NO_LABEL and corners[j] >> k & 1:
                    self.keep(CORNER, j)
                    self.keep_why(CORNER_WHY, j)
                    corners[j] &= ~(1 << k)
                    corner_why[j] |= why
                    self.push(j)
                    j -= back

    def propagate(self) -> bool:
        """Apply the degree rules until nothing changes; False on a contradiction."""
        on, off, need, optional = self.on, self.off, self.need, self.optional
        corners, live = self.corners, self.live
        while self.qn:
            self.qn -= 1
            i = self.queue[self.qn]
            if not live[i]:
                continue
            m_on, m_off = on[i], off[i]
            want = need[i]
            if want == 2 and not optional[i]:  # degree and corners in one look-up
                state = m_on << 4 | m_off
                why = -1  # the cell's decisions, found when needed
                if self.spiky:
                    lost = corners[i] & ~FITS[state]
                    if lost:
                        why = self.cell_why(i)
                        self.lose_corners(i, lost, why)
                entry = SHAPES[corners[i] << 8 | state]
                if entry < 0:
                    return self.fail(self.cell_why(i))
                if entry:
                    if why < 0:
                        why = self.cell_why(i)
                    for d in range(4):
                        if entry >> (4 + d) & 1 and not self.cut(i, d, why):
                            return False
                    for d in range(4):
                        if entry >> d & 1 and not self.link(i, d, why):
                            return False
                continue
            if not self.other_degree(i, m_on, m_off, want):
                return False
        return True

    def other_degree(self, i: int, m_on: int, m_off: int, want: int) -> bool:
        """The degree rule of a label (one link) or a lenient cell (none or
        two); False on a contradiction."""
        optional = self.optional[i]
        if self.spiky and m_on:  # a label's link ends the spikes it would touch
            lost = ENDS_NOT[m_on]
            if lost:
                self.lose_corners(i, lost, self.cell_why(i))
        has = pop4(m_on)
        open_links = 15 & ~(m_on | m_off)
        free = pop4(open_links)
        if has > want:
            return self.fail(self.cell_why(i))
        if free == 0:
            if has < want and not (optional and has == 0):
                return self.fail(self.cell_why(i))
            return True
        if has == want or (optional and has == 0 and free == 1):
            why = self.cell_why(i)
            for d in range(4):  # full; or one open link cannot make two
                if open_links >> d & 1 and not self.cut(i, d, why):
                    return False
        elif optional and has == 0:
            return True
        elif has + free < want:
            return self.fail(self.cell_why(i))
        elif has + free == want:
            why = self.cell_why(i)
            for d in range(4):
                if open_links >> d & 1 and not self.link(i, d, why):
                    return False
        return True

    # ------------------------------------------------------------ regions

    def regions_fail(self) -> bool:
        """The unlabelled cells, joined by links not off, form regions.  A pair
        whose two heads (its chain ends) share no region and cannot link
        directly is cut off; under full cover, a region no unfinished pair can
        enter with both heads is left to loops."""
        off, steps, colour, mate = self.off, self.steps, self.colour, self.mate
        region = array("q", [-1]) * self.size
        count = 0
        for start in self.inside:
            if region[start] >= 0 or colour[start] != NO_LABEL:
                continue
            region[start] = count
            stack = [start]
            while stack:
                i = stack.pop()
                closed = off[i]
                for d in range(4):
                    if not closed >> d & 1:
                        j = i + steps[d]
                        if region[j] < 0 and colour[j] == NO_LABEL:
                            region[j] = count
                            stack.append(j)
            count += 1
        served = [False] * count
        for a, b in self.ends:
            x, y = mate[a], mate[b]
            if x == b:
                continue  # joined
            near_x, beside = set(), False  # the regions x can step into; y among them
            for d in range(4):
                if not off[x] >> d & 1:
                    near_x.add(region[x + steps[d]])
                    beside = beside or x + steps[d] == y
            shared = set()
            for d in range(4):
                if not off[y] >> d & 1:
                    r = region[y + steps[d]]
                    if r >= 0 and r in near_x:
                        shared.add(r)
            if not shared and not beside:
                return True
            for r in shared:
                served[r] = True
        return self.full and not all(served)

    # ------------------------------------------------------------ search

    def choose(self) -> int:
        """The cell to branch at (fewest open links beyond its needs) and its
        first open link, as 4 * cell + direction; -1 when no cell needs a link.
        The scan starts at ``first``, the first cell in board order with a
        link still open."""
        on, off, need, optional, inside = self.on, self.off, self.need, self.optional, self.inside
        first, n = self.first, len(inside)
        while first < n and on[inside[first]] | off[inside[first]] == 15:
            first += 1
        self.first = first
        best, best_key = -1, 99
        for k in range(first, n):
            i = inside[k]
            m = on[i] | off[i]
            if m == 15:
                continue
            has = pop4(on[i])
            if has >= need[i]:
                continue
            # open links beyond the cell's needs; an empty lenient cell goes last
            key = 12 - pop4(m) if optional[i] and has == 0 else 4 - pop4(m) - (need[i] - has)
            if key < best_key:
                best, best_key = i, key
                if key <= 1:
                    break
        if best < 0:
            return -1
        # towards the neighbour with the most open links first, into open space
        # (towards the fewest, hugging walls: 40x40 seed 0 past 20 k nodes, 5.6 k now)
        m = on[best] | off[best]
        way, fewest = -1, 5
        for d in range(4):
            if not m >> d & 1:
                j = best + self.steps[d]
                decided = pop4(on[j] | off[j])
                if decided < fewest:
                    way, fewest = d, decided
        return 4 * best + way

    def search(self, deadline, max_nodes: int | None) -> bool:
        """Depth-first: True with the board holding a solution."""
        return self.descend(deadline, -1 if max_nodes is None else max_nodes, 0) is None

    def descend(self, deadline, max_nodes: int, depth: int) -> int | None:
        """Depth-first below ``depth`` decisions (bits 0 to depth - 1 of a
        conflict set), within ``max_nodes`` nodes (-1: no bound): None with
        the board holding a solution, else the decisions the failure follows
        from.  Conflict-directed backjumping: when the first branch fails
        without its own decision, the second would fail alike, so the search
        returns at once to the deepest decision the failure depends on; the
        second branch's cut follows from the first's conflict less its
        decision."""
        if not self.propagate():
            return self.conflict
        first = self.first
        picked = self.choose()
        if picked < 0:
            return None
        self.nodes += 1
        if 0 <= max_nodes < self.nodes:
            raise Exhausted
        if not self.nodes & 255:
            deadline.check()
        if not self.nodes % REGION_EVERY and self.regions_fail():
            return self.decisions  # the regions read the whole board: every decision
        i, d = picked >> 2, picked & 3
        mark = self.tn
        decision = 1 << depth
        self.qn = 0
        self.decisions |= decision
        conflict = (self.descend(deadline, max_nodes, depth + 1)
                    if self.link(i, d, decision) else self.conflict)
        self.decisions &= ~decision
        if conflict is None:
            return None
        self.undo(mark)
        self.first = first
        if not conflict & decision and self.backjump:
            return conflict  # the link is not to blame: nor is anything back to the conflict
        self.qn = 0
        why = conflict & ~decision
        conflict = self.descend(deadline, max_nodes, depth + 1) if self.cut(i, d, why) else \
            self.conflict
        if conflict is None:
            return None
        self.undo(mark)
        self.first = first
        return conflict

    def start(self) -> bool:
        """Lay the forced links of the empty board: False when it has none."""
        self.qn = 0
        for i in self.inside:
            self.push(i)
        if self.nst:  # neighbouring labels of one pair: the path is that one step
            for a, b in self.ends:
                for d in range(4):
                    if a + self.step[d] == b and not self.link(a, d):
                        return False
        return True

    def solution(self) -> Solution:
        paths = []
        for a, b in self.ends:
            path, prev, cur = [a], -1, a
            while cur != b:
                nxt = next(cur + self.step[d] for d in range(4)
                           if self.on[cur] >> d & 1 and cur + self.step[d] != prev)
                prev, cur = cur, nxt
                path.append(cur)
            paths.append(tuple(self.cell_of[i] for i in path))
        return Solution(tuple(paths))
