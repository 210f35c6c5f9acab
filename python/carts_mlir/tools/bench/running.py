"""Building and running one example both ways, and judging the result."""

from __future__ import annotations

import math
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..suite_runner import CHECKSUM, TIMER
from .discovery import Example


OURS_PREFIX = [sys.executable, "-m", "carts_mlir", "execute"]
COMPILED_MARKER = re.compile(r"^carts execute: compiled in ([0-9.]+)s\s*$", re.M)


@dataclass
class ProgramOutput:
    """What a benchmark program printed under the ``carts_bench.h`` contract."""

    kernel: dict[str, float] = field(default_factory=dict)
    e2e: dict[str, float] = field(default_factory=dict)
    checksum: float | None = None


def parse_output(stdout: str) -> ProgramOutput:
    """Timers (repeated names are summed) and the last ``checksum:`` line."""
    out = ProgramOutput()
    for kind, name, seconds in TIMER.findall(stdout):
        timers = out.kernel if kind == "kernel" else out.e2e
        timers[name] = timers.get(name, 0.0) + float(seconds)
    checksums = CHECKSUM.findall(stdout)
    if checksums:
        try:
            out.checksum = float(checksums[-1])
        except ValueError:
            out.checksum = math.nan
    return out


def relative_error(ours: float, reference: float) -> float:
    return abs(ours - reference) / max(abs(reference), 1e-10)


def checksum_verdict(ours: float | None, reference: float | None,
                     tolerance: float) -> tuple[bool, str]:
    """Whether our checksum matches the reference, and why not."""
    if ours is None or reference is None:
        side = "CARTS" if ours is None else "OMP"
        return False, f"no checksum line in the {side} output"
    error = relative_error(ours, reference)
    if error <= tolerance:
        return True, ""
    return False, (f"checksum {ours:.12e} (CARTS) vs {reference:.12e} (OMP): "
                   f"relative error {error:.3e} > tolerance {tolerance:g}")


@dataclass
class Step:
    """One subprocess (a build or a run), or a step that did not happen (``skip``)."""

    status: str  # ok | fail | timeout | skip
    seconds: float | None = None
    command: list[str] = field(default_factory=list)
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    detail: str = ""
    includes_compile: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def run_command(command: list[str], *, env: dict[str, str], cwd: Path, timeout: float) -> Step:
    """Run ``command`` in its own process group; on timeout the whole group is killed."""
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, errors="replace", env=env, cwd=cwd,
                                start_new_session=True)
    except OSError as err:
        return Step("fail", None, command, detail=f"cannot run {command[0]}: {err.strerror}")
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        stdout, stderr = proc.communicate()
        return Step("timeout", time.perf_counter() - start, command, None, stdout, stderr,
                    f"timed out after {timeout:g}s")
    except BaseException:
        _kill_group(proc)
        raise
    seconds = time.perf_counter() - start
    step = Step("ok" if proc.returncode == 0 else "fail", seconds, command, proc.returncode,
                stdout, stderr)
    if not step.ok:
        code = proc.returncode
        killed = code < 0 and -code in signal.valid_signals()
        why = f"killed by {signal.Signals(-code).name}" if killed else f"exit code {code}"
        last = next((l.strip() for l in reversed(stderr.splitlines()) if l.strip()), "")
        step.detail = f"{why}: {last[:200]}" if last else why
    return step


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@dataclass
class RunConfig:
    size: str = "small"
    threads: int = 1
    nodes: int = 1
    runs: int = 1
    timeout: float = 60.0
    verify: bool = True
    trace: bool = False
    include: Path = Path("include")
    cc: list[str] = field(default_factory=lambda: ["cc"])


def display(command: list[str]) -> str:
    """A command as the user would type it (``carts execute`` rather than the interpreter)."""
    if command[: len(OURS_PREFIX)] == OURS_PREFIX:
        command = ["carts", "execute", *command[len(OURS_PREFIX):]]
    return shlex.join(command)


def ours_command(ex: Example, cfg: RunConfig) -> list[str]:
    cmd = [*OURS_PREFIX, str(ex.source), "-O3", f"-D{cfg.size.upper()}_DATASET",
           "-I", str(cfg.include), "--threads", str(cfg.threads)]
    return cmd + (["--nodes", str(cfg.nodes), "--stats"] if cfg.nodes > 1 else [])


def omp_threads(cfg: RunConfig) -> int:
    """OpenMP threads of the reference run: as many as our run has workers in all."""
    return cfg.threads * cfg.nodes


_STATS_ROW = re.compile(r"^\s*(\d+)((?:\s+\d+){8})\s*$", re.M)


_STATS_KEYS = ("tasks_run", "tasks_received", "messages_sent", "messages_received",
               "bytes_sent", "bytes_received", "db_bytes_sent", "db_bytes_received")


def node_stats(stderr: str) -> list[dict[str, int]]:
    """The per-node counters ``carts execute --stats`` printed (empty if none)."""
    if "per-node counters" not in stderr:
        return []
    table = stderr[stderr.index("per-node counters"):]
    return [{"node": int(m.group(1)), **dict(zip(_STATS_KEYS, map(int, m.group(2).split())))}
            for m in _STATS_ROW.finditer(table)]


def omp_build_command(ex: Example, cfg: RunConfig, exe: Path) -> list[str]:
    return [*cfg.cc, "-O3", "-fopenmp", str(ex.source), "-I", str(cfg.include),
            f"-D{cfg.size.upper()}_DATASET", "-lm", "-o", str(exe)]


@dataclass
class BenchResult:
    example: Example
    build_arts: Step
    build_omp: Step
    runs_arts: list[Step]
    runs_omp: list[Step]
    correct: str = "n/a"  # pass | fail | skip | n/a
    relative_error: float | None = None
    speedup: float | None = None
    basis: str | None = None
    times: dict[str, dict[str, float]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ours_ok(self) -> bool:
        return self.build_arts.ok and bool(self.runs_arts) and all(
            r.ok for r in self.runs_arts)

    @property
    def omp_ok(self) -> bool:
        return self.build_omp.ok and bool(self.runs_omp) and all(r.ok for r in self.runs_omp)

    @property
    def verdict(self) -> str:
        if not self.ours_ok or self.correct == "fail":
            return "fail"
        return "pass" if self.correct == "pass" else "skip"


def _repeat(command: list[str], times: int, **kwargs) -> list[Step]:
    steps: list[Step] = []
    for _ in range(times):
        steps.append(run_command(command, **kwargs))
        if not steps[-1].ok:
            break
    return steps


def run_ours(ex: Example, cfg: RunConfig, workdir: Path) -> tuple[Step, list[Step]]:
    """Build ARTS (``carts execute --compile-only``) and the runs: of the native executable it
    wrote on one node, of ``carts execute`` (which compiles again) on several."""
    command = ours_command(ex, cfg)
    env = os.environ | {"threads": str(cfg.threads), "OMP_NUM_THREADS": str(cfg.threads)}
    kwargs = dict(env=env, cwd=workdir, timeout=cfg.timeout)
    exe = workdir / f"{ex.name.replace('/', '_')}_arts"
    native = cfg.nodes == 1
    build = run_command([*command, "--compile-only", *(["-o", str(exe)] if native else [])],
                        **kwargs)
    if not build.ok:
        return build, [Step("skip")]
    if native:  # the executable execute wrote: the same code as its JIT, no compile inside
        command = [str(exe)]
    runs = _repeat(command, cfg.runs, **kwargs)
    for run in runs:
        marker = COMPILED_MARKER.search(run.stderr)
        if marker and run.seconds is not None:
            run.seconds = max(run.seconds - float(marker.group(1)), 0.0)
        run.includes_compile = marker is None and not native
    return build, runs


def run_omp(ex: Example, cfg: RunConfig, workdir: Path) -> tuple[Step, list[Step]]:
    exe = workdir / f"{ex.name.replace('/', '_')}.omp"
    env = os.environ | {"OMP_NUM_THREADS": str(omp_threads(cfg))}
    build = run_command(omp_build_command(ex, cfg, exe), env=dict(os.environ), cwd=workdir,
                        timeout=cfg.timeout)
    if not build.ok:
        return build, [Step("skip")]
    return build, _repeat([str(exe)], cfg.runs, env=env, cwd=workdir, timeout=cfg.timeout)


def _basis_times(steps: list[Step]) -> dict[str, list[float]]:
    """Per basis, the time of every run (a basis is dropped if a run lacks it)."""
    outputs = [parse_output(s.stdout) for s in steps]
    times = {"kernel": [sum(o.kernel.values()) for o in outputs],
             "e2e": [sum(o.e2e.values()) for o in outputs],
             "wall": [s.seconds or 0.0 for s in steps]}
    return {b: t for b, t in times.items() if t and all(x > 0 for x in t)}


def evaluate(result: BenchResult, verify: bool) -> None:
    """Fill in correctness, relative error and speedup from the runs."""
    r = result
    for label, step in (("CARTS build", r.build_arts), ("OMP build", r.build_omp)):
        if step.status in ("fail", "timeout") and step.detail:
            r.problems.append(f"{label}: {step.detail}")
    for label, steps in (("CARTS run", r.runs_arts), ("OMP run", r.runs_omp)):
        bad = next((s for s in steps if s.status in ("fail", "timeout")), None)
        if bad:
            r.problems.append(f"{label}: {bad.detail}")
    if not r.ours_ok:
        r.correct = "n/a"
    elif not verify:
        r.correct = "skip"
    elif not r.omp_ok:
        r.correct = "fail"
        r.problems.append("no OMP reference to verify against")
    else:
        reference = parse_output(r.runs_omp[0].stdout).checksum
        r.correct = "pass"
        for run in r.runs_arts:
            ours = parse_output(run.stdout).checksum
            good, why = checksum_verdict(ours, reference, r.example.tolerance)
            if ours is not None and reference is not None:
                err = relative_error(ours, reference)
                r.relative_error = err if r.relative_error is None else max(r.relative_error, err)
            if not good:
                r.correct = "fail"
                r.problems.append(why)
                break
    if r.ours_ok and r.omp_ok:
        ours, omp = _basis_times(r.runs_arts), _basis_times(r.runs_omp)
        basis = next((b for b in ("kernel", "e2e", "wall") if b in ours and b in omp), None)
        if basis:
            r.basis = basis
            r.times = {side: {"best": min(t[basis]), "median": statistics.median(t[basis])}
                       for side, t in (("arts", ours), ("omp", omp))}
            r.speedup = r.times["omp"]["median"] / r.times["arts"]["median"]


def run_benchmark(ex: Example, cfg: RunConfig, workdir: Path,
                  stage: Callable[[str], None] = lambda _: None) -> BenchResult:
    stage("CARTS")
    build_arts, runs_arts = run_ours(ex, cfg, workdir)
    stage("OMP")
    build_omp, runs_omp = run_omp(ex, cfg, workdir)
    result = BenchResult(ex, build_arts, build_omp, runs_arts, runs_omp)
    evaluate(result, cfg.verify)
    return result


