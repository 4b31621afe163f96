"""Numberlink: the well-designed check and the generators."""

from __future__ import annotations

import csv
import random
from dataclasses import replace

import pytest

from search.app.cli import main
from search.core.contract import Status
from search.lab.oracles.numberlink import random_puzzle as random_numberlink
from search.lab.oracles.numberlink import solutions as numberlink_solutions
from search.numberlink.generate import seed_board
from search.numberlink.io import format_puzzle, format_solution, parse, parse_many
from search.numberlink.paths_gen import large_board
from search.numberlink.verify import covers, touches_itself, verify
from search.pipelines import numberlink_check as check_module
from search.pipelines.numberlink_check import Budget, check
from search.pipelines.numberlink_generate import parse_size, seed_well_designed
from tests.conftest import INSTANCES, shared

BACKENDS = ["search", "cpsat"]


def random_boards(seed: int, count: int):
    rng = random.Random(seed)
    sizes = ((2, 3), (3, 3), (3, 4), (4, 3), (4, 4), (3, 5))
    for i in range(count):
        yield random_numberlink(*sizes[i % len(sizes)], rng)
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


def certified(puzzle, report) -> None:
    """The report's certificates obey the rule they name, and a verdict by
    multiplicity carries two distinct ones."""
    rules = puzzle.lenient() if report.details["certificate_rule"] == "lenient" else (
        puzzle.covering())
    assert report.rules == rules
    for solution in report.solutions:
        assert verify(rules, solution) == []
    assert len({s.edges for s in report.solutions}) == len(report.solutions)
    if report.details["lenient_solutions"] == 2:
        assert len(report.solutions) == 2
    elif report.details["lenient_solutions"] == 1:
        assert len(report.solutions) == 1
    assert report.solution == (report.solutions[0] if len(report.solutions) == 1 else None)
    assert report.engine


@pytest.mark.parametrize("name", [None, *BACKENDS, "frontier"])
@pytest.mark.parametrize("text, verdict, lenient, full", CASES)
def test_check_verdicts(name, text, verdict, lenient, full):
    puzzle = parse(text)
    report = check(puzzle, backend=name, time_limit=30)
    assert report.verdict == verdict
    assert report.ok is (verdict == "WELL-DESIGNED")
    assert report.details["lenient_solutions"] == lenient
    assert report.details["full_cover_solutions"] == full
    assert report.status is (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[lenient]
    certified(puzzle, report)
    if full == 2:  # two full covers prove both reasons
        assert report.details["certificate_rule"] == "full cover"


ONE_COVER_AND_A_DETOUR = "...1.\n.1.2.\n2....\n"  # one full cover (self-avoiding), 9 lenient
NO_BOUND = Budget(bound_states=1)  # step 1 gives up at once: the later steps decide


CPSAT_PROOFS = ("proof (glance)", "second-cover", "proof (quick)", "proof")


def _steps(report) -> list[str]:
    return [step["step"] for step in report.details["steps"]]


def _budget_out(*names: str):
    """A stand-in for the check's CP-SAT step whose budget runs out on the steps ``names``."""
    real = check_module._cpsat_solve

    def solve(rules, step, work, deadline, log, **options):
        if step in names:
            log.add(step, "cpsat", "over budget (test)", {})
            return None
        return real(rules, step, work, deadline, log, **options)
    return solve


@pytest.mark.parametrize("puzzle", [p.covering() for p in random_boards(5, 60)])
def test_the_later_steps_alone_match_the_oracle(puzzle):
    """With step 1 out of budget, the CP-SAT steps decide; verdict, counts
    and certificates against the brute-force oracle."""
    lenient = list(numberlink_solutions(puzzle.lenient()))
    full = list(numberlink_solutions(puzzle.covering()))
    report = check(puzzle, budget=NO_BOUND)
    well = len(lenient) == 1 and len(full) == 1
    assert report.ok is well, _steps(report)
    if report.details["lenient_solutions"] is not None:
        assert report.details["lenient_solutions"] == min(len(lenient), 2)
    if report.details["full_cover_solutions"] is not None:
        assert report.details["full_cover_solutions"] == min(len(full), 2)
    certified(puzzle, report)


def test_detours_decide_when_cpsat_runs_out(monkeypatch):
    monkeypatch.setattr(check_module, "_cpsat_solve",
                        _budget_out(*CPSAT_PROOFS))
    board = parse(ONE_COVER_AND_A_DETOUR)
    no_router = Budget(bound_states=1, route_rounds=0, rings_time=0)
    report = check(board, budget=no_router)
    assert report.verdict == "NOT WELL-DESIGNED: several lenient solutions"
    assert report.engine == "frontier (detour)" and _steps(report)[-1] == "detour (lenient)"
    certified(board, report)
    two = two_covers_one_self_avoiding()
    report = check(two, budget=no_router)
    assert report.details["full_cover_solutions"] == 2
    assert _steps(report)[-1] == "detour (full cover, near)"
    certified(two, report)


ONLY_ROUTER = Budget(bound_states=1, large_states=1, full_window_states=0,
                     lenient_window_states=0, band_proof_time=0, rings_time=0)


def test_the_router_finds_a_second_solution_far_from_the_cover(monkeypatch):
    """With the CP-SAT steps and the detours out of budget, the router's
    short paths are the second solution: the verdict, a certificate that
    leaves cells empty, and the brute-force counts."""
    monkeypatch.setattr(check_module, "_cpsat_solve", _budget_out(*CPSAT_PROOFS))
    board = parse(ONE_COVER_AND_A_DETOUR)
    assert len(list(numberlink_solutions(board.covering()))) == 1
    assert len(list(numberlink_solutions(board.lenient()))) == 9
    report = check(board, budget=ONLY_ROUTER)
    assert report.verdict == "NOT WELL-DESIGNED: several lenient solutions"
    assert report.engine == "router (route)" and _steps(report)[-1] == "route"
    assert report.details["lenient_solutions"] == 2
    assert not covers(board, report.solutions[1])
    certified(board, report)
    # without it every budget is spent
    report = check(board, budget=replace(ONLY_ROUTER, route_rounds=0))
    assert report.ok is None and "route" not in _steps(report)


def test_the_router_alone_matches_the_oracle(monkeypatch):
    """Every step after the cover out of budget but the router, on 4 x 4
    boards of two long paths (the lenient rule gives them room): a board it
    decides has several lenient solutions by the brute-force count, a
    well-designed one is never decided by it, and it decides some."""
    monkeypatch.setattr(check_module, "_cpsat_solve", _budget_out(*CPSAT_PROOFS))
    routed = 0
    for seed in range(40):
        puzzle, _ = large_board(4, 4, seed, pairs=2)
        lenient = list(numberlink_solutions(puzzle.lenient()))
        full = list(numberlink_solutions(puzzle.covering()))
        report = check(puzzle, budget=ONLY_ROUTER)
        if report.details.get("step") == "route":
            routed += 1
            assert report.ok is False and len(lenient) >= 2, seed
            assert report.details["lenient_solutions"] == 2
            assert report.details["full_cover_solutions"] in (None, min(len(full), 2))
            certified(puzzle, report)
        elif report.ok is not None:  # decided before it (the bound)
            assert report.ok is (len(lenient) == 1 and len(full) == 1), seed
    assert routed >= 5


ONLY_RINGS = Budget(bound_states=1, large_states=1, full_window_states=0,
                    lenient_window_states=0, route_rounds=0, bands_time=0)


def test_the_proof_over_rings_alone_matches_the_oracle(monkeypatch):
    """Every step after the cover out of budget but the split by rings from
    the centre out (a ring a case): on 4 x 4 and 5 x 4 boards of two and
    three paths, its verdict, counts and certificates against the
    brute-force oracle; it decides boards both ways, and takes the case that
    keeps the most of S (the outer ring's) first."""
    monkeypatch.setattr(check_module, "_cpsat_solve", _budget_out(*CPSAT_PROOFS))
    decided = set()
    for seed in range(30):
        for height, pairs in ((4, 2), (5, 3)):
            puzzle, _ = large_board(height, 4, seed, pairs=pairs)
            lenient = list(numberlink_solutions(puzzle.lenient()))
            full = list(numberlink_solutions(puzzle.covering()))
            report = check(puzzle, budget=ONLY_RINGS)
            well = len(lenient) == 1 and len(full) == 1
            if report.ok is not None:
                assert report.ok is well, (seed, height, _steps(report))
                certified(puzzle, report)
            if report.details.get("step") != "proof (rings)":
                continue
            decided.add(report.ok)
            assert report.details["lenient_solutions"] == min(len(lenient), 2)
            first = next(s["outcome"] for s in report.details["steps"]
                         if s["step"] == "proof (rings)")
            last = len(puzzle.open_cells) - len(puzzle.pairs) - 1  # S's last step
            assert first.startswith("steps ") and f"-{last} of S" in first
    assert decided == {True, False}


def test_the_large_frontier_pass_decides_last(monkeypatch):
    monkeypatch.setattr(check_module, "_cpsat_solve",
                        _budget_out(*CPSAT_PROOFS))
    monkeypatch.setattr(check_module, "detour", lambda *args, **kwargs: None)
    seed = parse(SEED.read_text())
    report = check(seed, budget=Budget(bound_states=1, band_proof_time=0, rings_time=0))
    assert report.ok and report.engine == "frontier (bound-large)"
    certified(seed, report)
    # every budget spent: UNDECIDED, the same on any machine
    report = check(seed, budget=Budget(bound_states=1, large_states=1, band_proof_time=0,
                                       rings_time=0))
    assert (report.ok, report.status) == (None, Status.LIMIT)
    assert report.details["stopped_by"] == "the work budgets"



def test_the_proofs_grow_with_the_board(monkeypatch):
    """Past ``proof_cells`` open cells the quick and whole proofs get their
    budgets times cells / proof_cells (the glance does not); the verdict is
    the same, the whole proof deciding (the quick one was run out)."""
    asked: list[tuple[str, float]] = []
    real = check_module._cpsat_solve

    def solve(rules, step, work, deadline, log, **options):
        asked.append((step, work))
        if step in ("proof (glance)", "proof (quick)"):
            log.add(step, "cpsat", "over budget (test)", {})
            return None
        return real(rules, step, work, deadline, log, **options)
    monkeypatch.setattr(check_module, "_cpsat_solve", solve)
    seed = parse(SEED.read_text())  # 7 x 7: 46 open cells
    budget = Budget(bound_states=1, proof_cells=10, rings_time=0)
    scale = len(seed.open_cells) / 10
    report = check(seed, budget=budget)
    assert report.ok and report.engine == "cpsat (proof)"
    works = dict(asked)
    assert works["proof (glance)"] == budget.glance_proof_time
    assert works["proof (quick)"] == pytest.approx(budget.quick_proof_time * scale)
    assert works["proof"] == pytest.approx(budget.proof_time * scale)
    asked.clear()
    check(seed, budget=Budget(bound_states=1))  # under 400 cells: as they were
    assert dict(asked)["proof (quick)"] == budget.quick_proof_time

ONLY_BANDS = Budget(bound_states=1, large_states=1, full_window_states=0,
                    lenient_window_states=0, route_rounds=0, rings_time=0, band_rows=1)


@pytest.mark.parametrize("puzzle", [p.covering() for p in random_boards(11, 60)])
def test_the_proof_over_bands_alone_matches_the_oracle(puzzle, monkeypatch):
    """Every step after the cover out of budget but the proof over bands of
    rows (a band a row: many cases): its verdict, counts and certificates
    against the brute-force oracle."""
    monkeypatch.setattr(check_module, "_cpsat_solve", _budget_out(*CPSAT_PROOFS))
    lenient = list(numberlink_solutions(puzzle.lenient()))
    full = list(numberlink_solutions(puzzle.covering()))
    report = check(puzzle, budget=ONLY_BANDS)
    assert report.ok is (len(lenient) == 1 and len(full) == 1), _steps(report)
    if "proof (bands)" in _steps(report):
        assert report.details["step"] == "proof (bands)"
        assert report.details["lenient_solutions"] == min(len(lenient), 2)
    certified(puzzle, report)


def test_the_proof_over_bands_halves_a_case_and_names_what_stays_open(monkeypatch):
    """A case that runs out is halved; one that cannot be halved stays open,
    and the undecided report names its cells; the other cases still run (and
    here prove nothing else: the seed board is well-designed)."""
    monkeypatch.setattr(check_module, "_cpsat_solve", _budget_out(*CPSAT_PROOFS))
    seed = parse(SEED.read_text())
    real_solve = check_module.load(check_module.SOLVE)
    calls = []

    def solve(solver, model):  # the first case (the first band) always runs out
        calls.append(len(model.proto.constraints))
        if len(calls) <= 3:
            solver.parameters.max_deterministic_time = 0.0
        return real_solve(solver, model)

    real_load = check_module.load
    monkeypatch.setattr(check_module, "load",
                        lambda name: solve if name == check_module.SOLVE else real_load(name))
    report = check(seed, budget=Budget(bound_states=1, large_states=1, full_window_states=0,
                                       lenient_window_states=0, route_rounds=0, rings_time=0,
                                       band_rows=3, band_min_steps=4))
    outcomes = [s["outcome"] for s in report.details["steps"] if s["step"] == "proof (bands)"]
    assert report.ok is None and report.details["stopped_by"] == "the work budgets"
    # rows 1-3 out, halved into two halves that run out and are too short to halve again
    assert [o.split(": ")[1] for o in outcomes[:3]] == ["over budget"] * 3
    assert all(o.endswith(": none") for o in outcomes[3:]) and len(outcomes) > 4
    cells = {tuple(c) for c in report.details["open_cells"]}
    assert cells and all(r < 3 for r, _ in cells)
    assert "(0," in report.details["open_question"]


def test_an_undecided_check_prints_its_open_question(tmp_path, capsys, monkeypatch):
    """The command line shows what an undecided check is still about (exit 3)."""
    monkeypatch.setattr(check_module, "_cpsat_solve", _budget_out(*CPSAT_PROOFS))
    real_check, real_load = check_module.check, check_module.load
    real_solve = real_load(check_module.SOLVE)

    def solve(solver, model):  # every case of the bands runs out
        solver.parameters.max_deterministic_time = 0.0
        return real_solve(solver, model)

    monkeypatch.setattr(check_module, "load",
                        lambda name: solve if name == check_module.SOLVE else real_load(name))
    monkeypatch.setattr(check_module, "check", lambda puzzle, **kw: real_check(
        puzzle, **kw, budget=Budget(bound_states=1, large_states=1, full_window_states=0,
                                    lenient_window_states=0, route_rounds=0, rings_time=0,
                                    band_min_steps=24)))
    board = tmp_path / "seed.nl"
    board.write_text(SEED.read_text())
    assert main(["check", str(board)]) == 3
    out = capsys.readouterr().out
    assert "UNDECIDED (the work budgets stopped it)" in out
    assert "open question: is there a lenient solution other than S" in out


def test_no_self_avoiding_full_cover_is_settled_by_cpsat_counts():
    for text, verdict, lenient, full in CASES[1:4]:
        puzzle = parse(text)
        report = check(puzzle, budget=NO_BOUND)
        assert report.verdict == verdict
        assert (report.details["lenient_solutions"], report.details["full_cover_solutions"]
                ) == (lenient, full)
        certified(puzzle, report)


@pytest.mark.parametrize("budget", [Budget(), NO_BOUND])
def test_effort_and_certificates_are_the_same_in_two_runs(budget):
    puzzle, _ = seed_board(8, 8, seed=4)
    for rules in (puzzle, parse(SEED.read_text()), two_covers_one_self_avoiding()):
        first, second = check(rules, budget=budget), check(rules, budget=budget)
        assert first.effort and first.effort == second.effort
        assert first.details["steps"] == second.details["steps"]
        assert (first.verdict, first.engine, first.solutions) == (
            second.verdict, second.engine, second.solutions)


@pytest.mark.parametrize("budget", [Budget(), NO_BOUND])
def test_a_time_limit_changes_nothing_but_may_stop_it(budget):
    seed = parse(SEED.read_text())
    free = check(seed, budget=budget)
    for limit in (30, 5, 0.5):
        report = check(seed, time_limit=limit, budget=budget)
        if report.status is not Status.LIMIT:
            assert (report.verdict, report.solutions, report.effort) == (
                free.verdict, free.solutions, free.effort)
    stopped = check(seed, time_limit=0, budget=budget)
    assert (stopped.ok, stopped.status) == (None, Status.LIMIT)
    assert stopped.details["stopped_by"] == "the time limit"


def two_covers_one_self_avoiding():
    """A 4 x 4 board with two blocked corners: two full covers, one of them
    self-avoiding, and 10 lenient solutions."""
    return seed_board(4, 4, seed=32)[0]


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
            report = check(puzzle, backend=name, time_limit=600)  # a safety net only
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
def test_seed_guaranteed_generator_is_well_designed(size, seed):
    puzzle, solution, _ = seed_well_designed(*size, seed)
    assert (puzzle.height, puzzle.width) == size
    assert verify(puzzle, solution) == []
    report = check(puzzle, backend="cpsat", time_limit=60)  # the other backend confirms
    assert report.ok and report.solution.edges == solution.edges


def test_parse_size():
    assert parse_size("7") == (7, 7) and parse_size("12x10") == (10, 12)
    assert parse_size(None) == (7, 7)


@pytest.mark.parametrize("backend", [[], ["--backend", "search"]])
@pytest.mark.parametrize("text, code", [(CASES[0][0], 0), (CASES[1][0], 1), (CASES[2][0], 1)])
def test_check_command_exit_codes(tmp_path, capsys, text, code, backend):
    path = tmp_path / "p.nl"
    path.write_text(text)
    # the certificate of "the only solution leaves cells empty" is verified
    # under the lenient rule it obeys, not failed under full cover
    assert main(["check", *backend, str(path)]) == code
    out = capsys.readouterr().out
    assert "solutions" in out and "ERROR" not in out


def test_bad_file_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.nl"
    path.write_text("| 1 || || 2 |\n| || 1 || |\n")
    assert main(["solve", str(path)]) == 2
    assert "label 2 occurs once" in capsys.readouterr().err


def test_a_batch_of_boards_gives_progress_and_a_summary(tmp_path, capsys):
    """What a designer checking a folder of boards reads: a line per board
    as it goes (stderr), and one summary line with the verdicts."""
    for i, (text, *_) in enumerate(CASES):
        (tmp_path / f"board{i}.nl").write_text(text)
    assert main(["check", "--brief", str(tmp_path)]) == 1  # some are not well-designed
    captured = capsys.readouterr()
    assert f"check {len(CASES)}/{len(CASES)}" in captured.err
    summary = captured.out.strip().splitlines()[-1]
    assert f": 1 well-designed, {len(CASES) - 1} not, 0 undecided;" in summary
    assert "(slowest " in summary and str(tmp_path) in summary


def _exact(rules) -> int:
    """The frontier's exact count, capped at 2."""
    from search.numberlink.frontier import FrontierBackend

    return min(FrontierBackend().count(rules).count, 2)


MEDIUM = [seed_board(h, w, seed=s)[0] for s, (h, w) in enumerate(((5, 5), (6, 5), (6, 6)) * 5)]


@pytest.mark.slow
@pytest.mark.parametrize("budget", [NO_BOUND, Budget(bound_states=1, cover_nodes=0)],
                         ids=["links cover", "cpsat cover"])
def test_the_large_board_steps_agree_with_the_exact_counts(budget):
    """The steps a large board takes (no frontier bound; the self-avoiding
    full cover by links, or by CP-SAT), on 5x5-6x6 boards of the article's
    generator: verdict and counts against the frontier's exact counts."""
    kinds = set()
    for puzzle in MEDIUM:
        lenient, full = _exact(puzzle.lenient()), _exact(puzzle.covering())
        report = check(puzzle, budget=budget)
        assert report.ok is (lenient == 1 and full == 1), _steps(report)
        assert report.details["lenient_solutions"] in (None, lenient)
        assert report.details["full_cover_solutions"] in (None, full)
        certified(puzzle, report)
        kinds.add(report.ok)
    assert kinds == {True, False}
