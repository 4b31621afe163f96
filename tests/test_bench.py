"""gridcp bench: tiny sweeps; resume after a killed sweep; a run past its time
limit, a crash and a memory hog each recorded without ending the sweep; the
same sweep on a Dask LocalCluster."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT

from search.bench import read_results, run_key
from search.cli import main

TESTS = Path(__file__).resolve().parent
PUZZLES = {  # name -> (text, solutions)
    "a.fut": ("3\n1 | 0 | 0\n- - - - -\n0 | 3 | 0\n- - - - -\n0 | 0 | 2\n", 1),
    "b.fut": ("3\n1 | 0 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n", 4),
    "c.fut": ("3\n0 < 0 < 1\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n", 0),
}


@pytest.fixture
def instances(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    folder.mkdir()
    for name, (text, _) in PUZZLES.items():
        (folder / name).write_text(text)
    (folder / "README.md").write_text("not a puzzle\n")
    return folder


@pytest.fixture(autouse=True)
def fakes_importable(monkeypatch) -> None:
    """Child runs find the fake backends of test_harness_fakes.py."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", path)


def bench(*args: str) -> int:
    return main(["bench", *args, "--time-limit", "5"])


def test_a_tiny_sweep_records_every_run_once(instances: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    assert bench(str(instances), "--backends", "search", "--tasks", "solve,count",
                 "--jobs", "2", "--out", str(out)) == 0
    records = read_results(out)
    assert len(records) == 6
    counts = {Path(r["instance"]).name: r["count"] for r in records if r["task"] == "count"}
    assert counts == {name: n for name, (_, n) in PUZZLES.items()}
    solve = {Path(r["instance"]).name: r["status"] for r in records if r["task"] == "solve"}
    assert solve == {"a.fut": "SOLVED", "b.fut": "SOLVED", "c.fut": "UNSAT"}
    first = records[0]
    for field in ("instance", "set", "puzzle", "size", "backend", "task", "status", "wall",
                  "run_wall", "effort", "versions", "host", "time", "time_limit"):
        assert field in first, field
    assert first["size"] == "3x3" and first["versions"]["gridcp"]
    assert "6 runs: 6 new" in capsys.readouterr().out
    assert bench(str(instances), "--backends", "search", "--out", str(out)) == 0
    assert "6 runs: 0 new (none), 6 already in" in capsys.readouterr().out
    assert len(read_results(out)) == 6


def test_resume_after_a_killed_sweep(instances: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "search", "bench", str(instances), "--backends",
               "slow=test_harness_fakes:Slow,search", "--tasks", "solve,count",
               "--time-limit", "5", "--out", str(out)]
    sweep = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(read_results(out)) < 2:
        time.sleep(0.05)
    os.killpg(sweep.pid, signal.SIGKILL)  # the sweep and its runs, at once
    sweep.wait()
    before = len(read_results(out))
    assert 2 <= before < 12
    with out.open("a") as sink:  # a line cut short as by a kill mid-write
        sink.write('{"instance": "cut sho')
    assert main(command[3:]) == 0
    records = read_results(out)
    assert Counter(map(run_key, records)).most_common(1)[0][1] == 1  # each run once
    assert len(records) == 12
    lines = out.read_text().splitlines()
    assert len(lines) == 12 + 2  # the cut line was dropped; one header line per sweep
    assert sum(line.startswith('{"sweep": ') for line in lines) == 2


def test_a_run_past_its_limit_is_killed_and_recorded(instances: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    start = time.perf_counter()
    assert main(["bench", str(instances / "a.fut"), "--backends",
                 "sleep=test_harness_fakes:Sleeper,search", "--tasks", "solve",
                 "--time-limit", "0.5", "--grace", "0.5", "--out", str(out)]) == 0
    assert time.perf_counter() - start < 30
    by_backend = {r["backend"]: r for r in read_results(out)}
    assert by_backend["sleep"]["status"] == "LIMIT" and by_backend["sleep"]["killed"]
    assert by_backend["search"]["status"] == "SOLVED"


def test_a_crash_and_a_memory_hog_are_errors_not_the_end(instances: Path,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert bench(str(instances / "a.fut"), "--backends",
                 "crash=test_harness_fakes:Crash,hog=test_harness_fakes:Hog,search",
                 "--tasks", "solve,count", "--memory-limit", "400", "--jobs", "2",
                 "--out", str(out)) == 0
    by_backend = {(r["backend"], r["task"]): r for r in read_results(out)}
    assert set(by_backend) == {("crash", "solve"), ("hog", "count"), ("search", "solve"),
                               ("search", "count")}
    assert by_backend["crash", "solve"]["status"] == "ERROR"
    assert "SIGABRT" in by_backend["crash", "solve"]["message"]
    assert by_backend["hog", "count"]["status"] == "ERROR"
    assert "MemoryError" in by_backend["hog", "count"]["message"]
    assert by_backend["search", "count"]["count"] == 1


def test_bad_usage(instances: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "r.jsonl")
    assert bench(str(instances), "--tasks", "sovle", "--out", out) == 2
    assert bench(str(tmp_path / "nowhere"), "--out", out) == 2
    assert bench(str(instances), "--backends", "nosuch", "--out", out) == 2
    assert not Path(out).exists()


def test_the_sweep_runs_on_a_dask_cluster(instances: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "r.jsonl"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster:
        assert bench(str(instances), "--backends", "search", "--tasks", "count",
                     "--dask", cluster.scheduler_address, "--out", str(out)) == 0
    records = read_results(out)
    assert sorted(r["count"] for r in records) == [0, 1, 4]


def test_records_are_json_lines(instances: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert bench(str(instances / "b.fut"), "--backends", "search", "--tasks", "unique",
                 "--out", str(out)) == 0
    header, line = out.read_text().splitlines()
    assert json.loads(line)["status"] == "MULTIPLE"
    sweep = json.loads(header)["sweep"]
    assert sweep["cores"] >= 1 and sweep["cpu"] and len(sweep["load"]) == 3
    assert sweep["command"].startswith("python -m search bench ")


def test_manifest_rules_run_each_listed_rule_set(tmp_path: Path) -> None:
    from search.registry import kinds

    if "lianliankan" not in {k.name for k in kinds()}:
        pytest.skip("lianliankan is not registered yet")
    folder = tmp_path / "llk"
    folder.mkdir()
    (folder / "ring.llk").write_text("1 2 1 2\n")  # clears only through the border ring
    (folder / "manifest.tsv").write_text("file\ttask\trules\texpected\n"
                                         "ring.llk\tsolve\t\tUNSAT\n"
                                         "ring.llk\tsolve\tborder\tSOLVED\n")
    out = tmp_path / "r.jsonl"
    assert bench(str(folder), "--manifest-rules", "--backends", "search", "--tasks", "solve",
                 "--out", str(out)) == 0
    by_rules = {json.dumps(r["rules"]): r["status"] for r in read_results(out)}
    assert by_rules == {"{}": "UNSAT", '{"border": true}': "SOLVED"}


def test_an_unsupported_run_is_recorded_and_left_out_of_the_report(
        instances: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    assert bench(str(instances / "a.fut"), "--backends", "no=test_harness_fakes:Declines,search",
                 "--tasks", "solve", "--out", str(out)) == 0
    by_backend = {r["backend"]: r for r in read_results(out)}
    assert by_backend["no"]["unsupported"] is True
    assert by_backend["no"]["message"] == "declines does not model these rules"
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    report = capsys.readouterr().out
    assert "## Runs a backend does not support (left out above)" in report
    assert "| a.fut | solve | SOLVED | 0.0" in report.replace(str(instances) + "/", "")
