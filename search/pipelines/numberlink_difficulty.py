"""Well-designed Numberlink boards of a chosen grade (``generate numberlink
--difficulty easy|medium|hard``), steered from the well-designed generator.

A board drawn by ``well_designed`` has a grade (``search.numberlink.grade``).
Three moves change it and keep the board well-designed:

- *a cut* makes it easier: a path of the solution S cut in two (each half of
  two cells or more) adds two labels where the deduction is stuck (a step of
  S whose link the deduction left open).  A cut never needs a new proof: a
  solution of the cut board with the cut step added back solves the old
  board, so it is S without that step.
- *a merge* makes it harder: two paths of S whose ends lie side by side
  become one, two labels fewer.  That can let a second solution in, so the
  merged board is checked again (the well-designed check with the
  generator's budget) and kept only when it is well-designed.

Harder than wanted: cut until the grade is the one wanted (or, past it, the
board is dropped).  Easier than wanted: merge, in a random order, while the
board stays well-designed and no harder than wanted, until the grade is
reached (or no merge is left: the board is dropped).  Every choice comes from
one ``random.Random`` seeded by the seed, and every budget is work, so a seed
gives the same board on any machine; the first board drawn is the seed's own
board of the well-designed generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from search.core.contract import CheckReport, Deadline, GridcpError, add_effort
from search.numberlink.generate import board_of_paths
from search.numberlink.grade import GRADES, PROBES, Deduction, Grade, grade, lookahead
from search.numberlink.model import Cell, Numberlink, Solution
from search.pipelines.numberlink_check import check
from search.pipelines.numberlink_generate import Design, Made, well_designed

BOARDS = 10  # boards drawn for one seed before the grade is given up
MOVES = 150  # slides and merges tried on one board (each kept one costs a check)
DEDUCED = "deduction (lenient, no self-touch)"  # the proof of ``lenient_proof``


@dataclass(frozen=True)
class Graded:
    """A well-designed board of the grade asked for: the generator's ``made``
    (puzzle, solution, the check that proved it) after the steering, its
    ``grade``, and the steering's ``cuts``, ``merges`` and boards ``drawn``."""

    made: Made
    grade: Grade
    cuts: int
    moves: int
    drawn: int
    proved_by: str  # the engine whose proof the board rests on (cuts keep a proof)


def graded(height: int, width: int, seed: int, difficulty: str, *,
           pairs: int | None = None, design: Design | None = None,
           backend: str | None = None, time_limit: float | None = None) -> Graded:
    """A well-designed board of grade ``difficulty`` from ``seed``."""
    if difficulty not in GRADES:
        raise GridcpError(f"unknown difficulty {difficulty!r} (known: {', '.join(GRADES)})")
    target = GRADES.index(difficulty)
    design = design or Design()
    deadline = Deadline(time_limit)
    rng = random.Random(f"numberlink-difficulty-{seed}")
    effort: dict[str, float] = {}
    for drawn in range(1, BOARDS + 1):
        board_seed = seed if drawn == 1 else rng.getrandbits(32)
        made = well_designed(height, width, board_seed, pairs=pairs, design=design,
                             backend=backend, time_limit=deadline.remaining())
        add_effort(effort, made.effort)
        steer = _Steer(made, rng, design, backend, deadline)
        found = steer.run(target)
        add_effort(effort, steer.effort)
        if found is not None:
            made = replace(steer.made, effort=effort)
            return Graded(made, found, steer.cuts, steer.moves, drawn, steer.proved_by)
    raise GridcpError(f"no {difficulty} well-designed {width}x{height} puzzle from seed "
                      f"{seed} within {BOARDS} boards")


class _Steer:
    """One board steered towards a grade by cuts and merges."""

    def __init__(self, made: Made, rng: random.Random, design: Design,
                 backend: str | None, deadline: Deadline):
        self.made, self.rng, self.design = made, rng, design
        self.backend, self.deadline = backend, deadline
        self.cuts = self.moves = 0
        self.proved_by = made.proved_by or "--check-backend"
        self.effort: dict[str, float] = {}

    def run(self, target: int) -> Grade | None:
        now = self._grade(self.made.puzzle)
        while now.level is not None and now.level > target:
            if not self._cut():
                return None
            now = self._grade(self.made.puzzle)
        if now.level is None:
            return None
        if now.level < target:
            return self._climb(target, now)
        return now

    def _grade(self, puzzle: Numberlink) -> Grade:
        found = grade(puzzle)
        add_effort(self.effort, {f"grade.{k}": v for k, v in found.effort.items()})
        return found

    def _cut(self) -> bool:
        """Cut a path at a step of S the deduction left open; False if none can be."""
        puzzle, solution = self.made.puzzle, self.made.solution
        board = Deduction(puzzle, nst=True)
        if not (board.start() and board.closure()):
            return False
        open_steps = {frozenset((board.cell(i), board.cell(i + board.step[d])))
                      for i, d in board.open_links()}
        where = [(p, i) for p, path in enumerate(solution.paths)
                 for i in range(1, len(path) - 2)
                 if frozenset((path[i], path[i + 1])) in open_steps]
        if not where:
            return False
        p, i = self.rng.choice(where)
        paths = [list(path) for path in solution.paths]
        paths[p:p + 1] = [paths[p][: i + 1], paths[p][i + 1:]]
        self._set(*board_of_paths(puzzle.height, puzzle.width, paths, puzzle.blocked))
        self.cuts += 1
        return True

    def _climb(self, target: int, now: Grade) -> Grade | None:
        """Slides and merges, in a random order, kept while the board stays
        well-designed, no harder than ``target`` and no easier than now (the
        lookahead's probes measure the way within a grade); the grade once
        ``target`` is reached, None if ``MOVES`` tries do not reach it."""
        height, width = self.made.puzzle.height, self.made.puzzle.width
        for _ in range(MOVES):
            paths = self.rng.choice(moves(self.made.solution) or [None])
            if paths is None:
                return None
            puzzle, solution = board_of_paths(height, width, paths, self.made.puzzle.blocked)
            found = self._grade(puzzle)
            if found.level is None or found.level > target or _score(found) < _score(now):
                continue
            proof = lenient_proof(puzzle)
            report = None
            if proof is None or proof.edges != solution.edges:
                report = check(puzzle, backend=self.backend, budget=self.design.check,
                               time_limit=self.deadline.remaining())
                add_effort(self.effort, {f"check.{k}": v for k, v in report.effort.items()})
                if not report.ok:
                    continue
            self.proved_by = DEDUCED if report is None else report.engine
            self._set(puzzle, solution, report)
            self.moves += 1
            now = found
            if found.level == target:
                return found
        return None

    def _set(self, puzzle: Numberlink, solution: Solution,
             report: CheckReport | None = None) -> None:
        self.made = replace(self.made, puzzle=puzzle, solution=solution,
                            report=report if report is not None else self.made.report)


def lenient_proof(puzzle: Numberlink) -> Solution | None:
    """The one lenient solution when the deductions under the lenient rule
    with no self-touch fill the board with a full cover, else None.  That
    proves the puzzle well-designed: every lenient solution shortcuts to a
    self-avoiding one, which the deduction shows is S; a solution other than
    S would shortcut to S, so it would hold all of S's cells and more, and S
    holds them all."""
    board = Deduction(puzzle.lenient(), nst=True)
    if not (board.start() and board.closure()):
        return None
    if not board.complete() and not (lookahead(board, PROBES, {"probes": 0, "rounds": 0})
                                     and board.complete()):
        return None
    found = board.solution_or_none()
    if found is None or len({c for path in found.paths for c in path}) != len(
            puzzle.open_cells):
        return None
    return found


def _score(found: Grade) -> tuple[int, int]:
    return (found.level or 0, found.effort.get("probes", 0))


def moves(solution: Solution) -> list[list[list[Cell]]]:
    """The paths after each slide and merge of ``solution``: where an end x of
    path p lies beside an end y of path q, p takes y from q (a slide, when q
    keeps two cells or more), or p and q join (a merge)."""
    ends: dict[Cell, tuple[int, bool]] = {}
    for p, path in enumerate(solution.paths):
        ends[path[0]] = (p, False)
        ends[path[-1]] = (p, True)
    out = []
    for x, (p, x_last) in ends.items():
        r, c = x
        for y in ((r + 1, c), (r, c + 1), (r - 1, c), (r, c - 1)):
            if y not in ends or ends[y][0] == p:
                continue
            q, y_last = ends[y]
            first = list(solution.paths[p]) if x_last else list(solution.paths[p])[::-1]
            second = list(solution.paths[q])[::-1] if y_last else list(solution.paths[q])
            rest = [list(path) for k, path in enumerate(solution.paths) if k not in (p, q)]
            if len(second) >= 3:
                out.append(rest + [first + second[:1], second[1:]])
            if p < q:
                out.append(rest + [first + second])
    return out
