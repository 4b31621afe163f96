"""Puzzle kinds and their backends, loaded on demand; puzzle files and folders.

Each puzzle package (``search/<puzzle>/__init__.py``) defines ``KIND``, a
``PuzzleKind`` (``search.core.puzzlekind``) that names its parser, formatter,
verifier and backends by dotted path, so that ``gridcp --help`` and the
hand-written backends never import OR-Tools, and adding a puzzle or a backend
touches only its own package.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from search.core import inputs
from search.core.contract import GridcpError, InputError, load
from search.core.limits import TooLarge
from search.core.puzzlekind import PuzzleKind

__all__ = ["PUZZLES", "PuzzleKind", "detect", "instance_files", "kind", "kinds", "load",
           "load_puzzle", "read_text"]

PUZZLES = ("futoshiki", "numberlink", "lianliankan")


def kind(name: str) -> PuzzleKind:
    if name not in PUZZLES:
        raise GridcpError(f"unknown puzzle {name!r} (known: {', '.join(PUZZLES)})")
    return importlib.import_module(f"search.{name}").KIND


def kinds() -> list[PuzzleKind]:
    found = (importlib.import_module(f"search.{name}") for name in PUZZLES)
    return [module.KIND for module in found]


STDIN = "-"  # the file name that stands for standard input


def source_name(path: str | Path) -> str:
    """How messages name a file: standard input as ``<stdin>``, a file by its path."""
    return "<stdin>" if str(path) == STDIN else str(path)


def read_text(path: str | Path, puzzle_file: bool = True) -> str:
    """A file's text (``-``: standard input's, where the caller allows it), or an
    InputError that says why it cannot be read, through the guarded way in
    (``search.core.inputs``): a puzzle file is held to the size limit and to
    text without control characters; an empty file is refused."""
    text = inputs.read_text(path, puzzle=puzzle_file,
                            limit=None if puzzle_file else inputs.MAX_RESULTS_BYTES,
                            what="a puzzle file" if puzzle_file else "a file",
                            allow_stdin=str(path) == STDIN)
    if not text.strip():
        raise InputError("empty file", source_name(path))
    return harmless(text)


def harmless(text: str) -> str:
    """The text without what no reader should trip on: a UTF-8 byte-order mark
    and CR or CRLF line ends (trailing blanks and a missing final newline the
    readers forgive themselves)."""
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


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
        try:
            if candidate.call("sniff", text):
                return candidate
        except TooLarge as error:  # the file declares a board above the limit: say so
            raise TooLarge(error.message, source, error.line) from None
    raise closest(text, source, candidates)


def closest(text: str, source: str, candidates: list[PuzzleKind]) -> InputError:
    """Why no puzzle reads ``text``: the reader that got furthest and what stopped it."""
    readers = {c.name: functools.partial(c.call, "parse") for c in candidates}
    return furthest(readers, text, source, "cannot tell which puzzle this is (use --puzzle)",
                    "it reads as {name} with --puzzle {name}")


class Unrecognised(InputError):
    """No reader took the text as its format (``furthest``'s answer)."""


def furthest(readers: Mapping[str, Callable[[str, str], Any]], text: str, source: str,
             problem: str, reads_as: str) -> InputError:
    """The error to give when sniffing found no format: each reader tries the
    text, and the one whose error comes on the latest line names the line and
    what stopped it there.  On a tie, a reader that took the text as its format
    (an error about the content) goes before one whose own readers all failed
    (``Unrecognised``), then the first.  A reader that succeeds is named with
    ``reads_as`` (a ``{name}`` template)."""
    stops = []
    for name, read in readers.items():
        try:
            read(text, source)
        except InputError as error:
            stops.append((error.line or 0, name, error))
            continue
        return InputError(f"{problem}; {reads_as.format(name=name)}", source, 1)
    line, name, error = max(stops, key=lambda s: (s[0], not isinstance(s[2], Unrecognised)))
    if isinstance(error, TooLarge):
        return error
    return Unrecognised(f"{problem}; closest: {name}, which stops here: {error.message}",
                        source, line or None)


def load_puzzle(path: str | Path, puzzle: str | None = None) -> tuple[PuzzleKind, Any]:
    text = read_text(path)
    found = detect(text, source_name(path), puzzle)
    return found, found.call("parse", text, source_name(path))


# Files below a folder that are never puzzles: documentation, tables, plots,
# solution files and the folders that hold them (and multi-board collections).
NOT_INSTANCES = {".md", ".tsv", ".csv", ".json", ".jsonl", ".py", ".png", ".pdf", ".sol"}
NOT_INSTANCE_DIRS = {"solutions", "answers", "collections"}


def puzzle_suffixes() -> frozenset[str]:
    """The file suffixes a folder scan takes: each kind's own extensions and the
    suffixes of the formats it reads and writes (``.txt``, ``.tatham``, ``.dat``)."""
    return frozenset(suffix.lower() for kind_ in kinds() for suffix in
                     (*kind_.extensions, *(suffix for _, suffix in kind_.writers.values())))


def _is_instance(file: Path, relative: tuple[str, ...]) -> bool:
    return (file.is_file()
            and file.suffix.lower() in puzzle_suffixes()
            and file.suffix.lower() not in NOT_INSTANCES
            and not file.name.endswith("~")
            and "solution" not in file.name.lower()
            and not file.name.upper().startswith("SOURCES")
            and not any(p.startswith(".") for p in relative)
            and not NOT_INSTANCE_DIRS.intersection(relative[:-1]))


def instance_files(paths: Iterable[str | Path], skipped: list[Path] | None = None
                   ) -> list[Path]:
    """Files as given (``-``: standard input); a directory stands for the puzzle
    files below it, sorted: those with a puzzle suffix (``puzzle_suffixes``) that
    are not documentation, tables, solutions or collections.  The other files
    below it (hidden ones aside) go to ``skipped`` when given."""
    out: list[Path] = []
    for path in map(Path, paths):
        if not path.is_dir():
            out.append(path)
            continue
        for file in sorted(path.rglob("*")):
            relative = file.relative_to(path).parts
            if _is_instance(file, relative):
                out.append(file)
            elif (skipped is not None and file.is_file()
                  and not any(p.startswith(".") for p in relative)):
                skipped.append(file)
    return out
