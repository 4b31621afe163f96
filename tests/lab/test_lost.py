"""Sweeps that survive lost workers: a run killed from outside (SIGKILL, as the
out-of-memory killer does) or a pool worker that dies is recorded lost, the
sweep goes on, bench exits 1 and says how many; a rerun answers the lost runs
and repeats none.  A Dask scheduler or all its workers gone: exit 2 within
seconds, nothing recorded for the runs not finished.  A hard address-space
limit below bench's memory cap: the cap is clamped, the runs answer."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from search.app.cli import main
from search.lab.results import lost, read_results, run_key
from tests.conftest import ROOT
from tests.lab.broken_backends import MARKER_ENV
from tests.lab.test_bench import PUZZLES, TESTS, _start

SOLVE = {"a.fut": "SOLVED", "b.fut": "SOLVED", "c.fut": "UNSAT"}


@pytest.fixture
def instances(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    folder.mkdir()
    for name, (text, _) in PUZZLES.items():
        (folder / name).write_text(text)
    return folder


@pytest.fixture(autouse=True)
def fakes_importable(monkeypatch, tmp_path: Path) -> None:
    """Child runs find tests.lab.broken_backends, and its marker file."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", path)
    monkeypatch.setenv(MARKER_ENV, str(tmp_path / "killed"))


def _answers(out: Path) -> dict[tuple[str, str], str]:
    """(instance file, backend) -> status of each run's last record."""
    last = {run_key(r): r for r in read_results(out)}
    return {(Path(r["instance"]).name, r["backend"]): r["status"] for r in last.values()}


@pytest.mark.parametrize("backend, reason", [
    ("KilledOnce", "its process was killed by SIGKILL from outside"),
    ("KillsItsWorkerOnce", "the pool worker running it"),
])
def test_a_lost_run_is_recorded_and_retried(instances: Path, tmp_path: Path, capsys,
                                            backend: str, reason: str) -> None:
    out = tmp_path / "r.jsonl"
    args = ["bench", str(instances), "--backends", f"k=tests.lab.broken_backends:{backend},search",
            "--tasks", "solve", "--jobs", "2", "--time-limit", "20", "--out", str(out)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "gridcp: 6 runs, 1 lost (run the same command again to retry them)" in err
    records = read_results(out)
    assert len(records) == 6
    (gone,) = [r for r in records if lost(r)]
    assert gone["backend"] == "k" and gone["status"] == "ERROR" and reason in gone["message"]
    answered = {(Path(r["instance"]).name, r["backend"]): r["status"]
                for r in records if not lost(r)}
    expected = {(name, b): status for name, status in SOLVE.items() for b in ("k", "search")}
    assert answered == {k: v for k, v in expected.items()
                        if k != (Path(gone["instance"]).name, "k")}
    assert main(args) == 0  # the rerun answers the lost run, and only it
    assert "6 runs: 1 new (1 SOLVED" in capsys.readouterr().out
    assert _answers(out) == expected
    records = read_results(out)
    assert len(records) == 7
    assert Counter(run_key(r) for r in records if not lost(r)).most_common(1)[0][1] == 1


def test_retry_errors_is_needed_only_for_the_instances_own_errors(instances: Path,
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    args = ["bench", str(instances / "a.fut"), "--backends",
            "crash=tests.lab.broken_backends:Crash", "--tasks", "solve", "--out", str(out)]
    assert main(args) == 1
    assert main(args) == 1
    assert len(read_results(out)) == 1  # an ERROR of its own is settled
    assert main([*args, "--retry-errors"]) == 1
    assert len(read_results(out)) == 2


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_AS"), reason="needs RLIMIT_AS")
def test_a_hard_address_space_limit_below_the_cap(instances: Path, tmp_path: Path) -> None:
    """Under ``ulimit -v`` of 3 GB, below bench's 4 GB default cap, every run answers."""
    hard = 3 * 1024 ** 3

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))

    out = tmp_path / "r.jsonl"
    done = subprocess.run([sys.executable, "-m", "search", "bench", str(instances),
                           "--backends", "search,cpsat", "--tasks", "solve", "--jobs", "2",
                           "--time-limit", "20", "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, preexec_fn=limit, timeout=300)
    assert done.returncode == 0, done.stderr
    assert _answers(out) == {(n, b): s for n, s in SOLVE.items() for b in ("search", "cpsat")}


# ---------------------------------------------------------------- Dask


@contextlib.contextmanager
def _cluster(tmp_path: Path):
    """A Dask scheduler and one worker on 127.0.0.1, as processes of their own."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]))
    address_file = tmp_path / "scheduler.json"
    scheduler = _start([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                        "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
                        str(address_file)], tmp_path, tmp_path / "scheduler.log", env)
    started = [scheduler]
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not address_file.exists():
            time.sleep(0.1)
        time.sleep(0.2)
        address = json.loads(address_file.read_text())["address"]
        started.append(_start([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
                               "--host", "127.0.0.1"], tmp_path, tmp_path / "worker.log", env))
        yield address, scheduler, started[1]
    finally:
        for process in reversed(started):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.mark.parametrize("gone", ["scheduler", "worker"])
def test_a_dask_cluster_gone_mid_sweep_is_exit_2_within_seconds(instances: Path,
                                                                 tmp_path: Path,
                                                                 gone: str) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "r.jsonl"
    with _cluster(tmp_path) as (address, scheduler, worker):
        sweep = subprocess.Popen(
            [sys.executable, "-m", "search", "bench", str(instances), "--backends",
             "slow=tests.lab.broken_backends:Slow", "--tasks", "solve,count", "--dask",
             address, "--time-limit", "20", "--out", str(out)], cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)])),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and len(read_results(out)) < 1:
                time.sleep(0.05)
            assert read_results(out), sweep.stderr.read() if sweep.poll() is not None else ""
            os.killpg((scheduler if gone == "scheduler" else worker).pid, signal.SIGKILL)
            _, err = sweep.communicate(timeout=120)  # a guard against a hang, not a timing
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(sweep.pid, signal.SIGKILL)
    assert sweep.returncode == 2, err
    what = "lost the Dask scheduler" if gone == "scheduler" else "has no worker for 5 s"
    assert f"{what}" in err and "the sweep stops" in err
    said = [line for line in err.splitlines() if not line.startswith("bench: ")]
    assert len(said) == 1 and "Traceback" not in err, err
    records = read_results(out)
    assert 1 <= len(records) < 6 and not any(r["status"] == "ERROR" for r in records)


def test_appending_keeps_a_whole_last_record_and_cuts_a_partial_one(tmp_path: Path) -> None:
    from search.lab.results import appending

    whole = {"instance": "a", "backend": "b", "task": "solve", "puzzle": "futoshiki",
             "set": "s", "status": "SOLVED", "wall": 0.1, "time_limit": 10}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(whole))  # no end of line: a file edited by hand
    with appending(path) as write:
        write(dict(whole, instance="c"))
    assert [r["instance"] for r in read_results(path)] == ["a", "c"]
    path.write_text(json.dumps(whole) + "\n" + json.dumps(whole)[:30])  # a kill mid-write
    with appending(path) as write:
        write(dict(whole, instance="c"))
    assert [r["instance"] for r in read_results(path)] == ["a", "c"]


def test_bench_refuses_a_file_that_is_not_a_results_file(instances: Path, tmp_path: Path,
                                                          capsys) -> None:
    out = tmp_path / "notes.txt"
    out.write_text("my notes\nline two\n")
    assert main(["bench", str(instances / "a.fut"), "--backends", "search", "--tasks", "solve",
                 "--out", str(out)]) == 2
    assert f"{out}:1: not a JSON record" in capsys.readouterr().err
    assert out.read_text() == "my notes\nline two\n"
