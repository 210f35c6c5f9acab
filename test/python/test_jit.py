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

from common import (CORPUS, CORPUS_FILES, EXAMPLE_FILES, INCLUDE, checksum_line, gcc_run, ids,
                    needs_gcc)


def execute(*args, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "carts_mlir", "execute", "--no-executable",
                           *map(str, args)], capture_output=True, text=True, timeout=timeout)


# ---------------------------------------------------------------------- corpus


@needs_gcc
@pytest.mark.parametrize("path", CORPUS_FILES, ids=ids(CORPUS_FILES))
def test_corpus_program_prints_what_gcc_prints(path, tmp_path):
    expected = gcc_run(path, tmp_path, f"-I{CORPUS}")
    assert expected.returncode == 0, expected.stdout
    ours = execute("--no-arts", f"-I{CORPUS}", path)
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
    ours = execute("--no-arts", f"-I{INCLUDE}", f"-D{size}", path)
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
