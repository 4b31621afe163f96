"""The ``frontier`` Numberlink backend against the brute-force oracle and known counts."""

from __future__ import annotations

import csv
import random

import pytest

from search.core.contract import Status
from search.lab.oracles.numberlink import random_puzzle as random_numberlink
from search.lab.oracles.numberlink import solutions as numberlink_solutions
from search.numberlink.frontier import FrontierBackend
from search.numberlink.frontier import kernel as frontier_np
from search.numberlink.frontier.board import Board
from search.numberlink.io import parse, parse_many
from search.numberlink.model import Numberlink, Pair
from search.numberlink.verify import touches_itself, verify
from search.pipelines.numberlink_check import check
from tests.conftest import SHARED, shared

PUBLIC = ("instances-public", "numberlink")


def random_boards(seed: int, count: int, sizes=((2, 3), (3, 3), (3, 4), (4, 3), (4, 4), (2, 6),
                                                 (3, 5))):
    rng = random.Random(seed)
    for i in range(count):
        height, width = sizes[i % len(sizes)]
        yield random_numberlink(height, width, rng)


def both_rules(puzzle: Numberlink):
    return (puzzle.covering(), puzzle.lenient())


BOARDS = [rules for p in random_boards(2026, 60) for rules in both_rules(p)]


@pytest.mark.parametrize("puzzle", BOARDS)
def test_counts_and_solutions_match_the_oracle(puzzle):
    truth = {s.edges for s in numberlink_solutions(puzzle)}
    backend = FrontierBackend()
    counted = backend.count(puzzle)
    assert counted.status is Status.COUNTED
    assert counted.count == len(truth)
    listed = list(backend.solutions(puzzle))
    assert len(listed) == len(truth)
    assert {s.edges for s in listed} == truth
    capped = backend.count(puzzle, limit=2)
    assert capped.count == min(len(truth), 2)
    assert capped.status is (Status.LIMIT if len(truth) >= 2 else Status.COUNTED)
    solved = backend.solve(puzzle)
    assert solved.status is (Status.SOLVED if truth else Status.UNSAT)
    if truth:
        assert verify(puzzle, solved.solution) == []
        assert solved.solution.edges in truth
    found = backend.unique(puzzle)
    assert found.status is (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[min(len(truth), 2)]
    assert len({s.edges for s in found.solutions}) == min(len(truth), 2)
    for solution in found.solutions:
        assert verify(puzzle, solution) == []
        assert solution.edges in truth


@pytest.mark.parametrize("puzzle", BOARDS[:60])
def test_a_tiny_beam_never_changes_capped_answers(puzzle):
    truth = {s.edges for s in numberlink_solutions(puzzle)}
    backend = FrontierBackend(beam=2, beam_from=1, probe=1)  # the beam pass drops states
    assert backend.count(puzzle, limit=2).count == min(len(truth), 2)
    found = backend.unique(puzzle)
    assert found.status is (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[min(len(truth), 2)]
    assert {s.edges for s in found.solutions} <= truth
    assert len({s.edges for s in found.solutions}) == min(len(truth), 2)
    assert backend.count(puzzle).count == len(truth)  # exact counts never use the beam


@pytest.mark.parametrize("puzzle", BOARDS[:60])
def test_two_pauses_and_two_beams_never_change_capped_answers(puzzle):
    truth = {s.edges for s in numberlink_solutions(puzzle)}
    backend = FrontierBackend(beam=3, beam_from=1, probe=1)  # beams of 2 and 3 states
    found = backend.unique(puzzle)
    assert found.status is (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[min(len(truth), 2)]
    assert {s.edges for s in found.solutions} <= truth
    assert len({s.edges for s in found.solutions}) == min(len(truth), 2)


def test_beams_still_run_when_the_exact_pass_is_out_of_states():
    settled = 0
    for puzzle in BOARDS[:60]:
        truth = len(list(numberlink_solutions(puzzle)))
        backend = FrontierBackend(beam=2, beam_from=1, probe=10, max_states=2)
        result = backend.count(puzzle, limit=2)
        if "states" in result.message:  # the exact pass stopped and the beam did not settle
            assert result.status is Status.LIMIT and result.count == 0
        else:
            assert result.count == min(truth, 2)
            settled += truth >= 2 and backend.effort["states"] > 2
    assert settled  # some boards are settled by a beam after the exact pass stopped


@pytest.mark.parametrize("puzzle", BOARDS[::2])
def test_a_paused_exact_pass_resumes_alike(puzzle):
    board = Board.of(puzzle)
    whole = frontier_np.run(board)
    result = frontier_np.run(board, pause=1)
    pauses = 0
    while result.paused is not None:
        pauses += 1
        result = frontier_np.run(board, pause=len(result.paused.states) + 1,
                                 resume=result.paused)
    assert result.count == whole.count
    assert result.cells == whole.cells and result.max_states == whole.max_states
    assert pauses or whole.max_states <= 1


@pytest.mark.parametrize("puzzle", [p.lenient() for p in random_boards(7, 40)])
def test_the_self_avoiding_bound_lies_between_its_two_sets(puzzle):
    everything = list(numberlink_solutions(puzzle))
    avoiding = [s for s in everything if not touches_itself(puzzle, s)]
    backend = FrontierBackend()
    bound = backend.self_avoiding_bound(puzzle, cap=10**6)
    assert len(avoiding) <= bound.count <= len(everything)
    assert bool(avoiding) == bool(everything)  # the lemma: a solution iff a self-avoiding one
    assert len({s.edges for s in bound.solutions}) == bound.count  # B's members, each once
    assert {s.edges for s in avoiding} <= {s.edges for s in bound.solutions}
    for solution in bound.solutions:
        assert verify(puzzle, solution) == []
    capped = backend.self_avoiding_bound(puzzle, cap=2)
    assert capped.count == min(bound.count, 2) == len(capped.solutions)
    # and ``count`` keeps its meaning: the solutions under the rule
    assert backend.count(puzzle).count == len(everything) == len(list(backend.solutions(puzzle)))


def test_the_bound_drops_a_u_turn_under_a_step_down():
    # Up, then right, under a plug down: the U's two top cells touch.  Without
    # that rule the pass lets one self-touching solution of this board through.
    puzzle = parse(".A.\n...\n..A\n").lenient()
    avoiding = [s for s in numberlink_solutions(puzzle) if not touches_itself(puzzle, s)]
    assert len(avoiding) == 4
    assert FrontierBackend().self_avoiding_bound(puzzle, cap=100).count == 4


@pytest.mark.parametrize("seed", range(3))
def test_count_equals_the_solutions_listed_on_random_boards(seed):
    """``count`` means the number of solutions under the rule: equal to
    ``len(solutions())``, to the brute-force oracle and to the plain-Python
    reference programme, on 100 random boards per seed."""
    from search.lab.oracles.numberlink import count as brute_count
    from search.lab.oracles.numberlink import random_board
    from tests.numberlink.frontier_reference import run as reference

    rng = random.Random(1000 + seed)
    backend = FrontierBackend()
    for _ in range(100):
        board = random_board(rng)
        for puzzle in (board, board.lenient()):
            listed = list(backend.solutions(puzzle))
            n = backend.count(puzzle).count
            assert n == len(listed) == len({s.edges for s in listed}), puzzle
            assert n == brute_count(puzzle) == reference(Board.of(puzzle)).count, puzzle
            assert all(verify(puzzle, s) == [] for s in listed)
            if not puzzle.full_cover:
                avoiding = brute_count(puzzle, self_avoiding=True)
                assert avoiding <= backend.self_avoiding_bound(puzzle, cap=10**6).count <= n
                assert avoiding <= reference(Board.of(puzzle), no_touch=True).count <= n


@pytest.mark.parametrize("puzzle", [p.covering() for p in random_boards(11, 40)])
def test_check_verdict_matches_the_oracle(puzzle):
    lenient = list(numberlink_solutions(puzzle.lenient()))
    cells = len(puzzle.open_cells)
    well = len(lenient) == 1 and sum(map(len, lenient[0].paths)) == cells
    report = check(puzzle, backend="frontier")
    assert report.ok is well


@pytest.mark.parametrize("puzzle", BOARDS[::3])
def test_two_byte_states_count_alike(puzzle):
    board = Board.of(puzzle)
    assert frontier_np.run(board, wide=True).count == frontier_np.run(board).count
    assert frontier_np.run(board, wide=True, cap=2).count == frontier_np.run(board, cap=2).count


def test_many_pairs_on_a_thin_board():
    # 130 pairs on a 3-row frontier need two bytes per plug
    pairs = tuple(Pair(str(i), (0, 2 * i), (2, 2 * i)) for i in range(130))
    puzzle = Numberlink(3, 260, pairs, full_cover=False)
    result = FrontierBackend().count(puzzle)
    assert result.status is Status.COUNTED
    assert result.count > 1
    solved = FrontierBackend().solve(puzzle)
    assert verify(puzzle, solved.solution) == []


def test_wide_boards_are_transposed():
    puzzle = Numberlink(2, 7, (Pair("1", (0, 0), (0, 6)), Pair("2", (1, 0), (1, 6))))
    backend = FrontierBackend()
    assert backend.count(puzzle).count == 1
    assert backend.count(puzzle.lenient()).count == 1
    assert backend.effort["states"] >= 1
    solution = backend.solve(puzzle).solution
    assert verify(puzzle, solution) == []


def test_blocked_cells_and_empty_puzzles():
    blocked = Numberlink(3, 3, (Pair("1", (0, 0), (2, 2)),), frozenset({(1, 1)}))
    assert FrontierBackend().count(blocked).count == 0  # 5 of 8 cells either way round
    assert FrontierBackend().count(blocked.lenient()).count == 2
    ring = Numberlink(3, 3, (Pair("1", (0, 0), (1, 0)),), frozenset({(1, 1)}))
    assert FrontierBackend().count(ring).count == 1
    nothing = Numberlink(2, 2, ())
    assert FrontierBackend().count(nothing).count == 0  # full cover with no path
    assert FrontierBackend().count(nothing.lenient()).count == 1  # all cells empty


def test_memory_bound_stops_with_limit_and_a_message():
    puzzle = Numberlink(6, 6, (Pair("1", (0, 0), (5, 5)),), full_cover=False)
    result = FrontierBackend(max_states=5).count(puzzle)
    assert result.status is Status.LIMIT
    assert "frontier states" in result.message
    assert FrontierBackend(max_states=5).solve(puzzle).status is Status.LIMIT


def test_a_turn_past_the_state_bound_hands_the_count_to_the_next_turn():
    """Under a tight bound the first-ranked turn may fail where another counts:
    every count that comes back is the exact one, and some come from a later turn."""
    later = 0
    for puzzle in BOARDS[:60]:
        exact = sum(1 for _ in numberlink_solutions(puzzle))
        for bound in (1, 2, 3, 4, 6, 8, 12):
            result = FrontierBackend(max_states=bound).count(puzzle)
            if result.status is Status.COUNTED:
                assert result.count == exact, (puzzle, bound)
                later += result.effort["turns"] > 1
            else:
                assert result.effort["turns"] == len(Board.turns(puzzle))  # all were tried
    assert later > 0


def test_time_limit_stops_with_limit():
    puzzle = Numberlink(8, 8, (Pair("1", (0, 0), (7, 7)),), full_cover=False)
    assert FrontierBackend().count(puzzle, time_limit=0).status is Status.LIMIT
    assert FrontierBackend().unique(puzzle, time_limit=0).status is Status.LIMIT


def test_registered_as_default_for_count_and_check():
    from search.numberlink import KIND

    assert KIND.default_backend("count") == "frontier"
    assert KIND.default_backend("check") == "frontier"
    assert isinstance(KIND.backend("frontier"), FrontierBackend)


# ---------------------------------------------------------------- public instances


def expected_counts(source: str) -> list[dict]:
    path = shared(*PUBLIC, "EXPECTED_COUNTS.csv")
    with path.open() as handle:
        return [row for row in csv.DictReader(handle) if row["file"].startswith(source)]


def flow_free(small: bool) -> list[tuple[str, int, int]]:
    """The levels to test, read while collecting: none when ../shared is absent."""
    if not SHARED.joinpath(*PUBLIC, "EXPECTED_COUNTS.csv").exists():
        return []
    rows = []
    for row in expected_counts("mzucker-flow_solver/puzzles/"):
        side = int(row["width"])
        if (side <= 7) == small and row["n_R1_lenient"].isdigit() and side <= 12:
            rows.append((row["file"], int(row["n_R2_fullcover"]), int(row["n_R1_lenient"])))
    return rows


def _flow_free_counts(file: str, full: int, lenient: int) -> None:
    puzzle = parse(shared(*PUBLIC, file).read_text(), file)
    backend = FrontierBackend()
    assert backend.count(puzzle.covering()).count == full
    assert backend.count(puzzle.lenient()).count == lenient


@pytest.mark.parametrize("file,full,lenient", flow_free(small=True) or [("-", 0, 0)])
def test_flow_free_small_levels_match_expected_counts(file, full, lenient):
    if file == "-":
        pytest.skip("EXPECTED_COUNTS.csv lists no small level")
    _flow_free_counts(file, full, lenient)


@pytest.mark.slow
@pytest.mark.parametrize("file,full,lenient", [
    ("mzucker-flow_solver/puzzles/jumbo_13x13_26.txt", 1950036, 1507504274926),
    ("mzucker-flow_solver/puzzles/extreme_10x10_01.txt", 1, 1),
])
def test_flow_free_larger_levels_match_expected_counts(file, full, lenient):
    _flow_free_counts(file, full, lenient)


def janko(indices: list[int]) -> list[tuple[int, int, int]]:
    rows = {int(r["index"]): r for r in expected_counts("thomasahle-numberlink/puzzles/janko")}
    return [(i, int(rows[i]["n_R2_fullcover"]), int(rows[i]["n_R1_lenient"])) for i in indices]


def janko_puzzles() -> list[Numberlink]:
    path = shared(*PUBLIC, "thomasahle-numberlink", "puzzles", "janko")
    return parse_many(path.read_text(), str(path))


def test_janko_small_boards_exact_counts():
    puzzles = janko_puzzles()
    backend = FrontierBackend()
    # 8x8 and 9x9 boards with many solutions: lenient counts up to 1.04e12
    for index, full, lenient in janko([0, 1, 2, 3, 4, 5]):
        puzzle = puzzles[index]
        assert backend.count(puzzle.covering()).count == full, index
        assert backend.count(puzzle.lenient()).count == lenient, index


def test_counts_past_two_limbs_match_the_known_path_counts():
    """One pair in opposite corners, lenient: the self-avoiding corner-to-corner
    paths of an n x n grid (OEIS A007764), up to 4.1e19: the int64 limbs carry
    past 2**32 and 2**64 exactly."""
    known = {7: 575780564, 8: 789360053252, 9: 3266598486981642,
             10: 41044208702632496804}
    for n, count in known.items():
        puzzle = Numberlink(n, n, (Pair("1", (0, 0), (n - 1, n - 1)),)).lenient()
        assert FrontierBackend().count(puzzle).count == count
    assert FrontierBackend().count(puzzle, limit=3).count == 3  # saturated, one limb


def all_turns(puzzle: Numberlink) -> list[Board]:
    return [Board._turned(puzzle, t, fr, fc) for t in (False, True) for fr in (False, True)
            for fc in (False, True)]


def test_every_cell_order_counts_alike():
    """Each of the eight turns of a board (rows or columns first, either way
    round, the wider ones too) gives the brute-force count under both rules,
    so the choice of the order never changes a count; the lookahead's pruning
    included (boards with many ends next to each other)."""
    from search.lab.oracles.numberlink import count as brute_count

    rng = random.Random(11)
    for i in range(30):
        height, width = ((3, 4), (4, 4), (2, 5), (4, 3), (3, 5))[i % 5]
        base = random_numberlink(height, width, rng)
        for puzzle in both_rules(base):
            n = brute_count(puzzle)
            counts = {frontier_np.run(board).count for board in all_turns(puzzle)}
            assert counts == {n}, (puzzle, counts, n)


def test_larger_random_boards_match_the_reference_programme():
    """5 x 5 and 4 x 6 boards, more pairs than the oracle's sizes: the engine
    (lookahead, limbs, hashed merge) against the plain-Python reference
    programme, which has none of them, under both rules."""
    from tests.numberlink.frontier_reference import run as reference

    rng = random.Random(7)
    for i in range(16):
        height, width = ((5, 5), (4, 6))[i % 2]
        base = random_numberlink(height, width, rng)
        for puzzle in both_rules(base):
            board = Board.of(puzzle)
            assert frontier_np.run(board).count == reference(board).count, puzzle
