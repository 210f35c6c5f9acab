"""`carts execute` on the ARTS path (the default): front end, collect-metadata on the
sequential compile, every pipeline stage on the OpenMP compile, llvmlite, the native runtime.
Every example and every program of the self-checking corpus prints what the `gcc -fopenmp`
build of the same file prints; exit codes, errors and the output files behave as a user
expects."""

from __future__ import annotations

import atexit
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from common import (CHECKSUM_RTOL, CORPUS, CORPUS_FILES, EXAMPLE_FILES, EXAMPLES, INCLUDE,
                    carts_forked, checksum, gcc_openmp_output, needs_gcc, write)


#: Where runs without a directory of their own leave their native executables.
SCRATCH = Path(tempfile.mkdtemp(prefix="carts-test-execute-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)


def execute(*args, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "carts_mlir", "execute", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, cwd=cwd or SCRATCH)


# ---------------------------------------------------------------------- examples


def _example_cases():
    # 8 workers at small size: launch loops of stable tasks go to launcher tasks
    sizes = (("MINI_DATASET", 2), ("SMALL_DATASET", 2), ("SMALL_DATASET", 8))
    return [pytest.param(path, size, threads,
                         id=f"{path.stem}-{size.split('_')[0].lower()}"
                            + (f"-threads={threads}" if threads != 2 else ""))
            for path in EXAMPLE_FILES for size, threads in sizes]


@needs_gcc
@pytest.mark.parametrize("path,size,threads", _example_cases())
def test_example_checksum_matches_gcc_openmp(path, size, threads, tmp_path):
    expected = gcc_openmp_output(path, tmp_path, threads, f"-I{INCLUDE}", f"-D{size}")
    ours = carts_forked("execute", "--no-executable", "-O3", f"-D{size}", "-I", INCLUDE,
                        "--threads", threads, path, cwd=tmp_path)
    assert ours.returncode == 0, ours.stderr
    assert "Traceback" not in ours.stderr
    want, got = checksum(expected), checksum(ours.stdout)
    assert abs(got - want) <= CHECKSUM_RTOL * max(abs(want), 1e-10), (got, want)
    timers = lambda out: [ln.split(":")[0] for ln in out.splitlines() if ln.startswith("kernel.")]
    assert timers(ours.stdout) == timers(expected)


# ---------------------------------------------------------------------- corpus


def _corpus_cases():
    cases = []
    for path in CORPUS_FILES:
        cases.append(pytest.param(path, 2, id=f"{path.name}-threads=2"))
        if path.name.startswith("omp_"):
            cases.append(pytest.param(path, 1, id=f"{path.name}-threads=1"))
            # 8 workers: launch loops of stable tasks go to launcher tasks (4 or more)
            cases.append(pytest.param(path, 8, id=f"{path.name}-threads=8"))
    return cases


@needs_gcc
@pytest.mark.parametrize("path,threads", _corpus_cases())
def test_corpus_program_prints_what_gcc_openmp_prints(path, threads, tmp_path):
    expected = gcc_openmp_output(path, tmp_path, threads, f"-I{CORPUS}")
    ours = carts_forked("execute", "--no-executable", f"-I{CORPUS}", "--threads", threads, path,
                        cwd=tmp_path)
    assert "Traceback" not in ours.stderr, ours.stderr
    assert ours.returncode == 0, ours.stdout + ours.stderr
    assert ours.stdout == expected
    assert ours.stdout.splitlines()[-1].startswith(f"ok {path.stem}")


# ---------------------------------------------------------------------- exit codes, errors


def test_help_lists_every_environment_variable():
    from carts_mlir import env

    for command in (["execute"], ["run"]):
        shown = subprocess.run([sys.executable, "-m", "carts_mlir", *command, "--help"],
                               capture_output=True, text=True)
        assert shown.returncode == 0, shown.stderr
        environment = shown.stdout.split("environment (", 1)[1]
        assert all(f"\n  {name} " in environment for name in env.VARIABLES), environment


def test_exit_code_of_main_becomes_ours(tmp_path):
    src = write(tmp_path, "three.c", "int main(void) {\n"
                "  int a[4];\n#pragma omp parallel for\n  for (int i = 0; i < 4; i++) a[i] = i;\n"
                "  return a[3];\n}\n")
    assert execute("--threads", 2, src).returncode == 3


def test_exit_inside_the_program_ends_it_with_its_code(tmp_path):
    src = write(tmp_path, "bye.c", '#include <stdio.h>\n#include <stdlib.h>\n'
                'int main(void) { printf("before\\n"); exit(5); printf("after\\n"); return 0; }\n')
    result = execute(src)
    assert result.returncode == 5
    assert result.stdout == "before\n"


def test_error_directive_at_execution_prints_where_it_is_reached(tmp_path):
    src = write(tmp_path, "stop.c", '#include <stdio.h>\nint main(void) {\n  int x = 0;\n'
                '#pragma omp parallel num_threads(2)\n#pragma omp single\n  {\n'
                '#pragma omp error at(execution) severity(warning) message("once")\n'
                '    x++;\n  }\n  printf("x=%d\\n", x);\n  if (x == 1) {\n'
                '#pragma omp error at(execution) message("stop")\n  }\n'
                '  printf("after\\n");\n  return 0;\n}\n')
    result = execute("--threads", 2, src)
    assert result.returncode == 1
    assert result.stdout == "x=1\n"
    assert f"{src}:7:1: warning: omp error: once\n" in result.stderr
    assert f"{src}:12:1: error: omp error: stop\n" in result.stderr
    assert "Traceback" not in result.stderr


def test_program_arguments_reach_main(tmp_path):
    src = write(tmp_path, "args.c", '#include <stdio.h>\n#include <stdlib.h>\n'
                'int main(int argc, char **argv) {\n'
                '  printf("%d %d %s\\n", argc, atoi(argv[1]) * 2, argv[2]);\n  return 0;\n}\n')
    result = execute(src, "--", "21", "word")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "3 42 word\n"


def test_unsupported_construct_is_the_front_ends_located_error(tmp_path):
    src = write(tmp_path, "target.c", "int main(void) {\n  int x = 0;\n#pragma omp parallel\n"
                "  {\n#pragma omp target\n    x += 1;\n  }\n  return x;\n}\n")
    result = execute("--emit-llvm", src, cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{src}:5:" in result.stderr and "error:" in result.stderr
    assert result.stdout == ""
    assert not (tmp_path / "target-arts.ll").exists()


def test_a_pipeline_error_names_the_source_location(tmp_path):
    # A table whose rows are not allocated for every index, read by parallel code: it cannot
    # become an N-D datablock.
    src = write(tmp_path, "rows.c", "#include <stdlib.h>\nint main(void) {\n"
                "  float **a = (float **)malloc(4 * sizeof(float *));\n"
                "  for (int i = 1; i < 4; i++) a[i] = (float *)malloc(4 * sizeof(float));\n"
                "  float s = 0;\n#pragma omp parallel for reduction(+ : s)\n"
                "  for (int i = 1; i < 4; i++) s += a[i][0];\n  return (int)s;\n}\n")
    result = execute(src)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{src}:4:" in result.stderr and "cannot raise" in result.stderr


def test_a_pass_refusal_is_one_located_line_without_an_ir_dump(tmp_path):
    # Two ordered blocks in one loop: the OpenMP conversion refuses each, at its pragma; the
    # user sees those errors and the command that reproduces them, not the ops in MLIR form.
    src = write(tmp_path, "two.c", "int main(void) {\n  int s = 0, t = 0;\n"
                "#pragma omp parallel for ordered\n  for (int i = 0; i < 8; i++) {\n"
                "#pragma omp ordered\n    s += i;\n#pragma omp ordered\n    t += i;\n  }\n"
                "  return s - t;\n}\n")
    result = execute(src, cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines[:2] == [f"{src}:5:1: error: a loop with more than one omp.ordered.region is "
                         "not supported",
                         f"{src}:7:1: error: a loop with more than one omp.ordered.region is "
                         "not supported"]
    assert len(lines) == 3 and lines[2].startswith("reproduce with: carts-opt ")
    assert "memref.load" not in result.stderr


def test_emit_llvm_writes_the_arts_program(tmp_path):
    src = write(tmp_path, "emit.c", "int main(void) {\n  int a[8];\n#pragma omp parallel for\n"
                "  for (int i = 0; i < 8; i++) a[i] = i;\n  return a[7] - 7;\n}\n")
    result = execute("--emit-llvm", "--threads", 2, src, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "emit-arts.ll").read_text()
    assert "define i32 @main(" in text and "artsMain" in text and "artsEdtCreate" in text


@pytest.mark.parametrize("arts", [True, False], ids=["arts", "no-arts"])
def test_fp_contract_fast_reaches_the_llvm_ir_and_off_is_the_default(arts, tmp_path):
    src = write(tmp_path, "fma.c", "#include <stdio.h>\nint main(void) {\n  double y[64];\n"
                "#pragma omp parallel for\n  for (int i = 0; i < 64; i++) y[i] = 0.5 * i + 1.0;\n"
                "  double s = 0;\n  for (int i = 0; i < 64; i++) s += y[i];\n"
                "  printf(\"%g\\n\", s);\n  return 0;\n}\n")
    mode = [] if arts else ["--no-arts"]
    ll = tmp_path / ("fma-arts.ll" if arts else "fma-seq.ll")
    texts = {}
    for flag in ([], ["-ffp-contract=fast"]):
        result = execute(*mode, *flag, "--emit-llvm", "--no-executable", "--threads", 2, src,
                         cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout == "1072\n"  # exact either way: every value is a multiple of 0.5
        texts[bool(flag)] = ll.read_text()
    assert re.search(r"= fmul contract double", texts[True])
    assert re.search(r"= fadd contract double", texts[True])
    assert "contract" not in texts[False]


def test_execute_leaves_a_native_executable_that_runs_on_its_own(tmp_path):
    source = EXAMPLES / "ml-kernels" / "batchnorm" / "batchnorm.c"
    result = execute(source, "-O3", "-DMINI_DATASET", "-I", INCLUDE, "--threads", 2, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    exe = tmp_path / "batchnorm_arts"
    assert exe.is_file() and os.access(exe, os.X_OK)
    # from another directory, with nothing of the package in its environment
    env = {"PATH": os.environ.get("PATH", ""), "threads": "2"}
    alone = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, cwd="/",
                           env=env)
    assert alone.returncode == 0, alone.stderr
    assert checksum(alone.stdout) == checksum(result.stdout)
    assert "kernel.batchnorm:" in alone.stdout


def test_the_executable_keeps_the_programs_exit_code_and_arguments(tmp_path):
    src = write(tmp_path, "code.c", '#include <stdio.h>\n#include <stdlib.h>\n'
                'int main(int argc, char **argv) {\n  int s = 0;\n'
                '#pragma omp parallel for reduction(+ : s)\n'
                '  for (int i = 0; i < 100; i++) s += i;\n'
                '  printf("%d %s\\n", s, argc > 1 ? argv[1] : "-");\n'
                '  return argc > 1 ? atoi(argv[1]) : 0;\n}\n')
    out = tmp_path / "bin" / "prog"
    out.parent.mkdir()
    result = execute(src, "--compile-only", "-o", out, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "code_arts").exists()
    done = subprocess.run([str(out), "5"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "threads": "3"})
    assert (done.returncode, done.stdout) == (5, "4950 5\n")


def test_executable_options_are_checked(tmp_path):
    src = write(tmp_path, "one.c", "int main(void) { return 0; }\n")
    missing = execute(src, "-o", tmp_path / "no" / "such" / "dir" / "prog", cwd=tmp_path)
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    assert "cannot write output" in missing.stderr
    assert not list((tmp_path).glob(".prog*"))
    both = execute(src, "-o", tmp_path / "x", "--no-executable", cwd=tmp_path)
    assert both.returncode == 1 and "--no-executable" in both.stderr
    none = execute(src, "--no-executable", cwd=tmp_path)
    assert none.returncode == 0 and not (tmp_path / "one_arts").exists()


def test_compile_only_reports_the_build_and_runs_nothing(tmp_path):
    src = write(tmp_path, "quiet.c", '#include <stdio.h>\n'
                'int main(void) { printf("ran\\n"); return 4; }\n')
    result = execute("--compile-only", src)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("carts execute: compiled in ")


def test_worker_count_reaches_the_program(tmp_path):
    src = write(tmp_path, "team.c", '#include <stdio.h>\n#include <omp.h>\n'
                'int main(void) {\n  int seen[16];\n  for (int t = 0; t < 16; t++) seen[t] = 0;\n  int n = 0;\n'
                '#pragma omp parallel\n  {\n    seen[omp_get_thread_num()] = 1;\n'
                '#pragma omp single\n    n = omp_get_num_threads();\n  }\n'
                '  int covered = 0;\n  for (int t = 0; t < 16; t++) covered += seen[t];\n'
                '  printf("%d %d %d\\n", n, covered, omp_get_max_threads());\n  return 0;\n}\n')
    for threads in (1, 3):
        result = execute("--threads", threads, src)
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"{threads} {threads} {threads}\n"


def traced_rows(src: Path, threads: int, tmp_path: Path):
    """`carts execute --threads T` of `src` with a trace; its result and the trace's rows
    (task, worker, routed, ...), one per task run."""
    trace = tmp_path / (src.stem + ".csv")
    env = dict(os.environ, trace=str(trace))
    done = subprocess.run([sys.executable, "-m", "carts_mlir", "execute", "--threads",
                           str(threads), "--no-executable", str(src)], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    with trace.open() as f:
        return done, list(csv.DictReader(f))


def traced_execute(src: Path, threads: int, tmp_path: Path):
    """As traced_rows, with the traced tasks' names, one per task run."""
    done, rows = traced_rows(src, threads, tmp_path)
    return done, [row["task"] for row in rows]


def test_trace_names_the_jit_compiled_tasks(tmp_path):
    src = write(tmp_path, "traced.c", "#include <stdio.h>\nint main(void) {\n  double a[64];\n"
                "#pragma omp parallel for\n  for (int i = 0; i < 64; i++) a[i] = i;\n"
                '  printf("%g\\n", a[63]);\n  return 0;\n}\n')
    done, ran = traced_execute(src, 2, tmp_path)
    assert done.stdout == "63\n"
    names = set(ran)
    assert "artsMain" in names
    tasks = names - {"artsMain"}
    # the loop's chunks, named by the JIT host (code in memory has no symbols)
    assert tasks and all(name.startswith("__arts_edt_") for name in tasks), names


#: Three matrix-vector products of one input, as a transformer layer's q/k/v with fewer k
#: and v heads (256, 192 and 128 rows): one epoch of three loops whose tasks only read stable
#: datablocks and write their own blocks. Their heights differ, so they stay three loops
#: (products of one height would be fused into one loop by arts-loop-fusion).
THREE_PRODUCTS = """#include <stdio.h>
#include <stdlib.h>
#define N 256
static void matvec(float *out, const float *x, float **w, int rows) {
#pragma omp parallel for
  for (int i = 0; i < rows; i++) {
    float s = 0.0f;
    for (int j = 0; j < N; j++) s += w[i][j] * x[j];
    out[i] = s;
  }
}
static float **matrix(int n, int seed) {
  float **m = malloc(n * sizeof(float *));
  for (int i = 0; i < n; i++) {
    m[i] = malloc(N * sizeof(float));
    for (int j = 0; j < N; j++) m[i][j] = (float)((i * seed + j) % 5) - 2.0f;
  }
  return m;
}
int main(void) {
  float *x = malloc(N * sizeof(float)), *q = calloc(N, sizeof(float));
  float *k = calloc(N, sizeof(float)), *v = calloc(N, sizeof(float));
  float **wq = matrix(N, 1), **wk = matrix(N, 2), **wv = matrix(N, 3);
  for (int i = 0; i < N; i++) x[i] = (float)(i % 7) - 3.0f;
  double total = 0.0;
  for (int step = 0; step < 3; step++) {
    matvec(q, x, wq, N);
    matvec(k, x, wk, 3 * N / 4);
    matvec(v, x, wv, N / 2);
    for (int i = 0; i < N; i++) {
      total += q[i] + 2.0 * k[i] + 3.0 * v[i];
      x[i] = (q[i] - k[i] + v[i]) / 256.0f;
    }
  }
  printf("total %.6f\\n", total);
  return 0;
}
"""


def traced_as_gcc_prints(tmp_path: Path, name: str, source: str, threads: int) -> list[str]:
    """The traced tasks' names of `carts execute --threads T` of `source`, after checking that
    it printed what its `gcc -fopenmp` build prints on as many threads."""
    src = write(tmp_path, name, source)
    expected = gcc_openmp_output(src, tmp_path, threads)
    done, names = traced_execute(src, threads, tmp_path)
    assert done.stdout == expected
    return names


@needs_gcc
def test_launcher_tasks_share_the_launches_and_the_result_is_gccs(tmp_path):
    names = traced_as_gcc_prints(tmp_path, "qkv.c", THREE_PRODUCTS, 8)
    launchers = [name for name in names if name.startswith("__arts_launch_")]
    chunks = [name for name in names if name.startswith("__arts_edt_")]
    # three steps of one epoch: q's 7 chunks and k's 6 have two launchers each (groups of up
    # to 4); v's 4 chunks are one group, the last loop's last, which the creator launches
    assert len(launchers) == 3 * (2 + 2), sorted(set(names))
    assert len(chunks) == 3 * (7 + 6 + 4)


@needs_gcc
def test_independent_short_loops_of_one_epoch_ask_for_different_workers(tmp_path):
    src = write(tmp_path, "spread.c", THREE_PRODUCTS)
    expected = gcc_openmp_output(src, tmp_path, 16)
    done, rows = traced_rows(src, 16, tmp_path)
    assert done.stdout == expected
    asked: dict[str, set[str]] = {}
    runs: dict[str, int] = {}
    for row in rows:
        if row["task"].startswith("__arts_edt_"):
            asked.setdefault(row["task"], set()).add(row["routed"])
            runs[row["task"]] = runs.get(row["task"], 0) + 1
    # three loops of fewer chunks than workers, three steps each; the loops do not write what
    # the others touch, so each starts where the one before it ended (modulo the workers):
    # together they ask for every worker, not only the first loop's
    assert len(asked) == 3, runs
    chunks = {name: count // 3 for name, count in runs.items()}
    assert all(len(asked[name]) == chunks[name] < 16 for name in asked), (asked, chunks)
    assert len(set().union(*asked.values())) == min(16, sum(chunks.values())), asked


#: A matrix product heavy enough (about 18 million operations a worker's share at 16 workers)
#: to be cut into 8 chunks per worker, then a light loop and a reduction over the same rows.
BALANCED_PRODUCT = """#include <stdio.h>
#include <stdlib.h>
#define N 384
int main(void) {
  double **a = malloc(N * sizeof(double *)), **b = malloc(N * sizeof(double *));
  double **c = malloc(N * sizeof(double *));
  for (int i = 0; i < N; i++) {
    a[i] = malloc(N * sizeof(double)); b[i] = malloc(N * sizeof(double));
    c[i] = malloc(N * sizeof(double));
    for (int j = 0; j < N; j++) {
      a[i][j] = (double)((i + 2 * j) % 7) - 3.0;
      b[i][j] = (double)((3 * i + j) % 5) - 2.0;
    }
  }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) c[i][j] = 0.0;
    for (int k = 0; k < N; k++)
      for (int j = 0; j < N; j++) c[i][j] += a[i][k] * b[k][j];
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) c[i][i] += (double)i;
  double total = 0.0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) total += c[i][j] * (double)(1 + (i + j) % 3);
  printf("total %.1f c %.1f %.1f\\n", total, c[0][0], c[N - 1][N - 2]);
  return 0;
}
"""


@needs_gcc
def test_heavy_loop_is_cut_into_eight_chunks_per_worker_and_the_result_is_gccs(tmp_path):
    names = traced_as_gcc_prints(tmp_path, "balanced.c", BALANCED_PRODUCT, 16)
    runs: dict[str, int] = {}
    for name in names:
        if name.startswith("__arts_edt_"):
            runs[name] = runs.get(name, 0) + 1
    # the product's chunk task runs 128 times (16 workers x 8); the lighter loops' fewer
    assert sorted(runs.values())[-1] == 128, runs
    assert sorted(runs.values())[-2] <= 16, runs


#: Three loops over the same rows of global arrays, each touching only its own row of what
#: another writes, then a loop reading every row of b: the first three run as one loop, the
#: fourth as its own.
FUSABLE_LOOPS = """#include <stdio.h>
#define N 512
#define M 8
static double a[N], b[N], c[N][M], d[N];
int main(void) {
  for (int step = 0; step < 2; step++) {
#pragma omp parallel for
    for (int i = 0; i < N; i++) a[i] = (double)((i * 7 + step) % 13) - 6.0;
#pragma omp parallel for
    for (int i = 0; i < N; i++) b[i] = a[i] * a[i] + 1.0;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++) c[i][j] = b[i] - a[i] * (double)j;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
      double s = 0.0;
      for (int j = 0; j < N; j++) s += b[j] * (double)((i + j) % 3);
      d[i] = s + c[i][i % M];
    }
  }
  double total = 0.0;
  for (int i = 0; i < N; i++) total += d[i];
  printf("total %.3f c %.3f\\n", total, c[N - 1][M - 1]);
  return 0;
}
"""


#: A matrix-vector product whose rows are sequential float sums, over 103 rows (not a
#: multiple of four, so a chunk has rows left over after the jammed groups).
MATVEC = """#include <stdio.h>
#define ROWS 103
#define COLS 77
static float w[ROWS][COLS], x[COLS], y[ROWS];
int main(void) {
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) w[i][j] = (float)((i * 31 + j * 17) % 23) / 7.0f - 1.3f;
  for (int j = 0; j < COLS; j++) x[j] = (float)(j % 11) / 3.0f - 1.1f;
#pragma omp parallel for
  for (int i = 0; i < ROWS; i++) {
    float val = 0.0f;
    for (int j = 0; j < COLS; j++) val += w[i][j] * x[j];
    y[i] = val;
  }
  for (int i = 0; i < ROWS; i++) printf("%a\\n", y[i]);
  return 0;
}
"""


def test_rows_of_a_reduction_chain_run_four_at_a_time_with_the_sequential_sums(tmp_path):
    src = write(tmp_path, "matvec.c", MATVEC)
    # the chunk loop is jammed: collect-metadata's facts (the sequential compile's) call the
    # inner loop a reduction
    seq, omp = tmp_path / "seq.mlir", tmp_path / "omp.mlir"
    carts = [sys.executable, "-m", "carts_mlir"]
    for out, flags in ((seq, ()), (omp, ("-fopenmp",))):
        subprocess.run([*carts, "cgeist", str(src), *flags, "-o", str(out)], check=True,
                       cwd=tmp_path)
    subprocess.run([*carts, "run", str(seq), "--collect-metadata", "-o", str(tmp_path / "s.mlir")],
                   check=True, cwd=tmp_path, capture_output=True)
    lowered = subprocess.run([*carts, "run", str(omp), "--pre-lowering", "--debug-only=unroll-jam",
                              "-o", str(tmp_path / "o.mlir")], cwd=tmp_path, capture_output=True,
                             text=True, env=dict(os.environ, threads="4"))
    assert lowered.returncode == 0, lowered.stderr
    assert "chunk loop jammed by 4" in lowered.stderr, lowered.stderr
    # every row adds the same floats in the same order as the sequential program: the printed
    # bits are the same
    sequential = execute("--no-arts", src, cwd=tmp_path)
    ours = execute("--threads", "4", src, cwd=tmp_path)
    assert sequential.returncode == 0 and ours.returncode == 0, ours.stderr
    assert len(ours.stdout.splitlines()) == 103
    assert ours.stdout == sequential.stdout


@needs_gcc
def test_adjacent_loops_over_their_own_rows_run_as_one_loop_and_the_result_is_gccs(tmp_path):
    names = traced_as_gcc_prints(tmp_path, "fused.c", FUSABLE_LOOPS, 4)
    loops = sorted({name for name in names if name.startswith("__arts_edt_")})
    # a, b and c's loops are one chunk task, d's (every row of b) another
    assert len(loops) == 2, loops
