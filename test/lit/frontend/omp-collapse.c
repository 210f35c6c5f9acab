// RUN: carts cgeist %s -S -fopenmp | FileCheck %s

// collapse(2) binds two perfectly nested canonical loops to one omp.loop_nest.

// CHECK-LABEL: func.func @fill(
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[M:.*]] = arith.index_cast %arg2 : i32 to index
// CHECK: omp.parallel {
// CHECK: omp.wsloop schedule(static) {
// CHECK: omp.loop_nest (%[[I:.*]], %[[J:.*]]) : index = (%{{.*}}, %{{.*}}) to (%[[N]], %[[M]]) step (%{{.*}}, %{{.*}}) {
// CHECK:   %[[ROW:.*]] = memref.load %arg0[%[[I]]] : memref<?xmemref<?xf32>>
// CHECK:   memref.store %{{.*}}, %[[ROW]][%[[J]]] : memref<?xf32>
void fill(float **a, int n, int m) {
#pragma omp parallel for collapse(2) schedule(static)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = i + j;
}

// A nest whose inner loop's bounds use the outer variable (a triangle): the threads share
// the outer loop; the inner one runs whole in each of its iterations, from the outer index.

// CHECK-LABEL: func.func @triangle(
// CHECK: omp.wsloop {
// CHECK: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: scf.for %[[J:.*]] = %[[I]] to %{{.*}} step %{{.*}} {
// CHECK:   memref.store %{{.*}}, %{{.*}}[%[[J]]] : memref<?xf32>
void triangle(float **a, int n) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++)
      a[i][j] = i - j;
}
