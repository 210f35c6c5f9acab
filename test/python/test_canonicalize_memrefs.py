"""The canonicalize-memrefs stage keeps programs meaning what they meant: every example,
compiled sequentially at MINI size, prints the same checksum through the JIT before and
after the stage, with its pointer tables gone; the OpenMP compile passes the stage too; a
table the stage cannot raise exactly is a located error, not wrong code.

The plugin is the one `carts` loads (the installed one, or ``CARTS_PLUGIN``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from common import EXAMPLE_FILES, INCLUDE, carts_forked

POINTER_TABLE = "xmemref<"
ALLOC_TYPE = re.compile(r"memref\.alloc\([^)]*\)(?: \{[^}]*\})? : memref<([^>]*)>")
#: The highest rank among the arrays of each example once its tables are raised.
#: omp.parallel regions after inlining, where a helper holding one has several callers.
INLINED_PARALLEL = {"transformer": 12, "stencil3d-order4": 2}
RAISED_RANK = {"activations": 1, "batchnorm": 3, "gemm": 2, "jacobi2d": 2, "layernorm": 2,
               "pooling": 4, "transformer": 3, "2mm": 2, "correlation": 2, "jacobi2d-float": 2,
               "convolution2d": 2, "stencil3d-order4": 3}

# Lower one MLIR file with the upstream passes, JIT it and run its main (stdout is the
# program's). A separate process: the program prints through C stdio.
JIT_RUN = """
import sys
from carts_mlir.jit import compile_llvm_ir, mlir_to_llvm_ir
path = sys.argv[1]
program = compile_llvm_ir(mlir_to_llvm_ir(open(path).read()))
sys.exit(program.run_main([path]))
"""


def ids(paths):
    return [p.stem for p in paths]


def front_end(source: Path, out: Path, *flags: str) -> str:
    done = carts_forked("cgeist", str(source), "-S", "-DMINI_DATASET", f"-I{INCLUDE}", *flags,
                        "-o", str(out), cwd=out.parent)
    assert done.returncode == 0, done.stderr
    return out.read_text()


def canonicalize_memrefs(source: Path, out: Path) -> subprocess.CompletedProcess:
    """`carts run SOURCE --canonicalize-memrefs` (what `carts-opt` runs too)."""
    return carts_forked("run", str(source), "--canonicalize-memrefs", "-o", str(out),
                        cwd=out.parent)


def highest_alloc_rank(module_text: str) -> int:
    return max((shape.count("x") for shape in ALLOC_TYPE.findall(module_text)), default=0)


def jit_checksum(module: Path) -> str:
    done = subprocess.run([sys.executable, "-c", JIT_RUN, str(module)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("checksum:")]
    assert lines, f"no checksum line in:\n{done.stdout}"
    return lines[-1]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=ids(EXAMPLE_FILES))
def test_example_checksum_survives_the_stage(path, tmp_path):
    before = tmp_path / "seq.mlir"
    after = tmp_path / "seq.canonical.mlir"
    original = front_end(path, before)
    done = canonicalize_memrefs(before, after)
    assert done.returncode == 0, done.stderr
    raised = after.read_text()
    assert POINTER_TABLE not in raised
    # Every helper is inlined: main is the only function with a body.
    assert raised.count("func.func @") == 1 and "func.func @main(" in raised
    if path.stem in RAISED_RANK:
        assert highest_alloc_rank(raised) == RAISED_RANK[path.stem]
        assert (POINTER_TABLE in original) == (RAISED_RANK[path.stem] > 1)
    assert jit_checksum(after) == jit_checksum(before)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=ids(EXAMPLE_FILES))
def test_openmp_compile_loses_its_pointer_tables(path, tmp_path):
    before = tmp_path / "omp.mlir"
    after = tmp_path / "omp.canonical.mlir"
    original = front_end(path, before, "-fopenmp")
    done = canonicalize_memrefs(before, after)
    assert done.returncode == 0, done.stderr
    raised = after.read_text()
    assert POINTER_TABLE not in raised
    # Every parallel region survives; inlining copies a helper's region into each of its
    # callers (the transformer's matmul, rope, residual and swiglu: 12 call sites in all).
    copies = INLINED_PARALLEL.get(path.stem, original.count("omp.parallel"))
    assert raised.count("omp.parallel") == copies > 0
    # The output re-parses.
    again = carts_forked("run", str(after), cwd=tmp_path)
    assert again.returncode == 0, again.stderr


TRIANGULAR = """\
#include <stdlib.h>
int main(void) {
  float **t = (float **)malloc(4 * sizeof(float *));
  for (int i = 0; i < 4; i++)
    t[i] = (float *)malloc((i + 1) * sizeof(float));
  t[3][3] = 1.0f;
  float s = 0.0f;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 4; i++)
    s += t[i][0];
  for (int i = 0; i < 4; i++)
    free(t[i]);
  free(t);
  return (int)s;
}
"""


def test_rows_of_different_sizes_are_a_located_error(run_cmd, tmp_path):
    source = tmp_path / "triangular.c"
    source.write_text(TRIANGULAR)
    module = tmp_path / "triangular.mlir"
    # Parallel code reads the table, so it has to become N-D.
    done = run_cmd("carts", "cgeist", str(source), "-fopenmp", "-S", "--print-debug-info",
                   "-o", str(module))
    assert done.returncode == 0, done.stderr
    out = tmp_path / "triangular.canonical.mlir"
    failed = run_cmd("carts-opt", str(module), "--canonicalize-memrefs", "-o", str(out))
    assert failed.returncode == 1
    assert "Traceback" not in failed.stderr
    assert ("triangular.c:5:21: error: cannot raise 'memref<?xmemref<?xf32>>': the rows of "
            "dimension 1 have different sizes") in failed.stderr
    assert "triangular.c:3:25: note: array allocated here" in failed.stderr
    assert not out.exists()
