// RUN: carts cgeist %s -S -fopenmp | FileCheck %s
// RUN: carts cgeist %s -S -fopenmp -DDOACROSS | FileCheck %s --check-prefix=DOACROSS
// RUN: not carts cgeist %s -S -fopenmp -DOUTSIDE 2>&1 | FileCheck %s --check-prefix=OUTSIDE

// The ordered clause is the loop's ordered(0); `#pragma omp ordered` around a statement
// is an omp.ordered.region (openmp-to-arts then splits the loop).

// CHECK-LABEL: func.func @main
// CHECK: omp.wsloop ordered(0) {
// CHECK: omp.loop_nest
// CHECK: memref.store
// CHECK: omp.ordered.region {
// CHECK: memref.store
// CHECK: omp.terminator

int main(void) {
  int out[100];
  int k = 0;
  int a[100];
#pragma omp parallel for ordered
  for (int i = 0; i < 100; i++) {
    a[i] = i * 3;
#pragma omp ordered
    out[k++] = a[i];
  }
#ifdef DOACROSS
  // A doacross nest (ordered(2), OpenMP 5.2 spelling): the threads share the outer loop;
  // the statement holding the sink and source points (the inner loop) is the ordered part,
  // the work before it stays outside.
  // DOACROSS: omp.wsloop ordered(0) {
  // DOACROSS: omp.wsloop ordered(0) {
  // DOACROSS: omp.loop_nest (%{{.*}}) : index
  // DOACROSS: arith.muli
  // DOACROSS-NOT: omp.ordered.region
  // DOACROSS: memref.store
  // DOACROSS: omp.ordered.region {
  // DOACROSS: scf.for
  // DOACROSS: memref.load
  // DOACROSS: memref.store
  // DOACROSS: omp.terminator
  // DOACROSS-NOT: omp.ordered.region
#pragma omp parallel for ordered(2)
  for (int i = 1; i < 10; i++) {
    a[i] = i * 3;
    for (int j = 1; j < 10; j++) {
#pragma omp ordered doacross(sink: i - 1, j) doacross(sink: i, j - 1)
      out[i * 10 + j - 11] = out[i * 10 + j - 12] + a[i];
#pragma omp ordered doacross(source: omp_cur_iteration)
    }
  }
#endif
#ifdef OUTSIDE
#pragma omp parallel for
  for (int i = 0; i < 100; i++) {
    // OUTSIDE: omp-ordered.c:[[@LINE+1]]:1: error: '#pragma omp ordered' outside a loop with the 'ordered' clause
#pragma omp ordered
    a[i] = i;
  }
#endif
  return out[99] + k;
}
