"""gridcp against Simon Tatham's Unequal: grades and speed, side by side.

    python benchmarks/futoshiki_tatham.py --tatham-src DIR [--repeat K] [--generated N]
                                           [--sets DIR] [--ids FILE]
    python benchmarks/futoshiki_tatham.py --make-ids FILE [--per-grade N] [--first-seed S]
    python benchmarks/futoshiki_tatham.py --make-tatham-ids FILE --tatham-src DIR
                                           [--per-grade N] [--first-seed S]

``DIR`` holds Tatham's sources (``unequal.c``, ``latin.c``, ...; upstream
commit a4f68b6a, the one that made the public game IDs).  The script writes a
small driver (below: it includes ``unequal.c`` and calls its solver) next to
them in ``DIR/../tatham-bench``, builds it with ``cc -O2`` and runs it; nothing
of Tatham's is copied into the checkout.  Without ``--tatham-src`` only
gridcp's side is measured.

1. Grades: every game ID of ``../shared/instances-public/futoshiki/
   tatham-unequal/gameids.tsv`` graded by gridcp against the grade Tatham
   recorded; then ``N`` puzzles per grade, size and mode made by gridcp's
   generator and graded by Tatham's own solver (the lowest level whose
   ``solver_state`` returns 1, which is what Tatham's generator checks).
2. Speed per grade on 9x9: the public 9x9 IDs and gridcp-generated 9x9
   puzzles; gridcp's ``propagate`` ``unique`` in-process against Tatham's
   ``solver_state(.., DIFF_RECURSIVE)`` in-process (solve and prove unique),
   in CPU milliseconds (least of K runs for gridcp, median of K for Tatham);
   gridcp's wall time too.
   With ``--ids FILE`` (lines ``grade, method, seed, game ID``, tab-separated, as
   ``--make-ids`` writes them: ``N / 2`` puzzles per grade and method from seeds
   ``S``, ``S + 1``, ... of ``generate_graded``; ``--make-tatham-ids`` writes
   ``N`` per grade made by Tatham's own generator, ``new_game_desc`` seeded with
   ``S``, ``S + 1``, ..., method ``tatham``) the generated part is read from
   that file instead, and a summary per grade and set gives gridcp's and
   Tatham's median and max side by side, with gridcp's nodes.
3. Start-up: ``python -m search solve`` on a 4x4 (compiled kernel and
   ``GRIDCP_PURE=1``) against ``python -c pass``, CPU (user + system, by
   getrusage of each finished child) and wall milliseconds over K runs
   (``--startup``: this section alone).

Figures on a shared machine include waiting for a core; the CPU seconds and
node counts are the steadier figures.  Never asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT.parent / "shared" / "instances-public" / "futoshiki"
sys.path.insert(0, str(ROOT))

from search.core.processes import run_child  # noqa: E402
from search.futoshiki.formats import format_tatham  # noqa: E402
from search.futoshiki.generate import generate_graded  # noqa: E402
from search.futoshiki.grade import GRADES, grade  # noqa: E402
from search.futoshiki.io import parse  # noqa: E402
from search.futoshiki.propagate import PropagateBackend  # noqa: E402

# Reads game IDs on stdin; prints per ID: the grade (lowest level whose
# solver_state is 1), the full solver's verdict and the median in-process
# CPU milliseconds (this process's clock, so that waiting for a core on a shared
# machine does not count) of solver_state(state, DIFF_RECURSIVE) over argv[1] runs.
DRIVER = r"""
#define main unequal_main
#include "unequal.c"
#undef main
#include <time.h>

static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    char line[65536];
    while (fgets(line, sizeof line, stdin)) {
        char *id = strtok(line, " \t\r\n"), *desc;
        if (!id || !(desc = strchr(id, ':'))) continue;
        *desc++ = '\0';
        game_params *p = default_params();
        decode_params(p, id);
        const char *err = validate_desc(p, desc);
        if (err) { printf("error 0 0\n"); fflush(stdout); continue; }
        game_state *st = new_game(NULL, p, desc);
        int grade = -1, d, verdict = 0;
        for (d = 0; d < DIFFCOUNT && grade < 0; d++) {
            game_state *copy = dup_game(st);
            if (solver_state(copy, d) == 1) grade = d;
            free_game(copy);
        }
        double *t = snewn(runs, double);
        for (int k = 0; k < runs; k++) {
            game_state *copy = dup_game(st);
            double t0 = now();
            verdict = solver_state(copy, DIFF_RECURSIVE);
            t[k] = now() - t0;
            free_game(copy);
        }
        qsort(t, runs, sizeof(double), cmp);
        printf("%s %d %.3f\n", grade >= 0 ? unequal_diffnames[grade] : "none", verdict,
               1000 * t[runs / 2]);
        fflush(stdout);
        sfree(t); free_game(st); free_params(p);
    }
    return 0;
}
"""
SOURCES = ("latin.c", "malloc.c", "misc.c", "random.c", "tree234.c", "nullfe.c", "matching.c")


# Prints, per seed, a 9x9 game ID of Tatham's own generator at one grade, as a
# line of an ids file: grade, "tatham", seed, game ID.
GENERATOR = r"""
#define main unequal_main
#include "unequal.c"
#undef main
int main(int argc, char **argv) {
    const char *params = argv[1], *grade = argv[2];
    int first = atoi(argv[3]), count = atoi(argv[4]);
    for (int s = first; s < first + count; s++) {
        time_t seed = s;
        random_state *rs = random_new((void *)&seed, sizeof seed);
        game_params *p = default_params();
        char *aux, *desc;
        decode_params(p, params);
        desc = new_game_desc(p, rs, &aux, false);
        printf("%s\ttatham\t%d\t%d:%s\n", grade, s, p->order, desc);
        fflush(stdout);
        sfree(desc); sfree(aux); free_params(p); random_free(rs);
    }
    return 0;
}
"""


def make_tatham_ids(src: Path, out: Path, per_grade: int, first_seed: int) -> None:
    """Write ``per_grade`` 9x9 puzzles per grade made by Tatham's generator."""
    folder = src.parent / "tatham-bench"
    folder.mkdir(exist_ok=True)
    (folder / "generate.c").write_text(GENERATOR)
    binary = folder / "unequal-generate"
    subprocess.run(["cc", "-O2", f"-I{src}", "-o", str(binary), str(folder / "generate.c"),
                    *(str(src / s) for s in SOURCES), "-lm"], check=True, capture_output=True)
    with out.open("w") as file:
        for letter, want in zip("tekxr", GRADES):
            done = subprocess.run([str(binary), f"9d{letter}", want, str(first_seed),
                                   str(per_grade)], check=True, capture_output=True, text=True)
            file.write(done.stdout)


def build(src: Path) -> Path:
    out = src.parent / "tatham-bench"
    out.mkdir(exist_ok=True)
    (out / "driver.c").write_text(DRIVER)
    binary = out / "unequal-bench"
    subprocess.run(["cc", "-O2", "-DSTANDALONE_SOLVER", f"-I{src}", "-o", str(binary),
                    str(out / "driver.c"), *(str(src / s) for s in SOURCES), "-lm"],
                   check=True, capture_output=True)
    return binary


def tatham(binary: Path | None, ids: list[str], runs: int,
           cpu_cap: int | None = None) -> list[tuple[str, float]]:
    """(grade, median ms) per game ID from Tatham's solver.  With ``cpu_cap``
    each ID runs in its own process limited to that many CPU seconds (Tatham's
    guessing takes minutes on some relation-heavy 9x9s); one cut off counts as
    ``inf`` ms."""
    if binary is None:
        return [("-", float("nan"))] * len(ids)
    batches = [ids] if cpu_cap is None else [[gid] for gid in ids]
    out: list[tuple[str, float]] = []
    for batch in batches:
        def cap() -> None:
            if cpu_cap is not None:
                resource.setrlimit(resource.RLIMIT_CPU, (cpu_cap, cpu_cap + 1))
        done = subprocess.run([str(binary), str(runs)], input="\n".join(batch) + "\n",
                              capture_output=True, text=True, preexec_fn=cap)
        if done.returncode != 0:
            out.extend([("-", float("inf"))] * len(batch))
            continue
        rows = [line.split() for line in done.stdout.splitlines()]
        out.extend((g.lower(), float(ms)) for g, _, ms in rows)
    return out


def gridcp_ms(puzzle, runs: int) -> tuple[float, float, int]:
    """Least wall and CPU milliseconds of ``propagate``'s unique, and its nodes."""
    engine = PropagateBackend(progress=False)
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = engine.unique(puzzle)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    assert str(result.status) == "UNIQUE"
    return 1000 * min(walls), 1000 * min(cpus), int(result.effort["nodes"])


def table(head: list[str], rows: list[list]) -> None:
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for row in rows:
        print("| " + " | ".join(str(v) for v in row) + " |")
    print()


def grades_section(ids_file: Path, binary: Path | None, generated: int) -> None:
    rows = [line.split("\t") for line in ids_file.read_text().splitlines()]
    agree = Counter((row[1].lower(), grade(parse(row[0]))) for row in rows)
    same = sum(v for (a, b), v in agree.items() if a == b)
    print(f"## Grades of Tatham's {len(rows)} public game IDs: gridcp agrees on {same}\n")
    table(["Tatham", *GRADES], [[t, *(agree[t, g] for g in GRADES)] for t in GRADES])
    if binary is None or not generated:
        return
    ids, ours = [], []
    for adjacent in (False, True):
        for n in (4, 5, 6, 7):
            for want in GRADES:
                for seed in range(generated):
                    try:
                        puzzle, _, found = generate_graded(n, seed, difficulty=want,
                                                           adjacent=adjacent)
                    except Exception:  # noqa: BLE001 (no such puzzle at this size)
                        continue
                    ids.append(format_tatham(puzzle).strip())
                    ours.append(found)
    theirs = [g for g, _ in tatham(binary, ids, 1)]
    agree = Counter(zip(theirs, ours))
    same = sum(v for (a, b), v in agree.items() if a == b)
    print(f"## gridcp-generated puzzles (4x4-7x7, both modes, {generated} per grade): "
          f"Tatham's solver grades {same} of {len(ids)} as gridcp does\n")
    table(["Tatham", *GRADES], [[t, *(agree[t, g] for g in GRADES)] for t in GRADES])


def make_ids(out: Path, per_grade: int, first_seed: int) -> None:
    """Write ``per_grade`` 9x9 puzzles per grade (half per method) made by gridcp."""
    with out.open("w") as file:
        for want in GRADES:
            for method in ("relations", "mixed"):
                for seed in range(first_seed, first_seed + per_grade // 2):
                    puzzle, _, found = generate_graded(9, seed, difficulty=want, method=method)
                    file.write(f"{found}\t{method}\t{seed}\t{format_tatham(puzzle).strip()}\n")
                    file.flush()


def speed_section(ids_file: Path, binary: Path | None, runs: int, generated: int,
                  own: Path | None = None, cpu_cap: int | None = None,
                  tatham_runs: int | None = None) -> None:
    rows = [line.split("\t") for line in ids_file.read_text().splitlines()
            if line.startswith("9:")]
    cases = [("tatham", row[1].lower(), row[0]) for row in rows]
    if own is not None:
        for line in own.read_text().splitlines():
            level, method, _, gid = line.split("\t")
            # made by gridcp's generator (a method of it), or by Tatham's ("tatham")
            origin = "Tatham's generator" if method == "tatham" else f"gridcp {method}"
            cases.append((origin, level, gid))
    for want in GRADES if own is None else ():
        for seed in range(generated):
            for method in ("mixed", "relations"):
                puzzle, _, found = generate_graded(9, 100 + seed, difficulty=want, method=method)
                cases.append((f"gridcp {method}", found, format_tatham(puzzle).strip()))
    theirs = tatham(binary, [c[2] for c in cases], tatham_runs or runs, cpu_cap)
    out = []
    for (origin, level, gid), (their_grade, their_ms) in zip(cases, theirs):
        wall, cpu, nodes = gridcp_ms(parse(gid), runs)
        out.append([origin, level, their_grade, nodes, f"{wall:.3f}", f"{cpu:.3f}",
                    f"{their_ms:.3f}", gid[:40] + "..."])
    print("## 9x9: solve and prove unique, in-process (ms)\n")
    table(["set", "grade", "Tatham's grade", "gridcp nodes", "gridcp wall", "gridcp CPU",
           "Tatham CPU (median)", "game ID"], out)
    summary = []
    for level in GRADES:
        mine = [float(r[5]) for r in out if r[1] == level]
        theirs_ms = [float(r[6]) for r in out if r[1] == level]
        if mine:
            summary.append([level, len(mine), f"{max(mine):.3f}", f"{max(theirs_ms):.3f}",
                            f"{sorted(mine)[len(mine) // 2]:.3f}",
                            f"{sorted(theirs_ms)[len(theirs_ms) // 2]:.3f}"])
    table(["grade", "puzzles", "gridcp max CPU", "Tatham max", "gridcp median CPU",
           "Tatham median"], summary)
    if own is not None:
        side_by_side(out)


def side_by_side(out: list[list]) -> None:
    """Per grade and set: gridcp's and Tatham's median and max CPU ms, gridcp's nodes."""
    def mid(values: list[float]) -> float:
        return sorted(values)[len(values) // 2]

    rows = []
    for level in GRADES:
        for origin in dict.fromkeys(r[0] for r in out):  # the sets, in order
            mine = [r for r in out if r[1] == level and r[0] == origin]
            if not mine:
                continue
            cpu = [float(r[5]) for r in mine]
            nodes = [r[3] for r in mine]
            theirs = [float(r[6]) for r in mine]
            rows.append([level, origin, len(mine), f"{mid(cpu):.3f}", f"{max(cpu):.3f}",
                         mid(nodes), max(nodes), f"{mid(theirs):.3f}", f"{max(theirs):.3f}",
                         sum(a > b for a, b in zip(cpu, theirs)),
                         sum(t == float("inf") for t in theirs)])
    print("## Per grade and set: solve and prove unique, CPU ms in-process\n")
    table(["grade", "set", "puzzles", "gridcp median", "gridcp max", "gridcp median nodes",
           "gridcp max nodes", "Tatham median", "Tatham max", "gridcp slower on",
           "Tatham cut off"], rows)


def startup_section(runs: int) -> None:
    """Whole-process CPU of a 4x4 solve, compiled kernel and interpreted, against
    ``python -c pass``: getrusage of each finished child, bytecode cached (one
    run first, $PYTHONDONTWRITEBYTECODE left out)."""
    file = ROOT / "instances" / "futoshiki" / "tatham" / "u04_trivial_1.tatham"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    solve = [sys.executable, "-m", "search", "solve", str(file)]
    commands = {"python -c pass": ([sys.executable, "-c", "pass"], {}),
                "gridcp solve u04_trivial_1.tatham": (solve, {"GRIDCP_PURE": "0"}),
                "the same, GRIDCP_PURE=1": (solve, {"GRIDCP_PURE": "1"})}
    rows = []
    for name, (command, extra) in commands.items():
        subprocess.run(command, cwd=ROOT, env={**env, **extra}, capture_output=True,
                       check=True)
        walls, cpus = [], []
        for _ in range(runs):
            done = run_child(command, "", None, cwd=str(ROOT), env={**env, **extra})
            if done.code:
                raise SystemExit(f"{' '.join(command)}: {done.why()}: {done.err.strip()}")
            walls.append(done.wall)
            cpus.append(done.cpu)
        rows.append([name, f"{1000 * statistics.median(cpus):.0f}",
                     f"{1000 * min(cpus):.0f}", f"{1000 * statistics.median(walls):.0f}"])
    print("## Start-up, whole process (ms)\n")
    table(["command", "CPU median", "CPU least", "wall median"], rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tatham-src", type=Path, help="folder of Tatham's sources")
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (default 5)")
    parser.add_argument("--generated", type=int, default=2,
                        help="generated puzzles per grade (default 2)")
    parser.add_argument("--sets", type=Path, default=SETS,
                        help="the public Futoshiki sets (default ../shared/instances-public/"
                             "futoshiki beside the checkout)")
    parser.add_argument("--ids", type=Path,
                        help="gridcp-made 9x9 puzzles to time (as --make-ids writes them)")
    parser.add_argument("--make-ids", type=Path, help="write such a file and stop")
    parser.add_argument("--make-tatham-ids", type=Path,
                        help="write such a file of Tatham-generated 9x9s and stop "
                             "(needs --tatham-src)")
    parser.add_argument("--per-grade", type=int, default=40,
                        help="puzzles per grade for --make-ids (default 40)")
    parser.add_argument("--first-seed", type=int, default=5000,
                        help="first seed for --make-ids (default 5000)")
    parser.add_argument("--tatham-runs", type=int,
                        help="runs per timing of Tatham's solver (default: --repeat)")
    parser.add_argument("--tatham-cpu-cap", type=int,
                        help="CPU seconds per puzzle for Tatham's solver, each in its own "
                             "process (default: no cap, one process)")
    parser.add_argument("--startup", action="store_true",
                        help="only the start-up section (4x4 solve, whole process)")
    parser.add_argument("--skip-grades", action="store_true",
                        help="leave out the grade agreement and the start-up sections")
    args = parser.parse_args(argv)
    if args.make_tatham_ids and args.tatham_src:
        make_tatham_ids(args.tatham_src, args.make_tatham_ids, args.per_grade, args.first_seed)
        return 0
    if args.startup:
        startup_section(args.repeat)
        return 0
    if args.make_ids:
        make_ids(args.make_ids, args.per_grade, args.first_seed)
        return 0
    if not args.sets.exists():
        print(f"{args.sets} is absent: nothing to compare", file=sys.stderr)
        return 0
    ids = args.sets / "tatham-unequal" / "gameids.tsv"
    random.seed(0)
    binary = build(args.tatham_src) if args.tatham_src else None
    if not args.skip_grades:
        grades_section(ids, binary, args.generated)
    speed_section(ids, binary, args.repeat, args.generated, args.ids,
                  args.tatham_cpu_cap, args.tatham_runs)
    if not args.skip_grades:
        startup_section(args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
