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
  its environment. ``carts execute`` compiles and runs in one command; if its ``--help`` lists
  ``--compile-only``, Build ARTS is a separate ``--compile-only -o EXE`` run and on one node
  the runs run that native executable (on several nodes, ``carts execute`` again, which
  compiles again; the time it reports is subtracted). Otherwise one run does
  both: the build failed if it exited non-zero with no output and a diagnostic (``error:``,
  a traceback) on stderr, else it succeeded, and Run ARTS includes compilation (marked ``*``)
  unless execute prints ``carts execute: compiled in <S>s`` on stderr, which is then taken as
  the build time. Other ``carts execute:`` lines on stderr are shown once as notes.
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

``--plot PNG`` draws the speedups as bars (:func:`carts_mlir.plots.speedup_bars`), one per
benchmark in the table's order, with their geometric mean; a benchmark without a speedup that
counts keeps its row, labelled with why (``failed``, ``OpenMP failed``, ``wrong result``,
``n/a``). A suffix other than ``.png`` picks another format matplotlib writes (``.svg``,
``.pdf``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .files import check_destination, write_atomically
from .errors import CartsError

SIZES = ("mini", "small", "medium", "large")
DEFAULT_TOLERANCE = 1e-2
BASIS_MARK = {"kernel": "k", "e2e": "e", "wall": "w"}

_OURS_PREFIX = [sys.executable, "-m", "carts_mlir", "execute"]
_CONFIG_LINE = re.compile(r"carts-benchmarks:\s*(.*?)\s*(?:\*/)?\s*$", re.M)
_MAIN_DEF = re.compile(r"\bint\s+main\s*\(")
_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$")
_DATASET = re.compile(r"\b(MINI|SMALL|MEDIUM|LARGE)_DATASET\b")
_DEFINE = re.compile(r"^(\w+)\s+(.*?)\s*(?:/[*/].*)?$")
_TIMER = re.compile(r"^(kernel|e2e)\.(\S+):\s*([-+0-9.eE]+)s\s*$", re.M)
_CHECKSUM = re.compile(r"^checksum:\s*(\S+)\s*$", re.M)
_COMPILED = re.compile(r"^carts execute: compiled in ([0-9.]+)s\s*$", re.M)
_COMPILER_ERROR = re.compile(r"^(?:\S+: )?error: |^Traceback \(most recent call last\)", re.M)


# --------------------------------------------------------------------------- discovery


@dataclass
class Example:
    """One benchmark: a C program under ``examples/`` with its sizes and tolerance."""

    name: str
    source: Path
    relpath: str
    tolerance: float = DEFAULT_TOLERANCE
    dimensions: list[str] = field(default_factory=list)
    sizes: dict[str, list[str]] = field(default_factory=dict)


def default_examples_root() -> Path:
    """The repository's ``examples/`` (editable install), else ``./examples``."""
    for candidate in (Path(__file__).resolve().parents[2] / "examples", Path.cwd() / "examples"):
        if candidate.is_dir():
            return candidate
    raise CartsError("no examples directory found (pass --examples DIR)")


def discover_examples(root: Path) -> list[Example]:
    """Every directory under ``root`` holding a ``.c`` file, sorted by relative path."""
    if not root.is_dir():
        raise CartsError(f"examples directory '{root}' does not exist")
    found: list[Example] = []
    for directory in sorted(p for p in root.rglob("*") if p.is_dir()):
        rel = directory.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        sources = sorted(directory.glob("*.c"))
        if not sources:
            continue
        source = _main_source(directory, sources)
        text = source.read_text(errors="replace")
        dims, sizes = parse_sizes(text)
        found.append(Example(directory.name, source, rel.as_posix(),
                             _tolerance(text, source), dims, sizes))
    counts: dict[str, int] = {}
    for ex in found:
        counts[ex.name] = counts.get(ex.name, 0) + 1
    for ex in found:
        if counts[ex.name] > 1:
            ex.name = ex.relpath
    return found


def _main_source(directory: Path, sources: list[Path]) -> Path:
    if len(sources) == 1:
        return sources[0]
    named = directory / f"{directory.name}.c"
    if named in sources:
        return named
    with_main = [s for s in sources if _MAIN_DEF.search(s.read_text(errors="replace"))]
    if len(with_main) == 1:
        return with_main[0]
    raise CartsError(f"cannot tell which .c file is the benchmark (name one {directory.name}.c)",
                     location=str(directory))


def _tolerance(text: str, source: Path) -> float:
    tolerance = DEFAULT_TOLERANCE
    for match in _CONFIG_LINE.finditer(text):
        for item in match.group(1).split():
            key, _, value = item.partition("=")
            if key != "tolerance":
                raise CartsError(f"unknown benchmark setting '{key}' (known: tolerance)",
                                 location=str(source))
            try:
                tolerance = float(value)
            except ValueError:
                tolerance = -1.0
            if not tolerance >= 0:
                raise CartsError(f"tolerance must be a number >= 0, got '{value}'",
                                 location=str(source))
    return tolerance


def parse_sizes(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """Dimensions and per-size values from the first ``*_DATASET`` conditional chain."""
    branches: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    depth, in_chain, else_size = 0, False, None
    for line in text.splitlines():
        directive = _DIRECTIVE.match(line)
        if not directive:
            continue
        keyword, rest = directive.groups()
        dataset = _DATASET.search(rest)
        if not in_chain:
            if keyword in ("if", "ifdef") and dataset:
                in_chain, current = True, branches.setdefault(dataset.group(1).lower(), {})
            continue
        if keyword in ("if", "ifdef", "ifndef"):
            depth += 1
        elif keyword == "endif":
            if depth == 0:
                break
            depth -= 1
        elif depth:
            continue
        elif keyword == "elif":
            current = branches.setdefault(dataset.group(1).lower(), {}) if dataset else None
        elif keyword == "else":
            else_size = dataset.group(1).lower() if dataset else None
            current = branches.setdefault("#else", {})
        elif keyword == "define" and current is not None:
            define = _DEFINE.match(rest)
            if define:
                name, value = define.groups()
                current[name.removesuffix("_DEFAULT")] = _compact(value)
    if "#else" in branches:
        values = branches.pop("#else")
        missing = [s for s in SIZES if s not in branches]
        if else_size is None and len(missing) == 1:
            else_size = missing[0]
        if else_size and else_size not in branches:
            branches[else_size] = values
    dims: list[str] = []
    for values in branches.values():
        dims += [d for d in values if d not in dims]
    sizes = {s: [branches[s].get(d, "?") for d in dims] for s in SIZES if s in branches}
    return _strip_common_prefix(dims), sizes


def _compact(value: str) -> str:
    value = value.strip()
    if value.startswith("(") and value.endswith(")"):
        value = value[1:-1]
    return value.replace(" ", "")


def _strip_common_prefix(names: list[str]) -> list[str]:
    prefix = os.path.commonprefix(names)
    prefix = prefix[: prefix.rfind("_") + 1]
    if prefix and all(len(n) > len(prefix) for n in names):
        return [n[len(prefix):] for n in names]
    return names


def select(examples: list[Example], names: list[str]) -> list[Example]:
    """The examples named (short name or relative path), in the order given; all if none."""
    if not names:
        return examples
    by_name = {ex.name: ex for ex in examples} | {ex.relpath: ex for ex in examples}
    chosen: list[Example] = []
    for name in names:
        ex = by_name.get(name.rstrip("/"))
        if ex is None:
            known = ", ".join(e.name for e in examples)
            raise CartsError(f"unknown benchmark '{name}' (known: {known})")
        if ex not in chosen:
            chosen.append(ex)
    return chosen


# --------------------------------------------------------------------------- output and checks


@dataclass
class ProgramOutput:
    """What a benchmark program printed under the ``carts_bench.h`` contract."""

    kernel: dict[str, float] = field(default_factory=dict)
    e2e: dict[str, float] = field(default_factory=dict)
    checksum: float | None = None


def parse_output(stdout: str) -> ProgramOutput:
    """Timers (repeated names are summed) and the last ``checksum:`` line."""
    out = ProgramOutput()
    for kind, name, seconds in _TIMER.findall(stdout):
        timers = out.kernel if kind == "kernel" else out.e2e
        timers[name] = timers.get(name, 0.0) + float(seconds)
    checksums = _CHECKSUM.findall(stdout)
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


# --------------------------------------------------------------------------- running


@dataclass
class Step:
    """One subprocess (a build or a run), or a step that did not happen (``skip``)."""

    status: str  # ok | fail | timeout | skip | unknown
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
    compile_only: bool = False


def display(command: list[str]) -> str:
    """A command as the user would type it (``carts execute`` rather than the interpreter)."""
    if command[: len(_OURS_PREFIX)] == _OURS_PREFIX:
        command = ["carts", "execute", *command[len(_OURS_PREFIX):]]
    return shlex.join(command)


def ours_command(ex: Example, cfg: RunConfig) -> list[str]:
    cmd = [*_OURS_PREFIX, str(ex.source), "-O3", f"-D{cfg.size.upper()}_DATASET",
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


def execute_has_compile_only() -> bool:
    """Whether this ``carts execute`` can compile without running (probed from its help)."""
    try:
        help_ = subprocess.run([*_OURS_PREFIX, "--help"], capture_output=True, text=True,
                               timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--compile-only" in help_.stdout


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
        return self.build_arts.status in ("ok", "unknown") and bool(self.runs_arts) and all(
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


def _started(step: Step) -> bool:
    """Whether a combined compile-and-run got as far as running the program."""
    return step.ok or bool(step.stdout.strip()) or (
        step.status == "fail" and not _COMPILER_ERROR.search(step.stderr))


def run_ours(ex: Example, cfg: RunConfig, workdir: Path) -> tuple[Step, list[Step]]:
    """Build ARTS and the runs; every run of ``carts execute`` compiles again (see the module
    docstring for how the two are told apart)."""
    command = ours_command(ex, cfg)
    env = os.environ | {"threads": str(cfg.threads), "OMP_NUM_THREADS": str(cfg.threads)}
    kwargs = dict(env=env, cwd=workdir, timeout=cfg.timeout)
    build = None
    native = False
    if cfg.compile_only:
        exe = workdir / f"{ex.name.replace('/', '_')}_arts"
        native = cfg.nodes == 1
        build = run_command([*command, "--compile-only", *(["-o", str(exe)] if native else [])],
                            **kwargs)
        if not build.ok:
            return build, [Step("skip")]
        if native:  # the executable execute wrote: the same code as its JIT, no compile inside
            command = [str(exe)]
    runs = _repeat(command, cfg.runs, **kwargs)
    first = runs[0]
    if build is None and first.status == "timeout" and not first.stdout.strip():
        build = Step("unknown", detail="timed out before the program printed anything")
    elif build is None and not _started(first):
        build = Step("fail", first.seconds, command, first.returncode, first.stdout,
                     first.stderr, first.detail)
        return build, [Step("skip")]
    elif build is None:
        compiled = _COMPILED.search(first.stderr)
        build = Step("ok", float(compiled.group(1)) if compiled else None, command)
    for run in runs:
        marker = _COMPILED.search(run.stderr)
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


def geometric_mean(values: list[float]) -> float | None:
    values = [v for v in values if v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


# --------------------------------------------------------------------------- report


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
    from . import __version__

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
                   "arts_build": "compile-only" if cfg.compile_only else "combined"},
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
        "summary": {**_counts(results), "geomean_speedup": geometric_mean(correct),
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


def _counts(results: list[BenchResult]) -> dict[str, int]:
    verdicts = [r.verdict for r in results]
    return {"passed": verdicts.count("pass"), "failed": verdicts.count("fail"),
            "skipped": verdicts.count("skip")}


# --------------------------------------------------------------------------- terminal output

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


def _ratio(value: float) -> str:
    return f"{value:.0f}x" if value >= 100 else f"{value:.1f}x" if value >= 10 else f"{value:.2f}x"


def _speedup_cell(r: BenchResult) -> str:
    return f"{_ratio(r.speedup)} {BASIS_MARK[r.basis]}" if r.speedup and r.basis else "-"


def _console():
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 160  # a pipe or a log file: tables keep their natural width
    return console


def _results_table(results: list[BenchResult]):
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


def _counts_line(counts: dict[str, int], seconds: float) -> str:
    return (f"[green]✓[/] {counts['passed']} passed  [red]✗[/] {counts['failed']} failed  "
            f"[yellow]○[/] {counts['skipped']} skipped  ⏱ {seconds:.2f}s")


def _print_trace(console, r: BenchResult, threads: int) -> None:
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


def _notes(results: list[BenchResult], cfg: RunConfig) -> list[str]:
    """Problems per benchmark (with a reproducing command), then legends and notices."""
    notes: list[str] = []
    env = f"threads={cfg.threads} OMP_NUM_THREADS={cfg.threads} "
    for r in results:
        for problem in r.problems:
            notes.append(f"[red]✗[/] {r.example.name}: {_escape(problem)}")
        if not r.ours_ok:
            command = env + display(ours_command(r.example, cfg))
            notes.append(f"  reproduce with: {_escape(command)}")
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
                notice = line.startswith("carts execute:") and not _COMPILED.match(line) \
                    and "per-node counters" not in line
                if notice and line not in seen:
                    seen.append(line)
    notes += [f"note: {_escape(line)}" for line in seen]
    return notes


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


# --------------------------------------------------------------------------- commands


class _ArgumentParser(argparse.ArgumentParser):
    """argparse whose usage errors are one-line :class:`CartsError`s."""

    def error(self, message: str):
        raise CartsError(f"{message} (see '{self.prog} --help')")


def _positive(kind: type) -> Callable[[str], int | float]:
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got '{text}'")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(prog="carts benchmarks",
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
    run.add_argument("--threads", type=_positive(int), default=os.cpu_count() or 1)
    run.add_argument("--nodes", type=_positive(int), default=1)
    run.add_argument("--runs", type=_positive(int), default=1, metavar="K")
    run.add_argument("--timeout", type=_positive(float), default=60.0, metavar="S",
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
    _console().print(table)
    return 0


def run_main(args: argparse.Namespace, root: Path) -> int:
    from rich.panel import Panel
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                               TextColumn, TimeElapsedColumn)

    from . import __version__

    examples = select(discover_examples(root), args.names)
    if args.json is not None:
        check_destination(args.json)  # before the runs, not after minutes of them
    if args.plot is not None:
        from .plots import check_plot_path

        check_plot_path(args.plot)  # before the runs, not after minutes of them
    cfg = RunConfig(size=args.size, threads=args.threads, nodes=args.nodes, runs=args.runs,
                    timeout=args.timeout, verify=args.verify, trace=args.trace,
                    include=root / "include", cc=shlex.split(os.environ.get("CC") or "cc"))
    cfg.compile_only = execute_has_compile_only()
    console = _console()
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
                _print_trace(console, results[-1], cfg.threads)
            progress.advance(task)
    total = time.perf_counter() - start
    counts = _counts(results)
    console.print()
    console.print(_results_table(results))
    console.print(_counts_line(counts, total))
    for note in _notes(results, cfg):
        console.print(note, soft_wrap=True)
    geomean = geometric_mean([r.speedup for r in results if r.correct == "pass" and r.speedup])
    summary = _counts_line(counts, total)
    if geomean is not None:
        summary = summary.replace("  ⏱", f"  geomean speedup {_ratio(geomean)}  ⏱")
    if args.json is not None:
        write_json_atomically(args.json, json_report(results, cfg, root, total))
        summary += f"\nJSON report: {_escape(str(args.json))}"
    if args.plot is not None:
        from .plots import speedup_bars

        speedup_bars([_plot_row(r) for r in results], title=_plot_title(cfg), path=args.plot)
        summary += f"\nPlot: {_escape(str(args.plot))}"
    console.print()
    console.print(Panel(summary, title="Summary", expand=False))
    return 1 if counts["failed"] else 0


def _plot_row(r: BenchResult) -> tuple[str, float | str | None]:
    """A benchmark's bar: its speedup, or why it has none worth drawing (a wrong result's
    time is no achievement)."""
    if not r.ours_ok:
        return r.example.name, "failed"
    if not r.omp_ok:
        return r.example.name, "OpenMP failed"
    if r.correct == "fail":
        return r.example.name, "wrong result"
    return r.example.name, r.speedup


def _plot_title(cfg: RunConfig) -> str:
    def count(n: int, what: str) -> str:
        return f"{n} {what}" + ("s" if n > 1 else "")

    unverified = ", unverified" if not cfg.verify else ""
    return (f"Speedup over OpenMP ({cfg.size}, {count(cfg.threads, 'thread')}, "
            f"{count(cfg.nodes, 'node')}{unverified})")


def benchmarks_main(argv: list[str]) -> int:
    """``carts benchmarks list|run ...``; user errors raise :class:`CartsError`."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help
        return int(done.code or 0)
    if args.action is None:
        parser.print_help()
        return 2
    root = args.examples.absolute() if args.examples is not None else default_examples_root()
    if args.action == "list":
        return list_main(root, (args.size,) if args.size else SIZES)
    if args.action == "build":
        from .suite import build_main
        return build_main(args, root)
    return run_main(args, root)
