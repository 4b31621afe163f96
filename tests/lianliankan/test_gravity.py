"""Lianliankan under gravity: both backends against brute force, the safe
removals, boards where the order of two removals in one column matters, the
generator that plays under gravity, and KShisen's greedy filter."""

from __future__ import annotations

import dataclasses
import json
import random
from array import array
from pathlib import Path

import pytest

from search.core.compiled import is_compiled, source
from search.core.contract import Deadline, LimitReached, Status
from search.core.registry import kind
from search.lab.oracles.lianliankan import clearable, random_board
from search.lab.oracles.lianliankan import moves as oracle_moves
from search.lianliankan import gravity
from search.lianliankan.generate import BlankGame, full_fill, full_tiles, played_fill
from search.lianliankan.gravity import GravitySearch, moves_of
from search.lianliankan.io import parse
from search.lianliankan.kshisen import kshisen_solvable
from search.lianliankan.model import Board, Solution
from search.lianliankan.paths import Field
from search.lianliankan.verify import fewest_turns, verify
from tests.conftest import backend_names

# the kernel as Python: its inner functions are C-only once compiled
kernel = source("search.lianliankan.gravity_kernel")

BACKENDS = backend_names("lianliankan")
ROOT = Path(__file__).resolve().parents[2]

# Solvable only if the 2s (row 1) go before the 1s below the right one: the
# other order drops the right 2 out of line, and the board is lost.
ORDER = ((1, 3), (2, 2), (1, 1), (3, 1))
WRONG_FIRST = ((2, 1), (3, 1))


def grid(text: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(v) for v in row.split()) for row in text.strip().splitlines())


def solve(name: str, b: Board):
    result = kind("lianliankan").backend(name).solve(b, time_limit=60)
    if result.solution is not None:
        assert verify(b, result.solution) == [], b
    return result


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("border", [False, True])
def test_small_gravity_boards_against_brute_force(backend: str, border: bool) -> None:
    rng = random.Random(21 + border)
    for _ in range(120 if backend == "search" else 40):
        b = dataclasses.replace(random_board(rng, 4 if backend == "search" else 3),
                                gravity=True, border=border)
        expected = Status.SOLVED if clearable(b) else Status.UNSAT
        assert solve(backend, b).status is expected, b


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_order_of_two_removals_in_one_column(backend: str) -> None:
    b = Board(ORDER, gravity=True)
    assert clearable(b)
    lost = b.removed(*WRONG_FIRST)
    assert not clearable(lost)
    assert solve(backend, b).status is Status.SOLVED
    assert solve(backend, lost).status is Status.UNSAT


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text, border, clears", [
    ("1 2 1\n2 1 2\n1 2 1\n2 1 2", False, False),  # clears without gravity
    ("1 2 1\n2 1 2\n1 2 1\n2 1 2", True, True),
    ("1\n2\n1\n2", False, False),
    ("1\n2\n1\n2", True, True),  # the ring joins the 2s around the 1
])
def test_known_gravity_boards(backend: str, text: str, border: bool, clears: bool) -> None:
    b = Board(grid(text), border=border, gravity=True)
    assert clearable(b) == clears
    assert solve(backend, b).status is (Status.SOLVED if clears else Status.UNSAT)


def test_played_fill_under_gravity_clears() -> None:
    rng = random.Random(3)
    for seed in range(60):
        w, h = rng.randint(2, 4), rng.randint(2, 4)
        border = seed % 2 == 0
        tiles = full_tiles(w * h - (w * h) % 2, max(1, w * h // 4))
        g = played_fill(w, h, tiles, border, 2, random.Random(seed), gravity=True)
        if g is not None:
            assert clearable(Board(g, border=border, gravity=True)), g


def test_played_fill_full_boards_clear_by_search() -> None:
    for seed in range(3):
        g = played_fill(18, 8, full_tiles(144, 36), True, 2, random.Random(seed), gravity=True)
        b = Board(g, border=True, gravity=True)
        assert solve("search", b).status is Status.SOLVED


def test_blank_game_drops_keep_its_rays() -> None:
    """After removals under gravity, the rays still join exactly what the
    verifier connects."""
    rng = random.Random(9)
    for _ in range(80):
        b = dataclasses.replace(random_board(rng, 5), gravity=True)
        game = BlankGame(b)
        while len(game.tiles()) >= 2:
            now = game.field.board(b)
            tiles = game.tiles()
            for p in tiles:
                expected = [q for q in tiles if q != p and fewest_turns(
                    now, game.field.cell(p), game.field.cell(q)) is not None]
                assert game.joined(p) == expected, (now, p)
            game.drop(*rng.sample(tiles, 2))


def test_kshisen_filter_ignores_gravity() -> None:
    """The KShisen counterexample: its filter clears it (no gravity in its
    game), gravity makes it unclearable; and the filter gives up where greedy
    play is stuck."""
    path = ROOT / "instances/lianliankan/generated/kshisen-gravity-164.llk"
    b = dataclasses.replace(parse(path.read_text(), str(path)), border=True, gravity=True)
    assert kshisen_solvable(b)
    assert solve("search", b).status is Status.UNSAT
    assert not kshisen_solvable(Board(grid("1 2\n2 1")))
    stuck = Board(grid("3 1 3 1\n3 1 1 2\n2 2 2 3"))  # the seed's greedy trap
    assert clearable(stuck)
    assert not kshisen_solvable(stuck)


def test_generate_gravity_is_reproducible(capsys) -> None:
    from search.app.cli import main

    argv = ["generate", "lianliankan", "--full", "--border", "--solvable", "--gravity",
            "--size", "4x4", "--seed", "4", "--count", "2", "--json"]
    outputs = []
    for _ in range(2):
        assert main(argv) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    for line in outputs[0].splitlines():
        row = json.loads(line)
        assert row["gravity"] is True
        assert clearable(Board(tuple(map(tuple, row["grid"])), border=True, gravity=True))


class ReferenceField(Field):
    """``Field.line`` as it was before its runs were walked inline: each run
    from the tile by ``_reach``, the rows (then columns) both runs reach
    scanned in order.  The reference the faster ``line`` must match, corners
    and all (the search's moves, and so its node counts, depend on them)."""

    def line(self, a: int, b: int) -> tuple[int, ...] | None:
        if self.turns != 2:
            return self.path(a, b)
        cells, s = self.cells, self.stride
        ra, ca = divmod(a, s)
        rb, cb = divmod(b, s)
        if ca != cb:
            lo = max(self._reach(a, -s), self._reach(b, -s)) // s
            hi = min(self._reach(a, s), self._reach(b, s)) // s
            left, right = (ca, cb) if ca < cb else (cb, ca)
            for r in range(lo, hi + 1):
                base = r * s
                if not any(cells[base + left + 1: base + right]):
                    return tuple(x for x in (base + ca, base + cb) if x != a and x != b)
        elif not any(cells[min(a, b) + s: max(a, b): s]):
            return ()
        if ra != rb:
            lo = max(self._reach(a, -1) % s, self._reach(b, -1) % s)
            hi = min(self._reach(a, 1) % s, self._reach(b, 1) % s)
            top, bottom = (ra, rb) if ra < rb else (rb, ra)
            for c in range(lo, hi + 1):
                if not any(cells[(top + 1) * s + c: bottom * s + c: s]):
                    return tuple(x for x in (ra * s + c, rb * s + c) if x != a and x != b)
        elif not any(cells[min(a, b) + 1: max(a, b)]):
            return ()
        return None

    def _reach(self, p: int, step: int) -> int:
        q = p + step
        while self.cells[q] == 0:
            q += step
        return q - step


def test_line_matches_the_reference_during_play() -> None:
    """Every pair of tiles, on boards played down by random removals under
    gravity, both ring settings: the same line, corners and all."""
    rng = random.Random(17)
    pairs = 0
    for k in range(40):
        w, h = 2 * rng.randint(1, 5), rng.randint(2, 7)
        b = Board(full_fill(w, h, max(1, w * h // 4), rng), border=k % 2 == 0, gravity=True)
        field, reference = Field(b), ReferenceField(b)
        while True:
            tiles = field.tiles()
            for i, a in enumerate(tiles):
                for c in tiles[i + 1:]:
                    assert field.line(a, c) == reference.line(a, c), (field.board(b), a, c)
                    pairs += 1
            if len(tiles) < 2:
                break
            a, c = rng.sample(tiles, 2)
            field.remove(a, c)
            reference.remove(a, c)
    assert pairs > 10_000


def _run(search: GravitySearch):
    try:
        found = search.run()
    except LimitReached:
        return "LIMIT", search.nodes, None
    return ("SOLVED" if found is not None else "UNSAT"), search.nodes, found


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_kernel_moves_are_the_oracles_during_play(turns: int) -> None:
    """The kernel's pairs (its line test, the walled-in shortcut, both ring
    settings, any number of turns) are exactly the brute-force oracle's, on
    boards played down by random removals under gravity."""
    rng = random.Random(31 + turns)
    checked = 0
    for k in range(60):
        w, h = rng.randint(1, 6), rng.randint(2, 6)
        tiles = full_tiles(w * h - (w * h) % 2, max(1, w * h // 4))
        rng.shuffle(tiles)
        cells = [*tiles, 0][:w * h]
        b = Board(tuple(tuple(cells[r * w:(r + 1) * w]) for r in range(h)),
                  border=k % 2 == 0, gravity=True, turns=turns)
        while True:
            got = sorted((m.a, m.b) for m in moves_of(b))
            assert got == sorted(oracle_moves(b)), (b, got)
            checked += 1
            if not got:
                break
            b = b.removed(*rng.choice(got))
    assert checked > 200


@pytest.mark.parametrize("width, height", [(6, 4), (8, 6), (10, 6)])
def test_search_is_deterministic_and_verified(width: int, height: int) -> None:
    """The same board twice: the same verdict, nodes and clearing; every
    clearing replays; a node budget ends in LimitReached at that budget."""
    seen = set()
    for seed in range(12):
        b = Board(full_fill(width, height, width * height // 4, random.Random(seed)),
                  border=seed % 3 != 0, gravity=True)
        got = _run(GravitySearch(b, Deadline(None), node_limit=3000))
        assert got == _run(GravitySearch(b, Deadline(None), node_limit=3000))
        if got[2] is not None:
            assert verify(b, Solution(tuple(got[2]))) == []
        else:
            assert got[1] <= 3000
        seen.add(got[0])
    assert "SOLVED" in seen


@pytest.mark.skipif(not is_compiled(gravity.kernel), reason="the kernel is not built here")
def test_compiled_and_interpreted_search_alike(monkeypatch) -> None:
    """The compiled kernel and its source interpreted: the same verdicts, node
    counts and clearings (one algorithm, two ways to run it)."""
    boards = [Board(full_fill(w, h, w * h // 4, random.Random(seed)), border=seed % 2 == 0,
                    gravity=True) for seed in range(8) for w, h in ((8, 6), (16, 9))]
    built = [_run(GravitySearch(b, Deadline(None), node_limit=4000)) for b in boards]
    monkeypatch.setattr(gravity, "kernel", kernel)
    assert [_run(GravitySearch(b, Deadline(None), node_limit=4000)) for b in boards] == built
    assert {r[0] for r in built} >= {"SOLVED"}


def test_the_buffers_grow(monkeypatch) -> None:
    """A move stack of one move and a table of four slots grow as the search
    needs them; the verdicts stay those of the roomy buffers."""
    boards = [Board(full_fill(8, 6, 12, random.Random(seed)), border=seed % 2 == 0,
                    gravity=True) for seed in range(10)]
    roomy = [_run(GravitySearch(b, Deadline(None), node_limit=2000)) for b in boards]
    monkeypatch.setattr(gravity, "FIRST_MOVES", 1)
    monkeypatch.setattr(gravity, "FIRST_TABLE", 4)
    tight = [_run(GravitySearch(b, Deadline(None), node_limit=2000)) for b in boards]
    assert [r[0] for r in tight] == [r[0] for r in roomy]
    assert {r[0] for r in roomy} >= {"SOLVED", "UNSAT"}


def test_a_large_sparse_board_keeps_no_move_list_per_child() -> None:
    """The seed's own 20 x 20 layout (100 random pairs of 20 pictures) under
    gravity, the search alone: hundreds of moves a node, cleared within a
    few hundred nodes (the move lists of every child once took 500 MB)."""
    from search.lianliankan.generate import seed_fill

    b = Board(seed_fill(20, 20, 20, 100, random.Random(71334)), gravity=True)
    found = GravitySearch(b, Deadline(None), node_limit=2000).run()
    assert found is not None and verify(b, Solution(tuple(found))) == []


def _whole_keys(search: GravitySearch, zobrist: array) -> list[int]:
    f = search.field
    return [kernel.board_key(search.cells, f.stride, f.height, f.width, search.pictures,
                             zobrist, half) for half in (0, 1)]


def test_the_kernels_keys_follow_the_board() -> None:
    """The two Zobrist keys, updated over the columns a removal changes (and
    its undo), equal the keys read from the whole board."""
    rng = random.Random(8)
    for _ in range(40):
        w, h = rng.randint(1, 6), rng.randint(2, 6)
        b = Board(full_fill(2 * w, h, max(1, w * h // 2), rng), border=True, gravity=True)
        search = GravitySearch(b, Deadline(None))
        s, cells, start = search.field.stride, search.cells, search.cells[:]
        zobrist = array("q", [rng.getrandbits(64) - (1 << 63)
                              for _ in range(2 * len(cells) * (search.pictures + 1))])
        keys = array("q", _whole_keys(search, zobrist))
        played = []
        while (pairs := search.pairs()) and rng.random() < 0.9:
            g1, g2 = sorted(rng.choice(pairs))
            played.append((g1, g2, cells[g1]))
            kernel._xor_region(cells, s, g1, g2, search.pictures, zobrist, keys)
            kernel.remove(cells, s, g1, True)
            kernel.remove(cells, s, g2, True)
            kernel._xor_region(cells, s, g1, g2, search.pictures, zobrist, keys)
            assert list(keys) == _whole_keys(search, zobrist)
        for g1, g2, v in reversed(played):
            kernel._xor_region(cells, s, g1, g2, search.pictures, zobrist, keys)
            kernel.restore(cells, s, g2, v, True)
            kernel.restore(cells, s, g1, v, True)
            kernel._xor_region(cells, s, g1, g2, search.pictures, zobrist, keys)
            assert list(keys) == _whole_keys(search, zobrist)
        assert cells == start  # the undo is exact


@pytest.mark.parametrize("turns", [1, 3])
def test_other_turns_against_brute_force(turns: int) -> None:
    """The kernel's rays for other numbers of turns, and its safe plays, on
    small gravity boards: the oracle's verdicts."""
    rng = random.Random(40 + turns)
    for _ in range(80):
        b = dataclasses.replace(random_board(rng, 4), gravity=True, turns=turns,
                                border=rng.random() < 0.5)
        expected = Status.SOLVED if clearable(b) else Status.UNSAT
        assert solve("search", b).status is expected, b
