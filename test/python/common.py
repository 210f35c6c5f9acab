"""What the behaviour tests share: where things are, how to run ``carts``, how to build and
run the gcc reference of a C file, and how to read a program's checksum line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "test" / "c"
CORPUS_FILES = sorted(CORPUS.glob("*.c"))
EXAMPLES = ROOT / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.rglob("*.c"))
INCLUDE = EXAMPLES / "include"

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


def ids(paths: list[Path]) -> list[str]:
    """Test ids of files: their paths below the repository."""
    return [str(p.relative_to(ROOT)) for p in paths]


def carts(*args, cwd: Path | None = None, stdin: str | None = None,
          timeout: float = 600) -> subprocess.CompletedProcess:
    """``carts ARGS`` (as ``python -m carts_mlir``), output captured as text."""
    return subprocess.run([sys.executable, "-m", "carts_mlir", *map(str, args)], cwd=cwd,
                          input=stdin, capture_output=True, text=True, timeout=timeout)


def gcc_run(source: Path, tmp_path: Path, *flags: str, openmp_threads: int | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess:
    """Build ``source`` with gcc (``-O3 -fopenmp`` and that many OpenMP threads when
    ``openmp_threads`` is given, else ``-O2``) and run it; the build must succeed."""
    openmp = openmp_threads is not None
    exe = tmp_path / ("gcc-omp.out" if openmp else "gcc.out")
    subprocess.run(["gcc", *(["-O3", "-fopenmp"] if openmp else ["-O2"]), *flags, str(source),
                    "-lm", "-o", str(exe)], check=True, capture_output=True)
    env = os.environ | ({"OMP_NUM_THREADS": str(openmp_threads)} if openmp else {})
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout, env=env)


def checksum_line(stdout: str) -> str:
    """The last ``checksum: <v>`` line a program printed (there must be one)."""
    lines = [ln for ln in stdout.splitlines() if ln.startswith("checksum:")]
    assert lines, f"no checksum line in:\n{stdout}"
    return lines[-1]


def checksum(stdout: str) -> float:
    return float(checksum_line(stdout).split(":", 1)[1])


#: How close our checksum must be to gcc's (the benchmark runner accepts 1e-2).
CHECKSUM_RTOL = 1e-6


def gcc_openmp_output(source: Path, tmp_path: Path, threads: int, *flags: str) -> str:
    """What the ``gcc -O3 -fopenmp`` build of ``source`` prints on ``threads`` threads (it
    must exit 0)."""
    done = gcc_run(source, tmp_path, *flags, openmp_threads=threads)
    assert done.returncode == 0, done.stderr
    return done.stdout


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path
