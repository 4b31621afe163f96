"""``gridcp draw FILE... [-o OUT]``: a picture of each puzzle, of its solution
(``--solve``, ``--solution FILE``) or of its verdict (``--check``: for an
ambiguous puzzle, two solutions side by side, the cells where they differ
marked).  ``-o PAGE.html`` over several puzzles puts them all on one page;
``--bad`` keeps only the puzzles answered no (a batch's rejects).  The
format follows the suffix of ``-o`` or ``--format``: SVG (the default), PNG
(matplotlib) or HTML (one page, nothing from the network; a Lianliankan
clearing steps move by move).

Exit codes as ``solve`` and ``check``: with ``--solve`` or ``--check`` the
answer's (0 yes, 1 no, 3 a limit), otherwise 0 once drawn; 2 bad usage or input.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.app.arguments import NO, UNDECIDED, USAGE, YES, rule_variants, worst
from search.core.contract import GridcpError, InputError, Status
from search.core.limits import Overtime, watchdog
from search.core.outputs import out_dir, write_file
from search.core.puzzlekind import PuzzleKind
from search.core.registry import instance_files, load_puzzle, read_text
from search.draw import FORMATS, figure, write
from search.draw.page import book, page
from search.draw.svg import to_string
from search.futoshiki.model import Solution as FutoshikiSolution
from search.lianliankan.io import parse_solution as lianliankan_solution
from search.numberlink.io import parse_solution as numberlink_solution

EXIT_OF_OK = {True: YES, False: NO, None: UNDECIDED}
SOLVE_OK = {Status.SOLVED: True, Status.LIMIT: None}  # any other status answers no


@dataclass(frozen=True)
class Drawing:
    """What one picture shows: a title, the solutions (none, one or two) and the exit code."""

    title: str
    solutions: tuple[Any, ...] = ()
    code: int = YES
    verdict: str = ""
    marked: tuple[Any, ...] = ()  # cells where two solutions differ


def run(args: Any) -> int:
    files = instance_files(args.files)
    if not files:
        raise GridcpError("no puzzle files found in " + ", ".join(args.files))
    if args.solution and len(files) != 1:
        raise GridcpError(f"--solution goes with one puzzle file, not {len(files)}")
    bad = getattr(args, "bad", False)
    if bad and not (args.solve or args.check):
        raise GridcpError("--bad goes with --check or --solve (it keeps the answers no)")
    book = _book(files, args.out, bad)
    targets = [book] * len(files) if book else _targets(files, args.out, args.format)
    codes, pictures = [], []
    for path, target in zip(map(str, files), targets):
        try:
            with watchdog(args.time_limit):  # reading, solving and drawing a file
                codes += _draw_file(path, target, args, book, bad, pictures)
        except InputError as error:
            print(f"gridcp: {error}", file=sys.stderr)
            codes.append(USAGE)
        except Overtime:
            print(f"gridcp: {path}: LIMIT: stopped at the time limit ({args.time_limit:g} s)",
                  file=sys.stderr)
            codes.append(UNDECIDED)
    if book:
        _write_book(book, pictures, len(codes), bad, getattr(args, "force", False))
    return worst(codes)


def _draw_file(path: str, target: Path, args: Any, book: Path | None, bad: bool,
               pictures: list[Any]) -> list[int]:
    """Draw one file's puzzle under each rule set asked (onto the batch's page
    when there is one); the exit codes of its answers."""
    kind_, parsed = load_puzzle(path, args.puzzle)
    variants = rule_variants(kind_, parsed, path, args)
    codes = []
    for variant in variants:
        drawing = _drawing(kind_, variant.puzzle, variant.name, args)
        codes.append(drawing.code)
        if bad and drawing.code != NO:
            continue
        if book:
            pictures.append(_picture(variant.puzzle, drawing, steps=False))
            _tell(args, variant.name, book, drawing)
            continue
        out = target if len(variants) == 1 else _labelled(target, variant.rules)
        _write(variant.puzzle, drawing, out, args.format, getattr(args, "force", False))
        _tell(args, variant.name, out, drawing)
    return codes


def _book(files: list[Path], out: str | None, bad: bool) -> Path | None:
    """The one HTML page every picture goes on: ``-o PAGE.html`` with several
    puzzles, or with ``--bad`` (a batch's rejects, however many)."""
    if not out or Path(out).suffix.lower() != ".html" or Path(out).is_dir():
        return None
    return Path(out) if len(files) > 1 or bad else None


def _write_book(out: Path, pictures: list[Any], answers: int, bad: bool,
                force: bool = False) -> None:
    what = "answered no" if bad else "drawn"
    title = f"{len(pictures)} of {answers} puzzles {what}"
    note = "" if pictures or not bad else "Every puzzle answered yes: nothing to draw."
    write_file(out, book(pictures, title, note), force=force)


# ---------------------------------------------------------------- what to draw


def _drawing(kind_: PuzzleKind, puzzle: Any, label: str, args: Any) -> Drawing:
    name = f"{Path(label).name} ({kind_.call('describe', puzzle)})"
    if args.solution:
        solution = read_solution(kind_, puzzle, args.solution)
        return Drawing(f"{name}\nsolution {Path(args.solution).name}", (solution,))
    if not (args.solve or args.check):
        return Drawing(name)
    reasons = kind_.call("validate", puzzle) if kind_.validate else []
    if reasons:
        return Drawing(f"{name}\nINVALID: {reasons[0]}", (), NO, "INVALID")
    if args.solve:
        engine = args.backend or kind_.default_backend("solve")
        result = kind_.backend(engine).solve(puzzle, time_limit=args.time_limit)
        found = () if result.solution is None else (result.solution,)
        return (_failed(kind_, puzzle, found, name)
                or Drawing(f"{name}\n{result.status} by {engine}", found,
                           EXIT_OF_OK[SOLVE_OK.get(result.status, False)], str(result.status)))
    report = kind_.verdict(puzzle, args.backend, args.time_limit)
    solutions, rules = report.solutions, report.rules or puzzle
    if report.status is Status.MULTIPLE and len(solutions) < 2:
        return Drawing(f"{name}\nERROR: MULTIPLE without two solutions to show", (), NO,
                       str(Status.ERROR))
    failed = _failed(kind_, rules, solutions, name)
    if failed:
        return failed
    title = f"{name}\n{report.verdict}" + (f" by {report.engine}" if report.engine else "")
    marked: tuple[Any, ...] = ()
    if len(solutions) == 2 and kind_.differences is not None:
        marked = tuple(kind_.call("differences", rules, *solutions))
        title += f"\nthe two solutions differ in {len(marked)} cells (marked)"
    return Drawing(title, solutions, EXIT_OF_OK[report.ok], report.verdict, marked)


def read_solution(kind_: PuzzleKind, puzzle: Any, path: str) -> Any:
    """A solution file in the puzzle's own solution format, checked by ``verify``."""
    text = read_text(path)
    if kind_.name == "numberlink":
        solution = numberlink_solution(puzzle, text, path)
    elif kind_.name == "lianliankan":
        solution = lianliankan_solution(text, puzzle, path)
    elif kind_.name == "futoshiki":  # a filled-in square in any Futoshiki format
        filled = kind_.call("parse", text, path)
        if filled.n != puzzle.n or not filled.complete:
            raise InputError(f"a solution is a filled-in {puzzle.n} x {puzzle.n} square", path)
        solution = FutoshikiSolution(filled.givens)
    else:
        raise InputError(f"{kind_.name} has no solution file format", path)
    problems = kind_.call("verify", puzzle, solution)
    if problems:
        raise InputError("the solution breaks the rules: " + "; ".join(problems[:3]), path)
    return solution


def _failed(kind_: PuzzleKind, puzzle: Any, solutions: tuple[Any, ...],
            name: str) -> Drawing | None:
    """ERROR (the puzzle alone) if a backend's solution fails ``verify``: never draw it."""
    for solution in solutions:
        problems = kind_.call("verify", puzzle, solution)
        if problems:
            return Drawing(f"{name}\nERROR: the backend's solution fails verification: "
                           f"{problems[0]}", (), NO, str(Status.ERROR))
    return None


# ---------------------------------------------------------------- where it goes


def _targets(files: list[Path], out: str | None, fmt: str | None) -> list[Path]:
    """The picture file of each puzzle file: ``-o FILE`` for one puzzle, else
    ``OUT/`` (default: here) + the path below the files' common folder."""
    if out == "-":
        if len(files) != 1 or fmt == "png":
            raise GridcpError("-o - (standard output) takes one SVG or HTML picture")
        return [Path("-")]
    files = [Path("stdin") if str(f) == "-" else f for f in files]  # not a file named -.svg
    suffix = Path(out).suffix.lower() if out else ""
    if suffix in FORMATS and not (out and Path(out).is_dir()):
        if len(files) != 1:
            raise GridcpError(f"-o {out} names one picture, but there are {len(files)} "
                              "puzzles: give a folder")
        if fmt and f".{fmt}" != suffix:
            raise GridcpError(f"-o {out} and --format {fmt} disagree")
        return [Path(out)]  # type: ignore[arg-type]
    if suffix:
        raise GridcpError(f"-o {out}: no picture format {suffix!r} "
                          f"(known: {', '.join(FORMATS)}; a folder has no suffix)")
    folder = Path(out or ".")
    ending = f".{fmt or 'svg'}"
    if len(files) == 1:
        return [folder / files[0].with_suffix(ending).name]
    common = Path(os.path.commonpath([f.resolve().parent for f in files]))
    below = [f.resolve().relative_to(common) for f in files]
    stems = Counter(b.with_suffix("") for b in below)
    # b.nl and b.llk side by side: b.nl.svg and b.llk.svg, not one b.svg twice
    return [folder / (b.with_name(b.name + ending) if stems[b.with_suffix("")] > 1
                      else b.with_suffix(ending)) for b in below]


def _labelled(target: Path, rules: dict[str, Any]) -> Path:
    """``ring.svg`` under the rules ``{"border": True}`` -> ``ring-border.svg``."""
    if not rules:
        return target
    words = [name if value is True else f"{name}{value}" for name, value in rules.items()]
    return target.with_name(f"{target.stem}-{'-'.join(words)}{target.suffix}")


def _write(puzzle: Any, drawing: Drawing, out: Path, fmt: str | None,
           force: bool = False) -> None:
    html = out.suffix == ".html" or str(out) == "-" and fmt == "html"
    picture = _picture(puzzle, drawing, steps=html)
    if str(out) == "-":
        sys.stdout.write(page(picture, drawing.title) if html else to_string(picture) + "\n")
        return
    out_dir(out.parent, "-o")  # made when missing; a file or device there is told as such
    try:
        write(picture, out, drawing.title, force)
    except OSError as error:
        raise GridcpError(f"cannot write {out}: {error.strerror}") from None


def _picture(puzzle: Any, drawing: Drawing, steps: bool) -> Any:
    captions = ("solution A", "solution B") if len(drawing.solutions) == 2 else ()
    return figure(puzzle, drawing.solutions, title=drawing.title, captions=captions,
                  marked=drawing.marked, steps=steps)


def _tell(args: Any, label: str, out: Path, drawing: Drawing) -> None:
    if args.json:
        print(json.dumps({"file": label, "picture": str(out),
                          "title": "; ".join(drawing.title.splitlines()),
                          **({"verdict": drawing.verdict} if drawing.verdict else {})}),
              flush=True)
    elif str(out) != "-":
        print(f"{label} -> {out}", file=sys.stderr)
