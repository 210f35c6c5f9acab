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

// lastprivate(conditional: x): a store to the thread's copy also stores the iteration's
// number into the thread's stamp; after the loop, in a critical section, a later stamp than
// the team's slot (outside the region, -1 at first) takes the copy's value into x.
// CHECK-LABEL: func.func @conditional(
// CHECK: %[[X:.*]] = memref.alloca() : memref<i32>
// CHECK: %[[BEST:.*]] = memref.alloca() : memref<i64>
// CHECK: omp.parallel {
// CHECK: %[[COPY:.*]] = memref.alloca() : memref<i32>
// CHECK: %[[STAMP:.*]] = memref.alloca() : memref<i64>
// CHECK: omp.wsloop {
// CHECK: memref.store %{{.*}}, %[[COPY]][] : memref<i32>
// CHECK: %[[K:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: memref.store %[[K]], %[[STAMP]][] : memref<i64>
// CHECK: omp.critical {
// CHECK: %[[MINE:.*]] = memref.load %[[STAMP]][] : memref<i64>
// CHECK: %[[LATER:.*]] = arith.cmpi sgt, %[[MINE]], %{{.*}} : i64
// CHECK: scf.if %[[LATER]] {
// CHECK: memref.store %[[MINE]], %[[BEST]][] : memref<i64>
// CHECK: memref.store %{{.*}}, %[[X]][] : memref<i32>
int conditional(const int *a, int n) {
  int x = -1;
#pragma omp parallel for lastprivate(conditional: x)
  for (int k = 0; k < n; k++)
    if (a[k] > 0)
      x = k;
  return x;
}

// lastprivate of the loop's own variable: the last iteration stores the value the loop
// leaves it with, lb + ceil((ub - lb) / step) * step (101 for 3, 10, ..., 94).

// CHECK-LABEL: func.func @loop_variable
// CHECK: %[[V:.*]] = memref.alloca() : memref<i32>
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%[[LB:.*]]) to (%[[UB:.*]]) step (%[[S:.*]]) {
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK-NEXT: %[[TRIPS:.*]] = arith.ceildivsi %[[SPAN]], %[[S]] : index
// CHECK: %[[ALL:.*]] = arith.maxsi %[[TRIPS]], %{{.*}} : index
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[ALL]], %[[S]] : index
// CHECK-NEXT: %[[AFTER:.*]] = arith.addi %[[LB]], %[[OFF]] : index
// CHECK-NEXT: %[[C:.*]] = arith.index_cast %[[AFTER]] : index to i32
// CHECK-NEXT: memref.store %[[C]], %[[V]][] : memref<i32>

int loop_variable(void) {
  int i;
#pragma omp parallel for lastprivate(i)
  for (i = 3; i < 100; i += 7)
    ;
  return i;
}
