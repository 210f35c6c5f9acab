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

def CollectMetadata : Pass<"arts-collect-metadata", "ModuleOp"> {
  let summary = "loop and array facts as `arts.metadata`, shared by source location";
  let description = [{
    On the sequential compile of a program (a module without `omp.*` ops) it
    analyses every loop (`scf.for`, `scf.while`, `affine.for`, ...): trip
    count, nesting level, loop-carried dependences through memory and
    iter_args, reductions, per-iteration temporaries, and a class `parallel`,
    `reduction`, `sequential` or `unknown` (`unknown` whenever the test cannot
    prove a dependence or its absence). Every array (`memref.alloc`/`alloca`,
    memref function arguments) gets its rank, element type, shape, read and
    write counts and the access pattern of each dimension (`iv`, `affine`,
    `invariant`, `indirect`, `unknown`). The facts become a dictionary
    attribute `arts.metadata` on the op (on the function's argument
    attributes for arguments, on the `omp.wsloop` for an `omp.loop_nest`,
    whose printer drops discardable attributes) and a JSON file keyed by
    `file:line:col`, written atomically.

    On the OpenMP compile of the same file (a module with `omp.*` ops) it
    reads the file back and attaches each record to the op at the same source
    location, with `origin = "sequential"`; ops without a record, or every op
    when there is no file, get this module's own analysis with
    `origin = "parallel"`. A malformed file is an error.

    ```mlir
    // before
    scf.for %i = %c0 to %c32 step %c1 {
      %x = memref.load %a[%i] : memref<32xf32>
      memref.store %x, %b[%i] : memref<32xf32>
    }
    // after
    scf.for %i = %c0 to %c32 step %c1 {
      ...
    } {arts.metadata = {class = "parallel", level = 0 : i64, location = "f.c:3:3",
                        loop_carried = "no", origin = "sequential", trip_count = 32 : i64, ...}}
    ```
  }];
  let options = [
    Option<"metadataFile", "metadata-file", "std::string", "\".carts-metadata.json\"",
           "the JSON file written on the sequential compile and read on the OpenMP one">
  ];
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
