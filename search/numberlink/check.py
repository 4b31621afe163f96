"""Is a Numberlink puzzle well-designed?

Well-designed: exactly one solution under the lenient rule, and that solution
covers every open cell.  The report gives the solution counts behind the
verdict under both rule sets, capped at 2.

The shortcut lemma makes the check fast.  A path that touches itself (two
grid-neighbours on it that are not consecutive) can be shortcut into another
lenient solution with fewer cells.  Hence (1) a puzzle has a lenient solution
iff it has one that never touches itself, and (2) when such a solution S
covers every cell, any other lenient solution shortcuts to a self-avoiding
one different from S (it cannot shrink back onto S, which uses every cell).
So a puzzle is well-designed iff it has exactly one lenient solution that
never touches itself and that solution covers every cell.

When no backend is named, a second look goes beside the default engine where
that engine struggles, on boards of 14 x 14 cells and more:

- The default engine's side first finds the self-avoiding full covers with
  the ``search`` backend (within 1.3 s on every Janko board, most within
  0.1 s): two decide.  From the one, a ``detour`` looks for another full
  cover that re-routes it inside a small window, then, on boards of 17 x 17
  cells and more, for another lenient solution.
- The second look first counts full covers up to 2 with CP-SAT's portfolio
  for at most 3 s (1.5 s on the largest boards when racing): two full
  covers are two lenient solutions.  That decides boards with many
  solutions (``jumbo_14x14_19``: 1,670 full covers), where the frontier's
  lenient states outgrow memory.
- Then each side takes the whole question; CP-SAT's portfolio counts the
  canonical lenient solutions (``cpmodels.numberlink``: the same lemma with
  more steps that shorten) up to 2 by solving and blocking, from the full
  cover it found, and proves some large boards well-designed (Janko 17 x 17
  #111 and #103).

On the large boards the two sides race in processes of their own
(``search.race``), the default engine on one CPU and the portfolio on the
others, and the first answer wins.  On the largest boards the frontier stops
at RACE_STATES and its CPU then looks for a second full cover until the
limit, while the portfolio's CPUs take the proof.  Smaller boards, or a
platform without ``fork``, run the default engine and then the second look
in the time left.
"""

from __future__ import annotations

import time
from dataclasses import fields
from typing import Any

from search import race
from search.core import (
    Backend,
    CheckReport,
    Deadline,
    LimitReached,
    Status,
    UniqueResult,
    add_effort,
    load,
)
from search.numberlink.detour import detour
from search.numberlink.model import Numberlink, Solution
from search.numberlink.verify import covers, touches_itself

CAP = 2  # counts are capped: 2 means "two or more"
FALLBACK = "cpsat"  # for boards where the default engine struggles
NEAR = "search"  # finds the self-avoiding full covers of the largest boards at once
DEFAULT_SHARE = 0.75  # of the time limit, for the default engine before the fallback
PROBE_CELLS = 196  # boards this large get a short look for two full covers by CP-SAT...
PROBE_SECONDS = 3.0  # ... for at most this long
QUICK_SECONDS = 1.0  # ... and by NEAR (self-avoiding ones) this long; detours start from one
DETOUR_CELLS = 289  # boards this large also get lenient detours, and racing, the split:
WIDE_PROBE_SECONDS = 1.5  # CP-SAT's look for two full covers lasts this long...
RACE_STATES = 1_500_000  # ... the frontier stops at this many states in a level, and its
SPLIT_WORKERS = 3  # core goes on with that look until the limit, by a smaller portfolio
DETOUR_SECONDS = 3.0  # at most, for each look for a second solution near the first
COVER_STATES = 600_000  # at most, in a level of one window's full covers (#175: 467 k)
SETTLED_SECONDS = 1.0  # under a time limit, for the full-cover count once the verdict is settled
RACE_WORKERS = 8  # CP-SAT's portfolio for the second look, whose threads
RACE_NICENESS = 10  # together weigh about one process at nice 0 when racing
PROOF_WORKERS_PER_CORE = 4  # for the whole question (on one core: #103 in 3.8 s, 5.9 s by 8)

REASONS = {
    "unsat": "no solution",
    "lenient": "several lenient solutions",
    "full": "several full-cover solutions",
    "empty": "the only solution leaves cells empty",
}


# (lenient count, full-cover count, the solution if unique), effort, engine
_Answer = tuple[tuple[int, int | None, Solution | None], dict[str, float], str]
TWO_COVERS = (CAP, CAP, None)  # two full covers are two lenient solutions too


class _Undecided(Exception):
    """A limit stopped one of the counts."""


def check(puzzle: Numberlink, *, backend: str | None = None,
          time_limit: float | None = None) -> CheckReport:
    """The verdict, the capped counts under both rule sets, and the solution if unique."""
    from search.numberlink import KIND  # the registry loads backends on demand

    start, deadline = time.perf_counter(), Deadline(time_limit)
    name = backend or KIND.default_backend("check")
    fallback = backend is None and name != FALLBACK
    effort: dict[str, float] = {}

    large = len(puzzle.open_cells) >= PROBE_CELLS
    wide = len(puzzle.open_cells) >= DETOUR_CELLS
    racing = fallback and large and race.can_race()
    core = race.this_core() if racing else None  # the default engine's; CP-SAT takes the others
    # racing on the largest boards, the frontier stops at RACE_STATES and its
    # core goes on looking for a second full cover; CP-SAT's side cuts that
    # look short there, for its proof
    split = racing and wide

    def default_engine() -> _Answer:
        race.take_one_core(core)
        spent: dict[str, float] = {}
        share = DEFAULT_SHARE if fallback and not racing else 1.0
        rest = deadline.remaining()
        mine = Deadline(None if rest is None else rest * share)
        cover = None
        if fallback and large:  # two self-avoiding full covers, or a detour of the one
            found = _full_covers(KIND.backend(NEAR, no_self_touch=True), puzzle,
                                 QUICK_SECONDS, mine, spent)
            settled = _settled(found, puzzle, KIND.backend(name), mine, spent, lenient=wide)
            if settled is not None:
                return settled, spent, name
            cover = found.solutions[0] if found.solutions else None
        try:
            return _decide(KIND, puzzle, name, mine, spent, cover=cover,
                           **({"max_states": RACE_STATES} if split else {})), spent, name
        except _Undecided:
            if not (split and cover):
                raise
        portfolio = KIND.backend(FALLBACK, block=True, workers=SPLIT_WORKERS, known=cover)
        if len(_full_covers(portfolio, puzzle, None, mine, spent).solutions) < CAP:
            raise _Undecided
        return TWO_COVERS, spent, FALLBACK

    def second_look() -> _Answer:
        # By a portfolio of threads, solving and blocking; when racing, at a
        # priority that gives all its threads about one core's share, and on
        # the cores the default engine leaves.
        race.step_aside(RACE_NICENESS, leave=core)
        spent: dict[str, float] = {}
        cover = None
        if large:  # two full covers
            portfolio = KIND.backend(FALLBACK, block=True, workers=RACE_WORKERS)
            seconds = WIDE_PROBE_SECONDS if split else PROBE_SECONDS
            found = _full_covers(portfolio, puzzle, seconds, deadline, spent)
            if len(found.solutions) >= CAP:
                return TWO_COVERS, spent, FALLBACK
            cover = found.solutions[0] if found.solutions else None
        # the whole question, under the shortcut lemma, from the full cover
        # found (if any) instead of looking for a first solution again
        workers = min(RACE_WORKERS, PROOF_WORKERS_PER_CORE * race.cores_here())
        answer = _decide(KIND, puzzle, FALLBACK, deadline, spent, cover=cover, block=True,
                         workers=workers)
        return answer, spent, FALLBACK

    calls = [default_engine, second_look] if fallback else [default_engine]
    try:
        (n_lenient, n_full, solution), spent, winner = race.first_answer(
            calls, gives_up=_Undecided, at_once=racing, time_limit=deadline.remaining())
        add_effort(effort, spent)
        if winner != name:
            name = f"{name} + {FALLBACK}"
    except _Undecided:
        return CheckReport(ok=None, verdict="UNDECIDED (a limit stopped the count)",
                           status=Status.LIMIT, details={"limit_s": time_limit},
                           engine=name, wall=time.perf_counter() - start, effort=effort)

    reasons = []
    if n_lenient == 0:
        reasons.append(REASONS["unsat"])
    if n_lenient >= CAP:
        reasons.append(REASONS["lenient"])
    if n_full is not None and n_full >= CAP:
        reasons.append(REASONS["full"])
    if n_lenient == 1 and not covers(puzzle, solution):
        reasons.append(REASONS["empty"])
    ok = not reasons
    verdict = "WELL-DESIGNED" if ok else "NOT WELL-DESIGNED: " + "; ".join(reasons)
    status = (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[n_lenient]
    details = {"lenient_solutions": n_lenient, "full_cover_solutions": n_full,
               "counts_capped_at": CAP, "backend": name}
    return CheckReport(ok=ok, verdict=verdict, status=status, details=details,
                       solutions=() if solution is None else (solution,), engine=name,
                       rules=puzzle.lenient(), wall=time.perf_counter() - start,
                       effort=effort)


def _full_covers(engine: Backend, puzzle: Numberlink, seconds: float | None,
                 deadline: Deadline, effort: dict[str, float]) -> UniqueResult:
    """Up to two full covers by ``engine``, for at most ``seconds`` (None: to
    the deadline)."""
    found = engine.unique(puzzle.covering(), time_limit=deadline.remaining(seconds))
    add_effort(effort, found.effort)
    return found


def _settled(found: UniqueResult, puzzle: Numberlink, counter: Backend, deadline: Deadline,
             effort: dict[str, float], *, lenient: bool) -> tuple[int, int | None, None] | None:
    """Not well-designed, when ``found`` holds two full covers or the first
    has a detour (a full cover, then if ``lenient`` a lenient one); None
    otherwise.  The full-cover count behind a lenient detour is
    ``counter``'s, settled."""
    if len(found.solutions) >= CAP:
        return TWO_COVERS
    if not found.solutions:
        return None
    cover = found.solutions[0]
    full = puzzle.covering()
    if detour(full, cover, Deadline(deadline.remaining(DETOUR_SECONDS)),
              window_states=COVER_STATES):
        return TWO_COVERS
    if not (lenient and detour(puzzle.lenient(), cover,
                               Deadline(deadline.remaining(DETOUR_SECONDS)))):
        return None
    return CAP, _count(counter, full, deadline, effort, settled=True), None


def _count(by: Backend, rules: Numberlink, deadline: Deadline, effort: dict[str, float], *,
           settled: bool = False) -> int | None:
    """The count capped at CAP; _Undecided when a limit stops it.  ``settled``:
    the verdict stands whatever this count, which then gets at most
    SETTLED_SECONDS under a time limit, and a limit leaves it None."""
    seconds = deadline.remaining()
    if settled and seconds is not None:
        seconds = min(seconds, SETTLED_SECONDS)
    result = by.count(rules, limit=CAP, time_limit=seconds)
    add_effort(effort, result.effort)
    if result.status is Status.LIMIT and result.count < CAP:
        if settled:
            return None
        raise _Undecided
    return min(result.count, CAP)


def _decide(kind_, puzzle: Numberlink, name: str, deadline: Deadline,
            effort: dict[str, float], *, cover: Solution | None = None,
            **options: Any) -> tuple[int, int | None, Solution | None]:
    """(lenient count, full-cover count, the solution if unique) by backend
    ``name`` with ``options``; _Undecided when a limit stops it before the
    verdict is settled.  Two lenient solutions settle it: a limit then leaves
    the full-cover count None (not counted).  ``cover``: a full cover found
    already, which backends that solve and block forbid first (``known``)
    and which is not looked for again."""
    if cover is not None:
        options = {**options, "known": cover}

    def count(rules: Numberlink, by: Backend | None = None, *,
              settled: bool = False) -> int | None:
        return _count(by or _engine(kind_, name, **options), rules, deadline, effort,
                      settled=settled)

    lenient, full = puzzle.lenient(), puzzle.covering()
    # Backends that know them restrict the question to canonical solutions too
    # (cpmodels.numberlink): the same lemma, with more steps that shorten.
    engine = _engine(kind_, name, no_self_touch=True, canonical=True, **options)
    n_lenient = None
    if getattr(engine, "no_self_touch", False):  # else the backend cannot restrict
        # Counted, not listed: the frontier's back-pointers for two solutions
        # outgrow memory where its count does not (Janko 14x14 #268).
        self_avoiding = count(lenient, engine)
        if self_avoiding == 0:
            return 0, 0, None
        if self_avoiding == CAP:
            n_lenient = CAP
        else:  # one: a self-avoiding full cover would be it
            if cover is None:
                found = engine.solve(full, time_limit=deadline.remaining())
                add_effort(effort, found.effort)
                if found.status is Status.LIMIT:
                    raise _Undecided
                cover = found.solution
            if cover is not None:
                if not touches_itself(puzzle, cover):
                    return 1, 1, cover
                n_lenient = CAP  # it and its shortcut (the restriction may let one through)
    if n_lenient is None:
        n_lenient = count(lenient)
    if n_lenient != 1:
        return n_lenient, count(full, settled=True) if n_lenient else 0, None
    # The one solution: any full-cover solution would be it.
    try:
        solution = next(iter(_engine(kind_, name, **options).solutions(
            lenient, time_limit=deadline.remaining())))
    except LimitReached:
        raise _Undecided from None
    return 1, int(covers(puzzle, solution)), solution


def _engine(kind_, name: str, **wanted: Any) -> Backend:
    """Backend ``name`` with those of ``wanted`` options it declares."""
    known = {f.name for f in fields(load(kind_.backends[name]).Options)}
    return kind_.backend(name, **{k: v for k, v in wanted.items() if k in known})
