"""Benchmark suites: ``benchmarks/<name>.toml``, run by ``gridcp bench --suite NAME``.

A suite names its instances, backends, tasks, rule variants and limits, so
that a figure in ``docs/`` is remade by one command.  Paths are relative to
the checkout (the folder that holds ``benchmarks/``)::

    description = "one line: what the suite measures"
    needs = ["../shared/instances-public/futoshiki"]  # absent: the suite is skipped
    backends = ["search", "cpsat"]  # defaults of every [[instances]] entry
    tasks = ["solve"]               # solve, count, unique, check
    rules = [{}, {border = true}]   # rule variants, each a run of its own
    time_limit = 10                 # seconds per run; memory_limit (MB), grace (s)

    [peers]                         # peer tools: where their executables are
    ddnumlin = "../peers/tdzdd/apps/numberlink/ddnumlin"

    [report]
    scatter = ["search", "cpsat"]   # the two backends of the scatter plots
    by = ["size"]                   # extra tables: per size (and/or "rules")

    [[instances]]                   # one entry per group of instances
    paths = ["instances/futoshiki/latin", "../shared/x/*.txt"]  # files, folders, globs
    # or: collection = "file holding many puzzles"   (each puzzle a run)
    # or: generator = "lianliankan-full", sizes = ["18x8"], seeds = 100
    #     (seeds: a count from 0, a list, or {start = 10000, count = 300})
    expected = {table = "../shared/x/index.tsv", file = "path", answers = {count = "solutions"}}
    #     the known answers: a .tsv or .csv whose column ``file`` names each file
    #     relative to the table (and ``index`` its place in a collection); the
    #     ``answers`` map a task, or a task under rules ("count [lenient]"), to a
    #     column (answers other than numbers and status words are ignored)
    puzzle = "lianliankan"          # the puzzle kind (default: detected)
    first = 10                      # only the first N instances of the entry
    exclude = ["unsolvable"]        # leave out names holding one of these
    options = {pictures = 12}       # the generator's own parameters
    # backends, tasks, rules, time_limit, memory_limit here override the defaults

A backend is a registered name, ``NAME=package.module:Class``, a peer
(``search.lab.peers``), or a variant ``{name = "greedy", backend = "search",
options = {method = "greedy"}}``.
"""

from __future__ import annotations

import contextlib
import csv
import glob
import os
import random
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

from search.app.manifest import labelled
from search.core import inputs
from search.core.contract import GridcpError, InputError
from search.core.registry import detect, kind, kinds, load, read_text
from search.lab.crosscheck import load_instances, parse_sizes
from search.lab.oracles import futoshiki, numberlink
from search.lianliankan.generate import full_fill, seed_fill
from search.lianliankan.model import Board
from search.numberlink.generate import seed_board
from search.pipelines.numberlink_generate import well_designed

ROOT = Path(__file__).resolve().parents[2]
SUITES = ROOT / "benchmarks"
TOP_KEYS = {"description", "needs", "backends", "tasks", "rules", "time_limit",
            "memory_limit", "grace", "peers", "report", "instances"}
ENTRY_KEYS = {"paths", "collection", "generator", "sizes", "seeds", "puzzle", "first",
              "exclude", "options", "backends", "tasks", "rules", "time_limit",
              "memory_limit", "set", "expected"}
OVERRIDES = ("backends", "tasks", "rules", "time_limit", "memory_limit")


@dataclass(frozen=True)
class Instance:
    """One instance of a suite: its name, set, kind, parsed puzzle and text."""

    name: str
    set: str
    kind: Any
    puzzle: Any
    text: str
    # the known answers: task, or task under rules ("count [lenient]") -> answer
    expected: dict[str, str] = field(default_factory=dict)
    path: Path | None = None  # the file it comes from
    index: int | None = None  # its place in a collection

    def known(self, task: str, rules: dict[str, Any]) -> str | None:
        return self.expected.get(labelled(task, rules), self.expected.get(task))


@dataclass(frozen=True)
class Suite:
    name: str
    path: Path
    description: str
    needs: tuple[str, ...]
    defaults: dict[str, Any]
    peers: dict[str, str]
    report: dict[str, Any]
    entries: tuple[dict[str, Any], ...]

    def missing(self) -> list[str]:
        """What the suite needs and this machine lacks (relative names, as written)."""
        return [need for need in self.needs if not beside(need).exists()]

    def settings(self, entry: dict[str, Any]) -> dict[str, Any]:
        return {**self.defaults, **{k: entry[k] for k in OVERRIDES if k in entry}}


def checkouts() -> list[Path]:
    """This checkout, and the main one when this is a git worktree: a path such
    as ``../shared/instances-public`` is looked for beside either."""
    found = [ROOT]
    with contextlib.suppress(OSError):
        # a worktree's .git is a file: "gitdir: MAIN/.git/worktrees/NAME"
        pointer = (ROOT / ".git").read_text()
        if pointer.startswith("gitdir:"):
            found.append(Path(pointer.partition(":")[2].strip()).parent.parent.parent)
    return found


def beside(relative: str) -> Path:
    """A path of a suite, relative to the checkout (or absolute), where it exists."""
    candidates = [Path(relative)] if Path(relative).is_absolute() else \
        [Path(os.path.normpath(root / relative)) for root in checkouts()]
    return next((c for c in candidates if c.exists()), candidates[0])


def suite_path(name: str) -> Path:
    """A suite by name (``benchmarks/NAME.toml``) or by path."""
    given = Path(name)
    if given.suffix == ".toml":
        return given
    return SUITES / f"{name}.toml"


def available() -> list[Path]:
    return sorted(SUITES.glob("*.toml"))


def load_suite(name: str) -> Suite:
    path = suite_path(name)
    if not path.exists():
        known = ", ".join(p.stem for p in available()) or "none"
        raise GridcpError(f"no suite {name!r} ({path} is absent; known: {known})")
    text = inputs.read_text(path, puzzle=False, what="a suite")
    try:
        data = tomllib.loads(text)
    except ValueError as error:  # TOMLDecodeError, and an integer past Python's digit limit
        raise InputError(f"not a suite: {error}", str(path)) from None
    check_suite(data, text, str(path))
    entries = data["instances"]
    defaults = {"backends": None, "tasks": ["solve"], "rules": [{}], "time_limit": 10.0,
                "memory_limit": 4096.0, "grace": 5.0}
    defaults.update({k: data[k] for k in defaults if k in data})
    needs = data.get("needs", [])
    return Suite(path.stem, path, data.get("description", ""),
                 tuple([needs] if isinstance(needs, str) else needs), defaults,
                 dict(data.get("peers", {})), dict(data.get("report", {})), tuple(entries))


# ---------------------------------------------------------------- the shape of a suite


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _number(low: float, strict: bool = False) -> Callable[[Any], bool]:
    return lambda value: (isinstance(value, int | float) and not isinstance(value, bool)
                          and (value > low if strict else value >= low) and value < 1e9)


def _seeds(value: Any) -> bool:
    whole = _number(0)
    return ((isinstance(value, int) and whole(value) and value <= 10**7)
            or isinstance(value, list) and all(isinstance(v, int) and whole(v) for v in value)
            or isinstance(value, dict) and set(value) == {"start", "count"}
            and all(isinstance(v, int) and whole(v) for v in value.values())
            and value["count"] <= 10**7)


def _backends(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, str) or isinstance(v, dict) and {"name", "backend"} <= set(v)
        <= {"name", "backend", "options"} and isinstance(v["name"], str)
        and isinstance(v["backend"], str) and isinstance(v.get("options", {}), dict)
        for v in value)


# key -> (what it must be, in words; the test)
SHAPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "description": ("a string", lambda v: isinstance(v, str)),
    "needs": ("a path or a list of paths", lambda v: isinstance(v, str) or _texts(v)),
    "backends": ("a list of backend names or {name, backend, options} tables", _backends),
    "tasks": ("a list of tasks (solve, count, unique, check)",
              lambda v: _texts(v) and set(v) <= {"solve", "count", "unique", "check"}),
    "rules": ("a list of tables ({} for the default rules)",
              lambda v: isinstance(v, list) and all(isinstance(r, dict) for r in v)),
    "time_limit": ("a number of seconds above 0", _number(0, strict=True)),
    "memory_limit": ("a number of megabytes, 0 or more", _number(0)),
    "grace": ("a number of seconds, 0 or more", _number(0)),
    "peers": ("a table of paths", lambda v: isinstance(v, dict)
              and all(isinstance(x, str) for x in v.values())),
    "report": ("a table {scatter = [A, B], by = [\"size\", \"rules\", \"set\", \"size+rules\"]}",
               lambda v: isinstance(v, dict) and set(v) <= {"scatter", "by"}
               and (_texts(v.get("scatter", ["", ""])) and len(v.get("scatter", "ab")) == 2)
               and _texts(v.get("by", [])) and all(
                   set(by.split("+")) <= {"size", "rules", "set"} for by in v.get("by", []))),
    "instances": ("a list of [[instances]] tables",
                  lambda v: isinstance(v, list) and v and all(isinstance(e, dict) for e in v)),
    "paths": ("a list of paths", _texts),
    "collection": ("a path", lambda v: isinstance(v, str)),
    "generator": ("a generator's name", lambda v: isinstance(v, str)),
    "sizes": ("a list of sizes, \"WxH\"", _texts),
    "seeds": ("a count, a list, or {start = S, count = N}", _seeds),
    "puzzle": ("a puzzle's name", lambda v: isinstance(v, str)),
    "first": ("a whole number, 0 or more",
              lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0),
    "exclude": ("a list of strings", _texts),
    "options": ("a table", lambda v: isinstance(v, dict)),
    "set": ("a string", lambda v: isinstance(v, str)),
    "expected": ("{table, file, answers, index}", lambda v: isinstance(v, dict)
                 and {"table", "file", "answers"} <= set(v) <= {"table", "file", "answers",
                                                                  "index"}
                 and all(isinstance(v[k], str) for k in ("table", "file"))
                 and isinstance(v.get("index", ""), str) and isinstance(v["answers"], dict)
                 and all(isinstance(c, str) for c in v["answers"].values())),
}


# every puzzle's rule options (a suite may mix puzzles: each run takes its own)
RULE_NAMES = tuple(sorted({o.dest for k in kinds() for o in k.options}))


def _line_of(text: str, key: str, entry: int | None) -> int | None:
    """The line of ``key = ...`` (in the ``entry``-th [[instances]], 1-based), if found."""
    seen = 0
    for number, line in inputs.numbered(text):
        stripped = line.strip()
        if stripped.startswith("[[instances]]"):
            seen += 1
        elif (seen == (entry or 0)) and stripped.split("=", 1)[0].strip() == key:
            return number
    return None


def check_suite(data: dict[str, Any], text: str, source: str) -> None:
    """Refuse a suite whose keys or values are not what the module's text says,
    naming the key and its line."""
    def refuse(problem: str, key: str | None = None, entry: int | None = None) -> NoReturn:
        line = _line_of(text, key, entry) if key else None
        where = f"[[instances]] #{entry}: " if entry else ""
        raise InputError(where + problem, source, line)

    def check(table: dict[str, Any], known: set[str], entry: int | None) -> None:
        for key in sorted(table, key=str):
            if key not in known:
                refuse(f"unknown key {inputs.shown(key)} (known: {', '.join(sorted(known))})",
                       key, entry)
            what, test = SHAPES[key]
            if not test(table[key]):
                refuse(f"{key} must be {what}, found {inputs.shown(str(table[key]))}", key,
                       entry)
        for rule in sorted({name for rules in table.get("rules", []) for name in rules}):
            if rule not in RULE_NAMES:
                refuse(f"unknown rule {inputs.shown(rule)} (known: {', '.join(RULE_NAMES)})",
                       "rules", entry)

    check(data, TOP_KEYS, None)
    if not data.get("instances"):
        refuse("no [[instances]]")
    for number, entry in enumerate(data["instances"], start=1):
        check(entry, ENTRY_KEYS, number)
        if sum(k in entry for k in ("paths", "collection", "generator")) != 1:
            refuse("give one of paths, collection, generator", None, number)


# ---------------------------------------------------------------- instances


def instances(suite: Suite, entry: dict[str, Any], sample: int | None = None
              ) -> Iterator[Instance]:
    """The instances of one entry, in a stable order, at most ``first`` of them
    (and ``sample``: of a generator, the first seeds of each size)."""
    if "paths" in entry:
        found = _files(suite, entry)
    elif "collection" in entry:
        found = _collection(suite, entry)
    else:
        found = _generated(entry, suite, sample)
        sample = None
    exclude = entry.get("exclude", [])
    bounds = [n for n in (entry.get("first"), sample) if n is not None]
    first = min(bounds) if bounds else None
    known = _expected(entry["expected"], suite) if "expected" in entry else None
    n = 0
    for instance in found:
        if known is not None:
            instance = _with_known(instance, known)
        if any(word in instance.name for word in exclude):
            continue
        if first is not None and n >= first:
            return
        n += 1
        yield instance


ANSWERS = {"SOLVED", "UNSAT", "UNIQUE", "MULTIPLE"}  # the words a table of answers may hold


def _shown(path: Path) -> str:
    """A path as records name it, as the suite would: relative to the checkout
    (``../shared/...`` beside it), else absolute."""
    resolved = path.resolve()
    for root in checkouts():
        with contextlib.suppress(ValueError):
            return str(resolved.relative_to(root))
        with contextlib.suppress(ValueError):
            return str(Path("..") / resolved.relative_to(root.parent))
    return str(resolved)


def _files(suite: Suite, entry: dict[str, Any]) -> Iterator[Instance]:
    paths = []
    for pattern in entry["paths"]:
        if glob.has_magic(pattern):
            matched = next((found for root in checkouts() if (found := sorted(
                glob.glob(os.path.join(root, pattern), recursive=True)))), [])
        else:
            matched = [str(beside(pattern))]
        if not matched or not all(Path(m).exists() for m in matched):
            raise GridcpError(f"suite {suite.name}: {pattern} matches nothing")
        paths += matched
    for path, kind_, parsed in load_instances(paths, entry.get("puzzle")):
        name = _shown(path)
        yield Instance(name, entry.get("set", str(Path(name).parent)), kind_, parsed,
                       read_text(path), path=Path(path).resolve())


# A collection's label -> the answer of a task (Lianliankan boards from an exact search).
LABELS = {"SOLVABLE": {"solve": "SOLVED", "check": "SOLVABLE"},
          "UNSOLVABLE": {"solve": "UNSAT", "check": "UNSOLVABLE"}}


def _collection(suite: Suite, entry: dict[str, Any]) -> Iterator[Instance]:
    path = beside(entry["collection"])
    text = read_text(path)
    kind_ = detect(text, str(path), entry.get("puzzle"))
    name = _shown(path)
    for index, item in enumerate(_many(kind_, text, str(path))):
        label = ""
        if isinstance(item, tuple):  # (id, label, puzzle): a labelled collection
            label, item = item[1], item[-1]
        yield Instance(f"{name}#{index}", entry.get("set", name), kind_, item,
                       kind_.call("format_puzzle", item), expected=LABELS.get(label, {}),
                       path=path.resolve(), index=index)


def _expected(spec: dict[str, Any], suite: Suite) -> dict[tuple[Path, int], dict[str, str]]:
    """(file, index) -> {task: answer} from a table of known answers."""
    if not {"table", "file", "answers"} <= set(spec):
        raise GridcpError(f"suite {suite.name}: expected = {{table, file, answers, index}}")
    table = beside(spec["table"])
    text = inputs.read_text(table, puzzle=False, what="a table of answers")
    numbers = [number for number, line in inputs.numbered(text) if not line.startswith("#")]
    lines = [line for _, line in inputs.numbered(text) if not line.startswith("#")]
    rows = csv.DictReader(lines, delimiter="\t" if table.suffix == ".tsv" else ",")
    out: dict[tuple[Path, int], dict[str, str]] = {}
    for row in rows:
        line = numbers[min(rows.line_num, len(numbers)) - 1] if numbers else None
        if row.get(spec["file"]) is None or spec.get("index") and row.get(spec["index"]) is None:
            raise InputError(f"a row without the column {spec['file']!r}"
                             + (f" or {spec['index']!r}" if spec.get("index") else ""),
                             str(table), line)
        answers = {task: _answer(task, row.get(column) or "")
                   for task, column in spec["answers"].items()}
        answers = {task: a for task, a in answers.items()
                   if inputs.is_integer(a, inputs.MAX_RECORD_DIGITS) and a.isdigit()
                   or a in ANSWERS}
        index = inputs.integer(row[spec["index"]], str(table), line, spec["index"]) \
            if spec.get("index") else 0
        out[(table.parent / row[spec["file"]]).resolve(), index] = answers
    return out


def _answer(task: str, text: str) -> str:
    """The first word of a cell; a number of solutions as unique answers it."""
    word = (text.split() or [""])[0]
    if (task.split() or [""])[0] == "unique" and word.isascii() and word.isdigit():
        return {"0": "UNSAT", "1": "UNIQUE"}.get(word.lstrip("0") or "0", "MULTIPLE")
    return word


def _with_known(instance: Instance, known: dict[tuple[Path, int], dict[str, str]]
                ) -> Instance:
    if instance.path is None:
        return instance
    found = known.get((instance.path, instance.index or 0), {})
    return replace(instance, expected={**instance.expected, **found}) if found else instance


def _many(kind_: Any, text: str, source: str) -> list[Any]:
    try:
        parse_many = load(f"search.{kind_.name}.io:parse_many")
    except AttributeError:
        raise GridcpError(f"{source}: {kind_.name} has no collections") from None
    return parse_many(text, source)


# ---------------------------------------------------------------- generators


# The generators are loaded by dotted path when a suite asks for them: a sweep
# that generates no board imports none of them.
def _lianliankan_full(width: int, height: int, seed: int, pictures: int | None = None) -> Any:
    return Board(full_fill(width, height, pictures or width * height // 4, random.Random(seed)))


def _lianliankan_seed(width: int, height: int, seed: int, pictures: int = 20,
                      pairs: int = 100) -> Any:
    return Board(seed_fill(width, height, pictures, pairs, random.Random(seed)))


def _numberlink_seed(width: int, height: int, seed: int) -> Any:
    return seed_board(height, width, seed)[0]


def _numberlink_well_designed(width: int, height: int, seed: int) -> Any:
    return well_designed(height, width, seed)[0]


def _numberlink_random(width: int, height: int, seed: int) -> Any:
    return numberlink.random_puzzle(height, width, random.Random(seed))


def _futoshiki_random(width: int, height: int, seed: int, givens: float = 0.2,
                      relations: float = 0.3) -> Any:
    return futoshiki.random_puzzle(width, random.Random(seed), givens, relations)


# name -> (puzzle, (width, height, seed, **options) -> puzzle); the seeds as the
# figures of docs/ were made with: random.Random(seed) for each board.
GENERATORS: dict[str, tuple[str, Callable[..., Any]]] = {
    "lianliankan-full": ("lianliankan", _lianliankan_full),
    "lianliankan-seed": ("lianliankan", _lianliankan_seed),
    "numberlink-seed": ("numberlink", _numberlink_seed),
    "numberlink-well-designed": ("numberlink", _numberlink_well_designed),
    "numberlink-random": ("numberlink", _numberlink_random),
    "futoshiki-random": ("futoshiki", _futoshiki_random),
}


def seeds_of(value: Any, where: str) -> list[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return list(range(value))
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return value
    if isinstance(value, dict) and set(value) == {"start", "count"}:
        return list(range(value["start"], value["start"] + value["count"]))
    raise GridcpError(f"{where}: seeds is a count, a list, or {{start = S, count = N}}")


def _generated(entry: dict[str, Any], suite: Suite, sample: int | None) -> Iterator[Instance]:
    name = entry["generator"]
    if name not in GENERATORS:
        raise GridcpError(f"suite {suite.name}: no generator {name!r} "
                          f"(known: {', '.join(GENERATORS)})")
    puzzle, make = GENERATORS[name]
    kind_ = kind(puzzle)
    sizes = parse_sizes(",".join(entry.get("sizes", [])) or None, (7, 7))
    for width, height in sizes:
        for seed in seeds_of(entry.get("seeds", 10), f"suite {suite.name}")[:sample]:
            try:
                board = make(width, height, seed, **entry.get("options", {}))
            except TypeError as error:
                raise GridcpError(f"suite {suite.name}: generator {name}: {error}") from None
            yield Instance(f"{name} {width}x{height} seed {seed}",
                           entry.get("set", f"{name} {width}x{height}"), kind_, board,
                           kind_.call("format_puzzle", board))
