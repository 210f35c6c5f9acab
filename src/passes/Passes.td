//===- Passes.td - ARTS pipeline passes ---------------------*- tablegen -*-===//
//
// Every pass of the ARTS pipeline. Pass argument = file name = lit test name:
// `arts-verify-no-omp` <-> VerifyNoOmp.cpp <-> test/lit/passes/verify-no-omp.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_PASSES
#define CARTS_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Stage passes
//===----------------------------------------------------------------------===//

def OpenMPToArts : Pass<"arts-openmp-to-arts", "ModuleOp"> {
  let summary = "convert the upstream omp dialect into ARTS tasks and work-sharing loops";
  let description = [{
    `omp.parallel` becomes a parallel `arts.edt` (a constant `num_threads`
    becomes `workers`), `omp.wsloop` + `omp.loop_nest` an `arts.for` over
    `index` bounds followed by `arts.barrier` unless `nowait`, `omp.single`
    and `omp.masked`/`omp.master` a single `arts.edt` (a barrier follows a
    `single` without `nowait`), `omp.barrier` an `arts.barrier`, and
    `omp_get_thread_num()` / `omp_get_num_threads()` / `omp_get_max_threads()`
    `arts.runtime_query`s. Reductions stay on the `arts.for` with their kind
    read from the `omp.declare_reduction` combiner; private clauses get a fresh
    copy inside each task. Collapsed loop nests keep the outermost loop as the
    `arts.for` and run the inner ones as `scf.for`. A work-sharing loop outside
    any parallel region gets its own parallel task; thread-private allocas of
    a parallel region that only one loop uses move into that loop's body, since
    its iterations, not the workers, become tasks. Tasks carry `no_verify`
    until create-dbs gives them datablock dependencies. Anything else of the
    omp dialect is reported at its location and the pass fails.

    ```mlir
    // before
    omp.parallel {
      omp.wsloop schedule(static) {
        omp.loop_nest (%i) : i32 = (%c0) to (%n) step (%c1) {
          ...
          omp.yield
        }
      }
      omp.terminator
    }
    // after
    arts.edt <parallel> <intranode> route(%c0_i32) attributes {no_verify} {
      arts.for (%lb) to (%ub) step (%s) schedule(<static>) {
      ^bb0(%iv: index):
        %i = arith.index_cast %iv : index to i32
        ...
      }
      arts.barrier
    }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::func::FuncDialect"];
}

def EdtLowering : Pass<"arts-edt-lowering", "ModuleOp"> {
  let summary = "outline every task into an EDT function; acquires become rec_dep/dep_gep";
  let description = [{
    The first pass of pre-lowering (before arts-db-lowering, which removes the
    `arts.db_alloc`s whose block shapes this pass reads). Each `arts.edt`,
    innermost first, becomes a private function
    `@__arts_edt_<n>(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr)`
    marked `arts.edt_function`, and at its place `arts.edt_param_pack`,
    `arts.edt_create` and one `arts.rec_dep` per acquire, in dependency order,
    on the acquire's GUID (sub)table (a `memref.subview` for indices, offsets
    and sizes). Each acquire fills as many consecutive slots as it selects
    blocks, row-major. In the outlined function each dependency's view table
    holds exactly its acquired blocks in slot order, rebuilt from
    `arts.dep_gep` and the block sizes, so `arts.db_ref %view[%i]` indexes the
    acquired range. Parameters, each value once and in this order: per
    dependency its acquired extents and its block sizes, the scalars the body
    captures, then the address and extents of any allocation GUID table the
    body creates tasks on without acquiring it (one node only). Constants are
    re-created instead of packed; releases disappear. A task capturing a
    memref that is no datablock, a value that is not a scalar, or a table it
    does not acquire is reported at its location.

    ```mlir
    // before
    %g, %p = arts.db_acquire <inout> (%gA, %pA : memref<?xi64>, memref<?xmemref<?xf32>>)
        offsets[%b] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p : memref<?xmemref<?xf32>>) {
    ^bb0(%v: memref<?xmemref<?xf32>>):
      %blk = arts.db_ref %v[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
      memref.store %x, %blk[%i] : memref<?xf32>
      arts.db_release(%v : memref<?xmemref<?xf32>>)
    }
    // after (host)
    %sub = memref.subview %gA[%b] [1] [1] : memref<?xi64> to memref<1xi64, strided<[1], offset: ?>>
    %pv = arts.edt_param_pack(%B, %x, %i : index, f32, index) : memref<?xi64>
    %e = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%r)
    arts.rec_dep %e slot(%c0_i32) (%sub : memref<1xi64, strided<[1], offset: ?>>) modes [#arts.mode<inout>]
    // after (task): %B, %x, %i from arts.edt_param_unpack; the view table from
    // arts.dep_gep %depv[%slot] + a descriptor of %B floats
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect"];
}

def DbLowering : Pass<"arts-db-lowering", "ModuleOp"> {
  let summary = "datablock tables become GUID and payload tables filled by the runtime";
  let description = [{
    Runs after arts-edt-lowering. `arts.db_alloc` becomes a GUID table and a
    payload table (`memref.alloc` of its result types) filled by a loop nest
    over the blocks: `arts.reserve_guid <db_mode> route(%route)`,
    `arts.db_create %guid, %bytes` (bytes = product of the element sizes times
    the element size), and the payload memref built from the raw pointer.
    `arts.db_ref` becomes a `memref.load` from its table; `arts.db_free`
    becomes `arts.db_destroy` per block and the dealloc of both tables.
    `distributed` is ignored for now (one node).

    ```mlir
    // before
    %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%nb] elementSizes[%B]
        : memref<?xi64>, memref<?xmemref<?xf32>>
    // after
    %g = memref.alloc(%nb) : memref<?xi64>
    %p = memref.alloc(%nb) : memref<?xmemref<?xf32>>
    scf.for %i = %c0 to %nb step %c1 {
      %guid = arts.reserve_guid <write> route(%r)
      %raw = arts.db_create %guid, %bytes : !llvm.ptr
      memref.store %guid, %g[%i] : memref<?xi64>
      memref.store %view, %p[%i] : memref<?xmemref<?xf32>>   // %view: %raw as memref<?xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def EpochLowering : Pass<"arts-epoch-lowering", "ModuleOp"> {
  let summary = "epochs become create_epoch / wait_on_epoch";
  let description = [{
    Runs after arts-edt-lowering. Each `arts.epoch` becomes
    `arts.create_epoch` before its inlined body and `arts.wait_on_epoch`
    after it; every `arts.edt_create` whose nearest enclosing epoch it was
    gets `epoch(%e)`.

    ```mlir
    // before
    %e = arts.epoch {
      %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%n) route(%r)
    }
    // after
    %e = arts.create_epoch
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%n) route(%r) epoch(%e)
    arts.wait_on_epoch %e
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect"];
}

//===----------------------------------------------------------------------===//
// Verification passes between stages
//===----------------------------------------------------------------------===//

def VerifyNoOmp : Pass<"arts-verify-no-omp", "ModuleOp"> {
  let summary = "fail if any omp.* operation is left after openmp-to-arts";
  let description = [{
    Sits after the openmp-to-arts stage: every OpenMP construct must have been
    converted, so any surviving `omp.*` op is reported at its location.

    ```mlir
    omp.barrier   // error: 'omp.barrier' left after openmp-to-arts
    ```
  }];
}

def VerifyEdtDeps : Pass<"arts-verify-edt-deps", "ModuleOp"> {
  let summary = "fail if a task dependency does not come from arts.db_acquire";
  let description = [{
    Sits after create-dbs: every `arts.edt` dependency is a datablock view
    produced by `arts.db_acquire`, and no task still carries `no_verify`.
  }];
}

def VerifyLowered : Pass<"arts-verify-lowered", "ModuleOp"> {
  let summary = "fail if a high-level ARTS op is left after pre-lowering";
  let description = [{
    Sits at the end of pre-lowering: tasks, loops, barriers, epochs and
    datablock tables must all have been lowered, so any `arts.edt`,
    `arts.for`, `arts.barrier`, `arts.epoch`, `arts.db_alloc`,
    `arts.db_acquire`, `arts.db_ref`, `arts.db_release` or `arts.db_free` is
    reported at its location.
  }];
}

#endif // CARTS_PASSES
