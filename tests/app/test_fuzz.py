"""The hostile-input corpus: every case of ``tests.app.fuzz_corpus.py`` run as a user would run
it, in a child process under an address-space cap.  Each must give its exit code
(2 for every bad input, with one line naming the file or option and the problem),
no traceback, an end within its --time-limit (plus a margin for a loaded machine)
and a peak memory under 1 GB.  The big boards are marked slow."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.fuzz_corpus import SEED3, cases, problems, run

PEAK_MB = 1024


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case.name, marks=[pytest.mark.slow] if case.slow else [])
    for case in cases()])
def test_corpus_case(case, tmp_path: Path) -> None:
    result = run(case, tmp_path)
    wrong = problems(case, result, tmp_path)
    assert not wrong, f"{case.name}: {'; '.join(wrong)}\nstdout: {result.stdout[:500]}"
    assert result.peak_mb < PEAK_MB, f"{case.name}: peak {result.peak_mb:.0f} MB"


def test_corpus_covers_the_issue() -> None:
    """The corpus keeps the inputs the hard-edges report named (issue 18)."""
    names = " ".join(case.name for case in cases())
    for needed in ("nl_adc_huge", "nl_ints_huge", "1x16000", "turns 1000", "grace -5",
                   "memory-limit -1", "pictures 0", "pairs -1", "empty folder",
                   "backends nosuch", "folder bad file", "report binary", "-o file",
                   "bom", "crlf", "nl_bad_solution", "backend all"):
        assert needed in names, needed


# ---------------------------------------------------------------- the error path, in process


def test_version_is_the_package_version(capsys) -> None:
    import tomllib

    from search.app.cli import main
    from tests.conftest import ROOT

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    first, kernels = capsys.readouterr().out.strip().split("\n")
    assert stop.value.code == 0 and first == f"gridcp {wanted}"
    assert kernels.startswith("kernels: ") and "search.futoshiki.kernel" in kernels


def test_a_bug_is_exit_4_in_one_line_and_a_traceback_with_debug(tmp_path: Path, capsys,
                                                                 monkeypatch) -> None:
    from search.app import cli

    board = tmp_path / "p.llk"
    board.write_text("1 1\n")

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setitem(cli.TASKS, "solve", broken)
    assert cli.main(["solve", str(board)]) == cli.BUG
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a bug in gridcp" in err and "Traceback" not in err
    assert cli.main(["solve", "--debug", str(board)]) == cli.BUG  # a bug's code, with --debug too
    err = capsys.readouterr().err
    assert "Traceback" in err and "ZeroDivisionError: a bug" in err


def test_out_of_memory_in_a_task_is_a_limit_answer(tmp_path: Path, capsys,
                                                   monkeypatch) -> None:
    from search.app import cli

    board = tmp_path / "p.fut"
    board.write_text(SEED3)

    def hungry(*args, **kwargs):
        raise MemoryError

    monkeypatch.setitem(cli.TASKS, "count", hungry)
    assert cli.main(["count", "--memory-limit", "300", str(board)]) == cli.UNDECIDED
    out = capsys.readouterr().out
    assert "LIMIT" in out and "out of memory (--memory-limit 300 MB)" in out
