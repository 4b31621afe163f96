"""``gridcp bench``: sweeps of instance x backend x task, one process per run,
one JSON line per finished run, resumable; ``--suite NAME`` runs a benchmark
suite (``search.lab.suites``), ``--report DIR`` writes its tables and plots.

The runs go to a ``concurrent.futures.Executor``: a local process pool, or a
Dask distributed cluster (``--dask tcp://HOST:8786``, the ``dist`` extra).
Either way the unit of work is ``run_isolated(spec) -> record``, plain dicts
in and out: it starts ``python -m search.lab.sweep_child`` with a memory cap,
kills it at the time limit plus a grace, and turns a crash into an ERROR
record instead of the end of the sweep.  A run killed from outside (the
out-of-memory killer's SIGKILL), or whose worker died, is recorded *lost*
(``search.lab.results``) and the sweep goes on on a new pool.  Only this
process writes the results file (through ``search.lab.results``), one line
per finished run, so an interrupted sweep loses at most the runs in flight;
rerunning with the same ``--out`` skips the runs already there, except lost
runs, runs that hit a smaller time limit than the one asked now and, with
``--retry-errors``, the runs that failed.  Each run carries
its instance's text, not its path, so that a Dask worker on another machine
can run it; the pool's workers and each run die with the sweep (a parent-death
signal), so a killed sweep leaves no process behind.  The file starts each
sweep with a ``{"sweep": ...}`` line: the command and the machine (CPU model,
cores, load average at the start).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import dataclasses
import datetime
import functools
import json
import multiprocessing
import os
import platform
import shlex
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from search.app.arguments import (
    NO,
    USAGE,
    YES,
    Interrupted,
    add_comparison_command,
    at_least,
    positive,
    version,
)
from search.app.manifest import listed_rules, with_defaults
from search.core.contract import GridcpError, Status
from search.core.outputs import out_dir, out_file
from search.core.processes import PARENT_ENV, Finished, die_with_parent, run_child
from search.core.registry import PuzzleKind, kinds, load, read_text
from search.lab.crosscheck import TASKS, load_instances, with_backends
from search.lab.peers import PEERS, locate
from search.lab.report import write_report
from search.lab.results import (
    Record,
    appending,
    failed,
    lost,
    read_results,
    run_key,
    settled,
)
from search.lab.suites import Instance, available, instances, load_suite

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds the package
DEFAULT_TIME_LIMIT = 10.0
DEFAULT_MEMORY_MB = 4096
DEFAULT_GRACE = 5.0  # seconds past the time limit before a run is killed
DASK_TIMEOUT = 5.0  # seconds to reach a Dask scheduler, or to miss it or its workers
POLL = 0.5  # seconds between looks at the executor's health while runs are in flight
JOIN = 5.0  # seconds to wait for a broken pool's workers to be gone
RECORD_FIELDS = ("instance", "set", "puzzle", "size", "backend", "task", "rules", "time_limit",
                 "memory_limit")  # copied from the run's spec into its record
CHILD_FIELDS = ("instance", "text", "puzzle", "backend", "engine", "backend_path", "options",
                "peer", "task", "rules", "time_limit", "memory_limit")  # what the run needs
# Signals that come from outside a run (the kernel's out-of-memory killer sends
# SIGKILL): the run is lost, not answered.  A crash of its own (SIGSEGV,
# SIGABRT, ...) is the instance's ERROR.
FROM_OUTSIDE = {signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP}


# ---------------------------------------------------------------- one run


def run_isolated(spec: dict[str, Any]) -> Record:
    """Run one spec in a fresh child process; always return a record, never raise."""
    grace = spec.get("grace", DEFAULT_GRACE)
    child = {k: spec[k] for k in CHILD_FIELDS if k in spec}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env[PARENT_ENV] = str(os.getpid())  # the run dies with this process
    record = {k: spec[k] for k in RECORD_FIELDS}
    record.update({k: spec[k] for k in ("expected",) if k in spec})
    try:
        finished = run_child([sys.executable, "-m", "search.lab.sweep_child"], json.dumps(child),
                             spec["time_limit"] + grace, cwd=str(ROOT), env=env)
    except OSError as error:  # no process to be had (too many, no memory): lost, not answered
        return {**record, "run_wall": 0.0, "status": str(Status.ERROR), "wall": 0.0,
                "lost": True, "message": f"cannot start the run: {error}", **_where()}
    record["run_wall"] = round(finished.wall, 6)
    record["run_cpu_time"] = round(finished.cpu, 6)
    record.update(_result(finished, spec["time_limit"] + grace))
    record.setdefault("peak_mib", finished.peak_mib)
    record.update(_where())
    return record


def _where() -> dict[str, Any]:
    return {"versions": versions(), "host": socket.gethostname(), **cpu(),
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}


@functools.lru_cache(maxsize=1)
def cpu() -> dict[str, Any]:
    """The processor model and the number of cores of this machine."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    return {"cpu": model, "cores": os.cpu_count()}


def machine() -> dict[str, Any]:
    """Where a sweep runs, with the load average at its start (other jobs' share)."""
    load = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    return {"host": socket.gethostname(), **cpu(), "load": load, "versions": versions(),
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}


def _result(finished: Finished, after: float) -> Record:
    """The child's answer, or the reason there is none."""
    if finished.killed:
        return {"status": str(Status.LIMIT), "wall": round(after, 6), "killed": True,
                "message": f"killed after {after:g} s (the time limit and the grace)"}
    out = finished.out.strip()
    last = out.splitlines()[-1] if out else ""
    if finished.code == 0 and last.startswith("{"):
        with contextlib.suppress(json.JSONDecodeError):
            answer = json.loads(last)
            answer.pop("backend", None)
            answer.pop("task", None)
            return answer
    err = finished.err.strip()
    tail = err.splitlines()[-1] if err else "no message"
    if finished.code < 0 and -finished.code in FROM_OUTSIDE:
        return {"status": str(Status.ERROR), "wall": 0.0, "lost": True,
                "message": f"lost: its process was {finished.why()} from outside (the "
                           "kernel's out-of-memory killer, or a kill)"}
    return {"status": str(Status.ERROR), "wall": 0.0, "message": f"{finished.why()}: {tail}"}


@functools.lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """gridcp, Python and OR-Tools versions where the run was made."""
    from importlib import metadata  # 20 ms that no other command than bench should pay

    out = {"python": platform.python_version()}
    out["gridcp"] = version()
    with contextlib.suppress(metadata.PackageNotFoundError):
        out["ortools"] = metadata.version("ortools")
    return out


# ---------------------------------------------------------------- the plan


@dataclasses.dataclass(frozen=True)
class Choice:
    """A backend of a sweep: a registered engine (with options), or a peer tool."""

    name: str  # as records name it
    engine: str = ""  # the registered backend it runs ("" for a peer)
    options: tuple[tuple[str, Any], ...] = ()
    peer: tuple[tuple[str, str], ...] = ()  # name and command of a peer tool

    def offers(self, kind_: PuzzleKind, task: str) -> bool:
        if self.peer:
            adapter = PEERS[dict(self.peer)["name"]]
            return adapter.puzzle == kind_.name and task in adapter.calls
        return task in load(kind_.backends[self.engine]).calls


def choices(kind_: PuzzleKind, entries: list[Any] | None, peers: dict[str, str],
            skipped: dict[str, str]) -> tuple[PuzzleKind, list[Choice]]:
    """The backends a list names for this puzzle: names, ``NAME=module:Class``,
    peers (an absent one goes to ``skipped`` with the reason) and variants
    ``{name, backend, options}``; names the puzzle lacks are left out."""
    if entries is None:
        return kind_, [Choice(name, name) for name in kind_.backends]
    plain = [e for e in entries if isinstance(e, str) and e.split("=")[0] not in PEERS]
    kind_, names = with_backends(kind_, plain)
    out = []
    for entry in entries:
        if isinstance(entry, dict):
            unknown = set(entry) - {"name", "backend", "options"}
            if unknown or "name" not in entry or "backend" not in entry:
                raise GridcpError(f"a backend variant is {{name, backend, options}}, "
                                  f"found {entry}")
            if entry["backend"] in kind_.backends:
                out.append(Choice(entry["name"], entry["backend"],
                                  tuple(sorted(entry.get("options", {}).items()))))
        elif entry in PEERS:
            if PEERS[entry].puzzle != kind_.name:
                continue
            command, why = locate(entry, peers.get(entry))
            if command is None:
                skipped[entry] = why
                continue
            out.append(Choice(entry, peer=(("name", entry), ("command", command))))
        else:
            name = entry.split("=", 1)[0]
            if name in names:
                out.append(Choice(name, name))
    return kind_, out


def specs_for(instance: Any, kind_: PuzzleKind, backends: list[Choice], tasks: list[str],
              rules: list[dict[str, Any]], limits: dict[str, float],
              registered: Any) -> list[dict[str, Any]]:
    """The runs of one instance: rules, backend, task, in this order."""
    size = kind_.call("describe", instance.puzzle) if kind_.describe else ""
    # each puzzle's own rules, a rule at its default left out: {border = false} is {}
    own, default = {o.dest for o in kind_.options}, with_defaults(kind_, {})
    variants: list[dict[str, Any]] = []
    for chosen in rules:
        picked = {k: v for k, v in chosen.items() if k in own and v != default.get(k)}
        if picked not in variants:
            variants.append(picked)
    specs = []
    for picked in variants:
        for choice in backends:
            for task in tasks:
                if not choice.offers(kind_, task):
                    continue
                spec = {"instance": instance.name, "text": instance.text, "set": instance.set,
                        "puzzle": kind_.name, "size": size, "backend": choice.name,
                        "task": task, "rules": picked, **limits}
                if choice.peer:
                    spec["peer"] = dict(choice.peer)
                else:
                    if choice.engine != choice.name or choice.options:
                        spec["engine"], spec["options"] = choice.engine, dict(choice.options)
                    if choice.engine not in registered:  # given as NAME=package.module:Class
                        spec["backend_path"] = kind_.backends[choice.engine]
                known = instance.known(task, picked)
                if known is not None:
                    spec["expected"] = known
                specs.append(spec)
    return specs


def plan(paths: list[str], *, puzzle: str | None, backends: list[str] | None,
         tasks: list[str], rules: dict[str, Any], time_limit: float, memory_limit: float,
         grace: float, manifest_rules: bool = False,
         skipped: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every run of a sweep over files, in a stable order: instance, rules, backend, task.

    ``rules`` may hold any options; each puzzle takes the rule variants it has.
    With ``manifest_rules`` an instance listed in a ``manifest.tsv`` (in its
    folder or above) runs under each rule set listed for it instead.  Peers
    that are not found go to ``skipped`` with the reason.
    """
    skipped = {} if skipped is None else skipped
    limits = {"time_limit": time_limit, "memory_limit": memory_limit, "grace": grace}
    specs: list[dict[str, Any]] = []
    for path, kind_, parsed in load_instances(paths, puzzle):
        registered = kind_.backends
        kind_, chosen = choices(kind_, backends, {}, skipped)
        own = {o.dest: rules[o.dest] for o in kind_.options
               if rules.get(o.dest) not in (None, False, o.kwargs.get("default"))}
        listed = listed_rules(path, kind_) if manifest_rules else []
        name = _shown(path)
        instance = Instance(name, str(Path(name).parent), kind_, parsed, read_text(path))
        specs += specs_for(instance, kind_, chosen, tasks, listed or [own], limits, registered)
    return specs


def plan_suite(suite: Any, sample: int | None = None, time_limit: float | None = None
               ) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Every run of a suite, and the peers it skips (name -> why)."""
    specs: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for entry in suite.entries:
        settings = suite.settings(entry)
        tasks = list(settings["tasks"])
        unknown = [t for t in tasks if t not in TASKS]
        if unknown:
            raise GridcpError(f"suite {suite.name}: unknown task {unknown[0]!r} "
                              f"(known: {', '.join(TASKS)})")
        limits = {"time_limit": float(time_limit or settings["time_limit"]),
                  "memory_limit": float(settings["memory_limit"]),
                  "grace": float(settings["grace"])}
        cache: dict[str, tuple[PuzzleKind, list[Choice], Any]] = {}
        for instance in instances(suite, entry, sample):
            if instance.kind.name not in cache:
                registered = instance.kind.backends
                cache[instance.kind.name] = (*choices(instance.kind, settings["backends"],
                                                      suite.peers, skipped), registered)
            kind_, chosen, registered = cache[instance.kind.name]
            specs += specs_for(instance, kind_, chosen, tasks, list(settings["rules"]),
                               limits, registered)
    return specs, skipped


def _shown(path: Path) -> str:
    """A path as records name it: relative to here when below, else absolute."""
    resolved = path.resolve()
    with contextlib.suppress(ValueError):
        return str(resolved.relative_to(Path.cwd().resolve()))
    return str(resolved)


# ---------------------------------------------------------------- the sweep


class Progress:
    """done / total, failures, lost runs, elapsed and the time left, on one stderr line."""

    def __init__(self, total: int, skipped: int, stream: Any = None):
        self.total, self.done, self.skipped = total, skipped, skipped
        self.errors = self.lost = self.limits = 0
        self.start = time.perf_counter()
        self.stream = stream = stream or sys.stderr
        self.tty = stream.isatty()

    def count(self, record: Record) -> None:
        self.lost += lost(record)
        self.errors += failed(record) and not lost(record)
        self.limits += record["status"] == "LIMIT"

    def update(self, record: Record) -> None:
        self.done += 1
        self.count(record)
        self.show()

    def show(self, final: bool = False) -> None:
        elapsed = time.perf_counter() - self.start
        new = self.done - self.skipped
        left = (self.total - self.done) * elapsed / new if new else None
        line = (f"bench: {self.done}/{self.total} done, {self.errors} failed, "
                + (f"{self.lost} lost, " if self.lost else "")
                + f"{self.limits} at the limit, {_clock(elapsed)} elapsed"
                + (f", ~{_clock(left)} left" if left is not None and not final else ""))
        if self.tty:
            print("\r" + line + ("\n" if final else ""), end="", file=self.stream, flush=True)
        else:
            print(line, file=self.stream, flush=True)


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def sweep(specs: list[Record], out: Path, runner: Runner, progress: Progress | None = None,
          *, retry_errors: bool = False, header: dict[str, Any] | None = None
          ) -> Iterator[Record]:
    """Run the specs not settled in ``out`` yet, appending each record as it finishes.

    A run whose worker died is recorded lost and the sweep goes on (a broken
    pool is replaced); a cluster that can no longer run anything ends the
    sweep with a ``GridcpError``, and the runs not finished are not recorded."""
    wanted = {run_key(s): s for s in specs}
    done = {run_key(r): r for r in read_results(out) if run_key(r) in wanted}
    done = {k: r for k, r in done.items() if settled(r, wanted[k], retry_errors)}
    todo = [s for s in specs if run_key(s) not in done]
    if progress is None:
        progress = Progress(len(specs), len(done))
        for record in done.values():
            progress.count(record)
    progress.show()
    with appending(out) as write:
        if header is not None and todo:
            write({"sweep": header})
        pending = {runner.submit(spec): spec for spec in todo}
        try:
            while pending:
                finished, _ = cf.wait(pending, timeout=POLL, return_when=cf.FIRST_COMPLETED)
                broken = False
                for future in finished:
                    try:
                        record = future.result()
                    except Exception as error:  # the worker, not the run, failed
                        if runner.broke(error):
                            broken = True  # every run in flight: replace() sorts them
                            continue
                        record = runner.failure(pending[future], error)
                    del pending[future]
                    write(record)
                    progress.update(record)
                    yield record
                if broken:
                    pending, records = runner.replace(pending)
                    for record in records:
                        write(record)
                        progress.update(record)
                        yield record
                runner.check()
        finally:
            for future in pending:
                future.cancel()
    progress.show(final=True)


def _lost(spec: Record, why: str) -> Record:
    """The record of a run that never gave an answer of its own."""
    return {**{k: spec[k] for k in RECORD_FIELDS}, "run_wall": 0.0,
            "status": str(Status.ERROR), "wall": 0.0, "lost": True, "message": f"lost: {why}",
            **_where()}


class Runner:
    """Where the runs go: a local process pool (``LocalPool``) or a Dask cluster."""

    def submit(self, spec: Record) -> cf.Future:
        raise NotImplementedError

    def broke(self, error: BaseException) -> bool:
        """Is a future's error the end of the executor itself (``replace`` it)?"""
        return False

    def replace(self, pending: dict[cf.Future, Record]
                ) -> tuple[dict[cf.Future, Record], list[Record]]:
        """A new executor for the runs in flight, and the records of those lost."""
        raise NotImplementedError

    def failure(self, spec: Record, error: Exception) -> Record:
        """The record of a run whose future raised (its worker was lost)."""
        return _lost(spec, f"the worker running it was lost: {type(error).__name__}: {error}")

    def check(self) -> None:
        """Raise ``GridcpError`` when the runs in flight can no longer finish."""

    def stop(self) -> None:
        """Interrupted: end at once, without waiting for the runs in flight."""

    def close(self) -> None:
        """The sweep is over: let the executor go."""


_started: Any = None  # in a pool worker: the queue where it says which run it starts


def _worker_start(parent: int, started: Any) -> None:
    global _started
    die_with_parent(parent)
    _started = started


def _run_in_worker(spec: Record) -> Record:
    _started.put((os.getpid(), run_key(spec)))
    return run_isolated(spec)


class LocalPool(Runner):
    """A pool of ``jobs`` worker processes, spawned, not forked: this process may
    hold OR-Tools' native threads.  Each worker dies with this process, and each
    run with its worker.  When a worker dies (SIGKILL, the out-of-memory killer)
    the pool is broken for good: the runs on the dead worker are lost, the
    others start again on a new pool."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.context = multiprocessing.get_context("spawn")
        self._open()

    def _open(self) -> None:
        self.started = self.context.SimpleQueue()
        self.pool = cf.ProcessPoolExecutor(max_workers=self.jobs, mp_context=self.context,
                                           initializer=_worker_start,
                                           initargs=(os.getpid(), self.started))

    def submit(self, spec: Record) -> cf.Future:
        return self.pool.submit(_run_in_worker, spec)

    def broke(self, error: BaseException) -> bool:
        return isinstance(error, cf.process.BrokenProcessPool)

    def replace(self, pending: dict[cf.Future, Record]
                ) -> tuple[dict[cf.Future, Record], list[Record]]:
        # The pool's own table of workers (a private attribute, read only here)
        # says which one died and how; the pool ends the others with SIGTERM.
        workers = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=True)
        for worker in workers:
            worker.join(JOIN)
        dead = {w.pid: w.exitcode for w in workers
                if w.exitcode is not None and w.exitcode not in (0, -signal.SIGTERM)}
        where: dict[tuple[str, ...], int] = {}
        while not self.started.empty():
            pid, key = self.started.get()
            where[tuple(key)] = pid
        self.started.close()
        self._open()
        again: dict[cf.Future, Record] = {}
        records = []
        for future, spec in pending.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                again[future] = spec  # it finished before the pool broke
                continue
            pid = where.get(run_key(spec))
            if pid is not None and (pid in dead or not dead):
                code = dead.get(pid)
                how = Finished(code, "", "", 0, 0, 0, False).why() if code else "it ended"
                records.append(_lost(spec, f"the pool worker running it (pid {pid}) died, "
                                           f"{how}; the pool was replaced"))
            else:  # not started, or on a worker the broken pool ended: run it again
                again[self.submit(spec)] = spec
        return again, records

    def stop(self) -> None:
        for worker in list((getattr(self.pool, "_processes", None) or {}).values()):
            worker.kill()  # its run dies with it (a parent-death signal)
        self.pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self.pool.shutdown()


class DaskCluster(Runner):
    """A Dask distributed scheduler and its workers (the ``dist`` extra).  A lost
    scheduler, or no worker for ``DASK_TIMEOUT`` seconds, ends the sweep."""

    def __init__(self, address: str):
        try:
            import logging

            from distributed import Client
        except ImportError:
            raise GridcpError("--dask needs the dist extra: pip install 'gridcp[dist]'") from None
        self.address = address
        try:
            self.client = Client(address, timeout=f"{DASK_TIMEOUT:g}s")
        except Exception as error:  # refused, unreachable, a bad address: all the same to us
            raise GridcpError(f"cannot reach the Dask scheduler at {address} within "
                              f"{DASK_TIMEOUT:g} s ({type(error).__name__}: {error})") from None
        # Dask logs its reconnection attempts with tracebacks: the sweep says it in one line.
        for name in [n for n in logging.root.manager.loggerDict if n.startswith("distributed")]:
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        self.executor = self.client.get_executor(pure=False)
        self.unwell_since: float | None = None

    def submit(self, spec: Record) -> cf.Future:
        return self.executor.submit(run_isolated, spec)

    def trouble(self) -> str:
        """What keeps the cluster from running anything ('' when nothing does)."""
        if self.client.status != "running":
            return f"lost the Dask scheduler at {self.address}"
        if not self.client.scheduler_info().get("workers"):
            return f"the Dask scheduler at {self.address} has no worker"
        return ""

    def check(self) -> None:
        trouble = self.trouble()
        if not trouble:
            self.unwell_since = None
            return
        now = time.monotonic()
        self.unwell_since = self.unwell_since or now
        if now - self.unwell_since >= DASK_TIMEOUT:
            self._give_up(f"{trouble} for {DASK_TIMEOUT:g} s")

    def failure(self, spec: Record, error: Exception) -> Record:
        # A run cancelled under us: the scheduler is going; a KilledWorker: the
        # run took its workers down with it (lost, the sweep goes on).
        if type(error).__name__ != "KilledWorker":
            deadline = time.monotonic() + DASK_TIMEOUT
            while time.monotonic() < deadline:
                trouble = self.trouble()
                if trouble:
                    self._give_up(trouble)
                time.sleep(0.1)
        return super().failure(spec, error)

    def _give_up(self, trouble: str) -> None:
        raise GridcpError(f"{trouble}: the sweep stops; the runs not finished are not "
                          "recorded (run the same command again to do them)")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close(timeout=1)

    def close(self) -> None:
        self.client.close()

    def wait_for_workers(self, n: int, timeout: float) -> None:
        self.client.wait_for_workers(n, timeout=timeout)


@contextlib.contextmanager
def make_runner(jobs: int, dask: str | None) -> Iterator[Runner]:
    runner: Runner = LocalPool(jobs) if dask is None else DaskCluster(dask)
    try:
        yield runner
    except BaseException:  # interrupted, or the cluster is gone: do not wait for runs
        runner.stop()
        raise
    runner.close()


# ---------------------------------------------------------------- the command


def add_commands(commands: argparse._SubParsersAction) -> None:
    sub = add_comparison_command(
        commands, "bench", "run a sweep of instances x backends x tasks, one process per run",
        "Exit codes: 0 every run of the sweep answered or stopped at its limit, or the "
        "suite's data is absent (skipped); 1 some run is ERROR or lost (how many on "
        "stderr); 2 bad usage, or the Dask scheduler or all its workers gone.",
        "*", run_bench, DEFAULT_TIME_LIMIT)
    sub.set_defaults(time_limit=None)
    sub.add_argument("--suite", metavar="NAME",
                     help="run the suite benchmarks/NAME.toml (or a .toml path) "
                          "instead of FILE|DIR arguments; --suites lists them")
    sub.add_argument("--suites", action="store_true", help="list the suites and exit")
    sub.add_argument("--sample", type=positive(int), metavar="N",
                     help="with --suite: only the first N instances of each of its groups")
    sub.add_argument("--report", metavar="DIR",
                     help="then write the report (tables, plots) to DIR; the results go "
                          "to DIR/results.jsonl unless --out says otherwise")
    sub.add_argument("--tasks", default="solve,count",
                     help="comma-separated, from solve, count, unique, check "
                          "(default: solve,count)")
    sub.add_argument("--memory-limit", type=at_least(0, float), default=DEFAULT_MEMORY_MB,
                     metavar="MB",
                     help=f"address space per run, and of bench itself (default "
                          f"{DEFAULT_MEMORY_MB}; 0: none)")
    sub.set_defaults(cap_memory=True)
    sub.add_argument("--grace", type=at_least(0, float), default=DEFAULT_GRACE, metavar="S",
                     help=f"kill a run this long after its time limit (default {DEFAULT_GRACE:g})")
    sub.add_argument("--jobs", "-j", type=positive(int), default=1, help="runs at once (default 1)")
    sub.add_argument("--dask", metavar="ADDRESS",
                     help="send the runs to a Dask scheduler, e.g. tcp://HOST:8786 "
                          f"(exit 2 if it does not answer within {DASK_TIMEOUT:g} s)")
    sub.add_argument("--retry-errors", action="store_true",
                     help="rerun the ERROR runs already in the results file (lost runs, "
                          "and runs that hit a smaller time limit than --time-limit, "
                          "are always rerun)")
    sub.add_argument("--out", "-o", default=None,
                     help="results file, appended to and resumed (default results.jsonl)")


def _command(args: argparse.Namespace) -> str:
    """The command that remakes this sweep, as a reader would type it."""
    words = ["python", "-m", "search", "bench"]
    if args.suite:
        words += ["--suite", args.suite]
    else:
        words += list(args.files)
        for flag, value in (("--backends", args.backends), ("--tasks", args.tasks),
                            ("--puzzle", args.puzzle)):
            if value:
                words += [flag, value]
    for flag, value in (("--sample", args.sample), ("--time-limit", args.time_limit),
                        ("--jobs", args.jobs if args.jobs != 1 else None)):
        if value is not None:
            words += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    if args.report:
        words += ["--report", args.report]
    elif args.out:
        words += ["--out", args.out]
    return shlex.join(words)


def list_suites() -> int:
    for path in available():
        suite = load_suite(str(path))
        missing = suite.missing()
        state = f"  (needs {', '.join(missing)}: absent)" if missing else ""
        print(f"{suite.name:24} {suite.description}{state}")
    return 0


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """A plain ``kill`` stops the sweep as Ctrl-C does: runs in flight are dropped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise Interrupted(signum)

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_bench(args: argparse.Namespace) -> int:
    if args.suites:
        return list_suites()
    if args.jobs < 1 or (args.time_limit is not None and args.time_limit <= 0):
        raise GridcpError("--jobs and --time-limit must be positive")
    skipped: dict[str, str] = {}
    if args.suite:
        if args.files:
            raise GridcpError("give FILE|DIR arguments or --suite, not both")
        suite = load_suite(args.suite)
        missing = suite.missing()
        if missing:
            print(f"gridcp: suite {suite.name} skipped: it reads {', '.join(missing)}, "
                  "absent here", file=sys.stderr)
            return YES
        specs, skipped = plan_suite(suite, args.sample, args.time_limit)
    else:
        specs = _plan_files(args, skipped)
    for name, why in skipped.items():
        print(f"gridcp: peer {name} skipped: {why}", file=sys.stderr)
    if not specs:
        print("gridcp: nothing to run (no instance, or no backend offers those tasks)",
              file=sys.stderr)
        return USAGE
    if args.report and not args.out:
        out = out_file(out_dir(args.report, "--report") / "results.jsonl", "--report")
    else:
        out = out_file(args.out or "results.jsonl")
    header = {"command": _command(args), "suite": args.suite, **machine(),
              "skipped": skipped, "runs": len(specs)}
    records = []
    with _terminate_as_interrupt(), make_runner(args.jobs, args.dask) as runner:
        for record in sweep(specs, out, runner, retry_errors=args.retry_errors,
                            header=header):
            records.append(record)
            if args.json:  # the records also on stdout, as they are written
                print(json.dumps(record), flush=True)
    statuses: dict[str, int] = {}
    for record in records:
        word = "unsupported" if record.get("unsupported") else \
            "lost" if lost(record) else record["status"]
        statuses[word] = statuses.get(word, 0) + 1
    counts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
    print(f"{len(specs)} runs: {len(records)} new ({counts or 'none'}), "
          f"{len(specs) - len(records)} already in {out}")
    if args.report:
        write_report(out, Path(args.report), suite=args.suite, force=True)  # its own report
    return _verdict(specs, out)


def _verdict(specs: list[Record], out: Path) -> int:
    """NO when a run of the sweep is lost or ERROR (as the results file holds it
    now), with how many on stderr; else YES."""
    wanted = {run_key(s) for s in specs}
    final = {run_key(r): r for r in read_results(out) if run_key(r) in wanted}
    gone = sum(map(lost, final.values()))
    errors = sum(failed(r) and not lost(r) for r in final.values())
    if not gone and not errors:
        return YES
    what = [f"{gone} lost (run the same command again to retry them)"] if gone else []
    what += [f"{errors} ERROR (--retry-errors runs them again)"] if errors else []
    print(f"gridcp: {len(specs)} runs, {' and '.join(what)}", file=sys.stderr)
    return NO


def _plan_files(args: argparse.Namespace, skipped: dict[str, str]) -> list[dict[str, Any]]:
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    unknown = [t for t in tasks if t not in TASKS]
    if unknown or not tasks:
        raise GridcpError(f"unknown task {', '.join(unknown)!r} "
                          f"(known: {', '.join(TASKS)})")
    if not args.files:
        raise GridcpError("give FILE|DIR arguments or --suite NAME (--suites lists them)")
    missing = [d for d in args.files if not Path(d).exists()]
    if missing:
        raise GridcpError(f"no such file or folder: {', '.join(missing)}")
    backends = [b.strip() for b in args.backends.split(",")] if args.backends else None
    known = {name for kind_ in kinds() for name in kind_.backends} | set(PEERS)
    typos = [b for b in backends or [] if "=" not in b and b not in known]
    if typos:  # a name no puzzle has would otherwise leave "nothing to run" unexplained
        raise GridcpError(f"--backends: unknown backend {', '.join(typos)} "
                          f"(known: {', '.join(sorted(known))})")
    return plan(args.files, puzzle=args.puzzle, backends=backends, tasks=tasks,
                rules=vars(args), time_limit=args.time_limit or DEFAULT_TIME_LIMIT,
                memory_limit=args.memory_limit, grace=args.grace,
                manifest_rules=args.manifest_rules, skipped=skipped)
