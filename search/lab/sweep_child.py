"""One run of a sweep, alone in its own process: ``python -m search.lab.sweep_child``.

It reads the run (a JSON object: instance name and text, puzzle, backend,
task, rules, time_limit, memory_limit in MB) on stdin, caps its address
space, runs the task through ``search.lab.crosscheck.run_task`` (so every solution
is verified) and writes one JSON object on stdout.  The instance travels as
text, not as a path, so that a Dask worker on another machine can run it.
A backend that does not support the run (a rule variant it does not model)
gives ERROR with ``"unsupported": true``.  A peer tool (``spec["peer"]``)
runs through its adapter in ``search.lab.peers``.  It imports only what the run
needs: the registry loads the run's backend by its dotted path, so the CP-SAT
backends bring OR-Tools and the others never load it.

``wall`` is the backend's own clock; ``cpu_time`` the user + system seconds this
process spent on the task (the backend's call and the check of its answer,
and a peer's process when a peer ran).

The process dies with its parent (``die_with_parent``): a sweep killed with
SIGKILL leaves no run behind.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from typing import Any

from search.app.manifest import with_defaults
from search.core.contract import Unsupported
from search.core.limits import limit_memory
from search.core.processes import PARENT_ENV, die_with_parent
from search.core.registry import kind, load
from search.lab.cpu import cpu_seconds
from search.lab.crosscheck import run_task, with_backends
from search.lab.peers import run_peer
from search.lab.results import digest


def run(spec: dict[str, Any]) -> dict[str, Any]:
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
        return {**run_peer(spec["peer"], kind_, puzzle, spec["task"], spec["time_limit"]),
                **timing, "import_wall": 0.0}
    # Timed apart from the harness: OR-Tools alone takes ~1.5 s.
    backend = spec.get("engine", spec["backend"])  # a named variant runs its engine
    load(kind_.backends[backend])
    if spec["task"] != "count":
        load(kind_.verify)
    timing["import_wall"] = round(time.perf_counter() - parsed, 6)
    before = cpu_seconds()
    try:
        outcome = run_task(kind_, puzzle, backend, spec["task"], spec.get("time_limit"),
                           spec.get("options") or {})
    except Unsupported as error:  # not a failure: the report leaves such runs out
        return {"status": "ERROR", "unsupported": True, "message": str(error), "wall": 0.0,
                **timing}
    timing["cpu_time"] = round(cpu_seconds() - before, 6)
    out = outcome.as_json()
    out["status"] = "ERROR" if outcome.failed else str(outcome.status)
    if outcome.violations:
        out["message"] = f"invalid solution: {outcome.violations[0]}"
    if len(outcome.keys) == 1 or (outcome.keys and spec["task"] != "check"):
        out["key"] = digest(outcome.keys[0])  # a check's one solution, not one of two
    return {**out, **timing}


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
