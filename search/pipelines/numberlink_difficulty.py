"""Well-designed Numberlink boards of a chosen grade (``generate numberlink
--difficulty easy|medium|hard``), steered from the well-designed generator.

A board drawn by ``well_designed`` has a grade (``search.numberlink.grade``).
Three moves change it:

- *a cut* makes it easier: a path of the solution S cut in two (each half of
  two cells or more) adds two labels where the deduction is stuck (a step of
  S whose link the deduction left open).  A cut keeps the board well-designed
  without a new proof: a solution of the cut board with the cut step added
  back solves the old board, so it is S without that step.
- *a slide* or *a merge* may make it harder: where an end of one path lies
  beside an end of another, the first takes the other's end cell (a slide),
  or the two become one (a merge, two labels fewer).  Either can let a
  second solution in, so the new board is proved again: by the lenient
  deduction when it fills the board (``lenient_proof``), else by the
  well-designed check with the generator's budget; it is kept only when
  proved, no harder than wanted, and no easier than before (the lookahead's
  probes measure the way within a grade).

Harder than wanted: cut until the grade is the one wanted (past it, the
board is dropped).  Easier than wanted: slides and merges in a random order
until the grade is reached (within ``MOVES`` tries; else the board is
dropped).  Every choice comes from one ``random.Random`` seeded by the seed,
and every budget is work, so a seed gives the same board on any machine;
the first board drawn is the seed's own board of the well-designed generator.

``hard`` goes the other way round, since slides and merges of a
well-designed board leave it medium (the deduction with a lookahead is
strong: most boards it cannot fill are ambiguous).  It draws full-cover
boards with few long paths (``large_board``, a pair per ``CELLS_PER_PAIR``
cells) until one is hard, ambiguous or not, then repairs it the way the
generator does, with a difference: of the cuts where the check's second
solution parts from S (each rules that solution out), it takes the one
that keeps the board hard with the most probes.  The board is returned once
the check proves it well-designed; a board that no cut keeps hard is
dropped.  Boards under ``HARD_MIN_CELLS`` cells are refused at once (a hard
one is rare there, and a seed would spend its ``HARD_BOARDS`` first).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from search.core.contract import CheckReport, Deadline, GridcpError, Status, add_effort
from search.numberlink.generate import board_of_paths, cut, cut_steps, parted
from search.numberlink.grade import GRADES, PROBES, Deduction, Grade, grade, lookahead
from search.numberlink.model import Cell, Numberlink, Solution
from search.numberlink.paths_gen import large_board
from search.numberlink.verify import verify
from search.pipelines.numberlink_check import Budget, check

BOARDS = 10  # boards drawn for one seed before the grade is given up
MOVES = 150  # slides and merges tried on one board (each kept one costs a check)
DEDUCED = "deduction (lenient, no self-touch)"  # the proof of ``lenient_proof``
# ``hard``: cells per pair of a drawn board (published hard boards have 15-22;
# fewer pairs leave more boards the lookahead cannot fill), boards drawn for
# a seed, checks of one board, and cuts graded for one repair
CELLS_PER_PAIR = 24
HARD_BOARDS = 400
HARD_ROUNDS = 20
HARD_CUTS = 40
# the least cells a hard board is made on: 14 x 14 made 6 seeds of 6, where
# 12 x 12 made 1 of 4 and 10 x 10 none of 5 (a seed gives up after its
# ``HARD_BOARDS``, a minute of CPU); the published hard boards are 14 x 14 or more
HARD_MIN_CELLS = 196


@dataclass(frozen=True)
class Drawn:
    """A well-designed board as the generator gives it: the puzzle, its
    solution, the engine that proved it, and the work it took."""

    puzzle: Numberlink
    solution: Solution
    proved_by: str
    effort: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Graded:
    """A well-designed board of the grade asked for, after the steering: its
    ``grade``, the engine whose proof it rests on (a cut keeps a proof), the
    ``cuts`` and kept ``moves`` (slides and merges), the boards ``drawn``
    and the work in all."""

    puzzle: Numberlink
    solution: Solution
    grade: Grade
    proved_by: str
    cuts: int
    moves: int
    drawn: int
    effort: dict[str, float]


def graded(draw: Callable[[int], Drawn], seed: int, difficulty: str, *,
           budget: Budget, backend: str | None = None,
           time_limit: float | None = None) -> Graded:
    """A well-designed board of grade ``difficulty`` from ``seed``: ``draw``
    makes a well-designed board from a seed, ``budget`` is the check's on a
    board after a slide or a merge (``backend``: that engine's check instead)."""
    if difficulty not in GRADES:
        raise GridcpError(f"unknown difficulty {difficulty!r} (known: {', '.join(GRADES)})")
    target = GRADES.index(difficulty)
    deadline = Deadline(time_limit)
    rng = random.Random(f"numberlink-difficulty-{seed}")
    effort: dict[str, float] = {}
    for drawn in range(1, BOARDS + 1):
        board = draw(seed if drawn == 1 else rng.getrandbits(32))
        add_effort(effort, board.effort)
        steer = _Steer(board, rng, budget, backend, deadline)
        found = steer.run(target)
        add_effort(effort, steer.effort)
        if found is not None:
            return _verified(steer, found, steer.moves, drawn, effort)
    raise GridcpError(f"no {difficulty} well-designed puzzle from seed {seed} within "
                      f"{BOARDS} boards")


class _Steer:
    """One board steered towards a grade by cuts, slides and merges."""

    def __init__(self, board: Drawn, rng: random.Random, budget: Budget,
                 backend: str | None, deadline: Deadline):
        self.puzzle, self.solution, self.proved_by = board.puzzle, board.solution, board.proved_by
        self.rng, self.budget, self.backend, self.deadline = rng, budget, backend, deadline
        self.cuts = self.moves = 0
        self.effort: dict[str, float] = {}

    def run(self, target: int) -> Grade | None:
        now = self._grade(self.puzzle)
        while now.level is not None and now.level > target:
            if not self._cut():
                return None
            now = self._grade(self.puzzle)
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
        puzzle, solution = self.puzzle, self.solution
        board = Deduction(puzzle, nst=True)
        if not (board.start() and board.closure()):
            return False
        open_steps = {frozenset((board.cell(i), board.cell(i + board.step[d])))
                      for i, d in board.open_links()}
        where = [(p, i) for p, i, step in cut_steps(solution) if step in open_steps]
        if not where:
            return False
        self._set(*cut(puzzle, solution, dict([self.rng.choice(where)])))
        self.cuts += 1
        return True

    def _check(self, puzzle: Numberlink) -> CheckReport:
        """``check`` within the user's time limit; a check stopped by it stops
        the steering (a move is never judged by the clock)."""
        report = check(puzzle, backend=self.backend, budget=self.budget,
                       time_limit=self.deadline.remaining())
        add_effort(self.effort, {f"check.{k}": v for k, v in report.effort.items()})
        if report.status is Status.LIMIT and self.deadline.expired():  # (not UNDECIDED)
            raise GridcpError("no puzzle of the difficulty asked within the time limit")
        return report

    def _climb(self, target: int, now: Grade) -> Grade | None:
        """Slides and merges, in a random order, kept while the board stays
        well-designed, no harder than ``target`` and no easier than now (the
        lookahead's probes measure the way within a grade); the grade once
        ``target`` is reached, None if ``MOVES`` tries do not reach it."""
        height, width = self.puzzle.height, self.puzzle.width
        for _ in range(MOVES):
            paths = self.rng.choice(moves(self.solution) or [None])
            if paths is None:
                return None
            puzzle, solution = board_of_paths(height, width, paths, self.puzzle.blocked)
            found = self._grade(puzzle)
            if found.level is None or found.level > target or _score(found) < _score(now):
                continue
            proof = lenient_proof(puzzle)
            report = None
            if proof is None or proof.edges != solution.edges:
                report = self._check(puzzle)
                if not report.ok:
                    continue
            self.proved_by = DEDUCED if report is None else report.engine
            self._set(puzzle, solution)
            self.moves += 1
            now = found
            if found.level == target:
                return found
        return None

    def _set(self, puzzle: Numberlink, solution: Solution) -> None:
        self.puzzle, self.solution = puzzle, solution


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


def hard(height: int, width: int, seed: int, *, budget: Budget, pairs: int | None = None,
         backend: str | None = None, time_limit: float | None = None) -> Graded:
    """A hard well-designed board from ``seed`` (see the module text):
    ``pairs`` on the drawn boards (default a pair per ``CELLS_PER_PAIR``
    cells), ``budget`` the check's (``backend``: that engine's check)."""
    if height * width < HARD_MIN_CELLS:
        raise GridcpError(
            f"a {width}x{height} board is too small for a hard puzzle: hard boards start at "
            f"{HARD_MIN_CELLS} cells (14x14); on smaller boards a hard one is rare "
            "(12x12: 1 seed of 4, 10x10: none of 5), so use --difficulty medium there")
    deadline = Deadline(time_limit)
    rng = random.Random(f"numberlink-hard-{seed}")
    pairs = pairs or max(1, round(height * width / CELLS_PER_PAIR))
    effort: dict[str, float] = {}
    for drawn in range(1, HARD_BOARDS + 1):
        puzzle, solution = large_board(height, width, rng.getrandbits(32), pairs=pairs)
        repair = _HardRepair(puzzle, solution, rng, budget, backend, deadline)
        found = repair.run()
        add_effort(effort, repair.effort)
        if found is not None:
            return _verified(repair, found, 0, drawn, effort)
        if deadline.expired():
            break
    raise GridcpError(f"no hard well-designed puzzle from seed {seed} within "
                      f"{HARD_BOARDS} boards")


def _verified(steer: _Steer, found: Grade, moves: int, drawn: int,
              effort: dict[str, float]) -> Graded:
    """The steered board, its solution checked by ``verify`` before it is shown."""
    problems = verify(steer.puzzle, steer.solution)
    if problems:
        raise AssertionError(f"a steered board's solution fails verify: {problems}")
    return Graded(steer.puzzle, steer.solution, found, steer.proved_by, steer.cuts, moves,
                  drawn, effort)


class _HardRepair(_Steer):
    """A hard board repaired by cuts that keep it hard, until proved."""

    def __init__(self, puzzle: Numberlink, solution: Solution, rng: random.Random,
                 budget: Budget, backend: str | None, deadline: Deadline):
        super().__init__(Drawn(puzzle, solution, ""), rng, budget, backend, deadline)

    def run(self, target: int = 2) -> Grade | None:
        now = self._grade(self.puzzle)
        for _ in range(HARD_ROUNDS):
            if now.level != target:
                return None
            report = self._check(self.puzzle)
            if report.ok:
                self.proved_by = report.engine
                return now
            others = [s for s in report.solutions if s.edges != self.solution.edges]
            if not others:
                return None  # undecided: more cuts would make it easier
            now = self._hardest_cut(others[0], target)
        return None

    def _hardest_cut(self, other: Solution, target: int) -> Grade:
        """Cut where ``other`` parts from S: of up to ``HARD_CUTS`` such steps
        (in a random order), the one whose board stays at ``target`` with
        the most probes; the grade of the board (None if no cut is left)."""
        where = parted(self.solution, other)
        self.rng.shuffle(where)
        best: tuple[Grade, Numberlink, Solution] | None = None
        for p, i in where[:HARD_CUTS]:
            puzzle, solution = cut(self.puzzle, self.solution, {p: i})
            found = self._grade(puzzle)
            if found.level == target and (best is None or _score(found) > _score(best[0])):
                best = (found, puzzle, solution)
        if best is None:
            return Grade(None)
        self._set(best[1], best[2])
        self.cuts += 1
        return best[0]
