"""Peer tools as backends of a benchmark suite: other people's solvers, run as
they are built, so that a comparison side by side is one command.

A peer is an executable outside the checkout (never copied into it; how to
build each: docs/benchmarks.md).  Its adapter writes the puzzle in the
peer's input format, runs it with the run's time limit, parses its answer and
times it; a solution it prints is verified by the puzzle's ``verify`` like
any backend's.  Where the executable is: the environment variable
``GRIDCP_PEER_<NAME>`` (``-`` as ``_``), else the suite's ``[peers]`` table,
else ``PATH``.  An absent peer is skipped, with the reason, by ``bench``.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from search.core.contract import InputError, Status, load
from search.core.processes import Finished, die_with_parent, run_child
from search.lab.results import digest
from search.lab.suites import beside

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


class Refused(Exception):
    """The peer cannot take this puzzle or task (blocked cells, too many pairs, ...)."""


@dataclass(frozen=True)
class Answer:
    status: Status
    count: int | None = None
    solution: Any = None
    message: str = ""


class Peer:
    """The adapter of one peer tool: its input, its command line, its answer."""

    name: ClassVar[str]
    puzzle: ClassVar[str]
    calls: ClassVar[frozenset[str]]
    executable: ClassVar[str]  # the file name looked up on PATH
    source: ClassVar[str]  # where its public source is

    def command(self, exe: str, puzzle: Any, task: str, input_file: str) -> list[str]:
        raise NotImplementedError

    def write(self, puzzle: Any) -> str:
        raise NotImplementedError

    def read(self, puzzle: Any, task: str, out: str, err: str, code: int) -> Answer:
        raise NotImplementedError


class ThomasahleNumberlink(Peer):
    """github.com/thomasahle/numberlink (Go): reads ``W H`` + rows of letters
    (``.`` empty) on stdin, prints the filled grid or ``IMPOSSIBLE``.  It fills
    every cell (Flow Free's rule): full-cover puzzles only, no blocked cells.
    It also keeps to Flow Free's convention that a path never runs beside
    itself, so its IMPOSSIBLE means "no such solution" (gridcp's search with
    ``no_self_touch`` answers the same question)."""

    name = "thomasahle"
    puzzle = "numberlink"
    calls = frozenset({"solve"})
    executable = "numberlink"
    source = "github:thomasahle/numberlink"

    def write(self, puzzle: Any) -> str:
        if puzzle.blocked:
            raise Refused("thomasahle's solver has no blocked cells")
        if not puzzle.full_cover:
            raise Refused("thomasahle's solver fills every cell (no lenient rule)")
        if len(puzzle.pairs) > len(LETTERS):
            raise Refused(f"{len(puzzle.pairs)} pairs, thomasahle's solver takes "
                          f"{len(LETTERS)} at most")
        return f"{puzzle.width} {puzzle.height}\n" + _letter_rows(puzzle)

    def command(self, exe: str, puzzle: Any, task: str, input_file: str) -> list[str]:
        return [exe]

    def read(self, puzzle: Any, task: str, out: str, err: str, code: int) -> Answer:
        if code != 0:
            raise RuntimeError(f"exit code {code}: {_last(err)}")
        if "IMPOSSIBLE" in out:
            return Answer(Status.UNSAT)
        return Answer(Status.SOLVED, solution=_letter_solution(puzzle, out))


class DdNumlin(Peer):
    """TdZdd's ``ddnumlin`` (C++, github.com/kunisura/TdZdd, apps/numberlink):
    reads ``W H`` + rows of numbers (``-`` empty) from a file and counts the
    solutions with a ZDD: ``-m 0 -a -k 0`` full cover, ``-m 0 -a`` lenient
    (the commands behind EXPECTED_COUNTS.csv).  No blocked cells."""

    name = "ddnumlin"
    puzzle = "numberlink"
    calls = frozenset({"count"})
    executable = "ddnumlin"
    source = "github:kunisura/TdZdd"
    COUNT = re.compile(r"#solution\s*=\s*(\d+)")

    def write(self, puzzle: Any) -> str:
        if puzzle.blocked:
            raise Refused("ddnumlin has no blocked cells")
        if puzzle.width < 2 or puzzle.height < 2:
            raise Refused("ddnumlin fails on boards one cell wide")
        label = {cell: str(i + 1) for cell, i in puzzle.endpoint.items()}
        rows = (" ".join(label.get((r, c), "-") for c in range(puzzle.width))
                for r in range(puzzle.height))
        return f"{puzzle.width} {puzzle.height}\n" + "\n".join(rows) + "\n"

    def command(self, exe: str, puzzle: Any, task: str, input_file: str) -> list[str]:
        return [exe, "-m", "0", "-a", *(["-k", "0"] if puzzle.full_cover else []), input_file]

    def read(self, puzzle: Any, task: str, out: str, err: str, code: int) -> Answer:
        found = self.COUNT.search(err) or self.COUNT.search(out)
        if code != 0 or not found:
            raise RuntimeError(f"exit code {code}, no '#solution =' line: {_last(err)}")
        return Answer(Status.COUNTED, count=int(found.group(1)))


class TathamUnequal(Peer):
    """Simon Tatham's Unequal solver (C, the standalone ``unequalsolver`` of
    git.tartarus.org/simon/puzzles, mirrored on GitHub): takes a game ID
    ``ORDER:DESCRIPTION`` and says whether the puzzle has one solution (with
    its difficulty and the grid), none, or several.  Orders 3..32; its
    recursion is its own, so no limit but ours."""

    name = "tatham"
    puzzle = "futoshiki"
    calls = frozenset({"unique"})
    executable = "unequalsolver"
    source = "https://git.tartarus.org/?p=simon/puzzles.git (unequal.c, latin.c)"
    VERDICT = re.compile(r"^Game (has difficulty (\w+)|is impossible|has multiple solutions)",
                         re.MULTILINE)

    def write(self, puzzle: Any) -> str:
        if puzzle.n < 3:
            raise Refused("Tatham's Unequal starts at order 3")
        try:
            return load("search.futoshiki.formats:format_tatham")(puzzle).strip()
        except ValueError as error:
            raise Refused(str(error)) from None

    def command(self, exe: str, puzzle: Any, task: str, input_file: str) -> list[str]:
        return [exe, Path(input_file).read_text()]

    def read(self, puzzle: Any, task: str, out: str, err: str, code: int) -> Answer:
        found = list(self.VERDICT.finditer(out))
        if code != 0 or not found:
            raise RuntimeError(f"exit code {code}, no verdict: {_last(err or out)}")
        verdict = found[-1]
        if "impossible" in verdict.group(1):
            return Answer(Status.UNSAT)
        if "multiple" in verdict.group(1):
            return Answer(Status.MULTIPLE, message="no solutions shown by the peer")
        after = out.find("\n", verdict.end())  # the grid follows the verdict's line
        return Answer(Status.UNIQUE, solution=_tatham_grid(puzzle, out[after + 1:]),
                      message=f"difficulty {verdict.group(2)}")


class ModelCounter(Peer):
    """A #SAT model counter on the puzzle's DIMACS CNF (``search.futoshiki.cnf``,
    whose models are the solutions): what its adapters share, the input and
    the line of the count (``COUNT``, ``LINE`` in words)."""

    puzzle = "futoshiki"
    calls = frozenset({"count"})
    COUNT: ClassVar[re.Pattern[str]]
    LINE: ClassVar[str]

    def write(self, puzzle: Any) -> str:
        return load("search.futoshiki.cnf:dimacs")(puzzle)

    def read(self, puzzle: Any, task: str, out: str, err: str, code: int) -> Answer:
        found = self.COUNT.search(out)
        if code != 0 or not found:
            raise RuntimeError(f"exit code {code}, no '{self.LINE}' line: {_last(err or out)}")
        return Answer(Status.COUNTED, count=int(found.group(1)))


class D4(ModelCounter):
    """The D4 model counter (C++, github.com/crillab/d4v2, its ``demo/counter``):
    prints ``s <count>``, in GMP integers.  Its cache's first page is 1 GiB of
    address space (4 GiB by default, which the run's memory cap refuses:
    ``std::bad_alloc``); the pages after it are its own."""

    name = "d4"
    executable = "d4"
    source = "github:crillab/d4v2 (demo/counter)"
    COUNT = re.compile(r"^s\s+(\d+)\s*$", re.MULTILINE)
    LINE = "s <count>"

    def command(self, exe: str, puzzle: Any, task: str, input_file: str) -> list[str]:
        return [exe, "-i", input_file, "--cache-size-first-page", str(2**30)]


class Ganak(ModelCounter):
    """The Ganak model counter (C++, github.com/meelgroup/ganak) through its PyPI
    bindings, ``pyganak``: the executable is a Python interpreter with
    ``pyganak`` installed (in an environment of its own, not gridcp's), which
    runs the short script below on the CNF."""

    name = "ganak"
    executable = "ganak-python"
    source = "PyPI: pyganak (github.com/meelgroup/ganak)"
    SCRIPT = "\n".join((
        "import sys, pyganak",
        "counter = pyganak.Counter()",
        "for line in open(sys.argv[1]):",
        "    words = line.split()",
        "    if words and words[0] == 'p':",
        "        counter.new_vars(int(words[2]))",
        "    elif words and words[0] != 'c':",
        "        counter.add_clause([int(w) for w in words[:-1]])",
        "print('s mc', counter.count())",
    ))
    COUNT = re.compile(r"^s mc (\d+)$", re.MULTILINE)
    LINE = "s mc <count>"

    def command(self, exe: str, puzzle: Any, task: str, input_file: str) -> list[str]:
        return [exe, "-c", self.SCRIPT, input_file]


PEERS: dict[str, type[Peer]] = {p.name: p for p in (ThomasahleNumberlink, DdNumlin,
                                                      TathamUnequal, D4, Ganak)}


def env_name(name: str) -> str:
    return "GRIDCP_PEER_" + re.sub(r"\W", "_", name).upper()


def locate(name: str, configured: str | None) -> tuple[str | None, str]:
    """(the executable, how it was found) or (None, why it is absent)."""
    variable = env_name(name)
    given = os.environ.get(variable)
    if given:
        where = f"${variable}"
    elif configured:
        given = str(beside(configured))
        where = "the suite's [peers] table"
    if given:
        found = shutil.which(given)
        if found:
            return os.path.abspath(found), where  # not resolved: a venv's python is a link
        return None, f"{given} (from {where}) is not an executable file"
    found = shutil.which(PEERS[name].executable)
    if found:
        return found, "PATH"
    return None, (f"not found: set {variable} or give its path in the suite's [peers] "
                  f"table (build it from {PEERS[name].source}, see docs/benchmarks.md)")


# ---------------------------------------------------------------- one run


def run_peer(peer: dict[str, str], kind_: Any, puzzle: Any, task: str,
             time_limit: float) -> dict[str, Any]:
    """One run of a peer on a puzzle: a record's answer fields, never an exception."""
    adapter = PEERS[peer["name"]]()
    if task not in adapter.calls:
        return _unsupported(f"{adapter.name} cannot {task}")
    try:
        text = adapter.write(puzzle)
    except Refused as error:
        return _unsupported(str(error))
    with tempfile.TemporaryDirectory(prefix="gridcp-peer-") as folder:
        input_file = os.path.join(folder, "puzzle.txt")
        Path(input_file).write_text(text)
        argv = adapter.command(peer["command"], puzzle, task, input_file)
        try:
            finished = run_child(argv, text, time_limit, cwd=folder, preexec_fn=_die_with_us)
        except OSError as error:
            return {"status": "ERROR", "wall": 0.0, "effort": {},
                    "message": f"{adapter.name} cannot start: {error}"}
    times = _times(finished)
    if finished.killed:
        return {"status": "LIMIT", **times, "effort": {},
                "message": f"{adapter.name} stopped at the time limit"}
    try:
        answer = adapter.read(puzzle, task, finished.out, finished.err, finished.code)
    except (RuntimeError, InputError) as error:
        return {"status": "ERROR", **times, "effort": {}, "message": f"{adapter.name}: {error}"}
    record: dict[str, Any] = {"status": str(answer.status), **times, "effort": {},
                              "peer": adapter.name}
    if answer.count is not None:
        record["count"] = answer.count
    if answer.message:
        record["message"] = answer.message
    if answer.solution is not None:
        problems = kind_.call("verify", puzzle, answer.solution)
        if problems:
            return {**record, "status": "ERROR", "message": f"invalid solution: {problems[0]}"}
        record["key"] = digest(kind_.call("key", puzzle, answer.solution))
    return record


def _times(finished: Finished) -> dict[str, float]:
    """The peer's wall clock and its CPU seconds, from the kernel's account of its process."""
    return {"wall": round(finished.wall, 6), "cpu_time": round(finished.cpu, 6)}


def _die_with_us() -> None:
    """In the peer's process, before exec: the kernel kills it when the run ends."""
    die_with_parent(watch=False)


def _unsupported(why: str) -> dict[str, Any]:
    return {"status": "ERROR", "unsupported": True, "message": why, "wall": 0.0, "effort": {}}


def _last(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "no message"


def _letter_rows(puzzle: Any) -> str:
    letter = {cell: LETTERS[i] for cell, i in puzzle.endpoint.items()}
    return "".join("".join(letter.get((r, c), ".") for c in range(puzzle.width)) + "\n"
                   for r in range(puzzle.height))


def _tatham_grid(puzzle: Any, text: str) -> Any:
    """The filled grid Tatham's solver prints after its verdict (its text format)."""
    parse_tatham_text = load("search.futoshiki.formats:parse_tatham_text")
    solution = load("search.futoshiki.model:Solution")
    lines = text.strip("\n").split("\n")[: 2 * puzzle.n - 1]
    filled = parse_tatham_text("\n".join(lines), "Tatham's answer")
    return solution(tuple(tuple(filled.given((r, c)) for c in range(puzzle.n))
                          for r in range(puzzle.n)))


def _letter_solution(puzzle: Any, out: str) -> Any:
    """The filled letter grid read back as paths, in the puzzle's pair order."""
    parse_solution = load("search.numberlink.io:parse_solution")
    relabelled = replace(puzzle, pairs=tuple(replace(p, label=LETTERS[i])
                                             for i, p in enumerate(puzzle.pairs)))
    return parse_solution(relabelled, out, "thomasahle's answer")
