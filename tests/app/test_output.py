"""The readable and ``--brief`` output of every declared (puzzle, command,
backend) over the small bundled instances: no internal error (exit 4), each
file answered on its own line, effort figures printed as numbers people read
(whole numbers whole, never ``1.2e+04``) or words (``plan rows``).

The answers themselves are held to the manifests by tests/test_contract.py
(through the backends) and by ``--manifest`` below (through the command line).
"""

from __future__ import annotations

import json
import re

import pytest

from search.app.cli import figure, main
from search.app.manifest import read_manifest
from search.core.registry import PUZZLES, kind, load, load_puzzle
from tests.conftest import INSTANCES, small

COMMANDS = ("solve", "count", "check")
MANY = "1000"  # count --limit for the enumerating engines (a LIMIT prints as well)
SAFETY = "30"  # seconds a task: a net only, every answer here takes well under one
SCIENTIFIC = re.compile(r"\d(\.\d+)?e[+-]\d")  # 1.2e+04: how no figure may print


def _files(puzzle: str, backend: str | None, command: str) -> dict[tuple[str, ...], list[str]]:
    """Rule set -> the small bundled files the manifest lists under it, for the
    rule sets ``backend`` takes (the default backend: all)."""
    takes = None if backend is None else load(kind(puzzle).backends[backend]).rules
    out: dict[tuple[str, ...], list[str]] = {}
    for row in read_manifest(INSTANCES / puzzle / "manifest.tsv"):
        names = {rule.partition("=")[0] for rule in row.rules}
        if takes is not None and not names <= takes:
            continue
        if not small(puzzle, load_puzzle(row.path, puzzle)[1]):
            continue
        files = out.setdefault(row.rules, [])
        if str(row.path) not in files:
            files.append(str(row.path))
    return out


def _calls():
    out = []
    for puzzle in PUZZLES:
        kind_ = kind(puzzle)
        for command in COMMANDS:
            names = [n for n in kind_.backends if command in load(kind_.backends[n]).calls]
            names = [None, *names] if names else []
            for name in names:
                for mode in ("text", "brief"):
                    out.append(pytest.param(puzzle, command, name, mode,
                                            id=f"{puzzle}-{command}-{name or 'default'}-{mode}"))
    return out


@pytest.mark.parametrize(("puzzle", "command", "backend", "mode"), _calls())
def test_readable_output_of_every_declared_call(puzzle, command, backend, mode, capsys) -> None:
    groups = _files(puzzle, backend, command)
    assert groups, "no bundled instance to run"
    for rules, files in groups.items():
        argv = [command, "--puzzle", puzzle, "--time-limit", SAFETY, "--memory-limit", "0",
                *(f"--{rule}" for rule in rules), *files]
        if backend is not None:
            argv += ["--backend", backend]
        if command == "count" and backend not in (None, "count-dp"):
            argv += ["--limit", MANY]
        if mode == "brief":
            argv.append("--brief")
        code = main(argv)
        out, err = capsys.readouterr()
        assert code in (0, 1, 3), f"{argv}: exit {code}\n{err}"
        assert "internal error" not in err and "Traceback" not in err, err
        heads = [line for line in out.splitlines() if line.startswith(tuple(files))]
        for file in files:
            assert any(line.startswith(f"{file}: ") for line in heads), (file, out)
        for line in heads:
            assert not SCIENTIFIC.search(line), line
        if mode == "brief":
            assert len(heads) >= len(files)
            assert all(line.endswith(" s]") for line in heads), heads


def test_figures_print_as_people_read_them() -> None:
    assert [figure(v) for v in (12000, 12000.0, 1.2e4, 0.1234567, 2.5e-9, "rows", True)] == [
        "12000", "12000", "12000", "0.123457", "2.5e-09", "rows", "True"]
    assert figure(10**20) == "100000000000000000000" and figure(float("inf")) == "inf"


def test_count_dp_counts_an_empty_board_readably(capsys) -> None:
    """The README's second example: count-dp's figures hold a word (its plan)."""
    file = str(INSTANCES / "futoshiki" / "latin" / "empty_6.txt")
    assert main(["count", file]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{file}: COUNTED 812851200 (count-dp, ")
    assert "plan rows" in out and "states 684" in out


def test_auto_names_the_engine_that_answered(capsys) -> None:
    """Numberlink's ``auto`` picks an engine; both outputs name it, the
    readable line beside the backend, ``--json`` as ``engine``."""
    file = str(INSTANCES / "numberlink" / "seed-article" / "seed_7x7.nl")
    assert main(["solve", file]) == 0
    assert capsys.readouterr().out.startswith(f"{file}: SOLVED (auto: search, ")
    assert main(["solve", "--json", file]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["backend"] == "auto" and out["engine"] == "search" and "message" not in out
