"""Lianliankan boards: the seed's random fill, full boards, and boards that clear.

* seed fill (default): ``--pairs`` times, a random picture out of
  ``--pictures`` placed on two random empty cells (the seed: 20 x 20, 20
  pictures, 100 pairs);
* ``--full``: every cell a tile, the pictures 1, 1, 1, 1, 2, 2, 2, 2, ...
  four at a time (wrapping after ``--pictures``, default cells / 4), shuffled,
  as the desktop games deal them (18 x 8 with 36 pictures);
* ``--solvable``: boards that are sure to clear.  ``--method play``
  (default) plays a game on blank tiles first: remove a random blank tile and
  a random blank tile a line joins to it, paint the pair with the next
  picture, repeat until the board is empty (a stuck game starts again); the
  painted board clears in the order played, which is the board built by
  placing pairs backwards.  With ``--gravity`` the blank game is played
  under gravity and each pair paints the cells its tiles started on (the falls
  undone).  ``--method reject`` draws boards until the exact search clears
  one within ``--board-nodes`` nodes; a board it leaves undecided is skipped.

Board k (1-based) of ``--seed S`` is drawn from ``random.Random(S + k - 1)``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from search.core.contract import GridcpError, Status
from search.core.limits import MAX_TURNS, check_cells, turns
from search.core.outputs import generated, out_dir, write_file
from search.lianliankan.difficulty import GRADES, Grade, grade, searched
from search.lianliankan.io import format_board, solution_json
from search.lianliankan.model import Board, Cell, Grid, Move, Solution
from search.lianliankan.paths import WALL, Field
from search.lianliankan.solver import SearchBackend
from search.lianliankan.verify import verify

SEED_SIZE = (20, 20)
FULL_SIZE = (18, 8)
MAX_TRIES = 10_000  # boards drawn per requested one before giving up
# nodes of exact search per board in reject (some boards take minutes); work,
# not seconds, so a seed gives the same boards on any machine
BOARD_NODES = 50_000


# ---------------------------------------------------------------- the fills


def seed_fill(width: int, height: int, pictures: int, pairs: int, rng: random.Random) -> Grid:
    """The seed's ``setRndMap``: each pair a random picture on two random empty cells."""
    if 2 * pairs > width * height:
        raise GridcpError(f"{pairs} pairs do not fit on {width} x {height} cells")
    grid = [[0] * width for _ in range(height)]
    for _ in range(pairs):
        picture = rng.randrange(pictures) + 1
        for _ in range(2):
            while True:  # getRndEmptyBox: draw until an empty cell comes up
                x, y = rng.randrange(width), rng.randrange(height)
                if grid[y][x] == 0:
                    grid[y][x] = picture
                    break
    return tuple(tuple(row) for row in grid)


def full_tiles(cells: int, pictures: int) -> list[int]:
    """Pictures four at a time, wrapping after ``pictures`` (the last may get two)."""
    if cells % 2:
        raise GridcpError(f"a full board needs an even number of cells, not {cells}")
    return [(k // 4) % pictures + 1 for k in range(cells)]


def full_fill(width: int, height: int, pictures: int, rng: random.Random) -> Grid:
    tiles = full_tiles(width * height, pictures)
    rng.shuffle(tiles)
    return tuple(tuple(tiles[r * width:(r + 1) * width]) for r in range(height))


def played_fill(width: int, height: int, tiles: list[int], border: bool, turns: int,
                rng: random.Random, gravity: bool = False, occupied: list[Cell] | None = None,
                order: list[tuple[Cell, Cell]] | None = None) -> Grid | None:
    """Play a game on blank tiles and paint each removed pair with the next picture.

    The blank tiles are the board's tile cells (all cells when ``tiles`` fills
    the board, else random ones); each step removes a random blank tile and a
    random blank tile that a line joins to it.  The painted board then clears
    in the order played.  None when the blank game gets stuck.

    With ``gravity`` the blank tiles fall as the painted ones will: each blank
    tile remembers the cell it started on, and a removed pair paints those
    cells.  Replaying the removals on the painted board moves the same tiles to
    the same cells at every step (gravity depends only on which cells are full),
    so it clears in the order played: the falls are undone by painting where
    the tiles started.

    ``occupied``: the tile cells (default: random ones, or all); ``order``
    receives the pairs removed, each as its two cells when it is played.
    """
    pairs = [tiles[i] for i in range(0, len(tiles), 2)]
    rng.shuffle(pairs)
    cells = [(r, c) for r in range(height) for c in range(width)]
    if occupied is None:
        occupied = rng.sample(cells, len(tiles)) if len(tiles) < len(cells) else cells
    blank = [[0] * width for _ in range(height)]
    for r, c in occupied:
        blank[r][c] = 1
    game = BlankGame(Board(tuple(map(tuple, blank)), border=border, turns=turns,
                           gravity=gravity))
    left = [game.field.index(cell) for cell in occupied]
    grid = [[0] * width for _ in range(height)]
    for picture in pairs:
        # a lazy shuffle: the first tile tried almost always has a partner
        for k in range(len(left)):
            j = rng.randrange(k, len(left))
            left[k], left[j] = left[j], left[k]
            near = game.joined(left[k])
            if near:
                a, b = left[k], rng.choice(near)
                break
        else:
            return None
        for i in (a, b):
            r, c = game.field.cell(game.origin[i])
            grid[r][c] = picture
        if order is not None:
            order.append((game.field.cell(a), game.field.cell(b)))
        if gravity:
            game.drop(a, b)
            left = game.tiles()
        else:
            for i in (a, b):
                game.remove(i)
                left.remove(i)
    return tuple(tuple(row) for row in grid)


def clearing_of(board: Board, pairs: list[tuple[Cell, Cell]]) -> Solution:
    """The pairs removed in order on ``board``, each with the seed's line as
    it is played (the clearing a board was built from, for ``verify``)."""
    field, moves = Field(board), []
    for a, b in pairs:
        i, j = field.index(a), field.index(b)
        corners = field.path(i, j)
        moves.append(Move(a, b, () if corners is None else
                          tuple(field.cell(c) for c in corners)))  # None: verify says so
        field.remove(i, j)
    return Solution(tuple(moves))


class BlankGame:
    """A game on blank tiles, for the connection sets of ``played_fill``.

    Besides the ``Field`` it keeps, per direction, the first cell that is not
    empty from each cell on (a tile, or a wall), so that a segment of a line
    costs one look-up; removals update only the runs through the removed cell.
    """

    __slots__ = ("field", "turns", "rays", "origin")

    def __init__(self, board: Board):
        self.field = field = Field(board)
        self.turns = board.turns
        cells = field.cells
        self.origin = list(range(len(cells)))  # where the tile on each cell started
        inner = [i for i, v in enumerate(cells) if v != WALL]
        self.rays: list[list[int]] = []
        for step in field.walks:
            ray = [0] * len(cells)
            for i in (reversed(inner) if step > 0 else inner):  # i + step comes first
                j = i + step
                ray[i] = j if cells[j] else ray[j]
            self.rays.append(ray)

    def remove(self, x: int) -> None:
        cells = self.field.cells
        cells[x] = 0
        for step, ray in zip(self.field.walks, self.rays, strict=True):
            far, i = ray[x], x - step
            while True:  # the run behind x, and the cell it starts from, now see past x
                ray[i] = far
                if cells[i]:
                    break
                i -= step

    def fill(self, x: int) -> None:
        """Cell x becomes full: the runs behind x now stop at x."""
        cells = self.field.cells
        cells[x] = 1
        for step, ray in zip(self.field.walks, self.rays, strict=True):
            i = x - step
            while True:
                ray[i] = x
                if cells[i]:
                    break
                i -= step

    def drop(self, a: int, b: int) -> None:
        """Remove a and b under gravity: in each column the cells above a gap
        slide down one; only the cells whose fullness changes touch the rays."""
        field = self.field
        cells, origin, s, top = field.cells, self.origin, field.stride, 2 * field.stride
        for gap in sorted((a, b)):  # the upper gap first, so the lower one stays put
            column = list(range(gap, top - 1, -s))  # the gap, then upwards
            was = [cells[i] > 0 for i in column]
            now = [*was[1:], False]
            for i, j in zip(column, column[1:], strict=False):
                origin[i] = origin[j]
            for i, full, before in zip(column, now, was, strict=True):
                if full and not before:
                    self.fill(i)
                elif before and not full:
                    self.remove(i)

    def tiles(self) -> list[int]:
        return self.field.tiles()

    def joined(self, a: int) -> list[int]:
        """The tiles that a line of at most ``turns`` turns joins to tile ``a``."""
        cells, rays, walks = self.field.cells, self.rays, self.field.walks
        if self.turns == 2:
            return self._joined2(a)
        found: set[int] = set()
        seen: set[int] = set()
        frontier = [(a, 0), (a, 2)]  # (cell, axis of the next segment: walks[k], walks[k + 1])
        for turn in range(self.turns + 1):
            last = turn == self.turns
            nxt: list[tuple[int, int]] = []
            for p, k in frontier:
                for d in (k, k + 1):
                    end = rays[d][p]
                    if cells[end] > 0:
                        found.add(end)
                    if last:
                        continue
                    step, other = walks[d], 2 - k
                    for q in range(p + step, end, step):
                        if 4 * q + other not in seen:
                            seen.add(4 * q + other)
                            nxt.append((q, other))
            frontier = nxt
        found.discard(a)
        return sorted(found)

    def _joined2(self, a: int) -> list[int]:
        """``joined`` for two turns, as plain loops: the segments of a line of
        at most two turns never meet one another on the same axis, so no cell
        needs a seen-set, and the last segment is only looked up."""
        cells, rays, walks = self.field.cells, self.rays, self.field.walks
        found: set[int] = set()
        for k in (0, 2):  # the axis of the first segment
            other = 2 - k
            near, far = rays[other], rays[other + 1]
            last_near, last_far = rays[k], rays[k + 1]
            for d in (k, k + 1):
                end = rays[d][a]
                if cells[end] > 0:
                    found.add(end)
                step = walks[d]
                for q in range(a + step, end, step):  # the first corner
                    for ray, turn in ((near, walks[other]), (far, walks[other + 1])):
                        end2 = ray[q]
                        if cells[end2] > 0:
                            found.add(end2)
                        for c in range(q + turn, end2, turn):  # the second corner
                            for e in (last_near[c], last_far[c]):
                                if cells[e] > 0:
                                    found.add(e)
        found.discard(a)
        return sorted(found)


# ---------------------------------------------------------------- boards


def make_board(args: Any, rng: random.Random,
               order: list[tuple[Cell, Cell]] | None = None) -> tuple[Board, int, int]:
    """One board for the options in ``args``, how many were drawn for it, and how
    many of those the exact search left undecided within ``args.board_nodes``;
    ``order`` receives the pairs of the blank game a played board was built from."""
    width, height = args.width, args.height
    rules = {"border": args.border, "gravity": args.gravity, "turns": args.turns}
    undecided = 0
    for tries in range(1, MAX_TRIES + 1):
        if args.played:
            tiles = _tiles(args, width, height, rng)
            if order is not None:
                order.clear()
            grid = played_fill(width, height, tiles, args.border, args.turns, rng,
                               args.gravity, order=order)
            if grid is not None:
                return Board(grid, **rules), tries, undecided
            continue
        if args.full:
            grid = full_fill(width, height, args.pictures, rng)
        else:
            grid = seed_fill(width, height, args.pictures, args.pairs, rng)
        board = Board(grid, **rules)
        if not args.solvable:
            return board, tries, undecided
        status = search_status(board, args.board_nodes)
        if status is Status.SOLVED:
            return board, tries, undecided
        undecided += status is Status.LIMIT
    raise GridcpError(f"no board found in {MAX_TRIES} draws ({undecided} undecided)")


def _tiles(args: Any, width: int, height: int, rng: random.Random) -> list[int]:
    """The pictures of a backward-built board: the full deal, or seed-style pairs."""
    if args.full:
        tiles = full_tiles(width * height, args.pictures)
        return tiles
    pictures = [rng.randrange(args.pictures) + 1 for _ in range(args.pairs)]
    return [p for p in pictures for _ in range(2)]


def search_status(board: Board, nodes: int) -> Status:
    """The exact search's verdict within ``nodes``: SOLVED, UNSAT, or LIMIT
    (undecided, skipped)."""
    return SearchBackend(max_nodes=nodes).solve(board).status


# ---------------------------------------------------------------- command line


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pictures", type=int,
                        help="number of pictures (seed fill: 20; --full: cells / 4)")
    parser.add_argument("--pairs", type=int, help="seed fill: pairs placed (default 100; "
                        "with --size, a quarter of the cells, at least 1)")
    parser.add_argument("--full", action="store_true",
                        help="every cell a tile, each picture 4 times (default size 18x8)")
    parser.add_argument("--solvable", action="store_true",
                        help="only boards that clear (--method play or reject)")
    parser.add_argument("--border", action="store_true",
                        help="lines may use the empty ring outside the board")
    parser.add_argument("--gravity", action="store_true", help="tiles fall into gaps")
    parser.add_argument("--turns", type=turns, default=2, help="most turns of a line (2)")
    parser.add_argument("--difficulty", choices=GRADES,
                        help="with --solvable: only boards of this grade (easy: the greedy "
                             "scan clears it and random play wins half the time; hard: the "
                             "scan gets stuck and random play wins at most 1 game in 8)")
    parser.add_argument("--board-nodes", type=int, default=BOARD_NODES, metavar="N",
                        help="--method reject: nodes of exact search per drawn board; "
                             f"an undecided board is skipped ({BOARD_NODES:,})")


def graded_board(args: Any, seed: int) -> tuple[Board, int, int, Solution | None,
                                                 Grade | None]:
    """Board ``seed`` for the options: the board, the draws and undecided draws
    it took, the clearing it was built from (``--solvable``: the blank game's
    for ``--method play``, else the exact search's) and, with ``--difficulty``,
    its grade (boards of other grades are drawn past)."""
    rng = random.Random(seed)
    drawn = undecided = 0
    for _ in range(MAX_TRIES):
        order: list[tuple[Cell, Cell]] = []
        board, tries, skipped = make_board(args, rng, order)
        drawn, undecided = drawn + tries, undecided + skipped
        if not args.solvable:
            return board, drawn, undecided, None, None
        nodes = None
        if args.played:
            clearing = clearing_of(board, order)
        else:
            _, moves, nodes = searched(board, args.board_nodes)
            clearing = Solution(tuple(moves or ()))
        if verify(board, clearing):
            raise GridcpError(f"board {seed}: the clearing it was built from fails verify: "
                              + "; ".join(verify(board, clearing)))
        if args.difficulty is None:
            return board, drawn, undecided, clearing, None
        found = grade(board, rng.randrange(1 << 30), nodes)
        if found.name == args.difficulty:
            return board, drawn, undecided, clearing, found
    raise GridcpError(f"no {args.difficulty} board found in {MAX_TRIES} boards that clear")


def generate(args: Any) -> int:
    args = _settled(args)
    out = out_dir(args.out) if args.out else None
    start, drawn, undecided = time.perf_counter(), 0, 0
    for k in range(1, args.count + 1):
        seed = args.seed + k - 1
        board, tries, skipped, clearing, found = graded_board(args, seed)
        drawn += tries
        undecided += skipped
        name = f"llk-{board.width}x{board.height}-{args.kind}-{seed}"
        if args.json:
            record = {"name": name, "seed": seed, "size": f"{board.width}x{board.height}",
                      "kind": args.kind, "border": board.border,
                      "gravity": board.gravity, "grid": [list(r) for r in board.grid]}
            if found is not None:
                record.update(found.as_json())
            if clearing is not None:
                record["clearing"] = solution_json(board, clearing)
            print(json.dumps(record))
        elif out is not None:
            write_file(out / f"{name}.llk", format_board(board),
                       force=getattr(args, "force", False))
        else:
            print(f"# board {name}" + (f" {found.name}" if found is not None else ""))
            print(format_board(board), end="")
    wall = time.perf_counter() - start
    searched = args.solvable and not args.played
    note = (f", {undecided} undecided within {args.board_nodes:,} nodes skipped"
            if searched else "")
    print(generated(args.count, f"{args.kind} board", wall, f"{drawn} drawn{note}"),
          file=sys.stderr)
    return 0


def _settled(args: Any) -> Any:
    """Defaults that depend on other options: size, pictures, pairs, method."""
    full, solvable = getattr(args, "full", False), getattr(args, "solvable", False)
    if args.size:
        try:
            w, _, h = args.size.lower().partition("x")
            args.width, args.height = int(w), int(h or w)
        except ValueError:
            raise GridcpError(f"--size is WxH or N, not {args.size!r}") from None
    else:
        args.width, args.height = FULL_SIZE if full else SEED_SIZE
    if args.width < 1 or args.height < 1:
        raise GridcpError("--size needs at least one row and one column")
    check_cells(args.height, args.width, "--size")
    for name in ("pictures", "pairs"):
        given = getattr(args, name, None)
        if given is not None and given < 1:
            raise GridcpError(f"--{name} must be at least 1, not {given}")
    if not 0 <= getattr(args, "turns", 2) <= MAX_TURNS:
        raise GridcpError(f"--turns must be between 0 and {MAX_TURNS}, not {args.turns}")
    cells = args.width * args.height
    args.full, args.solvable = full, solvable
    args.border = getattr(args, "border", False)
    args.gravity = getattr(args, "gravity", False)
    args.turns = getattr(args, "turns", 2)
    args.board_nodes = getattr(args, "board_nodes", BOARD_NODES)
    if not args.board_nodes > 0:
        raise GridcpError(f"--board-nodes must be positive, not {args.board_nodes}")
    args.pictures = getattr(args, "pictures", None) or (max(1, cells // 4) if full else 20)
    # at least one pair: a board under 4 cells would otherwise come out empty
    args.pairs = getattr(args, "pairs", None) or (100 if not args.size else max(1, cells // 4))
    # random deals hold the hard boards; the blank game deals easy ones
    hard = getattr(args, "difficulty", None) in ("medium", "hard")
    method = args.method or ("reject" if solvable and hard else "play" if solvable
                             else "random")
    if method not in ("random", "play", "reject"):
        raise GridcpError(f"lianliankan generate methods: random, play, reject; not {method!r}")
    args.method = method
    args.difficulty = getattr(args, "difficulty", None)
    if args.difficulty is not None and not solvable:
        raise GridcpError("--difficulty grades boards that clear: add --solvable")
    args.played = solvable and method == "play"
    args.kind = ("full" if full else "seed") + ("-solvable" if solvable else "")
    return args
