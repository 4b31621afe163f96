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
from dataclasses import dataclass
from pathlib import Path

from search.core import InputError

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
