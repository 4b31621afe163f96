"""``gridcp hint`` for Numberlink and Futoshiki: a move that follows from the clues.

Numberlink: a forced link (a cell and its next step) by the cheapest
deduction (``search.numberlink.grade.forced_link``: the forced moves, then a
lookahead), under the rule of the flags (full cover unless ``--lenient``),
with its reason.  Futoshiki: a cell value by the cheapest of Tatham's rules
(``search.futoshiki.hint.forced_value``), with the rule's name.  Each holds
in every solution.  When no deduction gives a move: "no forced move" (exit
3, as a limit: the deductions stop there), and with ``--solve`` the solver's
move instead, a step of the unique solution (a backend's ``unique``; several
solutions or none: exit 1).  Exit 0 for a move, or for a puzzle with none
left to make (every Futoshiki cell given; a lenient Numberlink without pairs);
givens that break the rules are INVALID with the reasons, exit 1, as ``solve``
says.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from search.app.arguments import NO, UNDECIDED, YES
from search.app.cli import Answer, with_evidence
from search.core.contract import LimitReached, Status, load
from search.core.limits import Overtime, watchdog
from search.core.puzzlekind import PuzzleKind
from search.futoshiki.hint import forced_value
from search.numberlink.grade import forced_link
from search.numberlink.model import Solution

KINDS = ("numberlink", "futoshiki")
NOTHING = "NOTHING TO DO"  # headlines said in more than one place
NO_FORCED = "NO FORCED MOVE"


@dataclass(frozen=True)
class Move:
    """What the hint says: ``status`` SOLVED (a move, or none left to make),
    LIMIT (no forced move, or the time limit), UNSAT / MULTIPLE (``--solve`` on
    a puzzle without one solution), INVALID (givens that break the rules);
    ``label`` the headline; ``how`` names the rule (``deduced``: the move
    follows from it) or the engine; ``reasons`` the lines of the message (one,
    or INVALID's reasons)."""

    status: Status
    label: str
    move: dict[str, Any] = field(default_factory=dict)
    how: str = ""
    deduced: bool = False
    reasons: tuple[str, ...] = ()
    wall: float = 0.0
    effort: dict[str, float] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)


def answer(name: str, kind_: PuzzleKind, puzzle: Any, args: Any) -> tuple[dict, str, int]:
    """The hint on one puzzle: its JSON object, its text and its exit code."""
    start = time.perf_counter()
    reasons = kind_.call("validate", puzzle) if kind_.validate else []
    try:
        with watchdog(args.time_limit):
            if reasons:  # as solve says: the givens break the rules, no move follows
                found = Move(Status.INVALID, "INVALID", reasons=tuple(reasons))
            elif kind_.name == "futoshiki" and puzzle.complete:
                found = Move(Status.SOLVED, NOTHING,
                             reasons=("every cell is given: nothing to place",))
            elif kind_.name == "numberlink" and not puzzle.pairs and not kind_.call(
                    "verify", puzzle, Solution(())):  # (lenient, or every cell blocked)
                found = Move(Status.SOLVED, NOTHING,
                             reasons=("the board has no pairs: nothing to link",))
            else:
                found = _deduced(kind_, puzzle)
            if found is None and getattr(args, "solve", False):
                found = _solver_move(kind_, puzzle, args)
    except (Overtime, LimitReached):
        found = Move(Status.LIMIT, "LIMIT",
                     reasons=(f"stopped at the time limit ({args.time_limit:g} s)",))
    if found is None:
        found = Move(Status.LIMIT, NO_FORCED, reasons=(
            "no forced move: the deductions find none (--solve gives a step of the solution)",))
    found = replace(found, wall=time.perf_counter() - start)
    code = {Status.SOLVED: YES, Status.LIMIT: UNDECIDED}.get(found.status, NO)
    return _json(name, kind_, found), _text(name, kind_, found), code


def _deduced(kind_: PuzzleKind, puzzle: Any) -> Move | None:
    if kind_.name == "numberlink":
        link = forced_link(puzzle)
        if link is None:
            return None
        move = {"cell": list(link.cell), "next": list(link.next), "label": link.label}
        return Move(Status.SOLVED, "FORCED LINK", move, link.rule, True, (link.reason,))
    value = forced_value(puzzle)
    if value is None:
        return None
    return Move(Status.SOLVED, "FORCED VALUE", {"cell": list(value.cell), "value": value.value},
                value.rule, True, (f"by {value.rule} (Tatham's {value.grade} level)",))


def _solver_move(kind_: PuzzleKind, puzzle: Any, args: Any) -> Move:
    """A step of the unique solution, by a backend's ``unique``."""
    rules = kind_.call("rules_of", puzzle)
    backend = args.backend or _unique_backend(kind_, rules)
    result = kind_.backend(backend).unique(puzzle, time_limit=args.time_limit)
    effort = dict(result.effort)
    checked = with_evidence(kind_, puzzle, result.solutions,
                            Answer("", kind_.name, "hint", backend, result.status))
    if checked.status is Status.ERROR:  # evidence the verifier refuses: a defect, not a hint
        raise AssertionError(f"{backend}: " + " ".join(checked.fields["reasons"]))
    if result.status is not Status.UNIQUE:
        said = {Status.UNSAT: ("NO SOLUTION", "the puzzle has no solution"),
                Status.MULTIPLE: ("SEVERAL SOLUTIONS",
                                  "the puzzle has several solutions: no move follows")}
        label, why = said.get(result.status, (NO_FORCED, "the solver stopped undecided"))
        return Move(result.status, label, how=backend, reasons=(why,), effort=effort)
    solution = result.solutions[0]
    if kind_.name == "numberlink":
        path = solution.paths[0]
        move = {"cell": list(path[0]), "next": list(path[1]), "label": puzzle.pairs[0].label}
    else:
        n = puzzle.n
        i = next(i for i in range(n * n) if not puzzle.givens[i // n][i % n])
        move = {"cell": [i // n, i % n], "value": solution.grid[i // n][i % n]}
    return Move(Status.SOLVED, "SOLVER'S MOVE", move, backend, reasons=(
        f"a step of the unique solution (proved by {backend}); no deduction gives one",),
        effort=effort)


def _unique_backend(kind_: PuzzleKind, rules: frozenset[str]) -> str:
    """The counting default when it offers ``unique``, else the first that does."""
    name = kind_.default_backend("count", rules)
    if "unique" in load(kind_.backends[name]).calls:
        return name
    return kind_.default_backend("unique", rules)


def _json(name: str, kind_: PuzzleKind, found: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"file": name, "puzzle": kind_.name, "task": "hint",
                           "status": str(found.status)}
    if found.move:
        out["move"] = found.move
    if found.how:
        out["rule" if found.deduced else "engine"] = found.how
    out["message"] = found.reason
    if found.status is Status.INVALID:  # the list solve gives
        out["reasons"] = list(found.reasons)
    out.update(wall=round(found.wall, 6), effort=found.effort)
    return out


def _text(name: str, kind_: PuzzleKind, found: Move) -> str:
    figures = ", ".join(([found.how] if found.how else []) + [f"{found.wall:.3f} s"])
    lines = [f"{name}: {found.label} ({figures})"]
    move = found.move
    if move and kind_.name == "numberlink":
        path = f", path {move['label']}" if move["label"] is not None else ""
        lines.append(f"  move: ({move['cell'][0]},{move['cell'][1]}) - "
                     f"({move['next'][0]},{move['next'][1]}){path}")
    elif move:
        lines.append(f"  move: ({move['cell'][0]},{move['cell'][1]}) = {move['value']}")
    lines += [f"  {reason}" for reason in found.reasons]
    return "\n".join(lines)
