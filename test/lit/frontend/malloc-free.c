// RUN: carts cgeist %s -S | FileCheck %s

#include <stdlib.h>

// malloc(n * sizeof(T)) cast to T* is memref.alloc(n); the size in bytes is divided
// by the element size at compile time; free is memref.dealloc.
// CHECK-LABEL: func.func @vector(
// CHECK: %[[N:.*]] = arith.index_cast %arg0 : i32 to index
// CHECK: %[[A:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK: memref.dealloc %[[A]] : memref<?xf32>
void vector(int n) {
  float *a = (float *)malloc(n * sizeof(float));
  free(a);
}

// Without a cast (void * converted implicitly) and with sizeof first.
// CHECK-LABEL: func.func @implicit(
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
void implicit(long n) {
  double *d = malloc(sizeof(double) * n);
  free(d);
}

// A constant byte count becomes a constant element count; several factors multiply.
// CHECK-LABEL: func.func @sizes(
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: memref.alloc(%[[C16]]) {alignment = 64 : i64} : memref<?xi32>
// CHECK: %[[R:.*]] = arith.index_cast %arg0 : i32 to index
// CHECK: %[[C:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[RC:.*]] = arith.muli %[[R]], %[[C]] : index
// CHECK: memref.alloc(%[[RC]]) {alignment = 64 : i64} : memref<?xf32>
void sizes(int rows, int cols) {
  int *k = (int *)malloc(64);
  float *m = (float *)malloc(rows * cols * sizeof(float));
  free(k);
  free(m);
}

// A pointer table built by a malloc loop (the shape canonicalize-memrefs raises).
// CHECK-LABEL: func.func @table(
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xmemref<?xf32>>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[ROW:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK:   memref.store %[[ROW]], %[[T]][%[[I]]] : memref<?xmemref<?xf32>>
// CHECK: }
// CHECK: return %[[T]] : memref<?xmemref<?xf32>>
float **table(int n, int m) {
  float **t = (float **)malloc(n * sizeof(float *));
  for (int i = 0; i < n; i++)
    t[i] = (float *)malloc(m * sizeof(float));
  return t;
}

// calloc zero-fills with a loop.
// CHECK-LABEL: func.func @zeroed(
// CHECK: %[[Z:.*]] = memref.alloc(%[[CNT:.*]]) {alignment = 64 : i64} : memref<?xi32>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[CNT]] step
// CHECK:   memref.store %[[ZERO]], %[[Z]][%[[J]]] : memref<?xi32>
int *zeroed(int n) { return (int *)calloc(n, sizeof(int)); }
