// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

// `#pragma omp critical [(name)]` is an omp.critical around its statement; a name is an
// omp.critical.declare (one per name), the unnamed section has none.

// CHECK-DAG: omp.critical.declare @critical_lo
// CHECK-DAG: omp.critical.declare @critical_hi
// CHECK-LABEL: func.func @main
// CHECK: omp.critical {
// CHECK: memref.store
// CHECK: omp.terminator
// CHECK: omp.critical(@critical_lo) {
// CHECK: omp.critical(@critical_hi) {
// CHECK: omp.critical(@critical_lo) {

int main(void) {
  long count = 0, lo = 0, hi = 0;
#pragma omp parallel for
  for (int i = 0; i < 100; i++) {
#pragma omp critical
    {
      count += 1;
      lo += i;
    }
#pragma omp critical(lo)
    lo += 1;
#pragma omp critical (hi)
    hi += i;
#pragma omp critical(lo)
    lo -= 1;
  }
  return (int)(count + lo + hi);
}
