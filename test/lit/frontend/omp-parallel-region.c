// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

#include <omp.h>
#include <stdio.h>

// A parallel region with work-sharing loops, a barrier, single and master; the
// OpenMP runtime routines are plain calls.

// CHECK-DAG: func.func private @omp_get_thread_num() -> i32
// CHECK-DAG: func.func private @omp_get_num_threads() -> i32
// CHECK-DAG: func.func private @omp_get_wtime() -> f64

// CHECK-LABEL: func.func @phases(
// CHECK: omp.parallel {
// CHECK:   %[[TID:.*]] = memref.alloca() : memref<i32>
// CHECK:   %[[T:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK:   memref.store %[[T]], %[[TID]][] : memref<i32>
// CHECK:   omp.wsloop nowait {
// CHECK:     omp.loop_nest
// CHECK:   omp.barrier
// CHECK:   omp.single {
// CHECK:     llvm.call @printf
// CHECK:     omp.terminator
// CHECK:   }
// CHECK:   omp.master {
// CHECK:     func.call @omp_get_num_threads()
// CHECK:     omp.terminator
// CHECK:   }
// CHECK:   omp.wsloop {
// CHECK:   omp.terminator
// CHECK: }
double phases(float *a, float *b, int n) {
  int tid = 0;
  int nthreads = 1;
  double t0 = omp_get_wtime();
#pragma omp parallel private(tid)
  {
    tid = omp_get_thread_num();
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      a[i] = 1.0f;
#pragma omp barrier
#pragma omp single
    printf("thread %d\n", tid);
#pragma omp master
    nthreads = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = a[i] + nthreads;
  }
  return omp_get_wtime() - t0;
}

// A reduction on the parallel region itself: each thread adds into its own copy, which
// starts at the identity (scratch storage: set before any use), and combines it into the
// variable in a critical section at the end.
// CHECK-LABEL: func.func @count(
// CHECK: %[[C:.*]] = memref.alloca() : memref<i32>
// CHECK: omp.parallel {
// CHECK-NEXT: %[[MINE:.*]] = memref.alloca() {arts.scratch} : memref<i32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: memref.store %[[ZERO]], %[[MINE]][] : memref<i32>
// CHECK: memref.load %[[MINE]][] : memref<i32>
// CHECK: omp.critical {
// CHECK-NEXT: %[[ALL:.*]] = memref.load %[[C]][] : memref<i32>
// CHECK-NEXT: %[[PART:.*]] = memref.load %[[MINE]][] : memref<i32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[ALL]], %[[PART]] : i32
// CHECK-NEXT: memref.store %[[SUM]], %[[C]][] : memref<i32>
int count(void) {
  int c = 0;
#pragma omp parallel reduction(+ : c)
  c += 1;
  return c;
}

// A parallel region nested in another is a team of one: no second omp.parallel, its loop
// the plain loop, and inside it the thread number is 0 of 1 at level 2 (constants).
// CHECK-LABEL: func.func @nested(
// CHECK: omp.parallel {
// CHECK-NOT: omp.parallel
// CHECK-NOT: omp.wsloop
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK: scf.for
// CHECK: omp.terminator
int nested(int *out) {
  int total = 0;
#pragma omp parallel
  {
#pragma omp parallel
    {
      int me = omp_get_thread_num(), n = omp_get_num_threads(), level = omp_get_level();
#pragma omp for
      for (int i = 0; i < 4; i++)
        out[i] = me + n + level;
    }
  }
  return total;
}
