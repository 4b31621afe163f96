"""The ``gridcp`` command line: solve, count, check, convert and generate any
puzzle file; further commands (crosscheck, bench, report) plug in by name.

Results go to stdout (a readable board, or one JSON object per line with
``--json``); messages go to stderr.  Exit codes: 0 answered yes, 1 answered
no, 2 bad usage or bad input, 3 a limit stopped it undecided.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from search.core import (
    CheckReport,
    CountResult,
    GridcpError,
    InputError,
    SolveResult,
    Status,
    UniqueResult,
)
from search.manifest import labelled, listed_rules, with_defaults
from search.registry import (
    PUZZLES,
    PuzzleKind,
    instance_files,
    kind,
    kinds,
    load,
    load_puzzle,
)

YES, NO, USAGE, UNDECIDED = 0, 1, 2, 3
# Commands defined elsewhere: "module:function(subparsers)" adding their parsers.
PLUGINS = ("search.harness:add_commands", "search.bench:add_commands",
           "search.report:add_commands")
EXIT_OF_STATUS = {
    Status.SOLVED: YES, Status.UNIQUE: YES, Status.COUNTED: YES,
    Status.UNSAT: NO, Status.MULTIPLE: NO, Status.INVALID: NO, Status.ERROR: NO,
    Status.LIMIT: UNDECIDED,
}


def worst(codes: list[int]) -> int:
    """One exit code for many answers: bad input, then no, then undecided, then yes."""
    for code in (USAGE, NO, UNDECIDED):
        if code in codes:
            return code
    return YES


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
    effort: dict[str, float] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)  # count, verdict, solution, ...
    text: str = ""  # the board or transcript for readable output

    @property
    def exit_code(self) -> int:
        ok = self.fields.get("ok", "unset")
        if ok != "unset":
            return {True: YES, False: NO, None: UNDECIDED}[ok]
        return EXIT_OF_STATUS[self.status]

    def as_json(self) -> dict[str, Any]:
        fields = {k: v for k, v in self.fields.items() if k != "ok"}
        return {"file": self.file, "puzzle": self.puzzle, "task": self.task,
                "backend": self.backend, "status": str(self.status), **fields,
                "wall": round(self.wall, 6), "effort": self.effort}

    def as_text(self) -> str:
        figures = ", ".join([self.backend, f"{self.wall:.3f} s"]
                            + [f"{k} {v:g}" for k, v in self.effort.items()])
        head = f"{self.file}: {self.status}"
        if "count" in self.fields:
            head += f" {'at least ' if self.status is Status.LIMIT else ''}{self.fields['count']}"
        if "verdict" in self.fields and self.fields["verdict"] != str(self.status):
            head += f" {self.fields['verdict']}"
        if self.backend != "-":
            head += f" ({figures})"
        for key, value in self.fields.get("details", {}).items():
            head += f"\n  {key}: {'not counted (a limit)' if value is None else value}"
        for line in self.fields.get("reasons", []):
            head += f"\n  {line}"
        if self.fields.get("message"):
            head += f"\n  {self.fields['message']}"
        return head + ("\n" + self.text.rstrip("\n") if self.text else "")


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
    engine = kind_.backend(backend, **_backend_options(args))
    result: SolveResult = engine.solve(puzzle, time_limit=args.time_limit)
    answer = Answer(file, kind_.name, "solve", backend, result.status, result.wall,
                    dict(result.effort), {"message": result.message} if result.message else {})
    answer.text = result.transcript
    if result.solution is not None:
        _verified(kind_, puzzle, result.solution, answer)
    return answer


def run_count(kind_: PuzzleKind, puzzle: Any, file: str, backend: str, args: Any) -> Answer:
    engine = kind_.backend(backend, **_backend_options(args))
    result: CountResult = engine.count(puzzle, limit=args.limit, time_limit=args.time_limit)
    fields: dict[str, Any] = {"count": result.count, "complete": result.complete}
    if result.message:
        fields["message"] = result.message
    return Answer(file, kind_.name, "count", backend, result.status, result.wall,
                  dict(result.effort), fields)


def run_check(kind_: PuzzleKind, puzzle: Any, file: str, backend: str | None,
              args: Any) -> Answer:
    if kind_.check is not None:
        report: CheckReport = kind_.call("check", puzzle, backend=backend,
                                         time_limit=args.time_limit)
        answer = Answer(file, kind_.name, "check", backend or "default", report.status,
                        report.wall, dict(report.effort),
                        {"verdict": report.verdict, "ok": report.ok,
                         "details": dict(report.details)})
        if report.solution is not None:
            _verified(kind_, puzzle, report.solution, answer)
        return answer
    name = backend or kind_.default_backend("unique")
    result: UniqueResult = kind_.backend(name, **_backend_options(args)).unique(
        puzzle, time_limit=args.time_limit)
    answer = Answer(file, kind_.name, "check", name, result.status, result.wall,
                    dict(result.effort), {"verdict": str(result.status)})
    for solution in result.solutions:
        problems = kind_.call("verify", puzzle, solution)
        if problems:
            return _verified(kind_, puzzle, solution, answer)
    if result.status is Status.UNIQUE:
        _verified(kind_, puzzle, result.solutions[0], answer)
    return answer


TASKS: dict[str, Callable[..., Answer]] = {"solve": run_solve, "count": run_count,
                                           "check": run_check}


def _backend_options(args: Any) -> dict[str, Any]:
    options = {}
    for name in ("method", "seed"):
        if getattr(args, name, None) is not None:
            options[name] = getattr(args, name)
    return options


def apply_rule_options(kind_: PuzzleKind, puzzle: Any, args: Any, source: str) -> Any:
    """Set the rule variants given on the command line; refuse ones the puzzle lacks."""
    own = {option.dest for option in kind_.options}
    chosen = {}
    for option in _all_options():
        value = getattr(args, option.dest, None)
        if value in (None, False) or value == option.kwargs.get("default"):
            continue
        if option.dest not in own:
            raise InputError(f"{option.flags[0]} does not apply to {kind_.name}", source)
        chosen[option.dest] = value
    if not kind_.options:
        return puzzle
    given = {option.dest: getattr(args, option.dest, None) for option in kind_.options}
    given = {k: v for k, v in given.items() if v is not None}
    return kind_.call("apply_options", puzzle, {**given, **chosen})


def rule_variants(kind_: PuzzleKind, puzzle: Any, path: str, args: Any
                  ) -> list[tuple[str, Any]]:
    """(name, puzzle) under the rules of the flags, or with ``--manifest-rules``
    under each rule set the manifest lists for the file: ``ring.llk [border]``."""
    listed = listed_rules(Path(path), kind_) if args.manifest_rules else []
    if not (listed and kind_.options):
        return [(path, apply_rule_options(kind_, puzzle, args, path))]
    return [(labelled(path, rules), kind_.call("apply_options", puzzle,
                                               with_defaults(kind_, rules)))
            for rules in listed]


def run_files(args: Any) -> int:
    codes = []
    for path in map(str, instance_files(args.files)):
        try:
            kind_, parsed = load_puzzle(path, args.puzzle)
            variants = rule_variants(kind_, parsed, path, args)
            answers = []
            for file, puzzle in variants:
                reasons = kind_.call("validate", puzzle) if kind_.validate else []
                if reasons:
                    answers.append(_invalid(kind_, puzzle, file, reasons, args))
                    continue
                answers += [TASKS[args.command](kind_, puzzle, file, backend, args)
                            for backend in _backends_for(kind_, args)]
        except InputError as error:
            print(f"gridcp: {error}", file=sys.stderr)
            codes.append(USAGE)
            continue
        for answer in answers:
            print(json.dumps(answer.as_json()) if args.json else answer.as_text(), flush=True)
            codes.append(answer.exit_code)
    return worst(codes)


def _invalid(kind_: PuzzleKind, puzzle: Any, file: str, reasons: list[str], args: Any) -> Answer:
    """INVALID before any search; a seed-faithful method still prints its transcript."""
    fields: dict[str, Any] = {"reasons": reasons}
    if args.command == "count":
        fields["count"] = 0
    answer = Answer(file, kind_.name, args.command, "-", Status.INVALID, fields=fields)
    if args.command == "solve" and getattr(args, "method", None):
        answer.text = run_solve(kind_, puzzle, file, _backends_for(kind_, args)[0], args).text
    return answer


def _backends_for(kind_: PuzzleKind, args: Any) -> list[str | None]:
    method = getattr(args, "method", None)
    if args.backend == "all":
        task = kind_.check_task if args.command == "check" else args.command
        return [name for name in kind_.backends
                if task in (backend := load(kind_.backends[name])).tasks
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
    if args.command == "check":
        return [None]
    return [kind_.default_backend(args.command)]


# ---------------------------------------------------------------- convert, generate


def run_convert(args: Any) -> int:
    codes = []
    for file in map(str, instance_files(args.files)):
        try:
            kind_, puzzle = load_puzzle(file, args.puzzle)
        except InputError as error:
            print(f"gridcp: {error}", file=sys.stderr)
            codes.append(USAGE)
            continue
        text = kind_.call("format_puzzle", puzzle)
        if args.out:
            target = Path(args.out) / (Path(file).stem + ".txt")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            print(f"{file} -> {target}", file=sys.stderr)
        else:
            print(text, end="" if text.endswith("\n") else "\n")
        codes.append(YES)
    return worst(codes)


def run_generate(args: Any) -> int:
    return kind(args.puzzle_kind).call("generate", args)


# ---------------------------------------------------------------- the parser


def _all_options():
    seen = {}
    for kind_ in kinds():
        for option in kind_.options:
            seen.setdefault(option.dest, option)
    return list(seen.values())


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; a puzzle's own generate options load only when ``argv`` names it."""
    parser = argparse.ArgumentParser(
        prog="gridcp",
        description="Solve, count, check and generate Futoshiki, Numberlink and Lianliankan.",
        epilog="Exit codes: 0 yes, 1 no, 2 bad usage or input, 3 a limit stopped it undecided.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    helps = {"solve": "find one solution of each file",
             "count": "count all solutions of each file",
             "check": "is each puzzle well-designed (exactly one solution)?"}
    for name, text in helps.items():
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("files", nargs="+", metavar="FILE|DIR")
        add_common_arguments(sub)
        sub.add_argument("--backend", help="backend name, or 'all' (default: the fastest)")
        if name == "solve":
            sub.add_argument("--method", help="a variant of the backend's algorithm "
                             "(futoshiki search: seed; lianliankan search: greedy)")
        if name == "count":
            sub.add_argument("--limit", type=positive(int), metavar="N",
                             help="stop after N solutions (LIMIT)")
        sub.set_defaults(run=run_files)
    sub = commands.add_parser("convert", help="write puzzles in their puzzle's native format")
    sub.add_argument("files", nargs="+", metavar="FILE")
    sub.add_argument("--puzzle", choices=PUZZLES, help="the puzzle kind (default: detected)")
    sub.add_argument("-o", "--out", metavar="DIR", help="write FILE.txt files here")
    sub.set_defaults(run=run_convert)
    words = sys.argv[1:] if argv is None else argv
    generating = words[1] if len(words) > 1 and words[0] == "generate" else None
    sub = commands.add_parser("generate", help="generate puzzles")
    kinds_parsers = sub.add_subparsers(dest="puzzle_kind", required=True, metavar="PUZZLE")
    for kind_ in kinds():
        if kind_.generate is None:
            continue
        gen = kinds_parsers.add_parser(kind_.name, help=f"generate {kind_.name} puzzles")
        gen.add_argument("--size", help="board size: N or WxH")
        gen.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
        gen.add_argument("--count", type=int, default=1, help="how many puzzles (default 1)")
        gen.add_argument("--method", help="generator variant")
        gen.add_argument("-o", "--out", metavar="DIR", help="write one file per puzzle here")
        gen.add_argument("--json", action="store_true", help="one JSON object per line")
        if kind_.add_generate_arguments and generating == kind_.name:
            kind_.call("add_generate_arguments", gen)
        gen.set_defaults(run=run_generate)
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


def positive(kind: type) -> Callable[[str], Any]:
    """An argparse type: a number above zero, or a usage error (exit 2)."""
    def convert(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above 0, found {text}")
        return value

    convert.__name__ = kind.__name__  # argparse names the type in its messages
    return convert


def add_comparison_command(commands: argparse._SubParsersAction, name: str, text: str,
                           epilog: str, nargs: str, run: Callable[[Any], int],
                           time_limit: float) -> argparse.ArgumentParser:
    """A command that runs several backends on files (crosscheck, bench)."""
    sub = commands.add_parser(name, help=text, description=text, epilog=epilog)
    sub.add_argument("files", nargs=nargs, metavar="FILE|DIR")
    add_common_arguments(sub)
    sub.set_defaults(time_limit=time_limit, run=run)
    sub.add_argument("--backends", help="comma-separated backend names (default: all); "
                     "NAME=package.module:Class adds an unregistered engine")
    return sub


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by every command that runs backends on files."""
    parser.add_argument("--puzzle", choices=PUZZLES, help="the puzzle kind (default: detected)")
    parser.add_argument("--time-limit", type=positive(float), metavar="S",
                        help="seconds per task")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--manifest-rules", action="store_true",
                        help="run each file under every rule set its manifest.tsv lists "
                             "(files not listed: the rule flags given)")
    for option in _all_options():
        parser.add_argument(*option.flags, dest=option.dest, help=option.help,
                            **option.kwargs)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except GridcpError as error:
        print(f"gridcp: {error}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        print("gridcp: interrupted", file=sys.stderr)
        return UNDECIDED
    except BrokenPipeError:
        return YES
    except Exception as error:  # a bug, not bad input: say so without a traceback
        if os.environ.get("GRIDCP_DEBUG"):
            raise
        print(f"gridcp: internal error: {type(error).__name__}: {error} "
              "(set GRIDCP_DEBUG=1 for the traceback)", file=sys.stderr)
        return NO
