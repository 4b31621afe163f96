"""Numberlink generators: the seed article's (``search.numberlink.generate``),
large full-cover boards (``search.numberlink.paths_gen``), and two that only
emit well-designed puzzles, with the command that runs them.

``well_designed`` (the default, ``--method well-designed``) scales to 40 x 40:
it draws the solution first (a full cover of space-filling paths,
``large_board``) and repairs it where it is ambiguous, keeping each repair
local.  A second solution T differs from the board's solution S somewhere;
cutting a path of S at a step that T does not take (two pairs out of one)
rules T out, since each cut cell becomes an end that T passes through or
leaves empty.  More labels only remove solutions, so repairs never undo one
another.

1. *Sweep*: every small window (``LOCAL``: squares of 4 and 6 cells a side,
   bands of 4 rows or columns) is a puzzle of its own with S fixed outside
   it (``detour.restrict``); the ``search`` backend finds a second lenient
   solution of the window within ``Design.window_nodes`` nodes (on windows
   this small it is 20 times faster than the frontier), and a cut repairs it.
   After a cut only the windows holding a cut cell are looked at again: the
   others are the same small puzzles as before.
2. *Proof*: the well-designed check (``numberlink_check.check``, its
   ``Design.check`` budget).  WELL-DESIGNED ends it, and the board's proof is
   the check's (its engine and step are reported); two solutions give more
   cuts where they part (``Design.cuts``) and a sweep around them; an
   undecided check cuts the longest path in two (more labels make the proof
   shorter) and checks again.

Everything is budgeted in work and drawn from one ``random.Random(seed)``:
the same seed gives the same board on any machine.  After ``Design.rounds``
checks without a proof the board is dropped and another drawn.

``seed_well_designed`` (``--method seed-well-designed``) is the earlier one:
it grows a seed-article board (blocked cells included) and repairs it with
the ``search`` backend's count of self-avoiding lenient solutions up to 2;
fast up to about 15 x 15, not beyond.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from search.core.contract import CheckReport, Deadline, GridcpError, Status, add_effort
from search.core.limits import check_cells
from search.core.outputs import generated, out_dir, write_file
from search.numberlink import KIND
from search.numberlink.detour import Shape, Window, put_back, restrict, windows
from search.numberlink.generate import SeedGenerator, cut, parted, seed_board
from search.numberlink.grade import GRADES
from search.numberlink.io import format_puzzle, format_solution, solution_json
from search.numberlink.model import Cell, Numberlink, Solution
from search.numberlink.paths_gen import large_board
from search.pipelines.numberlink_check import Budget, check
from search.pipelines.numberlink_difficulty import Drawn, Graded, graded, hard

# Cells per pair on the drawn board when ``--pairs`` is not given: the proof's
# work falls fast as pairs are added (20x20, seeds 65004-65006: 1.4-1.8 CPU s
# a board from 33 pairs, against 2.5-6.5 from 20), and the repairs add more.
CELLS_PER_PAIR = 12
# the sweep's windows: cheap (a band of 4 rows is a frontier of 4 cells)
LOCAL: tuple[Shape, ...] = (("square", 4), ("square", 6), ("rows", 4), ("columns", 4),
                            ("square", 8))


@dataclass(frozen=True)
class Design:
    """The generator's work budgets: the same budgets, the same boards."""

    window_nodes: int = 5_000  # ``search`` nodes for one sweep window (most need 10-400)
    rounds: int = 40  # checks of one drawn board before another is drawn
    boards: int = 20  # boards drawn for one seed before giving up
    # paths cut where the check's second solution parts from S: at least
    # ``cuts``, and one per ``cells_per_cut`` cells (large boards hide more
    # ambiguities, each check costs more: 30x30, seeds 66004-66006, 47 CPU s
    # with 8 cuts against 63 with 3)
    cuts: int = 3
    cells_per_cut: int = 120
    # The check's own budget.  Its first look at the proof (``proof
    # (glance)``, CP-SAT right after the cover) gets the most: on a swept
    # board it either proves the board or finds the second solution that the
    # next cut needs; it grows with the board, its ``glance_proof_time`` for
    # each ``proof_cells`` cells, as the check's later proofs do (40x40, seeds
    # 69002-69003: with 1 deterministic s, 11 of their 25 checks ran out and
    # each cost a cut and another check).  The detours (the sweep looked
    # there already) and the steps after the second cover (long proofs) do not
    # run: an undecided check costs a cut (more pairs make the proof
    # shorter), not a long proof.
    check: Budget = field(default_factory=lambda: Budget(
        glance_proof_time=1.0, large_states=1, full_window_states=0, thorough=False))


@dataclass(frozen=True)
class Made:
    """A well-designed puzzle, its solution, the check's report that proves
    it, and what it took: boards drawn, cuts, checks, and the work."""

    puzzle: Numberlink
    solution: Solution
    report: CheckReport | None  # None: proved by ``--check-backend``'s report below
    boards: int
    cuts: int
    checks: int
    effort: dict[str, float]

    @property
    def proved_by(self) -> str:
        return self.report.engine if self.report is not None else ""


class _Repair:
    """One drawn board under repair: its puzzle, its solution S, the sweep's
    queue of windows, and the work spent."""

    def __init__(self, puzzle: Numberlink, solution: Solution, rng: random.Random,
                 design: Design):
        self.puzzle, self.solution, self.rng, self.design = puzzle, solution, rng, design
        self.all = list(windows(puzzle.height, puzzle.width, LOCAL))
        self.queue: list[Window] = list(self.all)
        self.cuts = 0
        self.effort: dict[str, float] = {}
        self.engine = KIND.backend("search", max_nodes=design.window_nodes)

    def cut(self, other: Solution, paths: int = 1) -> bool:
        """Rule ``other`` out by cuts of S where they part, in up to ``paths``
        paths (one cut rules it out; more rule out its neighbours too, for
        fewer checks); False if no step of S can be cut there (both halves
        need two cells)."""
        where = parted(self.solution, other)
        if not where:
            return False
        self.rng.shuffle(where)
        chosen: dict[int, int] = {}
        for p, i in where:
            if len(chosen) < paths:
                chosen.setdefault(p, i)
        self._cut_at(chosen)
        return True

    def cut_longest(self) -> None:
        """Halve the longest path (the first of the longest), near its middle."""
        p = max(range(len(self.solution.paths)), key=lambda k: len(self.solution.paths[k]))
        n = len(self.solution.paths[p])
        if n >= 4:
            self._cut_at({p: self.rng.randrange(1, n - 2)})

    def _cut_at(self, where: dict[int, int]) -> None:
        ends = [self.solution.paths[p][j] for p, i in where.items() for j in (i, i + 1)]
        self.puzzle, self.solution = cut(self.puzzle, self.solution, where)
        self.cuts += len(where)
        self.queue += [w for w in self.all if any(_holds(w, cell) for cell in ends)]

    def sweep(self, deadline: Deadline) -> None:
        """Every window in the queue, cutting where a window has a second
        lenient solution, until the queue is empty."""
        lenient = self.puzzle.lenient()
        while self.queue:
            window = self.queue.pop(0)
            small, kept = restrict(lenient, self.solution, window)
            if not kept:
                continue
            found = self.engine.unique(small, time_limit=deadline.remaining())
            add_effort(self.effort, {f"sweep.{k}": v for k, v in found.effort.items()})
            if found.status is not Status.MULTIPLE:
                continue
            for small_solution in found.solutions:
                other = put_back(self.solution, window, kept, small_solution)
                if other.edges != self.solution.edges:
                    if self.cut(other):
                        lenient = self.puzzle.lenient()
                    break


def _holds(window: Window, cell: Cell) -> bool:
    return cell[0] in window[0] and cell[1] in window[1]


def well_designed(height: int, width: int, seed: int, *, pairs: int | None = None,
                  design: Design = Design(), backend: str | None = None,
                  time_limit: float | None = None) -> Made:
    """A well-designed puzzle from ``seed`` (see the module text).  ``backend``:
    the check by that backend alone instead of the pipeline."""
    if height * width < 4:
        raise GridcpError(f"a {width}x{height} board is too small for a well-designed puzzle")
    deadline = Deadline(time_limit)
    pairs = pairs or max(1, round(height * width / CELLS_PER_PAIR))
    rng = random.Random(seed)
    cuts = max(design.cuts, round(height * width / design.cells_per_cut))
    budget = replace(design.check, glance_proof_time=design.check.glance_proof_time
                     * design.check.scale(height * width))
    effort: dict[str, float] = {}
    checks = 0
    for drawn in range(1, design.boards + 1):
        puzzle, solution = large_board(height, width, rng.getrandbits(32), pairs=pairs)
        repair = _Repair(puzzle, solution, rng, design)
        for _ in range(design.rounds):
            repair.sweep(deadline)
            checks += 1
            report = check(repair.puzzle, backend=backend, budget=budget,
                           time_limit=deadline.remaining())
            add_effort(effort, {f"check.{k}": v for k, v in report.effort.items()})
            if report.status is Status.LIMIT and deadline.expired():
                raise GridcpError(f"no well-designed {width}x{height} puzzle within "
                                  f"{time_limit:g} s")
            if report.ok:
                add_effort(effort, repair.effort)
                return Made(repair.puzzle, repair.solution, report, drawn, repair.cuts,
                            checks, effort)
            others = [s for s in report.solutions if s.edges != repair.solution.edges]
            if report.ok is None:
                repair.cut_longest()
            elif not others or not repair.cut(others[0], cuts):
                break  # S cannot be repaired here: draw another board
        add_effort(effort, repair.effort)
    raise GridcpError(f"no well-designed {width}x{height} puzzle from seed {seed} within "
                      f"{design.boards} boards")


def seed_well_designed(height: int, width: int, seed: int, *, backend: str = "search",
                       time_limit: float | None = None) -> tuple[Numberlink, Solution, int]:
    """A well-designed puzzle from the seed article's generator, its solution,
    and how many boards were drawn: while some other self-avoiding lenient
    solution T exists (``backend``'s count up to 2), cut a path of the
    board's solution at a step that T does not take."""
    engine = KIND.backend(backend, no_self_touch=True)
    rng = random.Random(seed)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    boards = 0
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            raise GridcpError(f"no well-designed {height}x{width} puzzle within {time_limit} s")
        boards += 1
        puzzle, solution = SeedGenerator(height, width, rng).run()
        while True:
            found = engine.unique(puzzle.lenient())
            others = [s for s in found.solutions if s.edges != solution.edges]
            if not others:
                if found.solutions:
                    return puzzle, solution, boards
                break  # cannot happen (the board's own solution exists); draw again
            cuts = parted(solution, others[0])
            if not cuts:
                break
            puzzle, solution = cut(puzzle, solution, dict([rng.choice(cuts)]))


# ---------------------------------------------------------------- command line

METHODS = ("well-designed", "seed", "seed-well-designed", "paths")


def parse_size(text: str | None, default: int = 7) -> tuple[int, int]:
    """(height, width) of ``"7"`` (7 x 7) or ``"12x10"`` (12 columns, 10 rows: WxH)."""
    if text is None:
        return default, default
    parts = text.lower().split("x")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise GridcpError(f"bad size {text!r}: use N or WxH, e.g. 7 or 12x10") from None
    if len(numbers) == 1:
        numbers *= 2
    if len(numbers) != 2 or min(numbers) < 1:
        raise GridcpError(f"bad size {text!r}: use N or WxH, e.g. 7 or 12x10")
    check_cells(numbers[1], numbers[0], "--size")
    return numbers[1], numbers[0]


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", action="store_true",
                        help="with --method seed: check each puzzle and print the share "
                             "of well-designed ones")
    parser.add_argument("--check-backend", default=None, metavar="NAME",
                        help="backend for the well-designed check (default: the check's "
                             "pipeline; search for the seed methods)")
    parser.add_argument("--pairs", type=int, default=None, metavar="N",
                        help="with --method paths or well-designed: glue the paths down to "
                             "N pairs (default: paths, about the square root of the area; "
                             "well-designed, a pair per 12 cells, and its repairs add more)")
    parser.add_argument("--difficulty", choices=GRADES, default=None,
                        help="with the well-designed method: boards of this grade, by the "
                             "deduction a solver needs (easy: forced moves; medium: a "
                             "lookahead; hard: search)")


def generate(args: argparse.Namespace) -> int:
    """``--method seed``: the article's generator; ``--method paths``: large
    full-cover boards from space-filling paths (paths_gen.py); default:
    well-designed puzzles only, each with the check's step that proved it
    (on standard error, or in ``--json``)."""
    height, width = parse_size(args.size)
    method = args.method or "well-designed"
    if method not in METHODS:
        raise GridcpError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    pairs = getattr(args, "pairs", None)
    if pairs is not None and pairs < 1:
        raise GridcpError(f"--pairs {pairs}: a board needs at least one pair")
    count = 1 if args.count is None else args.count
    if count < 0:
        raise GridcpError(f"--count must be at least 0, not {count}")
    seed = 0 if args.seed is None else args.seed
    checker = args.check_backend or "search"
    out = out_dir(args.out) if args.out else None
    if method == "seed" and args.check:
        return _seed_share(height, width, seed, count, checker, args.json)
    difficulty = getattr(args, "difficulty", None)
    if difficulty and method != "well-designed":
        raise GridcpError("--difficulty goes with the well-designed method")
    start = time.perf_counter()
    for s in range(seed, seed + count):
        made = None
        if method == "seed":
            puzzle, solution = seed_board(height, width, s)
        elif method == "paths":
            puzzle, solution = large_board(height, width, s, pairs=pairs)
        elif method == "seed-well-designed":
            puzzle, solution, _ = seed_well_designed(height, width, s, backend=checker)
        elif difficulty:
            made = _graded(height, width, s, difficulty, pairs, args.check_backend)
            puzzle, solution = made.puzzle, made.solution
        else:
            made = well_designed(height, width, s, pairs=pairs, backend=args.check_backend)
            puzzle, solution = made.puzzle, made.solution
        _emit(puzzle, solution, s, out, args.json, method, made, getattr(args, "force", False))
    wall = time.perf_counter() - start
    print(generated(count, f"{method} {width}x{height} puzzle", wall), file=sys.stderr)
    return 0


def _graded(height: int, width: int, seed: int, difficulty: str, pairs: int | None,
            backend: str | None) -> Graded:
    """A well-designed board of the grade asked for (``numberlink_difficulty``)."""
    design = Design()
    if difficulty == "hard":
        return hard(height, width, seed, budget=design.check, pairs=pairs, backend=backend)

    def draw(board_seed: int) -> Drawn:
        made = well_designed(height, width, board_seed, pairs=pairs, design=design,
                             backend=backend)
        return Drawn(made.puzzle, made.solution, made.proved_by or "--check-backend",
                     made.effort)

    return graded(draw, seed, difficulty, budget=design.check, backend=backend)


def _emit(puzzle: Numberlink, solution: Solution, seed: int, out: Path | None,
          as_json: bool, method: str, made: Made | Graded | None = None,
          force: bool = False) -> None:
    text = format_puzzle(puzzle) + "\n" + format_solution(puzzle, solution)
    name = f"numberlink_{puzzle.width}x{puzzle.height}_{method}_{seed}.nl"
    if out:
        write_file(out / name, text, force=force)
    proof: dict = {}
    if isinstance(made, Made):
        proof = {"proved_by": made.proved_by or "--check-backend", "pairs": len(puzzle.pairs),
                 "cuts": made.cuts, "checks": made.checks, "boards": made.boards}
    elif made is not None:
        proof = {"grade": made.grade.name, "proved_by": made.proved_by,
                 "pairs": len(puzzle.pairs), "cuts": made.cuts, "moves": made.moves,
                 "boards": made.drawn,
                 "deduction": {k: v for k, v in made.grade.effort.items()}}
    if made is not None:
        proof["effort"] = {k: round(v, 6) for k, v in sorted(made.effort.items())}
    if made is not None and not as_json:
        graded_as = f"{proof['grade']}, " if "grade" in proof else ""
        moved = f" and {proof['moves']} slides and merges" if "moves" in proof else ""
        print(f"gridcp: seed {seed}: {graded_as}WELL-DESIGNED by {proof['proved_by']}; "
              f"{len(puzzle.pairs)} pairs after {made.cuts} cut{'s' * (made.cuts != 1)}{moved}",
              file=sys.stderr)
    if as_json:
        file = {"file": str(out / name)} if out else {}
        print(json.dumps({"seed": seed, "method": method, "puzzle": format_puzzle(puzzle),
                          **solution_json(puzzle, solution), **proof, **file}))
    elif out:
        print(out / name)
    else:
        print(text)


def _seed_share(height: int, width: int, seed: int, count: int, backend: str,
                as_json: bool) -> int:
    good, reasons = 0, {}
    start = time.perf_counter()
    for s in range(seed, seed + count):
        puzzle, _ = seed_board(height, width, s)
        report = KIND.call("check", puzzle, backend=backend)
        good += bool(report.ok)
        word = report.verdict.split(": ", 1)[-1]
        reasons[word] = reasons.get(word, 0) + 1
    wall = time.perf_counter() - start
    if as_json:
        print(json.dumps({"size": f"{width}x{height}", "seeds": [seed, seed + count - 1],
                          "well_designed": good, "puzzles": count, "verdicts": reasons,
                          "wall": round(wall, 3)}))
    else:
        print(f"well-designed: {good} of {count} ({100 * good / count:.1f}%) seed-generator "
              f"{width}x{height} puzzles, seeds {seed}..{seed + count - 1}")
        for word, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
            print(f"  {n:6d}  {word}")
    return 0


