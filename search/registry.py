"""Puzzle kinds and their backends, loaded on demand.

Each puzzle package (``search/<puzzle>/__init__.py``) defines ``KIND``, a
``PuzzleKind`` that names its parser, formatter, verifier and backends by
dotted path, so that ``gridcp --help`` and the hand-written backends never
import OR-Tools, and adding a puzzle or a backend touches only its own package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from search.core import Backend, GridcpError, InputError

PUZZLES = ("futoshiki", "numberlink", "lianliankan")


def load(dotted: str) -> Any:
    """``"package.module:attribute"`` -> the attribute, importing on first use."""
    module, _, attribute = dotted.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class Option:
    """A rule-variant flag of one puzzle (``--lenient``, ``--border``, ...)."""

    flags: tuple[str, ...]
    dest: str
    help: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PuzzleKind:
    """What the command line and the harness need to know about one puzzle.

    ``backends`` is ordered: for each task the backend named in ``defaults``, or
    else the first backend that offers it, is the default.  The callables are
    dotted paths.
    """

    name: str
    extensions: tuple[str, ...]
    sniff: str  # (text) -> bool: does this text look like this puzzle?
    parse: str  # (text, source) -> puzzle; raises InputError
    format_puzzle: str  # (puzzle) -> str, the kind's native file format
    format_solution: str  # (puzzle, solution) -> str, readable
    solution_json: str  # (puzzle, solution) -> JSON-able value
    verify: str  # (puzzle, solution) -> list[str] of violations
    key: str  # (puzzle, solution) -> hashable canonical key
    backends: Mapping[str, str]
    defaults: Mapping[str, str] = field(default_factory=dict)  # task -> backend name
    # (puzzle) -> list[str]: why the input breaks the rules before any search
    # (status INVALID, exit code 1); empty when it does not.
    validate: str | None = None
    options: tuple[Option, ...] = ()
    apply_options: str | None = None  # (puzzle, options dict) -> puzzle with rule variants
    # (puzzle, *, backend: str | None, time_limit: float | None) -> CheckReport;
    # without it, check means "exactly one solution" (unique).
    check: str | None = None
    check_task: str = "unique"  # the backend task check relies on (for --backend all)
    # (args) -> exit code: prints or writes the puzzles itself.  The CLI gives
    # args.size (str | None), args.seed (int), args.count (int), args.out (dir | None),
    # args.method (str | None), args.json (bool) and what add_generate_arguments adds.
    generate: str | None = None
    add_generate_arguments: str | None = None  # (argparse sub-parser) -> None
    describe: str | None = None  # (puzzle) -> short text for reports, e.g. "9x9"

    def call(self, what: str, *args: Any, **kwargs: Any) -> Any:
        dotted = getattr(self, what)
        if dotted is None:
            raise GridcpError(f"{self.name} has no {what.replace('_', ' ')}")
        return load(dotted)(*args, **kwargs)

    def backend(self, name: str, **options: Any) -> Backend:
        if name not in self.backends:
            known = ", ".join(self.backends)
            raise GridcpError(f"{self.name} has no backend {name!r} (known: {known})")
        return load(self.backends[name])(**options)

    def default_backend(self, task: str) -> str:
        if task in self.defaults:
            return self.defaults[task]
        for name, dotted in self.backends.items():
            if task in load(dotted).tasks:
                return name
        raise GridcpError(f"no {self.name} backend can {task}")


def kind(name: str) -> PuzzleKind:
    if name not in PUZZLES:
        raise GridcpError(f"unknown puzzle {name!r} (known: {', '.join(PUZZLES)})")
    return importlib.import_module(f"search.{name}").KIND


def kinds() -> list[PuzzleKind]:
    found = (importlib.import_module(f"search.{name}") for name in PUZZLES)
    return [module.KIND for module in found]


def read_text(path: str | Path) -> str:
    """A file's text, or an InputError that says why it cannot be read."""
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", source) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a puzzle file", source) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", source) from None
    if b"\0" in data:
        raise InputError("binary file, not a puzzle", source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError("not UTF-8 text", source, line) from None
    if not text.strip():
        raise InputError("empty file", source)
    return text


def detect(text: str, source: str, puzzle: str | None = None) -> PuzzleKind:
    """The puzzle kind of a file: ``puzzle`` if given, else by extension, else by content."""
    if puzzle is not None:
        return kind(puzzle)
    suffix = Path(source).suffix.lower()
    candidates = kinds()
    for candidate in candidates:
        if suffix in candidate.extensions:
            return candidate
    for candidate in candidates:
        if candidate.call("sniff", text):
            return candidate
    raise InputError("cannot tell which puzzle this is (use --puzzle)", source, 1)


def load_puzzle(path: str | Path, puzzle: str | None = None) -> tuple[PuzzleKind, Any]:
    text = read_text(path)
    found = detect(text, str(path), puzzle)
    return found, found.call("parse", text, str(path))


Verifier = Callable[[Any, Any], list[str]]


# Files below a folder that are never puzzles: documentation, tables, plots,
# solution files and the folders that hold them (and multi-board collections).
NOT_INSTANCES = {".md", ".tsv", ".csv", ".json", ".jsonl", ".py", ".png", ".pdf", ".sol"}
NOT_INSTANCE_DIRS = {"solutions", "answers", "collections"}


def _is_instance(file: Path, relative: tuple[str, ...]) -> bool:
    return (file.is_file()
            and file.suffix.lower() not in NOT_INSTANCES
            and not file.name.endswith("~")
            and "solution" not in file.name.lower()
            and not file.name.upper().startswith("SOURCES")
            and not any(p.startswith(".") for p in relative)
            and not NOT_INSTANCE_DIRS.intersection(relative[:-1]))


def instance_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given; a directory stands for the puzzle files below it, sorted."""
    out: list[Path] = []
    for path in map(Path, paths):
        if not path.is_dir():
            out.append(path)
            continue
        out.extend(file for file in sorted(path.rglob("*"))
                   if _is_instance(file, file.relative_to(path).parts))
    return out
