"""A Numberlink solver for large boards: a search over links with propagation.

Each step between two neighbouring cells is a link, on, off or open.  A
solution is a set of links where every label has one link and every other
cell two (full cover) or none or two (lenient), that closes no loop and joins
no two labels.  That is all, so the search decides one open link at a time
and lets the rules propagate, kept as bit masks per cell and undone from a
trail:

- degree: a cell with all the links it needs turns its open links off; one
  with just as many open links as it still needs turns them all on (forced
  moves, and the dead ends of full cover: a cell short of links fails);
- chains: the links laid form chains whose two ends know each other
  (``mate``), so a link that would close a loop or join two labels fails at
  once, and the open link between the two ends of one chain is turned off;
- no self-touch, tried first (``nst``): three links in a 2 x 2 square make a
  U whose ends touch, so a square with two links turns its others off.  Under
  the lenient rule this is complete for existence (a touching path shortcuts
  to one that does not touch); under full cover it is a convention of
  generated boards, so a second pass without it keeps the search complete;
- corner spikes (full cover without self-touch; ``spikes``): a corner makes
  the cell diagonally inside it turn the same corner, and so on until a label
  or a blocked cell, so a cell may only turn the corners whose diagonal walk
  meets one; each cell keeps the corners it may still turn, one table look-up
  (``SHAPES``) applies them with the degree rule, and a cell that loses a
  corner takes it from the cells up its spike (``lose_corners``);
- regions, every ``REGION_EVERY`` nodes: the cells joined by links not yet off form
  regions; both ends of every unfinished pair must share one, and under full
  cover every region must hold a label (a region without one could only be
  filled by loops).

The choice: the first cell in board order (anti-diagonals from the top left)
with the fewest open links beyond its needs, usually a chain end or label
with two ways to go (the most constrained head); its link towards the
neighbour with the most open links goes first (into open space).
Effort is counted in nodes (decisions); ``max_nodes`` bounds it.

Backjumping (``descend``): every decided link keeps the set of decisions it
follows from (a bit per depth, in a Python int), and every rule above
passes on the union of what it read, so a contradiction names the
decisions behind it.  When the first branch of a decision fails without
it, the second would fail alike, and the search returns straight to the
deepest decision the failure names (conflict-directed backjumping); the
search far from a failure, which plain backtracking re-decides in vain, is
skipped.  It explores the same tree minus subtrees proved empty, so it finds
the same first solution as plain backtracking (``backjump=False``, kept to
test that); on generated 40x40 and 50x50 boards it needs 30-45 % fewer nodes,
each about 25 % dearer.

``Links`` is also the ``search`` backend's link propagator: that search lays
its paths' steps here (``link``, undone from the trail) and reads, after
``propagate``, the moves each path's head has left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from search.core.contract import Deadline, LimitReached, SolveResult, Status
from search.core.limits import allow_recursion
from search.numberlink.backend import NumberlinkBackend
from search.numberlink.model import Numberlink, Solution

POP = tuple(bin(m).count("1") for m in range(16))
BITS = tuple(tuple(d for d in range(4) if m >> d & 1) for m in range(16))
# a cell's two links: the straights (up-down, right-left) and the four corners
STRAIGHTS = (0b0101, 0b1010)
CORNERS = (0b0011, 0b0110, 0b1100, 0b1001)  # up-right, right-down, down-left, left-up


def _shape_table() -> tuple[tuple[int, int, int] | None, ...]:
    """For a cell that needs two links, indexed by (corners allowed, on, off):
    None when no allowed shape fits, else (links to lay, links to cut, free
    shapes left).  One lookup does the degree rule and the corner rule."""
    table: list[tuple[int, int, int] | None] = []
    for allowed in range(16):
        shapes = STRAIGHTS + tuple(c for k, c in enumerate(CORNERS) if allowed >> k & 1)
        for on in range(16):
            for off in range(16):
                fits = [s for s in shapes if s & on == on and not s & off]
                if not fits:
                    table.append(None)
                    continue
                both, either = 15, 0
                for s in fits:
                    both &= s
                    either |= s
                table.append((both & ~on, 15 & ~either & ~off, len(fits)))
    return tuple(table)


SHAPES = _shape_table()
# corners k a cell can still turn, by (on, off): CORNERS[k] holds on and misses off
FITS = tuple(sum(1 << k for k, c in enumerate(CORNERS) if c & on == on and not c & off)
             for on in range(16) for off in range(16))
# a label with its link towards d ends no spike of corners k whose square sends
# one of its two links at it (those links would come from d ^ 2 ... see ``spikes``)
ENDS_NOT = tuple(sum(1 << k for k, c in enumerate(CORNERS)
                     if any(c >> e & 1 for e in range(4) if on >> (e ^ 2) & 1))
                 for on in range(16))
NONE = -1  # label of a cell that ends no pair
REGION_EVERY = 64  # nodes between region checks: each scans the board, and in a
# board-order search they seldom fail (40x40: 3.6 k nodes either way, 2x the time at 8)


class Exhausted(Exception):
    """The node budget ran out (the search stops undecided)."""


class Links:
    """The search state: per cell, masks of links on (``on``) and off
    (``off``), bit d for the step ``step[d]``; the padded grid has a ring of
    cells with every link off."""

    def __init__(self, puzzle: Numberlink, *, nst: bool, backjump: bool = True):
        self.puzzle, self.nst, self.backjump = puzzle, nst, backjump
        self.full = puzzle.full_cover
        w = self.stride = puzzle.width + 2
        size = w * (puzzle.height + 2)
        self.step = (-w, 1, w, -1)  # up, right, down, left; d ^ 2 is the way back
        self.cell_of = [((i // w) - 1, (i % w) - 1) for i in range(size)]
        # board order: along the anti-diagonals from the top left corner (the
        # order of thomasahle's solver); on generated 40x40 boards it leaves
        # 1 of 5 undecided in 20 k nodes where row order leaves 3
        self.inside = [(r + 1) * w + c + 1
                       for r, c in sorted(puzzle.open_cells, key=lambda rc: (rc[0] + rc[1], rc[0]))]
        live = [False] * size
        for i in self.inside:
            live[i] = True
        self.live = live
        self.label = [NONE] * size
        self.ends = []
        for k, pair in enumerate(puzzle.pairs):
            a, b = (self.index(c) for c in (pair.a, pair.b))
            self.label[a] = self.label[b] = k
            self.ends.append((a, b))
        # need: links a cell must have (1 for a label; 2 for a cell under full cover;
        # lenient cells need 0 or 2, marked 2 with ``optional``)
        self.need = [0] * size
        self.optional = [False] * size
        for i in self.inside:
            self.need[i] = 1 if self.label[i] != NONE else 2
            self.optional[i] = not self.full and self.label[i] == NONE
        self.on = [0] * size
        self.off = [15] * size
        for i in self.inside:
            self.off[i] = sum(1 << d for d, s in enumerate(self.step) if not live[i + s])
        # corners a cell may turn (bit k: CORNERS[k]); all but under full cover
        # without self-touch, where a corner only sits on a spike (``spikes``)
        self.spiky = self.nst and self.full
        self.corners = self.spikes() if self.spiky else [15] * size
        self.diagonal = tuple(sum(self.step[d] for d in range(4) if c >> d & 1) for c in CORNERS)
        self.colour = list(self.label)  # the label of the chain a cell is on
        self.mate = list(range(size))  # the other end of the chain a chain end is on
        self.square = [0] * size  # links in the 2 x 2 square whose top left is i
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
        self.trail: list[tuple[list, int, int]] = []
        self.queue: list[int] = []
        self.nodes = 0
        self.first = 0  # cells of ``inside`` before this one have every link decided

    def spikes(self) -> list[int]:
        """Corners allowed per cell under full cover without self-touch.  A
        cell turning right-down (say) puts two links in its 2 x 2 square to
        the lower right, so the cell diagonally below it loses its up and left
        links and must turn right-down too, unless it is a label or blocked:
        the corner is one of a spike of corners running down-right that ends at
        a label or a blocked cell (thomasahle's corner spikes).  A cell can
        turn that corner only if the walk from it along the diagonal meets a
        label or a blocked cell before a cell that cannot turn it."""
        live, label, step = self.live, self.label, self.step
        allowed = [0] * len(live)
        for k, shape in enumerate(CORNERS):
            d1, d2 = (d for d in range(4) if shape >> d & 1)
            diagonal = step[d1] + step[d2]
            known: dict[int, bool] = {}
            for start in self.inside:
                walk, i, ok = [], start, False
                while True:
                    if i in known:
                        ok = known[i]
                        break
                    if not live[i] or label[i] != NONE:
                        ok = True  # a label, or a blocked cell (the walk never leaves the board:
                        break  # both cells beside its last step are on it)
                    if not (live[i + step[d1]] and live[i + step[d2]]):
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

    def _set(self, array: list, i: int, value: int) -> None:
        self.trail.append((array, i, array[i]))
        array[i] = value

    def undo(self, mark: int) -> None:
        trail = self.trail
        for array, i, value in reversed(trail[mark:]):
            array[i] = value
        del trail[mark:]

    def cell_why(self, i: int) -> int:
        """The decisions behind cell i's decided links and lost corners."""
        why, base = self.why, 4 * i
        r = self.corner_why[i]
        for d in BITS[self.on[i] | self.off[i]]:
            r |= why[base + d]
        return r

    def fail(self, why: int) -> bool:
        self.conflict = why
        return False

    def link(self, i: int, d: int, why: int = 0) -> bool:
        """Turn the link from i in direction d on, as the decisions ``why``
        imply; False on a contradiction (its decisions in ``conflict``)."""
        on, off = self.on, self.off
        bit = 1 << d
        if off[i] & bit:
            return self.fail(why | self.why[4 * i + d])
        if on[i] & bit:
            return True
        j = i + self.step[d]
        need = self.need
        if POP[on[i]] >= need[i]:
            return self.fail(why | self.cell_why(i))
        if POP[on[j]] >= need[j]:
            return self.fail(why | self.cell_why(j))
        mate, colour, chain_why = self.mate, self.colour, self.chain_why
        x, y = mate[i], mate[j]
        if x == j:
            return self.fail(why | chain_why[i])  # closes a loop
        ci, cj = colour[i], colour[j]
        if ci != cj and ci != NONE and cj != NONE:  # joins two labels
            return self.fail(why | self.colour_why[i] | self.colour_why[j])
        trail = self.trail
        chain = why | chain_why[i] | chain_why[j]
        trail += ((on, i, on[i]), (on, j, on[j]), (mate, x, mate[x]),
                  (mate, y, mate[y]), (chain_why, x, chain_why[x]), (chain_why, y, chain_why[y]))
        on[i] |= bit
        on[j] |= 1 << (d ^ 2)
        self.why[4 * i + d] = self.why[4 * j + (d ^ 2)] = why
        mate[x] = y
        mate[y] = x
        chain_why[x] = chain_why[y] = chain
        if self.nst:
            square = self.square
            corner = i if i < j else j
            for t in ((corner - 1, corner) if d & 1 == 0 else (corner - self.stride, corner)):
                n = square[t] + 1
                if n > 2:
                    return self.fail(self.square_why(t))
                trail.append((square, t, n - 1))
                square[t] = n
                if n == 2 and not self.close_square(t):
                    return False
        self.queue += (i, j)
        # the two new chain ends may not be linked to each other (a loop)
        if x != y:
            for e in range(4):
                if x + self.step[e] == y:
                    if not on[x] >> e & 1 and not self.cut(x, e, chain):
                        return False
                    break
        if ci == NONE and cj != NONE:
            return self.paint(i, j, cj, chain)
        if cj == NONE and ci != NONE:
            return self.paint(j, i, ci, chain)
        return True

    def paint(self, start: int, came: int, c: int, why: int) -> bool:
        """Give the chain from ``start`` (away from ``came``) the label c (the
        decisions ``why`` made the chain).  Without self-touch, a painted cell
        beside another cell of c must be linked to it: if both can still take
        a link, the link is laid (it joins the pair's two halves), else the
        path touches itself."""
        colour, on, step, colour_why = self.colour, self.on, self.step, self.colour_why
        prev, cur = came, start
        touching = []
        trail = self.trail
        while cur >= 0:
            trail.append((colour, cur, colour[cur]))
            colour[cur] = c
            colour_why[cur] = why  # read only while painted, so never undone
            nxt = -1
            m = on[cur]
            for d in range(4):
                n = cur + step[d]
                if m >> d & 1:
                    if n != prev:
                        nxt = n
                elif self.nst and colour[n] == c:
                    touching.append((cur, d))
            prev, cur = cur, nxt
        for i, d in touching:
            if on[i] >> d & 1:
                continue  # laid by an earlier one of these
            if not self.link(i, d, why | colour_why[i + step[d]]):
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
        j = i + self.step[d]
        self.trail += ((off, i, off[i]), (off, j, off[j]))
        off[i] |= bit
        off[j] |= 1 << (d ^ 2)
        self.why[4 * i + d] = self.why[4 * j + (d ^ 2)] = why
        self.queue += (i, j)
        return True

    def square_why(self, t: int) -> int:
        """The decisions behind the links on in the square whose top left is t."""
        on, why, w = self.on, self.why, self.stride
        r = 0
        for i, d in ((t, 1), (t, 2), (t + 1, 2), (t + w, 1)):
            if on[i] >> d & 1:
                r |= why[4 * i + d]
        return r

    def close_square(self, t: int) -> bool:
        """No self-touch: a square with two links has its other links off."""
        w = self.stride
        on, off = self.on, self.off
        why = -1  # the square's decisions, found when a link is to go
        for i, d in ((t, 1), (t, 2), (t + 1, 2), (t + w, 1)):
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
        corners, live, label, queue = self.corners, self.live, self.label, self.queue
        corner_why, trail = self.corner_why, self.trail
        if label[i] == NONE:
            trail += ((corners, i, corners[i]), (corner_why, i, corner_why[i]))
            corners[i] &= ~lost
            corner_why[i] |= why
        for k in range(4):
            if lost >> k & 1:
                back = self.diagonal[k]
                j = i - back
                while live[j] and label[j] == NONE and corners[j] >> k & 1:
                    trail += ((corners, j, corners[j]), (corner_why, j, corner_why[j]))
                    corners[j] &= ~(1 << k)
                    corner_why[j] |= why
                    queue.append(j)
                    j -= back

    def propagate(self) -> bool:
        """Apply the degree rules until nothing changes; False on a contradiction."""
        queue, on, off, need, optional = self.queue, self.on, self.off, self.need, self.optional
        corners, spiky, live, link, cut = self.corners, self.spiky, self.live, self.link, self.cut
        while queue:
            i = queue.pop()
            if not live[i]:
                continue
            m_on, m_off = on[i], off[i]
            want = need[i]
            if want == 2 and not optional[i]:  # degree and corners in one look-up
                state = m_on << 4 | m_off
                why = -1  # the cell's decisions, found when needed
                if spiky:
                    lost = corners[i] & ~FITS[state]
                    if lost:
                        why = self.cell_why(i)
                        self.lose_corners(i, lost, why)
                entry = SHAPES[corners[i] << 8 | state]
                if entry is None:
                    return self.fail(self.cell_why(i))
                if entry[0] | entry[1]:
                    if why < 0:
                        why = self.cell_why(i)
                    for d in BITS[entry[1]]:
                        if not cut(i, d, why):
                            return False
                    for d in BITS[entry[0]]:
                        if not link(i, d, why):
                            return False
                continue
            if not self.other_degree(i, m_on, m_off, want):
                return False
        return True

    def other_degree(self, i: int, m_on: int, m_off: int, want: int) -> bool:
        """The degree rule of a label (one link) or a lenient cell (none or
        two); False on a contradiction."""
        optional = self.optional
        if self.spiky and m_on:  # a label's link ends the spikes it would touch
            lost = ENDS_NOT[m_on]
            if lost:
                self.lose_corners(i, lost, self.cell_why(i))
        has = POP[m_on]
        open_links = BITS[15 & ~(m_on | m_off)]
        free = len(open_links)
        if has > want:
            return self.fail(self.cell_why(i))
        if free == 0:
            if has < want and not (optional[i] and has == 0):
                return self.fail(self.cell_why(i))
            return True
        if has == want or (optional[i] and has == 0 and free == 1):
            why = self.cell_why(i)
            for d in open_links:  # full; or one open link cannot make two
                if not self.cut(i, d, why):
                    return False
        elif optional[i] and has == 0:
            return True
        elif has + free < want:
            return self.fail(self.cell_why(i))
        elif has + free == want:
            why = self.cell_why(i)
            for d in open_links:
                if not self.link(i, d, why):
                    return False
        return True

    # ------------------------------------------------------------ regions

    def regions_fail(self) -> bool:
        """The unlabelled cells, joined by links not off, form regions.  A pair
        whose two heads (its chain ends) share no region and cannot link
        directly is cut off; under full cover, a region no unfinished pair can
        enter with both heads is left to loops."""
        off, step, colour, mate = self.off, self.step, self.colour, self.mate
        region = [-1] * len(off)
        count = 0
        for start in self.inside:
            if region[start] >= 0 or colour[start] != NONE:
                continue
            region[start] = count
            stack = [start]
            while stack:
                i = stack.pop()
                closed = off[i]
                for d in range(4):
                    if not closed >> d & 1:
                        j = i + step[d]
                        if region[j] < 0 and colour[j] == NONE:
                            region[j] = count
                            stack.append(j)
            count += 1
        served = [False] * count
        for a, b in self.ends:
            x, y = mate[a], mate[b]
            if x == b:
                continue  # joined
            near_x = {region[x + step[d]] for d in range(4) if not off[x] >> d & 1}
            shared = [r for r in {region[y + step[d]] for d in range(4) if not off[y] >> d & 1}
                      if r >= 0 and r in near_x]
            if not shared and not any(x + step[d] == y for d in range(4) if not off[x] >> d & 1):
                return True
            for r in shared:
                served[r] = True
        return self.full and not all(served)

    # ------------------------------------------------------------ search

    def choose(self) -> tuple[int, int] | None:
        """The cell to branch at (fewest open links beyond its needs) and its
        first open link; None when no cell needs a link.  The scan starts at
        ``first``, the first cell in board order with a link still open."""
        on, off, need, optional, inside = self.on, self.off, self.need, self.optional, self.inside
        first = self.first
        while first < len(inside) and on[inside[first]] | off[inside[first]] == 15:
            first += 1
        self.first = first
        best, best_key = -1, 99
        for k in range(first, len(inside)):
            i = inside[k]
            m = on[i] | off[i]
            if m == 15:
                continue
            has = POP[on[i]]
            if has >= need[i]:
                continue
            # open links beyond the cell's needs; an empty lenient cell goes last
            key = 12 - POP[m] if optional[i] and has == 0 else 4 - POP[m] - (need[i] - has)
            if key < best_key:
                best, best_key = i, key
                if key <= 1:
                    break
        if best < 0:
            return None
        m = on[best] | off[best]
        step = self.step
        # towards the neighbour with the most open links first, into open space
        # (towards the fewest, hugging walls: 40x40 seed 0 past 20 k nodes, 5.6 k now)
        return best, min((d for d in range(4) if not m >> d & 1),
                         key=lambda d: POP[on[best + step[d]] | off[best + step[d]]])

    def search(self, deadline: Deadline, max_nodes: int | None) -> bool:
        """Depth-first: True with the board holding a solution."""
        return self.descend(deadline, max_nodes, 0) is None

    def descend(self, deadline: Deadline, max_nodes: int | None, depth: int) -> int | None:
        """Depth-first below ``depth`` decisions (bits 0 to depth - 1 of a
        conflict set): None with the board holding a solution, else the
        decisions the failure follows from.  Conflict-directed backjumping:
        when the first branch fails without its own decision, the second
        would fail alike, so the search returns at once to the deepest
        decision the failure depends on; the second branch's cut follows
        from the first's conflict less its decision."""
        if not self.propagate():
            return self.conflict
        first = self.first
        picked = self.choose()
        if picked is None:
            return None
        self.nodes += 1
        if max_nodes is not None and self.nodes > max_nodes:
            raise Exhausted
        if not self.nodes & 255:
            deadline.check()
        if not self.nodes % REGION_EVERY and self.regions_fail():
            return self.decisions  # the regions read the whole board: every decision
        i, d = picked
        mark = len(self.trail)
        decision = 1 << depth
        self.queue.clear()
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
        self.queue.clear()
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
        self.queue[:] = self.inside
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


class LinksBackend(NumberlinkBackend):
    """Depth-first search over links with propagation, for large boards;
    ``solve`` only.  Options: ``max_nodes`` (None: no bound)."""

    name = "links"
    calls = frozenset({"solve"})

    @dataclass(frozen=True)
    class Options:
        max_nodes: int | None = None
        backjump: bool = True  # False: chronological backtracking (same tree, same answer)

    def solve(self, puzzle: Numberlink, *, time_limit: float | None = None) -> SolveResult:
        """No self-touch first: under the lenient rule that is complete;
        under full cover, a second pass allows every path."""
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        allow_recursion(4 * len(puzzle.open_cells))
        passes = (True, False) if puzzle.full_cover else (True,)
        nodes, status, found = 0, Status.UNSAT, None
        budget = self.opts.max_nodes
        for nst in passes:
            board = Links(puzzle, nst=nst, backjump=self.opts.backjump)
            try:
                if board.start() and board.search(deadline, budget):
                    status, found = Status.SOLVED, board.solution()
            except (LimitReached, Exhausted):
                status = Status.LIMIT
            used = board.nodes
            nodes += used
            if budget is not None:
                budget = max(0, budget - used)
            if status is not Status.UNSAT:
                break
        self.effort = {"nodes": nodes}
        return SolveResult(status, found, time.perf_counter() - started, dict(self.effort))
