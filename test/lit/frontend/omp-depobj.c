// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

// A depend object stands for the item and kind its depobj directive gave it, evaluated at the
// directive: a task's depend(depobj: o) is that item (here a one-element view of a[i] taken
// where the directive is, and x), with the kind the last update set.

// CHECK-LABEL: func.func @objects(
// CHECK: %[[E:.*]] = memref.subview %arg0[%{{.*}}] [1] [1]
// CHECK: omp.task depend(taskdependinout -> %[[E]] : memref<1xf64, strided<[1], offset: ?>>, taskdependin -> %[[X:.*]] : memref<i32>)
// CHECK: omp.task depend(taskdependout -> %[[X]] : memref<i32>)
#include <omp.h>

void objects(double *a, int i) {
  int x = 0;
  omp_depend_t oa, ox;
#pragma omp depobj(oa) depend(inout: a[i])
#pragma omp depobj(ox) depend(in: x)
  i = i + 1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(depobj: oa, ox) shared(x)
    a[0] = x;
#pragma omp depobj(ox) update(out)
#pragma omp task depend(depobj: ox) shared(x)
    x = 2;
  }
#pragma omp depobj(oa) destroy
#pragma omp depobj(ox) destroy
}
