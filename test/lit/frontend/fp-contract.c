// RUN: carts cgeist %s -S -ffp-contract=fast | FileCheck %s
// RUN: carts cgeist %s -S | FileCheck %s --check-prefix=OFF
// RUN: carts cgeist %s -S -fopenmp -ffp-contract=fast | FileCheck %s

// -ffp-contract=fast marks every floating-point multiply, add, subtract and negation with
// fastmath<contract>, so LLVM may fuse a multiply into the add that uses it (gcc's default
// where the target has FMA); the default leaves them unmarked. Integer arithmetic is never
// marked.

// CHECK-LABEL: func.func @axpy
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f64
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.negf %{{.*}} fastmath<contract> : f32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// OFF-LABEL: func.func @axpy
// OFF-NOT: fastmath
void axpy(int n, double a, double *x, double *y, float *z, int *k) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    y[i] = a * x[i] + y[i];
    z[i] = -(z[i] - 1.0f);
    k[i] = k[i] * 3;
  }
}
