"""Is a Numberlink puzzle well-designed?  A pipeline of sound steps.

Well-designed: exactly one solution under the lenient rule, and that solution
covers every open cell.  The report gives the verdict, its certificates (two
distinct solutions for "several", the one solution otherwise), the step and
engine that proved it, the capped counts under both rules, and the effort of
every step run.

Every step is sound on its own and budgeted in work, never in seconds: the
frontier in states per level, the window sweeps in states per window,
CP-SAT in deterministic time with one worker and a fixed seed.  The steps run
in a fixed order, and the first that settles the question ends the check, so
a file gives the same verdict, certificates and effort figures on any machine
and load.  The caller's ``time_limit`` can only turn the answer into LIMIT.

The steps (``docs/numberlink.md``, "The well-designed check", gives the lemma
behind each):

1. ``bound``: the frontier's self-avoiding bound (``FrontierBackend.
   self_avoiding_bound``), within ``Budget.bound_states`` states.  Decides most boards
   outright, with its certificates.  Boards of ``Budget.large_cells`` open cells and
   more skip it: there it mostly runs out of states, and the next steps
   decide sooner.
2. ``cover``: a self-avoiding full cover S: ``links``' no-self-touch pass
   within ``Budget.cover_nodes`` nodes (``cover (links)``), then CP-SAT
   without and with its LP relaxation (``cover (quick)``, ``cover``).  None:
   not well-designed (the one solution of a well-designed puzzle is one).
3. ``second-cover``: a second full cover by CP-SAT, S forbidden (a short
   look: where there is one, it mostly comes at once).
4. ``proof``: a canonical lenient solution other than S by CP-SAT; none
   proves the puzzle well-designed.
5. ``detour (full cover)``: a second full cover that re-routes S inside a
   small window (``detour``).
6. ``detour (lenient)``: a second lenient solution near S, likewise.
7. ``route``: a lenient solution other than S by the router (short paths
   through open space, far from S, where the proofs do not look).
8. ``proof (bands)``: step 4 split by where another solution first parts
   from S: S's steps in row-major order, cut into bands of rows; a case per
   band (S kept above it, one of its steps missed), halved where it runs out.
   ``proof (rings)`` is the same split with S's steps from the centre of the
   board out, the cases that keep most of S first; it runs after ``route``.
9. ``bound-large``: step 1 again within ``Budget.large_states`` states.

Steps 3-7 run cheapest first once S is known: ``proof (glance)`` (step 4
within ``Budget.glance_proof_time``), ``detour (full cover, near)`` (the
small windows), ``second-cover``, ``proof (quick)``, ``detour (full cover,
far)``, ``route``, ``proof (rings)``, ``detour (lenient)``, and ``proof``
with its whole budget.

A step whose budget runs out hands over to the next; when every budget is
spent the answer is UNDECIDED (the same on every machine), and
``details.open_question`` names the cells the question is still about.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from search.core.contract import (
    Backend,
    CheckReport,
    Deadline,
    LimitReached,
    Status,
    add_effort,
    load,
)
from search.core.limits import allow_recursion
from search.numberlink import KIND
from search.numberlink.detour import WINDOWS, Shape, detour
from search.numberlink.frontier.board import TooWide
from search.numberlink.grade import grade
from search.numberlink.links import Exhausted, Links
from search.numberlink.model import Numberlink, Solution
from search.numberlink.route import ROUNDS, route
from search.numberlink.verify import covers, touches_itself, verify

CAP = 2  # counts are capped: 2 means "two or more"
LINEARIZATION = 2  # CP-SAT's for a first solution (cpmodels.numberlink's)
SEED = 0  # CP-SAT's random seed; one worker, so its search is a function of the model
# The CP-SAT steps reach their model by name, so that ortools loads only when one runs.
CIRCUIT, EFFORT = "cpmodels.numberlink:CircuitModel", "cpmodels.common:effort"
MAKE_SOLVER, SOLVE = "cpmodels.common:make_solver", "cpmodels.common:solve"
# the detour windows before CP-SAT's second cover and proof (cheap: a band of
# k rows is a frontier of k cells), and the others after
NEAR, FAR = WINDOWS[:9], WINDOWS[9:]

REASONS = {
    "unsat": "no solution",
    "lenient": "several lenient solutions",
    "full": "several full-cover solutions",
    "empty": "the only solution leaves cells empty",
    "no-cover": "no solution covers every cell without touching itself",
}


@dataclass(frozen=True)
class Budget:
    """The work each step may spend (the check's only tuning): states, nodes
    and CP-SAT deterministic seconds.  The same budget gives the same answer
    on every machine."""

    bound_states: int = 200_000  # step 1: states in a frontier level (most boards need far fewer)
    count_states: int = 250_000  # the frontier's lenient count behind "leaves cells empty"
    detail_states: int = 60_000  # the full-cover count once the verdict is settled (a detail)
    cover_nodes: int = 20_000  # step 2 by links first (generated 30x30 boards: 11-700 nodes)
    quick_cover_time: float = 0.5  # step 2, first without the LP relaxation (Janko #174: 0.03)...
    # ... then with it: CP-SAT deterministic time for a self-avoiding full cover
    cover_time: float = 10.0
    second_cover_time: float = 0.25  # step 3 (second full covers mostly take 0.01-0.04)
    glance_proof_time: float = 0.1  # a first look at the proof (Flow Free jumbo 14x14 #02: 0.076)
    quick_proof_time: float = 1.0  # step 4, a first look; then the detours (cheap), then...
    # ... the whole proof (the Janko proofs and second solutions take up to 3.3)
    proof_time: float = 4.0
    # past this many open cells both proofs grow with the board, times cells /
    # proof_cells, as the generator's first look does (``Design.check``), so
    # that a re-check proves its boards before the far detours (40x40 seed
    # 83001: 48 CPU s, the lenient detours 18 of them, with 1 s; 19 s now)
    proof_cells: int = 400
    # step 8: rows in a band, CP-SAT deterministic s for one case, the least
    # steps of S a case may be halved to, and the deterministic s of all cases
    band_rows: int = 4
    band_proof_time: float = 4.0
    band_min_steps: int = 8
    bands_time: float = 60.0
    # the same split by rings from the centre out, the cases that keep most
    # of S first (a finder as much as a proof): rings in a band, CP-SAT
    # deterministic s for one case (a band's, the whole proof's: one proof
    # look each), and for all (a quarter of the bands' 60: it runs before the
    # lenient detours).  Measured, not fitted: a ring a case finds a second
    # solution sooner than two (gen.py 30x30 seed 33309: 2.7 against 13.0
    # deterministic s in all); 1 a case is too little (none in 30)
    ring_band: int = 1
    ring_case_time: float = 4.0
    rings_time: float = 16.0
    large_states: int = 4_000_000  # step 9
    large_cells: int = 196  # boards with this many open cells (14 x 14) skip step 1
    # steps 5 and 6: states in a level of one window's frontier (detour.WINDOW_STATES;
    # 0: the step does not run)
    full_window_states: int = 600_000
    lenient_window_states: int = 150_000
    # the router's rounds for a lenient solution other than S (0: the step
    # does not run); a failed look spends them all: 0.4-0.7 CPU s at 30x30
    route_rounds: int = ROUNDS
    # False: after the second cover, stop (UNDECIDED) instead of running the
    # far and lenient detours and the longer proofs (the generator's budget:
    # there an undecided board costs one more pair, not a long proof)
    thorough: bool = True

    def scale(self, cells: int) -> float:
        """How much the proofs grow on a board of ``cells`` open cells: 1 up
        to ``proof_cells``, then in proportion."""
        return max(1.0, cells / max(1, self.proof_cells))


@dataclass(frozen=True)
class Finding:
    """What the pipeline settled: capped counts (None: not counted), the
    certificates, the rule they solve, and the step that settled it."""

    lenient: int | None
    full: int | None
    solutions: tuple[Solution, ...]
    rule: str  # "lenient" or "full cover": the rule every certificate obeys
    step: str
    engine: str = "frontier"


@dataclass
class _Log:
    """The steps run, each with its outcome and effort, in order (and what
    they share)."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    effort: dict[str, float] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)  # per step: wall-clock, varies
    last: float = field(default_factory=time.perf_counter)
    # what an undecided check is still about (the bands' proof sets them)
    open_question: str = ""
    open_cells: list[tuple[int, int]] = field(default_factory=list)
    # the lenient circuit model the split proofs (rings, bands) clone: built
    # once a check (0.1 CPU s at 30x30, 0.26 at 40x40; a clone 0.004)
    circuit: Any = None

    def add(self, step: str, engine: str, outcome: str, spent: dict[str, float]) -> None:
        self.steps.append({"step": step, "engine": engine, "outcome": outcome,
                           **{k: spent[k] for k in sorted(spent)}})
        add_effort(self.effort, {f"{engine}.{k}": v for k, v in spent.items()})
        now = time.perf_counter()
        self.seconds.append(round(now - self.last, 3))
        self.last = now


def check(puzzle: Numberlink, *, backend: str | Backend | None = None,
          time_limit: float | None = None, budget: Budget = Budget()) -> CheckReport:
    """The verdict with its certificates; see the module text.  ``backend``
    (a name, or a backend with its options) answers by itself instead of the
    pipeline: its ``unique`` under each rule."""
    start, deadline, log = time.perf_counter(), Deadline(time_limit), _Log()
    try:
        if backend is None:
            found = _pipeline(puzzle, deadline, budget, log)
        else:
            found = _by_backend(puzzle, backend, deadline, log)
    except LimitReached:
        return _report(puzzle, None, log, start, "the time limit")
    return _report(puzzle, found, log, start, "the work budgets")


# ---------------------------------------------------------------- the pipeline


def _pipeline(puzzle: Numberlink, deadline: Deadline, budget: Budget,
              log: _Log) -> Finding | None:
    large = len(puzzle.open_cells) >= budget.large_cells
    if not large:
        found = _bound(puzzle, budget.bound_states, "bound", budget, deadline, log)
        if found is not None:
            return found
    cover = _cover(puzzle, budget, deadline, log)
    if cover is False:  # no self-avoiding full cover
        return _without_cover(puzzle, budget, deadline, log)
    if cover is not None:
        found = _another(puzzle, cover, budget, deadline, log)
        if found is not None:
            return found
    return _bound(puzzle, budget.large_states, "bound-large", budget, deadline, log)


def _cover(puzzle: Numberlink, budget: Budget, deadline: Deadline,
           log: _Log) -> Solution | bool | None:
    """Step 2: a self-avoiding full cover S, False when there is none, None
    when every budget ran out.  ``links`` first (its no-self-touch pass finds
    one on generated 20x20 and 30x30 boards in 11-700 nodes, where CP-SAT
    took up to 3.2 deterministic s on a 30x30), then CP-SAT."""
    cover = _links_cover(puzzle, budget.cover_nodes, deadline, log)
    if cover is not None:
        return cover
    # without the LP relaxation first: far faster on most boards (Janko #174:
    # 0.03 deterministic s against 0.55, and 0.4 s of wall time against 3.5)
    cover = _cpsat_solve(puzzle.covering(), "cover (quick)", budget.quick_cover_time,
                         deadline, log, no_self_touch=True, linearization=0)
    if cover is None:
        cover = _cpsat_solve(puzzle.covering(), "cover", budget.cover_time, deadline, log,
                             no_self_touch=True)
    return cover


def _links_cover(puzzle: Numberlink, nodes: int, deadline: Deadline,
                 log: _Log) -> Solution | bool | None:
    """``links``' no-self-touch pass within ``nodes`` nodes.  Its pruning
    (a 2 x 2 square holds two links at most; a path never runs beside its
    own cells) follows from self-avoidance, so running out of choices proves
    there is no self-avoiding full cover."""
    if nodes <= 0:
        return None
    allow_recursion(4 * len(puzzle.open_cells))
    board = Links(puzzle.covering(), nst=True, deadline=deadline)
    try:
        found = board.start() and board.search(deadline, nodes)
    except Exhausted:
        log.add("cover (links)", "links", f"over {nodes} nodes", {"nodes": board.nodes})
        return None
    if not found:
        log.add("cover (links)", "links", "none", {"nodes": board.nodes})
        return False
    cover = board.solution()
    if touches_itself(puzzle, cover) or verify(puzzle.covering(), cover):
        log.add("cover (links)", "links", "not self-avoiding (ignored)", {"nodes": board.nodes})
        return None  # never expected; CP-SAT then finds S
    log.add("cover (links)", "links", "found", {"nodes": board.nodes})
    return cover


def _another(puzzle: Numberlink, cover: Solution, budget: Budget, deadline: Deadline,
             log: _Log) -> Finding | None:
    """Steps 3-7: another lenient solution than the self-avoiding full cover
    S, or a proof there is none.  Cheapest first: a glance of the proof
    (generated boards that are well-designed mostly fall to CP-SAT's
    presolve), the detours in small windows (where a second solution of a
    generated board mostly lies: 28 of 30 20x20 and 30x30 boards within
    bands of 8), a second full cover by CP-SAT, a short proof, the detours
    in the large windows, the router's short paths, the split by rings,
    the detours under the lenient rule, the whole proof."""
    found = (_proof(puzzle, cover, None, budget.glance_proof_time, "proof (glance)",
                    deadline, log)
             or _detour(puzzle.covering(), cover, NEAR, "near", budget, deadline, log))
    if found is not None:
        return found
    other = _cpsat_solve(puzzle.covering(), "second-cover", budget.second_cover_time,
                         deadline, log, forbid=cover, linearization=0)
    if other:  # two full covers are two lenient solutions
        return Finding(CAP, CAP, (cover, other), "full cover", "second-cover", "cpsat")
    full = 1 if other is False else None
    if not budget.thorough:
        return None
    # a short proof, the other detours (a second solution near S: Janko #168's
    # in 0.4 s where the proof spends 4 deterministic s), the whole proof
    scale = budget.scale(len(puzzle.open_cells))
    return (_proof(puzzle, cover, full, budget.quick_proof_time * scale, "proof (quick)",
                   deadline, log)
            or _detour(puzzle.covering(), cover, FAR, "far", budget, deadline, log)
            or _route(puzzle, cover, full, budget, deadline, log)
            or _rings(puzzle, cover, full, budget, deadline, log)
            or _detour(puzzle.lenient(), cover, WINDOWS, "", budget, deadline, log)
            or _proof(puzzle, cover, full, budget.proof_time * scale, "proof", deadline, log)
            or _bands(puzzle, cover, full, budget, deadline, log))


def _route(puzzle: Numberlink, cover: Solution, full: int | None, budget: Budget,
           deadline: Deadline, log: _Log) -> Finding | None:
    """A lenient solution other than S by the router (``search.numberlink.
    route``): short paths that share no cell, far from S.  Where the lenient
    rule lets the paths take short cuts through open space and leave most of
    the board empty, this is where the second solution lies, and the proof,
    which searches from S, misses it (``gen.py`` 30x30 seed 32310: none in
    300 CPU s of CP-SAT, 0.06 s here).  Finding nothing proves nothing."""
    if budget.route_rounds <= 0:
        return None
    spent: dict[str, float] = {}
    lenient = puzzle.lenient()
    other = route(lenient, rounds=budget.route_rounds, deadline=deadline, effort=spent)
    if other is None and deadline.expired():
        raise LimitReached
    # (the router's paths share no cell: a solution, if not S)
    outcome = ("none" if other is None else "S again" if other.edges == cover.edges
               else "not a solution" if verify(lenient, other) else "found")
    log.add("route", "router", outcome, spent)
    if other is None or outcome != "found":
        return None
    return _second(puzzle, cover, other, full, "route", "router")


def _bound(puzzle: Numberlink, states: int, step: str, budget: Budget, deadline: Deadline,
           log: _Log) -> Finding | None:
    """Steps 1 and 9: the frontier's self-avoiding bound B, capped at 2."""
    engine = KIND.backend("frontier", max_states=states)
    try:
        bound = engine.self_avoiding_bound(puzzle, cap=CAP, deadline=deadline)
    except TooWide:
        log.add(step, "frontier", f"over {states} states", engine.effort)
        return None
    log.add(step, "frontier", f"|B| = {bound.count}" + ("+" if bound.count == CAP else ""),
            bound.effort)
    if bound.count == 0:  # no self-avoiding solution: no solution at all
        return Finding(0, 0, (), "lenient", step)
    if bound.count == CAP:  # two lenient solutions; are there two full covers?
        full = _frontier_two(puzzle.covering(), "full-cover count", budget.detail_states,
                             deadline, log)
        if full is not None and len(full) == CAP:
            return Finding(CAP, CAP, full, "full cover", step)
        return Finding(CAP, None if full is None else len(full), bound.solutions,
                       "lenient", step)
    (only,) = bound.solutions  # B's lone member: self-avoiding (else its shortcut is in B)
    if covers(puzzle, only):
        return Finding(1, 1, (only,), "full cover", step)
    # It leaves cells empty: not well-designed either way; the lenient count says why.
    lenient = _frontier_two(puzzle.lenient(), "lenient count", budget.count_states,
                            deadline, log)
    if lenient is None:
        return Finding(None, None, (only,), "lenient", step)
    if len(lenient) == 1:  # the only solution: no full cover
        return Finding(1, 0, lenient, "lenient", step)
    full = _frontier_two(puzzle.covering(), "full-cover count", budget.detail_states,
                         deadline, log)
    if full is not None and len(full) == CAP:
        return Finding(CAP, CAP, full, "full cover", step)
    return Finding(CAP, None if full is None else len(full), lenient, "lenient", step)


def _frontier_two(rules: Numberlink, step: str, states: int, deadline: Deadline,
                  log: _Log) -> tuple[Solution, ...] | None:
    """Up to two solutions under ``rules`` by the frontier (all there are, if
    fewer), or None past ``states`` states in a level."""
    engine = KIND.backend("frontier", max_states=states)
    found = engine.unique(rules, time_limit=deadline.remaining())
    if found.status is Status.LIMIT:
        if deadline.expired():
            raise LimitReached
        log.add(step, "frontier", f"over {states} states", found.effort)
        return None
    log.add(step, "frontier", f"{len(found.solutions)} found", found.effort)
    return found.solutions


def _without_cover(puzzle: Numberlink, budget: Budget, deadline: Deadline,
                   log: _Log) -> Finding:
    """No self-avoiding full cover: not well-designed.  The lenient count
    (two by CP-SAT, solving and blocking) says why."""
    lenient = _cpsat_two(puzzle.lenient(), "lenient count", budget.proof_time, deadline, log)
    if lenient is None:
        return Finding(None, None, (), "lenient", "cover", "cpsat")
    if len(lenient) < CAP:
        return Finding(len(lenient), 0, lenient, "lenient", "cover", "cpsat")
    full = _cpsat_two(puzzle.covering(), "full-cover count", budget.second_cover_time,
                      deadline, log)
    if full is not None and len(full) == CAP:
        return Finding(CAP, CAP, full, "full cover", "cover", "cpsat")
    return Finding(CAP, None if full is None else len(full), lenient, "lenient", "cover",
                   "cpsat")


def _detour(rules: Numberlink, cover: Solution, shapes: tuple[Shape, ...], which: str,
            budget: Budget, deadline: Deadline, log: _Log) -> Finding | None:
    """Another solution under ``rules`` that re-routes S in a window of ``shapes``."""
    spent: dict[str, float] = {}
    states = budget.full_window_states if rules.full_cover else budget.lenient_window_states
    if states <= 0:  # a budget of nothing: the step does not run
        return None
    other = detour(rules, cover, deadline, shapes=shapes, window_states=states, effort=spent)
    rule = "full cover" if rules.full_cover else "lenient"
    step = f"detour ({rule}, {which})" if which else f"detour ({rule})"
    log.add(step, "frontier", "found" if other else "none", spent)
    if other is None:
        return None
    return Finding(CAP, CAP if rules.full_cover else None, (cover, other), rule, "detour")


def _proof(puzzle: Numberlink, cover: Solution, full: int | None, work: float, step: str,
           deadline: Deadline, log: _Log) -> Finding | None:
    """Step 4: a canonical lenient solution other than S, or a proof there is
    none, within ``work`` deterministic seconds; ``full``: the full-cover
    count after step 3 (None: not settled)."""
    other = _cpsat_solve(puzzle.lenient(), step, work, deadline, log,
                         no_self_touch=True, canonical=True, forbid=cover, linearization=0)
    if other is False:
        return Finding(1, 1, (cover,), "full cover", step, "cpsat")
    if not other:
        return None
    return _second(puzzle, cover, other, full, step, "cpsat")


def _second(puzzle: Numberlink, cover: Solution, other: Solution, full: int | None,
            step: str, engine: str) -> Finding:
    """The finding of a lenient solution ``other`` than S: two full covers,
    or two lenient solutions (``full``: the full-cover count so far)."""
    if covers(puzzle, other):
        return Finding(CAP, CAP, (cover, other), "full cover", step, engine)
    return Finding(CAP, full, (cover, other), "lenient", step, engine)


def _bands(puzzle: Numberlink, cover: Solution, full: int | None, budget: Budget,
           deadline: Deadline, log: _Log) -> Finding | None:
    """Step 8: the proof of step 4, split by where another solution T first
    parts from S.  T misses some step of S (one that took every step of the
    full cover S would be S), so number S's steps in row-major order of their
    upper-left cell: for each range [lo, hi) of consecutive numbers, the case
    "T takes steps 0..lo-1 of S and misses one of lo..hi-1" is one CP-SAT
    model (the canonical, self-avoiding one of step 4).  Ranges that tile
    0..m cover every T, so all cases infeasible prove S the only solution;
    a case found is the second solution.  The ranges start as bands of
    ``band_rows`` rows: S kept above a band fixes most of the board, and a
    difference forced into a few rows keeps the search there.  A case that
    runs out of ``band_proof_time`` is halved (down to ``band_min_steps``
    steps), while ``bands_time`` lasts; the cases left open are the question
    that stays, and their cells go to ``log.open_cells``."""
    if budget.band_proof_time <= 0 or budget.bands_time <= 0:
        return None
    steps = sorted((step for path in cover.paths for step in zip(path, path[1:])),
                   key=lambda step: min(step))
    band = [min(step)[0] // max(1, budget.band_rows) for step in steps]
    return _cases(puzzle, cover, full, steps, band, "proof (bands)", budget.band_proof_time,
                  budget.bands_time, False, budget, deadline, log, "row-major")


def _ring(puzzle: Numberlink, cell: tuple[int, int]) -> int:
    """How far a cell lies inside the board: 0 on its edge."""
    r, c = cell
    return min(r, c, puzzle.height - 1 - r, puzzle.width - 1 - c)


def _rings(puzzle: Numberlink, cover: Solution, full: int | None, budget: Budget,
           deadline: Deadline, log: _Log) -> Finding | None:
    """Step 8's split in another order: S's steps from the centre of the
    board out (by ring, then row-major), in bands of ``ring_band`` rings, and
    the cases taken from the last: the one that keeps all of S but its outer
    ring first, each later case with fewer of S's steps kept.  The same
    lemma (the cases tile every T), so all infeasible prove S the only
    solution; the first cases, with most of S fixed, are small and settled
    at once, and a second solution that re-routes the middle of a board
    while its core stays is found with S's core fixed (``gen.py`` 30x30 seed
    33309: none in 58 CPU s of the other steps; here in 2.7 deterministic s),
    where the whole proof, which fixes nothing, runs out."""
    if budget.ring_case_time <= 0 or budget.rings_time <= 0:
        return None
    depth = {step: min(_ring(puzzle, cell) for cell in step)
             for path in cover.paths for step in zip(path, path[1:])}
    steps = sorted(depth, key=lambda step: (-depth[step], min(step)))
    band = [-depth[step] // max(1, budget.ring_band) for step in steps]
    return _cases(puzzle, cover, full, steps, band, "proof (rings)", budget.ring_case_time,
                  budget.rings_time, True, budget, deadline, log, "from the centre out")


def _cases(puzzle: Numberlink, cover: Solution, full: int | None,
           steps: list[tuple[tuple[int, int], tuple[int, int]]], band: list[int], name: str,
           each: float, total: float, last_first: bool, budget: Budget, deadline: Deadline,
           log: _Log, order: str) -> Finding | None:
    """The cases of ``steps`` (S's steps in the order of the split, named by
    ``order``), a range of consecutive ``band`` numbers each, within ``each``
    deterministic s a case and ``total`` for all; ``last_first``: the cases
    that keep most of S run first (and so do the halves of a case).  See
    ``_bands``."""
    from ortools.sat.python import cp_model

    cuts = [0] + [i for i in range(1, len(steps)) if band[i] != band[i - 1]] + [len(steps)]
    todo = list(zip(cuts, cuts[1:]))
    if last_first:
        todo.reverse()
    if log.circuit is None:
        log.circuit = load(CIRCUIT)(puzzle.lenient(), no_self_touch=True, canonical=True)
    built = log.circuit
    read = built.reader()
    spent = 0.0
    left: list[tuple[int, int]] = []
    while todo:
        lo, hi = todo.pop(0)
        if spent >= total:
            left.append((lo, hi))
            continue
        case = built.model.clone()
        arc = [case.get_bool_var_from_proto_index(built.arc[step].index) for step in steps]
        if lo:
            case.add_bool_and(arc[:lo])
        case.add_bool_or([~lit for lit in arc[lo:hi]])
        solver = load(MAKE_SOLVER)(time_limit=deadline.remaining(), seed=SEED)
        solver.parameters.max_deterministic_time = min(each, total - spent)
        solver.parameters.linearization_level = 0
        status = load(SOLVE)(solver, case)
        effort = load(EFFORT)(solver)
        spent += effort["deterministic_time"]
        rows = [min(step)[0] + 1 for step in steps[lo:hi]]
        where = f"steps {lo}-{hi - 1} of S (rows {min(rows)}-{max(rows)})"
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            log.add(name, "cpsat", f"{where}: found", effort)
            return _second(puzzle, cover, read(solver), full, name, "cpsat")
        if status == cp_model.INFEASIBLE:
            log.add(name, "cpsat", f"{where}: none", effort)
            continue
        if deadline.expired():
            raise LimitReached
        log.add(name, "cpsat", f"{where}: over budget", effort)
        if hi - lo >= 2 * budget.band_min_steps:
            mid = (lo + hi) // 2
            todo[:0] = [(mid, hi), (lo, mid)] if last_first else [(lo, mid), (mid, hi)]
        else:
            left.append((lo, hi))
    if not left:
        return Finding(1, 1, (cover,), "full cover", name, "cpsat")
    cells = sorted({cell for lo, hi in left for step in steps[lo:hi] for cell in step})
    log.open_question = (
        "is there a lenient solution other than S (the self-avoiding full cover found) "
        f"that keeps S's steps before one of {len(left)} ranges of its steps "
        f"({order}) "
        "and leaves one step of that range? Its cells: "
        + " ".join(f"({r},{c})" for r, c in cells[:40])
        + (f" and {len(cells) - 40} more" if len(cells) > 40 else ""))
    log.open_cells = cells
    return None


# ---------------------------------------------------------------- CP-SAT


def _cpsat_solve(rules: Numberlink, step: str, work: float, deadline: Deadline, log: _Log,
                 *, no_self_touch: bool = False, canonical: bool = False,
                 forbid: Solution | None = None,
                 linearization: int = LINEARIZATION) -> Solution | bool | None:
    """One CP-SAT solve of the circuit model: a solution, False (none), or
    None (the budget ran out).  ``forbid``: a solution excluded, and the hint.
    ``linearization``: of the circuit's LP relaxation; level 2 finds first
    solutions of large boards, level 0 proves there is no other far sooner
    (Janko 17x17 #103: 0.45 deterministic s against 5.5)."""
    from ortools.sat.python import cp_model

    built = load(CIRCUIT)(rules, no_self_touch=no_self_touch, canonical=canonical)
    if forbid is not None:
        built.forbid(forbid)
        built.hint(forbid)  # a second solution is often close to the first
    solver = load(MAKE_SOLVER)(time_limit=deadline.remaining(), seed=SEED)
    solver.parameters.max_deterministic_time = work
    solver.parameters.linearization_level = linearization
    status = load(SOLVE)(solver, built.model)
    spent = load(EFFORT)(solver)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        log.add(step, "cpsat", "found", spent)
        return built.reader()(solver)
    if status == cp_model.INFEASIBLE:
        log.add(step, "cpsat", "none", spent)
        return False
    if deadline.expired():
        raise LimitReached
    log.add(step, "cpsat", f"over {work:g} deterministic s", spent)
    return None


def _cpsat_two(rules: Numberlink, step: str, work: float, deadline: Deadline,
               log: _Log) -> tuple[Solution, ...] | None:
    """Up to two solutions under ``rules`` by solving and blocking (all
    there are, if fewer), or None when a budget runs out."""
    first = _cpsat_solve(rules, step, work, deadline, log)
    if first is None:
        return None
    if first is False:
        return ()
    second = _cpsat_solve(rules, step, work, deadline, log, forbid=first)
    if second is None:
        return None
    return (first,) if second is False else (first, second)


# ---------------------------------------------------------------- one backend


def _by_backend(puzzle: Numberlink, backend: str | Backend, deadline: Deadline,
                log: _Log) -> Finding:
    """Both counts (capped) by one backend's ``unique`` under each rule."""
    engine = KIND.backend(backend) if isinstance(backend, str) else backend
    name = engine.name
    found = {}
    for rule, rules in (("lenient", puzzle.lenient()), ("full cover", puzzle.covering())):
        result = engine.unique(rules, time_limit=deadline.remaining())
        log.add(rule, name, str(result.status), dict(result.effort))
        if result.status is Status.LIMIT:
            raise LimitReached
        found[rule] = result.solutions
    lenient, full = found["lenient"], found["full cover"]
    if len(full) == CAP or (len(lenient) == 1 and len(full) == 1):
        return Finding(len(lenient), len(full), full, "full cover", "unique", name)
    return Finding(len(lenient), len(full), lenient, "lenient", "unique", name)


# ---------------------------------------------------------------- the report


def _report(puzzle: Numberlink, found: Finding | None, log: _Log, start: float,
            stopped_by: str) -> CheckReport:
    details: dict[str, Any] = {"counts_capped_at": CAP, "steps": log.steps,
                               "step_seconds": log.seconds}
    wall = time.perf_counter() - start
    if found is None:
        details["stopped_by"] = stopped_by
        if log.open_question:
            details["open_question"] = log.open_question
            details["open_cells"] = [list(cell) for cell in log.open_cells]
        return CheckReport(ok=None, verdict=f"UNDECIDED ({stopped_by} stopped it)",
                           status=Status.LIMIT, details=details, wall=wall,
                           effort=log.effort)
    _certified(puzzle, found)
    reasons = []
    if found.lenient == 0:
        reasons.append(REASONS["unsat"])
    if found.lenient == CAP:
        reasons.append(REASONS["lenient"])
    if found.full == CAP:
        reasons.append(REASONS["full"])
    if found.lenient == 1 and not covers(puzzle, found.solutions[0]):
        reasons.append(REASONS["empty"])
    if found.lenient is None:
        reasons.append(REASONS["no-cover"])
    ok = not reasons
    verdict = "WELL-DESIGNED" if ok else "NOT WELL-DESIGNED: " + "; ".join(reasons)
    status = Status.SOLVED if found.lenient is None else (
        Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[found.lenient]
    details.update({"lenient_solutions": found.lenient, "full_cover_solutions": found.full,
                    "certificate_rule": found.rule, "step": found.step})
    if ok and (level := grade(puzzle).name):
        details["grade"] = level  # the deduction a solver needs (search.numberlink.grade)
    rules = puzzle.lenient() if found.rule == "lenient" else puzzle.covering()
    return CheckReport(ok=ok, verdict=verdict, status=status, details=details,
                       solutions=found.solutions, engine=f"{found.engine} ({found.step})",
                       rules=rules, wall=wall, effort=log.effort)


def _certified(puzzle: Numberlink, found: Finding) -> None:
    """Every certificate obeys its rule, and two are distinct: a failure here
    is a bug in an engine, never an answer."""
    rules = puzzle.lenient() if found.rule == "lenient" else puzzle.covering()
    for solution in found.solutions:
        problems = verify(rules, solution)
        if problems:
            raise AssertionError(f"the check's certificate fails verification: {problems}")
    if len({s.edges for s in found.solutions}) != len(found.solutions):
        raise AssertionError("the check's two certificates are one solution")
    if found.step in ("bound", "bound-large") and found.lenient == 1:
        assert not touches_itself(puzzle, found.solutions[0])


