// RUN: carts cgeist %s -S -fopenmp | FileCheck %s
// RUN: not carts cgeist %s -S -fopenmp -DSTRAY 2>&1 | FileCheck %s --check-prefix=STRAY

// A scan loop is three steps: a parallel loop runs each iteration's input phase on its own
// copy of x (the identity) and keeps it in part[k]; the encountering thread adds the parts
// up in order from x's value (part[k] becomes the inclusive prefix, x the total); a second
// parallel loop runs each iteration's scan phase with x = part[k].

// CHECK-LABEL: func.func @prefix(
// CHECK: %[[TRIPS:.*]] = arith.maxsi
// CHECK: %[[PART:.*]] = memref.alloc(%[[TRIPS]]) : memref<?xi32>
// CHECK: omp.parallel {
// CHECK: %[[MINE:.*]] = memref.alloca() : memref<i32>
// CHECK: omp.wsloop {
// CHECK: memref.store %c0_i32{{.*}}, %[[MINE]][]
// CHECK: %[[K:.*]] = arith.divsi
// CHECK: %[[V:.*]] = memref.load %[[MINE]][]
// CHECK: memref.store %[[V]], %[[PART]][%[[K]]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[TRIPS]] step
// CHECK: %[[SUM:.*]] = arith.addi
// CHECK: memref.store %[[SUM]], %[[PART]][%[[J]]]
// CHECK: omp.parallel {
// CHECK: omp.wsloop {
// CHECK: memref.load %[[PART]][%{{.*}}]
// CHECK: memref.dealloc %[[PART]]
void prefix(const int *a, int *out, int n) {
  int x = 0;
#pragma omp parallel for reduction(inscan, +: x)
  for (int i = 0; i < n; i++) {
    x += a[i];
#pragma omp scan inclusive(x)
    out[i] = x;
  }
}

#ifdef STRAY
void stray(int *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] += 1;
    // STRAY: omp-scan.c:[[@LINE+1]]:1: error: '#pragma omp scan' outside the body of a loop with a reduction(inscan, ...)
#pragma omp scan inclusive(n)
    a[i] += 2;
  }
}
#endif
