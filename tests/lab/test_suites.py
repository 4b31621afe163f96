"""Benchmark suites end to end: a tiny suite runs to JSON lines with the answers
known for its instances, the report shows them with the command that remakes
them; bad suites are refused; a suite without its data is skipped; peers run
through their adapters (a stand-in executable always, the real ones when built)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from search.app.cli import main
from search.lab.results import read_results, read_sweeps
from search.lab.suites import GENERATORS, available, beside, load_suite

TINY = """
description = "tiny: the end-to-end test of suites"
backends = ["search", "frontier", "ddnumlin", "thomasahle"]
tasks = ["solve", "count", "check"]
time_limit = 20

[report]
by = ["size", "rules"]

[[instances]]
paths = ["instances/futoshiki/handmade/seed_example_3.txt"]

[[instances]]
paths = ["instances/numberlink/tdzdd/example.dat"]
backends = ["frontier", "ddnumlin", "thomasahle"]
tasks = ["count"]
rules = [{}, {lenient = true}]

[[instances]]
generator = "lianliankan-full"
sizes = ["4x2"]
seeds = [2]
tasks = ["solve"]
rules = [{border = true}]

[[instances]]
collection = "instances/lianliankan/collections/b14x6.txt"
first = 1
tasks = ["check"]
rules = [{border = true}]
"""

# ddnumlin's answers on tdzdd/example.dat (EXPECTED_COUNTS.csv): 0 full cover, 14180 lenient
FAKE_DDNUMLIN = """#!{python}
import sys
print("#solution = " + ("0" if "-k" in sys.argv else "14180"), file=sys.stderr)
"""


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch) -> Path:
    suite = tmp_path / "tiny.toml"
    suite.write_text(TINY)
    fake = tmp_path / "ddnumlin"
    fake.write_text(FAKE_DDNUMLIN.format(python=sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("GRIDCP_PEER_DDNUMLIN", str(fake))
    monkeypatch.setenv("GRIDCP_PEER_THOMASAHLE", str(tmp_path / "not-built"))
    return suite


def test_a_tiny_suite_runs_end_to_end(tiny: Path, tmp_path: Path, capsys) -> None:
    report = tmp_path / "report"
    assert main(["bench", "--suite", str(tiny), "--report", str(report), "-j", "2"]) == 0
    err = capsys.readouterr().err
    assert "peer thomasahle skipped: " in err and "not-built" in err
    out = report / "results.jsonl"
    records = read_results(out)
    runs = {(Path(r["instance"]).name, r["backend"], r["task"],
             json.dumps(r["rules"], sort_keys=True)): r for r in records}
    assert len(runs) == len(records) == 3 + 2 * 2 + 1 + 1
    # Futoshiki: the bundled answers (manifest.tsv)
    assert runs["seed_example_3.txt", "search", "count", "{}"]["count"] == 1
    assert runs["seed_example_3.txt", "search", "solve", "{}"]["status"] == "SOLVED"
    assert runs["seed_example_3.txt", "search", "check", "{}"]["status"] == "UNIQUE"
    assert runs["seed_example_3.txt", "search", "check", "{}"]["key"]  # the certificate
    # Numberlink: the frontier and the peer agree, under both rules
    for backend in ("frontier", "ddnumlin"):
        assert runs["example.dat", backend, "count", "{}"]["count"] == 0
        assert runs["example.dat", backend, "count", '{"lenient": true}']["count"] == 14180
    assert runs["example.dat", "ddnumlin", "count", "{}"]["peer"] == "ddnumlin"
    # Lianliankan: generated boards under the border rule, collection boards with labels
    generated = [r for r in records if r["set"] == "lianliankan-full 4x2"]
    assert [r["status"] for r in generated] == ["SOLVED"]
    assert all(r["rules"] == {"border": True} for r in generated)
    (labelled,) = [r for r in records if r["instance"].endswith("b14x6.txt#0")]
    assert labelled["verdict"] == labelled["expected"] == "SOLVABLE"
    # the sweep's header: the command, the machine, the peer skipped and why
    (sweep,) = read_sweeps(out)
    assert sweep["command"] == f"python -m search bench --suite {tiny} --jobs 2 --report {report}"
    assert sweep["cores"] >= 1 and len(sweep["load"]) == 3
    assert set(sweep["skipped"]) == {"thomasahle"}
    text = (report / "report.md").read_text()
    assert f"    python -m search bench --suite {tiny} --jobs 2 --report {report}" in text
    assert "## Per size" in text and "## Per rules" in text and "## Effort" in text
    assert "1 of 1 answered runs give the known answer." in text
    assert "peer thomasahle skipped" in text
    assert "## Answers that differ between backends\n\nCounts or verdicts" in text
    assert "None.\n\n## Runs that failed\n\nNone." in text


def test_bad_suites_are_refused(tmp_path: Path, capsys) -> None:
    cases = {"typo.toml": 'tasks = ["solve"]\nbackend = ["search"]\n[[instances]]\npaths = ["x"]\n',
             "none.toml": 'tasks = ["solve"]\n',
             "broken.toml": "tasks = [\n",
             "task.toml": 'tasks = ["sovle"]\n[[instances]]\npaths = ["instances/futoshiki"]\n',
             "two.toml": '[[instances]]\npaths = ["x"]\ngenerator = "lianliankan-full"\n',
             "gen.toml": '[[instances]]\ngenerator = "nosuch"\n'}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        assert main(["bench", "--suite", str(tmp_path / name),
                     "--out", str(tmp_path / "r.jsonl")]) == 2, name
        assert "Traceback" not in capsys.readouterr().err
    assert main(["bench", "--suite", "nosuch"]) == 2
    assert "no suite 'nosuch'" in capsys.readouterr().err
    rule = tmp_path / "rule.toml"
    rule.write_text('[[instances]]\npaths = ["instances/numberlink"]\n'
                    'rules = [{}, {lenient = true}, {gravty = true}]\n')
    assert main(["bench", "--suite", str(rule), "--out", str(tmp_path / "r.jsonl")]) == 2
    err = capsys.readouterr().err
    assert f"{rule}:3: [[instances]] #1: unknown rule 'gravty' (known: adjacent," in err
    assert not (tmp_path / "r.jsonl").exists()


def test_a_suite_without_its_data_is_skipped(tmp_path: Path, capsys) -> None:
    suite = tmp_path / "away.toml"
    suite.write_text('needs = ["../nowhere/instances"]\n[[instances]]\n'
                     'paths = ["../nowhere/instances"]\n')
    assert main(["bench", "--suite", str(suite), "--out", str(tmp_path / "r.jsonl")]) == 0
    assert "suite away skipped: it reads ../nowhere/instances, absent here" in \
        capsys.readouterr().err
    assert not (tmp_path / "r.jsonl").exists()


def test_the_bundled_suites_load_and_plan(capsys) -> None:
    """Every suite of benchmarks/ parses, and those whose data is here plan runs."""
    from search.lab.bench import plan_suite

    names = [p.stem for p in available()]
    assert "smoke" in names and len(names) >= 6
    for name in names:
        suite = load_suite(name)
        assert suite.description
        if not suite.missing():
            specs, _ = plan_suite(suite, sample=1)
            assert specs, name
    assert main(["bench", "--suites"]) == 0
    assert "smoke" in capsys.readouterr().out


def test_generators_are_reproducible() -> None:
    for name, (_, make) in GENERATORS.items():
        if name == "numberlink-well-designed":
            continue  # a search per board: covered by the Numberlink generator's tests
        side = 20 if name == "lianliankan-seed" else 4  # 100 pairs by default
        assert make(side, side, 7) == make(side, side, 7), name


def test_paths_are_found_beside_the_main_checkout_of_a_worktree() -> None:
    assert beside("instances/futoshiki").is_dir()
    assert beside("/nonexistent/x") == Path("/nonexistent/x")


# ---------------------------------------------------------------- real peers


def _peer(variable: str, default: str) -> str:
    path = os.environ.get(variable) or str(beside(default))
    if not os.access(path, os.X_OK):
        pytest.skip(f"{path} is not built (docs/benchmarks.md says how)")
    return path


def test_ddnumlin_counts_as_the_frontier_does(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GRIDCP_PEER_DDNUMLIN",
                       _peer("GRIDCP_PEER_DDNUMLIN", "../peers/tdzdd/apps/numberlink/ddnumlin"))
    out = tmp_path / "r.jsonl"
    assert main(["bench", "instances/numberlink/tdzdd", "--backends", "ddnumlin,frontier",
                 "--tasks", "count", "--out", str(out), "--time-limit", "20"]) == 0
    counts: dict[str, dict[str, int]] = {}
    for r in read_results(out):
        counts.setdefault(r["instance"], {})[r["backend"]] = r.get("count")
    assert counts and all(len(set(c.values())) == 1 and len(c) == 2 for c in counts.values())


def test_thomasahle_solves_and_its_solutions_are_verified(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GRIDCP_PEER_THOMASAHLE",
                       _peer("GRIDCP_PEER_THOMASAHLE", "../peers/thomasahle-numberlink/numberlink"))
    out = tmp_path / "r.jsonl"
    assert main(["bench", "instances/numberlink/tdzdd",
                 "instances/numberlink/seed-article/seed_7x7.nl",
                 "--backends", "thomasahle,frontier", "--tasks", "solve", "--out", str(out),
                 "--time-limit", "20"]) == 0
    answers: dict[str, dict[str, str]] = {}
    for r in read_results(out):
        if r.get("unsupported"):  # the seed's boards have blocked cells
            assert r["backend"] == "thomasahle" and "blocked" in r["message"]
            continue
        assert r["status"] in ("SOLVED", "UNSAT"), r  # SOLVED is verified, else ERROR
        answers.setdefault(r["instance"], {})[r["backend"]] = r["status"]
    both = {name: a for name, a in answers.items() if len(a) == 2}
    assert len(both) == 3 and all(a["thomasahle"] == a["frontier"] for a in both.values())
    assert both["instances/numberlink/tdzdd/example.dat"]["thomasahle"] == "UNSAT"


def test_tatham_proves_what_propagate_proves(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GRIDCP_PEER_TATHAM",
                       _peer("GRIDCP_PEER_TATHAM", "../peers/suites-tatham/unequalsolver"))
    out = tmp_path / "r.jsonl"
    assert main(["bench", "instances/futoshiki/handmade",
                 "instances/futoshiki/tatham/u06_extreme_1.tatham", "--backends",
                 "tatham,propagate", "--tasks", "unique", "--out", str(out), "-j", "2"]) == 0
    answers: dict[str, dict[str, tuple[str, str]]] = {}
    for r in read_results(out):
        answers.setdefault(r["instance"], {})[r["backend"]] = (r["status"], r.get("key", ""))
    assert len(answers) == 3
    assert all(a["tatham"] == a["propagate"] for a in answers.values())  # same solution too
    assert sorted(a["tatham"][0] for a in answers.values()) == ["UNIQUE", "UNIQUE", "UNSAT"]


# A stand-in for D4: checks the DIMACS it is given, then counts the 3x3's squares.
FAKE_D4 = """#!{python}
import sys
lines = open(sys.argv[sys.argv.index("-i") + 1]).read().splitlines()
assert lines[1].startswith("p cnf 27 "), lines[1]
print("c the stand-in\\ns 12")
"""


def test_a_sat_peer_reads_the_cnf_and_its_count_is_compared(tmp_path: Path,
                                                            monkeypatch) -> None:
    fake = tmp_path / "d4"
    fake.write_text(FAKE_D4.format(python=sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("GRIDCP_PEER_D4", str(fake))
    out = tmp_path / "r.jsonl"
    assert main(["bench", "instances/futoshiki/latin/empty_3.txt", "--backends",
                 "d4,count-dp", "--tasks", "count", "--out", str(out)]) == 0
    counts = {r["backend"]: (r["status"], r.get("count")) for r in read_results(out)}
    assert counts == {"d4": ("COUNTED", 12), "count-dp": ("COUNTED", 12)}


def test_the_sat_peers_count_as_count_dp(tmp_path: Path, monkeypatch) -> None:
    """D4 and Ganak (through pyganak) on the bundled small squares and clue sets."""
    monkeypatch.setenv("GRIDCP_PEER_D4", _peer("GRIDCP_PEER_D4",
                                               "../peers/d4v2/demo/counter/build/counter"))
    monkeypatch.setenv("GRIDCP_PEER_GANAK", _peer("GRIDCP_PEER_GANAK",
                                                  "../peers/ganak-venv/bin/python"))
    out = tmp_path / "r.jsonl"
    files = ["instances/futoshiki/handmade", *(f"instances/futoshiki/latin/{name}.txt" for name in
                                               ("empty_3", "empty_4", "reduced_4", "reduced_5"))]
    assert main(["bench", *files, "--backends", "d4,ganak,count-dp", "--tasks", "count",
                 "--out", str(out), "--time-limit", "30", "-j", "2"]) == 0
    counts: dict[str, dict[str, int]] = {}
    for r in read_results(out):
        assert r["status"] == "COUNTED", r
        counts.setdefault(r["instance"], {})[r["backend"]] = r["count"]
    assert len(counts) == 6 and all(len(c) == 3 and len(set(c.values())) == 1
                                    for c in counts.values())
    assert counts["instances/futoshiki/latin/reduced_5.txt"]["ganak"] == 56
