"""``carts analyze bandwidth``: memory-bound kernels judged by the bandwidth they achieve.

    carts analyze bandwidth [NAME...] [--size S] [--threads T] [--runs K] [--json F] [--plot F.png]

A memory-bound kernel is fast when it moves its data at close to the rate the memory delivers,
so its time alone says little; its bandwidth against what the machine gives a loop that does
nothing but stream says how much is left to gain. For every kernel timer of the examples in
:data:`MEMORY_BOUND` (``CARTS_KERNEL_TIMER_START(name)`` ... ``STOP(name)`` in ``main``):

- **bytes**: what the task launches between the two timer reads must move, read from the IR
  after the ``epochs`` stage (:meth:`taskgraph.TaskGraph.bytes_between`: each datablock a
  launch reads is read once, each it writes is written once, times how often it runs),
  compiled with the same size define and thread count as the runs. Counting from the IR
  rather than from formulas per kernel means the count follows the program as compiled, and a
  size known only at run time is an error rather than a guess;
- **time**: the kernel timer of the native executable of our build and of the
  ``cc -O3 -fopenmp`` build, the best of ``--runs`` runs each;
- **baseline**: ``benchmarks/bandwidth/elementwise.c`` (copy, scale, add, triad over double
  arrays, STREAM's four loops) built both ways, run with the same threads on arrays as large
  as the kernel's largest datablock (at least :data:`MIN_BASELINE_ELEMENTS`); each operation's
  bandwidth is its bytes (2 arrays for copy and scale, 3 for add and triad) over its best
  repetition, and the baseline is the mean of the four;
- **efficiency** = kernel GB/s / baseline GB/s, each build against its own baseline, in the
  bands of :data:`BANDS`.

A write is counted once on both sides, as STREAM counts it (the read a write-allocate cache
adds is counted on neither). A kernel whose launches reuse data that stays in cache moves less
through memory than it is charged for, and can come out above 100%. Where the arrays fit in
the last-level cache, kernel and baseline both measure the cache rather than the memory. A
kernel that is the first to write an array (one malloc'd and never written before its timer)
also pays the page faults of that first touch, which the baseline's arrays, written before
any timer, do not: such a kernel reads low for a reason outside its loops.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import socket
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .. import __version__
from . import runs
from ..arguments import ArgumentParser, positive_number
from ..tables import as_table
from .plots import bandwidth_bars, check_plot_path
from .bench import (SIZES, Example, checksum_verdict, default_examples_root, discover_examples,
                    select)
from ..errors import CartsError
from ..files import check_destination, write_atomically
from .suite_runner import TIMER

MEMORY_BOUND: dict[str, str] = {
    "ml-kernels/batchnorm": "five sweeps over an NCHW tensor, a few flops per element each",
    "ml-kernels/layernorm": "two sweeps over the rows (statistics, normalise), few flops each",
    "ml-kernels/activations": "one read and one write per element; expf/tanhf test whether "
                              "compute hides behind memory",
    "ml-kernels/pooling": "each input element read once (stride = window), one compare/add each",
    "polybench/jacobi2d": "5-point stencil: 5 flops per 16 bytes streamed, 2 grids per sweep",
}
"""The examples whose kernels are limited by memory bandwidth, and why."""

BANDS: tuple[tuple[float, str], ...] = ((0.7, "excellent"), (0.5, "good"), (0.3, "acceptable"))
"""Efficiency above each fraction earns its band, best first; below the last one the kernel
needs investigation."""
BELOW_BANDS = "needs investigation"

ELEMENTWISE_OPERATIONS: dict[str, int] = {"copy": 2, "scale": 2, "add": 3, "triad": 3}
"""The baseline's operations and how many double arrays each moves per repetition."""
ELEMENTWISE_REPS = 10
MIN_BASELINE_ELEMENTS = 1 << 20
"""Below this the baseline would time a few microseconds, too close to the timer's 1 us."""
DOUBLE_BYTES = 8
ELEMENTWISE_TOLERANCE = 1e-9
"""The same operations in the same order on every element: both builds agree to rounding."""

_TIMER_START = re.compile(r"\bCARTS_KERNEL_TIMER_START\s*\(\s*(\w+)\s*\)")
_TIMER_STOP = re.compile(r"\bCARTS_KERNEL_TIMER_STOP\s*\(\s*(\w+)\s*\)")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"//[^\n]*")
_CLOCK = "omp_get_wtime"


def elementwise_source() -> Path:
    """``benchmarks/bandwidth/elementwise.c`` of the repository (an editable install)."""
    path = Path(__file__).resolve().parents[3] / "benchmarks" / "bandwidth" / "elementwise.c"
    if not path.is_file():
        raise CartsError("the elementwise baseline is missing (carts analyze bandwidth runs "
                         "from a source checkout)", str(path))
    return path


# --------------------------------------------------------------------------- bytes


@dataclass
class LaunchSite:
    """One task launch site inside a kernel region and what it must move."""

    task: str
    location: str
    chunks: int | None
    """Tasks launched each time it runs (one per chunk)."""
    runs: int | None
    """How often the launch runs inside the region (host loops around it or its epoch)."""
    bytes: int
    """``runs`` times the bytes of its accesses."""
    accesses: list[dict] = field(default_factory=list)


@dataclass
class KernelTraffic:
    """The bytes one kernel timer's region must move, with the launches that move them."""

    timer: str
    start_line: int
    stop_line: int
    bytes: int
    largest_datablock: int
    """The largest datablock the region touches, in bytes: the baseline's array size."""
    sites: list[LaunchSite] = field(default_factory=list)


def timer_lines(text: str, source: str = "<source>") -> dict[str, tuple[int, int]]:
    """``{name: (start line, stop line)}`` of the kernel timers written in C source ``text``
    (comments ignored); a timer started twice, or started and never stopped, is an error."""
    code = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub(lambda m: "\n" * m.group().count("\n"),
                                                    text))
    starts: dict[str, list[int]] = {}
    stops: dict[str, list[int]] = {}
    for number, line in enumerate(code.splitlines(), start=1):
        for pattern, found in ((_TIMER_START, starts), (_TIMER_STOP, stops)):
            for name in pattern.findall(line):
                found.setdefault(name, []).append(number)
    if not starts and not stops:
        raise CartsError("no kernel timer (CARTS_KERNEL_TIMER_START(name) ... "
                         "CARTS_KERNEL_TIMER_STOP(name)) to measure", source)
    timers: dict[str, tuple[int, int]] = {}
    for name, lines in starts.items():
        if len(lines) > 1 or len(stops.get(name, [])) > 1:
            raise CartsError(f"kernel timer '{name}' is started or stopped more than once; "
                             "its region is ambiguous", f"{source}:{lines[-1]}")
        if name not in stops:
            raise CartsError(f"kernel timer '{name}' is started but never stopped",
                             f"{source}:{lines[0]}")
        if stops[name][0] <= lines[0]:
            raise CartsError(f"kernel timer '{name}' is stopped before it starts",
                             f"{source}:{stops[name][0]}")
        timers[name] = (lines[0], stops[name][0])
    for name, lines in stops.items():
        if name not in starts:
            raise CartsError(f"kernel timer '{name}' is stopped but never started",
                             f"{source}:{lines[0]}")
    return timers


def kernel_traffic(graph, text: str, source: str = "<source>") -> list[KernelTraffic]:
    """The bytes each kernel timer of ``text`` encloses in ``graph`` (a
    :class:`taskgraph.TaskGraph` of the module after the ``epochs`` stage): the task launches
    of ``main`` between the clock reads on the timer's two source lines."""
    clock_reads: dict[int, list[int]] = {}
    for call in graph.calls:
        if call.function == "main" and call.callee == _CLOCK and call.line is not None:
            clock_reads.setdefault(call.line, []).append(call.position)
    result = []
    for name, (start_line, stop_line) in timer_lines(text, source).items():
        start = _clock_read(clock_reads, start_line, name, "START", source)
        stop = _clock_read(clock_reads, stop_line, name, "STOP", source)
        sites = [t for t in graph.tasks if t.function == "main" and t.parent is None
                 and t.host_position is not None and start < t.host_position < stop]
        total = graph.bytes_between("main", start, stop)
        where = f"{source}:{start_line}"
        if not sites:
            raise CartsError(f"no task is launched in main between the timers of '{name}' "
                             "(is the kernel sequential, or launched from another function?)",
                             where)
        if total is None:
            raise CartsError(f"the bytes kernel '{name}' moves are not known at compile time "
                             "(a datablock size or a loop trip count is computed at run time); "
                             "define the sizes as constants", where)
        touched = {a.datablock for t in sites for a in t.accesses}
        largest = max((graph.datablock(d).bytes or 0 for d in touched), default=0)
        result.append(KernelTraffic(name, start_line, stop_line, total, largest,
                                    [_site(graph, t) for t in sites]))
    return result


def _clock_read(clock_reads: dict[int, list[int]], line: int, name: str, which: str,
                source: str) -> int:
    positions = clock_reads.get(line, [])
    if not positions:
        raise CartsError(f"CARTS_KERNEL_TIMER_{which}({name}) reads no clock at the top level "
                         "of main (a timer inside a loop or a branch has no single region)",
                         f"{source}:{line}")
    if len(positions) > 1:
        raise CartsError(f"several clock reads on the line of CARTS_KERNEL_TIMER_{which}({name});"
                         " put each timer on its own line", f"{source}:{line}")
    return positions[0]


def _site(graph, task) -> LaunchSite:
    accesses = []
    for a in task.accesses:
        d = graph.datablock(a.datablock)
        accesses.append({"datablock": d.id, "datablock_location": d.location, "mode": a.mode,
                         "reads": a.reads, "writes": a.writes, "datablock_bytes": d.bytes,
                         "bytes_each_run": (d.bytes or 0) * (int(a.reads) + int(a.writes))})
    epoch = graph.epoch(task.epoch)
    outer = epoch.repeats if epoch else 1
    repeats = None if task.repeats is None or outer is None else task.repeats * outer
    return LaunchSite(task.id, task.location, task.chunks, repeats,
                      graph.task_bytes(task) or 0, accesses)


def compile_traffic(source: str | Path, *, defines=(), includes=(),
                    threads: int | None = None) -> list[KernelTraffic]:
    """:func:`kernel_traffic` of the C file ``source``, compiled through the ``epochs`` stage
    as ``carts execute`` compiles it with these flags."""
    from .. import ir, taskgraph
    from ..execute import arts_stages

    source = str(source)
    text = Path(source).read_text(errors="replace")
    timer_lines(text, source)  # a program without timers fails before it is compiled
    graph = None
    with ir.context():
        stages = arts_stages(source, defines=list(defines), includes=list(includes),
                             threads=threads)
        with contextlib.closing(stages):
            for stage, module, _seconds in stages:
                if stage is not None and stage.name == "epochs":
                    graph = taskgraph.from_module(module)
                    break
    if graph is None:
        raise CartsError("the pipeline has no 'epochs' stage to read the task graph from")
    return kernel_traffic(graph, text, source)


# --------------------------------------------------------------------------- times


@dataclass
class Builds:
    """The two native executables of one program (ours and the ``-fopenmp`` one)."""

    ours: Path
    openmp: Path


def build_both(source: Path, workdir: Path, stem: str, *, defines, includes,
               threads: int) -> Builds:
    builds = Builds(workdir / f"{stem}_arts", workdir / f"{stem}_omp")
    runs.build_arts(source, builds.ours, defines=defines, includes=includes, threads=threads)
    runs.build_openmp(source, builds.openmp, defines=defines, includes=includes)
    return builds


def run_both(builds: Builds, *, threads: int, count: int) -> dict[str, list[runs.RunResult]]:
    """``count`` runs of each build, alternating so that a slow spell of the machine does not
    fall on one side only."""
    results: dict[str, list[runs.RunResult]] = {"ours": [], "openmp": []}
    for _ in range(count):
        for side, exe in (("ours", builds.ours), ("openmp", builds.openmp)):
            results[side].append(runs.run_executable(exe, threads=threads).check())
    return results


def repetition_seconds(stdout: str) -> dict[str, list[float]]:
    """Every ``kernel.<name>:`` line of a run, in order (a repeated timer keeps each value)."""
    times: dict[str, list[float]] = {}
    for kind, name, seconds in TIMER.findall(stdout):
        if kind == "kernel":
            times.setdefault(name, []).append(float(seconds))
    return times


@dataclass
class Baseline:
    """The elementwise operations' best repetition on arrays of ``elements`` doubles."""

    elements: int
    reps: int
    seconds: dict[str, dict[str, float]]
    """``{"ours" | "openmp": {operation: best seconds of one repetition}}``"""

    def bytes(self, operation: str) -> int:
        return ELEMENTWISE_OPERATIONS[operation] * self.elements * DOUBLE_BYTES

    def gbps(self, side: str) -> dict[str, float]:
        return {op: self.bytes(op) / s / 1e9 for op, s in self.seconds[side].items()}

    def mean_gbps(self, side: str) -> float:
        values = self.gbps(side)
        return sum(values.values()) / len(values)

    def to_json(self) -> dict:
        return {"elements": self.elements, "array_bytes": self.elements * DOUBLE_BYTES,
                "reps": self.reps,
                **{side: {"operations": {op: {"bytes": self.bytes(op), "seconds": s,
                                              "gbps": self.gbps(side)[op]}
                                         for op, s in self.seconds[side].items()},
                          "mean_gbps": self.mean_gbps(side)}
                   for side in self.seconds}}


def measure_baseline(elements: int, workdir: Path, *, includes, threads: int,
                     count: int) -> Baseline:
    """Build the elementwise program for ``elements`` doubles per array both ways and keep
    each operation's fastest repetition over ``count`` runs (STREAM's best rate: what the
    memory can deliver, not what a noisy moment left of it)."""
    source = elementwise_source()
    defines = [f"ELEM_N={elements}", f"ELEM_REPS={ELEMENTWISE_REPS}"]
    builds = build_both(source, workdir, f"elementwise_{elements}", defines=defines,
                        includes=includes, threads=threads)
    results_by_side = run_both(builds, threads=threads, count=count)
    ok, problem = checksum_verdict(results_by_side["ours"][0].checksum,
                                   results_by_side["openmp"][0].checksum, ELEMENTWISE_TOLERANCE)
    if not ok:
        raise CartsError(f"the two builds of the elementwise baseline disagree ({problem}); "
                         "a bandwidth of a wrong result means nothing", str(source))
    seconds: dict[str, dict[str, float]] = {}
    for side, results in results_by_side.items():
        per_run = [repetition_seconds(r.stdout) for r in results]
        missing = [op for op in ELEMENTWISE_OPERATIONS if not any(op in t for t in per_run)]
        if missing:
            raise CartsError(f"the elementwise baseline printed no timer for "
                             f"{', '.join(missing)} ({side} build)", str(source))
        best = {op: min(x for t in per_run for x in t.get(op, []))
                for op in ELEMENTWISE_OPERATIONS}
        if min(best.values()) <= 0:
            raise CartsError(f"an elementwise operation took less than the timer resolves "
                             f"({side} build, {elements} elements)", str(source))
        seconds[side] = best
    return Baseline(elements, ELEMENTWISE_REPS, seconds)


def baseline_elements(largest_datablock: int) -> int:
    """Doubles per baseline array: one array as large as the kernel's largest datablock."""
    return max(MIN_BASELINE_ELEMENTS, -(-largest_datablock // DOUBLE_BYTES))


# --------------------------------------------------------------------------- verdicts


def band(efficiency: float) -> str:
    for fraction, label in BANDS:
        if efficiency > fraction:
            return label
    return BELOW_BANDS


@dataclass
class Measured:
    """One build's side of one kernel: its time, bandwidth and verdict."""

    seconds: float
    runs: list[float]
    gbps: float
    baseline_gbps: float
    efficiency: float
    band: str


@dataclass
class KernelResult:
    example: Example
    traffic: KernelTraffic
    baseline: Baseline
    ours: Measured
    openmp: Measured
    checksums: dict[str, float | None]
    checksum_problem: str

    @property
    def name(self) -> str:
        timer = self.traffic.timer
        return self.example.name if timer == self.example.name else f"{self.example.name}/{timer}"

    def to_json(self, root: Path) -> dict:
        return {"kernel": self.name, "example": self.example.name,
                "source": self.example.source.relative_to(root).as_posix()
                if self.example.source.is_relative_to(root) else str(self.example.source),
                "why_memory_bound": MEMORY_BOUND.get(self.example.relpath),
                "timer": self.traffic.timer,
                "timer_lines": [self.traffic.start_line, self.traffic.stop_line],
                "bytes": self.traffic.bytes,
                "largest_datablock_bytes": self.traffic.largest_datablock,
                "launch_sites": [asdict(s) for s in self.traffic.sites],
                "baseline_elements": self.baseline.elements,
                "ours": asdict(self.ours), "openmp": asdict(self.openmp),
                "checksum": {**self.checksums, "match": not self.checksum_problem,
                             "problem": self.checksum_problem or None}}


def _measured(bytes_: int, times: list[float], baseline_gbps: float) -> Measured:
    best = min(times)
    gbps = bytes_ / best / 1e9
    efficiency = gbps / baseline_gbps
    return Measured(best, times, gbps, baseline_gbps, efficiency, band(efficiency))


def analyze_example(example: Example, workdir: Path, baselines: dict[int, Baseline], *,
                    size: str, threads: int, count: int, include: Path,
                    stage=lambda what: None) -> list[KernelResult]:
    """Every kernel timer of one example: bytes, both builds' times, both baselines (shared
    through ``baselines`` between kernels whose arrays have the same size)."""
    defines = [f"{size.upper()}_DATASET"]
    includes = [str(include)]
    stage("counting bytes")
    traffic = compile_traffic(example.source, defines=defines, includes=includes,
                              threads=threads)
    stage("building")
    builds = build_both(example.source, workdir, example.source.stem, defines=defines,
                        includes=includes, threads=threads)
    stage("running")
    results = run_both(builds, threads=threads, count=count)
    ok, problem = checksum_verdict(results["ours"][0].checksum, results["openmp"][0].checksum,
                                   example.tolerance)
    checksums = {"ours": results["ours"][0].checksum, "openmp": results["openmp"][0].checksum}
    kernels = []
    for t in traffic:
        elements = baseline_elements(t.largest_datablock)
        if elements not in baselines:
            stage(f"elementwise baseline, {elements} doubles per array")
            baselines[elements] = measure_baseline(elements, workdir, includes=includes,
                                                   threads=threads, count=count)
        baseline = baselines[elements]
        sides = {}
        for side, side_runs in results.items():
            times = [r.kernels.get(t.timer) for r in side_runs]
            if any(x is None for x in times):
                raise CartsError(f"the {side} build printed no 'kernel.{t.timer}:' line",
                                 str(example.source))
            if min(times) <= 0:
                raise CartsError(f"kernel '{t.timer}' took less than the timer resolves "
                                 f"({side} build); use a larger --size", str(example.source))
            sides[side] = _measured(t.bytes, times, baseline.mean_gbps(side))
        kernels.append(KernelResult(example, t, baseline, sides["ours"], sides["openmp"],
                                    checksums, "" if ok else problem))
    return kernels


# --------------------------------------------------------------------------- reporting


def _gbps(value: float) -> str:
    return f"{value:.1f}" if value >= 1 else f"{value:.2g}"


def _seconds(value: float) -> str:
    """Down to the microsecond the timers print."""
    return f"{value:.2f}" if value >= 10 else f"{value:.4f}" if value >= 1e-3 else f"{value:.6f}"


def _megabytes(value: int) -> str:
    mb = value / 1e6
    return f"{mb:,.1f}" if mb >= 10 else f"{mb:.3g}"


_BAND_STYLE = {"excellent": "green", "good": "cyan", "acceptable": "yellow",
               BELOW_BANDS: "red"}


def _efficiency_cell(m: Measured) -> str:
    return f"{m.efficiency * 100:.0f}% [{_BAND_STYLE[m.band]}]{m.band}[/]"


def results_table(kernels: list[KernelResult]):
    from rich import box
    from rich.table import Table

    table = Table(box=box.ROUNDED)
    table.add_column("Kernel", overflow="fold")
    table.add_column("MB moved", justify="right", no_wrap=True)
    for side in ("ours", "OpenMP"):
        table.add_column(f"{side} s", justify="right", no_wrap=True)
        table.add_column(f"{side} GB/s", justify="right", no_wrap=True)
        table.add_column(f"{side} baseline", justify="right", no_wrap=True)
        table.add_column(f"{side} efficiency", no_wrap=True)
    for k in kernels:
        row = [k.name, _megabytes(k.traffic.bytes)]
        for m in (k.ours, k.openmp):
            row += [_seconds(m.seconds), _gbps(m.gbps), _gbps(m.baseline_gbps),
                    _efficiency_cell(m)]
        table.add_row(*row)
    return table


def plot_baseline(kernels: list[KernelResult]) -> float:
    """The line drawn across the bar chart: the ``-fopenmp`` elementwise baseline (the
    conventional STREAM build, what the machine gives ordinary code), averaged over the
    array sizes of the kernels shown."""
    sizes = {k.baseline.elements: k.baseline for k in kernels}
    return sum(b.mean_gbps("openmp") for b in sizes.values()) / len(sizes)


def json_report(kernels: list[KernelResult], baselines: dict[int, Baseline], args,
                root: Path, seconds: float) -> dict:
    return {
        "machine": {"hostname": socket.gethostname(), "cpu_count": os.cpu_count(),
                    "platform": platform.platform(), "machine": platform.machine()},
        "versions": {"carts_mlir": __version__, "python": platform.python_version()},
        "config": {"size": args.size, "threads": args.threads, "runs": args.runs,
                   "elementwise_reps": ELEMENTWISE_REPS, "examples": str(root)},
        "method": {"bytes": "task launches between the kernel timer's clock reads, from the "
                            "IR after the epochs stage: each datablock read once and written "
                            "once per run of a launch",
                   "seconds": "best of the runs of the kernel timer",
                   "baseline": "mean of copy/scale/add/triad GB/s, each its best repetition, "
                               "arrays as large as the kernel's largest datablock",
                   "units": "MB = 1e6 bytes, GB/s = 1e9 bytes per second"},
        "bands": [{"above": fraction, "band": label} for fraction, label in BANDS]
        + [{"above": 0.0, "band": BELOW_BANDS}],
        "kernels": [k.to_json(root) for k in kernels],
        "baselines": [baselines[n].to_json() for n in sorted(baselines)],
        "plot_baseline_gbps": plot_baseline(kernels) if kernels else None,
        "total_seconds": seconds,
    }


def _notes(kernels: list[KernelResult], runs_: int) -> list[str]:
    from rich.markup import escape

    notes = [f"GB/s = bytes the task launches must move (IR after the epochs stage) / kernel "
             f"time, best of {runs_} run{'s' if runs_ != 1 else ''}; baseline = mean GB/s of "
             f"copy, scale, add, triad (best repetition) on arrays as large as the kernel's "
             f"largest datablock, each build against its own"]
    bands = ", ".join(f">{f * 100:g}% {label}" for f, label in BANDS)
    notes.append(f"bands: {bands}, below {BANDS[-1][0] * 100:g}% {BELOW_BANDS}")
    for k in kernels:
        if k.checksum_problem:
            notes.append(f"[red]✗[/] {escape(k.name)}: {escape(k.checksum_problem)}: its "
                         "bandwidth is of a wrong result")
        for side, m in (("ours", k.ours), ("OpenMP", k.openmp)):
            if m.efficiency > 1.0:
                notes.append(f"[yellow]![/] {escape(k.name)} ({side}) is above its baseline: "
                             "data that stays in cache between its launches is charged as "
                             "memory traffic each time (launch sites in the JSON report), "
                             "or the baseline's runs were disturbed")
    return notes


# --------------------------------------------------------------------------- command


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="carts analyze bandwidth",
                             description="Achieved bandwidth of the memory-bound kernels "
                                         "against an elementwise baseline, ours and OpenMP's.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"examples (default: {', '.join(MEMORY_BOUND)})")
    parser.add_argument("--size", choices=SIZES, default="small")
    parser.add_argument("--threads", type=positive_number(int), default=os.cpu_count() or 1)
    parser.add_argument("--runs", type=positive_number(int), default=3, metavar="K",
                        help="runs of each build; the best counts (default 3)")
    parser.add_argument("--json", type=Path, metavar="F", help="write every number as JSON")
    parser.add_argument("--plot", type=Path, metavar="F.png",
                        help="write a bar chart of the bandwidths")
    parser.add_argument("--examples", type=Path, metavar="DIR",
                        help="examples directory (default: the repository's examples/)")
    return parser


def memory_bound_examples(root: Path, names: list[str]) -> list[Example]:
    """The :data:`MEMORY_BOUND` examples under ``root``, narrowed to ``names`` if any."""
    examples = select(discover_examples(root), list(MEMORY_BOUND))
    return select(examples, names)


def _console():
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 180  # a pipe or a log file: the table keeps its natural width
    return console


@dataclass(repr=False)
class BandwidthReport:
    """What :func:`analyze` measured: every kernel, the baselines, the settings. In a notebook
    it shows itself as a table; :meth:`plot` draws the bar chart."""

    kernels: list[KernelResult]
    baselines: dict[int, Baseline]
    size: str
    threads: int
    runs: int
    root: Path
    seconds: float

    def records(self) -> list[dict]:
        """One flat row per kernel: bytes, both sides' seconds, GB/s, baseline, efficiency
        and band."""
        rows = []
        for k in self.kernels:
            row = {"kernel": k.name, "mb_moved": k.traffic.bytes / 1e6}
            for side, m in (("ours", k.ours), ("openmp", k.openmp)):
                row.update({f"{side}_s": m.seconds, f"{side}_gbps": m.gbps,
                            f"{side}_baseline_gbps": m.baseline_gbps,
                            f"{side}_efficiency": m.efficiency, f"{side}_band": m.band})
            row["checksums_match"] = not k.checksum_problem
            rows.append(row)
        return rows

    def table(self):
        return as_table(self.records())

    def kernel(self, name: str) -> KernelResult:
        for k in self.kernels:
            if k.name == name:
                return k
        raise CartsError(f"no kernel '{name}' (kernels: "
                         f"{', '.join(k.name for k in self.kernels)})")

    def plot(self, path: str | os.PathLike | None = None):
        """Bars of ours and OpenMP's GB/s per kernel over the efficiency bands of the
        ``-fopenmp`` baseline (a matplotlib Figure; also written to ``path``)."""
        return bandwidth_bars([(k.name, k.ours.gbps, k.openmp.gbps) for k in self.kernels],
                              baseline=plot_baseline(self.kernels), bands=BANDS, path=path,
                              title=f"achieved bandwidth, {self.size}, {self.threads} threads "
                                    f"(line: -fopenmp elementwise baseline)")

    def to_json(self) -> dict:
        args = argparse.Namespace(size=self.size, threads=self.threads, runs=self.runs)
        return json_report(self.kernels, self.baselines, args, self.root, self.seconds)

    def __repr__(self) -> str:
        kernels = ", ".join(f"{k.name} {k.ours.efficiency:.0%}/{k.openmp.efficiency:.0%}"
                            for k in self.kernels)
        return (f"BandwidthReport(size={self.size}, threads={self.threads}, efficiency "
                f"ours/OpenMP: {kernels})")

    def _repr_html_(self) -> str:
        from html import escape

        head = ("<tr><th>kernel</th><th>MB moved</th>"
                + "".join(f"<th>{s} s</th><th>{s} GB/s</th><th>{s} baseline</th>"
                          f"<th>{s} efficiency</th>" for s in ("ours", "OpenMP")) + "</tr>")
        body = ""
        for k in self.kernels:
            cells = [escape(k.name), _megabytes(k.traffic.bytes)]
            for m in (k.ours, k.openmp):
                cells += [_seconds(m.seconds), _gbps(m.gbps), _gbps(m.baseline_gbps),
                          f"{m.efficiency * 100:.0f}% {m.band}"]
            body += "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
        return (f"<p>size={escape(self.size)}, threads={self.threads}, best of {self.runs} "
                f"run(s)</p><table>{head}{body}</table>")


def analyze(names=(), *, size: str = "small", threads: int | None = None, runs: int = 3,
            examples: str | os.PathLike | None = None,
            progress=lambda example, what: None) -> BandwidthReport:
    """Measure the memory-bound examples ``names`` (default: all of :data:`MEMORY_BOUND`):
    bytes from the IR, both builds' kernel times, both baselines. ``progress(example,
    what)`` is told what is being done."""
    if size not in SIZES:
        raise CartsError(f"unknown size '{size}' (sizes: {', '.join(SIZES)})")
    root = Path(examples).absolute() if examples is not None else default_examples_root()
    elementwise_source()
    return analyze_examples(memory_bound_examples(root, list(names)), root, size=size,
                            threads=threads or os.cpu_count() or 1, runs=runs,
                            progress=progress)


def analyze_examples(chosen: list[Example], root: Path, *, size: str, threads: int, runs: int,
                     progress=lambda example, what: None) -> BandwidthReport:
    """:func:`analyze` of examples already chosen under ``root``."""
    started = time.perf_counter()
    kernels: list[KernelResult] = []
    baselines: dict[int, Baseline] = {}
    with tempfile.TemporaryDirectory(prefix="carts-bandwidth-") as workdir:
        for ex in chosen:
            kernels += analyze_example(ex, Path(workdir), baselines, size=size,
                                       threads=threads, count=runs,
                                       include=root / "include",
                                       stage=lambda what, ex=ex: progress(ex, what))
    return BandwidthReport(kernels, baselines, size, threads, runs, root,
                           time.perf_counter() - started)


def bandwidth_main(argv: list[str]) -> int:
    """``carts analyze bandwidth ...``; user errors raise :class:`CartsError`."""
    from rich.markup import escape
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help
        return int(done.code or 0)
    root = args.examples.absolute() if args.examples is not None else default_examples_root()
    examples = memory_bound_examples(root, args.names)
    if args.json is not None:
        check_destination(args.json)
    if args.plot is not None:
        check_plot_path(args.plot)  # before minutes of measuring, not after
    elementwise_source()
    console = _console()
    console.print(f"Bandwidth: size={args.size}, threads={args.threads}, runs={args.runs}, "
                  f"examples: {', '.join(ex.name for ex in examples)}")
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=console, transient=True,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task("", total=len(examples))
        done: set[str] = set()

        def tell(example: Example, what: str) -> None:
            if what == "counting bytes" and done:
                progress.advance(task)
            done.add(example.name)
            progress.update(task, description=f"{example.name}: {what}")

        report = analyze_examples(examples, root, size=args.size, threads=args.threads,
                                  runs=args.runs, progress=tell)
    console.print(results_table(report.kernels))
    for note in _notes(report.kernels, args.runs):
        console.print(note, soft_wrap=True)
    if args.json is not None:
        write_atomically(args.json, json.dumps(report.to_json(), indent=2) + "\n")
        console.print(f"JSON report: {escape(str(args.json))}")
    if args.plot is not None:
        report.plot(args.plot)
        console.print(f"plot: {escape(str(args.plot))}")
    console.print(f"⏱ {report.seconds:.1f}s")
    return 0
