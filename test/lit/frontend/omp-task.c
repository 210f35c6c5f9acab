// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

// Tasks: depend items name the array (a section), the element (a one-element view of the
// array at the item's index, evaluated where the task is created) or the scalar they order
// on; a variable the task does not share is read when the task is created and copied into
// the task; taskwait and taskgroup keep their place; clause expressions are evaluated.

#define CUTOFF 4

// CHECK-LABEL: func.func @blocks(
// CHECK: omp.parallel {
// CHECK: omp.single {
// CHECK: scf.while
// CHECK: %[[B:.*]] = memref.load %[[BLK:.*]][] : memref<i32>
// CHECK: %[[E:.*]] = memref.subview %arg0[%{{.*}}] [1] [1] : memref<?xf64> to memref<1xf64, strided<[1], offset: ?>>
// CHECK: omp.task depend(taskdependout -> %[[E]] : memref<1xf64, strided<[1], offset: ?>>) {
// CHECK-NEXT: %[[COPY:.*]] = memref.alloca() : memref<i32>
// CHECK-NEXT: memref.store %[[B]], %[[COPY]][] : memref<i32>
// CHECK: omp.terminator
// CHECK: omp.taskwait
// CHECK: omp.taskgroup {
// CHECK: omp.task depend(taskdependin -> %arg0 : memref<?xf64>, taskdependinout -> %{{.*}} : memref<f64>) {
void blocks(double *a, int n) {
  double total = 0.0;
#pragma omp parallel
#pragma omp single
  {
    int blk;
    for (blk = 0; blk < 4; blk++) {
#pragma omp task depend(out: a[blk * n / 4])
      for (int i = blk * n / 4; i < (blk + 1) * n / 4; i++)
        a[i] = blk;
      blk = blk + 0;
    }
#pragma omp taskwait
#pragma omp taskgroup
    {
#pragma omp task depend(in: a[0:n]) depend(inout: total) shared(total)
      total += a[0];
    }
  }
}

// CHECK-LABEL: func.func @clauses(
// CHECK: %[[GT:.*]] = arith.cmpi sgt
// CHECK: %[[IF:.*]] = arith.cmpi ne
// CHECK: omp.task final(%{{.*}}) if(%[[IF]]) mergeable priority(%{{.*}} : i32) untied {
long clauses(int n) {
  long x = 0;
#pragma omp task shared(x) if(n > CUTOFF) final(n <= CUTOFF && !(n == 0)) priority(n % 3) untied mergeable
  x = n;
#pragma omp taskwait
  return x;
}

// A task joining a task reduction works on its own copy, set to the operator's identity,
// and combines it into the variable in a critical section when it is done.
// CHECK-LABEL: func.func @joined(
// CHECK: %[[SUM:.*]] = memref.alloca() : memref<f64>
// CHECK: omp.taskgroup {
// CHECK: omp.task {
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: memref.store %[[ZERO]], %[[MINE:.*]][] : memref<f64>
// CHECK: arith.addf
// CHECK: omp.critical {
// CHECK: %[[OLD:.*]] = memref.load %[[SUM]][] : memref<f64>
// CHECK: %[[PART:.*]] = memref.load %[[MINE]][] : memref<f64>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[PART]] : f64
// CHECK: memref.store %[[NEW]], %[[SUM]][] : memref<f64>
double joined(double *x, int n) {
  double sum = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: sum)
  for (int i = 0; i < n; i++) {
#pragma omp task in_reduction(+: sum)
    sum += x[i];
  }
  return sum;
}

// depend(inout: omp_all_memory): after every sibling created before it, before every one
// created after it: a taskwait on each side, and no depend item of its own.
// CHECK-LABEL: func.func @all_memory(
// CHECK: omp.task depend(taskdependout
// CHECK: omp.taskwait
// CHECK-NEXT: omp.task {
// CHECK: omp.taskwait
// CHECK: omp.task depend(taskdependinout
void all_memory(int *a, int *c) {
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out: a[0])
    a[0] = 1;
#pragma omp task depend(inout: omp_all_memory)
    c[0] = a[0] + 1;
#pragma omp task depend(inout: a[0])
    a[0] = c[0] * 10;
  }
}
