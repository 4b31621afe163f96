"""One run of a sweep, alone in its own process: ``python -m search.sweep_child``.

It reads the run (a JSON object: instance, puzzle, backend, task, rules,
time_limit, memory_limit in MB) on stdin, caps its address space, runs the
task through ``search.harness.run_task`` (so every solution is verified) and
writes one JSON object on stdout.  A backend that does not support the run
(a rule variant it does not model) gives ERROR with ``"unsupported": true``.
It imports only what the run needs: the CP-SAT backends bring OR-Tools, the
others never load it.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time


def limit_memory(megabytes: float | None) -> None:
    if megabytes:
        cap = int(megabytes * 1024 * 1024)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def run(spec: dict) -> dict:
    from search.core import Unsupported
    from search.harness import run_task, with_backends
    from search.manifest import with_defaults
    from search.registry import load, load_puzzle

    start = time.perf_counter()
    kind_, puzzle = load_puzzle(spec["instance"], spec.get("puzzle"))
    if spec.get("backend_path"):
        kind_, _ = with_backends(kind_, [f"{spec['backend']}={spec['backend_path']}"])
    if kind_.options:
        puzzle = kind_.call("apply_options", puzzle, with_defaults(kind_, spec.get("rules")))
    parsed = time.perf_counter()
    # Timed apart from the harness: OR-Tools alone takes ~1.5 s, networkx (for the
    # Numberlink verifier) ~0.4 s.
    load(kind_.backends[spec["backend"]])
    if spec["task"] != "count":
        load(kind_.verify)
    imported = time.perf_counter()
    try:
        outcome = run_task(kind_, puzzle, spec["backend"], spec["task"], spec.get("time_limit"))
    except Unsupported as error:  # not a failure: the report leaves such runs out
        return {"status": "ERROR", "unsupported": True, "message": str(error), "wall": 0.0,
                "parse_wall": round(parsed - start, 6), "import_wall": round(imported - parsed, 6)}
    out = outcome.as_json()
    out["status"] = "ERROR" if outcome.failed else str(outcome.status)
    if outcome.violations:
        out["message"] = f"invalid solution: {outcome.violations[0]}"
    if outcome.keys:
        out["key"] = _digest(outcome.keys[0])
    out.update(parse_wall=round(parsed - start, 6), import_wall=round(imported - parsed, 6))
    return out


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


def main() -> int:
    spec = json.loads(sys.stdin.read())
    limit_memory(spec.get("memory_limit"))
    print(json.dumps(run(spec)), flush=True)
    return 0


if __name__ == "__main__":
    main()
    # Skip the interpreter's teardown: with OR-Tools loaded it costs tenths of a second.
    os._exit(0)
