"""``gridcp bench``: sweeps of instance x backend x task, one process per run,
one JSON line per finished run, resumable; ``--suite NAME`` runs a benchmark
suite (``search.lab.suites``), ``--report DIR`` writes its tables and plots.

The runs go to a ``concurrent.futures.Executor``: a local process pool, or a
Dask distributed cluster (``--dask tcp://HOST:8786``, the ``dist`` extra).
Either way the unit of work is ``run_isolated(spec) -> record``, plain dicts
in and out: it starts ``python -m search.lab.sweep_child`` with a memory cap,
kills it at the time limit plus a grace, and turns a crash into an ERROR
record instead of the end of the sweep.  Only this process writes the
results file, one line per finished run, so an interrupted sweep loses at
most the runs in flight; rerunning with the same ``--out`` skips the runs
already there, except runs that hit a smaller time limit than the one asked
now (and, with ``--retry-errors``, the runs that failed).  Each run carries
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
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from search.app.arguments import USAGE, YES, add_comparison_command, at_least, positive, version
from search.app.manifest import listed_rules, with_defaults
from search.core.contract import GridcpError, Status
from search.core.inputs import json_records, record_of
from search.core.outputs import appending, check_appendable, out_dir, out_file
from search.core.registry import PuzzleKind, load, read_text
from search.lab.crosscheck import TASKS, load_instances, with_backends
from search.lab.sweep_child import PARENT_ENV, die_with_parent

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds the package
DEFAULT_TIME_LIMIT = 10.0
DEFAULT_MEMORY_MB = 4096
DEFAULT_GRACE = 5.0  # seconds past the time limit before a run is killed
DASK_TIMEOUT = 5.0  # seconds to reach a Dask scheduler before giving up
RUN_FIELDS = ("instance", "backend", "task", "rules")  # what makes two runs the same
RECORD_FIELDS = ("instance", "set", "puzzle", "size", "backend", "task", "rules", "time_limit",
                 "memory_limit")  # copied from the run's spec into its record
CHILD_FIELDS = ("instance", "text", "puzzle", "backend", "engine", "backend_path", "options",
                "peer", "task", "rules", "time_limit", "memory_limit")  # what the run needs


# ---------------------------------------------------------------- one run


def run_key(record: dict[str, Any]) -> tuple[str, ...]:
    return (record["instance"], record["backend"], record["task"],
            json.dumps(record.get("rules") or {}, sort_keys=True))


def run_isolated(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one spec in a fresh child process; always return a record, never raise."""
    grace = spec.get("grace", DEFAULT_GRACE)
    child = {k: spec[k] for k in CHILD_FIELDS if k in spec}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env[PARENT_ENV] = str(os.getpid())  # the run dies with this process
    record = {k: spec[k] for k in RECORD_FIELDS}
    record.update({k: spec[k] for k in ("expected",) if k in spec})
    start = time.perf_counter()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "search.lab.sweep_child"], cwd=ROOT,
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
            from search.lab.peers import PEERS

            adapter = PEERS[dict(self.peer)["name"]]
            return adapter.puzzle == kind_.name and task in adapter.calls
        return task in load(kind_.backends[self.engine]).calls


def choices(kind_: PuzzleKind, entries: list[Any] | None, peers: dict[str, str],
            skipped: dict[str, str]) -> tuple[PuzzleKind, list[Choice]]:
    """The backends a list names for this puzzle: names, ``NAME=module:Class``,
    peers (an absent one goes to ``skipped`` with the reason) and variants
    ``{name, backend, options}``; names the puzzle lacks are left out."""
    from search.lab.peers import PEERS, locate

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
    from search.lab.suites import Instance

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
    from search.lab.suites import instances

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


def read_results(out: Path) -> list[dict[str, Any]]:
    """The run records of a results file (none if it does not exist); a malformed
    record is an InputError naming its line."""
    return [r for r in _lines(out) if "sweep" not in r]


def read_sweeps(out: Path) -> list[dict[str, Any]]:
    """The ``{"sweep": ...}`` lines: each sweep's command, machine and skipped peers."""
    return [r["sweep"] for r in _lines(out) if "sweep" in r]


NUMBER, TEXT, TABLE = (int, float), (str,), (dict,)
RESULT_FIELDS = {"instance": TEXT, "set": TEXT, "puzzle": TEXT, "backend": TEXT, "task": TEXT,
                 "status": TEXT, "wall": NUMBER, "time_limit": NUMBER}  # what a report reads
RESULT_OPTIONAL = {"rules": (dict, type(None)), "effort": (dict, type(None)),
                   "count": (int, type(None)), "verdict": (str, type(None)),
                   "expected": (str, type(None)), "run_wall": NUMBER, "import_wall": NUMBER,
                   "peak_mib": NUMBER, "versions": TABLE, "host": TEXT}


def _lines(out: Path) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    return json_records(out, RESULT_FIELDS, RESULT_OPTIONAL, other={"sweep": TABLE})


def settled(record: dict[str, Any], spec: dict[str, Any], retry_errors: bool) -> bool:
    """Is this earlier record of a run its answer still?  Not when it hit a
    smaller time limit than the one asked now, nor, with ``retry_errors``,
    when it failed (a run a backend does not support stays settled)."""
    if record["status"] == "LIMIT" and record.get("time_limit", 0) < spec["time_limit"]:
        return False
    return not (retry_errors and record["status"] == "ERROR" and not record.get("unsupported"))


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
          progress: Progress | None = None, *, retry_errors: bool = False,
          header: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Run the specs not settled in ``out`` yet, appending each record as it finishes."""
    def complete(line: str) -> object:
        return record_of(line, str(out))

    check_appendable(out, complete)
    wanted = {run_key(s): s for s in specs}
    done = {run_key(r): r for r in read_results(out) if run_key(r) in wanted}
    done = {k: r for k, r in done.items() if settled(r, wanted[k], retry_errors)}
    todo = [s for s in specs if run_key(s) not in done]
    if progress is None:
        progress = Progress(len(specs), len(done))
        for record in done.values():
            progress.count(record)
    progress.show()
    out.parent.mkdir(parents=True, exist_ok=True)
    futures = {executor.submit(run_isolated, spec): spec for spec in todo}
    try:
        with appending(out, complete) as append:
            if header is not None and todo:
                append(json.dumps({"sweep": header}))
            for future in cf.as_completed(futures):
                try:
                    done_run = future.result()
                except Exception as error:  # the worker itself was lost (a Dask node, ...)
                    done_run = _lost(futures[future], error)
                append(json.dumps(done_run))
                progress.update(done_run)
                yield done_run
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
        # Spawned, not forked: this process may hold OR-Tools' native threads.  Each
        # worker dies with this process, and each run with its worker.
        spawn = multiprocessing.get_context("spawn")
        pool = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=spawn,
                                      initializer=die_with_parent, initargs=(os.getpid(),))
        try:
            yield pool
        except BaseException:  # interrupted: do not wait for the runs in flight
            for worker in list(getattr(pool, "_processes", {}).values()):
                worker.kill()  # its run dies with it (a parent-death signal)
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        return
    try:
        from distributed import Client
    except ImportError:
        raise GridcpError("--dask needs the dist extra: pip install 'gridcp[dist]'") from None
    try:
        client = Client(dask, timeout=f"{DASK_TIMEOUT:g}s")
    except Exception as error:  # refused, unreachable, a bad address: all the same to us
        raise GridcpError(f"cannot reach the Dask scheduler at {dask} within "
                          f"{DASK_TIMEOUT:g} s ({type(error).__name__}: {error})") from None
    with client:
        yield client.get_executor(pure=False)


# ---------------------------------------------------------------- the command


def add_commands(commands: argparse._SubParsersAction) -> None:
    sub = add_comparison_command(
        commands, "bench", "run a sweep of instances x backends x tasks, one process per run",
        "Exit codes: 0 the sweep completed (ERROR runs are recorded, not fatal) or the "
        "suite's data is absent (skipped), 2 bad usage.",
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
                     help="rerun the ERROR runs already in the results file (runs that "
                          "hit a smaller time limit than --time-limit are always rerun)")
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
    from search.lab.suites import available, load_suite

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
        raise KeyboardInterrupt

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
        from search.lab.suites import load_suite

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
    with _terminate_as_interrupt(), make_executor(args.jobs, args.dask) as executor:
        for record in sweep(specs, out, executor, retry_errors=args.retry_errors,
                            header=header):
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
    if args.report:
        from search.lab.report import write_report

        write_report(out, Path(args.report), suite=args.suite, force=True)
    return YES


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
    return plan(args.files, puzzle=args.puzzle, backends=backends, tasks=tasks,
                rules=vars(args), time_limit=args.time_limit or DEFAULT_TIME_LIMIT,
                memory_limit=args.memory_limit, grace=args.grace,
                manifest_rules=args.manifest_rules, skipped=skipped)
