"""gridcp bench: tiny sweeps; resume after a killed sweep, and retry the runs
that hit a smaller limit or failed; a run past its time limit, a crash and a
memory hog each recorded without ending the sweep; no run outlives a killed
sweep; the same sweep on a Dask scheduler and worker of their own, and a
clear error when the scheduler cannot be reached."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from search.app.cli import main
from search.lab.results import read_results, run_key
from tests.conftest import ROOT

TESTS = Path(__file__).resolve().parents[2]  # children import tests.lab.broken_backends
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
    """Child runs find the fake backends of tests.lab.broken_backends.py."""
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
    for r in records:  # the task's CPU seconds, within those of its whole process
        assert 0 <= r["cpu_time"] <= r["run_cpu_time"] and r["run_cpu_time"] > 0
    assert "6 runs: 6 new" in capsys.readouterr().out
    assert bench(str(instances), "--backends", "search", "--out", str(out)) == 0
    assert "6 runs: 0 new (none), 6 already in" in capsys.readouterr().out
    assert len(read_results(out)) == 6


def test_resume_after_a_killed_sweep(instances: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "search", "bench", str(instances), "--backends",
               "slow=tests.lab.broken_backends:Slow,search", "--tasks", "solve,count",
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
                 "sleep=tests.lab.broken_backends:Sleeper,search", "--tasks", "solve",
                 "--time-limit", "0.5", "--grace", "0.5", "--out", str(out)]) == 0
    assert time.perf_counter() - start < 30
    by_backend = {r["backend"]: r for r in read_results(out)}
    assert by_backend["sleep"]["status"] == "LIMIT" and by_backend["sleep"]["killed"]
    assert by_backend["search"]["status"] == "SOLVED"


def test_a_crash_and_a_memory_hog_are_errors_not_the_end(instances: Path,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert bench(str(instances / "a.fut"), "--backends",
                 "crash=tests.lab.broken_backends:Crash,hog=tests.lab.broken_backends:Hog,search",
                 "--tasks", "solve,count", "--memory-limit", "400", "--jobs", "2",
                 "--out", str(out)) == 1  # two runs ERROR
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
    from search.core.registry import kinds

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
    assert bench(str(instances / "a.fut"),
                 "--backends", "no=tests.lab.broken_backends:Declines,search",
                 "--tasks", "solve", "--out", str(out)) == 0
    by_backend = {r["backend"]: r for r in read_results(out)}
    assert by_backend["no"]["unsupported"] is True
    assert by_backend["no"]["message"] == "declines does not model these rules"
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    report = capsys.readouterr().out
    assert "## Runs a backend does not support (left out above)" in report
    assert "| a.fut | solve | SOLVED | 0.0" in report.replace(str(instances) + "/", "")


# ---------------------------------------------------------------- sweeps that clean up


def test_a_rerun_retries_smaller_limits_and_with_retry_errors_the_errors(
        instances: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    assert bench(str(instances / "a.fut"), "--backends", "search", "--tasks", "solve,count",
                 "--out", str(out)) == 0
    old = {r["task"]: r for r in read_results(out)}
    # as if solve had stopped at a 1 s limit and count had failed
    old["solve"].update(status="LIMIT", time_limit=1.0)
    old["count"].update(status="ERROR", message="killed by SIGKILL")
    out.write_text("".join(json.dumps(r) + "\n" for r in old.values()))
    capsys.readouterr()
    assert bench(str(instances / "a.fut"), "--backends", "search", "--tasks", "solve,count",
                 "--out", str(out)) == 1  # a 5 s limit now: solve again, not count
    assert "2 runs: 1 new (1 SOLVED), 1 already in" in capsys.readouterr().out
    assert main(["bench", str(instances / "a.fut"), "--backends", "search", "--tasks",
                 "solve,count", "--out", str(out), "--time-limit", "1"]) == 1  # count: ERROR
    assert "2 runs: 0 new (none), 2 already in" in capsys.readouterr().out
    assert bench(str(instances / "a.fut"), "--backends", "search", "--tasks", "solve,count",
                 "--out", str(out), "--retry-errors") == 0
    assert "2 runs: 1 new (1 COUNTED), 1 already in" in capsys.readouterr().out
    from search.lab.report import latest

    assert {r["task"]: r["status"] for r in latest(read_results(out))} == {
        "solve": "SOLVED", "count": "COUNTED"}


def test_an_unreachable_dask_scheduler_is_an_error_within_seconds(
        instances: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    pytest.importorskip("distributed")
    import search.lab.bench

    monkeypatch.setattr(search.lab.bench, "DASK_TIMEOUT", 1.0)  # 5 s by default
    start = time.monotonic()
    assert bench(str(instances / "a.fut"), "--backends", "search", "--dask",
                 "tcp://127.0.0.1:1", "--out", str(tmp_path / "r.jsonl")) == 2
    assert time.monotonic() - start < 15  # a loaded machine is slow to start the client
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1 within 1 s" in \
        capsys.readouterr().err


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_no_run_outlives_a_killed_sweep(instances: Path, tmp_path: Path, how: int) -> None:
    """SIGKILL: the kernel takes the workers and the runs down with the sweep.
    SIGTERM (or Ctrl-C): the sweep stops at once, without waiting for its runs (exit 143)."""
    command = [sys.executable, "-m", "search", "bench", str(instances / "a.fut"),
               str(instances / "b.fut"), "--backends", "sleep=tests.lab.broken_backends:Sleeper",
               "--tasks", "solve", "--jobs", "2", "--time-limit", "60",
               "--out", str(tmp_path / "r.jsonl")]
    sweep = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    below: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        runs: list[int] = []
        while time.monotonic() < deadline:  # two pool workers, each running a run
            below = _descendants(sweep.pid)
            runs = [p for p in below if b"search.lab.sweep_child" in _cmdline(p)]
            if len(runs) == 2:
                break
            time.sleep(0.1)
        assert len(runs) == 2, "the runs did not start"
        os.kill(sweep.pid, how)  # the sweep alone, not its process group
        assert sweep.wait(timeout=20) == (-signal.SIGKILL if how == signal.SIGKILL else 143)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(map(_alive, below)):
            time.sleep(0.1)
        assert not [p for p in below if _alive(p)]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(sweep.pid, signal.SIGKILL)
        for pid in below:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _start(command: list[str], cwd: Path, log: Path, env: dict[str, str] | None = None
           ) -> subprocess.Popen:
    with log.open("w") as sink:
        return subprocess.Popen(command, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)


def test_the_sweep_runs_on_a_separate_scheduler_and_worker(instances: Path,
                                                           tmp_path: Path) -> None:
    """`dask scheduler` and `dask worker` as processes of their own, the worker in
    another folder, on 127.0.0.1; the instance files are gone before the runs start:
    each run carries its instance's text."""
    pytest.importorskip("distributed")
    from search.lab.bench import make_runner, plan, sweep

    elsewhere = tmp_path / "worker"
    elsewhere.mkdir()
    address_file = tmp_path / "scheduler.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]))
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    started = [_start([*dask, "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                       "--scheduler-file", str(address_file)], tmp_path,
                      tmp_path / "scheduler.log", env)]  # it unpickles the runs: gridcp too
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not address_file.exists():
            time.sleep(0.1)
        assert address_file.exists(), (tmp_path / "scheduler.log").read_text()
        time.sleep(0.2)  # the file is written in one go, but give it a moment
        address = json.loads(address_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        started.append(_start([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nworkers", "1", "--nthreads", "2", "--no-dashboard",
                               "--host", "127.0.0.1", "--local-directory", str(elsewhere)],
                              elsewhere, tmp_path / "worker.log", env))
        specs = plan([str(instances)], puzzle=None, backends=["search"], tasks=["count"],
                     rules={}, time_limit=5, memory_limit=0, grace=5)
        for file in instances.iterdir():
            file.unlink()
        out = tmp_path / "r.jsonl"
        with make_runner(1, address) as runner:
            runner.wait_for_workers(1, timeout=60)
            records = list(sweep(specs, out, runner))
        assert sorted(r.get("count", -1) for r in records) == [0, 1, 4], records
    finally:
        for process in reversed(started):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def test_a_backend_name_no_puzzle_has_is_named(instances: Path, tmp_path: Path, capsys) -> None:
    assert bench(str(instances / "a.fut"), "--backends", "serach,propagate",
                 "--out", str(tmp_path / "r.jsonl")) == 2
    err = capsys.readouterr().err  # was: "nothing to run", the typo unnamed
    assert "unknown backend serach (known: " in err and "propagate" in err
