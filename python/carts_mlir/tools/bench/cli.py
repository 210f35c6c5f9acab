"""``carts benchmarks``: our build of each example against the OpenMP build of the same source.

    carts benchmarks list [--size SIZE] [--examples DIR]
    carts benchmarks build [NAME...] --out DIR [--size S,...] [--threads T,...] [--cpu CPU]
    carts benchmarks run [NAME...] [--size mini|small|medium|large] [--threads N] [--nodes N]
                         [--runs K] [--timeout S] [--trace] [--no-verify] [--json OUT]
                         [--plot PNG] [--examples DIR]

Discovery. Every directory under ``examples/`` holding a ``.c`` file is an example (``include/``
holds only headers). Its source is the only ``.c`` file, else the one named after the directory,
else the one defining ``main``. Its short name is the directory name (``polybench/gemm`` ->
``gemm``); the relative path is accepted too and replaces the short name when two collide. The
sizes shown by ``list`` are read from the source's ``#if defined(MINI_DATASET)`` / ``#elif`` /
``#else /* SMALL_DATASET */`` chain (every ``#define`` of a branch, ``_DEFAULT`` dropped).

Per-example configuration is one comment line in the source, ``carts-benchmarks: key=value ...``;
the only key is ``tolerance`` (relative checksum tolerance, default 1e-2), e.g.
``/* carts-benchmarks: tolerance=1e-4 */``.

Each benchmark is built and run twice, every subprocess under ``--timeout`` (default 60 s):

- ours: ``carts execute FILE.c -O3 -D<SIZE>_DATASET -I examples/include --threads N``
  (``--nodes M --stats`` added when M > 1: M Ray node actors of N workers each, and the
  per-node counters go into the JSON report), with ``threads=N`` and ``OMP_NUM_THREADS=N`` in
  its environment. Build ARTS is ``carts execute --compile-only -o EXE``; on one node the runs
  run that native executable, on several nodes ``carts execute`` again, which compiles again
  (the ``carts execute: compiled in <S>s`` it prints is subtracted, and a run that does not
  print it is marked ``*``: it includes compilation). Other ``carts execute:`` lines on
  stderr are shown once as notes.
- OpenMP: ``$CC -O3 -fopenmp FILE.c -I examples/include -D<SIZE>_DATASET -lm`` (``CC``
  defaults to ``cc``), run with ``OMP_NUM_THREADS=N`` (``N x M`` with ``--nodes M``: as
  many threads as our run has workers).

Both programs print ``kernel.<name>: <s>s``, ``e2e.<name>: <s>s`` and ``checksum: <v>``
(``examples/include/carts_bench.h``). A result is correct when both runs exit 0, both print a
checksum and ``|ours - omp| / max(|omp|, 1e-10) <= tolerance`` for every run. Speedup is
``omp / ours`` over the sum of ``kernel.`` times, else ``e2e.`` times, else process wall time
(the basis is shown as ``k``/``e``/``w``); with ``--runs K`` the median over runs is used and
the best is recorded in the JSON report. The exit code is 1 when any of our builds or runs
failed or any verified result is incorrect (an OpenMP reference that fails makes the result
incorrect, since nothing can be compared), 0 otherwise; with ``--no-verify`` our successful
runs count as skipped.

``--plot PNG`` draws the speedups as bars (:func:`carts_mlir.tools.plots.speedup_bars`), one per
benchmark in the table's order, with their geometric mean; a benchmark without a speedup that
counts keeps its row, labelled with why (``failed``, ``OpenMP failed``, ``wrong result``,
``n/a``). A suffix other than ``.png`` picks another format matplotlib writes (``.svg``,
``.pdf``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

from ... import __version__
from ...arguments import ArgumentParser, positive_number
from ...files import check_destination
from ..plots import check_plot_path, speedup_bars
from .build import build_main
from .discovery import SIZES, default_examples_root, discover_examples, select
from .report import (count_verdicts, counts_line, escape_markup, json_report, make_console,
                     plot_row, plot_title, print_trace, ratio_text, report_notes, results_table,
                     write_json_atomically)
from ..suite_runner import geometric_mean
from .running import BenchResult, RunConfig, run_benchmark


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="carts benchmarks",
                             description="Build and run the examples: ours against OpenMP.")
    actions = parser.add_subparsers(dest="action", metavar="{list,run,build}")
    listing = actions.add_parser("list", help="the benchmarks and their sizes")
    run = actions.add_parser("run", help="build, run and compare benchmarks")
    build = actions.add_parser(
        "build", help="write both native executables of every example and a runner script")
    build.add_argument("names", nargs="*", metavar="NAME", help="benchmarks (default: all)")
    build.add_argument("--out", type=Path, required=True, metavar="DIR")
    build.add_argument("--size", default="small", metavar="S[,S...]")
    build.add_argument("--threads", default=str(os.cpu_count() or 1), metavar="T[,T...]")
    build.add_argument("--cpu", default="x86-64-v3",
                       help="target CPU of both builds (default x86-64-v3)")
    for sub in (listing, run, build):
        sub.add_argument("--examples", type=Path, metavar="DIR",
                         help="examples directory (default: the repository's examples/)")
    listing.add_argument("--size", choices=SIZES, help="show only this size")
    run.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (default: all)")
    run.add_argument("--size", choices=SIZES, default="small")
    run.add_argument("--threads", type=positive_number(int), default=os.cpu_count() or 1)
    run.add_argument("--nodes", type=positive_number(int), default=1)
    run.add_argument("--runs", type=positive_number(int), default=1, metavar="K")
    run.add_argument("--timeout", type=positive_number(float), default=60.0, metavar="S",
                     help="seconds per build and per run (default 60)")
    run.add_argument("--trace", action="store_true", help="show both programs' output")
    run.add_argument("--no-verify", dest="verify", action="store_false",
                     help="do not compare checksums")
    run.add_argument("--json", type=Path, metavar="OUT", help="write a JSON report")
    run.add_argument("--plot", type=Path, metavar="PNG", help="draw the speedups as bars")
    return parser


def list_main(root: Path, sizes: tuple[str, ...] = SIZES) -> int:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=f"Benchmarks in {root}", title_justify="left")
    for title in ("Benchmark", "Source", "Tolerance", "Size", "Dimensions"):
        table.add_column(title, no_wrap=title != "Dimensions")
    for ex in discover_examples(root):
        rows = [(s, " ".join(f"{d}={v}" for d, v in zip(ex.dimensions, ex.sizes[s])))
                for s in sizes if s in ex.sizes] or [("-", "-")]
        for k, (size, dims) in enumerate(rows):
            head = (ex.name, ex.source.relative_to(root).as_posix(), f"{ex.tolerance:g}")
            table.add_row(*(head if k == 0 else ("", "", "")), size, dims,
                          end_section=len(rows) > 1 and k == len(rows) - 1)
    make_console().print(table)
    return 0


def run_main(args: argparse.Namespace, root: Path) -> int:
    from rich.panel import Panel
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                               TextColumn, TimeElapsedColumn)

    examples = select(discover_examples(root), args.names)
    if args.json is not None:
        check_destination(args.json)  # before the runs, not after minutes of them
    if args.plot is not None:
        check_plot_path(args.plot)  # before the runs, not after minutes of them
    cfg = RunConfig(size=args.size, threads=args.threads, nodes=args.nodes, runs=args.runs,
                    timeout=args.timeout, verify=args.verify, trace=args.trace,
                    include=root / "include", cc=shlex.split(os.environ.get("CC") or "cc"))
    console = make_console()
    title = f"CARTS Benchmark Runner v{__version__}"
    console.print(title, style="bold")
    console.print("━" * len(title))
    console.print(f"Config: size={cfg.size}, threads={cfg.threads}, nodes={cfg.nodes}, "
                  f"runs={cfg.runs}, timeout={cfg.timeout:g}s, verify={cfg.verify}")
    console.print(f"Benchmarks: {len(examples)}")
    start = time.perf_counter()
    results: list[BenchResult] = []
    with tempfile.TemporaryDirectory(prefix="carts-benchmarks-") as workdir, Progress(
            SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=console, transient=True,
            disable=not console.is_terminal) as progress:
        task = progress.add_task("", total=len(examples))
        for ex in examples:
            def stage(what: str, name: str = ex.name) -> None:
                progress.update(task, description=f"{name}: {what}")

            results.append(run_benchmark(ex, cfg, Path(workdir), stage))
            if cfg.trace:
                print_trace(console, results[-1], cfg.threads)
            progress.advance(task)
    total = time.perf_counter() - start
    counts = count_verdicts(results)
    console.print()
    console.print(results_table(results))
    console.print(counts_line(counts, total))
    for note in report_notes(results, cfg):
        console.print(note, soft_wrap=True)
    geomean = geometric_mean([r.speedup for r in results if r.correct == "pass" and r.speedup])
    summary = counts_line(counts, total)
    if geomean is not None:
        summary = summary.replace("  ⏱", f"  geomean speedup {ratio_text(geomean)}  ⏱")
    if args.json is not None:
        write_json_atomically(args.json, json_report(results, cfg, root, total))
        summary += f"\nJSON report: {escape_markup(str(args.json))}"
    if args.plot is not None:
        speedup_bars([plot_row(r) for r in results], title=plot_title(cfg), path=args.plot)
        summary += f"\nPlot: {escape_markup(str(args.plot))}"
    console.print()
    console.print(Panel(summary, title="Summary", expand=False))
    return 1 if counts["failed"] else 0


def benchmarks_main(argv: list[str]) -> int:
    """``carts benchmarks list|run ...``; user errors raise :class:`CartsError`."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help
        return int(done.code or 0)
    if args.action is None:
        parser.print_usage(sys.stderr)
        print("error: an action is required (list, run or build)", file=sys.stderr)
        return 2
    root = args.examples.absolute() if args.examples is not None else default_examples_root()
    if args.action == "list":
        return list_main(root, (args.size,) if args.size else SIZES)
    if args.action == "build":
        return build_main(args, root)
    return run_main(args, root)
