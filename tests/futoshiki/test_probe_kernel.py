"""The probe kernel of the compiled-kernels study (``benchmarks/probe_kernel.py``)
answers as ``Engine.probe`` at Tatham's level 1, interpreted: the study times it
only after the same check, and its compiled forms run this same source.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from search.core.contract import InputError
from search.futoshiki.grade import up_to
from search.futoshiki.io import parse
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import PROBE_VALUES, Engine, PropagateBackend
from search.lab.oracles.futoshiki import random_puzzle

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("probe_kernel", ROOT / "benchmarks" /
                                              "probe_kernel.py")
assert spec is not None and spec.loader is not None
kernel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel)


def puzzles() -> list[Futoshiki]:
    out = []
    for path in sorted((ROOT / "instances" / "futoshiki").rglob("*")):
        if path.is_file() and path.suffix in (".txt", ".tatham", ".dat"):
            try:
                out.append(parse(path.read_text(), str(path)))
            except InputError:
                continue
    ids = (ROOT / "docs" / "benchmarks" / "futoshiki-9x9" / "ids.tsv").read_text()
    out += [parse(line.split("\t")[3]) for line in ids.splitlines()[::20]]  # 10, every grade
    rng = random.Random(30)
    out += [random_puzzle(rng.choice((4, 5, 6)), rng, givens=0.15) for _ in range(60)]
    return [p for p in out if not p.adjacent]


def kernel_probe(engine: Engine) -> tuple[bool, list[int] | None]:
    n = engine.n
    cells = n * n
    ptr: dict[str, list[int]] = {}
    for name, links in (("l", engine.larger), ("s", engine.smaller)):
        ptr[name + "ptr"], ptr[name + "idx"] = [0], []
        for targets in links:
            ptr[name + "idx"].extend(targets)
            ptr[name + "ptr"].append(len(ptr[name + "idx"]))
    dom = list(engine.dom)
    removed = kernel.probe(dom, n, [j for i in range(cells) for j in engine.peers[i]],
                           ptr["lptr"], ptr["lidx"], ptr["sptr"], ptr["sidx"], PROBE_VALUES,
                           [0] * cells, [0] * (n ** 3 + 1), [0] * (2 * n), [0] * cells)
    return (True, dom) if removed >= 0 else (False, None)


def engine_probe(engine: Engine) -> tuple[bool, list[int] | None]:
    engine.dirty = [False] * (2 * engine.n)  # the kernel's start: the node is a fixpoint
    ok = engine.probe(lambda: None)
    return (True, list(engine.dom)) if ok else (False, None)


def test_the_kernel_answers_as_the_engine_at_the_root_and_below():
    narrowed = failed = 0
    for puzzle in puzzles():
        engine = Engine(puzzle, up_to("easy"))
        if not engine.ok:
            continue
        nodes = [list(engine.dom)]
        open_cells = [i for i, d in enumerate(engine.dom) if d & (d - 1)]
        if open_cells:  # one node below the root: the first open cell at its lowest value
            i = open_cells[0]
            mark = len(engine.trail)
            if engine.assign(i, engine.dom[i] & -engine.dom[i]):
                nodes.append(list(engine.dom))
            engine.undo(mark)
        for dom in nodes:
            engine.dom = list(dom)
            engine.trail.clear()
            want = engine_probe(engine)
            engine.dom = list(dom)
            got = kernel_probe(engine)
            assert got == want, puzzle
            narrowed += want[0] and want[1] != dom
            failed += not want[0]
    assert narrowed >= 10 and failed >= 3  # the probes did remove values and find failures


def test_the_search_with_the_kernels_probe_makes_the_same_nodes():
    """``unique`` with the probe's trials in the kernel (as the study times it): the
    same status, node counts and solutions as with the engine's own probe, so a
    compiled kernel, the same source, leaves the search's answers as they are."""
    spec = importlib.util.spec_from_file_location("compiled_kernels", ROOT / "benchmarks" /
                                                  "compiled_kernels.py")
    assert spec is not None and spec.loader is not None
    study = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(study)
    ids = (ROOT / "docs" / "benchmarks" / "futoshiki-9x9" / "ids.tsv").read_text()
    cases = [p for p in puzzles() if p.n <= 6]
    cases += [parse(line.split("\t")[3]) for line in ids.splitlines() if "recursive" in line][:3]
    original = Engine.probe
    answers = {}
    try:
        for probe in (original, study.kernel_probe("pure", {"pure": kernel})):
            Engine.probe = probe
            answers[probe] = []
            for puzzle in cases:
                result = PropagateBackend(progress=False).unique(puzzle)
                answers[probe].append((result.status, result.effort["nodes"], result.solutions))
    finally:
        Engine.probe = original
    first, second = answers.values()
    assert first == second
    searched = sum(nodes > 1 for _, nodes, _ in first)
    assert searched >= 10  # real searches, not only answers at the root
