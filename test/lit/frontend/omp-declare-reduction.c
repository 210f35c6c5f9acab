// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

// A declared reduction whose combiner and initializer are a built-in operator's is that
// operator's reduction: `top` (a max written as ?:, from INT_MIN) is @max_i32, `lowest`
// (fmin from DBL_MAX) @min_f64; no reduction of another name is declared.

#include <float.h>
#include <limits.h>
#include <math.h>

#pragma omp declare reduction(top : int : omp_out = omp_out > omp_in ? omp_out : omp_in) initializer(omp_priv = INT_MIN)
#pragma omp declare reduction(lowest : double : omp_out = fmin(omp_in, omp_out)) initializer(omp_priv = DBL_MAX)

// CHECK-DAG: omp.declare_reduction @max_i32 : i32
// CHECK-DAG: omp.declare_reduction @min_f64 : f64
// CHECK-NOT: omp.declare_reduction @top
// CHECK: omp.wsloop reduction(@max_i32 %{{.*}} -> %{{.*}}, @min_f64 %{{.*}} -> %{{.*}} : memref<i32>, memref<f64>)
int main(void) {
  int best = 0;
  double low = 1e9;
#pragma omp parallel for reduction(top: best) reduction(lowest: low)
  for (int i = 0; i < 100; i++) {
    best = best > i % 17 ? best : i % 17;
    low = fmin(low, i * 0.5);
  }
  return best + (int)low;
}
