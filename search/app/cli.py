"""The ``gridcp`` command line: solve, count, check, convert and generate any
puzzle file; further commands (crosscheck, bench, report) plug in by name.

Results go to stdout (a readable board, or one JSON object per line with
``--json``); messages go to stderr.  Exit codes: 0 answered yes, 1 answered
no, 2 bad usage or bad input, 3 a limit (time or memory) stopped it undecided,
4 an internal error: a bug in gridcp, never the input's fault (one line on
stderr; ``--debug`` shows the traceback), 130 interrupted (Ctrl-C), 143
stopped by SIGTERM.  The limits that hold on every input
are in ``search/core/limits.py`` and docs/reliability.md.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from search.app.arguments import (
    BUG,
    EXIT_CODES,
    INTERRUPTED,
    NO,
    UNDECIDED,
    USAGE,
    YES,
    Interrupted,
    add_common_arguments,
    add_debug_argument,
    add_limit_arguments,
    add_memory_argument,
    add_option_argument,
    add_whole_limits,
    at_least,
    interruptible,
    json_line,
    positive,
    received_signal,
    rule_variants,
    typed_options,
    version,
    worst,
)
from search.app.manifest import expected
from search.app.progress import Progress
from search.core import compiled
from search.core.contract import (
    CheckReport,
    CountResult,
    GridcpError,
    InputError,
    SolveResult,
    Status,
    effort_of,
    engines_run,
)
from search.core.limits import (
    DEFAULT_MEMORY_MB,
    Overtime,
    limit_memory,
    max_cells_set,
    memory_limit_given,
    watchdog,
)
from search.core.outputs import distinct_targets, out_dir, terminal_safe, write_file
from search.core.registry import (
    PUZZLES,
    PuzzleKind,
    instance_files,
    kind,
    kinds,
    load,
    load_puzzle,
)

# Commands defined elsewhere, by name: "module:function(subparsers)" adding their parsers.
# The lab's commands sit above the command line (they build on its arguments), so it
# reaches them only by name, and loads them only when asked.
PLUGINS = ("search.lab.crosscheck:add_commands", "search.lab.bench:add_commands",
           "search.lab.report:add_commands", "search.app.catalogue:add_commands")
DRAW = "search.app.draw:run"  # by name: the drawing code loads for this command only
# hint and shuffle, by name: their Lianliankan code loads only when no other command is
# named (a Futoshiki solve's start-up does not pay for it)
PLAY = "search.app.play:add_commands"
PLAY_COMMANDS = ("hint", "shuffle")  # what PLAY adds: a command line naming one builds no other
EXIT_OF_STATUS = {
    Status.SOLVED: YES, Status.UNIQUE: YES, Status.COUNTED: YES,
    Status.UNSAT: NO, Status.MULTIPLE: NO, Status.INVALID: NO, Status.ERROR: NO,
    Status.LIMIT: UNDECIDED,
}
MIN_TASK_SECONDS = 0.05  # what a task still gets when reading took its whole limit
ALL_BACKENDS_TIME_LIMIT = 60.0  # seconds per task with --backend all and no --time-limit


# ---------------------------------------------------------------- one answer


@dataclass
class Answer:
    """What one task on one file gave, ready to print as text or JSON."""

    file: str
    puzzle: str
    task: str
    backend: str
    status: Status
    wall: float = 0.0
    effort: dict[str, Any] = field(default_factory=dict)  # numbers, and words ("plan": "rows")
    fields: dict[str, Any] = field(default_factory=dict)  # count, verdict, solution, ...
    text: str = ""  # the board or transcript for readable output
    expected: str | None = None  # what the manifest expects (``--manifest``)

    @property
    def short(self) -> str:
        """The answer in the words of the manifest: SOLVED / UNSAT, the count, yes / no."""
        if self.task == "check":
            return {True: "yes", False: "no"}.get(self.fields.get("ok"), str(self.status))
        no_solution = self.status in (Status.UNSAT, Status.INVALID)
        if self.task == "count":
            return "0" if no_solution else (
                str(self.fields["count"]) if self.status is Status.COUNTED else str(self.status))
        return "UNSAT" if no_solution else str(self.status)

    @property
    def matches(self) -> bool | None:
        """Whether the answer is the manifest's (None: the manifest says nothing)."""
        return None if self.expected is None else self.short == self.expected

    @property
    def exit_code(self) -> int:
        if self.expected is not None:
            return YES if self.matches else UNDECIDED if self.status is Status.LIMIT else NO
        ok = self.fields.get("ok", "unset")
        if ok != "unset":
            return {True: YES, False: NO, None: UNDECIDED}[ok]
        return EXIT_OF_STATUS[self.status]

    def as_json(self) -> dict[str, Any]:
        fields = {k: v for k, v in self.fields.items() if k != "ok"}
        if self.expected is not None:
            fields.update(expected=self.expected, matches=self.matches)
        return {"file": self.file, "puzzle": self.puzzle, "task": self.task,
                "backend": self.backend, "status": str(self.status), **fields,
                "wall": round(self.wall, 6), "effort": self.effort}

    def as_line(self) -> str:
        """One line: the file, the answer, what the manifest expects, the time."""
        line = f"{self.file}: {self.short}"
        if self.task == "check" and "verdict" in self.fields:
            line += f" ({self.fields['verdict']})"
        if self.fields.get("hint"):
            line += f" ({self.fields['hint']})"
        if self.expected is not None:
            line += " as expected" if self.matches else f" but the manifest expects {self.expected}"
        return f"{line} [{self.backend}, {self.wall:.2f} s]"

    def as_text(self) -> str:
        engine = self.fields.get("engine")
        by = self.backend if engine in (None, self.backend) else f"{self.backend}: {engine}"
        figures = ", ".join([by, f"{self.wall:.3f} s"]
                            + [f"{k} {figure(v)}" for k, v in self.effort.items()])
        # One word for the answer: a check's verdict says all (SOLVABLE, WELL-DESIGNED,
        # NO SOLUTION); its status word would only repeat it (SOLVED SOLVABLE).
        shown = self.fields.get("verdict") if self.task == "check" else None
        head = f"{self.file}: {shown or self.status}"
        if "count" in self.fields and self.status is not Status.INVALID:  # its reasons follow
            head += f" {'at least ' if self.status is Status.LIMIT else ''}{self.fields['count']}"
        if self.task != "check" and self.fields.get("verdict") not in (None, str(self.status)):
            head += f" {self.fields['verdict']}"
        if self.backend != "-":
            head += f" ({figures})"
        for key, value in self.fields.get("details", {}).items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                head += f"\n  {key}:" + "".join(
                    "\n    " + ", ".join(f"{k} {v}" for k, v in row.items()) for row in value)
                continue
            head += f"\n  {key}: {'not counted (a limit)' if value is None else value}"
        for line in self.fields.get("reasons", []):
            head += f"\n  {line}"
        if self.fields.get("message"):
            head += f"\n  {self.fields['message']}"
        if self.fields.get("hint"):
            head += f"\n  {self.fields['hint']}"
        return head + ("\n" + self.text.rstrip("\n") if self.text else "")


def figure(value: Any) -> str:
    """An effort figure as people read it: whole numbers whole (never ``1.2e+04``),
    fractions to six places at most, words as they are."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if isinstance(value, float) and not value.is_integer():
        shown = f"{value:.6f}".rstrip("0").rstrip(".")
        return shown if shown not in ("0", "-0") else f"{value:.2g}"
    return str(int(value))


def _verified(kind_: PuzzleKind, puzzle: Any, solution: Any, answer: Answer) -> Answer:
    """Attach a solution after the puzzle's verifier has passed it; ERROR if it fails."""
    problems = kind_.call("verify", puzzle, solution)
    if problems:
        answer.status = Status.ERROR
        answer.fields["ok"] = False
        answer.fields["violations"] = problems
        answer.fields["reasons"] = ["the backend's solution fails verification:", *problems]
        return answer
    answer.fields["solution"] = kind_.call("solution_json", puzzle, solution)
    answer.text = answer.text or kind_.call("format_solution", puzzle, solution)
    return answer


# ---------------------------------------------------------------- tasks


def run_solve(kind_: PuzzleKind, puzzle: Any, file: str, backend: str, args: Any) -> Answer:
    engine = kind_.backend(backend, **_backend_options(kind_, backend, args))
    result: SolveResult = engine.solve(puzzle, time_limit=args.time_limit)
    answer = Answer(file, kind_.name, "solve", backend, result.status, result.wall,
                    dict(result.effort), {"message": result.message} if result.message else {})
    answer.text = result.transcript
    if result.engine:
        answer.fields["engine"] = result.engine
    if result.solution is not None:
        _verified(kind_, puzzle, result.solution, answer)
    if result.status is Status.UNSAT and (hint := _relaxed_hint(kind_, puzzle)):
        answer.fields["hint"] = hint
    return answer


# puzzle -> (the rule flag that relaxes its default rules, the engine and its work
# budget that try it): Numberlink's contest boards often leave cells empty.
RELAXED = {"numberlink": ("lenient", "sat", {"work": 2.0})}  # CP-SAT deterministic s


def _relaxed_hint(kind_: PuzzleKind, puzzle: Any) -> str | None:
    """"solvable with --lenient" for a puzzle with no solution under its rules
    that a work-budgeted solve under the relaxed rule does solve (verified);
    None when it does not, or not within the budget (never a matter of time)."""
    if kind_.name not in RELAXED or not kind_.rules_of:
        return None
    flag, engine, budget = RELAXED[kind_.name]
    if flag in kind_.call("rules_of", puzzle) or engine not in kind_.backends:
        return None
    relaxed = kind_.call("apply_options", puzzle, {flag: True})
    result = kind_.backend(engine, **budget).solve(relaxed)
    if result.solution is None or kind_.call("verify", relaxed, result.solution):
        return None
    return f"solvable with --{flag}"


def run_count(kind_: PuzzleKind, puzzle: Any, file: str, backend: str, args: Any) -> Answer:
    engine = kind_.backend(backend, **_backend_options(kind_, backend, args))
    result: CountResult = engine.count(puzzle, limit=args.limit, time_limit=args.time_limit)
    fields: dict[str, Any] = {"count": result.count, "complete": result.complete}
    if result.message:
        fields["message"] = result.message
    answer = Answer(file, kind_.name, "count", backend, result.status, result.wall,
                    dict(result.effort), fields)
    answer = with_evidence(kind_, puzzle, result.solutions, answer)
    if "solutions" in answer.fields:  # a count's two grids are evidence, not the answer
        answer.text = "  evidence: two distinct solutions, each verified (--json gives them)"
    return answer


def run_check(kind_: PuzzleKind, puzzle: Any, file: str, backend: str | None,
              args: Any) -> Answer:
    """The verdict of the named backend, or of the puzzle's own check (several
    engines) when none is named; its evidence verified before it is shown."""
    report: CheckReport = kind_.verdict(puzzle, backend, args.time_limit,
                                        **_backend_options(kind_, backend, args, puzzle))
    name = backend or ("default" if kind_.check is not None else report.engine)
    fields: dict[str, Any] = {"verdict": report.verdict, "ok": report.ok,
                              "details": dict(report.details)}
    if "grade" in report.details:
        fields["grade"] = report.details["grade"]
    if report.engine:
        fields["engine"] = report.engine
    answer = Answer(file, kind_.name, "check", name, report.status, report.wall,
                    dict(report.effort), fields)
    if report.ok is None and report.details.get("open_question"):  # what stays undecided
        answer.text = f"  open question: {report.details['open_question']}"
    return with_evidence(kind_, report.rules or puzzle, report.solutions, answer)


def _error(answer: Answer, reason: str) -> Answer:
    """An answer whose evidence does not hold: ERROR, with the reason."""
    answer.status = Status.ERROR
    answer.fields["ok"] = False
    answer.fields["reasons"] = [reason]
    return answer


def with_evidence(kind_: PuzzleKind, puzzle: Any, solutions: tuple[Any, ...],
                  answer: Answer) -> Answer:
    """Attach the solutions behind an answer once the verifier has passed each
    (ERROR if one fails, or if two are the same): one as ``solution``, two as
    ``solutions`` with the cells where they part."""
    if answer.status is Status.MULTIPLE and len(solutions) < 2:
        return _error(answer, "the backend says MULTIPLE without two solutions to show")
    if len(solutions) < 2:
        return _verified(kind_, puzzle, solutions[0], answer) if solutions else answer
    for solution in solutions:
        problems = kind_.call("verify", puzzle, solution)
        if problems:
            return _verified(kind_, puzzle, solution, answer)
    first, second = solutions[:2]
    if kind_.call("key", puzzle, first) == kind_.call("key", puzzle, second):
        return _error(answer, "the backend's two solutions are the same")
    answer.fields["solutions"] = [kind_.call("solution_json", puzzle, s) for s in (first, second)]
    texts = [kind_.call("format_solution", puzzle, s).rstrip("\n") for s in (first, second)]
    parts = [f"solution A:\n{texts[0]}", f"solution B:\n{texts[1]}"]
    if kind_.differences is not None:
        cells = kind_.call("differences", puzzle, first, second)
        answer.fields["differences"] = [list(cell) for cell in cells]
        shown = " ".join(f"({r},{c})" for r, c in cells[:24])
        more = f" and {len(cells) - 24} more" if len(cells) > 24 else ""
        parts.append(f"they differ at {len(cells)} cells (row,col): {shown}{more}")
    answer.text = "\n".join(parts)
    return answer


TASKS: dict[str, Callable[..., Answer]] = {"solve": run_solve, "count": run_count,
                                           "check": run_check}


def _backend_options(kind_: PuzzleKind, backend: str | None, args: Any,
                     puzzle: Any = None) -> dict[str, Any]:
    """The options of the backend that will run: ``--method``, ``--seed`` and each
    ``--option NAME=VALUE``, typed and checked by its options dataclass."""
    options = {}
    for name in ("method", "seed"):
        if getattr(args, name, None) is not None:
            options[name] = getattr(args, name)
    given = getattr(args, "option", None) or []
    if not given:
        return options
    if backend is None:  # check without --backend: the puzzle's own, or its default
        if kind_.check is not None:
            raise GridcpError("--option sets one backend's options: name it with --backend "
                              f"(the {kind_.name} check without one runs several engines)")
        rules = kind_.call("rules_of", puzzle) if kind_.rules_of and puzzle is not None else ()
        backend = kind_.default_backend("check", rules)
    cls = load(kind_.backends[backend])
    return {**options, **typed_options(cls.Options, given, backend)}


def run_files(args: Any) -> int:
    if args.backend == "all" and args.time_limit is None:
        args.time_limit = ALL_BACKENDS_TIME_LIMIT
    skipped: list[Path] = []
    files = list(map(str, instance_files(args.files, skipped)))
    if not files:
        raise GridcpError(f"no puzzle files in {', '.join(args.files)}"
                          + (f" ({_plural(len(skipped), 'other file')})" if skipped else ""))
    codes, tally = [], Tally(skipped=len(skipped), manifest=bool(getattr(args, "manifest", False)))
    with Progress(len(files), args.command) as progress:
        for path in files:
            progress.step(path)
            try:
                answers = _answers(path, args)
            except InputError as error:
                progress.say(f"gridcp: {error}")
                codes.append(USAGE)
                tally.bad += 1
                continue
            for answer in answers:
                shown = (json_line(answer.as_json()) if args.json
                         else answer.as_line() if args.brief else answer.as_text())
                progress.say(shown, out=sys.stdout)
                codes.append(answer.exit_code)
                tally.add(answer)
    if len(files) > 1 or args.manifest or skipped:
        print(tally.summary(), file=sys.stderr if args.json else sys.stdout, flush=True)
    return worst(codes)


def _answers(path: str, args: Any) -> list[Answer]:
    """Every answer of the command on one file, under each of its rule sets.

    Reading the file and choosing its backends count in its first task's limit
    (the first file's, from the start of the command), so that one file and one
    backend end within --time-limit plus the grace."""
    started: float | None = getattr(args, "started", None) or time.perf_counter()
    args.started = None
    try:
        with watchdog(args.time_limit):
            kind_, parsed = read_puzzle(path, args.puzzle)
            variants = rule_variants(kind_, parsed, path, args)
    except Overtime:
        return [_overtime(path, args)]
    answers = []
    for variant in variants:
        reasons = kind_.call("validate", variant.puzzle) if kind_.validate else []
        if reasons:
            found = [_invalid(kind_, variant.puzzle, variant.name, reasons, args)]
        else:
            found = []
            try:
                backends = _backends_for(kind_, args, variant.puzzle)
            except InputError:
                raise
            except GridcpError as error:  # this file's puzzle has no backend for the task:
                raise InputError(str(error), path) from None  # the next files go on
            for backend in backends:
                found.append(bounded(TASKS[args.command], kind_, variant.puzzle, variant.name,
                                     backend, args, started))
                started = None
        if args.manifest:
            for answer in found:
                answer.expected = expected(Path(path), kind_, variant.rules, args.command)
        answers += found
    return answers


def read_puzzle(path: str, puzzle: str | None) -> tuple[PuzzleKind, Any]:
    """``load_puzzle`` with what only a huge input causes turned into InputError."""
    try:
        return load_puzzle(path, puzzle)
    except (MemoryError, RecursionError) as error:
        what = "out of memory" if isinstance(error, MemoryError) else "too deeply nested"
        raise InputError(f"too large to read ({what})", path) from None


def bounded(task: Callable[..., Answer], kind_: PuzzleKind, puzzle: Any, file: str,
            backend: str | None, args: Any, started: float | None = None) -> Answer:
    """One task under the watchdog of ``--time-limit`` (counted from ``started``,
    else from now); running out of time or memory is a LIMIT answer that says
    which, deep recursion an input too large."""
    given = limit = args.time_limit
    start = time.perf_counter()
    if limit is not None and started is not None:
        limit = max(MIN_TASK_SECONDS, limit - (start - started))
        args = argparse.Namespace(**{**vars(args), "time_limit": limit})
    engines: list[Any] = []
    try:
        with engines_run() as engines, watchdog(limit):
            return task(kind_, puzzle, file, backend, args)
    except (Overtime, MemoryError) as error:
        cap = getattr(args, "memory_limit", None)
        cap = DEFAULT_MEMORY_MB if cap is None else cap
        reason = (f"stopped at the time limit ({given:g} s)"
                  if isinstance(error, Overtime)
                  else f"out of memory (--memory-limit {cap:g} MB)")
        fields: dict[str, Any] = {"message": reason,
                                  "limit": "time" if isinstance(error, Overtime) else "memory"}
        if args.command == "count":
            fields.update(count=0, complete=False)
        if args.command == "check":
            fields.update(verdict="LIMIT", ok=None)
        return Answer(file, kind_.name, args.command, backend or "default", Status.LIMIT,
                      time.perf_counter() - start, effort_of(engines), fields=fields)
    except RecursionError:
        raise InputError("too large for this backend (Python's recursion limit)",
                         file) from None


def _overtime(path: str, args: Any) -> Answer:
    """LIMIT for a file whose reading alone outlived the time limit."""
    reason = f"stopped at the time limit ({args.time_limit:g} s) while reading the file"
    return Answer(path, args.puzzle or "-", args.command, "-", Status.LIMIT,
                  args.time_limit, fields={"message": reason, "limit": "time"})


WELL_DESIGNED = "well-designed"
CHECKS_FOR = {"lianliankan": "clearable"}  # what check asks, where not "well-designed?"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


@dataclass
class Tally:
    """What a run over many files answered, for its summary line."""

    statuses: Counter = field(default_factory=Counter)
    matched: int = 0
    differ: int = 0
    unlisted: int = 0
    bad: int = 0
    skipped: int = 0  # files in the folders given that are not puzzle files
    manifest: bool = False  # --manifest: say so when no answer is listed
    start: float = field(default_factory=time.perf_counter)
    verdicts: Counter = field(default_factory=Counter)  # check: (its question, yes / no)
    slowest: tuple[float, str] = (0.0, "")

    def add(self, answer: Answer) -> None:
        self.statuses[str(answer.status)] += 1
        if answer.task == "check":
            self.verdicts[CHECKS_FOR.get(answer.puzzle, WELL_DESIGNED),
                          answer.fields.get("ok")] += 1
        self.slowest = max(self.slowest, (answer.wall or 0.0, answer.file))
        if answer.matches is None:
            self.unlisted += 1
        elif answer.matches:
            self.matched += 1
        else:
            self.differ += 1

    def summary(self) -> str:
        answers = sum(self.statuses.values())
        words = ", ".join(f"{n} {status.lower()}" for status, n in self.statuses.most_common())
        line = f"gridcp: {_plural(answers, 'answer')} ({words or 'none'})"
        questions = dict.fromkeys(question for question, _ in self.verdicts)
        for n, question in enumerate(questions):  # what a designer reads first
            line += (f"{';' if n else ':'} {self.verdicts[question, True]} {question}, "
                     f"{self.verdicts[question, False]} not, "
                     f"{self.verdicts[question, None]} undecided")
        if self.bad:
            # a flag the puzzle lacks is refused as well as a file that does not read
            line += f", {_plural(self.bad, 'file')} refused (bad input)"
        if self.skipped:
            line += f", {_plural(self.skipped, 'file')} skipped (not puzzle files)"
        if self.matched or self.differ:
            line += ("; every answer matches the manifest" if not self.differ
                     else f"; {self.differ} differ from the manifest")
            if self.unlisted:
                line += f" ({self.unlisted} not listed)"
        elif self.manifest and self.unlisted:
            line += "; no answer is listed in a manifest"
        line += f"; {time.perf_counter() - self.start:.1f} s"
        if answers > 1 and self.slowest[1]:
            line += f" (slowest {self.slowest[0]:.1f} s: {self.slowest[1]})"
        return line


def _invalid(kind_: PuzzleKind, puzzle: Any, file: str, reasons: list[str], args: Any) -> Answer:
    """INVALID before any search; a seed-faithful method still prints its transcript."""
    fields: dict[str, Any] = {"reasons": reasons}
    if args.command == "count":
        fields["count"] = 0
    answer = Answer(file, kind_.name, args.command, "-", Status.INVALID, fields=fields)
    if args.command == "solve" and getattr(args, "method", None):
        answer.text = run_solve(kind_, puzzle, file, _backends_for(kind_, args, puzzle)[0],
                                args).text
    return answer


def _backends_for(kind_: PuzzleKind, args: Any, puzzle: Any = None) -> list[str | None]:
    method = getattr(args, "method", None)
    if args.backend == "all":
        return [name for name in kind_.backends
                if args.command in (backend := load(kind_.backends[name])).calls
                and (method is None or method in backend.methods)]
    if args.backend is not None:
        if args.backend not in kind_.backends:
            raise InputError(f"{kind_.name} has no backend {args.backend!r} "
                             f"(known: {', '.join(kind_.backends)}, all)", args.files[0])
        methods = load(kind_.backends[args.backend]).methods
        if method is not None and method not in methods:
            raise InputError(f"{kind_.name} backend {args.backend!r} has no method {method!r} "
                             f"(its methods: {', '.join(methods) or 'none'})", args.files[0])
        return [args.backend]
    if method is not None:  # a method belongs to one backend: take the one that has it
        for name, dotted in kind_.backends.items():
            if method in load(dotted).methods:
                return [name]
        raise InputError(f"no {kind_.name} backend has a method {method!r}", args.files[0])
    if args.command == "check" and kind_.check is not None:
        return [None]  # the puzzle's own check, which takes several engines
    rules = kind_.call("rules_of", puzzle) if kind_.rules_of and puzzle is not None else ()
    return [kind_.default_backend(args.command, rules)]


# ---------------------------------------------------------------- convert, generate


def run_convert(args: Any) -> int:
    codes: list[int] = []
    files = list(map(str, instance_files(args.files)))
    if not files:
        raise GridcpError(f"no puzzle files in {', '.join(args.files)}")
    if args.out:  # before anything is made or written
        distinct_targets(files, lambda file: Path(args.out) / (Path(file).stem
                                                                + _suffix(args.to)))
    out = out_dir(args.out, "-o") if args.out else None
    for file in files:
        try:
            kind_, puzzle = read_puzzle(file, args.puzzle)
            text, suffix = _converted(kind_, puzzle, args.to, file)
        except InputError as error:
            print(f"gridcp: {error}", file=sys.stderr)
            codes.append(USAGE)
            continue
        if out:
            target = write_file(out / (Path(file).stem + suffix), text, force=args.force)
            print(f"{file} -> {target}", file=sys.stderr)
        else:
            print(text, end="" if text.endswith("\n") else "\n")
        codes.append(YES)
    return worst(codes)


def _suffix(fmt: str | None) -> str:
    """The suffix ``convert`` gives a file in format ``fmt`` (of whichever puzzle
    has a writer by that name), before any file is read."""
    found = {kind_.writers[fmt][1] for kind_ in kinds() if fmt in kind_.writers}
    return found.pop() if fmt is not None and len(found) == 1 else ".txt" if fmt is None \
        else ""


def _converted(kind_: PuzzleKind, puzzle: Any, fmt: str | None, file: str) -> tuple[str, str]:
    """The puzzle in format ``fmt`` (None: the kind's own) and the suffix of its file."""
    if fmt is None:
        return kind_.call("format_puzzle", puzzle), ".txt"
    if fmt not in kind_.writers:
        known = ", ".join(kind_.writers) or "none"
        raise InputError(f"{kind_.name} has no writer for {fmt!r} (known: {known})", file)
    writer, suffix = kind_.writers[fmt]
    try:
        return load(writer)(puzzle), suffix
    except GridcpError as error:  # a puzzle the format cannot express
        raise InputError(str(error), file) from None


def run_generate(args: Any) -> int:
    try:
        with watchdog(args.time_limit):
            return kind(args.puzzle_kind).call("generate", args)
    except Overtime:
        print(f"gridcp: generate stopped at the time limit ({args.time_limit:g} s)",
              file=sys.stderr)
        return UNDECIDED


def run_draw(args: Any) -> int:
    return load(DRAW)(args)


# ---------------------------------------------------------------- the parser


class VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked (reading package
    metadata costs a fifth of a small solve's start-up)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> NoReturn:
        print(f"gridcp {version()}")
        print(compiled.describe())  # which kernels run compiled, which interpreted
        parser.exit(YES)


class Parser(argparse.ArgumentParser):
    """argparse with a usage error on one line (exit 2), as every other bad input."""

    def error(self, message: str) -> NoReturn:
        shown = str(GridcpError(message))  # one printable line, a long value cut short
        self.exit(USAGE, f"{self.prog}: {shown} (see {self.prog} --help)\n")


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser.  When ``argv`` names a command, only that command's parser is
    built (each costs argparse work at every start); a puzzle's own generate
    options load only when ``argv`` names it, and the plugin commands only when
    ``argv`` names none of the commands here (they import modules that solve,
    count, check, convert and generate never use)."""
    parser = Parser(
        prog="gridcp",
        description="Solve, count, check and generate Futoshiki, Numberlink and Lianliankan.",
        epilog=EXIT_CODES)
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="show gridcp's version and exit")
    add_debug_argument(parser, argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    words = sys.argv[1:] if argv is None else argv
    named = words[0] if words else None
    if named in COMMANDS:
        COMMANDS[named](commands, named, words)
        return parser
    if named not in PLAY_COMMANDS:
        for name, add in COMMANDS.items():
            add(commands, name, words)
    load(PLAY)(commands)  # hint, shuffle: light, so before the plugins
    if named in commands.choices:
        return parser
    for plugin in PLUGINS:
        module = plugin.partition(":")[0]
        try:
            add_commands = load(plugin)
        except ModuleNotFoundError as error:
            if error.name == module:
                continue
            raise
        add_commands(commands)
    return parser


FILES_COMMANDS = {
    "solve": "find one solution of each file",
    "count": "count all solutions of each file",
    "check": "each puzzle's verdict: Futoshiki, well-designed (exactly one solution)?  "
             "Numberlink, well-designed (exactly one, every cell covered)?  Lianliankan, "
             "can the board be cleared?"}


def add_files_command(commands: argparse._SubParsersAction, name: str, words: list[str]
                      ) -> None:
    """solve, count or check."""
    text = FILES_COMMANDS[name]
    sub = commands.add_parser(name, help=text, description=text)
    sub.add_argument("files", nargs="+", metavar="FILE|DIR")
    add_common_arguments(sub, f"none; {ALL_BACKENDS_TIME_LIMIT:g} with --backend all")
    sub.add_argument("--backend", help="backend name, or 'all' (default: the fastest; "
                     f"'all' without --time-limit: {ALL_BACKENDS_TIME_LIMIT:g} s a backend)")
    add_memory_argument(sub)
    add_option_argument(sub)
    sub.add_argument("--manifest", action="store_true",
                     help="run each file under every rule set its manifest.tsv lists and "
                          "hold each answer to the one it expects: exit 0 when all match")
    sub.add_argument("--brief", action="store_true",
                     help="one line per answer instead of the board")
    if name == "solve":
        sub.add_argument("--method", help="a variant of the backend's algorithm "
                         "(futoshiki search: seed; lianliankan search: greedy; "
                         "default: the backend's own)")
    if name == "count":
        sub.add_argument("--limit", type=positive(int), metavar="N",
                         help="stop after N solutions (LIMIT; default: count them all)")
    sub.set_defaults(run=run_files)


def add_convert_command(commands: argparse._SubParsersAction, name: str, words: list[str]
                        ) -> None:
    sub = commands.add_parser(name, help="write puzzles in their puzzle's native format")
    sub.add_argument("files", nargs="+", metavar="FILE")
    sub.add_argument("--puzzle", choices=PUZZLES, help="the puzzle kind (default: detected)")
    sub.add_argument("--to", metavar="FORMAT",
                     help="the format to write: " + "; ".join(
                         f"{k.name}: {', '.join(k.writers)}" for k in kinds() if k.writers)
                     + " (default: the puzzle's own)")
    sub.add_argument("-o", "--out", metavar="DIR",
                     help="write one file per puzzle here (FILE.txt, or the format's suffix)")
    sub.add_argument("--force", action="store_true", help="overwrite files that exist")
    add_limit_arguments(sub)
    add_whole_limits(sub)
    sub.set_defaults(run=run_convert)


def add_draw_command(commands: argparse._SubParsersAction, name: str, words: list[str]
                     ) -> None:
    text = "draw each puzzle, its solution or its verdict (SVG, PNG or HTML)"
    sub = commands.add_parser(name, help=text, description=text, epilog=(
        "-o FILE.svg|.png|.html for one puzzle, -o DIR for several (default: here) "
        "or -o PAGE.html for all on one page, "
        "-o - for standard output.  Exit codes: as solve / check with --solve / --check, "
        "else 0 once drawn; 2 bad usage or input."))
    sub.add_argument("files", nargs="+", metavar="FILE|DIR")
    add_common_arguments(sub)
    shown = sub.add_mutually_exclusive_group()
    shown.add_argument("--solve", action="store_true", help="draw a solution")
    shown.add_argument("--check", action="store_true", help="draw the verdict; an ambiguous "
                       "puzzle's two solutions side by side, the cells where they differ marked")
    shown.add_argument("--solution", metavar="FILE", help="draw this solution file")
    sub.add_argument("--bad", action="store_true", help="with --check or --solve: draw only "
                     "the puzzles answered no (with -o PAGE.html: all on one page)")
    sub.add_argument("--backend", help="backend for --solve / --check (default: the fastest)")
    sub.add_argument("-o", "--out", metavar="OUT",
                     help="the picture file, or a folder (default: here)")
    sub.add_argument("--format", choices=("svg", "png", "html"),
                     help="picture format when -o is a folder (default: svg)")
    sub.add_argument("--force", action="store_true", help="overwrite pictures that exist")
    add_memory_argument(sub)
    sub.set_defaults(run=run_draw)


def add_generate_command(commands: argparse._SubParsersAction, name: str, words: list[str]
                         ) -> None:
    """generate PUZZLE; the puzzle's own options only when ``words`` name it."""
    generating = words[1] if len(words) > 1 and words[0] == name else None
    sub = commands.add_parser(name, help="generate puzzles")
    kinds_parsers = sub.add_subparsers(dest="puzzle_kind", required=True, metavar="PUZZLE")
    for kind_ in kinds():
        if kind_.generate is None:
            continue
        gen = kinds_parsers.add_parser(kind_.name, help=f"generate {kind_.name} puzzles")
        gen.add_argument("--size", help="board size: N or WxH")
        gen.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
        gen.add_argument("--count", type=at_least(0), default=1,
                         help="how many puzzles (default 1)")
        gen.add_argument("--time-limit", type=positive(float), metavar="S",
                         help="stop generating after S seconds (exit 3)")
        add_limit_arguments(gen)
        gen.add_argument("--method", help="generator variant")
        gen.add_argument("-o", "--out", metavar="DIR", help="write one file per puzzle here")
        gen.add_argument("--force", action="store_true", help="overwrite files that exist")
        add_memory_argument(gen)
        gen.add_argument("--json", action="store_true", help="one JSON object per line")
        if kind_.add_generate_arguments and generating == kind_.name:
            kind_.call("add_generate_arguments", gen)
        gen.set_defaults(run=run_generate)


# The commands defined here, in the order --help lists them: name -> (subparsers, name,
# the command line's words) adding that command's parser.
COMMANDS: dict[str, Callable[[argparse._SubParsersAction, str, list[str]], None]] = {
    "solve": add_files_command, "count": add_files_command, "check": add_files_command,
    "convert": add_convert_command, "draw": add_draw_command, "generate": add_generate_command,
}


def _leave(code: int) -> NoReturn:
    """Exit at once, skipping the interpreter's teardown: a CP-SAT search stopped
    by a signal can leave native threads whose destructors abort the process
    (``terminate called without an active exception``) at a normal exit."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def main_interrupted(error: BaseException, argv: list[str] | None) -> int:
    """Stop on Ctrl-C or SIGTERM: one line, exit 128 + the signal's number."""
    print("gridcp: interrupted", file=sys.stderr, flush=True)
    code = error.exit_code if isinstance(error, Interrupted) else INTERRUPTED
    if argv is None:  # the real command line: leave now, output flushed
        _leave(code)
    return code


def main(argv: list[str] | None = None) -> int:
    """Run one command.  ``argv`` None is the real command line: only then is the
    process's own address space capped (``--memory-limit``), since a caller in
    the same process (a test) would keep the cap, and only then does a command
    of this module or hint / shuffle end the process at once, its output flushed
    (``_leave``): the interpreter's teardown (every module's objects freed, a
    last garbage collection) is about a tenth of a small command's CPU, and these
    commands leave nothing to it (files are written whole and closed, no pool or
    thread outlives the command).  The lab's commands exit the usual way."""
    started = time.perf_counter()
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    args.started = started
    code = run_command(args, argv)
    if argv is None and args.command in (*COMMANDS, *PLAY_COMMANDS):
        _leave(code)
    return code


def run_command(args: argparse.Namespace, argv: list[str] | None) -> int:
    """The parsed command, its errors turned into exit codes."""
    debug = getattr(args, "debug", False) or bool(os.environ.get("GRIDCP_DEBUG"))
    try:
        with interruptible():
            given = getattr(args, "memory_limit", None)
            if argv is None and getattr(args, "cap_memory", False):
                limit_memory(DEFAULT_MEMORY_MB if given is None else given)
            whole = args.time_limit if getattr(args, "whole_time_limit", False) else None
            with max_cells_set(getattr(args, "max_cells", None)), memory_limit_given(given), \
                    terminal_safe(), watchdog(whole):
                return args.run(args)
    except GridcpError as error:
        print(f"gridcp: {error}", file=sys.stderr)
        return USAGE
    except (Interrupted, KeyboardInterrupt) as error:  # Ctrl-C, SIGTERM: stop here
        return main_interrupted(error, argv)
    except BrokenPipeError:
        return YES
    except RecursionError:  # what only a huge input does to a recursive step
        print("gridcp: the input is too large (Python's recursion limit)", file=sys.stderr)
        return USAGE
    except (MemoryError, Overtime) as error:
        what = "out of memory" if isinstance(error, MemoryError) else "out of time"
        print(f"gridcp: LIMIT: {what}", file=sys.stderr)
        return UNDECIDED
    except Exception as error:  # a bug, not bad input: say so without a traceback
        if (signum := received_signal()) is not None:  # the signal's doing, not a bug
            return main_interrupted(Interrupted(signum), argv)
        if debug:  # the traceback, and still the exit code of a bug
            import traceback  # here: only a bug needs it, and it costs every start

            traceback.print_exc()
            return BUG
        print(f"gridcp: internal error (a bug in gridcp, exit {BUG}): "
              f"{type(error).__name__}: {error}; please report it with the command and "
              "its input (--debug shows the traceback)", file=sys.stderr)
        return BUG
