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

def ArtsToLlvm : Pass<"arts-to-llvm", "ModuleOp"> {
  let summary = "lower the remaining ARTS ops to runtime API calls; generate the entry points";
  let description = [{
    Input: the output of pre-lowering, where only lowered ARTS ops are left
    (`edt_param_pack`/`unpack`, `edt_create`, `rec_dep`, `dep_gep`,
    `reserve_guid`, `db_create`, `db_destroy`, `put_in_db_epoch`,
    `create_epoch`, `wait_on_epoch`, `runtime_query`, `atomic_add`). Each
    becomes calls of the runtime's C API (declared once, from one table in the
    pass) or plain memref/llvm ops: paramv is a heap buffer of u64 words freed
    after the last `edt_create` using it, `rec_dep` a loop of `artsRecordDep`
    over its GUID tables (READ = 8, WRITE = 9, CONCURRENT = 10), `dep_gep`
    loads from `artsEdtDep_t {i64 guid; i32 mode; ptr ptr}`, `atomic_add` a
    `memref.atomic_rmw`.

    The user's `main` (`int main(void)` or `int main(int, char **)`) becomes
    `mainBody`; the generated `artsMain(argc, argv)` calls it, stores its
    result in `@__carts_exit_code` and calls `artsShutdown`; the generated
    `main(argc, argv)` calls `artsSetEntryPoints(@artsMain, @initPerNode or
    null, @initPerWorker or null)` and `artsRT(argc, argv)`, and returns the
    stored exit code (or artsRT's result if it failed). A high-level ARTS op
    still present is an error at its location, and nothing is rewritten.

    The output still uses func/scf/memref/arith: the stage runs the upstream
    conversion to the LLVM dialect after this pass.

    ```mlir
    // before
    %e = arts.create_epoch
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0) (%g : memref<1xi64>) modes [#arts.mode<inout>]
    arts.wait_on_epoch %e
    // after
    %e = call @artsInitializeAndStartEpoch(%c0_i64, %c0_i32) : (i64, i32) -> i64
    %f = func.constant @__arts_edt_0 : (i32, !llvm.ptr, i32, !llvm.ptr) -> ()
    %fp = builtin.unrealized_conversion_cast %f : (i32, !llvm.ptr, i32, !llvm.ptr) -> () to !llvm.ptr
    %t = call @artsEdtCreateWithEpoch(%fp, %r, %paramc, %paramv, %c1, %e) : (...) -> i64
    %guid = memref.load %g[%c0] : memref<1xi64>
    call @artsRecordDep(%guid, %t, %slot, %c9_i32) : (i64, i64, i32, i32) -> ()
    %ok = call @artsWaitOnHandle(%e) : (i64) -> i1
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
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
