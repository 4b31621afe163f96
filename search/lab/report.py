"""``gridcp report``: tables and plots of a sweep's JSON Lines.

Per instance set, task and backend: runs, solved, PAR-2 (the mean time with
every unsolved run counted as twice its time limit), median and worst time of
the solved runs.  Per instance: each backend's time side by side, and the
answers compared (a count or a verdict that differs between backends is
listed first).  With ``-o DIR`` it writes ``report.md`` and, with matplotlib
(the ``plots`` extra), ``cactus.png`` (instances solved within t seconds, per puzzle and task) and
``scatter-TASK.png`` (two backends' times per instance, log-log).

Times are the backends' own wall clocks; the harness's overhead per run
(process start, imports, parsing: the run's wall seen from outside minus the
backend's time and the import of the backend's and the verifier's modules)
has its own table.  The effort table gives the backends' own counters
(nodes, states, ...): unlike times, they do not depend on the machine's load.
The report opens with the command that remakes it and the machine each
sweep ran on (CPU model, cores, load average at its start).
"""

from __future__ import annotations

import argparse
import html
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from search.app.arguments import YES, add_whole_limits
from search.app.manifest import labelled
from search.core.contract import GridcpError, printable
from search.core.outputs import out_dir, out_file, save_figure, write_file
from search.core.registry import read_text
from search.lab.bench import read_results, read_sweeps, run_key

ANSWERED = {"SOLVED", "UNSAT", "UNIQUE", "MULTIPLE", "COUNTED", "INVALID"}
Record = dict[str, Any]


def solved(record: Record) -> bool:
    return record["status"] in ANSWERED


def par2(record: Record) -> float:
    return record["wall"] if solved(record) else 2 * record["time_limit"]


def answer(record: Record) -> str:
    """What a run answered, comparable across backends; '' when it did not answer."""
    if not solved(record):
        return ""
    if record["task"] == "count":
        return str(record.get("count"))
    if record["task"] == "check":
        return (record.get("verdict") or record["status"]).split(":")[0]
    return record["status"]


def label(record: Record) -> str:
    """The instance, with its rule variants when it ran under some: ``f.llk [border]``."""
    return labelled(record["instance"], record.get("rules"))


def latest(records: list[Record]) -> list[Record]:
    """One record per run (the last one written), in the file's order."""
    by_run = {run_key(r): r for r in records}
    return list(by_run.values())


# ---------------------------------------------------------------- tables


def _table(header: list[str], rows: list[list[str]], text_columns: int = 1) -> str:
    """A Markdown table: the first ``text_columns`` left-aligned, the figures right."""
    rule = ["---" if i < text_columns else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(rule) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 1000 else f"{value:.0f}"


def summary_table(records: list[Record], by_set: bool = True) -> str:
    """Runs, solved, PAR-2, median and worst time per (instance set,) puzzle, task, backend."""
    groups: dict[tuple[str, ...], list[Record]] = defaultdict(list)
    for r in records:
        head = (r["set"], r["puzzle"]) if by_set else (r["puzzle"],)
        groups[(*head, r["task"], r["backend"])].append(r)
    rows = []
    for names, runs in sorted(groups.items()):
        times = [r["wall"] for r in runs if solved(r)]
        errors = sum(r["status"] == "ERROR" for r in runs)
        rows.append([*names, str(len(runs)), str(len(times)),
                     _seconds(statistics.fmean(par2(r) for r in runs)),
                     _seconds(statistics.median(times) if times else None),
                     _seconds(max(times) if times else None), str(errors), _answers(runs)])
    head = ["instance set", "puzzle"] if by_set else ["puzzle"]
    return _table([*head, "task", "backend", "runs", "solved", "PAR-2 s", "median s",
                   "worst s", "errors", "answers"], rows, text_columns=len(head) + 2)


def _answers(runs: list[Record]) -> str:
    """How many runs gave each status (the share of clearable boards, ...)."""
    counts: dict[str, int] = defaultdict(int)
    for r in runs:
        counts[(r.get("verdict") or r["status"]).split(":")[0]] += 1
    return ", ".join(f"{s} {n}" for s, n in sorted(counts.items()))


def grouped_table(records: list[Record], by: str) -> str:
    """The summary per puzzle and ``by``: a record field (size, rules, set) or
    several joined by ``+`` (``size+rules``: the share of clearable boards per
    size and rule set)."""
    groups: dict[tuple[str, ...], list[Record]] = defaultdict(list)
    for r in records:
        value = " ".join(_field(r, name) for name in by.split("+"))
        groups[(r["puzzle"], value, r["task"], r["backend"])].append(r)
    rows = []
    for names, runs in sorted(groups.items(), key=lambda kv: (kv[0][0], _natural(kv[0][1]),
                                                               kv[0][2:])):
        times = [r["wall"] for r in runs if solved(r)]
        rows.append([*names, str(len(runs)), str(len(times)),
                     _seconds(statistics.median(times) if times else None),
                     _seconds(max(times) if times else None), _answers(runs)])
    return _table(["puzzle", by, "task", "backend", "runs", "solved", "median s", "worst s",
                   "answers"], rows, text_columns=4)


def _field(record: Record, name: str) -> str:
    if name == "rules":
        return labelled("", record.get("rules")).strip() or "-"
    return str(record.get(name))


def _natural(text: str) -> tuple:
    """``9x9`` before ``10x10``."""
    import re

    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def effort_table(records: list[Record]) -> str:
    """The backends' own counters, median and most per run: figures that a loaded
    machine does not change.  Peak memory (MiB) of the run's process too."""
    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for r in records:
        groups[(r["puzzle"], r["task"], r["backend"])].append(r)
    rows = []
    for names, runs in sorted(groups.items()):
        keys = list(dict.fromkeys(k for r in runs for k in (r.get("effort") or {})))
        figures = []
        for key in keys[:4]:
            values = [r["effort"][key] for r in runs if key in (r.get("effort") or {})]
            figures.append(f"{key} {_number(statistics.median(values))} / "
                           f"{_number(max(values))}")
        peaks = [r["peak_mib"] for r in runs if "peak_mib" in r]
        rows.append([*names, "; ".join(figures) or "-",
                     f"{max(peaks):.0f}" if peaks else "-"])
    return _table(["puzzle", "task", "backend", "effort: median / most per run",
                   "peak MiB"], rows, text_columns=4)


def _number(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:.3g}"


def _given(record: Record) -> str:
    """A run's answer as a table of known answers writes it."""
    if record["task"] == "count":
        return str(record.get("count"))
    return (record.get("verdict") or record["status"]).split(":")[0]


def machines(sweeps: list[dict[str, Any]]) -> list[str]:
    """One line per sweep: its command and the machine it ran on."""
    lines = []
    for sweep in sweeps:
        load = sweep.get("load")
        load_text = f", load average {' '.join(map(str, load))} at the start" if load else ""
        lines.append(f"- `{sweep.get('command', '?')}` ({sweep.get('runs', '?')} runs) on "
                     f"{sweep.get('host', '?')}: {sweep.get('cpu', '?')}, "
                     f"{sweep.get('cores', '?')} cores{load_text}; {sweep.get('time', '')}")
        for name, why in (sweep.get("skipped") or {}).items():
            lines.append(f"  - peer {name} skipped: {why}")
    return lines


def per_instance(records: list[Record]) -> tuple[str, list[str]]:
    """The backend-against-backend table and the list of differing answers."""
    backends = list(dict.fromkeys(r["backend"] for r in records))
    cells: dict[tuple[str, str], dict[str, Record]] = defaultdict(dict)
    for r in records:
        cells[label(r), r["task"]][r["backend"]] = r
    single = {instance for (instance, task), by_backend in cells.items()
              if any(answer(r) in ("1", "UNIQUE") for r in by_backend.values())}
    rows, differ = [], []
    for (instance, task), by_backend in sorted(cells.items()):
        answers = {b: answer(r) for b, r in by_backend.items() if answer(r)}
        keys = {b: r["key"] for b, r in by_backend.items() if r.get("key")}
        if instance in single and len(set(keys.values())) > 1:
            answers = {b: f"{answers.get(b, '')} key {k}".strip() for b, k in keys.items()}
        if len(set(answers.values())) > 1:
            what = ", ".join(f"{b} {a}" for b, a in answers.items())
            differ.append(f"{instance} {task}: {what}")
            agreed = "DIFFER"
        else:
            agreed = next(iter(answers.values()), "-")
        row = [instance, task, agreed]
        for b in backends:
            r = by_backend.get(b)
            row.append("" if r is None else _seconds(r["wall"]) if solved(r) else r["status"])
        rows.append(row)
    return _table(["instance", "task", "answer", *backends], rows, text_columns=3), differ


def overhead_table(records: list[Record]) -> str:
    """The harness's cost per run and the import of each backend's module."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        if "import_wall" in r and not r.get("killed"):
            groups[r["backend"]].append(r)
    rows = []
    for backend, runs in sorted(groups.items()):
        cost = sorted(r["run_wall"] - r["wall"] - r["import_wall"] for r in runs)
        imports = [r["import_wall"] for r in runs]
        rows.append([backend, str(len(runs)), _seconds(statistics.median(cost)),
                     _seconds(cost[int(0.9 * (len(cost) - 1))]), _seconds(cost[-1]),
                     _seconds(statistics.median(imports))])
    return _table(["backend", "runs", "overhead median s", "90th percentile s", "max s",
                   "imports median s"], rows)


def markdown(records: list[Record], source: str, plots: list[str],
             unsupported: list[Record] | None = None, sweeps: list[dict[str, Any]] | None = None,
             by: tuple[str, ...] = (), remake: str = "") -> str:
    """The whole report; ``unsupported`` runs (a rule variant a backend does not
    model) are only listed."""
    table, differ = per_instance(records)
    hosts = sorted({r.get("host", "?") for r in records})
    versions = sorted({", ".join(f"{k} {v}" for k, v in sorted(r.get("versions", {}).items()))
                       for r in records})
    limits = sorted({r["time_limit"] for r in records})
    parts = [f"# Sweep report: {source}", "",
             f"{len(records)} runs on {', '.join(hosts)}; time limit "
             f"{', '.join(f'{t:g}' for t in limits)} s; {'; '.join(versions)}.", "",
             "Solved means answered (SOLVED, UNSAT, COUNTED, UNIQUE, MULTIPLE); PAR-2 counts "
             "an unsolved run as twice the time limit; times are the backends' own wall "
             "clocks, median and worst over the solved runs.", ""]
    if remake:
        parts += ["Remade by", "", f"    {remake}", ""]
    if sweeps:
        parts += ["## Sweeps and machines", "",
                  "Times were measured on these machines, shared with other jobs when the "
                  "load average is high: compare the effort figures rather than seconds.",
                  "", *machines(sweeps), ""]
    parts += ["## Per puzzle and backend", "", summary_table(records, by_set=False), "",
              "## Per instance set and backend", "", summary_table(records), ""]
    for field_ in by:
        parts += [f"## Per {field_}", "", grouped_table(records, field_), ""]
    parts += ["## Effort", "", "The backends' own counters (median / most per run), "
              "independent of the machine's load; peak memory of the run's process.", "",
              effort_table(records), ""]
    expected = [r for r in records if r.get("expected") and solved(r)
                and _given(r) != r["expected"]]
    known = sum(1 for r in records if r.get("expected") and solved(r))
    if known:
        parts += ["## Answers against the known ones", "",
                  f"{known - len(expected)} of {known} answered runs give the known answer.",
                  ""]
        parts += [f"- {label(r)} {r['backend']} {r['task']}: {_given(r)}, known "
                  f"{r['expected']}" for r in expected] or ["None differs."]
        parts += [""]
    parts += ["## Answers that differ between backends", "",
              "Counts or verdicts, or, where the puzzle has one solution, the "
              "solutions' keys.", ""]
    parts += [f"- {line}" for line in differ] or ["None."]
    failed = [r for r in records if r["status"] == "ERROR"]
    parts += ["", "## Runs that failed", ""]
    parts += [f"- {label(r)} {r['backend']} {r['task']}: {r.get('message', '')}"
              for r in failed] or ["None."]
    if unsupported:
        parts += ["", "## Runs a backend does not support (left out above)", ""]
        # a rule variant the backend does not model: neither solved nor failed
        parts += [f"- {label(r)} {r['backend']} {r['task']}: {r.get('message', '')}"
                  for r in unsupported]
    parts += ["", "## Harness overhead per run", "",
              "Process start, imports and parsing: the run's wall clock seen from outside "
              "minus the backend's time and the import of its module and of the verifier "
              "(OR-Tools for cpsat, numpy for the counting engines).",
              "", overhead_table(records), ""]
    if plots:
        parts += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    parts += ["## Per instance", "", "Seconds per backend, or the status of a run that did "
              "not answer.", "", table, ""]
    return "\n".join(parts)


# ---------------------------------------------------------------- plots


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def cactus(records: list[Record], target: Path, plt: Any, force: bool = False) -> None:
    """Instances solved within t seconds, one line per backend, one panel per puzzle
    (rows) and task (columns): backends of one puzzle are compared on its instances."""
    puzzles = list(dict.fromkeys(r["puzzle"] for r in records))
    tasks = list(dict.fromkeys(r["task"] for r in records))
    colours = {b: f"C{i}" for i, b in enumerate(dict.fromkeys(r["backend"] for r in records))}
    figure, axes = plt.subplots(len(puzzles), len(tasks), squeeze=False,
                                figsize=(5 * len(tasks), 3.6 * len(puzzles)))
    for row, puzzle in zip(axes, puzzles):
        for ax, task in zip(row, tasks):
            runs = [r for r in records if r["task"] == task and r["puzzle"] == puzzle]
            if not runs:
                ax.set_axis_off()
                continue
            for backend in dict.fromkeys(r["backend"] for r in runs):
                times = sorted(max(r["wall"], 1e-4) for r in runs
                               if r["backend"] == backend and solved(r))
                if times:
                    ax.step(times, range(1, len(times) + 1), where="post", label=backend,
                            color=colours[backend])
            ax.set_xscale("log")
            ax.set_xlabel("time t (s, log)")
            ax.set_ylabel("instances solved within t")
            ax.set_title(f"{puzzle} {task} ({len({label(r) for r in runs})} instances)")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize="small")
    figure.tight_layout()
    save_figure(figure, target, force=force, dpi=100)
    plt.close(figure)


def scatter(records: list[Record], task: str, pair: tuple[str, str], target: Path,
            plt: Any, force: bool = False) -> bool:
    """Backend A's time against B's per instance, log-log; unsolved runs sit at PAR-2,
    beyond the dashed lines of the time limit."""
    a, b = pair
    by = defaultdict(dict)
    for r in records:
        if r["task"] == task and r["backend"] in pair:
            by[label(r)][r["backend"]] = r
    points = [(runs[a], runs[b]) for runs in by.values() if a in runs and b in runs]
    if not points:
        return False
    figure, ax = plt.subplots(figsize=(5.5, 5.5))
    values = []
    for i, puzzle in enumerate(dict.fromkeys(ra["puzzle"] for ra, _ in points)):
        colour = f"C{i}"
        mine = [(ra, rb) for ra, rb in points if ra["puzzle"] == puzzle]
        both = [(max(ra["wall"], 1e-4), max(rb["wall"], 1e-4)) for ra, rb in mine
                if solved(ra) and solved(rb)]
        other = [(max(par2(ra), 1e-4), max(par2(rb), 1e-4)) for ra, rb in mine
                 if not (solved(ra) and solved(rb))]
        if both:
            ax.scatter(*zip(*both), s=14, color=colour, label=f"{puzzle}, both solved")
        if other:
            ax.scatter(*zip(*other), s=24, marker="x", color=colour,
                       label=f"{puzzle}, unsolved by one (PAR-2)")
        values += [v for p in both + other for v in p]
    low, high = min(values) / 2, max(*values, *(2 * r["time_limit"] for r in points[0])) * 2
    ax.plot([low, high], [low, high], color="grey", linewidth=0.8)
    limit = max(r["time_limit"] for pair_ in points for r in pair_)
    ax.axvline(limit, color="grey", linestyle="--", linewidth=0.6)
    ax.axhline(limit, color="grey", linestyle="--", linewidth=0.6)
    ax.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high),
           xlabel=f"{a} time (s)", ylabel=f"{b} time (s)",
           title=f"{task}: {a} vs {b} ({len(points)} instances)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    figure.tight_layout()
    save_figure(figure, target, force=force, dpi=110)
    plt.close(figure)
    return True


def make_plots(records: list[Record], out: Path, pair: tuple[str, str] | None,
               force: bool = False) -> list[str]:
    plt = _pyplot()
    if plt is None:
        print("gridcp: no plots: matplotlib is missing (pip install 'gridcp[plots]')",
              file=sys.stderr)
        return []
    written = ["cactus.png"]
    cactus(records, out / "cactus.png", plt, force)
    backends = list(dict.fromkeys(r["backend"] for r in records))
    if pair is None and {"search", "cpsat"} <= set(backends):
        pair = ("search", "cpsat")  # the two backends every puzzle has
    pair = pair or (tuple(backends[:2]) if len(backends) >= 2 else None)
    if pair is None:
        return written
    for task in dict.fromkeys(r["task"] for r in records):
        name = f"scatter-{task}.png"
        if scatter(records, task, pair, out / name, plt, force):
            written.append(name)
    return written


# ---------------------------------------------------------------- the command


def add_commands(commands: argparse._SubParsersAction) -> None:
    text = "tables and plots of a sweep (the JSON Lines that bench writes)"
    sub = commands.add_parser("report", help=text, description=text)
    sub.add_argument("results", metavar="FILE.jsonl")
    sub.add_argument("-o", "--out", metavar="DIR",
                     help="write report.md and the PNG plots here (default: tables to stdout)")
    sub.add_argument("--force", action="store_true",
                     help="overwrite report.md and the plots if DIR holds them already")
    add_whole_limits(sub)
    sub.add_argument("--scatter", metavar="A,B",
                     help="the two backends of the scatter plots "
                          "(default: search,cpsat, else the first two)")
    sub.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    pair = None
    if args.scatter:
        names = args.scatter.split(",")
        if len(names) != 2:
            raise GridcpError("--scatter wants two backend names, A,B")
        pair = (names[0], names[1])
    path = Path(args.results)
    if args.out is None:
        records, unsupported, sweeps = _read(path)
        print(markdown(records, path.name, [], unsupported, sweeps))
        return YES
    write_report(path, Path(args.out), pair=pair, force=args.force)
    return YES


def _read(path: Path) -> tuple[list[Record], list[Record], list[dict[str, Any]]]:
    read_text(path, puzzle_file=False)  # a missing, binary or empty file: one line, exit 2
    records = [safe(r) for r in latest(read_results(path))]
    unsupported = [r for r in records if r.get("unsupported")]
    records = [r for r in records if not r.get("unsupported")]
    if not records:
        raise GridcpError(f"{path}: no runs recorded")
    return records, unsupported, [safe(s) for s in read_sweeps(path)]


def safe(value: Any) -> Any:
    """A record with every string fit for a Markdown page: HTML escaped, ``|`` (a
    table's column bar) and backticks escaped, non-printable characters (line
    breaks included) shown as escapes, so that a results file cannot put markup,
    a script or a broken table into the report."""
    if isinstance(value, str):
        return html.escape(printable(value)).replace("|", "\\|").replace("`", "\\`")
    if isinstance(value, dict):
        return {safe(k): safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [safe(v) for v in value]
    return value


def write_report(path: Path, out: Path, *, pair: tuple[str, str] | None = None,
                 suite: str | None = None, force: bool = False) -> None:
    """report.md and the plots of a results file, in ``out``.  A suite's
    ``[report]`` table chooses the scatter pair and the extra tables."""
    records, unsupported, sweeps = _read(path)
    suite = suite or next((s["suite"] for s in reversed(sweeps) if s.get("suite")), None)
    by: tuple[str, ...] = ()
    if suite:
        from search.lab.suites import load_suite

        settings = load_suite(suite).report
        by = tuple(settings.get("by", ()))
        if pair is None and settings.get("scatter"):
            pair = tuple(settings["scatter"])
    out = out_dir(out, "-o")
    out_file(out / "report.md", "-o", force=force)  # before any plot is drawn
    plots = make_plots(records, out, pair, force)
    remake = next((s["command"] for s in reversed(sweeps) if s.get("command")), "")
    if not remake.count("--report"):
        remake = (remake + " && " if remake else "") + \
            f"python -m search report {path} -o {out}"
    write_file(out / "report.md", markdown(records, path.name, plots, unsupported, sweeps, by,
                                           remake), force=force)
    print(f"wrote {out / 'report.md'}" + "".join(f", {out / p}" for p in plots))
