"""`carts analyze bandwidth`: the bytes a kernel must move (read from the IR, checked against a
count by hand from the C source), the kernel regions between the timers, and the command end
to end against real `-fopenmp` builds."""

from __future__ import annotations

import json
import shutil

import pytest

from carts_mlir.tools.bandwidth import (BANDS, BELOW_BANDS, MEMORY_BOUND, band, bandwidth_main,
                                  baseline_elements, compile_traffic, memory_bound_examples,
                                  repetition_seconds, timer_lines)
from carts_mlir.errors import CartsError
from common import EXAMPLES, INCLUDE

LAYERNORM = EXAMPLES / "ml-kernels" / "layernorm" / "layernorm.c"
FLOAT = 4

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")


# ------------------------------------------------------------------ bytes


def test_layernorm_bytes_match_a_count_from_the_source():
    batch, hidden = 6, 40  # 3 rows per worker: blocks hold the array exactly
    (kernel,) = compile_traffic(LAYERNORM, defines=[f"LN_BATCH={batch}", f"LN_HIDDEN={hidden}"],
                                includes=[INCLUDE], threads=2)
    x = y = batch * hidden * FLOAT
    mean = rstd = batch * FLOAT
    gamma = beta = hidden * FLOAT
    eps = FLOAT  # firstprivate(eps): the scalar goes to the tasks as a datablock of its own
    # the stats and normalize loops are one (arts-loop-fusion): it reads eps, x, gamma and
    # beta, writes y, and writes mean and rstd and reads them back (inout: both ways)
    fused = eps + x + gamma + beta + y + 2 * (mean + rstd)
    assert kernel.timer == "layernorm"
    assert kernel.bytes == fused
    assert [site.bytes for site in kernel.sites] == [fused]
    assert kernel.largest_datablock == x
    source_lines = LAYERNORM.read_text().splitlines()
    assert "CARTS_KERNEL_TIMER_START(layernorm)" in source_lines[kernel.start_line - 1]
    assert "CARTS_KERNEL_TIMER_STOP(layernorm)" in source_lines[kernel.stop_line - 1]


def test_a_loop_around_the_launches_multiplies_their_bytes(tmp_path):
    source = tmp_path / "sweeps.c"
    source.write_text("""\
#include "carts_bench.h"
#include <stdlib.h>
int main(void) {
  int n = 1000;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0.0; }
  CARTS_KERNEL_TIMER_START(sweeps);
  for (int t = 0; t < 7; t++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      b[i] = 2.0 * a[i];
  }
  CARTS_KERNEL_TIMER_STOP(sweeps);
  CARTS_BENCH_CHECKSUM(b[n - 1]);
  free(a);
  free(b);
  return 0;
}
""")
    (kernel,) = compile_traffic(source, includes=[INCLUDE], threads=2)
    assert kernel.bytes == 7 * (1000 * 8 + 1000 * 8)


def test_a_size_known_only_at_run_time_is_an_error_not_a_guess(tmp_path):
    source = tmp_path / "runtime_size.c"
    source.write_text("""\
#include "carts_bench.h"
#include <stdlib.h>
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  double *a = (double *)malloc(n * sizeof(double));
  CARTS_KERNEL_TIMER_START(fill);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = 1.0;
  CARTS_KERNEL_TIMER_STOP(fill);
  CARTS_BENCH_CHECKSUM(a[0]);
  free(a);
  return 0;
}
""")
    with pytest.raises(CartsError, match="not known at compile time") as err:
        compile_traffic(source, includes=[INCLUDE], threads=2)
    assert err.value.location == f"{source}:6"


# ------------------------------------------------------------------ regions


def test_timers_are_read_from_code_not_comments():
    text = ("/* CARTS_KERNEL_TIMER_START(old) */\n"
            "int main(void) {\n"
            "  // CARTS_KERNEL_TIMER_STOP(old)\n"
            "  CARTS_KERNEL_TIMER_START(a);\n"
            "  CARTS_KERNEL_TIMER_STOP(a);\n"
            "  CARTS_KERNEL_TIMER_START( b );\n"
            "  CARTS_KERNEL_TIMER_STOP(b);\n"
            "}\n")
    assert timer_lines(text) == {"a": (4, 5), "b": (6, 7)}


@pytest.mark.parametrize("body, message", [
    ("  int x = 0;\n", "no kernel timer"),
    ("  CARTS_KERNEL_TIMER_START(k);\n", "started but never stopped"),
    ("  CARTS_KERNEL_TIMER_STOP(k);\n", "stopped but never started"),
    ("  { CARTS_KERNEL_TIMER_START(k);\n  CARTS_KERNEL_TIMER_STOP(k); }\n"
     "  { CARTS_KERNEL_TIMER_START(k);\n  CARTS_KERNEL_TIMER_STOP(k); }\n", "more than once"),
])
def test_a_program_without_one_region_per_timer_is_an_error(body, message):
    with pytest.raises(CartsError, match=message) as err:
        timer_lines(f"int main(void) {{\n{body}  return 0;\n}}\n", "prog.c")
    assert err.value.location.startswith("prog.c")


def test_a_program_whose_timers_are_missing_fails_before_compiling(tmp_path):
    source = tmp_path / "untimed.c"
    source.write_text("int main(void) {\n  return 0;\n}\n")
    with pytest.raises(CartsError, match="no kernel timer") as err:
        compile_traffic(source, includes=[INCLUDE], threads=2)
    assert err.value.location == str(source)


def test_a_timer_inside_a_loop_has_no_single_region(tmp_path):
    source = tmp_path / "repeated.c"
    source.write_text("""\
#include "carts_bench.h"
#include <stdlib.h>
int main(void) {
  double *a = (double *)malloc(64 * sizeof(double));
  for (int r = 0; r < 3; r++) {
    CARTS_KERNEL_TIMER_START(k);
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
      a[i] = r;
    CARTS_KERNEL_TIMER_STOP(k);
  }
  CARTS_BENCH_CHECKSUM(a[0]);
  free(a);
  return 0;
}
""")
    with pytest.raises(CartsError, match="top level of main") as err:
        compile_traffic(source, includes=[INCLUDE], threads=2)
    assert err.value.location == f"{source}:6"


def test_a_timer_in_an_inlined_helper_counts_the_helpers_launches(tmp_path):
    source = tmp_path / "helper.c"
    source.write_text("""\
#include "carts_bench.h"
#include <stdlib.h>
static void kernel(double *a, int n) {
  CARTS_KERNEL_TIMER_START(k);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = 1.0;
  CARTS_KERNEL_TIMER_STOP(k);
}
int main(void) {
  double *a = (double *)malloc(64 * sizeof(double));
  kernel(a, 64);
  CARTS_BENCH_CHECKSUM(a[0]);
  free(a);
  return 0;
}
""")
    (kernel,) = compile_traffic(source, includes=[INCLUDE], threads=2)
    assert (kernel.start_line, kernel.stop_line, kernel.bytes) == (4, 8, 64 * 8)


# ------------------------------------------------------------------ pieces


def test_bands_follow_the_thresholds_strictly_above():
    assert [band(e) for e in (0.95, 0.71, 0.7, 0.5, 0.31, 0.3, 0.0)] == [
        "excellent", "excellent", "good", "acceptable", "acceptable", BELOW_BANDS, BELOW_BANDS]


def test_baseline_arrays_are_as_large_as_the_largest_datablock_with_a_floor():
    assert baseline_elements(256 * 2**20) == 32 * 2**20
    assert baseline_elements(8 * 3 * 2**20 + 1) == 3 * 2**20 + 1
    assert baseline_elements(4096) == 2**20


def test_every_repetition_of_a_timer_is_kept():
    out = "kernel.copy: 0.5s\nkernel.add: 0.25s\nkernel.copy: 0.125s\nchecksum: 1\n"
    assert repetition_seconds(out) == {"copy": [0.5, 0.125], "add": [0.25]}


def test_names_narrow_the_memory_bound_examples_and_others_are_refused():
    assert [ex.relpath for ex in memory_bound_examples(EXAMPLES, [])] == list(MEMORY_BOUND)
    assert [ex.name for ex in memory_bound_examples(EXAMPLES, ["jacobi2d", "layernorm"])] == [
        "jacobi2d", "layernorm"]
    with pytest.raises(CartsError, match="unknown benchmark 'gemm'"):
        memory_bound_examples(EXAMPLES, ["gemm"])


# ------------------------------------------------------------------ end to end


@needs_cc
def test_analyze_layernorm_and_activations_end_to_end(tmp_path, capsys):
    report, plot = tmp_path / "bw.json", tmp_path / "bw.png"
    code = bandwidth_main(["layernorm", "activations", "--size", "small", "--threads", "2",
                           "--runs", "1", "--json", str(report), "--plot", str(plot)])
    assert code == 0
    data = json.loads(report.read_text())
    assert [k["kernel"] for k in data["kernels"]] == [
        "layernorm", "activations/relu", "activations/gelu", "activations/sigmoid"]
    bands = {b["band"] for b in data["bands"]}
    assert bands == {label for _, label in BANDS} | {BELOW_BANDS}
    for k in data["kernels"]:
        assert k["bytes"] > 0 and k["bytes"] == sum(s["bytes"] for s in k["launch_sites"])
        assert k["checksum"]["match"], k["checksum"]
        for side in ("ours", "openmp"):
            m = k[side]
            assert m["seconds"] > 0 and m["gbps"] > 0 and m["baseline_gbps"] > 0
            assert m["gbps"] == pytest.approx(k["bytes"] / m["seconds"] / 1e9)
            assert m["efficiency"] == pytest.approx(m["gbps"] / m["baseline_gbps"])
            assert m["band"] == band(m["efficiency"])
    relu = data["kernels"][1]
    n = 1 << 20  # ACT_N of the small size: relu reads x and writes y_relu
    assert relu["bytes"] == 2 * n * FLOAT
    (baseline,) = data["baselines"]  # every kernel's arrays are below the floor of 1M doubles
    assert baseline["elements"] == 2**20
    for side in ("ours", "openmp"):
        ops = baseline[side]["operations"]
        assert set(ops) == {"copy", "scale", "add", "triad"}
        assert ops["add"]["bytes"] == 3 * 2**20 * 8 and ops["copy"]["bytes"] == 2 * 2**20 * 8
        assert baseline[side]["mean_gbps"] == pytest.approx(
            sum(op["gbps"] for op in ops.values()) / 4)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert "activations/sigmoid" in out and "efficiency" in out


def test_a_plot_path_that_cannot_be_written_fails_before_measuring(tmp_path):
    with pytest.raises(CartsError, match="directory does not exist"):
        bandwidth_main(["layernorm", "--plot", str(tmp_path / "missing" / "bw.png")])
