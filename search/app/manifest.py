"""Expected answers of bundled instances: ``instances/<puzzle>/manifest.tsv``.

One row per (file, task, rules): the tab-separated columns are

    file      path relative to the manifest's folder
    task      count | unique | solve | check
    rules     rule-variant options, comma-separated (``lenient``, ``border,gravity``), or empty
    expected  count: an integer; unique: UNSAT, UNIQUE or MULTIPLE; solve: SOLVED or UNSAT;
              check: yes or no (well-designed)
    note      free text (source, grade), optional

Lines starting with ``#`` are comments; the first other line is the header.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.core.contract import InputError
from search.core.puzzlekind import PuzzleKind

COLUMNS = ("file", "task", "rules", "expected", "note")
TASKS = ("count", "unique", "solve", "check")


@dataclass(frozen=True)
class Expectation:
    path: Path
    task: str
    rules: tuple[str, ...]
    expected: str
    note: str = ""


def read_manifest(path: str | Path) -> list[Expectation]:
    path = Path(path)
    rows = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    reader = csv.DictReader(rows, delimiter="\t")
    if tuple(reader.fieldnames or ())[:4] != COLUMNS[:4]:
        raise InputError(f"header must be {' '.join(COLUMNS)}", str(path), 1)
    out = []
    for number, row in enumerate(reader, start=2):
        if row["task"] not in TASKS:
            raise InputError(f"unknown task {row['task']!r}", str(path), number)
        rules = tuple(r for r in (row["rules"] or "").split(",") if r)
        out.append(
            Expectation(path.parent / row["file"], row["task"], rules, row["expected"],
                        row.get("note") or "")
        )
    return out


# ---------------------------------------------------------------- rule sets


def listed_rules(path: Path, kind_: PuzzleKind) -> list[dict[str, Any]]:
    """The distinct rule sets the nearest manifest.tsv lists for this file, as options."""
    resolved = path.resolve()
    for folder in resolved.parents:
        manifest = folder / "manifest.tsv"
        if manifest.exists():
            break
    else:
        return []
    found: list[dict[str, Any]] = []
    for row in _manifest(manifest):
        if row.path.resolve() == resolved:
            chosen = options_of(row.rules, kind_, manifest)
            if chosen not in found:
                found.append(chosen)
    return found


@functools.lru_cache(maxsize=64)
def _manifest(path: Path) -> list[Expectation]:
    return read_manifest(path)


def options_of(rules: tuple[str, ...], kind_: PuzzleKind, source: Path) -> dict[str, Any]:
    """``("border", "turns=3")`` -> ``{"border": True, "turns": 3}`` by the puzzle's options."""
    chosen = {}
    for rule in rules:
        name, _, value = rule.partition("=")
        option = next((o for o in kind_.options if name in (o.dest, o.flags[0].lstrip("-"))),
                      None)
        if option is None:
            raise InputError(f"{kind_.name} has no rule {name!r}", str(source))
        convert = option.kwargs.get("type", str)
        chosen[option.dest] = convert(value) if value else True
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
    manifest = next((folder / "manifest.tsv" for folder in resolved.parents
                     if (folder / "manifest.tsv").exists()), None)
    if manifest is None:
        return None
    rows = {row.task: row.expected for row in _manifest(manifest)
            if row.path.resolve() == resolved and options_of(row.rules, kind_, manifest) == rules}
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
