// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

// schedule(static, c) on a loop whose body asks its thread number: no omp.wsloop, but each
// thread's own chunks, k = t, t + T, ... (chunk k of thread k mod T, as OpenMP deals them),
// as plain code of the region, then the loop's barrier.

// CHECK-LABEL: func.func @main
// CHECK: omp.parallel {
// CHECK-NOT: omp.wsloop
// CHECK: %[[C:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK: %[[SPAN:.*]] = arith.muli %[[C]], %{{.*}} : index
// CHECK: %[[TEAM:.*]] = func.call @omp_get_num_threads() : () -> i32
// CHECK: %[[ME:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK: %[[T:.*]] = arith.index_cast %[[ME]] : i32 to index
// CHECK: %[[OFF:.*]] = arith.muli %[[T]], %[[SPAN]] : index
// CHECK: %[[FIRST:.*]] = arith.addi %{{.*}}, %[[OFF]] : index
// CHECK: %[[N:.*]] = arith.index_cast %[[TEAM]] : i32 to index
// CHECK: %[[STRIDE:.*]] = arith.muli %[[N]], %[[SPAN]] : index
// CHECK: scf.for %[[S:.*]] = %[[FIRST]] to %{{.*}} step %[[STRIDE]] {
// CHECK: %[[END:.*]] = arith.addi %[[S]], %[[SPAN]] : index
// CHECK: %[[HI:.*]] = arith.minsi %[[END]], %{{.*}} : index
// CHECK: scf.for %[[I:.*]] = %[[S]] to %[[HI]] step %{{.*}} {
// CHECK: func.call @omp_get_thread_num()
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]]] : memref<40xi32>
// CHECK: omp.barrier
// CHECK: omp.terminator

#include <omp.h>

int main(void) {
  int owner[40];
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < 40; i++)
    owner[i] = omp_get_thread_num();
  return owner[5];
}
