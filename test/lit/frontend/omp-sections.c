// RUN: carts cgeist %s -S -fopenmp | FileCheck %s
// RUN: not carts cgeist %s -S -fopenmp -DSTRAY 2>&1 | FileCheck %s --check-prefix=STRAY

// `#pragma omp sections` is an omp.sections with one omp.section per section: the block's
// first statement starts one, and so does each `#pragma omp section`; the statements up to
// the next mark belong to it. `parallel sections` puts it in an omp.parallel.

// CHECK-LABEL: func.func @main
// CHECK: omp.parallel {
// CHECK-NEXT: omp.sections nowait {
// CHECK-NEXT: omp.section {
// CHECK: memref.store %{{.*}}, %[[A:.*]][] : memref<i32>
// CHECK-NEXT: omp.terminator
// CHECK: omp.section {
// CHECK: memref.store %{{.*}}, %[[B:.*]][] : memref<i32>
// CHECK: memref.store %{{.*}}, %[[C:.*]][] : memref<i32>
// CHECK-NEXT: omp.terminator
// CHECK: omp.parallel {
// CHECK-NEXT: omp.sections {
// CHECK-NEXT: omp.section {
// CHECK: omp.section {

int main(void) {
  int a = 0, b = 0, c = 0;
#pragma omp parallel
  {
#pragma omp sections nowait
    {
      a = 1;
#pragma omp section
      b = 2;
      c = 3;
    }
  }
#pragma omp parallel sections
  {
#pragma omp section
    a += 1;
#pragma omp section
    b += 1;
  }
#ifdef STRAY
  // STRAY: omp-sections.c:[[@LINE+1]]:1: error: '#pragma omp section' outside the block of an 'omp sections'
#pragma omp section
  c = 4;
#endif
  return a + b + c;
}
