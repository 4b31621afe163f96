"""Expected answers of bundled instances: ``instances/<puzzle>/manifest.tsv``.

One row per (file, task, rules): the tab-separated columns are

    file      path relative to the manifest's folder
    task      count | unique | solve | check
    rules     rule-variant options, comma-separated (``lenient``, ``border,gravity``), or empty
    expected  count: an integer; unique: UNSAT, UNIQUE or MULTIPLE; solve: SOLVED or UNSAT;
              check: yes or no (well-designed)
    note      free text (source, grade), optional

Lines starting with ``#`` are comments, blank lines are skipped; the first
other line is the header.  Every row is checked as it is read (its fields, the
task, the expected answer in that task's words, a file inside the manifest's
folder): a bad row is exit 2 with the manifest, the line and the problem.

Which manifest governs a file: the nearest ``manifest.tsv`` in the file's folder
or above it, as git finds its repository, with git's caution about files it did
not create: the walk up stops at a folder that everyone may write to (``/tmp``)
or that another user owns, and a manifest that another user owns or everyone may
write to is not read.  A manifest planted in a shared folder therefore decides
nothing about the files below it.
"""

from __future__ import annotations

import argparse
import functools
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.core import inputs
from search.core.contract import InputError
from search.core.puzzlekind import PuzzleKind

COLUMNS = ("file", "task", "rules", "expected", "note")
TASKS = ("count", "unique", "solve", "check")
ANSWERS = {"unique": ("UNSAT", "UNIQUE", "MULTIPLE"), "solve": ("SOLVED", "UNSAT"),
           "check": ("yes", "no")}  # count: a whole number


@dataclass(frozen=True)
class Expectation:
    path: Path
    task: str
    rules: tuple[str, ...]
    expected: str
    note: str = ""
    line: int | None = None  # where the manifest lists it


def read_manifest(path: str | Path) -> list[Expectation]:
    """The rows of a manifest, each checked (see the module's text)."""
    path, source = Path(path), str(path)
    text = inputs.read_text(path, puzzle=False, what="a manifest")
    inputs.check_text(text, source)
    header: list[str] | None = None
    out = []
    for number, line in inputs.numbered(text):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split("\t")
        if header is None:
            if tuple(fields[:4]) != COLUMNS[:4] or len(fields) > len(COLUMNS):
                raise InputError(f"the header must be {' '.join(COLUMNS)} (tab-separated), "
                                 f"found {inputs.shown(line)}", source, number)
            header = fields
            continue
        out.append(_row(fields, len(header), path, number))
    if header is None:
        raise InputError(f"no header line ({' '.join(COLUMNS)})", source)
    return out


def _row(fields: list[str], columns: int, path: Path, number: int) -> Expectation:
    source = str(path)
    if not 4 <= len(fields) <= columns:
        raise InputError(f"a row has {' '.join(COLUMNS[:4])} and an optional note, "
                         f"separated by tabs; found {len(fields)} fields", source, number)
    file, task, rules, answer = (field.strip() for field in fields[:4])
    if not file or Path(file).is_absolute() or ".." in Path(file).parts:
        raise InputError(f"the file {inputs.shown(file)} must be a path inside the "
                         "manifest's folder", source, number)
    if task not in TASKS:
        raise InputError(f"unknown task {inputs.shown(task)} (known: {', '.join(TASKS)})",
                         source, number)
    if task == "count":
        if not (answer.isascii() and answer.isdigit()):
            raise InputError(f"count expects a whole number, found {inputs.shown(answer)}",
                             source, number)
        inputs.integer(answer, source, number, "the expected count", inputs.MAX_RECORD_DIGITS)
    elif answer not in ANSWERS[task]:
        raise InputError(f"{task} expects one of {', '.join(ANSWERS[task])}, found "
                         f"{inputs.shown(answer)}", source, number)
    listed = tuple(r.strip() for r in rules.split(",") if r.strip())
    note = fields[4] if len(fields) > 4 else ""
    return Expectation(path.parent / file, task, listed, answer, note, number)


# ---------------------------------------------------------------- rule sets


def _shared(info: os.stat_result) -> bool:
    """Written by others: owned by another user (root aside), or writable by everyone."""
    return info.st_uid not in (os.getuid(), 0) or bool(info.st_mode & stat.S_IWOTH)


def governing(path: Path) -> Path | None:
    """The manifest that governs ``path``: the nearest ``manifest.tsv`` above it,
    looked for only up to the first folder that others may write to (see the
    module's text), and only if others may not write to it either."""
    for folder in path.resolve().parents:
        try:
            if _shared(folder.stat()):
                return None
            info = (folder / "manifest.tsv").lstat()
        except FileNotFoundError:
            continue
        except OSError:
            return None
        return folder / "manifest.tsv" if not _shared(info) else None
    return None


def listed_rules(path: Path, kind_: PuzzleKind) -> list[dict[str, Any]]:
    """The distinct rule sets the governing manifest lists for this file, as options."""
    resolved = path.resolve()
    manifest = governing(path)
    if manifest is None:
        return []
    found: list[dict[str, Any]] = []
    for row in _manifest(manifest):
        if row.path.resolve() == resolved:
            chosen = options_of(row.rules, kind_, manifest, row.line)
            if chosen not in found:
                found.append(chosen)
    return found


@functools.lru_cache(maxsize=64)
def _manifest(path: Path) -> list[Expectation]:
    return read_manifest(path)


def options_of(rules: tuple[str, ...], kind_: PuzzleKind, source: Path,
               line: int | None = None) -> dict[str, Any]:
    """``("border", "turns=3")`` -> ``{"border": True, "turns": 3}`` by the puzzle's options."""
    chosen = {}
    for rule in rules:
        name, _, value = rule.partition("=")
        option = next((o for o in kind_.options if name in (o.dest, o.flags[0].lstrip("-"))),
                      None)
        if option is None:
            raise InputError(f"{kind_.name} has no rule {inputs.shown(name)}", str(source), line)
        convert = option.kwargs.get("type", str)
        try:
            chosen[option.dest] = convert(value) if value else True
        except (ValueError, TypeError, argparse.ArgumentTypeError) as error:
            raise InputError(f"rule {inputs.shown(rule)}: {error}", str(source), line) from None
    return chosen


def labelled(name: str, rules: dict[str, Any] | None) -> str:
    """An instance with the rule variants it runs under: ``ring.llk [border]``."""
    shown = ",".join(k if v is True else f"{k}={v}" for k, v in sorted((rules or {}).items()))
    return f"{name} [{shown}]" if shown else name


def with_defaults(kind_: PuzzleKind, rules: dict[str, Any] | None) -> dict[str, Any]:
    """Every rule at its default unless given, as the command line hands them over."""
    out = {}
    for option in kind_.options:
        flag = option.kwargs.get("action") == "store_true"
        out[option.dest] = option.kwargs.get("default", False if flag else None)
    out.update(rules or {})
    return {k: v for k, v in out.items() if v is not None}


# ---------------------------------------------------------------- answers held to the manifest


def expected(path: Path, kind_: PuzzleKind, rules: dict[str, Any], task: str) -> str | None:
    """What the nearest manifest expects of ``task`` on this file under
    ``rules``, in that task's words (solve: SOLVED or UNSAT; count: the
    number; check: yes or no), derived from whichever row decides it; None
    where no row does."""
    resolved = path.resolve()
    manifest = governing(path)
    if manifest is None:
        return None
    rows = {row.task: row.expected for row in _manifest(manifest)
            if row.path.resolve() == resolved
            and options_of(row.rules, kind_, manifest, row.line) == rules}
    if task in rows:
        return rows[task]
    if task == "solve":
        if "count" in rows:
            return "SOLVED" if int(rows["count"]) else "UNSAT"
        if "unique" in rows:
            return "UNSAT" if rows["unique"] == "UNSAT" else "SOLVED"
    if task == "count" and rows.get("unique") in ("UNSAT", "UNIQUE"):
        return "0" if rows["unique"] == "UNSAT" else "1"
    if task == "count" and rows.get("solve") == "UNSAT":
        return "0"
    return None
