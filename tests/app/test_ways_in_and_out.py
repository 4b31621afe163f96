"""The guarded way in and the atomic way out, as a user meets them on the command
line (in process, ``main([...])``): special files, existing and linked targets,
a full disk, output names that collide, manifests others may write, escaped
terminals and reports, time limits in every command."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest

from search.app.cli import main
from search.lab.results import read_results
from tests.app.fuzz_corpus import SEED3

USAGE, UNDECIDED, BUG = 2, 3, 4


def one_line(err: str, *names: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for name in names:
        assert name in err, (name, err)


@pytest.fixture
def puzzle(tmp_path: Path) -> Path:
    path = tmp_path / "p.fut"
    path.write_text(SEED3)
    return path


def record(**fields) -> str:
    base = {"instance": "p.fut", "set": ".", "puzzle": "futoshiki", "backend": "search",
            "task": "solve", "status": "SOLVED", "wall": 0.01, "time_limit": 10.0,
            "rules": {}, "effort": {"nodes": 3}}
    return json.dumps({**base, **fields})


# ---------------------------------------------------------------- the way in


@pytest.mark.parametrize("argv", [["solve", "{fifo}"], ["convert", "{fifo}"],
                                  ["draw", "{fifo}", "-o", "{dir}/x.svg"], ["report", "{fifo}"],
                                  ["bench", "{puzzle}", "-o", "{fifo}"],
                                  ["solve", "--manifest", "{puzzle}"]])
def test_a_fifo_anywhere_is_exit_2_not_a_hang(tmp_path: Path, puzzle: Path, capsys,
                                              argv: list[str]) -> None:
    fifo = tmp_path / "manifest.tsv"  # also the manifest of p.fut
    os.mkfifo(fifo)
    words = [w.format(fifo=fifo, dir=tmp_path, puzzle=puzzle) for w in argv]
    assert main(words) == USAGE
    one_line(capsys.readouterr().err, str(fifo))


@pytest.mark.parametrize("text, problem", [
    ("file\ttask\trules\texpected\np.fut\tsolve\n", ":2: a row has"),
    ("file\ttask\trules\texpected\np.fut\tcount\t\t" + "9" * 5000 + "\n", ":2: the expected"),
    ("file\ttask\trules\texpected\np.fut\tcount\t\t³\n", ":2: count expects"),
    ("file\ttask\trules\texpected\np.fut\tsolve\t\tmaybe\n", ":2: solve expects"),
    ("file\ttask\trules\texpected\n../../etc/p.fut\tsolve\t\tSOLVED\n", ":2: the file"),
    ("file\ttask\n", ":1: the header"),
    ("# only a comment\n", "no header"),
    ("file\ttask\trules\texpected\np.fut\tsolve\tturns=x\tSOLVED\n", "no rule"),
    ("file\ttask\trules\texpected\np.fut\tsolve\t\tSOLVED\u2028x\n", "U+2028"),
])
def test_a_bad_manifest_row_is_exit_2_with_its_line(tmp_path: Path, puzzle: Path, capsys,
                                                    text: str, problem: str) -> None:
    (tmp_path / "manifest.tsv").write_text(text)
    assert main(["solve", "--manifest", str(puzzle)]) == USAGE
    one_line(capsys.readouterr().err, "manifest.tsv", problem)


def test_a_manifest_others_may_write_decides_nothing(tmp_path: Path, puzzle: Path,
                                                     capsys) -> None:
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text("file\ttask\trules\texpected\np.fut\tsolve\t\tUNSAT\n")
    assert main(["solve", "--manifest", "--brief", str(puzzle)]) == 1  # held to its UNSAT
    assert "but the manifest expects UNSAT" in capsys.readouterr().out
    manifest.chmod(manifest.stat().st_mode | stat.S_IWOTH)  # planted: anyone may write it
    assert main(["solve", "--manifest", "--brief", str(puzzle)]) == 0
    assert "expects" not in capsys.readouterr().out
    manifest.chmod(0o644)
    tmp_path.chmod(tmp_path.stat().st_mode | stat.S_IWOTH | stat.S_ISVTX)  # like /tmp
    try:
        sub = tmp_path / "mine"
        sub.mkdir()
        (sub / "p.fut").write_text(SEED3)
        assert main(["solve", "--manifest", "--brief", str(sub / "p.fut")]) == 0
        assert "expects" not in capsys.readouterr().out
    finally:
        tmp_path.chmod(0o755)


@pytest.mark.parametrize("line, problem", [
    ('{"instance": "p.fut"}', "a run's record without"),
    (record(wall="slow"), "'wall' has the wrong type"),
    (record(rules=[1]), "'rules' has the wrong type"),
    ('{"sweep": 3}', "a sweep line's value is not an object"),
    (record(count=int("9" * 1000)).replace("9" * 1000, "9" * 4400), "not a JSON record"),
    ("[]", "not a JSON object"),
])
def test_a_bad_results_record_is_exit_2_with_its_line(tmp_path: Path, capsys, line: str,
                                                      problem: str) -> None:
    results = tmp_path / "r.jsonl"
    results.write_text(record() + "\n" + line + "\n")
    assert main(["report", str(results)]) == USAGE
    one_line(capsys.readouterr().err, "r.jsonl:2: ", problem)


@pytest.mark.parametrize("text, problem", [
    ('backends = 3\n[[instances]]\npaths = ["x"]\n', ":1: backends must be"),
    ('[[instances]]\npaths = "x"\n', ":2: [[instances]] #1: paths must be"),
    ('[[instances]]\npaths = ["x"]\nseeds = -1\n', ":3: [[instances]] #1: seeds must be"),
    ('[[instances]]\ngenerator = "x"\nfirst = 1.5\n', ":3: [[instances]] #1: first must be"),
    ('time_limit = "10"\n[[instances]]\npaths = ["x"]\n', ":1: time_limit must be"),
    ('[report]\nscatter = "ab"\n[[instances]]\npaths = ["x"]\n', "report must be"),
    ("instances = 5\n", "instances must be"),
    ('[[instances]]\nnope = 1\n', "unknown key 'nope'"),
    ('description = "\x01"\n', "not a suite"),
    ("seeds = " + "9" * 5000 + "\n", "not a suite"),  # past Python's digit limit (a fuzzer's find)
])
def test_a_bad_suite_is_exit_2_with_its_line(tmp_path: Path, capsys, text: str,
                                             problem: str) -> None:
    suite = tmp_path / "s.toml"
    suite.write_text(text)
    assert main(["bench", "--suite", str(suite)]) == USAGE
    one_line(capsys.readouterr().err, "s.toml", problem)


# ---------------------------------------------------------------- the way out


def test_writers_refuse_existing_files_without_force(tmp_path: Path, puzzle: Path,
                                                     capsys) -> None:
    out = tmp_path / "out"
    results = tmp_path / "r.jsonl"
    results.write_text(record() + "\n")
    for argv in (["convert", str(puzzle), "-o", str(out)],
                 ["draw", str(puzzle), "-o", str(out / "p.svg")],
                 ["generate", "futoshiki", "--size", "3", "-o", str(out)],
                 ["report", str(results), "-o", str(out)]):
        assert main(argv) == 0, argv
        written = {p: p.read_bytes() for p in out.iterdir()}
        capsys.readouterr()
        assert main(argv) == USAGE, argv
        assert "--force" in capsys.readouterr().err
        assert {p: p.read_bytes() for p in out.iterdir()} == written
        assert main([*argv, "--force"]) == 0, argv
    assert not [p for p in out.iterdir() if p.name.endswith(".part")]


@pytest.mark.parametrize("argv", [["convert", "{puzzle}", "-o", "{dir}"],
                                  ["draw", "{puzzle}", "-o", "{dir}/p.svg", "--force"],
                                  ["generate", "futoshiki", "--size", "3", "-o", "{dir}"],
                                  ["bench", "{puzzle}", "--backends", "search", "--tasks",
                                   "solve", "-o", "{dir}/p.txt"]])
def test_writers_never_follow_a_symbolic_link(tmp_path: Path, puzzle: Path, capsys,
                                              argv: list[str]) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    for name in ("p.txt", "p.svg", "futoshiki_3_1_1.txt"):
        (out / name).symlink_to(victim)
    assert main([w.format(puzzle=puzzle, dir=out) for w in argv]) == USAGE
    one_line(capsys.readouterr().err, "symbolic link")
    assert victim.read_text() == "precious\n"


def test_convert_refuses_two_inputs_with_one_output_name(tmp_path: Path, capsys) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "p.fut").write_text(SEED3)
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "a"), str(tmp_path / "b"), "-o", str(out)]) == USAGE
    one_line(capsys.readouterr().err, "a/p.fut", "b/p.fut", "p.txt")
    assert not out.exists()


@pytest.mark.parametrize("argv", [["convert", "{puzzle}", "-o", "{dir}"],
                                  ["draw", "{puzzle}", "-o", "{dir}/p.svg"],
                                  ["generate", "futoshiki", "--size", "3", "-o", "{dir}"],
                                  ["report", "{results}", "-o", "{dir}"]])
def test_a_full_disk_is_exit_2_and_leaves_nothing(tmp_path: Path, puzzle: Path, capsys,
                                                  monkeypatch, argv: list[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    results = tmp_path / "r.jsonl"
    results.write_text(record() + "\n")

    def full(fd: int, data) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    code = main([w.format(puzzle=puzzle, dir=out, results=results) for w in argv])
    err = capsys.readouterr().err
    assert code == USAGE and "No space left on device" in err and str(out) in err, err
    assert list(out.iterdir()) == []


def test_bench_appends_only_after_a_complete_record(tmp_path: Path, puzzle: Path,
                                                    capsys) -> None:
    results = tmp_path / "r.jsonl"
    damaged = record() + "\n" + record(instance="q.fut")  # no final line end
    results.write_text(damaged)
    argv = ["bench", str(puzzle), "--backends", "search", "--tasks", "solve", "-o", str(results)]
    assert main(argv) == 0  # the whole last record is ended, then the new one follows
    assert results.read_text().startswith(damaged + "\n")
    assert [r["instance"] for r in read_results(results)][:2] == ["p.fut", "q.fut"]


# ---------------------------------------------------------------- safe output


def test_report_tables_escape_html(tmp_path: Path, capsys) -> None:
    results = tmp_path / "r.jsonl"
    results.write_text(record(instance="<script>alert(1)</script>|x", status="ERROR",
                              message="<img src=x onerror=alert(1)>\nline") + "\n")
    assert main(["report", str(results)]) == 0
    page = capsys.readouterr().out
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\\|x" in page and "\\nline" in page


def test_labels_and_names_reach_a_terminal_escaped(tmp_path: Path, monkeypatch) -> None:
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    board = tmp_path / "a\x1b[2Jb.nl"  # an escape in the file name, a colour code as labels
    board.write_text("\x1b[m\n..\n.m\x1b[\n")
    screen, log = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stderr", log)
    main(["solve", str(board), "--puzzle", "numberlink", "--lenient"])
    shown = screen.getvalue() + log.getvalue()
    assert "\x1b" not in shown and "\\x1b" in shown


# ---------------------------------------------------------------- limits in every command


@pytest.mark.parametrize("argv, slow", [
    (["convert", "{puzzle}", "--time-limit", "0.3"], "search.app.cli._converted"),
    (["draw", "{puzzle}", "-o", "{dir}/p.svg", "--time-limit", "0.3"], "search.app.draw.figure"),
    (["report", "{results}", "--time-limit", "0.3"], "search.lab.report.markdown"),
])
def test_every_command_stops_at_its_time_limit(tmp_path: Path, puzzle: Path, capsys,
                                               monkeypatch, argv: list[str], slow: str) -> None:
    results = tmp_path / "r.jsonl"
    results.write_text(record() + "\n")

    def forever(*args, **kwargs):
        while True:
            pass

    monkeypatch.setattr(slow, forever)
    assert main([w.format(puzzle=puzzle, dir=tmp_path, results=results) for w in argv]) == \
        UNDECIDED
    assert "limit" in capsys.readouterr().err.lower()



@pytest.mark.parametrize("argv", [
    ["generate", "futoshiki", "--size", "9" * 5000],  # was exit 4: int() past 4,300 digits
    ["generate", "futoshiki", "--size", "³"],
    ["generate", "lianliankan", "--size", "9" * 5000 + "x3"],
    ["count", "--limit", "9" * 5000, "{puzzle}"],
    ["solve", "--turns", "³", "{puzzle}"],
])
def test_option_values_past_the_digit_limit_are_exit_2(puzzle: Path, capsys,
                                                       argv: list[str]) -> None:
    try:
        code = main([w.format(puzzle=puzzle) for w in argv])
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code == USAGE and err.count("\n") == 1 and len(err) < 500, err
