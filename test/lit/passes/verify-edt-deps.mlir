// arts-verify-edt-deps: after create-dbs every task dependency is an acquire.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-verify-edt-deps)' --verify-diagnostics

// Dependencies from arts.db_acquire pass.
func.func @acquired(%r: i32, %g: memref<?xi64>, %p: memref<?xmemref<?xf32>>) {
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>) : memref<?xi64>, memref<?xmemref<?xf32>>
  arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
  ^bb0(%v: memref<?xmemref<?xf32>>):
    arts.db_release(%v : memref<?xmemref<?xf32>>)
  }
  return
}

// -----

// A task left in the half-built state of openmp-to-arts is reported.
func.func @still_unverified(%r: i32, %m: memref<?xf32>) {
  // expected-error @+1 {{task still marked no_verify after create-dbs}}
  arts.edt <task> <intranode> route(%r) (%m : memref<?xf32>) attributes {no_verify} {
  ^bb0(%v: memref<?xf32>):
  }
  return
}
