"""Running a C program from Python and getting what it printed back as data.

    >>> from carts_mlir import runs
    >>> r = runs.run_arts("examples/ml-kernels/layernorm/layernorm.c", threads=2,
    ...                   defines=["MINI_DATASET"], includes=["examples/include"])
    >>> r.checksum, r.kernels            # parsed from the carts_bench.h lines
    >>> o = runs.run_openmp(...same...)  # gcc -O3 -fopenmp build of the same file

``run_arts`` compiles once with ``carts execute --compile-only`` into a native executable and
then runs that executable, so no timing includes compilation (with several nodes it runs
``carts execute`` itself: the node actors JIT the program). ``run_openmp`` builds the same
file with the system C compiler and ``-fopenmp``. Both run in a child process: the program's
stdout is captured, and a crash or a timeout cannot take the notebook or the caller with it.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .bench import Step, parse_output, run_command
from ..errors import CartsError

CARTS_EXECUTE = [sys.executable, "-m", "carts_mlir", "execute"]


@dataclass
class RunResult:
    """One run of a program: what it printed and what that says (timers, checksum)."""

    command: list[str]
    code: int | None
    stdout: str
    stderr: str
    seconds: float | None
    checksum: float | None = None
    kernels: dict[str, float] = field(default_factory=dict)
    e2e: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.code == 0

    @property
    def kernel_seconds(self) -> float | None:
        """All kernel timers added up (None when the program printed none)."""
        return sum(self.kernels.values()) if self.kernels else None

    def check(self) -> "RunResult":
        """This result, or a :class:`CartsError` with the program's last words if it failed."""
        if not self.ok:
            last = "\n".join(self.stderr.strip().splitlines()[-5:])
            raise CartsError(f"'{' '.join(self.command)}' failed (exit code {self.code})"
                             + (f":\n{last}" if last else ""))
        return self

    @classmethod
    def of(cls, step: Step) -> "RunResult":
        out = parse_output(step.stdout)
        return cls(step.command, step.returncode, step.stdout, step.stderr, step.seconds,
                   out.checksum, dict(out.kernel), dict(out.e2e))


def _flags(defines, includes) -> list[str]:
    return [*(f"-D{d}" for d in defines), *(f"-I{i}" for i in includes)]


def _environment(threads: int | None) -> dict[str, str]:
    env = dict(os.environ)
    if threads is not None:
        env["threads"] = env["OMP_NUM_THREADS"] = str(threads)
    return env


def _failed(step: Step, what: str) -> CartsError:
    last = "\n".join(step.stderr.strip().splitlines()[-8:]) or step.detail
    return CartsError(f"{what} failed: {last}")


def build_arts(path: str | Path, exe: str | Path, *, defines=(), includes=(),
               threads: int | None = None, timeout: float = 600) -> None:
    """Compile ``path`` through the ARTS pipeline into the native executable ``exe``."""
    command = [*CARTS_EXECUTE, str(path), "-O3", *_flags(defines, includes), "--compile-only",
               "-o", str(exe), *([f"--threads={threads}"] if threads else [])]
    step = run_command(command, env=dict(os.environ), cwd=Path.cwd(), timeout=timeout)
    if not step.ok:
        raise _failed(step, f"carts execute {path}")


def build_openmp(path: str | Path, exe: str | Path, *, defines=(), includes=(),
                 cc: str = "cc", timeout: float = 600) -> None:
    """Build ``path`` with the system C compiler, ``-O3 -fopenmp``, into ``exe``."""
    command = [cc, "-O3", "-fopenmp", str(path), *_flags(defines, includes), "-lm", "-o", str(exe)]
    step = run_command(command, env=dict(os.environ), cwd=Path.cwd(), timeout=timeout)
    if not step.ok:
        raise _failed(step, f"{cc} -fopenmp {path}")


def run_executable(exe: str | Path, *, threads: int | None = None, args=(),
                   timeout: float = 600) -> RunResult:
    """Run a built executable (ours or OpenMP's) with ``threads`` workers."""
    step = run_command([str(exe), *args], env=_environment(threads), cwd=Path.cwd(),
                       timeout=timeout)
    return RunResult.of(step)


def run_arts(path: str | Path, *, defines=(), includes=(), threads: int | None = None,
             nodes: int | None = None, args=(), repeat: int = 1,
             timeout: float = 600) -> RunResult | list[RunResult]:
    """Compile ``path`` through the ARTS path and run it (``repeat`` > 1: a list of runs of
    the one build)."""
    if nodes and nodes > 1:
        command = [*CARTS_EXECUTE, str(path), "-O3", *_flags(defines, includes),
                   f"--nodes={nodes}", *([f"--threads={threads}"] if threads else []),
                   "--", *args]
        results = [RunResult.of(run_command(command, env=dict(os.environ), cwd=Path.cwd(),
                                            timeout=timeout)) for _ in range(repeat)]
        return results[0] if repeat == 1 else results
    with tempfile.TemporaryDirectory(prefix="carts-run-") as tmp:
        exe = Path(tmp) / f"{Path(path).stem}_arts"
        build_arts(path, exe, defines=defines, includes=includes, threads=threads,
                   timeout=timeout)
        results = [run_executable(exe, threads=threads, args=args, timeout=timeout)
                   for _ in range(repeat)]
    return results[0] if repeat == 1 else results


def run_openmp(path: str | Path, *, defines=(), includes=(), threads: int | None = None,
               args=(), repeat: int = 1, cc: str = "cc",
               timeout: float = 600) -> RunResult | list[RunResult]:
    """Build ``path`` with ``-fopenmp`` and run it on ``threads`` OpenMP threads."""
    with tempfile.TemporaryDirectory(prefix="carts-run-") as tmp:
        exe = Path(tmp) / f"{Path(path).stem}_omp"
        build_openmp(path, exe, defines=defines, includes=includes, cc=cc, timeout=timeout)
        results = [run_executable(exe, threads=threads, args=args, timeout=timeout)
                   for _ in range(repeat)]
    return results[0] if repeat == 1 else results
