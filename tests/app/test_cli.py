"""The command line: exit codes, readable and JSON output, bad input, limits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from search.app.cli import main
from search.core.registry import kind
from tests.conftest import ROOT

GOOD = """3
0 | 0 < 0
- - ^ - -
0 > 0 | 0
v - - - -
0 | 0 | 2
"""
BAD_FILES = {
    "empty": ("", "empty file"),
    "wrong_n": ("4\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n", ":6: n = 4 needs"),
    "short_line": ("3\n0 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n", ":2: expected 5"),
    "bad_token": ("3\n0 | x | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n", ":2: token 3"),
    "relation_in_row": ("3\n0 ^ 0 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n",
                        ":2: expected a separator"),
    "row_relation_between_rows": ("3\n0 | 0 | 0\n- - < - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n",
                                  ":3: expected a relation"),
    "bad_filler": ("3\n0 | 0 | 0\n- ^ - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n",
                   ":3: token 2 must be the filler"),
}


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.txt"
    path.write_text(GOOD)
    return path


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_is_one_clear_line_and_exit_2(name: str, tmp_path: Path, capsys) -> None:
    text, expected = BAD_FILES[name]
    path = tmp_path / f"{name}.txt"
    path.write_text(text)
    code, out, err = run(["solve", "--puzzle", "futoshiki", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and str(path) in err and expected in err, err


def test_missing_and_binary_files(tmp_path: Path, capsys) -> None:
    binary = tmp_path / "board.bin"
    binary.write_bytes(b"\x00\x01\x02garbage")
    code, _, err = run(["solve", str(tmp_path / "nope.txt"), str(binary)], capsys)
    assert code == 2
    assert "nope.txt: no such file" in err and "board.bin: binary file" in err


def test_bad_input_never_prints_a_traceback(tmp_path: Path) -> None:
    for name, (text, _) in BAD_FILES.items():
        (tmp_path / f"{name}.txt").write_text(text)
    files = sorted(str(p) for p in tmp_path.iterdir())
    done = subprocess.run([sys.executable, "-m", "search", "count", "--puzzle", "futoshiki",
                           *files], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    progress = [line for line in lines if line.startswith("gridcp: count ")]
    assert len(progress) == len(files)  # a plain progress line per file, stderr not a terminal
    assert len(lines) - len(progress) == len(files)  # and one message per bad file


def test_solve_prints_verified_board_and_exit_0(good: Path, capsys) -> None:
    code, out, _ = run(["solve", "--backend", "search", str(good)], capsys)
    assert code == 0
    assert out.splitlines()[1:] == ["2 | 1 < 3", "- - ^ - -", "3 > 2 | 1", "v - - - -",
                                    "1 | 3 | 2"]


def test_json_lines_for_every_backend(good: Path, capsys) -> None:
    code, out, _ = run(["solve", "--backend", "all", "--json", str(good)], capsys)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(answers) >= 2
    assert {a["status"] for a in answers} == {"SOLVED"}
    assert len({json.dumps(a["solution"]) for a in answers}) == 1


def test_check_and_count_exit_codes(good: Path, tmp_path: Path, capsys) -> None:
    assert run(["check", str(good)], capsys)[0] == 0
    empty = tmp_path / "empty3.txt"
    empty.write_text("3\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n")
    code, out, _ = run(["check", str(empty)], capsys)
    assert code == 1 and "MULTIPLE" in out
    code, out, _ = run(["count", "--json", str(empty)], capsys)
    assert code == 0 and json.loads(out)["count"] == 12


def test_limits_report_limit_and_exit_3(tmp_path: Path, capsys) -> None:
    empty = tmp_path / "empty5.txt"
    empty.write_text("5\n" + "\n- - - - - - - - -\n".join(["0 | 0 | 0 | 0 | 0"] * 5) + "\n")
    code, out, _ = run(["count", "--backend", "search", "--limit", "7", "--json", str(empty)],
                       capsys)
    assert code == 3 and json.loads(out) | {"count": 7, "status": "LIMIT"} == json.loads(out)
    code, out, _ = run(["count", "--backend", "search", "--time-limit", "0.05", str(empty)],
                       capsys)
    assert code == 3 and "LIMIT at least" in out


def test_invalid_square_is_invalid_with_reason_and_exit_1(tmp_path: Path, capsys) -> None:
    path = tmp_path / "repeat.txt"
    path.write_text("3\n1 | 1 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n")
    code, out, _ = run(["solve", str(path)], capsys)
    assert code == 1 and "INVALID" in out and "row 1 repeats 1" in out
    code, out, _ = run(["count", str(path)], capsys)  # the reasons, not a count of 0
    assert code == 1 and out.splitlines() == [f"{path}: INVALID", "  row 1 repeats 1"]
    code, out, _ = run(["count", "--json", str(path)], capsys)
    assert code == 1 and '"count": 0' in out


def test_seed_method_prints_the_seed_programs_messages(good: Path, tmp_path: Path,
                                                       capsys) -> None:
    code, out, _ = run(["solve", "--backend", "search", "--method", "seed", str(good)], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[1:3] == ["Incomplete scheme.", "Solution:"]
    assert lines[-1] == "1"  # the seed prints the number of solutions last
    full = tmp_path / "full.txt"
    full.write_text("2\n1 | 2\n- - -\n2 | 1\n")
    _, out, _ = run(["solve", "--backend", "search", "--method", "seed", str(full)], capsys)
    assert out.splitlines()[1:] == ["Complete scheme.", "Valid solution.", "1"]


def test_a_method_picks_the_backend_that_has_it(good: Path, capsys) -> None:
    code, out, _ = run(["solve", "--method", "seed", str(good)], capsys)
    assert code == 0 and "(search," in out.splitlines()[0]
    assert out.splitlines()[1] == "Incomplete scheme."
    code, _, err = run(["solve", "--method", "seed", "--backend", "propagate", str(good)], capsys)
    assert code == 2 and "has no method 'seed'" in err
    code, _, err = run(["solve", "--method", "nonesuch", str(good)], capsys)
    assert code == 2 and "no futoshiki backend has a method 'nonesuch'" in err


def test_rule_flag_of_another_puzzle_is_refused(good: Path, capsys) -> None:
    from search.app.arguments import all_rule_options

    own = {option.dest for option in kind("futoshiki").options}
    flag = next(o.flags[0] for o in all_rule_options() if o.dest not in own)
    code, _, err = run(["solve", flag, str(good)] if flag != "--turns" else
                       ["solve", flag, "3", str(good)], capsys)
    assert code == 2 and "does not apply to futoshiki" in err


def test_convert_writes_the_seed_format(good: Path, capsys) -> None:
    code, out, _ = run(["convert", str(good)], capsys)
    assert code == 0 and out.split() == GOOD.split()


def test_check_with_every_backend_uses_the_task_the_puzzle_check_needs(capsys) -> None:
    board = ROOT / "instances" / "lianliankan" / "handmade" / "zigzag.llk"
    code, out, _ = run(["check", "--backend", "all", "--json", str(board)], capsys)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert {(a["backend"], a["verdict"]) for a in answers} == {
        ("search", "SOLVABLE"), ("cpsat", "SOLVABLE")}


def test_manifest_rules_run_a_file_under_each_listed_rule_set(capsys) -> None:
    board = ROOT / "instances" / "lianliankan" / "handmade" / "ring.llk"
    code, out, _ = run(["solve", "--manifest-rules", "--json", str(board)], capsys)
    answers = {json.loads(line)["file"]: json.loads(line)["status"]
               for line in out.splitlines()}
    assert answers == {str(board): "UNSAT", f"{board} [border]": "SOLVED"}
    assert code == 1


@pytest.mark.parametrize("words", [["solve", "--time-limit", "-1"], ["count", "--limit", "0"],
                                   ["count", "--limit", "many"]])
def test_limits_must_be_positive_numbers(words: list[str], good: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*words, str(good)])
    assert stop.value.code == 2 and "argument --" in capsys.readouterr().err


def test_manifest_holds_answers_to_the_expected_ones(capsys) -> None:
    folder = ROOT / "instances" / "lianliankan" / "handmade"
    code, out, err = run(["solve", "--manifest", "--brief", str(folder)], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[-1].startswith("gridcp: ")
    assert "every answer matches the manifest" in lines[-1]
    assert "ring.llk [border]: SOLVED as expected" in out  # listed with the ring rule
    assert "ring.llk: UNSAT as expected" in out  # and without


def test_manifest_mismatch_is_a_no(tmp_path: Path, capsys) -> None:
    (tmp_path / "manifest.tsv").write_text("file\ttask\trules\texpected\tnote\n"
                                           "a.fut\tcount\t\t5\twrong on purpose\n")
    (tmp_path / "a.fut").write_text(GOOD)
    code, out, _ = run(["count", "--manifest", "--brief", str(tmp_path / "a.fut")], capsys)
    assert code == 1 and "but the manifest expects 5" in out


def test_manifest_on_a_file_no_manifest_lists_says_so(tmp_path: Path, capsys) -> None:
    (tmp_path / "a.fut").write_text(GOOD)
    code, out, _ = run(["solve", "--manifest", "--brief", str(tmp_path / "a.fut")], capsys)
    assert code == 0 and "no answer is listed in a manifest" in out.splitlines()[-1]


def test_summary_counts_a_refused_flag_as_refused_not_unreadable(tmp_path: Path,
                                                                capsys) -> None:
    (tmp_path / "a.fut").write_text(GOOD)
    (tmp_path / "b.fut").write_text(GOOD)
    code, out, err = run(["solve", "--brief", "--lenient", str(tmp_path / "a.fut"),
                          str(tmp_path / "b.fut")], capsys)
    assert code == 2 and "--lenient does not apply to futoshiki" in err
    assert "2 files refused (bad input)" in out.splitlines()[-1]  # was: 2 unreadable files


# ---------------------------------------------------------------- conventions

EMPTY_6 = str(ROOT / "instances" / "futoshiki" / "latin" / "empty_6.txt")
NEEDS_LENIENT = "3 3\n1 - 2\n- - -\n1 - 2\n"  # the paths cannot cover the middle row


def test_option_sets_a_backend_field_checked_by_its_dataclass(capsys) -> None:
    code, out, _ = run(["count", EMPTY_6, "--option", "fallback=no",
                        "--option", "max_states=1e2"], capsys)
    assert code == 3 and "budget of 100" in out and "--option max_states=N" in out
    code, _, err = run(["count", EMPTY_6, "--option", "max_state=1"], capsys)
    assert code == 2 and "(its options: memory_mb, max_states, quick_nodes" in err
    code, _, err = run(["count", EMPTY_6, "--option", "max_states=lots"], capsys)
    assert code == 2 and "max_states=lots: not a whole number" in err


def test_help_shows_the_time_limits_defaults(capsys) -> None:
    for command, default in (("solve", "default: none; 60 with --backend all"),
                             ("crosscheck", "default: 10"), ("bench", "default: 10")):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert default in " ".join(capsys.readouterr().out.split()), command


def test_dash_reads_standard_input(monkeypatch, capsys) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(GOOD.encode())))
    code, out, _ = run(["solve", "--brief", "-"], capsys)
    assert code == 0 and out.startswith("-: SOLVED")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1 2 3\n")))
    code, _, err = run(["solve", "--puzzle", "futoshiki", "-"], capsys)
    assert code == 2 and err.startswith("gridcp: <stdin>:1: not a Futoshiki file")


def test_a_folder_scan_takes_puzzle_files_only(tmp_path: Path, capsys) -> None:
    (tmp_path / "good.txt").write_text(GOOD)
    (tmp_path / "board.svg").write_text("<svg/>")
    (tmp_path / "notes.html").write_text("<p>")
    (tmp_path / "README").write_text("about")
    code, out, err = run(["solve", "--brief", str(tmp_path)], capsys)
    assert code == 0 and err.count("\n") == 0
    assert "1 answer (1 solved), 3 files skipped (not puzzle files)" in out


def test_the_progress_bar_fits_the_terminal() -> None:
    from search.app.progress import bar_line

    for columns in (200, 80, 40, 20, 5):
        line = bar_line(3, 10, 12.3, "instances/numberlink/adc2015/Q18.txt", columns)
        assert len(line) <= columns - 1 and ("3/10" in line or columns < 10)


def test_one_status_word_and_lianliankan_is_cleared_not_well_designed(capsys) -> None:
    files = [str(ROOT / "instances/lianliankan/handmade" / f) for f in ("zigzag.llk",
                                                                        "crossed.llk")]
    code, out, _ = run(["check", *files], capsys)
    assert f"{files[0]}: SOLVABLE (" in out and f"{files[1]}: UNSOLVABLE (" in out
    assert "SOLVED SOLVABLE" not in out and "well-designed" not in out
    assert "1 clearable, 1 not, 0 undecided" in out


def test_no_full_cover_hints_at_lenient(tmp_path: Path, capsys) -> None:
    board = tmp_path / "b.nl"
    board.write_text(NEEDS_LENIENT)
    code, out, _ = run(["solve", "--brief", str(board)], capsys)
    assert code == 1 and out.startswith(f"{board}: UNSAT (solvable with --lenient)")
    code, out, _ = run(["solve", "--brief", "--lenient", str(board)], capsys)
    assert code == 0 and "solvable with" not in out


def test_a_file_no_backend_can_answer_is_its_own_error(tmp_path: Path, capsys) -> None:
    """Counting a folder that holds a Lianliankan board: that file is exit 2
    with its name, and the other files are still counted."""
    for name in ("futoshiki/latin/empty_4.txt", "lianliankan/handmade/ring.llk"):
        source = ROOT / "instances" / name
        (tmp_path / source.name).write_text(source.read_text())
    code, out, err = run(["count", str(tmp_path)], capsys)
    assert code == 2
    assert "empty_4.txt: COUNTED 576" in out
    assert f"{tmp_path / 'ring.llk'}: no lianliankan backend can count" in err
