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
