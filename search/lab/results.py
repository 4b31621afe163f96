"""The results file of a sweep: JSON Lines, one record per finished run.

``bench`` appends to it and ``report`` reads it; both go through this module
alone, so that how the file is read and written lives in one place.  A file
holds two kinds of line: a run's record (``instance``, ``backend``, ``task``,
``status``, ``wall``, ...: docs/harness.md lists the fields) and, at the start
of each sweep, ``{"sweep": {...}}`` with the command and the machine.

A run is named by (instance, backend, task, rules): a later record of the same
run replaces an earlier one.  A record is *lost* when the run never gave an
answer of its own: its process was killed from outside (SIGKILL from the
kernel's out-of-memory killer, a user's ``kill``), the worker running it died,
or no process could be started for it.  A rerun retries lost runs by default;
an ERROR the instance itself caused (a crash, a bad solution) only with
``--retry-errors``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from search.core import inputs, outputs
from search.core.contract import GridcpError, InputError

Record = dict[str, Any]
RUN_FIELDS = ("instance", "backend", "task", "rules")  # what makes two runs the same
# the fields every run's record has, and their types
REQUIRED: dict[str, type | tuple[type, ...]] = {
    "instance": str, "backend": str, "task": str, "puzzle": str, "set": str, "status": str,
    "wall": (int, float), "time_limit": (int, float)}
# optional, but of these types when present
OPTIONAL: dict[str, type | tuple[type, ...]] = {
    "cpu_time": (int, float), "run_cpu_time": (int, float), "run_wall": (int, float),
    "rules": dict, "effort": dict, "verdict": str, "message": str}
# the fields of a sweep's line that the report reads, when present
SWEEP: dict[str, type | tuple[type, ...]] = {
    "command": str, "suite": str, "skipped": dict, "load": list, "runs": int, "host": str,
    "cpu": str, "cores": int, "time": str}
# a worker lost before lost runs were marked: such old records are lost runs too
OLD_LOST = "the worker running it was lost"


def run_key(record: Record) -> tuple[str, ...]:
    return (record["instance"], record["backend"], record["task"],
            json.dumps(record.get("rules") or {}, sort_keys=True))


def failed(record: Record) -> bool:
    """An ERROR (lost or not), but not a rule variant the backend does not model."""
    return record["status"] == "ERROR" and not record.get("unsupported")


def lost(record: Record) -> bool:
    """A run that never gave an answer of its own (see the module's docstring)."""
    return failed(record) and (bool(record.get("lost"))
                               or str(record.get("message", "")).startswith(OLD_LOST))


def settled(record: Record, spec: Record, retry_errors: bool) -> bool:
    """Is this earlier record of a run its answer still?  Not when the run was
    lost, nor when it hit a smaller time limit than the one asked now, nor, with
    ``retry_errors``, when it failed (a run a backend does not support stays)."""
    if lost(record):
        return False
    if record["status"] == "LIMIT" and record.get("time_limit", 0) < spec["time_limit"]:
        return False
    return not (retry_errors and failed(record))


def digest(key: object) -> str:
    """A short fingerprint of a canonical solution key, to compare runs by."""
    return hashlib.sha1(repr(_sorted(key)).encode()).hexdigest()[:12]


def _sorted(value: object) -> object:
    """Sets in a stable order, so that equal keys print alike in every process."""
    if isinstance(value, (set, frozenset)):
        return sorted((_sorted(v) for v in value), key=repr)
    if isinstance(value, (tuple, list)):
        return [_sorted(v) for v in value]
    return value


# ---------------------------------------------------------------- reading


def read_results(path: Path) -> list[Record]:
    """The runs' records of a results file, in the file's order.  A last line cut
    short by an interruption is dropped; any other line that is not a record is
    an ``InputError`` naming the file and the line."""
    return [record for _, record in _lines(path) if "sweep" not in record]


def read_sweeps(path: Path) -> list[dict[str, Any]]:
    """The ``{"sweep": ...}`` lines: each sweep's command, machine and skipped peers."""
    return [record["sweep"] for _, record in _lines(path) if "sweep" in record]


def _lines(path: Path) -> Iterator[tuple[int, Record]]:
    if not path.exists():
        return
    data = inputs.read_bytes(path, inputs.MAX_RESULTS_BYTES, what="a results file")
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    complete = text.endswith("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        last = number == len(lines) and not complete
        try:  # the guarded parse: numbers with a digit cap, no NaN
            record = inputs.record_of(line, str(path), number)
        except InputError:
            if last:  # cut short by a kill mid-write: the run is simply not done
                return
            raise
        problem = _problem(record)
        if problem:
            if last:
                return
            raise InputError(problem, str(path), number)
        yield number, record


def _problem(record: object) -> str:
    """What is wrong with a line of a results file ('' when nothing)."""
    if not isinstance(record, dict):
        return "not a JSON object"
    if "sweep" in record:
        if not isinstance(record["sweep"], dict):
            return "a sweep line's value is not an object"
        return _wrong_type(record["sweep"], SWEEP)
    for name in REQUIRED:
        if name not in record:
            return f"a run's record without {name!r}"
    return _wrong_type(record, REQUIRED) or _wrong_type(record, OPTIONAL)


def _wrong_type(record: dict[str, Any], types: dict[str, type | tuple[type, ...]]) -> str:
    for name, kind in types.items():
        value = record.get(name)
        if value is None and types is not REQUIRED:
            continue
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            return f"{name!r} has the wrong type: {json.dumps(value)[:40]}"
    return ""


# ---------------------------------------------------------------- writing


@contextlib.contextmanager
def appending(path: Path) -> Iterator[Callable[[Record], None]]:
    """``write(record)``: one line appended to the results file, through the one
    way out (``search.core.outputs.appending``: no symlink followed, each record
    written whole and fsynced, a full disk exit 2 with no half record left).
    A last line without its end of line is ended first when it is a whole
    record, and cut when a kill left it unfinished, so that the next record
    starts on a line of its own."""
    _end_last_line(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with outputs.appending(path, _whole_record) as append:
        yield lambda record: append(json.dumps(record))


def _whole_record(line: str) -> None:
    """Raise unless ``line`` is a record of a results file."""
    problem = _problem(inputs.record_of(line, "the last line"))
    if problem:
        raise GridcpError(problem)


def _end_last_line(path: Path) -> None:
    if path.is_symlink() or not path.is_file() or path.stat().st_size == 0:
        return  # the way out refuses what is not a regular file
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return
    cut = data.rfind(b"\n") + 1
    try:
        whole = not _problem(json.loads(data[cut:]))
    except (ValueError, RecursionError):
        whole = False
    if whole:
        with path.open("ab") as sink:
            sink.write(b"\n")
    else:
        path.write_bytes(data[:cut])
