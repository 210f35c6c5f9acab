// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

// reduction(op: v) uses the omp dialect's reduction clause: one
// omp.declare_reduction per operator and type, the variable's rank-0 memref as the
// accumulator, and the region argument in its place inside the loop.

// CHECK: omp.declare_reduction @add_f64 : f64 init {
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: } combiner {
// CHECK: arith.addf
// CHECK: omp.declare_reduction @mul_i32 : i32 init {
// The max identity is -inf and the combiner maxnumf; min starts at the largest value.
// CHECK: omp.declare_reduction @max_f32 : f32 init {
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maxnumf
// CHECK: omp.declare_reduction @min_i64 : i64 init {
// CHECK: arith.constant 9223372036854775807 : i64
// CHECK: arith.minsi

// CHECK-LABEL: func.func @dot(
// CHECK: %[[S:.*]] = memref.alloca() : memref<f64>
// CHECK: omp.parallel {
// CHECK: omp.wsloop reduction(@add_f64 %[[S]] -> %[[ACC:.*]] : memref<f64>) {
// CHECK:   omp.loop_nest
// CHECK:     %[[OLD:.*]] = memref.load %[[ACC]][] : memref<f64>
// CHECK:     %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f64
// CHECK:     memref.store %[[NEW]], %[[ACC]][] : memref<f64>
// CHECK: memref.load %[[S]][] : memref<f64>
double dot(double *x, double *y, int n) {
  double s = 0.0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

// Several reductions in one clause list and operators * max min.
// CHECK-LABEL: func.func @stats(
// CHECK: omp.wsloop reduction(@mul_i32 %{{.*}} -> %{{.*}}, @max_f32 %{{.*}} -> %{{.*}}, @min_i64 %{{.*}} -> %{{.*}} : memref<i32>, memref<f32>, memref<i64>)
long stats(float *a, int n) {
  int p = 1;
  float mx = -1.0f;
  long mn = 1000;
#pragma omp parallel for reduction(* : p) reduction(max : mx) reduction(min : mn)
  for (int i = 0; i < n; i++) {
    p *= 2;
    if (a[i] > mx)
      mx = a[i];
    if (i < mn)
      mn = i;
  }
  return p + (long)mx + mn;
}

// An array section that is the whole of a small local array: the array is the accumulator
// (for-lowering keeps a partial per element); && combines with C's truth values.
// CHECK-LABEL: func.func @histogram(
// CHECK: %[[H:.*]] = memref.alloca() : memref<4xi32>
// CHECK: omp.wsloop reduction(@add_i32 %[[H]] -> %[[PH:[^,]*]], @land_i32 %{{.*}} -> %{{.*}} : memref<4xi32>, memref<i32>) {
// CHECK: memref.load %[[PH]][%{{.*}}] : memref<4xi32>
int histogram(int *a, int n) {
  int h[4] = {0, 0, 0, 0};
  int all = 1;
#pragma omp parallel for reduction(+ : h[:4]) reduction(&& : all)
  for (int i = 0; i < n; i++) {
    h[a[i] % 4] += 1;
    all = all && a[i] >= 0;
  }
  return h[0] + h[3] + all;
}

// A section of an array the function was given: each thread's own copy of the section
// (heap, set to the identity), the loop on it without waiting, the copy added into the
// array in a critical section, then freed.
// CHECK-LABEL: func.func @bin_counts(
// CHECK: omp.parallel {
// CHECK: %[[MINE:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[MINE]][%{{.*}}] : memref<?xi64>
// CHECK: omp.wsloop nowait {
// CHECK: memref.load %[[MINE]]
// CHECK: omp.critical {
// CHECK: scf.for
// CHECK: %[[OLD:.*]] = memref.load %arg1[%{{.*}}] : memref<?xi64>
// CHECK: %[[PART:.*]] = memref.load %[[MINE]][%{{.*}}] : memref<?xi64>
// CHECK: %[[SUM:.*]] = arith.addi %[[OLD]], %[[PART]] : i64
// CHECK: memref.store %[[SUM]], %arg1[%{{.*}}] : memref<?xi64>
// CHECK: memref.dealloc %[[MINE]] : memref<?xi64>
void bin_counts(const int *v, long *bins, int n, int nb) {
#pragma omp parallel for reduction(+: bins[0:nb])
  for (int i = 0; i < n; i++)
    bins[v[i] % nb] += 1;
}

// An element of a local array (`reduction(+: acc[1])`, the section acc[1:1]): each thread's
// own copy of the array is scratch storage (arts.scratch: set to the identity where the
// loop starts, before any use).
// CHECK-LABEL: func.func @element_of_local(
// CHECK: omp.parallel {
// CHECK: %[[OWN:.*]] = memref.alloca() {arts.scratch} : memref<4xf64>
// CHECK: memref.store %{{.*}}, %[[OWN]][%{{.*}}] : memref<4xf64>
// CHECK: omp.wsloop nowait {
double element_of_local(const double *v, int n) {
  double acc[4] = {0, 0, 0, 0};
#pragma omp parallel for reduction(+: acc[1])
  for (int i = 0; i < n; i++)
    acc[1] += v[i];
  return acc[1];
}
