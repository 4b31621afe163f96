"""Commands for players: ``gridcp hint FILE`` and ``gridcp shuffle FILE`` (Lianliankan).

``hint`` lists the legal moves now (no search) and, by a backend's solve
within ``--time-limit``, a move that keeps the deal clearable or the proof
that every move loses.  Exit codes: 0 a safe move (or the board is clear),
1 every move loses, 2 bad usage or input, 3 the limit came first (the legal
moves are still printed).

Both read a board or a game in progress (a deal and the moves played so far)
through the puzzle's own reader, under the rule flags given.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from search.app.arguments import (
    NO,
    UNDECIDED,
    USAGE,
    YES,
    add_common_arguments,
    json_line,
    rule_variants,
    worst,
)
from search.core.contract import InputError, LimitReached, Status, load
from search.core.limits import Overtime, watchdog
from search.core.puzzlekind import PuzzleKind
from search.core.registry import load_puzzle
from search.lianliankan.hint import Hint, hint, legal_moves
from search.lianliankan.io import format_board, format_move, move_json, solution_json
from search.lianliankan.rules import rules_line

# Numberlink and Futoshiki hints load their deductions on first use (not at start-up);
# so does shuffle, whose dealing code a hint never needs
CLUE_HINT = "search.app.clue_hints:answer"
SHUFFLE = "search.lianliankan.shuffle"
EXIT_OF_STATUS = {Status.SOLVED: YES, Status.UNSAT: NO, Status.LIMIT: UNDECIDED,
                  Status.ERROR: NO}


def add_commands(commands: argparse._SubParsersAction) -> None:
    text = ("Lianliankan: the legal moves now, and a move that keeps the deal clearable; "
            "Numberlink: a forced link; Futoshiki: a forced value")
    sub = commands.add_parser("hint", help=text, description=text, epilog=(
        "Lianliankan exit codes: 0 a safe move, 1 every move loses, 2 bad usage or input, "
        "3 the time limit came first (the legal moves are still listed).  Numberlink and "
        "Futoshiki: 0 a move, 1 (with --solve) no solution or several, 3 no forced move "
        "(or the time limit)."))
    sub.add_argument("files", nargs="+", metavar="FILE")
    add_common_arguments(sub)
    sub.add_argument("--backend", help="the backend that looks for a safe move "
                     "(Numberlink, Futoshiki: that proves the solution unique for --solve; "
                     "default: the fastest for the rules)")
    sub.add_argument("--solve", action="store_true", help="Numberlink, Futoshiki: when no "
                     "deduction gives a move, a step of the unique solution")
    sub.set_defaults(run=run_hint)
    text = "Lianliankan: reshuffle the tiles left into a position that can be cleared"
    sub = commands.add_parser("shuffle", help=text, description=text, epilog=(
        "The tiles keep their cells; only the pictures move.  Prints the new board "
        "(its header a '#' comment, so the output is a board file).  Exit codes: 0 "
        "reshuffled, 1 no arrangement of the tiles clears, 2 bad usage or input, "
        "3 the time limit came first."))
    sub.add_argument("files", nargs="+", metavar="FILE")
    add_common_arguments(sub)
    sub.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    sub.add_argument("--backend", help="the backend that decides the blank board when "
                     "random blank games get stuck (default: the fastest for the rules)")
    sub.set_defaults(run=run_shuffle)


def _boards(path: str, args: Any, kinds: tuple[str, ...] = ("lianliankan",)
            ) -> list[tuple[str, PuzzleKind, Any]]:
    """The positions of one file (a puzzle of ``kinds``), under the rule flags given."""
    kind_, parsed = load_puzzle(path, args.puzzle)
    if kind_.name not in kinds:
        raise InputError(f"{args.command} is for lianliankan boards, not {kind_.name}", path)
    return [(v.name, kind_, v.puzzle) for v in rule_variants(kind_, parsed, path, args)]


def _run(args: Any, answer: Callable[[str, PuzzleKind, Any, str], int],
         kinds: tuple[str, ...] = ("lianliankan",)) -> int:
    """``answer`` for every position of every file, with the backend to use."""
    codes = []
    for path in args.files:
        try:
            boards = _boards(path, args, kinds)
        except InputError as error:
            print(f"gridcp: {error}", file=sys.stderr)
            codes.append(USAGE)
            continue
        for name, kind_, board in boards:
            rules = kind_.call("rules_of", board)
            backend = args.backend or kind_.default_backend("solve", rules)
            if backend not in kind_.backends:
                print(f"gridcp: {path}: {kind_.name} has no backend {backend!r} "
                      f"(known: {', '.join(kind_.backends)})", file=sys.stderr)
                codes.append(USAGE)
                continue
            codes.append(answer(name, kind_, board, backend))
    return worst(codes)


def run_hint(args: Any) -> int:
    def answer(name: str, kind_: PuzzleKind, board: Any, backend: str) -> int:
        if kind_.name != "lianliankan":  # a move that follows from the clues
            as_json, text, code = load(CLUE_HINT)(name, kind_, board, args)
            print(json_line(as_json) if args.json else text, flush=True)
            return code
        found = _bounded_hint(board, kind_, backend, args.time_limit)
        print(json_line(hint_json(name, backend, board, found)) if args.json
              else hint_text(name, backend, board, found), flush=True)
        return EXIT_OF_STATUS[found.status]

    return _run(args, answer, ("lianliankan", "numberlink", "futoshiki"))


def run_shuffle(args: Any) -> int:
    def answer(name: str, kind_: PuzzleKind, board: Any, backend: str) -> int:
        start = time.perf_counter()
        try:
            with watchdog(args.time_limit):
                found = load(f"{SHUFFLE}:shuffle")(board, args.seed, kind_.backend(backend),
                                                   args.time_limit)
        except (Overtime, LimitReached):
            found = load(f"{SHUFFLE}:Shuffled")(
                Status.LIMIT, None, None, backend, time.perf_counter() - start,
                message=f"stopped at the time limit ({args.time_limit:g} s)")
        print(json_line(shuffle_json(name, board, found, args.seed)) if args.json
              else shuffle_text(name, found), flush=True)
        return EXIT_OF_STATUS[found.status]

    return _run(args, answer)


def shuffle_json(name: str, board: Any, found: Any, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {"file": name, "puzzle": "lianliankan", "task": "shuffle",
                           "status": str(found.status), "seed": seed}
    if found.board is not None and found.clearing is not None:
        out["grid"] = [list(row) for row in found.board.grid]
        out["clearing"] = solution_json(found.board, found.clearing)
    if found.engine:
        out["engine"] = found.engine
    if found.message:
        out["message"] = found.message
    out.update(wall=round(found.wall, 6), effort=found.effort)
    return out


def shuffle_text(name: str, found: Any) -> str:
    figures = ", ".join([found.engine, f"{found.wall:.3f} s"]
                        + [f"{k} {v:g}" for k, v in found.effort.items()])
    what = {Status.SOLVED: "SHUFFLED", Status.UNSAT: "NO SHUFFLE CLEARS"}.get(
        found.status, str(found.status))
    lines = [f"# {name}: {what} ({figures})"]
    if found.message:
        lines.append(f"# {found.message}")
    if found.board is not None:
        if found.board.fixed_rules:
            lines.append(rules_line(found.board))
        lines.append(format_board(found.board).rstrip("\n"))
    return "\n".join(lines)


def _bounded_hint(board: Any, kind_: PuzzleKind, backend: str,
                  time_limit: float | None) -> Hint:
    """The hint within the time limit; the watchdog's LIMIT still lists the legal moves."""
    start = time.perf_counter()
    try:
        with watchdog(time_limit):
            return hint(board, kind_.backend(backend), time_limit)
    except (Overtime, LimitReached):
        return Hint(Status.LIMIT, legal_moves(board), None, backend,
                    time.perf_counter() - start,
                    message=f"stopped at the time limit ({time_limit:g} s); "
                            "the legal moves are listed")


def hint_json(name: str, backend: str, board: Any, found: Hint) -> dict[str, Any]:
    out: dict[str, Any] = {"file": name, "puzzle": "lianliankan", "task": "hint",
                           "backend": backend, "status": str(found.status)}
    if found.move is not None:
        out["move"] = move_json(board, found.move)
        out["line"] = [list(cell) for cell in found.move.line()]
    if found.engine and found.status in (Status.SOLVED, Status.UNSAT):
        out["engine"] = found.engine
    if found.message:
        out["message"] = found.message
    out["legal"] = [move_json(board, move) for move in found.legal]
    if found.clearing is not None:
        out["clearing"] = [list(map(list, move.line())) for move in found.clearing.moves]
    out.update(wall=round(found.wall, 6), effort=found.effort)
    return out


def hint_text(name: str, backend: str, board: Any, found: Hint) -> str:
    figures = ", ".join([found.engine or backend, f"{found.wall:.3f} s"]
                        + [f"{k} {v:g}" for k, v in found.effort.items()])
    what = {Status.SOLVED: "SAFE MOVE", Status.UNSAT: "EVERY MOVE LOSES"}.get(
        found.status, str(found.status))
    if found.status is Status.SOLVED and found.move is None:  # the board is clear
        what = "NOTHING TO DO"  # as a Futoshiki hint on a square with every cell given
    lines = [f"{name}: {what} ({figures})"]
    if found.move is not None:
        lines.append(f"  move: {format_move(board, found.move)}")
    if found.message:
        lines.append(f"  {found.message}")
    lines.append(f"  legal moves: {len(found.legal)}")
    lines += [f"    {format_move(board, move)}" for move in found.legal]
    return "\n".join(lines)
