// RUN: carts cgeist %s -S -fopenmp | FileCheck %s
// RUN: carts cgeist %s -S -fopenmp | carts run - --create-dbs --debug-only=create-dbs 2>&1 >/dev/null | FileCheck %s --check-prefix=DBS
// RUN: not carts cgeist %s -S -fopenmp -DBOTH 2>&1 | FileCheck %s --check-prefix=BOTH

// `#pragma omp taskloop`: the iterations in chunks (grainsize(g) iterations each, or
// num_tasks(n) chunks, else 64 chunks), one omp.task per chunk marked arts.taskloop, all in a
// taskgroup unless nogroup. create-dbs lets the chunks share what they write (concurrent).

// CHECK-LABEL: func.func @main
// CHECK: omp.single
// CHECK: %[[PER:.*]] = arith.maxsi %c100, %c1 : index
// CHECK: %[[STRIDE:.*]] = arith.muli %[[PER]], %{{.*}} : index
// CHECK: omp.taskgroup {
// CHECK-NEXT: scf.for %[[FIRST:.*]] = %{{.*}} to %[[UB:.*]] step %[[STRIDE]] {
// CHECK: %[[LAST:.*]] = arith.minsi %{{.*}}, %[[UB]] : index
// CHECK: omp.task {
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step
// CHECK: memref.store
// CHECK: } {arts.taskloop}
// nogroup: no taskgroup around the second one.
// CHECK: omp.terminator
// CHECK-NEXT: }
// CHECK-NOT: omp.taskgroup
// CHECK: scf.for
// CHECK: omp.task {
// CHECK: } {arts.taskloop}
// DBS: [create-dbs] {{.*}}taskloop chunk: acquire mode=concurrent (chunks write disjoint iterations)

int main(void) {
  long a[1000];
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(100)
    for (int k = 0; k < 1000; k++)
      a[k] = k;
#pragma omp taskloop nogroup num_tasks(4)
    for (int k = 0; k < 1000; k++)
      a[k] += 1;
#ifdef BOTH
    // BOTH: omp-taskloop.c:[[@LINE+1]]:1: error: grainsize and num_tasks are exclusive on omp taskloop
#pragma omp taskloop grainsize(2) num_tasks(3)
    for (int k = 0; k < 10; k++)
      a[k] = 0;
#endif
  }
  return (int)a[999];
}
