"""One run of a sweep, alone in its own process: ``python -m search.lab.sweep_child``.

It reads the run (a JSON object: instance name and text, puzzle, backend,
task, rules, time_limit, memory_limit in MB) on stdin, caps its address
space, runs the task through ``search.lab.crosscheck.run_task`` (so every solution
is verified) and writes one JSON object on stdout.  The instance travels as
text, not as a path, so that a Dask worker on another machine can run it.
A backend that does not support the run (a rule variant it does not model)
gives ERROR with ``"unsupported": true``.  A peer tool (``spec["peer"]``)
runs through its adapter in ``search.lab.peers``.  It imports only what the run
needs: the CP-SAT backends bring OR-Tools, the others never load it.

The process dies with its parent (``die_with_parent``): a sweep killed with
SIGKILL leaves no run behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import signal
import sys
import threading
import time
from typing import Any

PARENT_ENV = "GRIDCP_SWEEP_PARENT"  # the pid the child must outlive no longer
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with_parent(parent: int | None = None, watch: bool = True) -> None:
    """End this process when its parent ends, however the parent ends (SIGKILL too).

    On Linux the kernel sends SIGKILL (``prctl(PR_SET_PDEATHSIG)``); elsewhere a
    watchdog thread polls the parent's pid.  If the parent is already gone
    (``getppid`` differs from ``parent``), exit at once.  ``watch=False`` between
    fork and exec, where no thread may start.
    """
    parent = os.getppid() if parent is None else parent
    armed = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    if os.getppid() != parent:
        os._exit(1)
    if not armed and watch:
        threading.Thread(target=_watch, args=(parent,), daemon=True,
                         name="die-with-parent").start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def limit_memory(megabytes: float | None) -> None:
    if megabytes:
        cap = int(megabytes * 1024 * 1024)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def run(spec: dict[str, Any]) -> dict[str, Any]:
    from search.app.manifest import with_defaults
    from search.core.contract import Unsupported
    from search.core.registry import kind, load
    from search.lab.crosscheck import run_task, with_backends

    start = time.perf_counter()
    kind_ = kind(spec["puzzle"])
    puzzle = kind_.call("parse", spec["text"], spec["instance"])
    if spec.get("backend_path"):
        kind_, _ = with_backends(kind_, [f"{spec['backend']}={spec['backend_path']}"])
    if kind_.options:
        puzzle = kind_.call("apply_options", puzzle, with_defaults(kind_, spec.get("rules")))
    parsed = time.perf_counter()
    timing = {"parse_wall": round(parsed - start, 6)}
    if spec.get("peer"):
        from search.lab.peers import run_peer

        return {**run_peer(spec["peer"], kind_, puzzle, spec["task"], spec["time_limit"]),
                **timing, "import_wall": 0.0}
    # Timed apart from the harness: OR-Tools alone takes ~1.5 s.
    backend = spec.get("engine", spec["backend"])  # a named variant runs its engine
    load(kind_.backends[backend])
    if spec["task"] != "count":
        load(kind_.verify)
    timing["import_wall"] = round(time.perf_counter() - parsed, 6)
    try:
        outcome = run_task(kind_, puzzle, backend, spec["task"], spec.get("time_limit"),
                           spec.get("options") or {})
    except Unsupported as error:  # not a failure: the report leaves such runs out
        return {"status": "ERROR", "unsupported": True, "message": str(error), "wall": 0.0,
                **timing}
    out = outcome.as_json()
    out["status"] = "ERROR" if outcome.failed else str(outcome.status)
    if outcome.violations:
        out["message"] = f"invalid solution: {outcome.violations[0]}"
    if len(outcome.keys) == 1 or (outcome.keys and spec["task"] != "check"):
        out["key"] = _digest(outcome.keys[0])  # a check's one solution, not one of two
    return {**out, **timing}


def _digest(key: object) -> str:
    """A short fingerprint of a canonical solution key, to compare runs by."""
    import hashlib

    return hashlib.sha1(repr(_sorted(key)).encode()).hexdigest()[:12]


def _sorted(value: object) -> object:
    """Sets in a stable order, so that equal keys print alike in every process."""
    if isinstance(value, (set, frozenset)):
        return sorted((_sorted(v) for v in value), key=repr)
    if isinstance(value, (tuple, list)):
        return [_sorted(v) for v in value]
    return value


def peak_mib() -> float:
    """The most memory this process (or a peer it ran) held, in MiB (Linux: KiB units)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round(max(own, children) / 1024, 1)


def main() -> int:
    parent = os.environ.get(PARENT_ENV)
    die_with_parent(int(parent) if parent else None)
    spec = json.loads(sys.stdin.read())
    limit_memory(spec.get("memory_limit"))
    out = run(spec)
    out["peak_mib"] = peak_mib()
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    main()
    # Skip the interpreter's teardown: with OR-Tools loaded it costs tenths of a second.
    os._exit(0)
