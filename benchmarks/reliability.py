"""The figures of docs/reliability.md, "The ways in and out": a fresh hostile
corpus through the command line, and every writer against a full disk, a
symbolic link and an existing file at its target.

    python benchmarks/reliability.py inputs [--per-format N]   # damaged files, one run each
    python benchmarks/reliability.py outputs                    # writers under faults

``inputs`` draws N files per format with the grammars of ``tests/core/grammars.py``
(derandomized: the same files on every machine), damages them, and runs each as
a user would (``python -m search ...`` in a child process under a 3 GB address
space, ``--time-limit 2``): it counts the runs that exit 2 with one line naming
the file, the verified answers, exit 4, tracebacks, runs past the limit + 1 s,
and the peak memory.  ``outputs`` needs a small tmpfs for the full disk (run as
root; otherwise that column says so).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.app.fuzz_corpus import Case, run  # noqa: E402

TIME_LIMIT = 2.0
SEED3 = "3\n0 | 0 < 0\n- - ^ - -\n0 > 0 | 0\nv - - - -\n0 | 0 | 2\n"
NAMES = {"futoshiki": "x.fut", "numberlink": "x.nl", "lianliankan": "x.llk"}


# ---------------------------------------------------------------- inputs


def drawn(strategy, count: int) -> list[bytes]:
    """``count`` damaged files of ``strategy``, the same ones on every run."""
    from hypothesis import HealthCheck, given, settings

    from tests.core.grammars import damaged

    found: list[bytes] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(data=damaged(strategy))
    def collect(data: bytes) -> None:
        if data not in found:
            found.append(data)

    collect()
    return found[:count]


def cases(per_format: int) -> Iterator[Case]:
    from tests.core.grammars import PUZZLE_FORMATS, manifest, results

    for fmt, strategy in sorted(PUZZLE_FORMATS.items()):
        name = NAMES[fmt.split()[0]]
        for i, data in enumerate(drawn(strategy, per_format)):
            yield Case(f"{fmt} {i}", ("solve", "--json", "--time-limit", f"{TIME_LIMIT:g}",
                                            "{dir}/" + name), {name: data})
    for i, data in enumerate(drawn(manifest(), per_format)):
        yield Case(f"manifest {i}", (
            "solve", "--manifest", "--json", "--time-limit", f"{TIME_LIMIT:g}", "{dir}/p.fut"),
            {"manifest.tsv": data, "p.fut": SEED3.encode()}, names="manifest.tsv")
    for i, data in enumerate(drawn(results(), per_format)):
        yield Case(f"results {i}", ("report", "{dir}/r.jsonl"), {"r.jsonl": data})


def judge(case: Case, result, folder: Path) -> str:
    if result.code == 4 or "internal error" in result.stderr:
        return "exit 4"
    if "Traceback" in result.stderr + result.stdout:
        return "traceback"
    if result.cpu > TIME_LIMIT + 1:  # CPU seconds: the machine's load does not count
        return "past the limit + 1 s of CPU"
    if result.code == 2:
        named = str(folder / (case.names or next(iter(case.files))))
        lines = result.stderr.strip().splitlines()
        ok = len([line for line in lines if named in line]) == 1
        return "exit 2 naming the file" if ok else "exit 2 without the file"
    if result.code in (0, 1, 3):
        for line in result.stdout.splitlines():
            if line.startswith("{") and json.loads(line).get("status") == "ERROR":
                return "answer failing verification"
        return f"verified answer (exit {result.code})"
    return f"exit {result.code}"


def inputs(per_format: int) -> int:
    tally: Counter = Counter()
    peak = wall = cpu = 0.0
    total = 0
    for case in cases(per_format):
        with tempfile.TemporaryDirectory() as folder:
            result = run(case, Path(folder), timeout=60)
            verdict = judge(case, result, Path(folder))
        tally[verdict] += 1
        total += 1
        peak, wall, cpu = max(peak, result.peak_mb), max(wall, result.wall), max(cpu, result.cpu)
        if not verdict.startswith(("exit 2 naming", "verified")):
            print(f"{case.name}: {verdict}: {result.stderr.strip()[:200]}", flush=True)
    print(f"{total} damaged files ({per_format} per format, 11 puzzle formats, manifest.tsv, "
          "results.jsonl):")
    for verdict, n in tally.most_common():
        print(f"  {verdict}: {n}")
    print(f"  most CPU of a run {cpu:.2f} s, longest wall {wall:.2f} s (--time-limit "
          f"{TIME_LIMIT:g}); peak memory {peak:.0f} MB")
    return 0


# ---------------------------------------------------------------- outputs


@contextlib.contextmanager
def full_disk(folder: Path) -> Iterator[bool]:
    """A 64 KiB tmpfs at ``folder`` filled to the last byte (False: cannot mount)."""
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                             capture_output=True).returncode == 0
    try:
        if mounted:
            with contextlib.suppress(OSError), open(folder / ".filler", "wb") as filler:
                while True:
                    filler.write(b"\0" * 512)
                    filler.flush()
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=False)


def gridcp(*argv: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "search", *map(str, argv)], cwd=ROOT,
                          capture_output=True, text=True)


def outputs() -> int:
    damaged = checked = 0
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        puzzle = base / "p.fut"
        puzzle.write_text(SEED3)
        results = base / "r.jsonl"
        assert gridcp("bench", puzzle, "--backends", "search", "--tasks", "solve",
                      "-o", results).returncode == 0
        writers = {  # name -> (argv writing into OUT, the file it writes there)
            "convert": (["convert", puzzle, "-o", "{out}"], "p.txt"),
            "generate": (["generate", "futoshiki", "--size", "3", "-o", "{out}"],
                         "futoshiki_3_1_1.txt"),
            "draw": (["draw", puzzle, "-o", "{out}/p.svg"], "p.svg"),
            "report": (["report", results, "-o", "{out}"], "report.md"),
            "bench": (["bench", puzzle, "--backends", "search", "--tasks", "solve",
                       "--time-limit", "9", "-o", "{out}/r.jsonl"], "r.jsonl"),
        }
        for name, (argv, written) in writers.items():
            row = []
            # a symbolic link at the target: refused, its target untouched
            out = base / f"{name}-link"
            out.mkdir()
            victim = base / f"{name}-victim"
            victim.write_text("precious\n")
            (out / written).symlink_to(victim)
            done = gridcp(*[str(w).format(out=out) for w in argv])
            bad = victim.read_text() != "precious\n" or done.returncode != 2
            row.append(f"link: exit {done.returncode}{' DAMAGED' if bad else ''}")
            damaged += bad
            checked += 1
            # an existing target: refused without --force (bench: appended after a check)
            out = base / f"{name}-existing"
            out.mkdir()
            before = (results.read_bytes() + b'{"cut') if name == "bench" else b"mine\n"
            (out / written).write_bytes(before)
            done = gridcp(*[str(w).format(out=out) for w in argv])
            bad = (out / written).read_bytes() != before or done.returncode != 2
            row.append(f"existing: exit {done.returncode}{' DAMAGED' if bad else ''}")
            damaged += bad
            checked += 1
            # a full disk: exit 2 and nothing left behind
            out = base / f"{name}-full"
            with full_disk(out) as mounted:
                if not mounted:
                    row.append("full disk: not measured (no tmpfs)")
                else:
                    done = gridcp(*[str(w).format(out=out) for w in argv])
                    left = sorted(p.name for p in out.iterdir() if p.name != ".filler")
                    bad = bool(left) or done.returncode != 2
                    row.append(f"full disk: exit {done.returncode}, left {left or 'nothing'}"
                               f"{' DAMAGED' if bad else ''}")
                    damaged += bad
                    checked += 1
            print(f"{name}: " + "; ".join(row), flush=True)
    print(f"{checked} writer faults, {damaged} files damaged or wrong exit codes")
    return 0 if damaged == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("inputs", "outputs"))
    parser.add_argument("--per-format", type=int, default=20)
    args = parser.parse_args()
    return inputs(args.per_format) if args.what == "inputs" else outputs()


if __name__ == "__main__":
    sys.exit(main())
