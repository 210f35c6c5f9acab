// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

// lastprivate(x): x is private in the loop, and the iteration that is last in sequential
// order, lb + ((ub - lb - 1) / step) * step, stores its copy into the x outside.

// CHECK-LABEL: func.func @main
// CHECK: %[[X:.*]] = memref.alloca() : memref<i32>
// CHECK: omp.parallel {
// CHECK: %[[MINE:.*]] = memref.alloca() : memref<i32>
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%[[LB:.*]]) to (%[[UB:.*]]) step (%[[S:.*]]) {
// CHECK: memref.store %{{.*}}, %[[MINE]][] : memref<i32>
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK: %[[M1:.*]] = arith.subi %[[SPAN]], %{{.*}} : index
// CHECK: %[[Q:.*]] = arith.divsi %[[M1]], %[[S]] : index
// CHECK: %[[OFF:.*]] = arith.muli %[[Q]], %[[S]] : index
// CHECK: %[[LAST:.*]] = arith.addi %[[LB]], %[[OFF]] : index
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[I]], %[[LAST]] : index
// CHECK: scf.if %[[IS]] {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[MINE]][] : memref<i32>
// CHECK-NEXT: memref.store %[[V]], %[[X]][] : memref<i32>

int main(void) {
  int x = 0;
#pragma omp parallel for lastprivate(x)
  for (int i = 3; i < 100; i += 4)
    x = i * 2;
  return x;
}
