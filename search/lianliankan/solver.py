"""The ``search`` backend: the seed's greedy player, and a full-clear search.

A clearing found by greedy play is a clearing, so the full-clear search runs
the seed's player first and searches only when it gets stuck.

Without gravity a removal only empties cells, so it never breaks another
pair's line; a clearing order can then always move a pair that connects now
to the front.  What remains to choose is which tiles of a picture pair up.
The search therefore keeps *groups*, sets of tiles that may pair among
themselves (at first one per picture), and:

* closes each node with safe removals: a group whose tiles can all go now
  (a perfect matching of pairs that connect, played in turn) goes at once;
* prunes with a relaxed reachability test: tiles that could ever be removed
  grow from nothing (a tile joins when a tile of its group connects to it with
  the joined ones treated as empty, whoever pairs with whom); a tile left out
  can never go.  This also catches blocking cycles, pictures that each block
  every line of the other;
* branches on the partner of one tile of a group (that pair is then a group
  of its own), partners that connect now first; after the first failure,
  with a one-step look-ahead that takes forced pairings without branching,
  and among groups with as few ways left prefers those whose pairings have
  failed most often so far (the tiles of a conflict; branching elsewhere
  first would repeat its proof in every branch);
* remembers failed nodes (the groups left) in a transposition table, and
  restarts with shuffled choices when a dive runs long.

The relaxation is incremental: a witness (the joins that grew the set) is
replayed as far as it still holds, so only the tiles a new pairing cuts off
search for lines, on row and column bitmasks (``paths.Occupancy``).

With gravity, removals move tiles and none of the facts above hold: the
search is ``gravity.GravitySearch``.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, ClassVar

from search.core.contract import (
    Deadline,
    LimitReached,
    SolveResult,
    Status,
    Unsupported,
    add_effort,
    load,
)
from search.lianliankan.backend import LianliankanBackend
from search.lianliankan.greedy import play, transcript
from search.lianliankan.model import Board, Cell, Move, Solution
from search.lianliankan.paths import Field, Occupancy
from search.lianliankan.restarts import Dives, OverBudget, dive_budget

Group = tuple[int, ...]  # sorted flat indices of tiles that may pair among themselves
# a join of the relaxation: two tiles and a reader of the cells of their line
Join = tuple[int, int, Callable[[list[int]], tuple[int, ...]]]
FIRST_BUDGET = 100  # nodes of the first dive
RESTART_UNIT = 25  # nodes of a later dive, times the term of Luby's sequence (1 1 2 1 1 2 4 ...)


class SearchBackend(LianliankanBackend):
    """``method="exact"`` (default): full-clear search; ``"greedy"``: the seed's player."""

    @dataclass(frozen=True)
    class Options:
        method: str | None = None  # "exact" (default) or "greedy"
        max_nodes: int | None = None  # a budget of work for the exact search: past it, LIMIT

    name: ClassVar[str] = "search"
    rules: ClassVar[frozenset[str]] = frozenset({"border", "gravity", "turns"})
    methods: ClassVar[tuple[str, ...]] = ("exact", "greedy")

    def __init__(self, **options: Any):
        super().__init__(**options)
        method = self.opts.method
        if method not in (None, *self.methods):
            raise Unsupported(f"lianliankan search has methods exact and greedy, not {method!r}")
        self.method = method or "exact"

    def solve(self, puzzle: Board, *, time_limit: float | None = None) -> SolveResult[Solution]:
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        if self.method == "greedy":
            try:
                return self._greedy(puzzle, deadline, start)
            except LimitReached:
                return SolveResult(Status.LIMIT, None, time.perf_counter() - start, {},
                                   "time limit reached during greedy play")
        engine = search_for(puzzle)(puzzle, deadline, node_limit=self.opts.max_nodes)
        try:
            game = play(puzzle, deadline)  # a clearing found greedily is a clearing
            moves = list(game.moves) if game.left == 0 else engine.run()
        except LimitReached:
            self.effort = engine.effort()
            why = "time limit reached" if deadline.expired() else "node budget spent"
            return SolveResult(Status.LIMIT, None, time.perf_counter() - start,
                               dict(self.effort), why)
        self.effort = engine.effort()
        wall = time.perf_counter() - start
        if moves is None:
            return SolveResult(Status.UNSAT, None, wall, dict(self.effort),
                               "no order of removals clears the board")
        return SolveResult(Status.SOLVED, Solution(tuple(moves)), wall, dict(self.effort))

    def _greedy(self, board: Board, deadline: Deadline, start: float) -> SolveResult[Solution]:
        game = play(board, deadline)
        self.effort = {"moves": len(game.moves), "passes": game.passes}
        wall = time.perf_counter() - start
        text = transcript(board, game)
        if game.left == 0:
            return SolveResult(Status.SOLVED, Solution(game.moves), wall, dict(self.effort),
                               f"greedy play cleared the board in {len(game.moves)} "
                               f"{'move' if len(game.moves) == 1 else 'moves'}",
                               text)
        return SolveResult(
            Status.LIMIT, None, wall, dict(self.effort),
            f"greedy play stuck with {game.left} tiles left after {len(game.moves)} moves"
            " (this does not prove the board unsolvable)", text)

    def solutions(self, puzzle: Board, *, time_limit: float | None = None):
        raise Unsupported("lianliankan search finds one clearing sequence (solve); "
                          "counting clearing sequences is not offered")

    def count(self, puzzle: Board, *, limit=None, time_limit=None):
        return self.solutions(puzzle)

    def unique(self, puzzle: Board, *, time_limit=None):
        return self.solutions(puzzle)


def search_for(board: Board) -> Any:
    """The search class for the board's rules: ``PairingSearch``, or under
    gravity ``gravity.GravitySearch``, loaded by name on first use (with its
    compiled kernel), so that a board without gravity does not load it."""
    return load(GRAVITY_SEARCH) if board.gravity else PairingSearch


GRAVITY_SEARCH = "search.lianliankan.gravity:GravitySearch"


# ---------------------------------------------------------------- without gravity


class PairingSearch(Dives):
    """Depth-first search over pairings with safe removals, relaxation and a table.

    Once the first dive has failed somewhere, each node also looks one step
    ahead: for every group of four or more it relaxes each way of pairing one
    of its tiles; a group with no way left fails the node, a group with one
    way takes it without branching, and the search branches on the group with
    the fewest ways, the most active one (its tiles' pairings failed most
    often) among equals.
    """

    def __init__(self, board: Board, deadline: Deadline, node_limit: int | None = None):
        self.board = board
        self.field = Field(board)
        self.deadline = deadline
        self.node_limit = node_limit  # an internal budget: past it, LimitReached
        self.nodes = 0
        self.budget = 0
        self.rng = random.Random(0)
        self.lookahead = False
        # Pairs found unable to pair up (their relaxation failed) at a node on
        # the current path: they stay so in its whole subtree.
        self.dead: Counter[tuple[int, int]] = Counter()
        self._killed: list[list[tuple[int, int]]] = []
        self.failed: set[frozenset[Group]] = set()
        # Per tile, how often a pairing in its group failed a relaxation.
        self.activity: Counter[int] = Counter()
        # The last witness found for a child with this pair: most of it holds
        # again at the next nodes, where the joins the pair cuts have a repair.
        self.hints: dict[Group, list[Join]] = {}
        self.start = [tuple(tiles) for tiles in self.field.pictures().values()]

    def run(self) -> list[Move] | None:
        """Search with restarts: a dive that exceeds its node budget starts
        again with shuffled choices, the budgets following Luby's sequence
        (how long a dive takes varies wildly with its early choices, for
        proofs as much as for clearings).  Failed nodes stay in the table
        (they are proofs), so no work that finished is lost."""
        dive = 0
        while True:
            self.budget = self.nodes + dive_budget(dive, FIRST_BUDGET, RESTART_UNIT)
            try:
                return self._search(list(self.start), [], set())
            except OverBudget:
                self.field = Field(self.board)
                self.dead.clear()
                self._killed.clear()
                self.rng.shuffle(self.start)
                dive += 1

    def _search(self, groups: list[Group], hint: list[Join],
                settled: set[Group]) -> list[Move] | None:
        self.enter()
        field = self.field
        snapshot = field.cells[:]
        played: list[tuple[int, int, tuple[int, ...]]] = []
        self._killed.append([])
        try:
            return self._node(groups, hint, settled, snapshot, played)
        finally:
            for pair in self._killed.pop():
                self.dead[pair] -= 1
                if not self.dead[pair]:
                    del self.dead[pair]

    def _node(self, groups: list[Group], hint: list[Join], settled: set[Group],
              snapshot: list[int], played: list) -> list[Move] | None:
        """``settled``: groups known not to clear on the board as it is."""
        field = self.field
        while True:
            groups = self._close(groups, played, settled)
            if not groups:
                return [field.move(*m) for m in played]
            settled = set(groups)
            key = frozenset(groups)
            witness = None if key in self.failed else self._reachable(self._owners(groups), hint)
            options = [] if witness is None else self._options(groups, witness)
            if len(options) != 1:
                break
            groups, hint = options[0]  # forced: no branching
        for child, child_hint in options:
            found = self._search(child, child_hint, settled)
            if found is not None:
                return [field.move(*m) for m in played] + found
        self.failed.add(key)
        self.lookahead = True
        field.cells[:] = snapshot
        return None

    # ------------------------------------------------------------ safe removals

    def _close(self, groups: list[Group], played: list, settled: set[Group]) -> list[Group]:
        """Remove every group whose tiles can all go now, until none can;
        the ``settled`` ones need no look until a removal changes the board."""
        field = self.field
        progress = True
        while progress and groups:
            progress, kept = False, []
            for group in groups:
                pairs = None if group in settled else self._clearing(group)
                if pairs is None:
                    kept.append(group)
                    continue
                for a, b, corners in pairs:
                    field.remove(a, b)
                    played.append((a, b, corners))
                progress = True
                settled = set()
            groups = kept
        return groups

    def _clearing(self, group: Group) -> list[tuple[int, int, tuple[int, ...]]] | None:
        """The removals that clear the group now, or None.

        For two or four tiles, a pair that connects is removed and the rest is
        checked on the board after it (the rest may connect only then); larger
        groups look for a perfect matching of the pairs that connect now, which
        stay connected while the others go.
        """
        field = self.field
        if len(group) > 4:
            return self._matching(group)
        a = group[0]
        for b in group[1:]:
            if not field.connected(a, b):
                continue
            rest = tuple(t for t in group if t != a and t != b)
            if not rest:
                return [(a, b, field.path(a, b))]
            saved = field.cells[a]
            field.cells[a] = field.cells[b] = 0  # see whether the rest clears after a, b
            later = self._clearing(rest)
            field.cells[a] = field.cells[b] = saved
            if later is not None:
                return [(a, b, field.path(a, b)), *later]
        return None

    def _matching(self, group: Group) -> list[tuple[int, int, tuple[int, ...]]] | None:
        field = self.field
        n = len(group)
        near = [0] * n
        for i in range(n):
            for j in range(i + 1, n):
                if field.connected(group[i], group[j]):
                    near[i] |= 1 << j
                    near[j] |= 1 << i
            if not near[i]:  # complete now (earlier rows did j < i): tile i is stuck
                return None
        dead: set[int] = set()

        def match(left: int) -> list[tuple[int, int]] | None:
            if not left:
                return []
            if left in dead:
                return None
            i = (left & -left).bit_length() - 1
            options = near[i] & left
            while options:
                j = (options & -options).bit_length() - 1
                options &= options - 1
                rest = match(left & ~(1 << i) & ~(1 << j))
                if rest is not None:
                    return [(i, j), *rest]
            dead.add(left)
            return None

        pairs = match((1 << n) - 1)
        if pairs is None:
            return None
        out = []
        saved = field.cells[:]
        for i, j in pairs:  # each line on the board it meets, as played
            a, b = group[i], group[j]
            out.append((a, b, field.path(a, b)))
            field.cells[a] = field.cells[b] = 0
        field.cells[:] = saved
        return out

    # ------------------------------------------------------------ the cut

    def _owners(self, groups: list[Group]) -> list[Group | None]:
        """The group of each cell of the field (None: no tile in a group)."""
        owner: list[Group | None] = [None] * len(self.field.cells)
        for group in groups:
            for t in group:
                owner[t] = group
        return owner

    def _reachable(self, owner: list[Group | None], hint: list[Join]) -> list[Join] | None:
        """Relaxed reachability: can every tile join the set of removable tiles?

        ``owner``: the groups, as ``_owners`` gives them.  Returns the joins in
        order as the witness, or None when a tile cannot join.  ``hint`` holds
        earlier joins: one holds again once its two tiles are in one group and
        its line's cells are empty, which costs no line search, so those are
        retried after every join.  Line searches go first to tiles no such join
        covers.
        """
        field = self.field
        cells, s = field.cells, field.stride  # a joined tile is emptied: cells[t] == 0
        saved = cells[:]
        witness: list[Join] = []
        lines: Occupancy | None = None  # read at the first line search
        waiting = list({id(item): item for item in hint  # a hint may repeat joins
                        if (g := owner[item[0]]) is not None and g is owner[item[1]]}.values())

        def join(item: Join) -> None:
            t, u, _ = item
            cells[t] = cells[u] = 0
            if lines is not None:
                lines.empty(t)
                lines.empty(u)
            witness.append(item)

        def replay() -> None:
            nonlocal waiting
            progress = True
            while progress and waiting:
                progress, still = False, []
                for item in waiting:
                    t, u, line = item
                    if not (cells[t] or cells[u]):
                        continue
                    if any(line(cells)):
                        still.append(item)
                    else:
                        join(item)
                        progress = True
                waiting = still

        def grow(t: int) -> bool:
            nonlocal lines
            if cells[t - 1] and cells[t + 1] and cells[t - s] and cells[t + s]:
                partners: Group = (t - 1, t + 1, t - s, t + s)  # boxed in: only a neighbour
            else:
                partners = owner[t]
            if lines is None:
                lines = Occupancy(field)
            find = lines.line if field.turns == 2 else field.line  # the masks know two turns
            for u in partners:
                if u != t and owner[u] is owner[t]:
                    corners = find(t, u)
                    if corners is not None:
                        join((t, u, _getter(field.line_cells(t, corners, u))))
                        replay()
                        return True
            return False

        try:
            replay()
            covered = {t for item in waiting for t in item[:2]}
            pending = sorted((t for t, g in enumerate(owner) if g is not None and cells[t]),
                             key=covered.__contains__)
            while pending:
                still = [t for t in pending if cells[t] and not grow(t)]
                if len(still) == len(pending):
                    return None
                pending = [t for t in still if cells[t]]
            return witness
        finally:
            cells[:] = saved

    # ------------------------------------------------------------ branching

    def _splits(self, groups: list[Group], group: Group, a: int):
        """The children that pair tile ``a`` of ``group`` with each partner,
        partners that connect now first."""
        field = self.field
        others = [g for g in groups if g is not group]
        partners = [b for b in group if b != a]
        self.rng.shuffle(partners)
        partners.sort(key=lambda b: not field.connected(a, b))
        for b in partners:
            pair = (a, b) if a < b else (b, a)
            yield [*others, pair, tuple(t for t in group if t != a and t != b)]

    def _options(self, groups: list[Group],
                 witness: list[Join]) -> list[tuple[list[Group], list[Join]]]:
        """The children to try, each with a hint for its relaxation."""
        field = self.field
        big = [g for g in groups if len(g) >= 4]
        if not self.lookahead:
            for group in sorted(big, key=lambda g: (len(g), self.rng.random())):
                for a in group:
                    if any(b != a and field.connected(a, b) for b in group):
                        return [(child, witness) for child in self._splits(groups, group, a)]
            return []
        owner = self._owners(groups)
        best: list | None = None
        activity = self.activity
        for group in sorted(big, key=lambda g: (len(g), -sum(activity[t] for t in g),
                                                 self.rng.random())):
            a = self.rng.choice(group)
            alive = []
            for child in self._splits(groups, group, a):
                pair = child[-2]
                if pair in self.dead:
                    continue
                self.deadline.check()
                earlier = self.hints.get(pair)
                rest = child[-1]
                for t in pair:
                    owner[t] = pair
                for t in rest:
                    owner[t] = rest
                child_witness = self._reachable(
                    owner, witness if earlier is None else earlier + witness)
                for t in group:
                    owner[t] = group
                if child_witness is None:
                    self.dead[pair] += 1  # dead below this node too
                    for t in group:
                        activity[t] += 1
                    self._killed[-1].append(pair)
                    continue
                self.hints[pair] = child_witness
                alive.append((child, child_witness))
                if best is not None and len(alive) >= len(best):
                    break  # cannot beat the best group so far
            if best is None or len(alive) < len(best):
                best = alive
                if len(best) <= 1:
                    break
        return best or []


def clearing(board: Board, node_limit: int, deadline: Deadline | None = None,
             effort: dict[str, float] | None = None) -> list[Move] | None:
    """A clearing found within ``node_limit`` nodes of the exact search (greedy
    play first), or None: none found in that budget or before ``deadline``,
    or none exists.  The search's figures are added to ``effort`` (keys
    ``hint_nodes``, ...), whatever the outcome."""
    deadline = deadline or Deadline(None)
    engine = search_for(board)(board, deadline, node_limit=node_limit)
    try:
        game = play(board, deadline)
        return list(game.moves) if game.left == 0 else engine.run()
    except LimitReached:
        return None
    finally:
        if effort is not None:
            add_effort(effort, {f"hint_{k}": v for k, v in engine.effort().items()})



def dead_pairs(board: Board, deadline: Deadline | None = None) -> set[tuple[Cell, Cell]] | None:
    """Two tiles of one picture that can never be removed together, by the
    search's relaxation (no gravity): pairing them with each other (and the
    rest of the picture among itself) leaves some tile that can never go.
    A tile left with one partner is paired with it, and the test runs again
    until nothing changes; tiles of one picture in different groups by then
    are in the answer too.  None when the board cannot clear at all.
    """
    deadline = deadline or Deadline(None)
    search = PairingSearch(board, deadline)
    field = search.field
    groups = list(search.start)
    dead: set[tuple[int, int]] = set()
    owner = search._owners(groups)
    if search._reachable(owner, []) is None:
        return None
    changed = True
    while changed:
        changed = False
        for group in [g for g in groups if len(g) >= 4]:
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    if (a, b) in dead:
                        continue
                    deadline.check()
                    pair, rest = (a, b), tuple(t for t in group if t not in (a, b))
                    for t in pair:
                        owner[t] = pair
                    for t in rest:
                        owner[t] = rest
                    if search._reachable(owner, []) is None:
                        dead.add(pair)
                    for t in group:
                        owner[t] = group
            for a in group:
                partners = [b for b in group if b != a and (min(a, b), max(a, b)) not in dead]
                if not partners:
                    return None
                if len(partners) == 1:  # forced: a group of its own, and look again
                    pair = (min(a, partners[0]), max(a, partners[0]))
                    groups.remove(group)
                    groups += [pair, tuple(t for t in group if t not in pair)]
                    owner = search._owners(groups)
                    changed = True
                    break
            if changed:
                break
    together = {frozenset(p) for g in groups for p in itertools.combinations(g, 2)}
    return {(field.cell(a), field.cell(b)) for g in search.start
            for a, b in itertools.combinations(g, 2) if frozenset((a, b)) not in together}




def _getter(cells: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A fast reader of these cells of a board (always a tuple)."""
    return itemgetter(*cells, cells[0]) if cells else _NOTHING


def _nothing(board: list[int]) -> tuple[int, ...]:
    return ()


_NOTHING = _nothing
