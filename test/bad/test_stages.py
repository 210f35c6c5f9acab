"""Stage misuse and checker output: IR resumed at a stage it has not reached, unmet
--verify-diagnostics expectations located to the column, relative example directories."""

import shutil
from pathlib import Path

import pytest

from promise import ROOT, expect_error, expect_only, run

OMP_LOOP = """\
int main(void) {
  double a[64];
#pragma omp parallel for
  for (int i = 0; i < 64; i++)
    a[i] = i;
  return (int)a[3];
}
"""


@pytest.fixture
def omp_mlir(workdir):
    (workdir / "p.c").write_text(OMP_LOOP)
    r = run("carts", "cgeist", "p.c", "-fopenmp", "-S", "-o", "p.mlir", cwd=workdir)
    assert r.code == 0, r.stderr
    return workdir


@pytest.mark.parametrize("start", ["create-dbs", "epochs", "pre-lowering", "arts-to-llvm"])
def test_openmp_ir_resumed_after_openmp_to_arts_is_refused(omp_mlir, start):
    r = run("carts", "run", "p.mlir", f"--start-from={start}", "--arts-to-llvm", "-o", "o.mlir",
            cwd=omp_mlir)
    expect_error(r, f"'omp\\.\\w+' is OpenMP-level IR, but --start-from={start}",
                 location=r"p\.mlir:\d+:\d+")
    expect_only(omp_mlir, "p.c", "p.mlir")


def test_openmp_ir_resumed_at_openmp_to_arts_runs(omp_mlir):
    r = run("carts", "run", "p.mlir", "--start-from=openmp-to-arts", "--create-dbs",
            "-o", "o.mlir", cwd=omp_mlir)
    assert r.code == 0, r.stderr
    assert "omp." not in (omp_mlir / "o.mlir").read_text()


def test_an_unmet_expectation_is_located_at_its_comment(workdir):
    (workdir / "v.mlir").write_text("func.func @f() {\n  return  // expected-error {{never}}\n}\n")
    r = run("carts-opt", "v.mlir", "--verify-diagnostics", cwd=workdir)
    expect_error(r, 'expected error "never" was not produced \\(on line 2\\)',
                 location=r"v\.mlir:2:14")


def test_benchmarks_take_a_relative_examples_directory(workdir):
    shutil.copytree(ROOT / "examples" / "include", workdir / "ex" / "include")
    shutil.copytree(ROOT / "examples" / "ml-kernels" / "layernorm",
                    workdir / "ex" / "ml-kernels" / "layernorm")
    r = run("carts", "benchmarks", "run", "layernorm", "--size", "mini", "--threads", "1",
            "--runs", "1", "--examples", "ex", cwd=workdir)
    assert r.code == 0, r.stdout + r.stderr
    assert "1 passed" in r.stdout
