"""Routes to compiled code, measured on one kernel: Futoshiki's probe at a search node.

    python benchmarks/compiled_kernels.py [--ids docs/benchmarks/futoshiki-9x9/ids.tsv]
                                          [--per-grade N] [--samples K] [--build DIR]
                                          [--no-speed] [--share]

The kernel (``probe_kernel.py``: singleton consistency by forward checking,
inequality bounds and hidden singles, ``Engine.probe`` at Tatham's level 1) is
one source run six ways:

* ``engine``: today's ``Engine(puzzle, up_to("easy")).probe`` (the reference);
* ``pure``: the kernel interpreted over lists (the fallback of mypyc and Cython);
* ``mypyc``: the kernel compiled by mypyc from its annotations;
* ``cython``: compiled by Cython in pure-Python mode, no declarations;
* ``cython-typed``: compiled by Cython with the C types of ``probe_kernel.pxd``
  over int64 arrays;
* ``numba``: ``njit(cache=True)`` over int64 arrays; ``numba-py`` is the same
  array code interpreted (numba's fallback when it is not installed).

Every route must give the engine's domains on every puzzle (checked, then
timed).  The workload is the probe at the root node of each puzzle, from the
level-1 fixpoint of its givens.  Time is this process's CPU time
(``time.process_time``): for each puzzle and route, K samples of enough calls
to fill 5 ms, the median sample per call; the tables give the median over the
puzzles of a set.  Then the costs around the kernel, in fresh processes
(CPU of the finished child by ``getrusage``, median of K): start-up, numba's
first compile with a cold cache and its load from a warm one, the builds.

``--share`` instead times ``Engine.probe``'s share of ``propagate``'s
``unique`` per grade of the ``--ids`` file (where a kernel pays).

It builds in ``--build`` (default: a temporary folder); it needs a C compiler,
``mypy``, ``cython`` and ``numba`` installed.  Never asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from search.core.contract import InputError  # noqa: E402
from search.futoshiki.grade import up_to  # noqa: E402
from search.futoshiki.io import parse  # noqa: E402
from search.futoshiki.model import Futoshiki  # noqa: E402
from search.futoshiki.propagate import PROBE_VALUES, Engine, PropagateBackend  # noqa: E402

KERNEL = HERE / "probe_kernel.py"
SMALL = ROOT / "instances" / "futoshiki"
SAMPLE_SECONDS = 0.005
ROUTES = ("engine", "pure", "mypyc", "cython", "cython-typed", "numba-py", "numba")


# ---------------------------------------------------------------- the puzzles


def small_puzzles() -> list[tuple[str, Futoshiki]]:
    out = []
    for path in sorted(SMALL.rglob("*")):
        if not path.is_file() or path.suffix not in (".txt", ".tatham", ".dat"):
            continue
        try:
            puzzle = parse(path.read_text(), str(path))
        except InputError:
            continue
        if 4 <= puzzle.n <= 6 and not puzzle.adjacent:
            out.append((f"{puzzle.n}x{puzzle.n}", puzzle))
    return out


def big_puzzles(ids: Path, per_grade: int) -> list[tuple[str, Futoshiki]]:
    out, seen = [], {}
    for line in ids.read_text().splitlines():
        grade, _, _, gid = line.split("\t")
        if seen.get(grade, 0) < per_grade:
            seen[grade] = seen.get(grade, 0) + 1
            out.append((f"9x9 {grade}", parse(gid)))
    return out


class Case:
    """One puzzle's root node: the level-1 fixpoint and the tables every route reads."""

    def __init__(self, label: str, puzzle: Futoshiki):
        self.label, self.puzzle = label, puzzle
        self.engine = Engine(puzzle, up_to("easy"))
        self.mark = len(self.engine.trail)  # the root fixpoint's own changes stay
        n = self.n = puzzle.n
        self.ok = self.engine.ok
        self.root = list(self.engine.dom)
        self.open = sum(1 for d in self.root if d & (d - 1))
        self.peers = [j for i in range(n * n) for j in self.engine.peers[i]]
        self.lptr, self.lidx = _csr(self.engine.larger)
        self.sptr, self.sidx = _csr(self.engine.smaller)
        cells = n * n
        self.lists = dict(peers=self.peers, lptr=self.lptr, lidx=self.lidx, sptr=self.sptr,
                          sidx=self.sidx, work=[0] * cells, stack=[0] * (n ** 3 + 1),
                          dirty=[0] * (2 * n), weight=[0] * cells)
        self.arrays = {k: np.array(v, dtype=np.int64) for k, v in self.lists.items()}
        self.root_array = np.array(self.root, dtype=np.int64)
        self.want = self.reference()

    def reference(self) -> tuple[bool, list[int]]:
        self.reset_engine()
        ok = self.engine.probe(noop)
        out = (ok, list(self.engine.dom) if ok else None)
        self.reset_engine()
        return out

    def reset_engine(self) -> None:
        engine = self.engine
        engine.undo(self.mark)
        engine.dirty = [False] * (2 * self.n)

    def runner(self, route: str, kernels: dict[str, ModuleType], answer: bool = False):
        """A call that runs the probe once from the root by ``route``; with ``answer``
        it returns (no contradiction, the domains then), else nothing (for timing)."""
        n = self.n
        if route == "engine":
            engine = self.engine

            def run():
                ok = engine.probe(noop)
                dom = list(engine.dom) if ok else None
                self.reset_engine()
                return ok, dom

            def timed():
                engine.probe(noop)
                self.reset_engine()
            return run if answer else timed
        arrays = route in ("cython-typed", "numba", "numba-py")
        kernel = kernels[route]
        probe = kernel.probe
        t = self.arrays if arrays else self.lists
        root = self.root_array if arrays else self.root
        args = (t["peers"], t["lptr"], t["lidx"], t["sptr"], t["sidx"], PROBE_VALUES,
                t["work"], t["stack"], t["dirty"], t["weight"])

        def run():
            dom = root.copy()
            ok = probe(dom, n, *args) >= 0
            return ok, [int(v) for v in dom] if ok else None

        def timed():
            probe(root.copy(), n, *args)
        return run if answer else timed


def _csr(links: list[list[int]]) -> tuple[list[int], list[int]]:
    ptr, idx = [0], []
    for targets in links:
        idx.extend(targets)
        ptr.append(len(idx))
    return ptr, idx or [0]


def noop() -> None:
    pass


# ---------------------------------------------------------------- the routes


def child_cpu(command: list[str], env: dict[str, str] | None = None,
              cwd: Path | None = None) -> tuple[float, str]:
    """CPU seconds (user + system) of a finished child, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return cpu, done.stdout


def build(folder: Path) -> dict[str, float]:
    """mypyc and Cython builds of the kernel in ``folder``; their CPU seconds."""
    folder.mkdir(parents=True, exist_ok=True)
    costs = {}
    shutil.copy(KERNEL, folder / "pk_mypyc.py")
    costs["mypyc"], _ = child_cpu([sys.executable, "-m", "mypyc", "pk_mypyc.py"], cwd=folder)
    shutil.copy(KERNEL, folder / "pk_cython.py")
    # The annotations are mypyc's: Cython is told to read its types from the .pxd alone.
    directives = "boundscheck=False,wraparound=False,cdivision=True,annotation_typing=False"
    costs["cython"], _ = child_cpu(["cythonize", "-i", "-3", "-X",
                                    directives, "pk_cython.py"],
                                   cwd=folder)
    shutil.copy(KERNEL, folder / "pk_typed.py")
    shutil.copy(KERNEL.with_suffix(".pxd"), folder / "pk_typed.pxd")
    costs["cython-typed"], _ = child_cpu(["cythonize", "-i", "-3", "-X", directives,
                                          "pk_typed.py"], cwd=folder)
    return costs


def load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache finds the module by name
    spec.loader.exec_module(module)
    return module


def kernels(folder: Path) -> dict[str, ModuleType]:
    sys.path.insert(0, str(folder))
    import numba

    out = {"pure": load("pk_pure", KERNEL)}
    for route, name in (("mypyc", "pk_mypyc"), ("cython", "pk_cython"),
                        ("cython-typed", "pk_typed")):
        module = importlib.import_module(name)
        assert module.__file__ is not None and not module.__file__.endswith(".py"), name
        out[route] = module
    jitted = load("pk_numba", KERNEL)
    for name in ("fixpoint", "probe_from", "probe"):  # each calls the jitted ones
        setattr(jitted, name, numba.njit(cache=True)(getattr(jitted, name)))
    out["numba"] = jitted
    out["numba-py"] = load("pk_arrays", KERNEL)  # the same code over arrays, interpreted
    return out


# ---------------------------------------------------------------- timing


def per_call(run, samples: int) -> float:
    """Median over ``samples`` of the CPU seconds per call, each sample >= 5 ms."""
    reps, spent = 1, 0.0
    while True:  # calibrate
        start = time.process_time()
        for _ in range(reps):
            run()
        spent = time.process_time() - start
        if spent >= SAMPLE_SECONDS:
            break
        reps *= 4 if spent < SAMPLE_SECONDS / 8 else 2
    out = [spent / reps]
    for _ in range(samples - 1):
        start = time.process_time()
        for _ in range(reps):
            run()
        out.append((time.process_time() - start) / reps)
    return statistics.median(out)


def speed(cases: list[Case], mods: dict[str, ModuleType], samples: int) -> None:
    for case in cases:  # every route answers as the engine does, and numba compiles
        for route in ROUTES:
            got = case.runner(route, mods, answer=True)()
            if got != case.want:
                raise SystemExit(f"{route} differs from the engine on {case.label}")
    groups: dict[str, list[Case]] = {}
    for case in cases:
        groups.setdefault(case.label, []).append(case)
    print("## Probe at the root node: CPU microseconds per call, median over the puzzles\n")
    head = ["set", "puzzles", "open cells", *ROUTES, "engine / numba", "engine / cython-typed",
            "engine / mypyc"]
    rows = []
    for label, group in groups.items():
        times = {route: [1e6 * per_call(c.runner(route, mods), samples) for c in group]
                 for route in ROUTES}
        mid = {route: statistics.median(v) for route, v in times.items()}
        ratio = {route: statistics.median(e / t for e, t in zip(times["engine"], times[route]))
                 for route in ROUTES}
        rows.append([label, len(group), statistics.median(c.open for c in group),
                     *(f"{mid[r]:.1f}" for r in ROUTES), f"{ratio['numba']:.1f}",
                     f"{ratio['cython-typed']:.1f}", f"{ratio['mypyc']:.1f}"])
        print(f"  measured {label}", file=sys.stderr, flush=True)
    table(head, rows)
    big = [c for c in cases if c.n == 9]
    if big:
        convert = [1e6 * per_call(lambda c=c: np.array(c.root, dtype=np.int64).tolist(), samples)
                   for c in big]
        print(f"\nCrossing between a list of 81 domains and an int64 array and back: "
              f"{statistics.median(convert):.1f} us (median).\n")


def kernel_probe(route: str, mods: dict[str, ModuleType]):
    """``Engine.probe`` with its trials done by the kernel's ``probe_from`` over ``route``;
    the engine propagates each loss with every rule, as its own probe does."""
    probe_from = mods[route].probe_from
    arrays = route in ("cython-typed", "numba")

    def convert(values: list[int]):
        return np.array(values, dtype=np.int64) if arrays else values

    def probe(self: Engine, check) -> bool:
        n = self.n
        tables = self.__dict__.get("kernel_tables")
        if tables is None:
            cells = n * n
            lptr, lidx = _csr(self.larger)
            sptr, sidx = _csr(self.smaller)
            peers = [j for i in range(cells) for j in self.peers[i]]
            tables = self.kernel_tables = [convert(t) for t in (
                peers, lptr, lidx, sptr, sidx, [0] * cells, [0] * (n ** 3 + 1), [0] * (2 * n))]
        peers, lptr, lidx, sptr, sidx, work, stack, dirty = tables
        i = 0
        while True:
            check()
            dom = convert(list(self.dom))
            weight = convert(self.weight)
            i = probe_from(dom, i, n, peers, lptr, lidx, sptr, sidx, PROBE_VALUES, work,
                           stack, dirty, weight)
            if arrays:
                self.weight[:] = weight.tolist()
            if i < 0:
                return True
            if not (self.narrow(i, int(dom[i])) and self.propagate()):
                return False
            i += 1
    return probe


def search(ids: Path, mods: dict[str, ModuleType], grades: tuple[str, ...]) -> None:
    """``unique`` with the probe's trials in the kernel: the same answers, nodes and
    solutions as the engine's own probe, and the CPU per puzzle."""
    rows = [line.split("\t") for line in ids.read_text().splitlines()]
    routes = ("engine", "pure", "mypyc", "cython-typed", "numba")
    original = Engine.probe
    out = []
    try:
        for grade in grades:
            puzzles = [parse(row[3]) for row in rows if row[0] == grade]
            results: dict[str, list] = {}
            for route in routes:
                Engine.probe = original if route == "engine" else kernel_probe(route, mods)
                for puzzle in puzzles:
                    start = time.process_time()
                    result = PropagateBackend(progress=False).unique(puzzle)
                    spent = time.process_time() - start
                    results.setdefault(route, []).append(
                        (result.status, result.effort["nodes"], result.solutions, spent))
            want = [r[:3] for r in results["engine"]]
            for route in routes:
                if [r[:3] for r in results[route]] != want:
                    raise SystemExit(f"{route}: answers, nodes or solutions differ ({grade})")
                spent = [1000 * r[3] for r in results[route]]
                nodes = sum(r[1] for r in results[route])
                out.append([grade, route, len(puzzles), nodes,
                            f"{statistics.median(spent):.1f}", f"{max(spent):.1f}",
                            f"{1000 * sum(spent) / nodes:.0f}"])
            print(f"  searched {grade}", file=sys.stderr, flush=True)
    finally:
        Engine.probe = original  # type: ignore[method-assign]
    print("## unique with the probe's trials in the kernel (the same answers, nodes and "
          "solutions as the engine's own probe): CPU\n")
    table(["grade", "route", "puzzles", "nodes", "median ms", "max ms", "us per node"], out)


def share(ids: Path) -> None:
    """The probe's share of ``propagate``'s ``unique``, per grade (CPU)."""
    spent = [0.0]
    original = Engine.probe

    def timed(self: Engine, check) -> bool:
        start = time.process_time()
        try:
            return original(self, check)
        finally:
            spent[0] += time.process_time() - start

    rows = [line.split("\t") for line in ids.read_text().splitlines()]
    out = []
    Engine.probe = timed  # type: ignore[method-assign]
    try:
        for grade in dict.fromkeys(row[0] for row in rows):
            spent[0], total, nodes = 0.0, 0.0, 0
            puzzles = [parse(row[3]) for row in rows if row[0] == grade]
            for puzzle in puzzles:
                start = time.process_time()
                result = PropagateBackend(progress=False).unique(puzzle)
                total += time.process_time() - start
                nodes += int(result.effort["nodes"])
            out.append([grade, len(puzzles), nodes, f"{total:.2f}",
                        f"{100 * spent[0] / total:.1f} %"])
    finally:
        Engine.probe = original  # type: ignore[method-assign]
    print("## Engine.probe's share of propagate's unique (CPU)\n")
    table(["grade", "puzzles", "nodes", "CPU s", "in Engine.probe"], out)


# ---------------------------------------------------------------- around the kernel

SNIPPET = r"""
import sys, time
t0 = time.process_time()
sys.path.insert(0, {folder!r})
{imports}
t1 = time.process_time()
{call}
t2 = time.process_time()
print(f"{{t1 - t0:.4f}} {{t2 - t1:.4f}}")
"""
CALL_4x4 = (
    "n = 4; cells = 16\n"
    "import random\n"
    "peers = [j for i in range(cells) for j in range(cells) if j != i and "
    "(j // n == i // n or j % n == i % n)]\n"
    "lptr, lidx = [0] * 17, [0]\n"
    "dom = [15] * cells; dom[0] = 1\n"
    "args = [dom, n, peers, lptr, lidx, lptr, lidx, 5, [0] * cells, [0] * 65, "
    "[0] * 8, [0] * cells]\n"
    "{convert}\n"
    "probe(*args)\n"
)


def fresh(snippet: str, samples: int, env: dict[str, str] | None = None,
          before=None) -> tuple[float, float, float]:
    """Medians of (whole-process CPU, import CPU, first-call CPU) over fresh processes."""
    whole, imports, calls = [], [], []
    for _ in range(samples):
        if before is not None:
            before()
        cpu, out = child_cpu([sys.executable, "-c", snippet], env=env)
        a, b = (float(x) for x in out.split())
        whole.append(cpu)
        imports.append(a)
        calls.append(b)
    return statistics.median(whole), statistics.median(imports), statistics.median(calls)


def around(folder: Path, costs: dict[str, float], samples: int) -> None:
    lists = CALL_4x4.format(convert="")
    arrays = CALL_4x4.format(convert="args = [np.array(a, dtype=np.int64) if isinstance(a, list) "
                             "else a for a in args]")
    stdlib = CALL_4x4.format(convert="args = [array.array('q', a) if isinstance(a, list) "
                             "else a for a in args]")
    kernel = str(KERNEL.parent)
    numba_import = ("import numpy as np, numba, importlib.util\n"
                    f"spec = importlib.util.spec_from_file_location('pk_numba', {str(KERNEL)!r})\n"
                    "m = importlib.util.module_from_spec(spec); sys.modules['pk_numba'] = m\n"
                    "spec.loader.exec_module(m)\n"
                    "for f in ('fixpoint', 'probe_from', 'probe'):\n"
                    "    setattr(m, f, numba.njit(cache=True)(getattr(m, f)))\n"
                    "probe = m.probe")
    cache = Path(tempfile.mkdtemp(prefix="numba-cache-"))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))

    def cold() -> None:
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir()

    rows = []
    cases = [
        ("python -c pass", "pass", "pass", None, None),
        ("import numpy", "import numpy", "pass", None, None),
        ("import numba", "import numba", "pass", None, None),
        ("pure: import the kernel, probe a 4x4",
         f"sys.path.insert(0, {kernel!r}); from probe_kernel import probe", lists, None, None),
        ("mypyc: the same", "from pk_mypyc import probe", lists, None, None),
        ("cython: the same", "from pk_cython import probe", lists, None, None),
        ("cython-typed: the same, over arrays",
         "import numpy as np; from pk_typed import probe", arrays, None, None),
        ("cython-typed: the same, over the standard library's arrays",
         "import array; from pk_typed import probe", stdlib, None, None),
        ("numba, cache cold: the same, over arrays", numba_import, arrays, env, cold),
        ("numba, cache warm: the same, over arrays", numba_import, arrays, env, None),
    ]
    for label, imports, call, child_env, before in cases:
        snippet = SNIPPET.format(folder=str(folder), imports=imports, call=call)
        whole, first, second = fresh(snippet, samples, child_env, before)
        rows.append([label, f"{1000 * whole:.0f}", f"{1000 * first:.0f}",
                     f"{1000 * second:.1f}"])
    shutil.rmtree(cache, ignore_errors=True)
    print("## Around the kernel: fresh processes, CPU milliseconds, median of "
          f"{samples}\n")
    table(["process", "whole process", "imports", "first call (compile, if any)"], rows)
    print("\n## Builds (CPU seconds of the build process and its compiler, once)\n")
    if costs:
        table(["route", "build"], [[k, f"{v:.1f}"] for k, v in costs.items()])
    else:
        print("(the build folder was built before: not measured)")


def table(head: list[str], rows: list[list]) -> None:
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for row in rows:
        print("| " + " | ".join(str(v) for v in row) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ids", type=Path,
                        default=ROOT / "docs" / "benchmarks" / "futoshiki-9x9" / "ids.tsv",
                        help="9x9 puzzles as futoshiki_tatham.py --make-ids writes them")
    parser.add_argument("--per-grade", type=int, default=40, help="9x9 puzzles per grade")
    parser.add_argument("--samples", type=int, default=5, help="samples per measure")
    parser.add_argument("--build", type=Path, help="build folder (default: a temporary one)")
    parser.add_argument("--no-speed", action="store_true",
                        help="only the costs around the kernel (start-up, builds)")
    parser.add_argument("--search", action="store_true",
                        help="only unique on the Extreme and Recursive 9x9s, probe in the kernel")
    parser.add_argument("--share", action="store_true",
                        help="only the probe's share of propagate's unique, per grade")
    args = parser.parse_args(argv)
    if args.share:
        share(args.ids)
        return 0
    folder = args.build or Path(tempfile.mkdtemp(prefix="gridcp-kernels-"))
    os.environ.setdefault("NUMBA_CACHE_DIR", str(folder / "numba-cache"))
    built = all(any(folder.glob(f"{name}.*.so")) for name in ("pk_mypyc", "pk_cython", "pk_typed"))
    costs = {} if built else build(folder)  # a folder built before is reused
    mods = kernels(folder)
    if args.search:
        search(args.ids, mods, ("extreme", "recursive"))
        return 0
    print(f"# Compiled kernels: Futoshiki's probe ({time.strftime('%Y-%m-%d')}, "
          f"Python {sys.version.split()[0]}, numba {sys.modules['numba'].__version__})\n")
    if not args.no_speed:
        cases = [Case(label, p) for label, p in small_puzzles() + big_puzzles(args.ids,
                                                                              args.per_grade)]
        cases = [c for c in cases if c.ok]
        cases.sort(key=lambda c: (c.n, c.label))
        speed(cases, mods, args.samples)
    around(folder, costs, args.samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
