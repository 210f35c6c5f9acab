"""The sequential JIT path (front end -> upstream lowering -> LLVM IR -> llvmlite) proves
the front end right: every C test program and every example prints what `gcc -O2`
prints, and exit codes come through."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from carts_mlir.jit import mlir_to_llvm_ir, run_c_sequential, sequential_llvm_ir

from common import (CORPUS, CORPUS_FILES, EXAMPLE_FILES, INCLUDE, carts_forked, checksum_line,
                    gcc_run, ids, needs_gcc)


def execute(*args, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "carts_mlir", "execute", "--no-executable",
                           *map(str, args)], capture_output=True, text=True, timeout=timeout)


# ---------------------------------------------------------------------- corpus


@needs_gcc
@pytest.mark.parametrize("path", CORPUS_FILES, ids=ids(CORPUS_FILES))
def test_corpus_program_prints_what_gcc_prints(path, tmp_path):
    expected = gcc_run(path, tmp_path, f"-I{CORPUS}")
    assert expected.returncode == 0, expected.stdout
    ours = carts_forked("execute", "--no-executable", "--no-arts", f"-I{CORPUS}", path,
                        cwd=tmp_path)
    assert "Traceback" not in ours.stderr, ours.stderr
    assert ours.returncode == 0, ours.stdout + ours.stderr
    assert ours.stdout == expected.stdout
    assert ours.stdout.splitlines()[-1].startswith(f"ok {path.stem}")


# ---------------------------------------------------------------------- examples


def _example_cases():
    cases = []
    for path in EXAMPLE_FILES:
        cases.append(pytest.param(path, "MINI_DATASET", id=f"{path.stem}-mini"))
        cases.append(pytest.param(path, "SMALL_DATASET", id=f"{path.stem}-small"))
    return cases


@needs_gcc
@pytest.mark.parametrize("path,size", _example_cases())
def test_example_checksum_matches_gcc(path, size, tmp_path):
    expected = gcc_run(path, tmp_path, f"-I{INCLUDE}", f"-D{size}")
    assert expected.returncode == 0
    ours = carts_forked("execute", "--no-executable", "--no-arts", f"-I{INCLUDE}", f"-D{size}",
                        path, cwd=tmp_path)
    assert ours.returncode == 0, ours.stderr
    assert checksum_line(ours.stdout) == checksum_line(expected.stdout)
    # The timer lines of the output contract are there too (values differ).
    kernels = lambda out: [ln.split(":")[0] for ln in out.splitlines() if ln.startswith("kernel.")]
    assert kernels(ours.stdout) == kernels(expected.stdout)


# ---------------------------------------------------------------------- exit codes, argv


def test_exit_code_of_main_becomes_ours(tmp_path):
    src = tmp_path / "three.c"
    src.write_text("int main(void) { return 3; }\n")
    assert execute("--no-arts", src).returncode == 3


def test_exit_call_ends_the_program_with_its_code(tmp_path):
    src = tmp_path / "bye.c"
    src.write_text('#include <stdio.h>\n#include <stdlib.h>\n'
                   'int main(void) { printf("before\\n"); exit(5); printf("after\\n"); return 0; }\n')
    result = execute("--no-arts", src)
    assert result.returncode == 5
    assert result.stdout == "before\n"


def test_program_arguments_reach_main(tmp_path):
    src = tmp_path / "args.c"
    src.write_text('#include <stdio.h>\n#include <stdlib.h>\n'
                   'int main(int argc, char **argv) {\n'
                   '  printf("%d %d %s\\n", argc, atoi(argv[1]) * 2, argv[2]);\n'
                   '  return 0;\n}\n')
    result = execute("--no-arts", src, "--", "21", "word")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "3 42 word\n"


def test_emit_llvm_writes_the_module(tmp_path):
    src = tmp_path / "emit.c"
    src.write_text("int main(void) { return 0; }\n")
    result = subprocess.run([sys.executable, "-m", "carts_mlir", "execute", "--no-arts",
                             "--emit-llvm", str(src)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "define i32 @main()" in (tmp_path / "emit-seq.ll").read_text()


def test_front_end_errors_are_reported_not_run(tmp_path):
    src = tmp_path / "jump.c"
    src.write_text("int main(void) {\n  goto end;\nend:\n  return 1;\n}\n")
    result = execute("--no-arts", src)
    assert result.returncode == 1
    assert f"{src}:2:3: error: unsupported C construct: goto" in result.stderr
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------- Python API


def test_sequential_llvm_ir_defines_main_with_the_c_abi(tmp_path):
    src = tmp_path / "abi.c"
    src.write_text("int main(int argc, char **argv) { return argc; }\n")
    text = sequential_llvm_ir(str(src))
    assert re.search(r"define i32 @main\(i32 %\d+, ptr %\d+\)", text)


def test_mlir_text_lowers_to_llvm_ir():
    text = mlir_to_llvm_ir("""
      func.func @twice(%a: memref<?xf32>, %i: index) -> f32 {
        %v = memref.load %a[%i] : memref<?xf32>
        %r = arith.addf %v, %v : f32
        return %r : f32
      }""")
    assert "define float @twice(" in text and "fadd float" in text


def test_float_dot_product_is_vectorised_keeping_the_order_of_its_sum():
    # gcc -O3 multiplies 8 floats at a time and adds the products in source order; the JIT
    # does the same (an ordered vector reduction, no reassociation), so its result is the
    # scalar loop's bit for bit, and differs from a reassociated sum for these values.
    import ctypes

    import numpy as np

    from carts_mlir.jit import engine

    text = mlir_to_llvm_ir("""
      func.func @dot(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) -> f32 {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %zero = arith.constant 0.0 : f32
        %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = memref.load %a[%i] : memref<?xf32>
          %y = memref.load %b[%i] : memref<?xf32>
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %acc, %p : f32
          scf.yield %t : f32
        }
        return %s : f32
      }""")
    module, _ = engine.optimized_modules(text, engine.host_target_machine())
    optimised = str(module)
    assert "llvm.vector.reduce.fadd" in optimised
    assert "reassoc" not in optimised

    rng = np.random.default_rng(7)
    a = (rng.standard_normal(1000) * 10.0 ** rng.integers(-3, 4, 1000)).astype(np.float32)
    b = rng.standard_normal(1000).astype(np.float32)
    in_order = np.float32(0.0)
    for x, y in zip(a, b):
        in_order = np.float32(in_order + np.float32(x * y))
    assert in_order != np.float32(np.sum(a * b, dtype=np.float32))  # the order matters here

    program = engine.compile_llvm_ir(text)
    ptr, size = ctypes.c_void_p, ctypes.c_int64
    dot = ctypes.CFUNCTYPE(ctypes.c_float, ptr, ptr, size, size, size, ptr, ptr, size, size, size,
                           size)(program.engine.get_function_address("dot"))
    pa, pb = a.ctypes.data, b.ctypes.data
    assert np.float32(dot(pa, pa, 0, 1000, 1, pb, pb, 0, 1000, 1, 1000)) == in_order


def test_run_c_sequential_prints_to_the_real_stdout(tmp_path, capfd):
    src = tmp_path / "omp.c"
    src.write_text('#include <stdio.h>\n#include <omp.h>\n'
                   'int main(void) {\n  double t = omp_get_wtime();\n  int s = 0;\n'
                   '#pragma omp parallel for reduction(+:s)\n'
                   '  for (int i = 0; i < 10; i++) s += i;\n'
                   '  printf("%d %d %d %d\\n", s, omp_get_thread_num(), omp_get_num_threads(),\n'
                   '         omp_get_wtime() >= t);\n  return 7;\n}\n')
    code = run_c_sequential(str(src))
    assert code == 7
    assert capfd.readouterr().out == "45 0 1 1\n"


def test_openmp_environment_does_not_change_the_sequential_path(tmp_path):
    src = tmp_path / "threads.c"
    src.write_text('#include <stdio.h>\n#include <omp.h>\n'
                   'int main(void) { printf("%d\\n", omp_get_max_threads()); return 0; }\n')
    env = dict(os.environ, OMP_NUM_THREADS="4")
    result = subprocess.run([sys.executable, "-m", "carts_mlir", "execute", "--no-arts", str(src)],
                            capture_output=True, text=True, env=env)
    assert result.stdout == "1\n"


def test_a_lowering_failure_is_located_as_other_errors():
    from carts_mlir.errors import CartsError
    from carts_mlir.jit import mlir_to_llvm_ir

    text = "func.func @f(%c: i32) -> i32 {\n  %a = math.absi %c : i32\n  return %a : i32\n}\n"
    with pytest.raises(CartsError) as caught:
        mlir_to_llvm_ir(text)
    first = caught.value.render().splitlines()[0]
    assert re.fullmatch(r".*:2:8: error: failed to legalize operation 'math\.absi'.*", first), first


# ---------------------------------------------------------------------- OpenMP routines

#: A call of every host routine omp.h declares, with arguments that make sense from the
#: initial thread; the output is what the standard fixes about their answers there.
EVERY_ROUTINE = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
  omp_lock_t lock;
  omp_nest_lock_t nest;
  omp_sched_t kind;
  int chunk, ids[4], places[4];
  char buffer[64];
  omp_alloctrait_t traits[1];
  traits[0].key = omp_atk_alignment;
  traits[0].value = 64;
  omp_set_num_threads(2);
  int team = omp_get_num_threads() + omp_get_thread_num() + omp_in_parallel();
  int limits = omp_get_max_threads() > 0 && omp_get_num_procs() > 0 && omp_get_thread_limit() > 0;
  omp_set_dynamic(0);
  omp_set_nested(0);
  omp_set_schedule(omp_sched_guided, 3);
  omp_get_schedule(&kind, &chunk);
  omp_set_max_active_levels(1);
  int levels = omp_get_dynamic() + omp_get_cancellation() + omp_get_nested() +
               omp_get_supported_active_levels() + omp_get_max_active_levels() + omp_get_level() +
               omp_get_ancestor_thread_num(0) + omp_get_team_size(0) + omp_get_active_level();
  omp_get_place_proc_ids(0, ids);
  omp_get_partition_place_nums(places);
  int affinity = omp_get_proc_bind() + omp_get_num_places() + omp_get_place_num_procs(0) +
                 omp_get_place_num() + omp_get_partition_num_places();
  omp_set_affinity_format("%n");
  size_t format = omp_get_affinity_format(buffer, 64);
  omp_display_affinity("affinity %n of %N");
  size_t captured = omp_capture_affinity(buffer, 64, "%N");
  omp_set_num_teams(2);
  omp_set_teams_thread_limit(2);
  int teams = omp_get_num_teams() + omp_get_team_num() + omp_get_max_teams() +
              omp_get_teams_thread_limit();
  int tasks = omp_get_max_task_priority() + omp_in_explicit_task() + omp_in_final();
  int paused = omp_pause_resource(omp_pause_soft, 0) + omp_pause_resource_all(omp_pause_soft);
  omp_set_default_device(0);
  int devices = omp_get_default_device() + omp_get_num_devices() + omp_get_device_num() +
                omp_is_initial_device() + omp_get_initial_device();
  omp_init_lock(&lock);
  omp_set_lock(&lock);
  omp_unset_lock(&lock);
  int locked = omp_test_lock(&lock);
  omp_unset_lock(&lock);
  omp_destroy_lock(&lock);
  omp_init_lock_with_hint(&lock, omp_sync_hint_contended);
  omp_destroy_lock(&lock);
  omp_init_nest_lock(&nest);
  omp_set_nest_lock(&nest);
  locked += omp_test_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
  omp_destroy_nest_lock(&nest);
  omp_init_nest_lock_with_hint(&nest, omp_sync_hint_none);
  omp_destroy_nest_lock(&nest);
  int timed = omp_get_wtime() > 0 && omp_get_wtick() > 0;
  omp_allocator_handle_t aligned = omp_init_allocator(omp_default_mem_space, 1, traits);
  omp_set_default_allocator(omp_default_mem_alloc);
  int same = omp_get_default_allocator() == omp_default_mem_alloc;
  double *a = (double *)omp_alloc(8 * sizeof(double), aligned);
  double *b = (double *)omp_aligned_alloc(64, 8 * sizeof(double), omp_default_mem_alloc);
  double *c = (double *)omp_calloc(8, sizeof(double), omp_default_mem_alloc);
  double *d = (double *)omp_aligned_calloc(64, 8, sizeof(double), omp_default_mem_alloc);
  void *small = omp_alloc(16, omp_default_mem_alloc);
  void *e = omp_realloc(small, 32, omp_default_mem_alloc, omp_default_mem_alloc);
  a[7] = 1;
  b[7] = 2;
  double zero = c[7] + d[7];
  omp_free(a, aligned);
  omp_free(b, omp_default_mem_alloc);
  omp_free(c, omp_default_mem_alloc);
  omp_free(d, omp_default_mem_alloc);
  omp_free(e, omp_default_mem_alloc);
  omp_destroy_allocator(aligned);
  int tool = omp_control_tool(omp_control_tool_flush, 0, 0);
  omp_display_env(0);
  printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %g\n", team, limits, kind, chunk,
         levels, affinity, (int)format, (int)captured, teams, tasks, paused, devices, locked,
         timed, same, tool, zero);
  omp_fulfill_event(0);
  return 0;
}
"""


def test_every_openmp_host_routine_is_declared_and_links(tmp_path):
    """The program calls each routine of omp.h once; the JIT (ARTS and sequential) and the
    native executable resolve them all and agree."""
    from carts_mlir.openmp_routines import OPENMP_ROUTINES

    assert set(re.findall(r"\b(omp_\w+)\(", EVERY_ROUTINE)) == OPENMP_ROUTINES
    assert len(OPENMP_ROUTINES) >= 70
    src = tmp_path / "routines.c"
    src.write_text(EVERY_ROUTINE)
    # team, limits, guided 3, levels (0+0+0+1+1+0+0+1+0), no places (0-1), format "%n",
    # captured "1", teams (1+0+2+2), tasks, paused, devices (0+0+0+1+0), locked (1+2), timed,
    # same allocator, no tool (-2), calloc's zeros
    want = "1 1 3 3 3 -1 2 1 5 0 0 1 3 1 1 -2 0\n"
    runs = [execute("--threads", "2", src),
            execute("--no-arts", src)]
    exe = tmp_path / "routines_arts"
    build = subprocess.run([sys.executable, "-m", "carts_mlir", "execute", "--compile-only",
                            "-o", str(exe), str(src)], capture_output=True, text=True,
                           timeout=300)
    assert build.returncode == 0, build.stderr
    runs.append(subprocess.run([str(exe)], capture_output=True, text=True, timeout=60))
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert sorted(run.stdout.splitlines()) == sorted(want.splitlines()), run.stdout
        assert "OPENMP DISPLAY ENVIRONMENT BEGIN" in run.stderr
        assert "affinity 0 of 1\n" in run.stderr  # libgomp writes both to stderr
