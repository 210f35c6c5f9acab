"""`carts benchmarks`: discovery of the examples, parsing of the benchmark output contract, the
checksum rule, and the runner end to end against real `gcc -fopenmp` builds (mini sizes)."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess

import pytest

from carts_mlir.tools.bench import (BenchResult, Step, checksum_verdict, discover_examples,
                                   evaluate, parse_output, parse_sizes, relative_error, select)
from carts_mlir.errors import CartsError
from common import EXAMPLES, INCLUDE, gcc_openmp_output, needs_gcc




def mini_reference(source, tmp_path) -> str:
    """What the gcc -fopenmp build of an example prints at mini size on 2 threads."""
    return gcc_openmp_output(source, tmp_path, 2, f"-I{INCLUDE}", "-DMINI_DATASET")


# ------------------------------------------------------------------ discovery


def test_discovery_finds_every_example_directory_with_a_c_file():
    examples = discover_examples(EXAMPLES)
    by_name = {ex.name: ex.relpath for ex in examples}
    assert by_name.items() >= {
        "batchnorm": "ml-kernels/batchnorm", "layernorm": "ml-kernels/layernorm",
        "activations": "ml-kernels/activations", "pooling": "ml-kernels/pooling",
        "llama2-transformer": "llama2-transformer", "gemm": "polybench/gemm",
        "jacobi2d": "polybench/jacobi2d",
    }.items()
    with_c = {p.parent.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*.c")}
    assert sorted(ex.relpath for ex in examples) == sorted(with_c)
    transformer = next(ex for ex in examples if ex.name == "llama2-transformer")
    assert transformer.source.name == "transformer.c"


def test_sizes_are_read_from_the_dataset_chain_of_the_source():
    examples = {ex.name: ex for ex in discover_examples(EXAMPLES)}
    batchnorm = examples["batchnorm"]
    assert batchnorm.dimensions == ["N", "C", "H", "W"]
    assert batchnorm.sizes["small"] == ["4", "64", "32", "32"]  # the #else branch
    assert batchnorm.sizes["large"] == ["16", "256", "128", "128"]
    assert examples["gemm"].sizes["mini"] == ["32"]
    assert examples["jacobi2d"].dimensions == ["N", "T"]
    assert examples["jacobi2d"].sizes["medium"] == ["1024", "100"]
    assert examples["activations"].sizes["small"] == ["1<<20"]
    assert examples["llama2-transformer"].sizes["small"][:2] == ["64", "256"]


def test_an_uncommented_else_branch_is_the_one_size_not_named():
    text = """
#ifdef MINI_DATASET
#define K_N_DEFAULT 8
#elif defined(SMALL_DATASET)
#define K_N_DEFAULT 64
#elif defined(LARGE_DATASET)
#define K_N_DEFAULT 4096  /* big */
#else
#define K_N_DEFAULT 512
#endif
#define UNRELATED 3
"""
    dims, sizes = parse_sizes(text)
    assert dims == ["N"]
    assert sizes == {"mini": ["8"], "small": ["64"], "medium": ["512"], "large": ["4096"]}


def test_colliding_directory_names_fall_back_to_the_relative_path(tmp_path):
    for group in ("a", "b"):
        (tmp_path / group / "kern").mkdir(parents=True)
        (tmp_path / group / "kern" / "kern.c").write_text("int main(void) { return 0; }\n")
    examples = discover_examples(tmp_path)
    assert [ex.name for ex in examples] == ["a/kern", "b/kern"]
    with pytest.raises(CartsError, match="unknown benchmark 'kern' \\(known: a/kern, b/kern\\)"):
        select(examples, ["kern"])


def test_tolerance_comes_from_the_source_and_bad_settings_are_errors(tmp_path):
    (tmp_path / "tight").mkdir()
    (tmp_path / "tight" / "tight.c").write_text(
        "/* carts-benchmarks: tolerance=1e-6 */\nint main(void) { return 0; }\n")
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "plain.c").write_text("int main(void) { return 0; }\n")
    tolerances = {ex.name: ex.tolerance for ex in discover_examples(tmp_path)}
    assert tolerances == {"tight": 1e-6, "plain": 1e-2}
    (tmp_path / "plain" / "plain.c").write_text("// carts-benchmarks: tolerence=1\n")
    with pytest.raises(CartsError, match="unknown benchmark setting 'tolerence'"):
        discover_examples(tmp_path)


# ------------------------------------------------------------------ output contract


@needs_gcc
def test_parse_output_of_a_real_openmp_build(tmp_path):
    stdout = mini_reference(EXAMPLES / "ml-kernels" / "pooling" / "pooling.c", tmp_path)
    out = parse_output(stdout)
    assert set(out.kernel) == {"max_pool", "avg_pool"}
    assert set(out.e2e) == {"pooling"}
    assert all(v >= 0 for v in out.kernel.values())
    # The e2e timer brackets both kernels.
    assert out.e2e["pooling"] >= sum(out.kernel.values()) - 2e-6
    printed = [line for line in stdout.splitlines() if line.startswith("checksum: ")]
    assert len(printed) == 1
    assert out.checksum == float(printed[0].split()[1]) and out.checksum > 0


def test_parse_output_sums_repeated_timers_and_takes_the_last_checksum():
    out = parse_output("kernel.step: 0.250000s\nnoise\nkernel.step: 0.500000s\n"
                       "e2e.all: 1.000000000s\nchecksum: 1\nchecksum: -2.5e+00\n")
    assert out.kernel == {"step": 0.75}
    assert out.e2e == {"all": 1.0}
    assert out.checksum == -2.5
    assert parse_output("kernel.k: 0.1s\n").checksum is None


# ------------------------------------------------------------------ correctness rule


def test_tolerance_boundary_is_inclusive():
    # 4.5 vs 4.0 is a relative error of exactly 0.125 in binary floating point.
    assert relative_error(4.5, 4.0) == 0.125
    assert checksum_verdict(4.5, 4.0, 0.125) == (True, "")
    good, why = checksum_verdict(4.5, 4.0, 0.1249)
    assert not good and "relative error 1.250e-01 > tolerance 0.1249" in why
    assert checksum_verdict(-4.5, -4.0, 0.125)[0]


def test_a_zero_reference_is_compared_against_a_floor_of_1e_10():
    assert checksum_verdict(5e-13, 0.0, 1e-2)[0]
    assert not checksum_verdict(2e-12, 0.0, 1e-2)[0]


def test_missing_or_nan_checksums_are_incorrect():
    assert checksum_verdict(None, 1.0, 1.0) == (False, "no checksum line in the CARTS output")
    assert checksum_verdict(1.0, None, 1.0) == (False, "no checksum line in the OMP output")
    assert not checksum_verdict(math.nan, 1.0, 1.0)[0]


def _ok(stdout: str) -> Step:
    return Step("ok", 0.1, ["prog"], 0, stdout)


def test_a_run_without_checksum_fails_the_benchmark():
    from carts_mlir.tools.bench import Example

    ex = Example("k", EXAMPLES / "polybench" / "gemm" / "gemm.c", "polybench/gemm")
    result = BenchResult(ex, Step("ok"), _ok(""), [_ok("kernel.k: 0.1s\n")],
                         [_ok("kernel.k: 0.2s\nchecksum: 1.0\n")])
    evaluate(result, verify=True)
    assert (result.correct, result.verdict) == ("fail", "fail")
    assert result.speedup == pytest.approx(2.0) and result.basis == "kernel"
    unverified = BenchResult(ex, Step("ok"), _ok(""), [_ok("e2e.k: 0.4s\n")],
                             [_ok("e2e.k: 0.2s\nchecksum: 1.0\n")])
    evaluate(unverified, verify=False)
    assert (unverified.correct, unverified.verdict) == ("skip", "skip")
    assert unverified.speedup == pytest.approx(0.5) and unverified.basis == "e2e"


# ------------------------------------------------------------------ the runner


def _table_rows(stdout: str) -> dict[str, list[str]]:
    rows = {}
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) == 7 and cells[0] not in ("Benchmark", ""):
            rows[cells[0]] = cells
    return rows


@needs_gcc
def test_run_gemm_and_activations_end_to_end(run_cmd, tmp_path):
    report = tmp_path / "report.json"
    proc = run_cmd("carts", "benchmarks", "run", "gemm", "activations", "--size", "mini",
                   "--threads", "2", "--json", str(report), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "CARTS Benchmark Runner v" in proc.stdout
    assert "\x1b[" not in proc.stdout  # not a terminal: no cursor control or colours
    rows = _table_rows(proc.stdout)
    assert set(rows) == {"gemm", "activations"}
    for cells in rows.values():
        build_arts, build_omp, run_arts, run_omp, correct, speedup = cells[1:]
        assert build_omp.startswith("✓") and run_arts.startswith("✓") and run_omp.startswith("✓")
        assert correct == "✓ pass"
        assert speedup[-1] in "kew"
    assert "2 passed" in proc.stdout and "0 failed" in proc.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]  # atomic, no leftovers

    data = json.loads(report.read_text())
    assert data["machine"]["cpu_count"] == os.cpu_count() and data["machine"]["hostname"]
    assert data["versions"]["cc"] and data["config"]["size"] == "mini"
    assert data["summary"]["passed"] == 2 and data["summary"]["failed"] == 0
    benches = {b["name"]: b for b in data["benchmarks"]}
    for name, source in (("gemm", "polybench/gemm/gemm.c"),
                         ("activations", "ml-kernels/activations/activations.c")):
        bench = benches[name]
        assert bench["correct"] == "pass" and bench["speedup"] > 0
        reference = parse_output(mini_reference(EXAMPLES / source, tmp_path)).checksum
        assert bench["checksum"]["omp"] == pytest.approx(reference, rel=1e-9)
        assert bench["checksum"]["arts"] == pytest.approx(reference, rel=1e-6)
        assert bench["relative_error"] <= 1e-6


def test_build_writes_a_suite_that_runs_with_python_alone(run_cmd, tmp_path):
    suite = tmp_path / "suite"
    proc = run_cmd("carts", "benchmarks", "build", "gemm", "jacobi2d", "--size", "mini",
                   "--threads", "1,2", "--out", str(suite), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    manifest = json.loads((suite / "manifest.json").read_text())
    pairs = {(e["name"], e["threads"]) for e in manifest["entries"]}
    assert pairs == {("gemm", 1), ("gemm", 2), ("jacobi2d", 1), ("jacobi2d", 2)}
    # gcc's -march=x86-64-v3 build fuses multiplies into adds (the CPU has FMA): ours too
    assert manifest["built"]["fp_contract"] == "fast"
    assert (suite / "lib" / "libcartsrt.so").is_file()
    # Moved elsewhere and run by the system python3, with nothing of the package around.
    moved = tmp_path / "elsewhere"
    suite.rename(moved)
    report = tmp_path / "suite.json"
    done = subprocess.run(["python3", str(moved / "run.py"), "--runs", "1", "--json", str(report)],
                          capture_output=True, text=True, timeout=300, cwd="/",
                          env={"PATH": os.environ.get("PATH", "")})
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads(report.read_text())["results"]
    assert len(results) == 4
    for r in results:
        assert r["correct"] and r["arts_error"] is None and r["omp_error"] is None
        reference = parse_output(mini_reference(EXAMPLES / "polybench" / r["name"] /
                                                f"{r['name']}.c", tmp_path)).checksum
        assert r["arts_checksum"] == pytest.approx(reference, rel=1e-6)
        assert r["ratio"] > 0
    assert "geometric mean mini 2 threads:" in done.stdout


def test_build_needs_an_output_directory_and_valid_lists(run_cmd, tmp_path):
    proc = run_cmd("carts", "benchmarks", "build", "gemm", "--size", "mini", cwd=tmp_path)
    assert proc.returncode != 0 and "--out" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cmd("carts", "benchmarks", "build", "gemm", "--size", "huge", "--out",
                   str(tmp_path / "s"), cwd=tmp_path)
    assert proc.returncode == 1 and "unknown size 'huge'" in proc.stderr
    proc = run_cmd("carts", "benchmarks", "build", "gemm", "--threads", "two", "--out",
                   str(tmp_path / "s"), cwd=tmp_path)
    assert proc.returncode == 1 and "--threads" in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_benchmark_is_a_one_line_error(run_cmd):
    proc = run_cmd("carts", "benchmarks", "run", "gemm", "no-such-kernel")
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: unknown benchmark 'no-such-kernel' (known: ")
    assert "gemm" in lines[0] and "llama2-transformer" in lines[0]


def test_bad_option_is_a_one_line_error(run_cmd):
    proc = run_cmd("carts", "benchmarks", "run", "--size", "huge")
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "invalid choice: 'huge'" in proc.stderr


def test_list_names_every_example(run_cmd):
    proc = run_cmd("carts", "benchmarks", "list", "--size", "mini")
    assert proc.returncode == 0, proc.stderr
    for name in ("batchnorm", "layernorm", "activations", "pooling", "llama2-transformer",
                 "gemm", "jacobi2d"):
        assert name in proc.stdout
    assert "N=2 C=4 H=8 W=8" in proc.stdout


DRIFT = """\
{config}
#include "carts_bench.h"

int main(void) {{
  double x = 1.0;
#ifdef __CARTS__
  x += 1e-9; /* our build differs from the OpenMP build by a relative 1e-9 */
#endif
  CARTS_BENCH_CHECKSUM(x);
  return 0;
}}
"""


@needs_gcc
def test_a_tolerance_override_tighter_than_the_difference_fails_the_run(run_cmd, tmp_path):
    root = tmp_path / "examples"
    shutil.copytree(INCLUDE, root / "include")
    for name, config in (("loose", ""), ("tight", "/* carts-benchmarks: tolerance=1e-12 */")):
        (root / name).mkdir()
        (root / name / f"{name}.c").write_text(DRIFT.format(config=config))
    proc = run_cmd("carts", "benchmarks", "run", "--examples", str(root), "--size", "mini",
                   "--threads", "1", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    rows = _table_rows(proc.stdout)
    assert rows["loose"][5] == "✓ pass"
    assert rows["tight"][5] == "✗ fail"
    assert "tight: checksum 1.000000001000e+00 (CARTS) vs 1.000000000000e+00 (OMP)" in proc.stdout
    assert "> tolerance 1e-12" in proc.stdout
    assert "1 passed" in proc.stdout and "1 failed" in proc.stdout
