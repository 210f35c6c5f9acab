// RUN: carts cgeist %s -S -fopenmp | FileCheck %s
// RUN: carts cgeist %s -S | FileCheck %s --check-prefix=SEQ

// A threadprivate global holds a copy per thread number (its first dimension, every
// copy with the initial value); each access indexes it with omp_get_thread_num().
// copyin reads the encountering thread's copy before the region and stores it into
// each thread's copy at the region's start. Without -fopenmp the pragma is ignored.

// CHECK-DAG: memref.global @counter : memref<4096xi32> = dense<3>
// CHECK-DAG: memref.global "private" @acc : memref<4096x2xf64> = dense<2.000000e+00>
// SEQ-DAG: memref.global @counter : memref<i32> = dense<3>
// SEQ-DAG: memref.global "private" @acc : memref<2xf64>
int counter = 3;
static double acc[2] = {2.0, 2.0};
#pragma omp threadprivate(counter, acc)

// CHECK-LABEL: func.func @bump(
// CHECK: %[[G:.*]] = memref.get_global @counter : memref<4096xi32>
// CHECK: %[[T:.*]] = call @omp_get_thread_num() : () -> i32
// CHECK: %[[I:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK: memref.load %[[G]][%[[I]]] : memref<4096xi32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4096xi32>
void bump(int by) { counter += by; }

// CHECK-LABEL: func.func @region(
// CHECK: %[[MINE:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<4096xi32>
// CHECK: omp.parallel {
// CHECK: %[[T:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK: %[[I:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK: memref.store %[[MINE]], %{{.*}}[%[[I]]] : memref<4096xi32>
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4096x2xf64>
double region(void) {
  double s = 0;
#pragma omp parallel copyin(counter) reduction(+: s)
  s += counter + acc[1];
  return s;
}
