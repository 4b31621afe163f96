"""Fuzzing by grammar, through the command line in process (``main([...])``): the
damaged files of ``tests.core.grammars`` given to ``solve``, ``convert``, ``draw``,
``solve --manifest`` and ``report``.  The invariant: exit 2 with one line that
names the file, or an answer (exit 0, 1 or 3) whose evidence the command
verified (no ERROR status); never exit 4, never a traceback."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given

from search.app.cli import main
from tests.core.grammars import LONG, PUZZLE_FORMATS, QUICK, damaged, manifest, results

SEED3 = "3\n0 | 0 < 0\n- - ^ - -\n0 > 0 | 0\nv - - - -\n0 | 0 | 2\n"
NAMES = {"futoshiki": "x.fut", "numberlink": "x.nl", "lianliankan": "x.llk"}


def invariant(argv: list[str], named: Path, capsys) -> None:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code != 4 and "Traceback" not in err and "internal error" not in err, (code, err)
    assert code in (0, 1, 2, 3), code
    if code == 2:
        lines = [line for line in err.splitlines() if str(named) in line]
        assert len(lines) == 1 and lines[0].startswith("gridcp: "), err
        assert all(line.isprintable() for line in err.splitlines()), err
    for line in out.splitlines():  # --json: each answer verified before it is shown
        if line.startswith("{"):
            assert json.loads(line)["status"] != "ERROR", line


def in_folder(files: dict[str, bytes], check) -> None:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        for name, data in files.items():
            (base / name).write_bytes(data)
        check(base)


def _puzzle_commands(fmt: str, data: bytes, capsys) -> None:
    name = NAMES[fmt.split()[0]]

    def check(base: Path) -> None:
        path = base / name
        invariant(["solve", path, "--json", "--time-limit", "2"], path, capsys)
        invariant(["convert", path, "-o", base / "out", "--force"], path, capsys)
        invariant(["draw", path, "-o", base / "x.svg", "--force", "--time-limit", "2"],
                  path, capsys)

    in_folder({name: data}, check)


@pytest.mark.parametrize("fmt", sorted(PUZZLE_FORMATS))
def test_damaged_puzzles_on_the_command_line(fmt: str, capsys) -> None:
    given(data=damaged(PUZZLE_FORMATS[fmt]))(QUICK(
        lambda data: _puzzle_commands(fmt, data, capsys)))()


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(PUZZLE_FORMATS))
def test_damaged_puzzles_on_the_command_line_long(fmt: str, capsys) -> None:
    given(data=damaged(PUZZLE_FORMATS[fmt]))(LONG(
        lambda data: _puzzle_commands(fmt, data, capsys)))()


def _manifest_command(data: bytes, capsys) -> None:
    def check(base: Path) -> None:
        invariant(["solve", "--manifest", "--json", "--time-limit", "2", base / "p.fut"],
                  base / "manifest.tsv", capsys)

    in_folder({"manifest.tsv": data, "p.fut": SEED3.encode()}, check)


def _report_command(data: bytes, capsys) -> None:
    def check(base: Path) -> None:
        invariant(["report", base / "r.jsonl"], base / "r.jsonl", capsys)

    in_folder({"r.jsonl": data}, check)


COMMANDS = {"manifest": (manifest(), _manifest_command), "results": (results(), _report_command)}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_damaged_manifests_and_results_on_the_command_line(name: str, capsys) -> None:
    files, run = COMMANDS[name]
    given(data=damaged(files))(QUICK(lambda data: run(data, capsys)))()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_damaged_manifests_and_results_on_the_command_line_long(name: str, capsys) -> None:
    files, run = COMMANDS[name]
    given(data=damaged(files))(LONG(lambda data: run(data, capsys)))()
