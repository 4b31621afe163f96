"""``gridcp bench``: sweeps of instance x backend x task, one process per run,
one JSON line per finished run, resumable.

The runs go to a ``concurrent.futures.Executor``: a local process pool, or a
Dask distributed cluster (``--dask tcp://HOST:8786``, the ``dist`` extra).
Either way the unit of work is ``run_isolated(spec) -> record``, plain dicts
in and out: it starts ``python -m search.sweep_child`` with a memory cap,
kills it at the time limit plus a grace, and turns a crash into an ERROR
record instead of the end of the sweep.  Only this process writes the
results file, one line per finished run, so an interrupted sweep loses at
most the runs in flight; rerunning with the same ``--out`` skips the runs
already there.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import datetime
import functools
import json
import multiprocessing
import os
import platform
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from search.arguments import USAGE, YES, add_comparison_command, at_least, positive
from search.core import GridcpError, Status
from search.harness import load_instances, tasks_of, with_backends
from search.manifest import listed_rules
from search.outputs import out_file

ROOT = Path(__file__).resolve().parent.parent  # the folder that holds the package
DEFAULT_TIME_LIMIT = 10.0
DEFAULT_MEMORY_MB = 4096
DEFAULT_GRACE = 5.0  # seconds past the time limit before a run is killed
RUN_FIELDS = ("instance", "backend", "task", "rules")  # what makes two runs the same
RECORD_FIELDS = ("instance", "set", "puzzle", "size", "backend", "task", "rules", "time_limit",
                 "memory_limit")  # copied from the run's spec into its record


# ---------------------------------------------------------------- one run


def run_key(record: dict[str, Any]) -> tuple[str, ...]:
    return (record["instance"], record["backend"], record["task"],
            json.dumps(record.get("rules") or {}, sort_keys=True))


def run_isolated(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one spec in a fresh child process; always return a record, never raise."""
    grace = spec.get("grace", DEFAULT_GRACE)
    child = {k: spec[k] for k in ("path", "puzzle", "backend", "backend_path", "task", "rules",
                                  "time_limit", "memory_limit") if k in spec}
    child["instance"] = child.pop("path")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    record = {k: spec[k] for k in RECORD_FIELDS}
    start = time.perf_counter()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "search.sweep_child"], cwd=ROOT,
                                env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
    except OSError as error:  # no process to be had (too many, no memory): this run fails
        return {**record, "run_wall": 0.0, "status": str(Status.ERROR), "wall": 0.0,
                "message": f"cannot start the run: {error}", **_where()}
    try:
        out, err = proc.communicate(json.dumps(child), timeout=spec["time_limit"] + grace)
        killed = False
    except subprocess.TimeoutExpired:
        _kill(proc)
        out, err = proc.communicate()
        killed = True
    finally:
        if proc.poll() is None:  # interrupted while waiting: take the child down too
            _kill(proc)
    record["run_wall"] = round(time.perf_counter() - start, 6)
    record.update(_result(proc.returncode, out, err, killed, spec["time_limit"] + grace))
    record.update(_where())
    return record


def _where() -> dict[str, Any]:
    return {"versions": versions(), "host": socket.gethostname(),
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}


def _kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _result(code: int, out: str, err: str, killed: bool, after: float) -> dict[str, Any]:
    """The child's answer, or the reason there is none."""
    if killed:
        return {"status": str(Status.LIMIT), "wall": round(after, 6), "killed": True,
                "message": f"killed after {after:g} s (the time limit and the grace)"}
    last = out.strip().splitlines()[-1] if out.strip() else ""
    if code == 0 and last.startswith("{"):
        with contextlib.suppress(json.JSONDecodeError):
            answer = json.loads(last)
            answer.pop("backend", None)
            answer.pop("task", None)
            return answer
    why = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
    tail = err.strip().splitlines()[-1] if err.strip() else "no message"
    return {"status": str(Status.ERROR), "wall": 0.0, "message": f"{why}: {tail}"}


@functools.lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """gridcp, Python and OR-Tools versions where the run was made."""
    from importlib import metadata

    out = {"python": platform.python_version()}
    for name in ("gridcp", "ortools"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            if name == "gridcp":
                out[name] = _own_version()
    return out


def _own_version() -> str:
    import tomllib

    with contextlib.suppress(OSError, KeyError, tomllib.TOMLDecodeError):
        return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    return "unknown"


# ---------------------------------------------------------------- the plan


def plan(paths: list[str], *, puzzle: str | None, backends: list[str] | None,
         tasks: list[str], rules: dict[str, Any], time_limit: float, memory_limit: float,
         grace: float, manifest_rules: bool = False) -> list[dict[str, Any]]:
    """Every run of the sweep, in a stable order: instance, rules, backend, task.

    ``rules`` may hold any options; each puzzle takes the rule variants it has.
    With ``manifest_rules`` an instance listed in a ``manifest.tsv`` (in its
    folder or above) runs under each rule set listed for it instead.
    """
    specs = []
    for path, kind_, parsed in load_instances(paths, puzzle):
        registered = kind_.backends
        kind_, names = with_backends(kind_, backends)
        own = {o.dest: rules[o.dest] for o in kind_.options
               if rules.get(o.dest) not in (None, False, o.kwargs.get("default"))}
        listed = listed_rules(path, kind_) if manifest_rules else []
        size = kind_.call("describe", parsed) if kind_.describe else ""
        name = _shown(path)
        for chosen in listed or [own]:
            for backend in names:
                offered = tasks_of(kind_, backend)
                for task in tasks:
                    if task not in offered:
                        continue
                    spec = {"instance": name, "path": str(path.resolve()),
                            "set": str(Path(name).parent), "puzzle": kind_.name,
                            "size": size, "backend": backend, "task": task, "rules": chosen,
                            "time_limit": time_limit, "memory_limit": memory_limit,
                            "grace": grace}
                    if backend not in registered:  # given as NAME=package.module:Class
                        spec["backend_path"] = kind_.backends[backend]
                    specs.append(spec)
    return specs


def _shown(path: Path) -> str:
    """A path as records name it: relative to here when below, else absolute."""
    resolved = path.resolve()
    with contextlib.suppress(ValueError):
        return str(resolved.relative_to(Path.cwd().resolve()))
    return str(resolved)


def read_results(out: Path) -> list[dict[str, Any]]:
    """The records of a results file; a line cut short by an interruption is dropped."""
    if not out.exists():
        return []
    records = []
    for line in out.read_text().splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            record = json.loads(line)
            if isinstance(record, dict) and all(k in record for k in RUN_FIELDS[:3]):
                records.append(record)
    return records


def _trim_partial_line(out: Path) -> None:
    """Cut a last line left unfinished by a kill, so the next record starts clean."""
    if not out.exists() or out.stat().st_size == 0:
        return
    data = out.read_bytes()
    if not data.endswith(b"\n"):
        out.write_bytes(data[: data.rfind(b"\n") + 1])


# ---------------------------------------------------------------- the sweep


class Progress:
    """done / total, failures, elapsed and the time left, on one stderr line."""

    def __init__(self, total: int, skipped: int, stream: Any = sys.stderr):
        self.total, self.done, self.skipped = total, skipped, skipped
        self.errors = self.limits = 0
        self.start = time.perf_counter()
        self.stream = stream
        self.tty = stream.isatty()

    def count(self, record: dict[str, Any]) -> None:
        self.errors += record["status"] == "ERROR" and not record.get("unsupported")
        self.limits += record["status"] == "LIMIT"

    def update(self, record: dict[str, Any]) -> None:
        self.done += 1
        self.count(record)
        self.show()

    def show(self, final: bool = False) -> None:
        elapsed = time.perf_counter() - self.start
        new = self.done - self.skipped
        left = (self.total - self.done) * elapsed / new if new else None
        line = (f"bench: {self.done}/{self.total} done, {self.errors} failed, "
                f"{self.limits} at the limit, {_clock(elapsed)} elapsed"
                + (f", ~{_clock(left)} left" if left is not None and not final else ""))
        if self.tty:
            print("\r" + line + ("\n" if final else ""), end="", file=self.stream, flush=True)
        else:
            print(line, file=self.stream, flush=True)


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def sweep(specs: list[dict[str, Any]], out: Path, executor: cf.Executor,
          progress: Progress | None = None) -> Iterator[dict[str, Any]]:
    """Run the specs not yet in ``out``, appending each record as it finishes."""
    _trim_partial_line(out)
    wanted = {run_key(s) for s in specs}
    done = {run_key(r): r for r in read_results(out) if run_key(r) in wanted}
    todo = [s for s in specs if run_key(s) not in done]
    if progress is None:
        progress = Progress(len(specs), len(done))
        for record in done.values():
            progress.count(record)
    progress.show()
    out.parent.mkdir(parents=True, exist_ok=True)
    futures = {executor.submit(run_isolated, spec): spec for spec in todo}
    try:
        with out.open("a") as sink:
            for future in cf.as_completed(futures):
                try:
                    record = future.result()
                except Exception as error:  # the worker itself was lost (a Dask node, ...)
                    record = _lost(futures[future], error)
                sink.write(json.dumps(record) + "\n")
                sink.flush()
                progress.update(record)
                yield record
    finally:
        for future in futures:
            future.cancel()
    progress.show(final=True)


def _lost(spec: dict[str, Any], error: Exception) -> dict[str, Any]:
    return {**{k: spec[k] for k in RECORD_FIELDS}, "run_wall": 0.0,
            "status": str(Status.ERROR), "wall": 0.0,
            "message": f"the worker running it was lost: {type(error).__name__}: {error}",
            **_where()}


@contextlib.contextmanager
def make_executor(jobs: int, dask: str | None) -> Iterator[cf.Executor]:
    if dask is None:
        # Spawned, not forked: this process may hold OR-Tools' native threads.
        spawn = multiprocessing.get_context("spawn")
        with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=spawn) as pool:
            yield pool
        return
    try:
        from distributed import Client
    except ImportError:
        raise GridcpError("--dask needs the dist extra: pip install 'gridcp[dist]'") from None
    try:
        client = Client(dask, timeout=30)
    except (OSError, TimeoutError, ValueError) as error:
        raise GridcpError(f"cannot reach the Dask scheduler at {dask}: {error}") from None
    with client:
        yield client.get_executor(pure=False)


# ---------------------------------------------------------------- the command


def add_commands(commands: argparse._SubParsersAction) -> None:

    sub = add_comparison_command(
        commands, "bench", "run a sweep of instances x backends x tasks, one process per run",
        "Exit codes: 0 the sweep completed (ERROR runs are recorded, not fatal), 2 bad usage.",
        "+", run_bench, DEFAULT_TIME_LIMIT)
    sub.add_argument("--tasks", default="solve,count",
                     help="comma-separated, from solve, count, unique (default: solve,count)")
    sub.add_argument("--memory-limit", type=at_least(0, float), default=DEFAULT_MEMORY_MB,
                     metavar="MB",
                     help=f"address space per run (default {DEFAULT_MEMORY_MB}; 0: none)")
    sub.add_argument("--grace", type=at_least(0, float), default=DEFAULT_GRACE, metavar="S",
                     help=f"kill a run this long after its time limit (default {DEFAULT_GRACE:g})")
    sub.add_argument("--jobs", "-j", type=positive(int), default=1, help="runs at once (default 1)")
    sub.add_argument("--dask", metavar="ADDRESS",
                     help="send the runs to a Dask scheduler, e.g. tcp://HOST:8786")
    sub.add_argument("--out", "-o", default="results.jsonl",
                     help="results file, appended to and resumed (default results.jsonl)")


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """A plain ``kill`` stops the sweep as Ctrl-C does: runs in flight are dropped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_bench(args: argparse.Namespace) -> int:
    from search.harness import TASKS

    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    unknown = [t for t in tasks if t not in TASKS]
    if unknown or not tasks:
        raise GridcpError(f"unknown task {', '.join(unknown)!r} (known: {', '.join(TASKS)})")
    if args.jobs < 1 or args.time_limit is None or args.time_limit <= 0:
        raise GridcpError("--jobs and --time-limit must be positive")
    missing = [d for d in args.files if not Path(d).exists()]
    if missing:
        raise GridcpError(f"no such file or folder: {', '.join(missing)}")
    backends = [b.strip() for b in args.backends.split(",")] if args.backends else None
    specs = plan(args.files, puzzle=args.puzzle, backends=backends, tasks=tasks,
                 rules=vars(args), time_limit=args.time_limit,
                 memory_limit=args.memory_limit, grace=args.grace,
                 manifest_rules=args.manifest_rules)
    if not specs:
        print("gridcp: nothing to run (no instance, or no backend offers those tasks)",
              file=sys.stderr)
        return USAGE
    out = out_file(args.out)
    records = []
    with _terminate_as_interrupt(), make_executor(args.jobs, args.dask) as executor:
        for record in sweep(specs, out, executor):
            records.append(record)
            if args.json:  # the records also on stdout, as they are written
                print(json.dumps(record), flush=True)
    statuses: dict[str, int] = {}
    for record in records:
        word = "unsupported" if record.get("unsupported") else record["status"]
        statuses[word] = statuses.get(word, 0) + 1
    counts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
    print(f"{len(specs)} runs: {len(records)} new ({counts or 'none'}), "
          f"{len(specs) - len(records)} already in {out}")
    return YES
