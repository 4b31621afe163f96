"""gridcp report: PAR-2, solved counts, the per-instance table, differing
answers, and the PNG plots (when matplotlib is installed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from search.app.cli import main
from search.lab.report import latest, markdown, par2

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
    assert written == {"report.md", "cactus.png", "scatter-count.png", "scatter-solve.png"}
    assert (out / "cactus.png").read_bytes().startswith(b"\x89PNG")
    assert "![cactus.png](cactus.png)" in (out / "report.md").read_text()


def test_bad_usage(tmp_path: Path) -> None:
    assert main(["report", str(tmp_path / "none.jsonl")]) == 2
    (tmp_path / "empty.jsonl").write_text("")
    assert main(["report", str(tmp_path / "empty.jsonl")]) == 2
