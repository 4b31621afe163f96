"""Fuzzing by grammar, through the command line in process (``main([...])``): the
damaged files of ``tests.core.grammars`` given to ``solve``, ``convert``, ``draw``,
``solve --manifest`` and ``report``, and option values drawn from a list of
nasty ones given to every command.  The invariant: exit 2 with one line that
names the file, or an answer (exit 0, 1 or 3) whose evidence the command
verified (no ERROR status); never exit 4, never a traceback."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


# ---------------------------------------------------------------- option values

NASTY = ["", "0", "-1", "1", "2", "3", "3x3", "2x4", "nan", "inf", "-inf", "1e400", "9" * 5000,
         "³", "٣", "0x10", "1_000", " 5", "abc", "\x1b[31m", "2000x2000", "1.5", "-0",
         "search", "cpsat", "all", "seed", "greedy", "svg", "png", "tatham", "csv", "a,b",
         "solve,count", "18x8", "100000"]
# command -> (the options that take a value, the words that end the command line)
OPTIONS = {
    "solve": (["--time-limit", "--max-cells", "--memory-limit", "--backend", "--method",
               "--turns", "--puzzle"], ["{fut}"]),
    "count": (["--limit", "--time-limit", "--max-cells", "--backend"], ["{llk}"]),
    "check": (["--time-limit", "--backend", "--max-cells"], ["{fut}"]),
    "convert": (["--to", "--puzzle", "--max-cells", "--time-limit", "--memory-limit"],
                ["{fut}"]),
    "draw": (["--format", "--backend", "--time-limit", "--max-cells"],
             ["{fut}", "-o", "{dir}/d.svg", "--force"]),
    "generate futoshiki": (["--size", "--seed", "--count", "--method", "--max-cells"], []),
    "generate numberlink": (["--size", "--seed", "--count", "--method", "--max-cells"], []),
    "generate lianliankan": (["--size", "--seed", "--count", "--pictures", "--pairs",
                              "--turns", "--max-cells"], []),
    "report": (["--scatter", "--time-limit"], ["{results}"]),
}


def _options(command: str, chosen: list[tuple[str, str]], capsys) -> None:
    def check(base: Path) -> None:
        options, tail = OPTIONS[command]
        words = command.split()
        for option, value in chosen:
            words += [option, value]
        if command.startswith("generate"):  # small boards, quickly, whatever was drawn
            words += ["--time-limit", "1", "--max-cells", "400"]
        words += [w.format(fut=base / "p.fut", llk=base / "p.llk", dir=base,
                           results=base / "r.jsonl") for w in tail]
        capsys.readouterr()
        try:
            code = main(words)
        except SystemExit as stop:  # argparse: usage errors are exit 2, --help exit 0
            code = stop.code
        err = capsys.readouterr().err
        assert code in (0, 1, 2, 3) and "Traceback" not in err and "internal error" not in err, \
            (words, code, err)

    record = json.dumps({"instance": "p.fut", "set": ".", "puzzle": "futoshiki",
                         "backend": "search", "task": "solve", "status": "SOLVED", "wall": 0.1,
                         "time_limit": 10})
    in_folder({"p.fut": SEED3.encode(), "p.llk": b"1 2\n2 1\n", "r.jsonl": record.encode()},
              check)


@st.composite
def option_values(draw, command: str) -> list[tuple[str, str]]:
    options = OPTIONS[command][0]
    names = draw(st.lists(st.sampled_from(options), max_size=3, unique=True))
    return [(name, draw(st.sampled_from(NASTY))) for name in names]


@pytest.mark.parametrize("command", sorted(OPTIONS))
def test_no_option_value_is_a_bug(command: str, capsys) -> None:
    given(chosen=option_values(command))(QUICK(lambda chosen: _options(command, chosen,
                                                                       capsys)))()


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(OPTIONS))
def test_no_option_value_is_a_bug_long(command: str, capsys) -> None:
    given(chosen=option_values(command))(LONG(lambda chosen: _options(command, chosen,
                                                                      capsys)))()
