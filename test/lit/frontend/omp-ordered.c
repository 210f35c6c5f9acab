// RUN: carts cgeist %s -S -fopenmp | FileCheck %s
// RUN: not carts cgeist %s -S -fopenmp -DDOACROSS 2>&1 | FileCheck %s --check-prefix=DOACROSS
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
  // DOACROSS: omp-ordered.c:[[@LINE+1]]:1: error: unsupported C construct: ordered(n) (doacross loops)
#pragma omp parallel for ordered(1)
  for (int i = 0; i < 100; i++)
    a[i] = i;
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
