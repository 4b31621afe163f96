"""``gridcp crosscheck``: every backend of a puzzle on every task it offers,
every returned solution verified, and the answers held against each other.

Each answer bounds the number of solutions (solve SOLVED: at least one;
count COUNTED n: exactly n; unique MULTIPLE: at least two; a limit: at least
what was found), so backends agree when all the bounds meet.  Check verdicts
(which may be about another rule set, as Numberlink's well-designed check)
must agree among themselves, and their evidence must verify under the rules
it obeys (``CheckReport.rules``).  Where the puzzle has exactly one solution,
every returned solution must also have the same canonical key; a certificate
under other rules is compared only with certificates under those same rules,
never across rules.  With ``--random`` the instances are generated and, when
tiny, a brute-force oracle (``search.lab.oracles``) answers too.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from search.app.arguments import (
    USAGE,
    add_comparison_command,
    add_memory_argument,
    apply_rule_options,
    positive,
    rule_variants,
    say,
    worst,
)
from search.core.contract import (
    GridcpError,
    InputError,
    Status,
    Unsupported,
    effort_of,
    engines_run,
)
from search.core.limits import Overtime, check_cells, watchdog
from search.core.registry import PuzzleKind, instance_files, kind, kinds, load, load_puzzle
from search.lab.oracles import ORACLES

if TYPE_CHECKING:
    import argparse

TASKS = ("solve", "count", "unique", "check")
DEFAULT_TIME_LIMIT = 10.0
INFINITY = math.inf

# ---------------------------------------------------------------- instances


def load_instances(paths: Iterable[str | Path], puzzle: str | None,
                   bad: Callable[[InputError], None] | None = None, strict: bool = False
                   ) -> Iterator[tuple[Path, PuzzleKind, Any]]:
    """(path, kind, puzzle) of every instance that parses.  A file named on the
    command line that does not parse goes to ``bad`` (when given); the others
    found in folders are named on stderr and skipped, or with ``strict`` go to
    ``bad`` too, as does a folder without any puzzle file."""
    paths = list(paths)
    given = {Path(p) for p in paths if not Path(p).is_dir()}
    if strict and bad is not None:
        for empty in (p for p in paths if not instance_files([p])):
            bad(InputError("no puzzle files in this folder", str(empty)))
    for path in instance_files(paths):
        try:
            kind_, parsed = load_puzzle(path, puzzle)
        except InputError as error:
            if bad is not None and (strict or path in given):
                bad(error)
            else:
                print(f"gridcp: skipping {error}", file=sys.stderr)
            continue
        yield path, kind_, parsed


# ---------------------------------------------------------------- rule variants


# ---------------------------------------------------------------- one task


@dataclass(frozen=True)
class Outcome:
    """What one backend answered on one task, with its solutions verified."""

    backend: str
    task: str
    status: Status
    count: int | None = None  # count: exact (COUNTED) or a lower bound (LIMIT)
    keys: tuple[Any, ...] = ()  # canonical keys of the returned solutions
    violations: tuple[str, ...] = ()  # of the first solution that fails verify
    wall: float = 0.0
    effort: dict[str, float] = field(default_factory=dict)
    message: str = ""
    verdict: str = ""  # check: the verdict word
    ok: bool | None = None  # check: yes, no, or undecided
    # check: the rule set its certificate obeys when not the puzzle's own (Numberlink's
    # check may answer with the one lenient solution); its keys are compared only
    # with answers under the same rules
    rules: Any = None

    def bounds(self) -> tuple[int, float]:
        """The least and the most number of solutions this answer allows."""
        s = self.status
        if self.task == "check":
            return 0, INFINITY  # a verdict, compared with the other verdicts
        if s is Status.INVALID or s is Status.UNSAT:
            return 0, 0
        if self.task == "count":
            n = self.count or 0
            return (n, n) if s is Status.COUNTED else (n, INFINITY)
        if s is Status.SOLVED:
            return 1, INFINITY
        if s is Status.UNIQUE:
            return 1, 1
        if s is Status.MULTIPLE:
            return 2, INFINITY
        return len(set(self.keys)), INFINITY  # LIMIT: what was found so far

    @property
    def failed(self) -> bool:
        return self.status is Status.ERROR or bool(self.violations)

    def describe(self) -> str:
        if self.task == "count" and self.count is not None:
            what = f"{self.count}" if self.status is Status.COUNTED else f">= {self.count} (limit)"
        elif self.task == "check":
            what = self.verdict
        else:
            what = str(self.status)
        return f"{self.backend} {self.task} {what}"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"backend": self.backend, "task": self.task,
                               "status": str(self.status), "wall": round(self.wall, 6),
                               "effort": self.effort}
        if self.count is not None:
            out["count"] = self.count
        if self.task == "check":
            out["verdict"], out["ok"] = self.verdict, self.ok
        if self.violations:
            out["violations"] = list(self.violations)
        if self.message:
            out["message"] = self.message
        return out


def run_task(kind_: PuzzleKind, puzzle: Any, backend: str, task: str,
             time_limit: float | None, options: dict[str, Any] | None = None,
             graph_check: bool = False) -> Outcome:
    """Run one task; verify every solution (with ``graph_check`` also by the
    oracle's networkx verifier); a backend's exception becomes ERROR."""
    if task not in TASKS:
        raise GridcpError(f"unknown task {task!r} (known: {', '.join(TASKS)})")
    start = time.perf_counter()
    engine = kind_.backend(backend, **(options or {}))
    count, solutions, rules, verdict, ok = None, (), puzzle, "", None
    try:
        if task == "check":
            report = engine.check(puzzle, time_limit=time_limit)
            result, solutions, verdict, ok = report, report.solutions, report.verdict, report.ok
            rules = report.rules or puzzle
        elif task == "solve":
            result = engine.solve(puzzle, time_limit=time_limit)
            solutions = () if result.solution is None else (result.solution,)
        elif task == "count":
            result = engine.count(puzzle, time_limit=time_limit)
            count = result.count
        else:
            result = engine.unique(puzzle, time_limit=time_limit)
            solutions = tuple(result.solutions)
    except Unsupported:
        raise
    except Exception as error:  # a backend's bug is an answer to report, not a crash
        return Outcome(backend, task, Status.ERROR, wall=time.perf_counter() - start,
                       effort=dict(engine.effort),
                       message=f"raised {type(error).__name__}: {error}")
    violations: list[str] = []
    for solution in solutions:
        violations = kind_.call("verify", rules, solution) or (
            graph_problems(kind_.name, rules, solution) if graph_check else [])
        if violations:
            break
    keys = () if violations else tuple(kind_.call("key", rules, s) for s in solutions)
    return Outcome(backend, task, result.status, count, keys, tuple(violations), result.wall,
                   dict(result.effort), "" if task == "check" else result.message, verdict, ok,
                   None if rules == puzzle else rules)


def graph_problems(puzzle_name: str, rules: Any, solution: Any) -> list[str]:
    """The oracle's second verifier, sharing no code with ``verify``, where it has
    one and networkx is installed (else nothing to say)."""
    oracle = ORACLES.get(puzzle_name)
    if oracle is None or oracle.graph_problems is None or find_spec("networkx") is None:
        return []
    return [f"graph check: {p}" for p in oracle.graph_problems(rules, solution)]


def watched_task(kind_: PuzzleKind, puzzle: Any, backend: str, task: str,
                 time_limit: float | None) -> Outcome:
    """``run_task`` under the watchdog of the time limit (crosscheck, in this
    process; bench kills its runs' processes itself): LIMIT when it overruns."""
    start = time.perf_counter()
    engines: list[Any] = []
    try:
        with engines_run() as engines, watchdog(time_limit):
            return run_task(kind_, puzzle, backend, task, time_limit, graph_check=True)
    except Overtime:  # the counts the engines hold so far stay in the answer
        return Outcome(backend, task, Status.LIMIT, wall=time.perf_counter() - start,
                       effort=effort_of(engines),
                       message=f"stopped at the time limit ({time_limit:g} s)")


def with_backends(kind_: PuzzleKind, chosen: list[str] | None) -> tuple[PuzzleKind, list[str]]:
    """The kind and the backend names a ``--backends`` list picks (default: all).

    An entry ``NAME=package.module:Class`` adds an engine not registered yet, to
    try it against the registered ones; names the puzzle lacks are left out.
    """
    if not chosen:
        return kind_, list(kind_.backends)
    extra = dict(entry.split("=", 1) for entry in chosen if "=" in entry)
    names = [entry.split("=", 1)[0] for entry in chosen]
    for name, dotted in extra.items():
        try:
            load(dotted)
        except (ImportError, AttributeError, ValueError) as error:
            raise GridcpError(f"--backends {name}={dotted}: cannot load it ({error})") from None
    if extra:
        kind_ = replace(kind_, backends={**kind_.backends, **extra})
    return kind_, [name for name in names if name in kind_.backends]


def tasks_of(kind_: PuzzleKind, backend: str) -> list[str]:
    offered = load(kind_.backends[backend]).calls
    return [task for task in TASKS if task in offered]


# ---------------------------------------------------------------- comparing


@dataclass(frozen=True)
class Verdict:
    """The cross-check of one instance: agree, disagree or undecided."""

    source: str
    puzzle: str
    word: str
    problems: list[str]
    outcomes: list[Outcome]
    summary: str = ""

    @property
    def exit_code(self) -> int:
        return {"agree": 0, "disagree": 1, "undecided": 3}[self.word]

    def as_text(self) -> str:
        line = f"{self.source}: {self.word}"
        if self.problems:
            line += ": " + "; ".join(self.problems)
        elif self.summary:
            line += f" ({self.summary})"
        return line

    def as_json(self) -> dict[str, Any]:
        return {"file": self.source, "puzzle": self.puzzle, "verdict": self.word,
                "problems": self.problems, "summary": self.summary,
                "answers": [o.as_json() for o in self.outcomes]}


def compare(source: str, puzzle: str, outcomes: list[Outcome]) -> Verdict:
    problems = []
    for o in outcomes:
        if o.status is Status.ERROR:
            problems.append(f"{o.backend} {o.task} ERROR {o.message}".rstrip())
        elif o.violations:
            problems.append(f"{o.backend} {o.task} returns an invalid solution "
                            f"({o.violations[0]})")
        elif o.status is Status.MULTIPLE and len(set(o.keys)) < 2:
            problems.append(f"{o.backend} {o.task} says MULTIPLE without two distinct "
                            "solutions")
    sound = [o for o in outcomes if not o.failed]
    verdicts = {o.ok for o in sound if o.task == "check" and o.ok is not None}
    if len(verdicts) > 1:
        problems.append("check verdicts differ: " + ", ".join(
            f"{o.backend} {o.verdict}" for o in sound if o.task == "check"))
    lo = max((o.bounds()[0] for o in sound), default=0)
    hi = min((o.bounds()[1] for o in sound), default=INFINITY)
    if lo > hi:
        problems.append(_conflicts(sound))
    elif lo == hi == 1:
        problems += _different([o for o in sound if o.rules is None])
    for rules in _other_rules(sound):  # certificates of one solution under other rules
        problems += _different([o for o in sound if o.rules == rules and len(o.keys) == 1],
                               f" under {_rule_name(puzzle, rules)}")
    limited = [o for o in sound if o.status is Status.LIMIT
               or (o.task == "check" and o.ok is None)]
    if problems:
        return Verdict(source, puzzle, "disagree", problems, outcomes)
    backends = list(dict.fromkeys(o.backend for o in outcomes))
    answer = _answer(lo, hi)
    if limited:
        stopped = ", ".join(f"{o.backend} {o.task}" for o in limited)
        rest = "the rest agree" if len(limited) < len(sound) else "found so far"
        return Verdict(source, puzzle, "undecided", [], outcomes,
                       f"{stopped} hit the limit; {rest}: {answer}")
    wall = sum(o.wall for o in outcomes)
    return Verdict(source, puzzle, "agree", [], outcomes,
                   f"{answer}; {', '.join(backends)}; {len(outcomes)} answers, {wall:.2f} s")


def _different(outcomes: list[Outcome], under: str = "") -> list[str]:
    """A problem when answers that each claim the one solution name different ones."""
    keys = {o.backend + " " + o.task: o.keys[0] for o in outcomes if o.keys}
    if len(set(keys.values())) < 2:
        return []
    groups: dict[Any, list[str]] = {}
    for name, key in keys.items():
        groups.setdefault(key, []).append(name)
    return [f"one solution{under}, but different ones: "
            + " | ".join(", ".join(names) for names in groups.values())]


def _other_rules(outcomes: list[Outcome]) -> list[Any]:
    """The rule sets, other than the puzzle's own, that some certificate obeys."""
    found: list[Any] = []
    for o in outcomes:
        if o.rules is not None and o.rules not in found:
            found.append(o.rules)
    return found


def _rule_name(puzzle: str, rules: Any) -> str:
    """A rule set in words: its flags (``lenient``), or the default rules."""
    kind_ = kind(puzzle)
    flags = sorted(kind_.call("rules_of", rules)) if kind_.rules_of else []
    return f"--{', --'.join(flags)}" if flags else "the default rules"


def _answer(lo: int, hi: float) -> str:
    if lo == hi:
        return f"{lo} solution{'s' * (lo != 1)}"
    return f"at least {lo} solution{'s' * (lo != 1)}"


def _conflicts(outcomes: list[Outcome]) -> str:
    """The odd answers out, each with the answers it contradicts: the answer that
    clashes with the most others first, until no two answers clash."""

    def clash(a: Outcome, b: Outcome) -> bool:
        (alo, ahi), (blo, bhi) = a.bounds(), b.bounds()
        return alo > bhi or blo > ahi

    left, parts = list(outcomes), []
    while True:
        against = {id(a): [b for b in left if clash(a, b)] for a in left}
        worst_one = max(left, key=lambda a: len(against[id(a)]), default=None)
        if worst_one is None or not against[id(worst_one)]:
            break
        others = ", ".join(b.describe() for b in against[id(worst_one)])
        parts.append(f"{worst_one.describe()} vs {others}")
        left.remove(worst_one)
    return "answers differ: " + "; ".join(parts)


def crosscheck(kind_: PuzzleKind, puzzle: Any, source: str, *, time_limit: float | None,
               backends: list[str] | None = None, oracle: bool = False) -> Verdict:
    """Every chosen backend on every task it offers (and the oracle when asked)."""
    kind_, names = with_backends(kind_, backends)
    outcomes = []
    for backend in names:
        for task in tasks_of(kind_, backend):
            try:
                outcomes.append(watched_task(kind_, puzzle, backend, task, time_limit))
            except Unsupported:
                continue
    if oracle:
        outcomes.append(oracle_outcome(kind_.name, puzzle))
    return compare(source, kind_.name, outcomes)


def oracle_outcome(puzzle_name: str, puzzle: Any) -> Outcome:
    """The brute-force count as an answer, with the key when there is one solution."""
    start, keys, n = time.perf_counter(), [], 0
    kind_, solutions = kind(puzzle_name), ORACLES[puzzle_name].solutions
    assert solutions is not None
    for solution in solutions(puzzle):
        n += 1
        if n == 1:
            keys.append(kind_.call("key", puzzle, solution))
    return Outcome("oracle", "count", Status.COUNTED, count=n, keys=tuple(keys if n == 1 else ()),
                   wall=time.perf_counter() - start)


# ---------------------------------------------------------------- the command


def add_commands(commands: argparse._SubParsersAction) -> None:

    sub = add_comparison_command(
        commands, "crosscheck",
        "run every backend on every task, verify every solution, compare the answers",
        "Exit codes: 0 all agree, 1 a disagreement or an invalid solution, "
        "2 bad usage or input, 3 a limit left some undecided (none disagree).",
        "*", run_crosscheck, DEFAULT_TIME_LIMIT)
    sub.add_argument("--random", type=positive(int), metavar="N",
                     help="cross-check N generated instances instead of files (needs --puzzle)")
    sub.add_argument("--size", default=None,
                     help="with --random: N or WxH, or several comma-separated, used in turn "
                          "(default: the puzzle's small size)")
    sub.add_argument("--seed", type=int, default=1, help="with --random: the seed (default 1)")
    add_memory_argument(sub)


def parse_sizes(text: str | None, default: tuple[int, int]) -> list[tuple[int, int]]:
    """``"4"`` -> [(4, 4)], ``"5x3,4"`` -> [(5, 3), (4, 4)] as (width, height)."""
    if not text:
        return [default]
    sizes = []
    for part in text.split(","):
        width, _, height = part.strip().lower().partition("x")
        try:
            size = (int(width), int(height or width))
        except ValueError:
            raise GridcpError(f"--size wants N or WxH, found {part!r}") from None
        if min(size) < 1:
            raise GridcpError(f"--size must be positive, found {part!r}")
        check_cells(size[1], size[0], "--size")
        sizes.append(size)
    return sizes


def random_instances(puzzle: str, n: int, sizes: str | None, seed: int
                     ) -> Iterator[tuple[str, Any]]:
    """(name, puzzle) of n instances; instance i depends on (seed, i) alone."""
    if puzzle not in ORACLES:
        raise GridcpError(f"--random has no generator for {puzzle} "
                          f"(available: {', '.join(ORACLES)})")
    oracle = ORACLES[puzzle]
    chosen = parse_sizes(sizes, oracle.default_size)
    for i in range(n):
        size = chosen[i % len(chosen)]
        rng = random.Random(f"{seed}:{i}")
        yield (f"random {puzzle} {size[0]}x{size[1]} seed {seed} #{i}",
               oracle.random_instance(size, rng))


def run_crosscheck(args: argparse.Namespace) -> int:

    backends = _known_backends(args.backends)
    codes = []
    if args.random is not None:
        if args.puzzle is None:
            raise GridcpError("--random needs --puzzle")
        if args.files:
            raise GridcpError("give FILE|DIR arguments or --random, not both")
        kind_ = kind(args.puzzle)
        # A rule flag sets the rules of every instance; without one, the generator's mix stays.
        flagged = any(getattr(args, o.dest, None) not in (None, False, o.kwargs.get("default"))
                      for o in kind_.options)
        for name, puzzle in random_instances(args.puzzle, args.random, args.size, args.seed):
            if flagged:
                puzzle = apply_rule_options(kind_, puzzle, args, name)
            oracle = ORACLES[args.puzzle]
            verdict = crosscheck(kind_, puzzle, name, time_limit=args.time_limit,
                                 backends=backends,
                                 oracle=oracle.solutions is not None and oracle.tiny(puzzle))
            codes.append(_show(verdict, kind_, puzzle, args.json))
        return worst(codes)
    if not args.files:
        raise GridcpError("give FILE|DIR arguments, or --random N with --puzzle")

    def bad(error: InputError) -> None:
        print(f"gridcp: {error}", file=sys.stderr)
        codes.append(USAGE)

    for path, kind_, puzzle in load_instances(args.files, args.puzzle, bad, strict=True):
        try:
            variants = rule_variants(kind_, puzzle, str(path), args)
            if backends and not with_backends(kind_, backends)[1]:
                raise InputError(f"{kind_.name} has none of the backends {args.backends} "
                                 f"(known: {', '.join(kind_.backends)})", str(path))
        except InputError as error:
            bad(error)
            continue
        for variant in variants:
            verdict = crosscheck(kind_, variant.puzzle, variant.name, time_limit=args.time_limit,
                                 backends=backends)
            codes.append(_show(verdict, kind_, None, args.json))
    return worst(codes) if codes else USAGE


def _known_backends(text: str | None) -> list[str] | None:
    """The ``--backends`` list, each name known to some puzzle (or NAME=module:Class)."""
    if not text:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    known = {name for kind_ in kinds() for name in kind_.backends}
    unknown = [name for name in names if "=" not in name and name not in known]
    if unknown or not names:
        raise GridcpError(f"--backends: unknown backend {', '.join(unknown) or repr(text)} "
                          f"(known: {', '.join(sorted(known))})")
    return names


def _show(verdict: Verdict, kind_: PuzzleKind, puzzle: Any, as_json: bool) -> int:
    """Print one verdict; a generated instance that fails is printed too, to keep."""
    if as_json:
        line = verdict.as_json()
        if puzzle is not None and verdict.word != "agree":
            line["instance"] = kind_.call("format_puzzle", puzzle)
        say(json.dumps(line), sys.stdout)
    else:
        shown = verdict.as_text()
        if puzzle is not None and verdict.word == "disagree":
            text = kind_.call("format_puzzle", puzzle)
            shown += "\n  " + text.rstrip("\n").replace("\n", "\n  ")
        say(shown, sys.stdout)
    return verdict.exit_code
