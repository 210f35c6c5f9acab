"""What a benchmark run reports: the table, the notes, the JSON report, the plot rows."""

from __future__ import annotations

import json
import math
import os
import platform
import shlex
import socket
import statistics
import subprocess
from pathlib import Path

from ... import __version__
from ...files import write_atomically
from ..suite_runner import geometric_mean
from .running import (BenchResult, COMPILED_MARKER, RunConfig, Step, display,
                      node_stats, omp_threads, ours_command, parse_output)


BASIS_MARK = {"kernel": "k", "e2e": "e", "wall": "w"}


def _finite(value):
    return value if not isinstance(value, float) or math.isfinite(value) else repr(value)


def _step_json(step: Step) -> dict:
    return {"status": step.status, "seconds": step.seconds, "returncode": step.returncode,
            "command": display(step.command) if step.command else None,
            "detail": step.detail or None}


def _runs_json(steps: list[Step]) -> list[dict]:
    runs = []
    for step in steps:
        out = parse_output(step.stdout)
        runs.append(_step_json(step) | {"checksum": _finite(out.checksum), "kernel": out.kernel,
                                        "e2e": out.e2e, "includes_compile": step.includes_compile,
                                        "node_stats": node_stats(step.stderr)})
    return runs


def json_report(results: list[BenchResult], cfg: RunConfig, root: Path, total: float) -> dict:
    def checksum(steps: list[Step]):
        return _finite(parse_output(steps[0].stdout).checksum) if steps and steps[0].ok else None

    correct = [r.speedup for r in results if r.correct == "pass" and r.speedup]
    return {
        "machine": {"hostname": socket.gethostname(), "cpu_count": os.cpu_count(),
                    "platform": platform.platform(), "machine": platform.machine()},
        "versions": {"carts_mlir": __version__, "python": platform.python_version(),
                     "cc": cc_version(cfg.cc)},
        "config": {"size": cfg.size, "threads": cfg.threads, "nodes": cfg.nodes,
                   "omp_threads": omp_threads(cfg),
                   "runs": cfg.runs, "timeout": cfg.timeout, "verify": cfg.verify,
                   "cc": shlex.join(cfg.cc), "examples": str(root),
                   "arts_build": "compile-only"},
        "benchmarks": [{
            "name": r.example.name, "source": r.example.source.relative_to(root).as_posix(),
            "tolerance": r.example.tolerance, "verdict": r.verdict,
            "build_arts": _step_json(r.build_arts), "build_omp": _step_json(r.build_omp),
            "run_arts": _runs_json(r.runs_arts), "run_omp": _runs_json(r.runs_omp),
            "checksum": {"arts": checksum(r.runs_arts), "omp": checksum(r.runs_omp)},
            "relative_error": _finite(r.relative_error), "correct": r.correct,
            "speedup": r.speedup, "speedup_basis": r.basis, "times": r.times,
            "problems": r.problems,
        } for r in results],
        "summary": {**count_verdicts(results), "geomean_speedup": geometric_mean(correct),
                    "total_seconds": total},
    }


def write_json_atomically(path: Path, data: dict) -> None:
    write_atomically(path, json.dumps(data, indent=2) + "\n")


def cc_version(cc: list[str]) -> str | None:
    try:
        out = subprocess.run([*cc, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.splitlines()[0].strip() if out.returncode == 0 and out.stdout else None


def count_verdicts(results: list[BenchResult]) -> dict[str, int]:
    verdicts = [r.verdict for r in results]
    return {"passed": verdicts.count("pass"), "failed": verdicts.count("fail"),
            "skipped": verdicts.count("skip")}


_CORRECT_CELL = {"pass": "[green]✓[/] pass", "fail": "[red]✗[/] fail", "skip": "[yellow]○[/] skip",
                 "n/a": "[dim]-[/] N/A"}


def _seconds(value: float) -> str:
    return f"{value:.2f}s" if value < 1 else f"{value:.1f}s"


def _build_cell(step: Step) -> str:
    if step.status == "ok":
        return "[green]✓[/]" + (f" {_seconds(step.seconds)}" if step.seconds is not None else "")
    if step.status == "fail":
        return "[red]✗[/]" + (f" {_seconds(step.seconds)}" if step.seconds is not None else " fail")
    return {"timeout": "[red]✗[/] timeout", "skip": "[yellow]○[/] skip"}.get(step.status, "? -")


def _run_cell(steps: list[Step]) -> str:
    bad = next((s for s in steps if not s.ok), None)
    if bad is not None:
        return {"skip": "[yellow]○[/] skip", "timeout": "[red]✗[/] timeout"}.get(
            bad.status, "[red]✗[/] fail")
    median = statistics.median(s.seconds or 0.0 for s in steps)
    return f"[green]✓[/] {_seconds(median)}" + ("*" if steps[0].includes_compile else "")


def ratio_text(value: float) -> str:
    return f"{value:.0f}x" if value >= 100 else f"{value:.1f}x" if value >= 10 else f"{value:.2f}x"


def _speedup_cell(r: BenchResult) -> str:
    return f"{ratio_text(r.speedup)} {BASIS_MARK[r.basis]}" if r.speedup and r.basis else "-"


def make_console():
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 160  # a pipe or a log file: tables keep their natural width
    return console


def results_table(results: list[BenchResult]):
    from rich import box
    from rich.table import Table

    table = Table(box=box.ROUNDED)
    table.add_column("Benchmark", overflow="fold")  # the column that gives way on a narrow terminal
    for title in ("Build ARTS", "Build OMP", "Run ARTS", "Run OMP", "Correct"):
        table.add_column(title, justify="center", no_wrap=True)
    table.add_column("Speedup", justify="right", no_wrap=True)
    for r in results:
        table.add_row(r.example.name, _build_cell(r.build_arts), _build_cell(r.build_omp),
                      _run_cell(r.runs_arts), _run_cell(r.runs_omp), _CORRECT_CELL[r.correct],
                      _speedup_cell(r))
    return table


def counts_line(counts: dict[str, int], seconds: float) -> str:
    return (f"[green]✓[/] {counts['passed']} passed  [red]✗[/] {counts['failed']} failed  "
            f"[yellow]○[/] {counts['skipped']} skipped  ⏱ {seconds:.2f}s")


def print_trace(console, r: BenchResult, threads: int) -> None:
    omp_env = f"OMP_NUM_THREADS={threads} "
    for side, build, run, env in (
            ("CARTS", r.build_arts, r.runs_arts[-1], f"threads={threads} {omp_env}"),
            ("OMP", r.build_omp, r.runs_omp[-1], omp_env)):
        console.print()
        console.print(f"═══ {side} Output ({r.example.name}) ═══", style="bold", markup=False)
        steps = [(s, "" if s is build and side == "OMP" else env) for s in (build, run)
                 if s.command and (s.stdout or s.stderr)]
        if not steps:
            console.print("(no output)", style="dim")
        for step, prefix in steps:
            console.print(f"$ {prefix}{display(step.command)}", style="dim", markup=False,
                          soft_wrap=True)
            if step.stdout.strip():
                console.out(step.stdout.rstrip(), highlight=False)
            if step.stderr.strip():
                console.print("--- stderr ---", style="dim", markup=False)
                console.out(step.stderr.rstrip(), highlight=False)


def report_notes(results: list[BenchResult], cfg: RunConfig) -> list[str]:
    """Problems per benchmark (with a reproducing command), then legends and notices."""
    notes: list[str] = []
    env = f"threads={cfg.threads} OMP_NUM_THREADS={cfg.threads} "
    for r in results:
        for problem in r.problems:
            notes.append(f"[red]✗[/] {r.example.name}: {escape_markup(problem)}")
        if not r.ours_ok:
            command = env + display(ours_command(r.example, cfg))
            notes.append(f"  reproduce with: {escape_markup(command)}")
    if any(runs and runs[0].includes_compile for runs in (r.runs_arts for r in results)):
        notes.append("* Run ARTS includes compilation: carts execute compiles and runs in one "
                     "command")
    if any(r.speedup for r in results):
        runs = "median of the runs" if cfg.runs > 1 else "one run"
        notes.append(f"Speedup = OMP time / CARTS time ({runs}); basis: k = kernel timers, "
                     "e = e2e timers, w = process wall time")
    seen: list[str] = []
    for r in results:
        for step in r.runs_arts:
            for line in step.stderr.splitlines():
                notice = line.startswith("carts execute:") and not COMPILED_MARKER.match(line) \
                    and "per-node counters" not in line
                if notice and line not in seen:
                    seen.append(line)
    notes += [f"note: {escape_markup(line)}" for line in seen]
    return notes


def escape_markup(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def plot_row(r: BenchResult) -> tuple[str, float | str | None]:
    """A benchmark's bar: its speedup, or why it has none worth drawing (a wrong result's
    time is no achievement)."""
    if not r.ours_ok:
        return r.example.name, "failed"
    if not r.omp_ok:
        return r.example.name, "OpenMP failed"
    if r.correct == "fail":
        return r.example.name, "wrong result"
    return r.example.name, r.speedup


def plot_title(cfg: RunConfig) -> str:
    def count(n: int, what: str) -> str:
        return f"{n} {what}" + ("s" if n > 1 else "")

    unverified = ", unverified" if not cfg.verify else ""
    return (f"Speedup over OpenMP ({cfg.size}, {count(cfg.threads, 'thread')}, "
            f"{count(cfg.nodes, 'node')}{unverified})")
