"""Lowered ARTS programs run on the native runtime: hand-written output of pre-lowering goes
through arts-to-llvm and the upstream conversion, is JIT-compiled with llvmlite and started
with ``main(argc, argv)`` (carts_mlir.jit.launch). Each program runs in a subprocess so that
its exit code and output are the process's own, as under ``carts execute``
(``common.run_arts_mlir``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from common import run_arts_mlir

#: Four tasks in one epoch each write one datablock block (block k, element i = 100k + i);
#: a second epoch runs one task reading all four blocks (slots 0..3) that adds each block's
#: sum into a global with atomic_add. main prints both sums and returns 3.
EPOCH_OF_BLOCK_WRITERS = """
module {
  llvm.mlir.global internal constant @fmt("sum = %ld acc = %ld\\0A\\00") {addr_space = 0 : i32}
  llvm.func @printf(!llvm.ptr, ...) -> i32
  memref.global "private" @acc : memref<i64> = dense<0>

  func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
    %k, %n = arts.edt_param_unpack %paramv : !llvm.ptr -> (index, index)
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c100 = arith.constant 100 : index
    %guid, %ptr = arts.dep_gep %depv[%c0] : !llvm.ptr -> !llvm.ptr
    %n64 = arith.index_cast %n : index to i64
    %d0 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %d1 = llvm.insertvalue %ptr, %d0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %d2 = llvm.insertvalue %ptr, %d1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %d3 = llvm.insertvalue %c0_i64, %d2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %d4 = llvm.insertvalue %n64, %d3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %d5 = llvm.insertvalue %c1_i64, %d4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %blk = builtin.unrealized_conversion_cast %d5 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xi64>
    %base = arith.muli %k, %c100 : index
    scf.for %i = %c0 to %n step %c1 {
      %v = arith.addi %base, %i : index
      %v64 = arith.index_cast %v : index to i64
      memref.store %v64, %blk[%i] : memref<?xi64>
    }
    return
  }

  func.func private @__arts_edt_1(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
    %n = arts.edt_param_unpack %paramv : !llvm.ptr -> (index)
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i64
    %acc = memref.get_global @acc : memref<i64>
    %nb = arith.index_cast %depc : i32 to index
    scf.for %s = %c0 to %nb step %c1 {
      %guid, %ptr = arts.dep_gep %depv[%s] : !llvm.ptr -> !llvm.ptr
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i64) {
        %i64 = arith.index_cast %i : index to i64
        %p = llvm.getelementptr %ptr[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, i64
        %x = llvm.load %p : !llvm.ptr -> i64
        %a2 = arith.addi %a, %x : i64
        scf.yield %a2 : i64
      }
      arts.atomic_add %sum, %acc[] : memref<i64>
    }
    return
  }

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %nb = arith.constant 4 : index
    %B = arith.constant 8 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %bytes = arith.constant 64 : i64
    %guids = memref.alloc(%nb) : memref<?xi64>
    %ptrs = memref.alloc(%nb) : memref<?xi64>
    scf.for %b = %c0 to %nb step %c1 {
      %g = arts.reserve_guid <write> route(%c0_i32)
      %raw = arts.db_create %g, %bytes : !llvm.ptr
      %ri = llvm.ptrtoint %raw : !llvm.ptr to i64
      memref.store %g, %guids[%b] : memref<?xi64>
      memref.store %ri, %ptrs[%b] : memref<?xi64>
    }
    %e = arts.create_epoch
    scf.for %k = %c0 to %nb step %c1 {
      %pv = arts.edt_param_pack(%k, %B : index, index) : memref<?xi64>
      %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c0_i32) epoch(%e)
      %sub = memref.subview %guids[%k] [1] [1] : memref<?xi64> to memref<1xi64, strided<[1], offset: ?>>
      arts.rec_dep %t slot(%c0_i32) (%sub : memref<1xi64, strided<[1], offset: ?>>) modes [#arts.mode<out>]
    }
    arts.wait_on_epoch %e
    %e2 = arts.create_epoch
    %pv2 = arts.edt_param_pack(%B : index) : memref<?xi64>
    %t2 = arts.edt_create @__arts_edt_1(%pv2 : memref<?xi64>) deps(%c4_i32) route(%c0_i32) epoch(%e2)
    arts.rec_dep %t2 slot(%c0_i32) (%guids : memref<?xi64>) modes [#arts.mode<in>]
    arts.wait_on_epoch %e2
    %z = arith.constant 0 : i64
    %sum = scf.for %b = %c0 to %nb step %c1 iter_args(%s = %z) -> (i64) {
      %ri = memref.load %ptrs[%b] : memref<?xi64>
      %raw = llvm.inttoptr %ri : i64 to !llvm.ptr
      %inner = scf.for %i = %c0 to %B step %c1 iter_args(%s2 = %s) -> (i64) {
        %i64 = arith.index_cast %i : index to i64
        %p = llvm.getelementptr %raw[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, i64
        %x = llvm.load %p : !llvm.ptr -> i64
        %s3 = arith.addi %s2, %x : i64
        scf.yield %s3 : i64
      }
      scf.yield %inner : i64
    }
    %acc = memref.get_global @acc : memref<i64>
    %accv = memref.load %acc[] : memref<i64>
    %f = llvm.mlir.addressof @fmt : !llvm.ptr
    %r = llvm.call @printf(%f, %sum, %accv) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i64) -> i32
    scf.for %b = %c0 to %nb step %c1 {
      %g = memref.load %guids[%b] : memref<?xi64>
      arts.db_destroy %g
    }
    memref.dealloc %guids : memref<?xi64>
    memref.dealloc %ptrs : memref<?xi64>
    %c3 = arith.constant 3 : i32
    return %c3 : i32
  }
}
"""

#: `int main(int argc, char **argv)` printing its arguments and the worker count, returning argc.
MAIN_WITH_ARGUMENTS = """
module {
  llvm.mlir.global internal constant @fmt("argc=%d argv[1]=%s workers=%u\\0A\\00") {addr_space = 0 : i32}
  llvm.func @printf(!llvm.ptr, ...) -> i32
  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %one = arith.constant 1 : i64
    %slot = llvm.getelementptr %argv[%one] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
    %arg1 = llvm.load %slot : !llvm.ptr -> !llvm.ptr
    %workers = arts.runtime_query <total_workers> : i32
    %f = llvm.mlir.addressof @fmt : !llvm.ptr
    %r = llvm.call @printf(%f, %argc, %arg1, %workers) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, !llvm.ptr, i32) -> i32
    return %argc : i32
  }
}
"""


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_epochs_of_block_tasks_give_the_sums_and_exit_code_3(tmp_path, threads):
    result = run_arts_mlir(tmp_path, EPOCH_OF_BLOCK_WRITERS, "prog", threads=threads)
    assert "Traceback" not in result.stderr, result.stderr
    # Blocks k = 0..3 of 8 elements 100k + i: 8 * 100 * 6 + 4 * 28.
    assert result.stdout.splitlines() == ["sum = 4912 acc = 4912", "[python] after the program"]
    assert result.returncode == 3, result.stdout + result.stderr


def test_main_receives_argc_argv_and_the_thread_count(tmp_path):
    result = run_arts_mlir(tmp_path, MAIN_WITH_ARGUMENTS, "prog", "hello", "x", "y", threads=3)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stdout.splitlines()[0] == "argc=4 argv[1]=hello workers=3"
    assert result.returncode == 4


def test_the_drivers_thread_count_beats_the_environment_and_arts_cfg(tmp_path, monkeypatch):
    """The worker count reaches the runtime through cartsSetThreads, not the environment:
    `threads=7` in the environment and `threads=5` in arts.cfg give way to the driver's 3."""
    monkeypatch.setenv("threads", "7")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "arts.cfg").write_text("threads=5\n")
    result = run_arts_mlir(tmp_path, MAIN_WITH_ARGUMENTS, "prog", "a", threads=3)
    assert result.stdout.splitlines()[0] == "argc=2 argv[1]=a workers=3", result.stderr
    without = run_arts_mlir(tmp_path, MAIN_WITH_ARGUMENTS, "prog", "a")  # no driver's count
    assert without.stdout.splitlines()[0] == "argc=2 argv[1]=a workers=7", without.stderr


def test_a_thread_count_above_the_bound_is_refused_before_the_run():
    from carts_mlir import runtime
    from carts_mlir.errors import CartsError
    from carts_mlir.jit.launch import runtime_threads

    with pytest.raises(CartsError, match="at most 4096"):
        with runtime_threads(4097):
            pass
    assert runtime.load().cartsSetThreads(4097) == -1


def test_emit_llvm_writes_the_program_with_its_entry_points(tmp_path):
    ll = tmp_path / "out" / "program-arts.ll"
    ll.parent.mkdir()
    result = run_arts_mlir(tmp_path, MAIN_WITH_ARGUMENTS, "prog", threads=1, emit=ll)
    assert result.returncode == 1, result.stdout + result.stderr
    text = ll.read_text()
    assert "define i32 @main(i32 %0, ptr %1)" in text
    assert "define void @artsMain(i32 %0, ptr %1)" in text
    assert "define i32 @mainBody(i32 %0, ptr %1)" in text
    assert "declare i32 @artsGetTotalWorkers()" in text
    assert [p.name for p in ll.parent.iterdir()] == ["program-arts.ll"]


def test_arts_llvm_path_is_named_after_the_source():
    from carts_mlir.jit.launch import arts_llvm_path

    assert arts_llvm_path("examples/ml-kernels/batchnorm/batchnorm.c") == Path("batchnorm-arts.ll")
    assert arts_llvm_path("a/b.c", "out") == Path("out/b-arts.ll")
