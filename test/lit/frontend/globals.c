// RUN: carts cgeist %s -S | FileCheck %s

// File-scope variables are memref.globals (rank 0 for scalars) read and written
// through memref.get_global; static ones are private, const ones constant, and
// uninitialised ones zero (pointers: uninitialized).

// CHECK-DAG: memref.global @counter : memref<i32> = dense<7>
// CHECK-DAG: memref.global "private" @hidden : memref<f64> = dense<0.000000e+00>
// CHECK-DAG: memref.global "private" constant @table : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 0.000000e+00]>
// CHECK-DAG: memref.global @grid : memref<2x3xi32> = dense<0>
// CHECK-DAG: memref.global @rows : memref<memref<?xmemref<?xf32>>> = uninitialized
// CHECK-DAG: memref.global "private" @calls.n : memref<i32> = dense<0>
int counter = 7;
static double hidden;
static const float table[4] = {1.0f, 2.0f, 3.0f};
int grid[2][3];
float **rows;

// CHECK-LABEL: func.func @bump(
// CHECK: %[[G:.*]] = memref.get_global @counter : memref<i32>
// CHECK: memref.load %[[G]][] : memref<i32>
// CHECK: memref.store %{{.*}}, %[[G]][] : memref<i32>
// CHECK: memref.get_global @grid : memref<2x3xi32>
// CHECK: memref.get_global @table : memref<4xf32>
int bump(int i) {
  counter += 1;
  grid[1][i] = counter;
  return (int)table[i];
}

// A static local is a private global named after its function.
// CHECK-LABEL: func.func @calls(
// CHECK: memref.get_global @calls.n : memref<i32>
int calls(void) {
  static int n = 0;
  n++;
  return n;
}
