"""The Lianliankan CP-SAT backend: its candidate lines, known boards, and
agreement with a brute-force oracle written here from the rules alone."""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from cpmodels.lianliankan import CpSatBackend, candidate_lines, reached
from cpmodels.lianliankan.cores import deadlock_cores
from search.core.contract import Status, Unsupported
from search.lianliankan.model import Board, Cell
from search.lianliankan.verify import verify

# ---------------------------------------------------------------- the oracle

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def joins(grid: list[list[int]], border: bool, turns: int, a: Cell, b: Cell) -> bool:
    """A line of at most ``turns`` turns from a to b through empty cells (BFS over
    cell, direction and turns so far)."""
    height, width, ring = len(grid), len(grid[0]), int(border)
    fewest: dict[tuple[Cell, int], int] = {}
    queue = deque((a, d, 0) for d in range(4))
    while queue:
        (r, c), d, used = queue.popleft()
        r, c = r + STEPS[d][0], c + STEPS[d][1]
        if not (-ring <= r < height + ring and -ring <= c < width + ring):
            continue
        if (r, c) == b:
            return True
        if 0 <= r < height and 0 <= c < width and grid[r][c]:
            continue
        for e in range(4):
            spent = used + (e != d)
            if e != (d + 2) % 4 and spent <= turns and fewest.get(((r, c), e), turns + 1) > spent:
                fewest[((r, c), e)] = spent
                queue.append(((r, c), e, spent))
    return False


def moves(board: Board, left: frozenset[Cell]) -> Iterator[tuple[Cell, Cell]]:
    """The pairs that can go when only the tiles ``left`` are on the board."""
    grid = [[0] * board.width for _ in range(board.height)]
    for r, c in left:
        grid[r][c] = board.at((r, c))
    tiles = sorted(left)
    for i, a in enumerate(tiles):
        for b in tiles[i + 1:]:
            if board.at(a) == board.at(b) and joins(grid, board.border, board.turns, a, b):
                yield a, b


def clearable(board: Board) -> bool:
    """Brute force: some removal order clears the board (memo over the tiles left)."""

    @cache
    def clears(left: frozenset[Cell]) -> bool:
        return not left or any(clears(left - {a, b}) for a, b in moves(board, left))

    return clears(frozenset(board.tiles))


def greedy_left(board: Board) -> int:
    """The seed's auto-play: passes in row-major order removing the first pair that
    joins, until a pass removes nothing; the number of tiles left."""
    grid = [list(row) for row in board.grid]
    removed = True
    while removed:
        removed = False
        tiles = [(r, c) for r in range(board.height) for c in range(board.width) if grid[r][c]]
        for i, a in enumerate(tiles):
            for b in tiles[i + 1:]:
                if grid[a[0]][a[1]] and grid[a[0]][a[1]] == grid[b[0]][b[1]] and joins(
                    grid, board.border, board.turns, a, b
                ):
                    grid[a[0]][a[1]] = grid[b[0]][b[1]] = 0
                    removed = True
                    break
    return sum(1 for row in grid for v in row if v)


def board_of(text: str, **rules) -> Board:
    return Board(tuple(tuple(int(v) for v in line.split()) for line in text.strip().splitlines()),
                 **rules)


def solve(board: Board, time_limit: float | None = 30, **options):
    result = CpSatBackend(**options).solve(board, time_limit=time_limit)
    if result.status is Status.SOLVED:
        assert verify(board, result.solution) == []
    return result


# ---------------------------------------------------------------- candidate lines


@pytest.mark.parametrize("text, border, a, b, corners", [
    ("1 0 0 1", False, (0, 0), (0, 3), [()]),  # straight, 0 turns
    ("1 0\n0 1", False, (0, 0), (1, 1), [((0, 1),), ((1, 0),)]),  # the two 1-turn corners
    ("1 2 0\n0 2 1", False, (0, 0), (1, 2), [((1, 0),), ((0, 2),)]),  # 1 turn, a 2 on either way
    ("1 2 0\n0 0 0\n0 2 1", False, (0, 0), (2, 2), [((1, 0), (1, 2))]),  # 2 turns, row 1
    ("1 2 1", True, (0, 0), (0, 2), [((-1, 0), (-1, 2)), ((1, 0), (1, 2))]),  # U via the ring
    ("1 2 1", False, (0, 0), (0, 2), [()]),  # no ring: only the straight line, blocked
])
def test_candidate_lines_keep_the_least_blocked(text, border, a, b, corners) -> None:
    lines = candidate_lines(board_of(text, border=border), a, b)
    free = [line.corners for line in lines if not line.blockers]
    if free:  # a free line beats every other line of the pair
        assert len(lines) == 1 and free[0] in corners
    else:
        assert sorted(line.corners for line in lines) == sorted(corners)


def test_two_turn_lines_through_every_row_and_column() -> None:
    b = board_of("1 2 3\n4 5 6\n7 8 1")  # the 1s at opposite corners, all cells full
    lines = candidate_lines(b, (0, 0), (2, 2))
    assert {line.blockers for line in lines} == {
        frozenset({(0, 1), (0, 2), (1, 2)}),  # 1 turn at (0, 2)
        frozenset({(1, 0), (2, 0), (2, 1)}),  # 1 turn at (2, 0)
        frozenset({(1, 0), (1, 1), (1, 2)}),  # 2 turns through row 1
        frozenset({(0, 1), (1, 1), (2, 1)}),  # 2 turns through column 1
    }
    assert len(candidate_lines(Board(b.grid, border=True), (0, 0), (2, 2))) > len(lines)
    assert all(line.blockers for line in lines)
    assert candidate_lines(Board(b.grid, turns=0), (0, 0), (2, 2)) == []


# ---------------------------------------------------------------- known boards

GREEDY_TRAP = """
3 1 3 1
3 1 1 2
2 2 2 3
"""  # the seed's greedy play stops with 6 tiles left


@pytest.mark.parametrize("text, rules, clears", [
    ("1 1", {}, True),  # adjacent
    ("1 0 0 1", {}, True),  # 0 turns
    ("1 0\n0 1", {}, True),  # 1 turn
    ("1 2 0\n0 2 1", {}, True),  # the 2s go first, then 1 turn
    ("1 2 0\n0 0 0\n0 2 1", {"turns": 1}, True),  # the 2s go first, then 1 turn
    ("1 2\n2 1", {}, False),  # the crossed 2 x 2
    ("1 2\n2 1", {"border": True}, False),  # still crossed: every line meets the other picture
    ("1 2 1 2", {}, False),  # one row, each pair blocked by the other
    ("1 2 1 2", {"border": True}, True),  # a U through the ring above
    ("1 2 1 2", {"border": True, "turns": 1}, False),  # the U needs two turns
    ("1 1 2 2 1 1", {}, True),  # four 1s: which pairs go together is a choice
    ("1 3 1 1 1 3", {}, False),  # every tile can go in some order, but no pairing works
    ("1 3 2\n0 2 1\n3 3 3", {}, False),
    ("0 0\n0 0", {}, True),  # nothing to clear
    (GREEDY_TRAP, {}, True),
])
def test_known_boards(text: str, rules: dict, clears: bool) -> None:
    b = board_of(text, **rules)
    assert clearable(b) is clears
    assert solve(b).status is (Status.SOLVED if clears else Status.UNSAT)


def test_greedy_trap_is_a_trap() -> None:
    b = board_of(GREEDY_TRAP)
    assert greedy_left(b) > 0
    moves = solve(b).solution.moves
    assert len(moves) == len(b.tiles) // 2


@pytest.mark.parametrize("text", ["1 3 1 1 1 3", "1 2 2 2 1 2", "3 2 1\n3 1 3\n3 2 0"])
def test_pairing_refutations_come_from_the_model(text: str) -> None:
    """Boards where every tile could go if tiles could be used twice: the quick
    reachability check passes them on, and the model proves them unclearable."""
    b = board_of(text)
    assert not clearable(b)
    result = solve(b)
    assert result.status is Status.UNSAT and not result.message


def full_8x6(seed: int, border: bool = False) -> Board:
    tiles = [p for p in range(1, 13) for _ in range(4)]
    random.Random(seed).shuffle(tiles)
    return Board(tuple(tuple(tiles[r * 8:(r + 1) * 8]) for r in range(6)), border=border)


def test_8x6_board_refuted_by_the_model() -> None:
    """Seed 125 (as in the benchmark): every tile passes the reachability check,
    yet brute force finds no clearing; the model proves it."""
    result = solve(full_8x6(125))
    assert result.status is Status.UNSAT and not result.message


@pytest.mark.parametrize("text", ["1 3 1 1 1 3", "3 2 1\n3 1 3\n3 2 0"])
def test_deadlock_cores_refute_pairings(text: str) -> None:
    """Without a hint the pairing search's cores go to CP-SAT as clauses; each
    names pairs of which one must be chosen, and the board stays UNSAT."""
    b = board_of(text)
    result = solve(b, hint=False, presolve=False)
    assert result.status is Status.UNSAT and result.effort["cores"] > 0


def pairings(board: Board) -> set[frozenset[tuple[Cell, Cell]]]:
    """Brute force: the sets of pairs of every clearing."""

    def clear(left: frozenset[Cell]) -> set[frozenset[tuple[Cell, Cell]]]:
        if not left:
            return {frozenset()}
        return {rest | {pair} for pair in moves(board, left)
                for rest in clear(left - set(pair))}

    return clear(frozenset(board.tiles))


def test_every_clearing_meets_every_core() -> None:
    """The cores' clauses ("one of these pairs is chosen") hold in every
    clearing of small random boards (both ring settings), by brute force."""
    rng = random.Random(4)
    met = 0
    for _ in range(400):
        b = random_board(rng)
        if len(b.tiles) > 10:
            continue
        lines = {(a, c): [line.blockers for line in candidate_lines(b, a, c)]
                 for a in b.tiles for c in b.tiles if a < c and b.at(a) == b.at(c)}
        _, cores = deadlock_cores(lines, reached)
        for pairing in pairings(b):
            assert all(core & pairing for core in cores), (b, pairing)
            met += len(cores)
    assert met > 50  # cores were met on clearable boards


def test_stuck_tiles_are_named() -> None:
    result = solve(board_of("1 2 1 2"))
    assert result.status is Status.UNSAT and "can never be removed" in result.message


def test_odd_picture_cannot_clear() -> None:
    result = solve(board_of("1 2 2"))
    assert result.status is Status.UNSAT
    assert "picture 1" in result.message


def test_rules_and_calls_it_does_not_model() -> None:
    backend = CpSatBackend()
    with pytest.raises(Unsupported, match="at most 2 turns"):
        backend.solve(board_of("1 1", turns=3))
    for call in (backend.count, backend.unique):
        with pytest.raises(Unsupported, match="only solves"):
            call(board_of("1 1"))
    with pytest.raises(Unsupported):
        next(iter(backend.solutions(board_of("1 1"))))
    assert backend.calls == frozenset({"solve", "check"})


def test_time_limit_is_a_limit_not_an_answer() -> None:
    rng = random.Random(5)
    tiles = [p for p in range(1, 37) for _ in range(4)]
    rng.shuffle(tiles)
    b = Board(tuple(tuple(tiles[r * 18:(r + 1) * 18]) for r in range(8)), border=True)
    result = CpSatBackend().solve(b, time_limit=0.0)
    assert result.status is Status.LIMIT and result.solution is None


def test_effort_figures() -> None:
    result = solve(board_of(GREEDY_TRAP))
    assert set(result.effort) >= {"branches", "conflicts", "deterministic_time"}
    assert result.wall > 0


# ---------------------------------------------------------------- random boards


def random_board(rng: random.Random) -> Board:
    height, width = rng.randint(1, 4), rng.randint(2, 4)
    pairs = rng.randint(max(1, height * width // 4), height * width // 2)
    tiles = [p for p in (rng.randint(1, rng.randint(1, 4)) for _ in range(pairs)) for _ in (0, 1)]
    cells = tiles + [0] * (height * width - len(tiles))
    rng.shuffle(cells)
    grid = tuple(tuple(cells[r * width:(r + 1) * width]) for r in range(height))
    return Board(grid, border=rng.random() < 0.5, turns=rng.choice((0, 1, 2, 2, 2)))


@pytest.mark.parametrize("presolve", [True, False])
def test_random_small_boards_agree_with_brute_force(presolve: bool) -> None:
    verdicts = agreement(2026, presolve=presolve)
    assert all(sum(verdicts[s, ring] for ring in (True, False)) > 25
               for s in (Status.SOLVED, Status.UNSAT))  # both sides tested


def agreement(seed: int, **options) -> Counter[tuple[Status, bool]]:
    """300 random small boards solved with ``options``, each verdict held to
    brute force; the verdicts counted by (status, ring)."""
    rng = random.Random(seed)
    verdicts: Counter[tuple[Status, bool]] = Counter()
    for _ in range(300):
        b = random_board(rng)
        result = solve(b, **options)
        assert result.status is (Status.SOLVED if clearable(b) else Status.UNSAT), b
        verdicts[result.status, b.border] += 1
    return verdicts


def test_random_small_boards_agree_with_brute_force_with_cores() -> None:
    """No hint and no safe moves, so every board gets the deadlock-core search
    and every unclearable one it closes gets the clauses (the cores of
    clearable boards are checked against every clearing above)."""
    verdicts = agreement(21, presolve=False, hint=False)
    assert min(verdicts[s, ring] for s in (Status.SOLVED, Status.UNSAT)
               for ring in (True, False)) >= 10  # both verdicts, both ring settings


@pytest.mark.slow
def test_full_8x6_boards_agree_with_the_search_backend() -> None:
    from search.lianliankan.solver import SearchBackend

    for seed in range(100, 120):
        b = full_8x6(seed, border=seed % 2 == 1)
        expected = SearchBackend().solve(b, time_limit=60).status
        assert solve(b, time_limit=60).status is expected, b


def _manifest_solve_rows() -> list:
    from search.app.manifest import read_manifest

    path = Path(__file__).resolve().parents[2] / "instances" / "lianliankan" / "manifest.tsv"
    if not path.exists():
        return []
    rows = read_manifest(path)
    return [row for row in rows if row.task == "solve" and "gravity" not in row.rules]


@pytest.mark.slow
@pytest.mark.parametrize("row", _manifest_solve_rows(), ids=lambda row: row.path.name)
def test_bundled_boards_match_the_manifest(row) -> None:
    from search.lianliankan.io import parse

    b = parse(row.path.read_text(), str(row.path))
    b = Board(b.grid, border="border" in row.rules)
    status = solve(b, time_limit=120).status
    if len(b.tiles) > 100 and status is Status.LIMIT:
        pytest.skip(f"{len(b.tiles)} tiles: undecided in 120 s (beyond this backend's reach)")
    assert str(status) == row.expected
