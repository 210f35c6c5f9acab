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

def CanonicalizeMemrefs : Pass<"arts-canonicalize-memrefs", "ModuleOp"> {
  let summary = "inline helpers, then raise pointer-of-pointer arrays to N-D memrefs";
  let description = [{
    Runs first, on the front end's output. Every call to a defined function
    that is not (mutually) recursive is inlined, callees first; inlined ops
    keep their location with the call site stacked on it, a callee's
    fixed-size locals move to the top of the caller's frame, and private
    functions left without calls are erased. Then every pointer table (an
    outer `memref.alloc` of `memref<?xmemref<...>>` whose rows are allocated
    by loops over all its indices) of any rank becomes one N-D
    `memref.alloc` at the place of the outer allocation: element accesses
    through chains of row loads index the N-D array, and the row
    allocations, their init loops and the row frees are removed. A table
    whose rows escape (passed to a call left in place, stored into other
    memory), have different sizes or are not allocated for every index is
    reported at the offending op and the pass fails.

    ```mlir
    // before
    %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
    scf.for %i = %c0 to %n step %c1 {
      %row = memref.alloc(%m) : memref<?xf32>
      memref.store %row, %a[%i] : memref<?xmemref<?xf32>>
    }
    %r = memref.load %a[%i] : memref<?xmemref<?xf32>>
    %v = memref.load %r[%j] : memref<?xf32>
    // after
    %a = memref.alloc(%n, %m) : memref<?x?xf32>
    %v = memref.load %a[%i, %j] : memref<?x?xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

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

#endif // CARTS_PASSES
