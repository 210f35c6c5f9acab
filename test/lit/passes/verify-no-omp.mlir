// arts-verify-no-omp accepts ARTS-only IR and reports every surviving omp op.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-verify-no-omp)' --verify-diagnostics

// No OpenMP left: the pass succeeds and reports nothing.
func.func @clean(%r: i32) {
  arts.edt <parallel> <intranode> route(%r) {
    arts.barrier
  }
  return
}

// -----

// Each leftover op is reported at its own location.
func.func @leftovers() {
  // expected-error @+1 {{'omp.parallel' left after openmp-to-arts}}
  omp.parallel {
    // expected-error @+1 {{'omp.barrier' left after openmp-to-arts}}
    omp.barrier
    // expected-error @+1 {{'omp.terminator' left after openmp-to-arts}}
    omp.terminator
  }
  return
}
