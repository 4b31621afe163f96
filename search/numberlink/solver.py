"""The hand-written Numberlink search: depth-first path extension.

Each pair grows one path from both ends.  At every node the side with the
fewest moves is extended (one move is a forced move; none, a dead end), and
the board is pruned:

- a pair whose head and goal lie in different regions of empty cells;
- under full cover, an empty cell with fewer than two ways in or out, and
  (before each real choice) regions the pairs cannot fill: one no pair can
  reach with both ends, a checkerboard colour balance no choice of pairs
  meets, a region that only one pair can reach but that is no plain path
  (without self-touch), and the links every cell must make, propagated by
  the ``links`` backend's propagator (``links.Links``, which holds the paths'
  steps as the search lays them, each head linked only to its moves);
  the moves of the side to extend are then looked ahead, and the one that
  leaves the fewest moves in all goes first (fail first).

Pairs that share no region (directly or through other pairs) form
independent parts: they are solved in turn, and a part with no solution
fails the node at once instead of being refuted again for every way to
solve the others.

It enumerates every solution under either rule set, so it counts and decides
uniqueness.  ``no_self_touch=True`` keeps only paths that never run beside
themselves; under the lenient rule every solution shortcuts to such a one, so
``solve`` uses it there (and tries it first under full cover, falling back to
the plain search when it finds nothing).
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass

from search.core.contract import Deadline, LimitReached, SolveResult, Status
from search.core.limits import allow_recursion
from search.numberlink.backend import NumberlinkBackend
from search.numberlink.links import Links
from search.numberlink.model import Numberlink, Solution

WALL, EMPTY = -2, -1
MAX_CHOICES = 12  # pairs with a choice of regions the colour balance tries in full


class Board:
    """Mutable search state on a grid padded with a ring of walls.

    ``cell[i]`` is WALL, EMPTY or the index of the pair whose path holds it.
    Each pair grows from both ends: head ``2p`` from ``a``, head ``2p + 1``
    from ``b``; the path is complete when the two heads join.
    """

    def __init__(self, puzzle: Numberlink, *, no_self_touch: bool,
                 max_nodes: int | None = None):
        self.puzzle = puzzle
        self.max_nodes = max_nodes  # a budget of work: past it, LimitReached
        self.full_cover = puzzle.full_cover
        self.no_self_touch = no_self_touch
        w = self.stride = puzzle.width + 2
        self.cell = [WALL] * (w * (puzzle.height + 2))
        for r, c in puzzle.open_cells:
            self.cell[self.index((r, c))] = EMPTY
        self.around = [() if v == WALL else (i - w, i + 1, i + w, i - 1)
                       for i, v in enumerate(self.cell)]
        self.inside = [i for i, v in enumerate(self.cell) if v != WALL]  # the scans skip walls
        self.empty = len(puzzle.open_cells) - 2 * len(puzzle.pairs)
        self.sides: list[list[int]] = []  # side 2p grows from a, side 2p + 1 from b
        for p, pair in enumerate(puzzle.pairs):
            a, b = self.index(pair.a), self.index(pair.b)
            self.cell[a] = self.cell[b] = p
            self.sides += [[a], [b]]
        self.heads = {side[0] for side in self.sides}
        # free[i]: neighbours of i that are empty or a head, kept up to date
        self.free = [self.count_free(i) for i in range(len(self.cell))]
        self.sign = [1 - 2 * ((i // w + i % w) & 1) for i in range(len(self.cell))]  # checkerboard
        self.open = set(range(len(puzzle.pairs)))
        self.nodes = 0
        # Full cover: the link propagator, holding the paths' steps and what
        # they force (``links_ok`` False once it fails); ``laid``: its undo marks
        self.links: Links | None = None
        self.links_ok, self.laid = False, []
        if self.full_cover:
            self.links = links = Links(puzzle, nst=no_self_touch)
            self.way = {step: d for d, step in enumerate(links.step)}
            self.links_ok = links.start() and links.propagate()
            links.clear_queue()

    def index(self, cell: tuple[int, int]) -> int:
        return (cell[0] + 1) * self.stride + cell[1] + 1

    def solution(self) -> Solution:
        w = self.stride
        paths = []
        for p in range(len(self.puzzle.pairs)):
            cells = self.sides[2 * p] + self.sides[2 * p + 1][::-1]
            paths.append(tuple((i // w - 1, i % w - 1) for i in cells if i >= 0))
        return Solution(tuple(paths))

    # ------------------------------------------------------------ moves

    def count_free(self, i: int) -> int:
        cell, heads = self.cell, self.heads
        return sum(1 for j in self.around[i] if cell[j] == EMPTY or j in heads)

    def close_head(self, x: int, step: int) -> None:
        """Head ``x`` stops (step -1) or starts again (step 1) being a way in."""
        free = self.free
        for j in self.around[x]:
            free[j] += step

    def moves(self, s: int) -> list[int]:
        """The next cells of side ``s``: empty neighbours, or the other head (join)."""
        cell, free, p = self.cell, self.free, s >> 1
        x, y = self.sides[s][-1], self.sides[s ^ 1][-1]
        out, forced = [], None
        for n in self.around[x]:
            if n == y:
                if self.no_self_touch:
                    return [n]  # beside its other end, a path that never touches itself ends
                out.append(n)
            elif cell[n] == EMPTY:
                if self.no_self_touch and self.touches(n, p, x, y):
                    continue
                if self.full_cover and free[n] <= 2:
                    if forced is not None:
                        return []  # two cells that only this head can fill
                    forced = n
                out.append(n)
        if forced is not None:
            return [forced]
        return out

    def touches(self, n: int, p: int, x: int, y: int) -> bool:
        """Would path ``p``, stepping from ``x`` to ``n``, run beside itself?"""
        cell = self.cell
        for m in self.around[n]:  # noqa: SIM110 (a loop is faster here)
            if cell[m] == p and m != x and m != y:
                return True
        return False

    def advance(self, s: int, n: int) -> None:
        side = self.sides[s]
        if self.links is not None:
            self.lay(side[-1], n)
        self.close_head(side[-1], -1)
        if n == self.sides[s ^ 1][-1]:
            self.close_head(n, -1)
            self.open.discard(s >> 1)
            self.heads.discard(side[-1])
            self.heads.discard(n)
            side.append(-1)  # marks the join
        else:
            self.heads.discard(side[-1])
            self.heads.add(n)
            side.append(n)
            self.cell[n] = s >> 1
            self.empty -= 1

    def retreat(self, s: int) -> None:
        side = self.sides[s]
        n = side.pop()
        if n == -1:
            self.open.add(s >> 1)
            self.heads.add(side[-1])
            self.heads.add(self.sides[s ^ 1][-1])
            self.close_head(self.sides[s ^ 1][-1], 1)
        else:
            self.heads.discard(n)
            self.heads.add(side[-1])
            self.cell[n] = EMPTY
            self.empty += 1
        self.close_head(side[-1], 1)
        if self.links is not None:
            self.unlay()

    # ------------------------------------------------------------ pruning

    def dead_end_near(self, centres) -> bool:
        """Full cover: an empty cell near the last step with < 2 ways to join a path."""
        cell, around, free = self.cell, self.around, self.free
        for centre in centres:
            for i in around[centre]:
                if cell[i] == EMPTY and free[i] < 2:
                    return True
        return False

    def regions(self) -> tuple[list[int], list[list[int]]]:
        """The connected regions of empty cells: each cell's region (-1 if
        none) and each region's cells."""
        cell, around = self.cell, self.around
        region = [-1] * len(cell)
        members: list[list[int]] = []
        for start in self.inside:
            if cell[start] != EMPTY or region[start] >= 0:
                continue
            r = len(members)
            region[start] = r
            cells = [start]
            for i in cells:  # breadth first: the loop reaches the cells it appends
                for j in around[i]:
                    if cell[j] == EMPTY and region[j] < 0:
                        region[j] = r
                        cells.append(j)
            members.append(cells)
        return region, members

    def parts(self, group: frozenset[int]) -> list[tuple[frozenset[int], list[int]]] | None:
        """None for a pair cut off from itself or (full cover) regions the
        pairs cannot fill; else the group's open pairs split into independent
        parts, each with the regions its pairs can enter (their cells)."""
        around, sides = self.around, self.sides
        region, members = self.regions()
        entries = []  # (pair, x, y, regions the pair could fill, may it join directly)
        for p in self.open:
            x, y = sides[2 * p][-1], sides[2 * p + 1][-1]
            near_x = {region[j] for j in around[x]}
            shared = [r for r in {region[j] for j in around[y]} if r >= 0 and r in near_x]
            joinable = y in around[x]
            if not shared and not joinable:
                return None
            if not (joinable and self.no_self_touch):  # else it must join at once
                entries.append((p, x, y, shared, joinable))
        if self.full_cover and (
                self.unbalanced(members, entries)
                or self.no_self_touch and self.lone_pair_fails(region, members, entries)):
            return None
        return self.split(group, entries, members)

    @staticmethod
    def split(group: frozenset[int], entries, members: list[list[int]]):
        """Pairs that can enter a common region, and chains of such, form a
        part; parts share neither cells nor pairs."""
        root = list(range(len(members)))

        def find(r: int) -> int:
            while root[r] != r:
                root[r] = r = root[root[r]]
            return r

        for p, _x, _y, shared, _j in entries:
            if p in group:
                for r in shared[1:]:
                    root[find(r)] = find(shared[0])
        pairs: dict[int, set[int]] = {}
        for p, _x, _y, shared, _j in entries:
            if p in group:
                pairs.setdefault(find(shared[0]) if shared else -1 - p, set()).add(p)
        cells: dict[int, list[int]] = {}
        for r, members_r in enumerate(members):
            cells.setdefault(find(r), []).extend(members_r)
        return [(frozenset(ps), cells.get(key, [])) for key, ps in pairs.items()]

    def unbalanced(self, members: list[list[int]], entries) -> bool:
        """Full cover: no way to send the pairs into the regions so that each
        region gets a pair and the right colour balance.

        On a checkerboard, a pair's path enters one region (the cells between
        its heads are all empty and connected) and fills a segment of it from a
        neighbour of head x to one of head y.  The segment's cells alternate
        in colour, so its black minus white is 0 if x and y differ in colour,
        and 1 towards the other colour if they agree.  A region's balance is
        the sum over the pairs that fill it.
        """
        sign = self.sign
        need = [sum(sign[i] for i in cells) for cells in members]
        taken = [0] * len(members)
        choices = []
        for _p, x, y, shared, joinable in entries:
            value = -(sign[x] + sign[y]) // 2
            options = shared + [-1] if joinable else shared  # -1: join directly
            if options == [-1]:
                continue
            if len(options) == 1:
                need[options[0]] -= value
                taken[options[0]] += 1
            else:
                choices.append((value, options))
        if len(choices) > MAX_CHOICES:  # too many to try: each region needs a pair, no more
            for _value, options in choices:
                for r in options:
                    if r >= 0:
                        taken[r] += 1
            return not all(taken)
        return not self.balance(need, taken, choices, 0)

    def balance(self, need: list[int], taken: list[int], choices, k: int) -> bool:
        """Can choices ``k:`` each pick a region so that no need is left and
        every region is taken?"""
        if k == len(choices):
            return all(taken) and not any(need)
        value, options = choices[k]
        for r in options:
            if r < 0:
                if self.balance(need, taken, choices, k + 1):
                    return True
                continue
            need[r] -= value
            taken[r] += 1
            ok = self.balance(need, taken, choices, k + 1)
            need[r] += value
            taken[r] -= 1
            if ok:
                return True
        return False

    def lone_pair_fails(self, region: list[int], members: list[list[int]], entries) -> bool:
        """No self-touch, full cover: a region that only one pair can fill must
        be a plain path of cells from beside one head to beside the other, next
        to no other cell of that pair."""
        fillers: dict[int, list] = {}
        for entry in entries:
            for r in entry[3]:
                fillers.setdefault(r, []).append(entry)
        cell, around = self.cell, self.around
        for r, (entry, *others) in fillers.items():
            if others:
                continue
            p, x, y = entry[:3]
            ends, by_x, by_y, links, size = [], [], [], 0, len(members[r])
            for i in members[r]:
                degree = 0
                for j in around[i]:
                    if region[j] == r:
                        degree += 1
                    elif j == x:
                        by_x.append(i)
                    elif j == y:
                        by_y.append(i)
                    elif cell[j] == p:
                        return True
                if degree > 2:
                    return True
                links += degree
                if degree < 2:
                    ends.append(i)
            if links != 2 * (size - 1) or len(by_x) != 1 or len(by_y) != 1:
                return True
            if size > 1 and (by_x[0] == by_y[0] or by_x[0] not in ends or by_y[0] not in ends):
                return True
        return False

    def link_moves(self, moves: dict[int, list[int]]) -> dict[int, list[int]] | None:
        """Full cover: the links each cell must make, propagated by the link
        search's rules (``links.Links``: degrees, chains that may close no loop
        nor join two pairs and, without self-touch, squares, touching cells of
        one path and corner spikes) from the paths laid so far, each head
        linked only to its moves.  None on a contradiction; else each open
        side's remaining moves.  ``moves`` holds the moves of some open sides
        already and gets the others."""
        links = self.links
        if links is None or not self.links_ok:
            return None
        around, sides, on, off = self.around, self.sides, links.on, links.off
        for p in self.open:
            for s in (2 * p, 2 * p + 1):
                if s not in moves:
                    moves[s] = self.moves(s)
        mark = links.mark()
        try:
            for s, ms in moves.items():  # a head links only to its moves
                x = sides[s][-1]
                for d, j in enumerate(around[x]):
                    if j not in ms and not on[x] >> d & 1 and not links.cut(x, d):
                        return None
            if not links.propagate():
                return None
            result = {}
            for s in (s for p in self.open for s in (2 * p, 2 * p + 1)):  # a fixed order
                side = sides[s]
                x, back = side[-1], side[-2] if len(side) > 1 else -1
                result[s] = [j for d, j in enumerate(around[x])
                             if not off[x] >> d & 1 and j != back]
            return result
        finally:
            links.undo(mark)
            links.clear_queue()

    def lay(self, x: int, n: int) -> None:
        """Full cover: the step x-n joins the propagator's links (``retreat`` undoes it)."""
        links = self.links
        self.laid.append((links.mark(), self.links_ok))
        if self.links_ok:
            self.links_ok = links.link(x, self.way[n - x]) and links.propagate()
            links.clear_queue()

    def unlay(self) -> None:
        mark, self.links_ok = self.laid.pop()
        self.links.undo(mark)

    # ------------------------------------------------------------ search

    def pick(self, group: frozenset[int],
             seen: dict[int, list[int]]) -> tuple[int, list[int]] | None:
        """The open side of the group with the fewest moves (None when all
        are joined); ``seen`` gets the moves of the sides it looked at."""
        best, best_moves = -1, None
        for p in group:
            if p not in self.open:
                continue
            for s in (2 * p, 2 * p + 1):
                moves = seen[s] = self.moves(s)
                if best_moves is None or len(moves) < len(best_moves):
                    best, best_moves = s, moves
                    if len(moves) < 2:
                        return best, best_moves
        return None if best_moves is None else (best, best_moves)

    def search(self, deadline: Deadline, group: frozenset[int],
               cells: list[int] | None) -> Generator[None, None, None]:
        """Yield (with the board holding it) each way to join the group's
        pairs, filling ``cells`` (all empty cells if None) under full cover."""
        self.nodes += 1
        if not self.nodes & 1023:
            deadline.check()
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise LimitReached
        seen: dict[int, list[int]] = {}
        picked = self.pick(group, seen)
        if picked is None:
            if not self.full_cover or (
                    not self.empty if cells is None else all(self.cell[i] != EMPTY for i in cells)):
                yield
            return
        best, best_moves = picked
        if not best_moves:
            return
        # Regions are checked before branching only: a forced move cannot be
        # avoided, so the check waits until the next real choice.
        if len(best_moves) > 1:
            parts = self.parts(group)
            if parts is None:
                return
            if len(parts) > 1:
                yield from self.product(deadline, sorted(parts, key=lambda part: len(part[1])))
                return
            if self.full_cover:
                links = self.link_moves(seen)
                if links is None:
                    return
                best = min((s for s in links if s >> 1 in group), key=lambda s: len(links[s]))
                best_moves = links[best]
        x, y = self.sides[best][-1], self.sides[best ^ 1][-1]
        if self.full_cover and len(best_moves) > 1:
            best_moves = self.fail_first(best, best_moves)
        for n in best_moves:
            self.advance(best, n)
            try:
                if not (self.full_cover and self.dead_end_near((x, n) if n != y else (x, y))):
                    yield from self.search(deadline, group, cells)
            finally:
                self.retreat(best)

    def fail_first(self, s: int, moves: list[int]) -> list[int]:
        """Full cover: the moves of side ``s`` that survive a look ahead (no
        dead end beside the step, links that propagate), the one that leaves
        the open sides the fewest moves in all first: a wrong move is then
        refuted sooner, and on Flow Free levels the right one is often it."""
        x, y = self.sides[s][-1], self.sides[s ^ 1][-1]
        kept = []
        for n in moves:
            self.advance(s, n)
            try:
                if not self.dead_end_near((x, n) if n != y else (x, y)):
                    links = self.link_moves({})
                    if links is not None:
                        kept.append((sum(map(len, links.values())), n))
            finally:
                self.retreat(s)
        kept.sort(key=lambda move: move[0])
        return [n for _, n in kept]

    def product(self, deadline: Deadline, parts, k: int = 0) -> Generator[None, None, bool]:
        """Every combination of the solutions of independent parts ``k:``,
        solved in turn; False when one of them has none at all."""
        if k == len(parts):
            yield
            return True
        found = False
        ways = self.search(deadline, *parts[k])
        try:
            for _ in ways:
                found = True
                if not (yield from self.product(deadline, parts, k + 1)):
                    return False  # a later part fails whatever this one does
        finally:
            ways.close()
        return found

    def run(self, deadline: Deadline) -> Iterator[Solution]:
        """All solutions, after checking the start position itself."""
        allow_recursion(4 * len(self.cell))
        cell, free = self.cell, self.free
        if self.full_cover and any(cell[i] == EMPTY and free[i] < 2 for i in self.inside):
            return
        if self.parts(frozenset(self.open)) is None:
            return
        for _ in self.search(deadline, frozenset(self.open), None):
            yield self.solution()


class SearchBackend(NumberlinkBackend):
    """Exhaustive depth-first search over path extensions; both rule sets.

    Option ``no_self_touch=True`` restricts every call to paths that never run
    beside themselves (the convention of Flow Free and of the well-designed check).
    """

    @dataclass(frozen=True)
    class Options:
        no_self_touch: bool = False  # only paths that never run beside themselves
        max_nodes: int | None = None  # a budget of work: past it, LIMIT

    name = "search"

    def __init__(self, **options):
        super().__init__(**options)
        self.no_self_touch = self.opts.no_self_touch

    def solutions(self, puzzle: Numberlink, *, time_limit: float | None = None,
                  no_self_touch: bool | None = None) -> Iterator[Solution]:
        nst = self.no_self_touch if no_self_touch is None else no_self_touch
        board = Board(puzzle, no_self_touch=nst, max_nodes=self.opts.max_nodes)
        self.effort = {"nodes": 0}
        try:
            for solution in board.run(Deadline(time_limit)):
                self.effort["nodes"] = board.nodes
                yield solution
        finally:
            self.effort["nodes"] = board.nodes

    def solve(self, puzzle: Numberlink, *, time_limit: float | None = None) -> SolveResult:
        """Try paths that never touch themselves first: under the lenient rule
        that is complete; under full cover, fall back to every path."""
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        passes = [True] if self.no_self_touch or not puzzle.full_cover else [True, False]
        nodes, status, found = 0, Status.UNSAT, None
        for nst in passes:
            search = self.solutions(puzzle, time_limit=deadline.remaining(), no_self_touch=nst)
            try:
                found = next(search, None)
            except LimitReached:
                status = Status.LIMIT
            finally:
                search.close()
                nodes += self.effort["nodes"]
            if found is not None:
                status = Status.SOLVED
            if status is not Status.UNSAT:
                break
        self.effort = {"nodes": nodes}
        return SolveResult(status, found, time.perf_counter() - start, dict(self.effort))
