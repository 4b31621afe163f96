"""Numberlink: the well-designed check and the generators."""

from __future__ import annotations

import csv

import pytest
from conftest import INSTANCES, shared

from cpmodels.numberlink import CpSatBackend
from search.cli import main
from search.core import Status
from search.numberlink.check import check
from search.numberlink.generate import parse_size, seed_board, well_designed
from search.numberlink.io import format_puzzle, format_solution, parse, parse_many
from search.numberlink.model import Solution
from search.numberlink.verify import touches_itself, verify

BACKENDS = ["search", "cpsat"]
SEED = INSTANCES / "numberlink" / "seed-article" / "seed_7x7.nl"

CASES = [  # puzzle, verdict, lenient count, full-cover count (capped at 2)
    (SEED.read_text(), "WELL-DESIGNED", 1, 1),
    ("1.\n1.\n", "NOT WELL-DESIGNED: several lenient solutions", 2, 1),
    ("| 1 || || 1 |\n| X || || X |\n", "NOT WELL-DESIGNED: the only solution leaves cells empty",
     1, 0),
    ("12\n21\n", "NOT WELL-DESIGNED: no solution", 0, 0),
    ("1..\n...\n..1\n", "NOT WELL-DESIGNED: several lenient solutions; several full-cover "
     "solutions", 2, 2),
]


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("text, verdict, lenient, full", CASES)
def test_check_verdicts(name, text, verdict, lenient, full):
    puzzle = parse(text)
    report = check(puzzle, backend=name, time_limit=30)
    assert report.verdict == verdict
    assert report.ok is (verdict == "WELL-DESIGNED")
    assert report.details["lenient_solutions"] == lenient
    assert report.details["full_cover_solutions"] == full
    assert report.status is (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[lenient]
    if report.ok:
        assert verify(puzzle, report.solution) == []


def test_default_check_falls_back_to_two_full_cover_solutions(monkeypatch):
    from search.numberlink import check as module
    from search.numberlink import frontier

    monkeypatch.setattr(frontier, "MAX_STATES", 1)  # the frontier can decide nothing
    several = parse("1..\n...\n..1\n")
    assert check(several, backend="frontier", time_limit=30).status is Status.LIMIT
    report = check(several, time_limit=30)
    assert (report.ok, report.status) == (False, Status.MULTIPLE)
    assert report.details["full_cover_solutions"] == 2
    assert report.details["backend"] == "frontier + cpsat"
    # One full-cover solution decides nothing: CP-SAT then takes the whole question.
    report = check(parse(SEED.read_text()), time_limit=30)
    assert (report.ok, report.details["backend"]) == (True, "frontier + cpsat")
    assert verify(parse(SEED.read_text()), report.solution) == []
    report = check(parse("1.\n.1\n"), time_limit=30)
    assert report.verdict == "NOT WELL-DESIGNED: several lenient solutions"
    assert report.details["full_cover_solutions"] == 0
    # Undecided when CP-SAT runs out of time as well.
    monkeypatch.setattr(module, "_decide", _undecided_for("cpsat", module._decide))
    assert check(parse(SEED.read_text()), time_limit=30).status is Status.LIMIT


def _undecided_for(backends: str, decide):
    from search.numberlink.check import _Undecided

    def patched(kind_, puzzle, name, deadline, effort, **options):
        if name in backends.split():
            raise _Undecided
        return decide(kind_, puzzle, name, deadline, effort, **options)
    return patched


def test_large_boards_look_for_two_full_covers_first(monkeypatch):
    from search.numberlink import check as module

    monkeypatch.setattr(module, "PROBE_CELLS", 4)  # these boards count as large
    # Neither the frontier nor CP-SAT's whole question decides: the first looks do.
    monkeypatch.setattr(module, "_decide", _undecided_for("frontier cpsat", module._decide))
    report = check(parse("1..\n...\n..1\n"), time_limit=30)
    assert (report.ok, report.details["full_cover_solutions"]) == (False, 2)
    assert report.details["backend"] == "frontier + cpsat"
    assert "branches" in report.effort  # CP-SAT's effort comes back from its process
    # No full cover decides nothing.
    assert check(parse("1.\n.1\n"), time_limit=30).status is Status.LIMIT
    monkeypatch.undo()
    assert check(parse(SEED.read_text()), time_limit=30).ok


ONE_COVER_AND_A_DETOUR = "...1.\n.1.2.\n2....\n"  # one full cover (self-avoiding), 9 lenient



def two_covers_one_self_avoiding():
    """A 4 x 4 board with two blocked corners: two full covers, one of them
    self-avoiding, and 10 lenient solutions."""
    return seed_board(4, 4, seed=32)[0]


def test_large_boards_look_for_a_second_full_cover_near_the_self_avoiding_one(monkeypatch):
    from search.numberlink import check as module
    from search.numberlink.check import _Undecided

    def gives_up(*args, **kwargs):
        raise _Undecided

    monkeypatch.setattr(module, "PROBE_CELLS", 4)  # large, not among the largest
    monkeypatch.setattr(module, "_decide", _undecided_for("frontier cpsat", module._decide))
    monkeypatch.setattr(CpSatBackend, "unique", gives_up)
    report = check(two_covers_one_self_avoiding(), time_limit=30)
    assert report.verdict == ("NOT WELL-DESIGNED: several lenient solutions; several "
                              "full-cover solutions")
    assert report.details["backend"] == "frontier"


def test_the_largest_boards_go_on_looking_for_full_covers_when_the_frontier_stops(
        monkeypatch):
    from search.numberlink import check as module
    from search.numberlink.check import _Undecided

    real = CpSatBackend.unique

    def only_with_a_known_cover(self, puzzle, *, time_limit=None):
        if self.known is None:  # CP-SAT's own side finds nothing
            raise _Undecided
        return real(self, puzzle, time_limit=time_limit)

    monkeypatch.setattr(module, "PROBE_CELLS", 4)
    monkeypatch.setattr(module, "DETOUR_CELLS", 4)
    monkeypatch.setattr(module, "RACE_STATES", 1)  # the frontier stops at once
    monkeypatch.setattr(module, "detour", lambda *args, **kwargs: None)
    monkeypatch.setattr(module, "_decide", _undecided_for("cpsat", module._decide))
    monkeypatch.setattr(CpSatBackend, "unique", only_with_a_known_cover)
    report = check(two_covers_one_self_avoiding(), time_limit=30)
    assert (report.ok, report.details["full_cover_solutions"]) == (False, 2)
    assert report.details["backend"] == "frontier + cpsat"
    if module.race.can_race():  # in order, the default engine's frontier is not bounded
        monkeypatch.setattr(module, "RACE_STATES", 10**9)
        assert check(two_covers_one_self_avoiding(), time_limit=30).details[
            "backend"] == "frontier"


def test_the_largest_boards_look_for_self_avoiding_full_covers_and_detours(monkeypatch):
    from search.numberlink import check as module
    from search.numberlink.check import _Undecided

    def gives_up(*args, **kwargs):
        raise _Undecided

    monkeypatch.setattr(module, "PROBE_CELLS", 4)
    monkeypatch.setattr(module, "_decide", _undecided_for("frontier cpsat", module._decide))
    board = parse(ONE_COVER_AND_A_DETOUR)
    assert check(board, time_limit=30).status is Status.LIMIT  # not large enough
    monkeypatch.setattr(module, "DETOUR_CELLS", 4)
    report = check(board, time_limit=30)
    assert report.verdict == "NOT WELL-DESIGNED: several lenient solutions"
    assert (report.details["full_cover_solutions"], report.details["backend"]) == (1, "frontier")
    # Two self-avoiding full covers decide there without CP-SAT.
    monkeypatch.setattr(CpSatBackend, "unique", gives_up)
    report = check(parse("....A\n.BC.C\n..A..\n...B.\n.....\n"), time_limit=30)
    assert report.verdict.startswith("NOT WELL-DESIGNED: several lenient solutions")
    assert (report.details["full_cover_solutions"], report.details["backend"]) == (2, "frontier")


def test_the_check_counts_and_never_lists_two_solutions(monkeypatch):
    """Back-pointers for two solutions outgrow memory where a count does not."""
    from search.numberlink.frontier import FrontierBackend

    def listing(*args, **kwargs):
        raise AssertionError("the check asked for two solutions")

    monkeypatch.setattr(FrontierBackend, "unique", listing)
    seed = parse(SEED.read_text())
    report = check(seed, backend="frontier", time_limit=30)
    assert report.ok and verify(seed, report.solution) == []
    assert check(parse("1..\n...\n..1\n"), backend="frontier").status is Status.MULTIPLE


def test_a_limit_on_the_full_cover_count_leaves_a_settled_verdict(monkeypatch):
    from search.core import CountResult
    from search.numberlink.check import SETTLED_SECONDS
    from search.numberlink.frontier import FrontierBackend

    real, limits = FrontierBackend.count, []

    def count(self, puzzle, *, limit=None, time_limit=None):
        if puzzle.full_cover:  # as if this count always ran out of time
            limits.append(time_limit)
            return CountResult(Status.LIMIT, 1)
        return real(self, puzzle, limit=limit, time_limit=time_limit)

    monkeypatch.setattr(FrontierBackend, "count", count)
    report = check(parse("1..\n...\n..1\n"), backend="frontier", time_limit=30)
    assert report.verdict == "NOT WELL-DESIGNED: several lenient solutions"
    assert (report.status, report.details["full_cover_solutions"]) == (Status.MULTIPLE, None)
    assert limits == [SETTLED_SECONDS]  # the settled count is short under a time limit...
    check(parse("1..\n...\n..1\n"), backend="frontier")
    assert limits[1] is None  # ... and unbounded without one


def test_large_boards_race_the_frontier_against_cpsat(monkeypatch):
    from search.numberlink import check as module
    from search.numberlink import frontier

    seed = parse(SEED.read_text())
    monkeypatch.setattr(module, "PROBE_CELLS", 4)  # the seed's 7x7 board counts as large
    monkeypatch.setattr(module, "_decide", _undecided_for("cpsat", module._decide))
    assert check(seed, time_limit=30).details["backend"] == "frontier"
    monkeypatch.undo()
    monkeypatch.setattr(module, "PROBE_CELLS", 4)
    monkeypatch.setattr(frontier, "MAX_STATES", 1)  # the frontier can decide nothing
    report = check(seed, time_limit=30)
    assert (report.ok, report.details["backend"]) == (True, "frontier + cpsat")
    assert verify(seed, report.solution) == []
    assert report.effort  # the winner's effort comes back from its process


@pytest.mark.parametrize("name", BACKENDS)
def test_check_matches_expected_counts_up_to_8x8(name):
    """Capped counts behind the verdict = EXPECTED_COUNTS.csv (n_R1_lenient, n_R2_fullcover)."""
    root = shared("instances-public", "numberlink")
    cache: dict[str, list] = {}
    checked = 0
    with open(root / "EXPECTED_COUNTS.csv") as handle:
        for row in csv.DictReader(handle):
            w, h = int(row["width"]), int(row["height"])
            if w > 8 or h > 8 or min(w, h) < 2 or not row["n_R1_lenient"].isdigit():
                continue
            if row["file"] not in cache:
                cache[row["file"]] = parse_many((root / row["file"]).read_text(), row["file"])
            puzzle = cache[row["file"]][int(row["index"])]
            report = check(puzzle, backend=name, time_limit=60)
            expected = (min(int(row["n_R1_lenient"]), 2), min(int(row["n_R2_fullcover"]), 2))
            got = (report.details["lenient_solutions"], report.details["full_cover_solutions"])
            assert got == expected, (row["file"], row["index"])
            checked += 1
    assert checked >= 30


def test_seed_generator_is_reproducible_and_faithful():
    puzzle, solution = seed_board(7, 7, 1)
    again = seed_board(7, 7, 1)
    assert (puzzle, solution) == again
    assert verify(puzzle, solution) == []  # full cover: every open cell on a path
    assert not touches_itself(puzzle, solution)  # growth never touches the path itself
    for r, c in puzzle.blocked:  # solid cells are the isolated leftovers
        assert not any((r + dr, c + dc) in puzzle.blocked
                       for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    wide, _ = seed_board(4, 9, 3)
    assert (wide.height, wide.width) == (4, 9)


def test_seed_generator_cli_prints_puzzle_and_solution(capsys):
    assert main(["generate", "numberlink", "--method", "seed", "--size", "7",
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    puzzle, solution = seed_board(7, 7, 1)
    assert out == format_puzzle(puzzle) + "\n" + format_solution(puzzle, solution) + "\n"
    assert parse(out) == puzzle  # the trailing solution block is recognised


def test_seed_generator_share_of_well_designed(capsys):
    assert main(["generate", "numberlink", "--method", "seed", "--check", "--size", "6",
                 "--count", "20"]) == 0
    assert "well-designed:" in capsys.readouterr().out


@pytest.mark.parametrize("size, seed", [((6, 6), 1), ((6, 6), 2), ((7, 7), 3), ((5, 8), 4),
                                        ((10, 10), 5)])
def test_guaranteed_generator_is_well_designed(size, seed):
    puzzle, solution, _ = well_designed(*size, seed)
    assert (puzzle.height, puzzle.width) == size
    assert verify(puzzle, solution) == []
    report = check(puzzle, backend="cpsat", time_limit=60)  # the other backend confirms
    assert report.ok and report.solution.edges == solution.edges


def test_parse_size():
    assert parse_size("7") == (7, 7) and parse_size("12x10") == (10, 12)
    assert parse_size(None) == (7, 7)


@pytest.mark.parametrize("text, code", [(CASES[0][0], 0), (CASES[1][0], 1)])
def test_check_command_exit_codes(tmp_path, capsys, text, code):
    path = tmp_path / "p.nl"
    path.write_text(text)
    assert main(["check", "--backend", "search", str(path)]) == code
    assert "solutions" in capsys.readouterr().out


def test_bad_file_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.nl"
    path.write_text("| 1 || || 2 |\n| || 1 || |\n")
    assert main(["solve", str(path)]) == 2
    assert "label 2 occurs once" in capsys.readouterr().err


def test_a_full_cover_found_already_is_not_looked_for_again(monkeypatch):
    from search.core import Deadline
    from search.numberlink import KIND
    from search.numberlink.check import _decide
    from search.numberlink.frontier import FrontierBackend

    def no_solving(*args, **kwargs):
        raise AssertionError("the cover was looked for again")

    seed = parse(SEED.read_text())
    cover = FrontierBackend().solve(seed.covering()).solution
    monkeypatch.setattr(FrontierBackend, "solve", no_solving)
    assert _decide(KIND, seed, "frontier", Deadline(30), {}, cover=cover) == (1, 1, cover)
    # a full cover that touches itself: it and its shortcut are two lenient solutions
    board = parse(".2..\n.1.1\n...2\n")
    touching = Solution((((1, 1), (1, 2), (0, 2), (0, 3), (1, 3)),
                         ((0, 1), (0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (2, 3))))
    assert verify(board.covering(), touching) == [] and touches_itself(board, touching)
    assert _decide(KIND, board, "frontier", Deadline(30), {}, cover=touching)[0] == 2
