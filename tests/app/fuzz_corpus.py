"""The hostile-input corpus of ``test_fuzz.py``: malformed, huge and harmless-but-odd
files of every format, and bad options, each with the exit code it must give.

Nothing here is stored: ``cases()`` describes each input and ``materialise``
writes its files into a folder, so large boards cost no repository space.
``run`` executes one case as the user would (``python -m search ...``) in a
child process capped by an address-space limit, and measures its wall time and
peak memory.  ``python tests/tests.app.fuzz_corpus.py [--slow]`` prints the figures of
docs/reliability.md.
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADDRESS_SPACE_MB = 3072  # the child's hard cap (OR-Tools' threads reserve address space)
YES, NO, USAGE, UNDECIDED, BUG = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class Case:
    """One invocation: ``argv`` after ``python -m search``, ``{dir}`` standing for the
    folder the ``files`` are written to (a value None makes an empty folder)."""

    name: str
    argv: tuple[str, ...]
    files: Mapping[str, bytes | Callable[[], bytes] | None] = field(default_factory=dict)
    exits: frozenset[int] = frozenset({USAGE})
    message: str = ""  # a piece of the stderr line (the problem it names)
    names: str = ""  # the file or option the message must name ("" : the first file)
    time_limit: float | None = None  # the --time-limit given, for the wall bound
    slow: bool = False

    @property
    def bad(self) -> bool:
        return self.exits == frozenset({USAGE})


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str
    wall: float
    peak_mb: float
    cpu: float = 0.0  # user + system seconds of the child: what a loaded machine does not inflate


# ---------------------------------------------------------------- the inputs

SEED3 = "3\n0 | 0 < 0\n- - ^ - -\n0 > 0 | 0\nv - - - -\n0 | 0 | 2\n"
LLK = "1 2 0\n2 1 0\n"
NL_LETTERS = "A.B\n...\nA.B\n"


def _text(text: str) -> bytes:
    return text.encode()


def _seed_square(n: int) -> bytes:
    row, between = " | ".join(["0"] * n), " - ".join(["-"] * n)
    lines = [str(n)]
    for r in range(n):
        lines += [between] * bool(r) + [row]
    return ("\n".join(lines) + "\n").encode()


def _llk_board(height: int, width: int, pictures: int, seed: int = 1) -> bytes:
    values = [i // 2 % pictures + 1 for i in range(height * width)]
    random.Random(seed).shuffle(values)
    rows = (" ".join(map(str, values[r * width:(r + 1) * width])) for r in range(height))
    return ("\n".join(rows) + "\n").encode()


def _nl_numbers(n: int) -> bytes:
    grid = [["0"] * n for _ in range(n)]
    grid[0][0] = grid[n - 1][n - 1] = "1"
    grid[1][0] = grid[0][1] = "2"
    return (f"{n} {n}\n" + "\n".join(" ".join(row) for row in grid) + "\n").encode()


def _bad_files() -> list[Case]:
    """Files that must be refused: exit 2, the file, the line and the problem."""
    files = {
        # every puzzle, any format
        "empty.txt": (b"", "empty file"),
        "blank.txt": (b"\n  \n\t\n", "empty file"),
        "binary.txt": (b"\x00\x01\x02garbage", "binary file"),
        "latin1.txt": ("3\n0 | 0 < 0\né\n".encode("latin-1"), "not UTF-8"),
        "prose.txt": (b"Dear user,\nthis is a letter.\n", "cannot tell which puzzle"),
        "emoji.txt": ("\U0001f600\U0001f600\n\U0001f600\n".encode(), "cannot tell"),
        # futoshiki
        "fut_wrong_n.fut": (b"4\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n", "n = 4 needs"),
        "fut_token.fut": (SEED3.replace("0 > 0", "0 > x").encode(), "must be a value"),
        "fut_huge_seed.fut": (b"100000\n0 | 0\n", "above the limit"),
        "fut_zero.fut": (b"0\n\n", "order n >= 1"),
        "fut_csv_huge.fut": (b"100000\n1,2\n", "above the limit"),
        "fut_csv_row.fut": (b"2\n1,x\n0,0\n0\n0\n0,0\n", "not a list of integers"),
        "fut_dat_huge.fut": (b"param SIZE := 100000;\nparam values: 1 :=\n1 0\n;\n",
                             "above the limit"),
        "fut_dat_open.fut": (b"param SIZE := 2;\nparam values: 1 2 :=\n1 0 0\n2 0 0\n",
                             "not ended by ';'"),
        "fut_tatham_big.fut": (b"33:" + b"0," * 1089 + b"\n", "out of range 1..32"),
        "fut_tatham_bad.fut": (b"4:0,0,0,0,0,0,0,0Q\n", "cell 8"),
        "fut_value.fut": (SEED3.replace("0 | 0 | 2", "0 | 0 | 9").encode(), ""),
        # numberlink
        "nl_adc_huge.txt": (b"SIZE 100000X100000\nLINE_NUM 1\nLINE#1 (0,0)-(1,1)\n",
                            "above the limit"),
        "nl_adc_huge2.txt": (b"SIZE 2000X2000\nLINE_NUM 1\nLINE#1 (0,0)-(1,1)\n",
                             "above the limit"),
        "nl_adc_line.nl": (b"SIZE 3X3\nLINE_NUM 1\nLINE#1 (0,0)-(1,x)\n", "expected 'LINE#k"),
        "nl_adc_count.nl": (b"SIZE 3X3\nLINE_NUM 2\nLINE#1 (0,0)-(2,2)\n", "LINE_NUM says 2"),
        "nl_adc_3d.nl": (b"SIZE 3X3X2\nLINE_NUM 1\nLINE#1 (0,0)-(2,2)\n", "3-D"),
        "nl_adc_answer.nl": (b"SIZE 2X1\n01,01\n", "contest answer"),
        "nl_ints_huge.txt": (b"1000000 1000000\n", "above the limit"),
        "nl_header_rows.nl": (b"4 4\n1 0 0 2\n", "header says 4 rows"),
        "nl_ragged.nl": (b"A.B\n..\nA.B\n", "ragged row"),
        "nl_once.nl": (b"A..\n...\n..B\n", "occurs once"),
        "nl_thrice.nl": (b"A.A\n...\n..A\n", "occurs 3 times"),
        "nl_seed_row.nl": (b"| 1 || 2 |\n| 1 | 2 |\n", "not a row of"),
        "nl_stream.nl": (b"2 1\nAA\n2 1\nBB\n0 0\n", "holds 2 puzzles"),
        "nl_bad_solution.nl": (b"| 1 || || 1 |\n| 2 || || 2 |\n\n"
                               b"| 1 || 2 || 1 |\n| 2 || 2 || 2 |\n", "does not solve it"),
        # lianliankan
        "llk_odd.llk": (b"1 2 1\n2 1 0\n", "odd number of tiles"),
        "llk_negative.llk": (b"1 -1\n1 -1\n", "negative"),
        "llk_word.llk": (b"1 a\n1 a\n", "not a number"),
        "llk_ragged.llk": (b"1 2\n2 1 3 3\n", "ragged rows"),
        "llk_header.llk": (b"--: 00 02\n00: 01 01\n", "header column 02"),
        "llk_collection.llk": (b"# board a\n1 1\n# board b\n2 2\n", "a collection of 2"),
        "llk_zero.llk": (b"0 0\n0 0\n", ""),
    }
    cases = []
    for name, (content, message) in files.items():
        exits = frozenset({USAGE})
        if name in ("fut_value.fut", "llk_zero.llk"):  # read, but break the rules or clear
            exits = frozenset({YES, NO, USAGE})
        cases.append(Case(f"file {name}", ("solve", "{dir}/" + name), {name: content}, exits,
                          message))
    return cases


def _harmless() -> list[Case]:
    """Files a careful reader forgives: byte-order mark, CRLF, blanks, no final newline."""
    variants = {
        "bom": lambda t: b"\xef\xbb\xbf" + t.encode(),
        "crlf": lambda t: t.replace("\n", "\r\n").encode(),
        "cr": lambda t: t.replace("\n", "\r").encode(),
        "trailing": lambda t: t.replace("\n", "  \t\n").encode(),
        "no_newline": lambda t: t.rstrip("\n").encode(),
        "blank_lines": lambda t: ("\n\n" + t + "\n\n").encode(),
    }
    puzzles = {"fut": SEED3, "llk": LLK, "nl": NL_LETTERS}
    # the search backends: no OR-Tools to import, so each run takes a fraction of a second
    # (every puzzle under every variant is read in-process by test_readers_fuzz.py;
    # here each variant once, in turn over the puzzles, as a user runs it)
    return [Case(f"harmless {how} {ext}", ("solve", "--backend", "search", "{dir}/p." + ext),
                 {"p." + ext: make(puzzles[ext])}, frozenset({YES, NO}))
            for (how, make), ext in zip(variants.items(), list(puzzles) * 2)]


def _options() -> list[Case]:
    """Bad options and selections: exit 2, one line naming the option or path."""
    llk = {"p.llk": _text(LLK)}
    out_file = {"p.llk": _text(LLK), "taken": b"x"}
    empty = {"empty": None}
    options = [
        ("turns -1", ("solve", "--turns", "-1", "{dir}/p.llk"), llk, "--turns"),
        ("turns 1000", ("solve", "--turns", "1000", "{dir}/p.llk"), llk, "--turns"),
        ("time-limit 0", ("solve", "--time-limit", "0", "{dir}/p.llk"), llk, "--time-limit"),
        ("time-limit nan", ("solve", "--time-limit", "nan", "{dir}/p.llk"), llk,
         "--time-limit"),
        ("memory-limit -1", ("solve", "--memory-limit", "-1", "{dir}/p.llk"), llk,
         "--memory-limit"),
        ("limit 0", ("count", "--limit", "0", "{dir}/p.llk"), llk, "--limit"),
        ("max-cells 0", ("solve", "--max-cells", "0", "{dir}/p.llk"), llk, "--max-cells"),
        ("max-cells 3", ("solve", "--max-cells", "3", "{dir}/p.llk"), llk, "above the limit"),
        ("backend nosuch", ("solve", "--backend", "nosuch", "{dir}/p.llk"), llk, "nosuch"),
        ("method nosuch", ("solve", "--method", "nosuch", "{dir}/p.llk"), llk, "nosuch"),
        ("lenient on llk", ("solve", "--lenient", "{dir}/p.llk"), llk, "--lenient"),
        ("puzzle mismatch", ("solve", "--puzzle", "futoshiki", "{dir}/p.llk"), llk, "p.llk"),
        ("missing file", ("solve", "{dir}/nope.llk"), llk, "no such file"),
        ("command nosuch", ("nosuch",), {}, "nosuch"),
        ("solve empty folder", ("solve", "{dir}/empty"), empty, "no puzzle files"),
        ("count empty folder", ("count", "{dir}/empty"), empty, "no puzzle files"),
        ("convert empty folder", ("convert", "{dir}/empty"), empty, "no puzzle files"),
        ("crosscheck empty folder", ("crosscheck", "{dir}/empty"), empty, "no puzzle files"),
        ("crosscheck backends nosuch", ("crosscheck", "--backends", "nosuch", "{dir}/p.llk"),
         llk, "nosuch"),
        ("crosscheck folder bad file", ("crosscheck", "--time-limit", "5", "{dir}"),
         {"p.llk": _text(LLK), "bad.llk": b"1 2\n"}, "bad.llk"),
        ("crosscheck random huge", ("crosscheck", "--random", "1", "--puzzle", "numberlink",
                                    "--size", "100000"), {}, "above the limit"),
        ("convert -o file", ("convert", "-o", "{dir}/taken", "{dir}/p.llk"), out_file,
         "is a file"),
        ("generate -o file", ("generate", "numberlink", "-o", "{dir}/taken"), out_file,
         "is a file"),
        ("generate -o unwritable", ("generate", "futoshiki", "-o", "/proc/gridcp/out"), {},
         "cannot create"),
        ("generate count -1", ("generate", "futoshiki", "--count", "-1"), {}, "--count"),
        ("generate numberlink huge", ("generate", "numberlink", "--size", "100000"), {},
         "above the limit"),
        ("generate lianliankan huge", ("generate", "lianliankan", "--size", "100000x100000"),
         {}, "above the limit"),
        ("generate futoshiki 33", ("generate", "futoshiki", "--size", "33"), {}, "--size"),
        ("generate pictures 0", ("generate", "lianliankan", "--pictures", "0"), {},
         "--pictures"),
        ("generate pairs -1", ("generate", "lianliankan", "--pairs", "-1"), {}, "--pairs"),
        ("generate turns -1", ("generate", "lianliankan", "--turns", "-1"), {}, "--turns"),
        ("report binary", ("report", "{dir}/r.jsonl"), {"r.jsonl": b"\x00\xff\x00"},
         "binary file"),
        ("report missing", ("report", "{dir}/none.jsonl"), {}, "no such file"),
        ("report -o file", ("report", "{dir}/r.jsonl", "-o", "{dir}/taken"),
         {"r.jsonl": (ROOT / "docs/report/results.jsonl").read_bytes(), "taken": b"x"},
         "is a file"),
        ("bench -o missing folder", ("bench", "-o", "{dir}/no/such/r.jsonl", "{dir}/p.llk"),
         llk, "no such folder"),
        ("bench grace -5", ("bench", "--grace", "-5", "{dir}/p.llk"), llk, "--grace"),
        ("draw -o under a file", ("draw", "-o", "{dir}/p.llk/x.svg", "{dir}/p.llk"), llk,
         "is a file, not a folder"),
        ("bench memory-limit -1", ("bench", "--memory-limit", "-1", "{dir}/p.llk"), llk,
         "--memory-limit"),
    ]
    return [Case(f"option {name}", argv, files, frozenset({USAGE}), message, names="-")
            for name, argv, files, message in options]


def _limits() -> list[Case]:
    """Inputs that are legal but hard: each run must end within its --time-limit."""
    row = {"row.llk": lambda: _llk_board(1, 16000, 8000)}
    b14 = {"b14x6.llk": (ROOT / "instances/lianliankan/generated/b14x6-0.llk").read_bytes()}
    fast = [
        ("llk 1x16000 row", ("solve", "--time-limit", "2", "{dir}/row.llk"), row),
        ("llk 14x6 backend all", ("solve", "--backend", "all", "--time-limit", "2",
                                  "{dir}/b14x6.llk"), b14),
        ("nl adc 1000x1000", ("solve", "--time-limit", "2", "{dir}/big.nl"),
         {"big.nl": b"SIZE 1000X1000\nLINE_NUM 2\nLINE#1 (0,0)-(999,999)\n"
                    b"LINE#2 (1,0)-(0,1)\n"}),
        ("fut 40 empty count", ("count", "--time-limit", "2", "{dir}/e.fut"),
         {"e.fut": lambda: _seed_square(40)}),
    ]
    # count-dp keeps to the budget --memory-limit leaves it: LIMIT with its reason
    memory = [Case("limit fut 12 count memory 200",
                   ("count", "--memory-limit", "200", "--time-limit", "60", "{dir}/e.fut"),
                   {"e.fut": lambda: _seed_square(12)}, frozenset({UNDECIDED}),
                   "memory budget 0 MB (--memory-limit 200 MB less 256 MB)", names="-")]
    slow = [
        ("llk turns 10", ("solve", "--turns", "10", "--border", "--time-limit", "2",
                          "{dir}/b14x6.llk"), b14),
        ("generate numberlink 300", ("generate", "numberlink", "--size", "300",
                                     "--time-limit", "2"), {}),
        ("llk 1x16000 check", ("check", "--time-limit", "2", "{dir}/row.llk"), row),
        ("fut 1000 square", ("solve", "--time-limit", "2", "{dir}/f.fut"),
         {"f.fut": lambda: _seed_square(1000)}),
        ("fut 1000 cpsat", ("solve", "--backend", "cpsat", "--time-limit", "2",
                            "{dir}/f.fut"), {"f.fut": lambda: _seed_square(1000)}),
        ("llk 1000x1000", ("solve", "--time-limit", "2", "{dir}/l.llk"),
         {"l.llk": lambda: _llk_board(1000, 1000, 250)}),
        ("llk 1000x1000 cpsat", ("solve", "--backend", "cpsat", "--time-limit", "2",
                                 "{dir}/l.llk"), {"l.llk": lambda: _llk_board(1000, 1000, 250)}),
        ("nl 1000x1000 grid", ("solve", "--time-limit", "2", "{dir}/n.nl"),
         {"n.nl": lambda: _nl_numbers(1000)}),
        ("nl 1000x1000 check", ("check", "--time-limit", "2", "{dir}/n.nl"),
         {"n.nl": lambda: _nl_numbers(1000)}),
        ("nl 1000x1000 count", ("count", "--time-limit", "2", "{dir}/n.nl"),
         {"n.nl": lambda: _nl_numbers(1000)}),
        ("generate lianliankan 1000x1000", ("generate", "lianliankan", "--size", "1000x1000",
                                            "--solvable", "--time-limit", "2"), {}),
        ("generate numberlink 1000", ("generate", "numberlink", "--size", "1000",
                                      "--time-limit", "2"), {}),
        ("fut 300 memory 400", ("count", "--memory-limit", "400", "--time-limit", "2",
                                "{dir}/f.fut"), {"f.fut": lambda: _seed_square(300)}),
    ]
    return (memory + [Case(f"limit {name}", argv, files, frozenset({YES, NO, UNDECIDED}),
                           time_limit=2.0, names="-") for name, argv, files in fast]
            + [Case(f"limit {name}", argv, files, frozenset({YES, NO, UNDECIDED}),
                    time_limit=2.0, names="-", slow=True) for name, argv, files in slow])


def _issue_29() -> list[Case]:
    """What the guarded way in refuses by mechanism (issue 29): special files, a
    file that is one huge line, digits that are not ASCII or too many, line
    separators, control characters, bad manifest rows, suites and records."""
    fut = {"p.fut": _text(SEED3)}
    files = [
        ("device", ("solve", "/dev/zero"), {}, "is a device", "/dev/zero", False),
        ("fut order superscript", ("solve", "{dir}/o.fut"), {"o.fut": "³\n0\n".encode()},
         "order n", "", False),
        ("fut order 5000 digits", ("solve", "{dir}/o.fut"),
         {"o.fut": b"9" * 5000 + b"\n0 | 0\n"}, "order n", "", False),
        ("nl adc 5000 digits", ("solve", "{dir}/a.nl"),
         {"a.nl": b"SIZE " + b"9" * 5000 + b"X3\nLINE_NUM 1\nLINE#1 (0,0)-(1,1)\n"},
         "5,000 digits", "", False),
        ("llk cell 5000 digits", ("solve", "{dir}/c.llk"),
         {"c.llk": b"1 " + b"9" * 5000 + b"\n1 2\n"}, "5,000 digits", "", False),
        ("nl u2028 in a comment", ("solve", "{dir}/s.nl"),
         {"s.nl": "# note\u2028A.B\nA.B\n".encode()}, "U+2028", "", False),
        ("llk u0085", ("solve", "{dir}/s.llk"), {"s.llk": "1 1\u0085\n".encode()}, "U+0085",
         "", False),
        ("fut title escape", ("solve", "{dir}/t.fut"),
         {"t.fut": b"3\n\x1b]0;owned\x07\n"}, "U+001B", "", False),
        ("fut 60 MB line", ("solve", "{dir}/l.fut"),
         {"l.fut": lambda: b"3\n" + b"0 " * 30_000_000 + b"\n"}, "", "", True),
        ("manifest short row", ("solve", "--manifest", "{dir}/p.fut"),
         {**fut, "manifest.tsv": b"file\ttask\trules\texpected\np.fut\tcount\n"},
         "a row has", "manifest.tsv", False),
        ("manifest count superscript", ("solve", "--manifest", "{dir}/p.fut"),
         {**fut, "manifest.tsv": "file\ttask\trules\texpected\np.fut\tcount\t\t³\n".encode()},
         "count expects", "manifest.tsv", False),
        ("suite backends 3", ("bench", "--suite", "{dir}/s.toml"),
         {"s.toml": b'backends = 3\n[[instances]]\npaths = ["x"]\n'}, "backends must be",
         "s.toml", False),
        ("results record without fields", ("report", "{dir}/r.jsonl"),
         {"r.jsonl": b'{"instance": "a"}\n'}, "a run's record without", "r.jsonl", False),
        ("convert two names one output", ("convert", "{dir}/a/p.fut", "{dir}/b/p.fut", "-o",
                                          "{dir}/out"),
         {"a/p.fut": _text(SEED3), "b/p.fut": _text(SEED3)}, "would both be written", "-",
         False),
    ]
    return [Case(f"issue29 {name}", argv, content, frozenset({USAGE}), message,
                 names=str(names) if names in ("-", "/dev/zero") else names, slow=slow)
            for name, argv, content, message, names, slow in files]


def cases() -> list[Case]:
    return _bad_files() + _harmless() + _options() + _limits() + _issue_29()


# ---------------------------------------------------------------- running one


def materialise(case: Case, folder: Path) -> list[str]:
    """Write the case's files into ``folder``; the argv with ``{dir}`` filled in."""
    for name, content in case.files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.write_bytes(content() if callable(content) else content)
    return [word.replace("{dir}", str(folder)) for word in case.argv]


def _cap_address_space() -> None:
    cap = ADDRESS_SPACE_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def run(case: Case, folder: Path, timeout: float = 120.0) -> Run:
    """Run ``python -m search ARGV`` under the address-space cap: exit code,
    output, wall seconds and peak resident memory (MB) of the child alone
    (``os.wait4`` reports the rusage of that one process)."""
    argv = materialise(case, folder)
    out, err = folder / ".stdout", folder / ".stderr"
    start = time.perf_counter()
    with out.open("wb") as sink, err.open("wb") as errors:
        child = subprocess.Popen([sys.executable, "-m", "search", *argv], cwd=ROOT,
                                 stdout=sink, stderr=errors, preexec_fn=_cap_address_space,
                                 env={**os.environ, "COLUMNS": "100"})
        killer = threading.Timer(timeout, child.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            killer.cancel()
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    return Run(child.returncode, out.read_text(errors="replace"),
               err.read_text(errors="replace"), wall, usage.ru_maxrss / 1024,
               usage.ru_utime + usage.ru_stime)


def problems(case: Case, result: Run, folder: Path) -> list[str]:
    """What is wrong with a case's run (empty: it behaved)."""
    found = []
    if result.code not in case.exits:
        found.append(f"exit {result.code}, expected {sorted(case.exits)}")
    if "Traceback" in result.stderr or "Traceback" in result.stdout:
        found.append("a traceback")
    if case.time_limit is not None and result.wall > case.time_limit + WALL_MARGIN:
        found.append(f"took {result.wall:.1f} s with --time-limit {case.time_limit:g}")
    if case.message and not case.bad and case.message not in result.stdout + result.stderr:
        found.append(f"no {case.message!r} in the output")
    if case.bad:
        lines = result.stderr.strip().splitlines()
        if len(lines) != 1:
            found.append(f"{len(lines)} lines on stderr: {result.stderr!r}")
        if case.message and case.message not in result.stderr:
            found.append(f"no {case.message!r} in {result.stderr!r}")
        named = case.names or (str(folder / next(iter(case.files))) if case.files else "")
        if case.names not in ("", "-") and not case.names.startswith("/"):
            named = str(folder / case.names)  # a file of the case, not the first one
        if named != "-" and named not in result.stderr:
            found.append(f"{named} not named in {result.stderr!r}")
    return found


# The machine running the tests is shared: a run may start late or be slowed,
# so the test allows this much past the limit; docs/reliability.md has the figures.
WALL_MARGIN = 6.0


def main(argv: list[str]) -> int:
    """Run the corpus (``--slow``: the big boards too) and print the figures."""
    import tempfile

    chosen = [c for c in cases() if "--slow" in argv or not c.slow]
    walls, peaks, failed = [], [], 0
    for case in chosen:
        with tempfile.TemporaryDirectory() as folder:
            result = run(case, Path(folder))
            wrong = problems(case, result, Path(folder))
        failed += bool(wrong)
        if case.time_limit is not None:
            walls.append(result.wall)
        peaks.append(result.peak_mb)
        print(f"{case.name:40s} exit {result.code}  {result.wall:6.2f} s  "
              f"{result.peak_mb:7.1f} MB  {'; '.join(wrong) or 'ok'}", flush=True)
    bad = sum(c.bad for c in chosen)
    print(f"{len(chosen)} cases ({bad} bad inputs), {failed} failed; "
          f"max wall with --time-limit 2: {max(walls, default=0):.2f} s; "
          f"max peak memory: {max(peaks, default=0):.0f} MB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
