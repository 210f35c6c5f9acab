"""What a run's ``trace=FILE`` says: where the tasks ran, how their workers got them, how long
they waited once ready and how long they ran, where they ran against where their route asked.

The runtime writes one CSV row per task (``runtime/src/trace.c``); :func:`read_trace` reads
it, :func:`summarize` reduces it, and ``carts analyze trace FILE`` prints the summary::

    threads=16 trace=run.csv ./jacobi2d_arts
    carts analyze trace run.csv --plot run.png
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..arguments import ArgumentParser
from ..errors import CartsError
from ..files import check_destination, read_source, write_atomically
from ..tables import as_table
from .plots import check_plot_path, timeline_plot

HEADER = "task,worker,routed,taken,ready,start,end"
TAKEN = ("main", "own", "mail", "injected", "stolen", "mail-stolen")


@dataclass(frozen=True)
class TaskRow:
    """One task run; times in microseconds since the runtime started."""

    task: str
    worker: int
    routed: int  # -1: the route asked for no worker
    taken: str
    ready: float
    start: float
    end: float

    @property
    def run_us(self) -> float:
        return self.end - self.start

    @property
    def wait_us(self) -> float:
        return self.start - self.ready


def read_trace(path: str | Path) -> list[TaskRow]:
    """The rows of a trace file; a malformed line is an error located at it."""

    path = Path(path)
    text = read_source(path)
    lines = text.splitlines()
    if not lines or lines[0].strip() != HEADER:
        raise CartsError(f"not a runtime trace: the first line must be '{HEADER}'",
                         location=f"{path}:1")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        parts = line.split(",")
        try:
            if len(parts) != 7:
                raise ValueError(f"7 fields expected, found {len(parts)}")
            task, worker, routed, taken, ready, start, end = parts
            if taken not in TAKEN:
                raise ValueError(f"unknown way a task was taken '{taken}'")
            row = TaskRow(task, int(worker), int(routed), taken, float(ready), float(start),
                          float(end))
        except ValueError as err:
            raise CartsError(f"malformed trace row: {err}", location=f"{path}:{number}") from None
        rows.append(row)
    return rows


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class TraceSummary:
    """:func:`summarize`'s result. ``window_us`` runs from the first task made ready to the
    last one finished, the program's first task (``artsMain``, which waits for the others)
    left out; busy percentages are of that window."""

    tasks: int
    window_us: float
    taken: dict[str, int]
    run_on_routed_us: float | None  # median run time of tasks run where their route asked
    run_elsewhere_us: float | None  # ... of routed tasks another worker took
    wait_median_us: float | None  # ready to start
    wait_p90_us: float | None
    workers: list[dict] = field(default_factory=list)
    functions: list[dict] = field(default_factory=list)
    rows: list[TaskRow] = field(default_factory=list, repr=False)  # artsMain left out

    def worker_table(self):
        return as_table(self.workers)

    def function_table(self):
        return as_table(self.functions)

    def plot(self, path=None, title: str | None = None):
        """The timeline of the tasks (:func:`carts_mlir.tools.plots.timeline_plot`)."""
        return timeline_plot([(r.task, r.worker, r.routed, r.start, r.end) for r in self.rows],
                             title=title, path=path)

    def to_json(self) -> dict:
        return {"tasks": self.tasks, "window_us": self.window_us, "taken": self.taken,
                "run_on_routed_us": self.run_on_routed_us,
                "run_elsewhere_us": self.run_elsewhere_us,
                "wait_median_us": self.wait_median_us, "wait_p90_us": self.wait_p90_us,
                "workers": self.workers, "functions": self.functions}


def summarize(rows: list[TaskRow]) -> TraceSummary:
    tasks = [r for r in rows if r.taken != "main"]
    if not tasks:
        return TraceSummary(0, 0.0, {}, None, None, None, None)  # nothing to plot either
    first = min(r.ready for r in tasks)
    window = max(r.end for r in tasks) - first
    routed = [r for r in tasks if r.routed >= 0]
    workers = []
    by_worker: dict[int, list[TaskRow]] = defaultdict(list)
    for r in tasks:
        by_worker[r.worker].append(r)
    for w in range(max(r.worker for r in rows) + 1):
        mine = by_worker.get(w, [])
        busy = sum(r.run_us for r in mine)
        counts = Counter(r.taken for r in mine)
        workers.append({"worker": w, "tasks": len(mine),
                        "busy_pct": 100.0 * busy / window if window > 0 else 0.0,
                        **{t: counts.get(t, 0) for t in TAKEN if t != "main"}})
    functions = []
    by_task: dict[str, list[TaskRow]] = defaultdict(list)
    for r in tasks:
        by_task[r.task].append(r)
    for name, runs in sorted(by_task.items()):
        functions.append({"task": name, "runs": len(runs),
                          "run_median_us": _median([r.run_us for r in runs]),
                          "wait_median_us": _median([r.wait_us for r in runs])})
    waits = [r.wait_us for r in tasks]
    return TraceSummary(
        tasks=len(tasks), window_us=window, taken=dict(Counter(r.taken for r in tasks)),
        run_on_routed_us=_median([r.run_us for r in routed if r.worker == r.routed]),
        run_elsewhere_us=_median([r.run_us for r in routed if r.worker != r.routed]),
        wait_median_us=_median(waits), wait_p90_us=_quantile(waits, 0.9),
        workers=workers, functions=functions, rows=tasks)


def _fmt(value, spec: str = ".1f") -> str:
    return "-" if value is None else format(value, spec)


def trace_main(argv: list[str]) -> int:
    """``carts analyze trace FILE [--json OUT] [--plot F.png]``: :func:`summarize` as tables,
    and the timeline of the tasks as a picture."""
    import json

    from rich.console import Console
    from rich.table import Table


    p = ArgumentParser(prog="carts analyze trace",
                       description="where a run's tasks ran and waited (a trace=FILE of the "
                                   "runtime)")
    p.add_argument("trace", help="the CSV the runtime wrote with trace=FILE")
    p.add_argument("--json", metavar="FILE", help="write the summary as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="draw the tasks on a timeline per worker")
    a = p.parse_args(argv)
    if a.json:
        check_destination(a.json)
    if a.plot:
        check_plot_path(a.plot)
    s = summarize(read_trace(a.trace))
    console = Console(highlight=False)
    taken = ", ".join(f"{k} {v}" for k, v in sorted(s.taken.items(), key=lambda kv: -kv[1]))
    console.print(f"{a.trace}: {s.tasks} tasks in {s.window_us / 1e3:.3f} ms ({taken or 'none'})",
                  soft_wrap=True)
    console.print(f"run time (median): {_fmt(s.run_on_routed_us)} us on the routed worker, "
                  f"{_fmt(s.run_elsewhere_us)} us elsewhere; ready to start: median "
                  f"{_fmt(s.wait_median_us)} us, 90% {_fmt(s.wait_p90_us)} us", soft_wrap=True)
    table = Table(title="workers")
    columns = ["worker", "tasks", "busy %", *[t for t in TAKEN if t != "main"]]
    for column in columns:
        table.add_column(column, justify="right")
    for w in s.workers:
        table.add_row(str(w["worker"]), str(w["tasks"]), f"{w['busy_pct']:.0f}",
                      *[str(w[t]) for t in TAKEN if t != "main"])
    console.print(table)
    functions = Table(title="task functions")
    for column in ("task", "runs", "run median (us)", "wait median (us)"):
        functions.add_column(column, justify="right")
    for f in s.functions:
        functions.add_row(f["task"], str(f["runs"]), _fmt(f["run_median_us"]),
                          _fmt(f["wait_median_us"]))
    console.print(functions)
    if a.json:
        write_atomically(a.json, json.dumps(s.to_json(), indent=2) + "\n")
    if a.plot:
        s.plot(a.plot, title=f"{Path(a.trace).name}: {s.tasks} tasks")
    return 0
