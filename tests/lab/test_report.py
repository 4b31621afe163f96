"""gridcp report: PAR-2, solved counts, the per-instance table, differing
answers, and the PNG plots (when matplotlib is installed)."""

from __future__ import annotations

import csv
import io
import json
import warnings
from pathlib import Path

import pytest

from search.app.cli import main
from search.lab.report import (
    _pyplot,
    cactus,
    latest,
    markdown,
    par2,
    scatter,
    span,
    summary_table,
)

LIMIT = 10.0


def record(instance: str, backend: str, task: str, status: str, wall: float,
           **more: object) -> dict:
    return {"instance": f"set/{instance}", "set": "set", "puzzle": "futoshiki", "size": "4x4",
            "backend": backend, "task": task, "rules": {}, "time_limit": LIMIT,
            "status": status, "wall": wall, "run_wall": wall + 0.3, "import_wall": 0.01,
            "effort": {}, "versions": {"gridcp": "0.1.0"}, "host": "h", "time": "t", **more}


RECORDS = [
    record("p1", "search", "count", "COUNTED", 0.5, count=3),
    record("p1", "cpsat", "count", "COUNTED", 1.5, count=3),
    record("p2", "search", "count", "LIMIT", 10.2, count=7),
    record("p2", "cpsat", "count", "COUNTED", 2.0, count=9),
    record("p3", "search", "count", "COUNTED", 0.1, count=1),
    record("p3", "cpsat", "count", "COUNTED", 0.2, count=2),  # a disagreement
    record("p1", "search", "solve", "ERROR", 0.0, message="killed by SIGABRT"),
    record("p1", "cpsat", "solve", "SOLVED", 0.25, key="aaa"),
    record("p4", "search", "count", "COUNTED", 0.1, count=1, set="other"),
    record("p4", "search", "solve", "SOLVED", 0.1, key="bbb", set="other"),
    record("p4", "cpsat", "solve", "SOLVED", 0.1, key="ccc", set="other"),  # two solutions?
]


@pytest.fixture
def results(tmp_path: Path) -> Path:
    path = tmp_path / "results.jsonl"
    lines = [json.dumps(r) for r in RECORDS]
    path.write_text("\n".join(lines) + '\n{"cut sh')
    return path


def test_par2_counts_unsolved_runs_twice_the_limit() -> None:
    assert [par2(r) for r in RECORDS[2:4]] == [20.0, 2.0]


def test_the_summary_table(results: Path) -> None:
    text = markdown(RECORDS, "results.jsonl", [])
    # search count: solved 2 of 3, PAR-2 (0.5 + 20 + 0.1) / 3, median 0.3, worst 0.5
    assert "| set | futoshiki | count | search | 3 | 2 | 6.867 | 0.300 | 0.500 | 0 |" in text
    assert "| set | futoshiki | count | cpsat | 3 | 3 | 1.233 | 1.500 | 2.000 | 0 |" in text
    assert "| set | futoshiki | solve | search | 1 | 0 | 20.000 | - | - | 1 |" in text
    assert "- set/p3 count: search 1, cpsat 2" in text
    assert "| set/p2 | count | 9 | LIMIT | 2.000 |" in text
    assert "| set/p3 | count | DIFFER | 0.100 | 0.200 |" in text
    assert "- set/p4 solve: search SOLVED key bbb, cpsat SOLVED key ccc" in text
    assert "- set/p1 search solve: killed by SIGABRT" in text


def test_the_last_record_of_a_run_wins() -> None:
    again = dict(RECORDS[0], wall=0.25)
    assert latest([*RECORDS, again])[0]["wall"] == 0.25
    assert len(latest([*RECORDS, again])) == len(RECORDS)


def test_report_to_stdout(results: Path, capsys) -> None:
    assert main(["report", str(results)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Sweep report: results.jsonl")
    assert "## Harness overhead per run" in out


def test_report_writes_markdown_and_plots(results: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "report"
    assert main(["report", str(results), "-o", str(out), "--scatter", "search,cpsat"]) == 0
    written = {p.name for p in out.iterdir()}
    tables = {f"{name}.{ext}" for name in ("summary", "sets", "effort", "overhead", "instances")
              for ext in ("csv", "tex")}
    assert written == {"report.md", "cactus.png", "scatter-count.png", "scatter-solve.png",
                       *tables}
    assert (out / "cactus.png").read_bytes().startswith(b"\x89PNG")
    assert "![cactus.png](cactus.png)" in (out / "report.md").read_text()


def test_bad_usage(tmp_path: Path) -> None:
    assert main(["report", str(tmp_path / "none.jsonl")]) == 2
    (tmp_path / "empty.jsonl").write_text("")
    assert main(["report", str(tmp_path / "empty.jsonl")]) == 2


# ---------------------------------------------------------------- CPU time, CSV, LaTeX


def test_par2_on_the_cpu_clock() -> None:
    solved = record("p9", "search", "solve", "SOLVED", 0.5, cpu_time=0.25)
    unsolved = record("p9", "cpsat", "solve", "LIMIT", 10.1, cpu_time=9.0)
    older = record("p9", "frontier", "solve", "SOLVED", 0.5)  # made before CPU times
    assert [par2(r, "cpu") for r in (solved, unsolved, older)] == [0.25, 20.0, 0.5]
    assert [par2(r, "wall") for r in (solved, unsolved, older)] == [0.5, 20.0, 0.5]


def test_tables_as_csv_and_latex() -> None:
    table = summary_table(RECORDS)  # per instance set
    rows = [row[:10] for row in csv.reader(io.StringIO(table.csv()))]
    assert rows[0][:8] == ["instance set", "puzzle", "task", "backend", "runs", "solved",
                           "PAR-2 s", "median s"]
    assert ["set", "futoshiki", "count", "search", "3", "2", "6.867", "0.300", "0.500",
            "0"] in rows
    assert ["set", "futoshiki", "solve", "search", "1", "0", "20.000", "", "", "1"] in rows
    tex = table.latex("per instance set")
    assert tex.startswith("% per instance set\n\\begin{tabular}{llllrrrrrrr}\n\\toprule\n")
    assert tex.rstrip().endswith("\\bottomrule\n\\end{tabular}")
    assert "set & futoshiki & count & search & 3 & 2 & 6.867 & 0.300 & 0.500 & 0 & " in tex
    assert tex.count("\\\\\n") == len(rows)  # the header and one line per row


def test_special_characters_are_escaped() -> None:
    odd = record("a_b&c%<b>", "search", "solve", "ERROR", 0.0, message="<script>x</script>")
    table = summary_table([odd], by_set=False)
    assert "a\\_b\\&c\\%" in _first_cell_of_instances([odd], "latex")
    text = markdown([odd], "r.jsonl", [])
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "<b>" not in text
    assert table.csv().count("\n") == 2


def _first_cell_of_instances(records: list[dict], how: str) -> str:
    from search.lab.report import per_instance

    table, _ = per_instance(records)
    return table.latex() if how == "latex" else table.csv()


def test_report_on_the_cpu_clock(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(dict(r, cpu_time=r["wall"] / 2)) + "\n"
                            for r in RECORDS))
    assert main(["report", str(path), "--time", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "CPU seconds (user + system)" in out
    # search count: (0.25 + 20 + 0.05) / 3, median 0.15
    assert "| set | futoshiki | count | search | 3 | 2 | 6.767 | 0.150 | 0.250 | 0 |" in out
    with pytest.raises(SystemExit) as stopped:
        main(["report", str(path), "--time", "gpu"])
    assert stopped.value.code == 2


# ---------------------------------------------------------------- plots of any size


@pytest.mark.parametrize("times", [[0.0], [0.0, 0.0, 0.0], [1.5, 1.5], [3e-6, 7.0], []])
def test_span_holds_any_times(times: list[float]) -> None:
    low, high = span(times)
    assert 0 < low < high
    assert all(low <= max(t, 1e-4) <= high for t in times)


EDGES = {
    "one run": [record("p1", "search", "solve", "SOLVED", 0.2)],
    "equal times": [record(f"p{i}", b, "solve", "SOLVED", 0.5)
                    for i in range(3) for b in ("search", "cpsat")],
    "zero times": [record(f"p{i}", b, "count", "COUNTED", 0.0, count=1)
                   for i in range(2) for b in ("search", "cpsat")],
    "none solved": [record("p1", b, "solve", "LIMIT", 10.0) for b in ("search", "cpsat")],
}


@pytest.mark.parametrize("case", EDGES)
def test_plots_of_small_and_odd_suites(case: str, tmp_path: Path) -> None:
    plt = _pyplot()
    if plt is None:
        pytest.skip("matplotlib is not installed")
    records = EDGES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "identical low and high xlims", no empty legend
        panels = cactus(records, tmp_path / "cactus.png", plt)
        pair = scatter(records, records[0]["task"], ("search", "cpsat"),
                       tmp_path / "scatter.png", plt)
    assert (tmp_path / "cactus.png").read_bytes().startswith(b"\x89PNG")
    for (x_low, x_high), (y_low, y_high) in panels:
        assert 0 < x_low < x_high and y_low == 0 and y_high >= 1
    times = [max(r["wall"], 1e-4) for r in records if r["status"] != "LIMIT"]
    assert all(x_low <= t <= x_high for t in times for (x_low, x_high), _ in panels)
    if case == "one run":
        assert pair is None  # one backend: nothing to set against it
    else:
        (x_low, x_high), (y_low, y_high) = pair
        assert 0 < x_low < x_high and (x_low, x_high) == (y_low, y_high)


# ---------------------------------------------------------------- the results file


@pytest.mark.parametrize("line, problem", [
    ('{"instance": "x"}', "a run's record without 'backend'"),
    ('[1, 2]', "not a JSON object"),
    ('{"instance": "a", "backend": "b", "task": "solve", "puzzle": "futoshiki", "set": "s", '
     '"status": "SOLVED", "wall": "fast", "time_limit": 10}', "'wall' has the wrong type"),
    ('{"sweep": 3}', "a sweep line's value is not an object"),
    ('{"sweep": {"skipped": ["x"]}}', "'skipped' has the wrong type"),
    ('{"instance": "a", "backend": "b", "task": "solve", "puzzle": "futoshiki", "set": "s", '
     '"status": "SOLVED", "wall": 1, "time_limit": 10, "effort": [1]}',
     "'effort' has the wrong type"),
    ('{"instance": "a", "wall": ' + "9" * 5000 + "}", "not a JSON record"),
    ('not json', "not a JSON record"),
])
def test_a_bad_record_is_exit_2_naming_the_line(tmp_path: Path, capsys, line: str,
                                                 problem: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(RECORDS[0]) + "\n" + line + "\n" + json.dumps(RECORDS[1]) + "\n")
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2: {problem}" in err and "Traceback" not in err
