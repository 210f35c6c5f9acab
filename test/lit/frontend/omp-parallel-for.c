// RUN: carts cgeist %s -S -fopenmp | FileCheck %s --check-prefix=OMP
// RUN: carts cgeist %s -S | FileCheck %s --check-prefix=SEQ

// `#pragma omp parallel for` is omp.parallel { omp.wsloop { omp.loop_nest } } with the
// loop bounds computed before the parallel region; without -fopenmp the pragma is
// ignored and the loop is a plain scf.for.

#define CHUNK 8

// OMP-LABEL: func.func @scale(
// OMP: %[[LB:.*]] = arith.constant 0 : index
// OMP: %[[UB:.*]] = arith.index_cast %arg1 : i32 to index
// OMP: %[[ST:.*]] = arith.constant 1 : index
// OMP: omp.parallel {
// OMP-NEXT: omp.wsloop {
// OMP-NEXT: omp.loop_nest (%[[I:.*]]) : index = (%[[LB]]) to (%[[UB]]) step (%[[ST]]) {
// OMP:   memref.load %arg0[%[[I]]] : memref<?xf32>
// OMP:   memref.store %{{.*}}, %arg0[%[[I]]] : memref<?xf32>
// OMP:   omp.yield
// OMP: }
// OMP: omp.terminator
// SEQ-LABEL: func.func @scale(
// SEQ-NOT: omp.
// SEQ: scf.for
void scale(float *a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = 2.0f * a[i];
}

// Schedules with a constant (macro) chunk, and nowait.
// OMP-LABEL: func.func @schedules(
// OMP: omp.wsloop schedule(static) {
// OMP: %[[C8:.*]] = arith.constant 8 : index
// OMP: omp.wsloop schedule(dynamic = %[[C8]] : index) {
// OMP: omp.wsloop schedule(guided) {
// OMP: omp.wsloop nowait {
void schedules(float *a, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    a[i] = 0.0f;
#pragma omp parallel for schedule(dynamic, CHUNK)
  for (int i = 0; i < n; i++)
    a[i] += 1.0f;
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < n; i++)
    a[i] *= 3.0f;
#pragma omp parallel for nowait
  for (int i = 0; i < n; i++)
    a[i] -= 1.0f;
}

// private/firstprivate get a fresh alloca inside omp.parallel (one per thread);
// firstprivate copies the outer value in. Shared variables are used directly.
// OMP-LABEL: func.func @privates(
// OMP: %[[T:.*]] = memref.alloca() : memref<f32>
// OMP: %[[S:.*]] = memref.alloca() : memref<f32>
// OMP: omp.parallel {
// OMP:   %[[PT:.*]] = memref.alloca() : memref<f32>
// OMP:   %[[PS:.*]] = memref.alloca() : memref<f32>
// OMP:   %[[OUTER:.*]] = memref.load %[[S]][] : memref<f32>
// OMP:   memref.store %[[OUTER]], %[[PS]][] : memref<f32>
// OMP:   omp.wsloop {
// OMP:     memref.load %[[PS]][] : memref<f32>
// OMP:     memref.store %{{.*}}, %[[PT]][] : memref<f32>
void privates(float *a, float *b, int n) {
  float t = 0.0f;
  float s = 2.0f;
#pragma omp parallel for private(t) firstprivate(s) shared(a, b)
  for (int i = 0; i < n; i++) {
    t = a[i] * s;
    b[i] = t;
  }
}

// Variables declared inside the loop body are per-thread allocas of the region.
// OMP-LABEL: func.func @body_locals(
// OMP: omp.parallel {
// OMP-NEXT: %[[ACC:.*]] = memref.alloca() : memref<f64>
// OMP: omp.loop_nest
// OMP:   memref.store %{{.*}}, %[[ACC]][] : memref<f64>
// OMP:   scf.for
void body_locals(double **m, double *rowsum, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double acc = 0.0;
    for (int j = 0; j < n; j++)
      acc += m[i][j];
    rowsum[i] = acc;
  }
}
