"""benchmarks/granularity: task_bench.c prints the same checksum in our build and gcc's, for
both dependence patterns; run.py's METG interpolation on tables whose answer is known; and a
short sweep of run.py end to end."""

from __future__ import annotations

import importlib.util
import json
import math

import pytest

from common import CHECKSUM_RTOL, ROOT, carts, checksum, gcc_openmp_output, needs_gcc

BENCH = ROOT / "benchmarks" / "granularity"
SOURCE = BENCH / "task_bench.c"


def load_run_py():
    spec = importlib.util.spec_from_file_location("granularity_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run_py = load_run_py()


@needs_gcc
@pytest.mark.parametrize("pattern", ["stencil", "trivial"])
def test_ours_and_gcc_print_the_same_checksum(tmp_path, pattern):
    # three points on two threads: both edges and an interior point
    flags = [f"-DPATTERN={pattern}", "-DSTEPS=20", "-DWIDTH=3", "-DITERS=100"]
    reference = checksum(gcc_openmp_output(SOURCE, tmp_path, 2, *flags))
    assert checksum(gcc_openmp_output(SOURCE, tmp_path, 1, *flags)) == reference
    ours = carts("execute", SOURCE, "--threads", 2, "--no-executable", *flags, cwd=tmp_path)
    assert ours.returncode == 0, ours.stderr
    assert "kernel.tasks:" in ours.stdout
    assert checksum(ours.stdout) == pytest.approx(reference, rel=CHECKSUM_RTOL)


def test_metg_interpolates_in_log_duration():
    durations = [16, 1, 4, 2, 8]  # any order
    efficiencies = [0.9, 0.1, 0.4, 0.2, 0.6]
    found, exact = run_py.metg(durations, efficiencies)
    assert exact and found == pytest.approx(math.sqrt(4 * 8))  # halfway between 4 and 8


def test_metg_is_the_last_crossing_from_the_largest_tasks_down():
    # 0.6 at duration 2 is above the threshold, but 4 is below it again: the curve stays
    # above 0.5 only from between 4 and 8 on, a quarter of the way (0.4 -> 0.8).
    found, exact = run_py.metg([1, 2, 4, 8, 16], [0.1, 0.6, 0.4, 0.8, 0.9])
    assert exact and found == pytest.approx(4 * 2 ** 0.25)


def test_metg_bounds_and_misses():
    assert run_py.metg([1, 2, 4], [0.5, 0.7, 0.9]) == (1, False)  # an upper bound
    assert run_py.metg([1, 2, 4], [0.1, 0.6, 0.49]) is None  # the largest tasks miss it
    assert run_py.metg([], []) is None


@needs_gcc
def test_a_short_sweep_reports_efficiencies(tmp_path, capsys):
    out = tmp_path / "sweep.json"
    assert run_py.main(["--threads", "2", "--steps", "20", "--runs", "2", "--min-iters", "256",
                        "--max-iters", "1024", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "METG(50%) stencil" in printed and "METG(50%) trivial" in printed
    result = json.loads(out.read_text())
    assert set(result["patterns"]) == {"stencil", "trivial"}
    for pattern in result["patterns"].values():
        rows = pattern["rows"]
        assert [r["iters"] for r in rows] == [256, 512, 1024]
        for r in rows:
            for system in ("ours", "gcc"):
                assert 0 < r[f"{system}_efficiency"] <= 1.5, (system, r)
